"""Phrases and lexicon entries found in a reply, as whole words: a suite's phrase (spacing and
hyphens free, a trailing * a word prefix; a value read from a tool result punctuation-tolerant),
and the entries of a lexicon list (longest first where several start at one place, an entry only
when the reply uses its first word).

What is found is defined by regular expressions: `phrase_pattern`, and the alternation of a
reply's entries (`alternatives`, `compiled`). Every one passes toolproof.suite.regex_safety. A
reply of up to LONG_REPLY characters is searched without them: a string search for the first word,
then a walk over the words that follow, as the expression would match them. Compiling a pattern
per phrase and per reply cost half of grading the fixtures, which every load of the page does;
a longer reply, where the walk would be slower than the compiled search, is searched with the
expressions. tests/grading/test_word_search.py checks that both ways find the same places.

Pure: no I/O.
"""
from __future__ import annotations

import re
from heapq import merge
from functools import lru_cache

from .answer_text import TOKEN, Reading, normalise

MAX_FOUND = 1000        # places of one phrase or lexicon list a rule looks at, at most
LONG_REPLY = 20_000     # characters: a longer reply is searched with the compiled expressions
LONG_PHRASE = 12        # words: a longer phrase too


@lru_cache(maxsize=4096)
def phrase_plan(phrase: str, loose: bool = False) -> tuple | None:
    """A phrase read for find_phrase: (lead, words, gaps, trail, prefix). Its words are literal;
    a gap between two words is None (any run of spaces and punctuation: the words' spacing and
    hyphens are free, and with `loose` any punctuation) or the punctuation that must be there
    (spaces and hyphens around it free); lead and trail are the punctuation right before the
    first word and after the last (none when loose); a trailing `*` makes the last word a prefix.
    None for a phrase without a letter or digit."""
    text = normalise(phrase).strip()
    prefix = text.endswith("*")
    text = text.rstrip("*").strip()
    parts = re.split(r"([^\W_]+)", text)
    if len(parts) < 2:
        return None
    gaps = tuple(None if loose or part.strip() in ("", "-") else part.strip() for part in parts[2:-1:2])
    return ("" if loose else parts[0].strip(), tuple(parts[1::2]), gaps,
            "" if loose else parts[-1].strip(), prefix)


def _phrase_end(norm: str, at: int, plan: tuple) -> int:
    """Where the phrase found at `at` (its lead and first word are there) ends, or -1: its other
    words tried as a backtracking regex tries them (a gap of required punctuation can start at any
    of the spaces and hyphens before it, the latest first), each place once."""
    lead, words, gaps, trail, prefix = plan
    n = len(norm)
    tries, tried = [(1, at + len(lead) + len(words[0]))], set()
    while tries:
        k, pos = tries.pop()
        if (k, pos) in tried:           # a place already tried failed from there: no need again
            continue
        tried.add((k, pos))
        if k == len(words):
            if not norm.startswith(trail, pos):
                continue
            pos += len(trail)
            if prefix:
                while pos < n and norm[pos].isalnum():
                    pos += 1
            elif pos < n and norm[pos].isalnum():
                continue
            return pos
        gap, word = gaps[k - 1], words[k]
        if gap is None:
            after = pos
            while after < n and not norm[after].isalnum():
                after += 1
            if after > pos and norm.startswith(word, after):
                tries.append((k + 1, after + len(word)))
            continue
        run = pos
        while run < n and norm[run] in " -":
            run += 1
        for start in range(pos, run + 1):                   # pushed first, tried last
            if norm.startswith(gap, start):
                after = start + len(gap)
                while after < n and norm[after] in " -":
                    after += 1
                if norm.startswith(word, after):
                    tries.append((k + 1, after + len(word)))
    return -1


@lru_cache(maxsize=1024)
def phrase_pattern(phrase: str, loose: bool = False) -> re.Pattern | None:
    """The phrase as a pattern: what find_phrase finds, but for a match in a word's middle."""
    plan = phrase_plan(phrase, loose)
    if plan is None:
        return None
    lead, words, gaps, trail, prefix = plan
    body = re.escape(lead) + re.escape(words[0])
    for gap, word in zip(gaps, words[1:]):
        body += (r"[\W_]+" if gap is None else r"[ \-]*" + re.escape(gap) + r"[ \-]*") + re.escape(word)
    # No look-behind first: a pattern that starts with a letter is searched for by that letter,
    # many times faster; find_phrase checks the word's start.
    return re.compile(body + re.escape(trail) + (r"[^\W_]*" if prefix else r"(?![^\W_])"))


def _hyphens_apart(plan: tuple) -> bool:
    """Must two of the phrase's words be apart by hyphens alone (and spaces)?"""
    return any(gap is not None and not gap.strip(" -") for gap in plan[2])


def find_phrase(reading: Reading, phrase: str, loose: bool = False) -> list[tuple[int, int]]:
    """Where a phrase is, as whole words, at most MAX_FOUND places (a rule needs one that
    counts); left to right, none inside another."""
    plan = phrase_plan(phrase, loose)
    if plan is None:
        return []
    norm, first = reading.norm, plan[0] + plan[1][0]
    # The pattern (compiled, its loop in C) searches a longer reply or a longer phrase, where the
    # walk's loop in Python is slower (a phrase of 2,000 words on a reply of 10,000 characters:
    # 0.14 s against 3.8); but not a phrase whose words must be apart by hyphens alone ("a -- b"):
    # the pattern backtracks through every way of placing each (0.7 s with 14 of them, tripling with
    # each more), where the walk tries each place once.
    if (len(norm) > LONG_REPLY or len(plan[1]) > LONG_PHRASE) and not _hyphens_apart(plan):
        found = (m for m in phrase_pattern(phrase, loose).finditer(norm)
                 if not (m.start() and norm[m.start() - 1].isalnum()))
        return [m.span() for m, _ in zip(found, range(MAX_FOUND))]
    if not all(word in norm for word in plan[1]):
        return []                               # a word the reply never holds: found nowhere
    found, at = [], 0
    while len(found) < MAX_FOUND:
        start = norm.find(first, at)
        if start < 0:
            break
        end = _phrase_end(norm, start, plan)
        if end < 0:
            at = start + 1
            continue
        if not (start and norm[start - 1].isalnum()):        # a word's start, not its middle
            found.append((start, end))
        at = end
    return found


# ---- lexicon entries ------------------------------------------------------------------------
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


# An entry is a tuple of word tests: a word ("can't"), "'s" (a word of 1-30 letters ending so) or
# "prefix*" (the rest of the word at most 40 letters); its words are apart by 1-4 spaces or hyphens
# and it ends a word. Where the reply does not use an entry's first word as a word of its own, the
# entry is not looked for, so a reply that only says "can't" is never read as saying "can".
SEP = r"[\s\-]{1,4}"    # between the words of an entry (bounded: see regex_safety)


def _word_pattern(test: str) -> str:
    if test.startswith("'"):
        return r"[^\W_]{1,30}" + re.escape(test)
    if test.endswith("*"):
        return re.escape(test[:-1]) + r"[^\W_]{0,40}"
    return re.escape(test)


def alternatives(entries, vocab: frozenset | None = None) -> str | None:
    """Lexicon entries as one regex alternation, longest first, words apart by spaces or hyphens;
    with `vocab`, only entries whose first word the reply uses. None when no entry is left."""
    kept = [e for e in entries if e and (vocab is None or not _plain(e[0]) or e[0] in vocab)]
    kept.sort(key=lambda e: (-sum(map(len, e)) - len(e), e))
    return "|".join(SEP.join(_word_pattern(t) for t in e) for e in kept) or None


@lru_cache(maxsize=256)
def compiled(pattern: str) -> re.Pattern:
    """A pattern built from lexicon entries, whole words."""
    return re.compile(r"(?<![^\W_'])(?:" + pattern + r")(?![^\W_])")


def _plain(test: str) -> bool:
    """A word test that is a word (not "'s", a word ending so, nor "prefix*")."""
    return not (test.startswith("'") or test.endswith("*"))


@lru_cache(maxsize=512)
def _lexicon(entries: tuple) -> tuple[dict, tuple]:
    """({plain first word: ((rank, entry), …)}, ((rank, entry), …) of the other entries), ranked
    as the alternation tries them: longest first. An entry whose plain first word is not one of
    TOKEN's words is never one a reply uses."""
    usable = sorted({e for e in entries if e and (not _plain(e[0]) or TOKEN.fullmatch(e[0]))},
                    key=lambda e: (-sum(map(len, e)) - len(e), e))
    groups: dict = {}
    wild = []
    for rank, e in enumerate(usable):
        if _plain(e[0]):
            groups.setdefault(e[0], []).append((rank, e))
        else:
            wild.append((rank, e))
    return {w: tuple(g) for w, g in groups.items()}, tuple(wild)


def _word_end(norm: str, at: int, end: int, most: int) -> int:
    """Where the run of letters and digits from `at` ends (before `end`); -1 past `most` of them."""
    k = at
    while k < end and norm[k].isalnum():
        k += 1
        if k - at > most:
            return -1
    return k


def _entry_end(norm: str, at: int, entry: tuple, end: int) -> int:
    """Where `entry` ends if it is found at `at` (its words apart by 1-4 spaces or hyphens, the
    last one a whole word), else -1: what SEP and _word_pattern's pieces match there."""
    k = at
    for n, test in enumerate(entry):
        if n:
            gap = k
            while k < end and k - gap < 5 and (norm[k].isspace() or norm[k] == "-"):
                k += 1
            if not 1 <= k - gap <= 4:
                return -1
        if test.startswith("'"):                      # "'s": a word of 1-30 letters ending so
            word = k
            k = _word_end(norm, word, end, 30)
            if k <= word or not norm.startswith(test, k, end):
                return -1
            k += len(test)
        elif test.endswith("*"):                      # "prefix*": the rest of the word, at most 40
            if not norm.startswith(test[:-1], k, end):
                return -1
            k = _word_end(norm, k + len(test) - 1, end, 40)
            if k < 0:
                return -1
        else:
            if not norm.startswith(test, k, end):
                return -1
            k += len(test)
    return -1 if k < end and norm[k].isalnum() else k


class Found:
    """An entry found: its place and its text, read as a match of `compiled` would be."""
    __slots__ = ("_norm", "_start", "_end")

    def __init__(self, norm: str, start: int, end: int):
        self._norm, self._start, self._end = norm, start, end

    def start(self) -> int:
        return self._start

    def end(self) -> int:
        return self._end

    def span(self) -> tuple[int, int]:
        return self._start, self._end

    def group(self) -> str:
        return self._norm[self._start:self._end]


def apostrophe_parts(token: str) -> list[str]:
    """"it's" -> ["it", "it's"]: the words a lexicon entry's first word can be where this token
    starts."""
    parts = token.split("'")
    return ["'".join(parts[:k]) for k in range(1, len(parts) + 1)]


def _places(norm: str, test: str, start: int, end: int):
    """Where a word test can start between start and end, in order: each place where the text
    has its word (or its prefix) and a word starts; for "'s", the start of the word before it."""
    if test.startswith("'"):
        at = norm.find(test, start, end)
        while at >= 0:
            word = at
            while word > start and at - word <= 30 and norm[word - 1].isalnum():
                word -= 1                   # (a word longer than 30 letters is no "'s" word)
            if word < at and not (word and norm[word - 1].isalnum()):
                yield word
            at = norm.find(test, at + 1, end)
        return
    text = test[:-1] if test.endswith("*") else test
    at = norm.find(text, start, end)
    while at >= 0:
        if not (at and norm[at - 1].isalnum()):
            yield at
        at = norm.find(text, at + 1, end)


def entry_matches(reading: Reading, entries, start: int = 0, end: int | None = None):
    """The entries found in the reply (or between start and end), left to right, none inside
    another: where several can start at one place, the first of them as the alternation ranks them.
    Up to LONG_REPLY characters, the places looked at are those of the first words the reply uses,
    each then read word by word; a longer reply is searched with the alternation compiled."""
    norm, vocab = reading.norm, reading.vocab
    end = len(norm) if end is None else min(end, len(norm))
    if len(norm) > LONG_REPLY:
        body = alternatives(entries, vocab)
        if body is not None:
            yield from compiled(body).finditer(norm, start, end)
        return
    groups, wild = _lexicon(entries if isinstance(entries, tuple) else tuple(entries))
    used = [w for w in groups if w in vocab] if len(groups) <= len(vocab) else [w for w in vocab if w in groups]
    firsts = used + sorted({e[0] for _, e in wild})
    after = last = -1
    for p in merge(*(_places(norm, test, max(start, 0), end) for test in firsts)):
        if p < after or p == last:
            continue
        last = p
        token = TOKEN.match(norm, p, end).group()
        tries = [t for w in apostrophe_parts(token) if w in vocab for t in groups.get(w, ())]
        for _rank, e in sorted(tries + list(wild)) if wild or len(tries) > 1 else tries:
            stop = _entry_end(norm, p, e, end)
            if stop >= 0:
                yield Found(norm, p, stop)
                after = stop
                break


def find_entries(reading: Reading, entries, start: int = 0, end: int | None = None,
                 most: int | None = None) -> list[tuple[int, int]]:
    """Where lexicon entries are in the reply (or between start and end), at most `most`
    (MAX_FOUND) places."""
    found = entry_matches(reading, entries, start, end)
    return [(m.start(), m.end()) for m, _ in zip(found, range(most or MAX_FOUND))]

