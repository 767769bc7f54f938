"""Which pairs of tools look alike, without comparing every pair (lint's similar-tools).

Two tools are similar when their names are equal up to case, separators and a plural s
(bucketed by that key: linear), or when their descriptions' word sets have a Jaccard similarity
of at least `threshold`. Descriptions are compared by prefix filtering: words are ordered
rarest first, and two sets can only reach the threshold if they share a word among the first
|s| - ceil(t*|s|) + 1 of either set, so only such candidates are scored. Identical word sets are
grouped first (each later tool is paired with the first of its group, not with every member), and
each tool scores at most `max_candidates` candidates, which bounds the work on pathological files.
Each tool is reported once, against the earlier tool it is most like.

Pure: no I/O.
"""
from __future__ import annotations

import math
from typing import Iterator

from .lint_text import name_key

_MIN_WORDS = 3        # two-word descriptions say too little to call them near-identical


def similar_pairs(names: list[str], word_sets: list[frozenset], threshold: float,
                  max_candidates: int) -> Iterator[tuple[int, int, str]]:
    """(i, j, reason) with i < j, in order of j: each tool j at most once, paired with the earlier
    tool it is most like (a name clash first, then the highest word overlap, then the first), so
    forty near-copies give forty findings, not 780."""
    best: dict[int, tuple] = {}
    for i, j in _same_name_key(names):
        best.setdefault(j, (2.0, -i, "names differ only in case, separators or a plural s"))
    for i, j, score in _similar_words(word_sets, threshold, max_candidates):
        candidate = (score, -i, f"descriptions share {score:.0%} of their words")
        if j not in best or candidate[:2] > best[j][:2]:
            best[j] = candidate
    for j in sorted(best):
        _, minus_i, reason = best[j]
        yield -minus_i, j, reason


def _same_name_key(names: list[str]) -> Iterator[tuple[int, int]]:
    first: dict[str, int] = {}
    for j, name in enumerate(names):
        key = name_key(name)
        if not key:
            continue
        i = first.setdefault(key, j)
        if i != j and names[i] != name:     # equal names are duplicate-name, not similar-tools
            yield i, j


def _similar_words(sets: list[frozenset], threshold: float, max_candidates: int) -> Iterator[tuple[int, int, float]]:
    groups: dict[frozenset, int] = {}
    frequency: dict[str, int] = {}
    for s in sets:
        for word in s:
            frequency[word] = frequency.get(word, 0) + 1
    index: dict[str, list[int]] = {}
    for j, s in enumerate(sets):
        if len(s) < _MIN_WORDS:
            continue
        if s in groups:
            yield groups[s], j, 1.0
            continue
        groups[s] = j
        ordered = sorted(s, key=lambda w: (frequency[w], w))
        prefix = ordered[:len(s) - math.ceil(threshold * len(s)) + 1]
        seen: set[int] = set()
        for word in prefix:
            for i in index.get(word, ()):
                if i in seen or len(seen) >= max_candidates:
                    continue
                seen.add(i)
                score = len(s & sets[i]) / len(s | sets[i])
                if score >= threshold:
                    yield i, j, score
            index.setdefault(word, []).append(j)
