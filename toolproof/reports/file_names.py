"""The names of the files the page downloads: one rule for every export (a scorecard as JSON,
Markdown or HTML, a comparison, the leaderboard), so a download says which run it holds.

A run's file is named for the run's name (its label, else its provider), its model and the date
it was made: `toolproof-nightly-gpt-4o-2026-12-06.html`. Every part comes from a results file,
so any text may be there: only letters, digits, `_` and a dot between two of them are kept inside a
part (anything else becomes one `-`), so there is no separator, no `..` and no hidden file; each
part is cut at MAX_PART characters, and a name with nothing left falls back to a fixed word.

Pure: no I/O; strings in, a file name out.
"""
from __future__ import annotations

import re
import unicodedata

PREFIX = "toolproof"
MAX_PART = 40
MAX_BYTES = 200                                    # file systems allow 255 bytes a name; leave room
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_LONE_DOT = re.compile(r"(?<![^\W_])\.|\.(?![^\W_])")


def part(text) -> str:
    """One piece of a file name: `text` with every run of characters other than letters, digits,
    `_` and a dot between two of them turned into one `-`, nothing but a letter or digit at
    either end, at most MAX_PART characters."""
    text = unicodedata.normalize("NFC", str(text or ""))
    kept = "".join(c if c.isalnum() or c in "._" else "-" for c in text)
    kept = _LONE_DOT.sub("-", kept)                  # a dot only between two letters or digits ("4.1")
    return re.sub(r"-{2,}", "-", kept)[:MAX_PART].strip(".-_")


def _pieces(parts) -> list[str]:
    """The non-empty parts, each once (a label that is the model's name is not written twice)."""
    pieces: list[str] = []
    for piece in map(part, parts):
        if piece and piece.lower() not in (p.lower() for p in pieces):
            pieces.append(piece)
    return pieces


def bounded(stem: str, ext: str) -> str:
    """`stem.ext` in at most MAX_BYTES UTF-8 bytes: the stem cut on a character boundary (a
    40-character CJK label is 120 bytes, so a comparison of two such runs would be over 255)."""
    room = MAX_BYTES - len(ext.encode()) - 1
    cut = stem.encode()[:max(room, 0)].decode("utf-8", "ignore").rstrip(".-_")
    return f"{cut}.{ext}"


def _joined(parts, ext: str) -> str:
    return bounded("-".join([PREFIX, *_pieces(parts)]), ext)


def _date(doc: dict) -> str:
    found = _DATE.match(str(doc.get("created") or ""))
    return found.group() if found else ""


def _field(doc, key: str) -> str:
    value = doc.get(key) if isinstance(doc, dict) else None
    return value if isinstance(value, str) else ""


def run_name(doc: dict, name: str = "") -> list[str]:
    """The parts that name one run: its name (`name` given by the user, else the file's label,
    else its provider), its model and its date (YYYY-MM-DD of `created`)."""
    if not isinstance(doc, dict):
        doc = {}
    return [name or _field(doc, "label") or _field(doc, "provider"), _field(doc, "model"), _date(doc)]


def run_file_name(doc: dict, ext: str, *, name: str = "") -> str:
    """The download name of a run's scorecard or results file. `doc` is the results file or the
    scorecard's `source` (both hold label, provider, model, created); the bundled fixtures are
    no run and keep one plain name."""
    if isinstance(doc, dict) and doc.get("kind") == "fixture":
        return f"{PREFIX}-fixtures.{ext}"
    stem = _joined(run_name(doc, name), ext)
    return stem if stem != f"{PREFIX}.{ext}" else f"{PREFIX}-run.{ext}"


def comparison_file_name(a: dict, b: dict, ext: str) -> str:
    """'toolproof-compare-<A>-vs-<B>.<ext>', each run named as run_file_name names it."""
    def short(doc, fallback: str) -> str:
        return "-".join(_pieces(run_name(doc))) or fallback

    return bounded(f"{PREFIX}-compare-{short(a, 'A')}-vs-{short(b, 'B')}", ext)


def board_file_name(board: dict, ext: str) -> str:
    """'toolproof-board-<N>-runs-<newest date>.<ext>' for a leaderboard of N runs."""
    # every run on it, ranked or not (a run with no score is listed apart in `unranked`)
    lists = [board.get(key) for key in ("runs", "unranked")] if isinstance(board, dict) else []
    runs = [r for found in lists if isinstance(found, list) for r in found if isinstance(r, dict)]
    dates = sorted(d for d in map(_date, runs) if d)
    count = f"{len(runs)}-run" + ("" if len(runs) == 1 else "s")
    return _joined(["board", count, dates[-1] if dates else ""], ext)
