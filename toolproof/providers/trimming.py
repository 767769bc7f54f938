"""What a run keeps of a reply body: the native body, trimmed to what the grader reads.

A reply within the 5 MB body limit can hold about 50,000 tool calls, or megabytes of text; the
readers read its first MAX_CALLS calls and MAX_TEXT characters of its text (providers/reply.py).
A run stores each turn's body in the results file, echoes it in turn 2 and once more per
counterfactual variant, so it keeps only that much: each wire module's `trim_<wire>(body)`
walks the body as its reader does and answers (kept body, dropped), where the kept body is
still a valid body of that wire format and `dropped` counts what was left out:
{"calls": n, "characters": m} (only the non-zero counts; {} when nothing was dropped, and then
the body is the very object given). Everything else in the body (reasoning, signatures, usage,
fields of no known use) is kept as received: the body limit bounds it.

The kept body reads as the whole one did: the same calls and text, and, with the counts added
back (`counted`, which transcripts.py applies to a turn's `dropped`), the same `calls_not_read`
and `text_not_read`, so a results file re-grades to the verdicts and reasons of the live run.

Pure: no I/O, never raises on a strange body, never changes the body it is given (the parts it
trims are copied; the rest is shared).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from .reply import MAX_CALLS, MAX_TEXT, Reply


class Keeper:
    """Walks one reply's calls and text pieces in the reader's order: keeps the first MAX_CALLS
    calls and the text up to MAX_TEXT characters, and counts the rest.

    The text is the reader's: its pieces joined with `sep` ("\\n" or "", the wire's). A piece is
    kept while the text before it (and its separator) is short of MAX_TEXT, cut to what is left
    (at least one character, so a separator the reader would read at the cut is still there);
    the pieces after a cut are dropped whole. So the kept text's first MAX_TEXT characters are
    the whole text's, and "characters" counts the joined text's characters not kept.
    """

    def __init__(self, sep: str):
        self.sep = sep
        self.calls = 0              # calls kept
        self.calls_dropped = 0
        self.pieces = 0             # text pieces seen
        self.end = 0                # the whole text's length so far
        self.kept_end = 0           # the kept text's length so far

    def call(self) -> bool:
        """Is the next call kept?"""
        if self.calls < MAX_CALLS:
            self.calls += 1
            return True
        self.calls_dropped += 1
        return False

    def text(self, piece: str, sep: str | None = None) -> str | None:
        """The next text piece as kept (the very string when whole), or None: dropped. `sep` is
        the separator the reader puts before it (default: the wire's, none before the first)."""
        gap = len(sep) if sep is not None else len(self.sep) if self.pieces else 0
        before, start = self.end, self.end + gap
        self.pieces += 1
        self.end = start + len(piece)
        if self.pieces > 1 and before >= MAX_TEXT:      # a cut came before: so does every later piece
            return None
        kept = piece[:max(1, MAX_TEXT - start)]
        self.kept_end = start + len(kept)               # the kept pieces are the first ones
        return kept

    def dropped(self) -> dict:
        """{"calls": n, "characters": m}, only the counts that are not zero."""
        out = {}
        if self.calls_dropped:
            out["calls"] = self.calls_dropped
        if self.end > self.kept_end:
            out["characters"] = self.end - self.kept_end
        return out


def counted(reply: Reply, dropped: Any) -> Reply:
    """The reply read from a kept body, with what the run dropped from that body counted back
    (a turn's `dropped`; anything but non-negative integers is ignored: a file may hold junk). A
    reply read as unreadable or blocked read no calls and no text, so it counts none either."""
    if not isinstance(dropped, dict) or not dropped or reply.malformed or reply.blocked:
        return reply
    calls, characters = (n if isinstance(n, int) and not isinstance(n, bool) and n > 0 else 0
                         for n in (dropped.get("calls"), dropped.get("characters")))
    if not calls and not characters:
        return reply
    return replace(reply, calls_not_read=reply.calls_not_read + calls,
                   text_not_read=reply.text_not_read + characters)


def kept_list(items: list, keep: Keeper, kind) -> list:
    """The items of one list of a body as kept: `kind(item)` says what the reader reads in it:
    "call", ("text", the text, its key) or None (anything else, kept as it is)."""
    out = []
    for item in items:
        what = kind(item)
        if what == "call":
            if keep.call():
                out.append(item)
        elif what is not None:
            _, text, key = what
            cut = keep.text(text)
            if cut is not None:
                out.append(item if cut is text else {**item, key: cut})
        else:
            out.append(item)
    return out
