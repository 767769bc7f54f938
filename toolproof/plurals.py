"""Counts in words: "1 case", "2 cases", "1 point", never "case(s)".

The one place a number meets its noun in what ToolProof shows (reports, the page, CLI lines).
English only: a noun whose plural is not noun + "s" passes its own ("1 reply", "3 replies").

Pure: no I/O.
"""
from __future__ import annotations


def plural(count: int | float, noun: str, many: str | None = None) -> str:
    """The noun as it reads after `count`: singular for exactly 1, plural otherwise (0 cases,
    1.5 points)."""
    return noun if count == 1 else (many if many is not None else noun + "s")


def counted(count: int | float, noun: str, many: str | None = None) -> str:
    """"1 case", "2 cases", "0 replies" (with many="replies")."""
    return f"{count} {plural(count, noun, many)}"
