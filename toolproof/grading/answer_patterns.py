"""Phrases and lexicon entries as patterns over a reply: a suite's phrase as a whole-word
pattern (spacing and hyphens free, a trailing * a word prefix; a value read from a tool result
punctuation-tolerant), and a lexicon list as one alternation of the entries whose first word the
reply uses. Every pattern here passes toolproof.suite.regex_safety (tests/grading/
test_answer_text.py): words are literal, the separators between them bounded.

Pure: no I/O.
"""
from __future__ import annotations

import re
from functools import lru_cache

from .answer_text import TOKEN, Reading, normalise

MAX_FOUND = 1000        # places of one phrase or lexicon list a rule looks at, at most
_WORD_CHAR = re.compile(r"[^\W_]")


@lru_cache(maxsize=4096)
def phrase_pattern(phrase: str, loose: bool = False) -> re.Pattern | None:
    """A phrase as a whole-word pattern: spacing and hyphens between its words free, a trailing
    `*` a word prefix; `loose` (a value read from a tool result): any punctuation between words.
    None for a phrase without a letter or digit."""
    text = normalise(phrase).strip()
    prefix = text.endswith("*")
    text = text.rstrip("*").strip()
    parts = re.split(r"([^\W_]+)", text)
    if len(parts) < 2:
        return None
    pieces = []
    for k, part in enumerate(parts):
        if k % 2:
            pieces.append(re.escape(part))
        elif 0 < k < len(parts) - 1:        # between two words
            stripped = part.strip()
            if loose or stripped in ("", "-"):
                pieces.append(r"[\W_]+" if part else "")
            else:
                pieces.append(r"[ \-]*" + re.escape(stripped) + r"[ \-]*")
        else:                               # before the first or after the last word
            pieces.append(re.escape(part.strip()) if not loose else "")
    body = "".join(pieces)
    # No look-behind first: a pattern that starts with a letter is searched for by that letter,
    # many times faster; find_phrase checks the word's start.
    return re.compile(body + (r"[^\W_]*" if prefix else r"(?![^\W_])"))


def find_phrase(reading: Reading, phrase: str, loose: bool = False) -> list[tuple[int, int]]:
    """Where a phrase is, at most MAX_FOUND places (a rule needs one that counts)."""
    pattern = phrase_pattern(phrase, loose)
    if pattern is None:
        return []
    norm = reading.norm
    starts = (m for m in pattern.finditer(norm) if not (m.start() and _WORD_CHAR.match(norm, m.start() - 1)))
    return [(m.start(), m.end()) for m, _ in zip(starts, range(MAX_FOUND))]


# ---- lexicon entries as patterns -----------------------------------------------------------
def entry(phrase: str) -> tuple:
    """A lexicon phrase as a tuple of word tests: a word, "'s" (a word ending so: it's, that's)
    or "impersonat*" (a word starting so)."""
    phrase = normalise(phrase).strip()
    head = ()
    if phrase.startswith("'"):
        first, _, phrase = phrase.partition(" ")
        head = (first,)
    rest = phrase.replace("-", " ")
    return head + tuple(rest.split() if "*" in rest else TOKEN.findall(rest))


SEP = r"[\s\-]{1,4}"    # between the words of a lexicon entry (bounded: see regex_safety)


def _word_pattern(test: str) -> str:
    if test.startswith("'"):
        return r"[^\W_]{1,30}" + re.escape(test)
    if test.endswith("*"):
        return re.escape(test[:-1]) + r"[^\W_]{0,40}"
    return re.escape(test)


def alternatives(entries, vocab: frozenset | None = None) -> str | None:
    """Lexicon entries (word tuples) as one regex alternation, longest first, words apart by
    spaces or hyphens; with `vocab`, only entries whose first word the reply uses. None when
    no entry is left."""
    kept = [e for e in entries if e and (vocab is None or e[0].startswith("'") or e[0].endswith("*")
                                         or e[0] in vocab)]
    if not kept:
        return None
    kept.sort(key=lambda e: (-sum(map(len, e)) - len(e), e))
    return "|".join(SEP.join(_word_pattern(t) for t in e) for e in kept)


@lru_cache(maxsize=1024)
def compiled(pattern: str) -> re.Pattern:
    """A pattern built from lexicon entries, whole words (compiled once)."""
    return re.compile(r"(?<![^\W_'])(?:" + pattern + r")(?![^\W_])")


def find_entries(reading: Reading, entries, start: int = 0, end: int | None = None,
                 most: int | None = None) -> list[tuple[int, int]]:
    """Where lexicon entries are in the reply (or between start and end), at most `most`
    (MAX_FOUND) places."""
    body = alternatives(entries, reading.vocab)
    if body is None:
        return []
    found = compiled(body).finditer(reading.norm, start, len(reading.norm) if end is None else end)
    return [(m.start(), m.end()) for m, _ in zip(found, range(most or MAX_FOUND))]


PATTERNS = (_WORD_CHAR,)
