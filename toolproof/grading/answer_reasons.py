"""Reasons in a reply that contradict the result's: part of the `grounded` rule. "It was
cancelled because the item was out of stock" when the result says "reason": "payment declined"
invents a cause, however right the status is. A reason is read after a cue (because, due to;
porque, devido a; porque, debido a) to the end of its clause; the kinds of reason it names
(payment, stock, overbooking, funds, verification, fraud, address: answer_lexicon.REASONS)
must include one the result's reason fields (reason, error, cause, note) name, where they name one. A reason of no known kind, or a
result that names none, is left alone, and so is a denied or questioned reason ("not because
of stock").

Pure: no I/O.
"""
from __future__ import annotations

import re
from bisect import bisect_left
from typing import Any

from . import answer_lexicon as lex
from .answer_patterns import find_phrase
from .answer_text import STATED, Reading

# a negation right before a cue denies the reason ("not because of stock", "não porque", "no por")
NOT_BEFORE = re.compile(r"(?<![^\W_])(?:not|não|nao|no|nor|nem|ni)(?: just| only| só| solo| sólo)? $")
MAX_CUES = 50           # reason cues of a reply the rule reads, at most


def _reasons(value: Any):
    """The strings of the result's reason fields: a key with "reason", "error" or "cause" in its
    name, or a "note" (not messages or documents, whose words are no verdict on the outcome)."""
    if isinstance(value, dict):
        for k, v in value.items():
            if isinstance(v, str) and (any(w in k.lower() for w in ("reason", "error", "cause")) or k.lower() == "note"):
                yield v
            else:
                yield from _reasons(v)
    elif isinstance(value, list):
        for v in value:
            yield from _reasons(v)


def kinds(reading: Reading, start: int = 0, end: int | None = None) -> dict:
    """{kind: (start, end) of its first word} of the reasons named between start and end."""
    out = {}
    for kind, words in lex.REASONS.items():
        for s, e in (m for w in words for m in find_phrase(reading, w)):
            if start <= s and (end is None or e <= end) and (kind not in out or s < out[kind][0]):
                out[kind] = (s, e)
    return out


def result_kinds(mocks: Any) -> frozenset:
    """The kinds of reason the result's reason fields name."""
    return frozenset(k for text in _reasons(mocks or {}) for k in kinds(Reading(text)))


def contradicted(reading: Reading, given: frozenset) -> tuple | None:
    """(start, end, the kinds named, the result's kinds), as text, of the first stated reason whose kinds
    the result names none of; None when there is none, or the result names no kind."""
    if not given:
        return None
    cues = sorted({m for words in lex.BECAUSE.values() for w in words for m in find_phrase(reading, w)})
    if not cues:
        return None
    every = sorted((s, e, kind) for kind, words in lex.REASONS.items() for w in words
                   for s, e in find_phrase(reading, w))      # read once, not per cue
    for s, e in cues[:MAX_CUES]:
        if any(reading.polarity(at)[0] != STATED for at in {s, max(0, s - 2)}) or NOT_BEFORE.search(reading.norm, max(0, s - 8), s):
            continue                    # "not because of stock", "if it's because of…"
        clause = reading.clause_at(e)
        named: dict = {}
        for ks, ke, kind in every[bisect_left(every, (e,)):]:
            if ke > clause.end:
                break
            if kind not in named and reading.polarity(ks)[0] == STATED:
                named[kind] = (ks, ke)
        if named and not set(named) & given:
            return s, max(at[1] for at in named.values()), "/".join(sorted(named)), ", ".join(sorted(given))
    return None
