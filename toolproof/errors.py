"""Misuse of the harness (a bad file, a bad flag) and model findings.

Two different things on purpose: a `ToolProofError` means *we* cannot go on (the suite file is
wrong, a flag is unknown) and is shown to the user as one clear line by the CLI or the page;
a `Finding` is something the *model* did wrong, kept as data and never raised.
"""
from __future__ import annotations

from typing import NamedTuple


class ToolProofError(Exception):
    """A problem with ToolProof's input, named by file, JSON path and reason."""

    def __init__(self, reason: str, *, source: str | None = None, path: str | None = None):
        self.reason = reason
        self.source = source
        self.path = path
        super().__init__(self.line())

    def line(self) -> str:
        """One line for humans: `file: at $.cases[3].id: reason`."""
        where = []
        if self.source:
            where.append(self.source)
        if self.path:
            where.append(f"at {self.path}")
        return ": ".join(where + [self.reason]) if where else self.reason


class Finding(NamedTuple):
    """One thing a model got wrong, e.g. code="schema.required", path="$.city"."""

    code: str
    path: str
    message: str

    def to_json(self) -> dict:
        return {"code": self.code, "path": self.path, "message": self.message}


def json_path(parts: list | tuple) -> str:
    """Render `["cases", 3, "id"]` as `$.cases[3].id` (the form every message uses)."""
    out = "$"
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else f".{part}"
    return out
