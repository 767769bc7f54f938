"""Trace metrics people know from other tools, computed per case from expected and actual calls.

- Argument precision / recall / F1: expected calls are paired one-to-one with actual calls of the
  same tool, choosing the pairing that matches the most arguments (every pairing for up to 6
  calls of a tool, greedy beyond). Per pair, an argument is *provided* if the call sends a field
  the case checks or a field the case does not expect; *correct* if a checked field matches.
  An unpaired actual call provides all its arguments; an unpaired expected call expects all its
  fields. precision = correct / provided, recall = correct / expected.
- Sequence edit distance: Levenshtein distance between the expected and the actual tool-name
  sequences; sequence accuracy = 1 - distance / max(length).
- Redundant calls: calls beyond the number expected for their tool. Identical calls: exact
  repeats of an earlier call (same tool, same arguments; key order ignored).
- Required-call recall: expected calls paired with a call that is readable and schema-valid.

Pure: no I/O.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from itertools import permutations

from toolproof.grading.values import MATCH, compare_arguments
from toolproof.grading.verdicts import CheckedCall
from toolproof.suite.model import ExpectedCall, Tool

EXACT_PAIRING_LIMIT = 6


@dataclass
class TraceCounts:
    correct: int = 0
    provided: int = 0
    expected: int = 0
    distance: int = 0
    longest: int = 0
    calls: int = 0
    redundant: int = 0
    identical: int = 0
    required: int = 0
    required_met: int = 0


def edit_distance(a: list[str], b: list[str]) -> int:
    """Levenshtein distance over two sequences of names."""
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        previous, row[0] = row[0], i
        for j, y in enumerate(b, 1):
            previous, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, previous + (x != y))
    return row[-1]


def _pair_score(want: ExpectedCall, got: CheckedCall, tools: dict[str, Tool], mocks: dict | None) -> tuple[int, int]:
    """(correct, provided) for one expected/actual pair."""
    if got.arguments is None:
        return 0, 0
    results = compare_arguments(want, got.arguments, tools[want.tool].parameters, mocks)
    correct = sum(r.status == MATCH for r in results)
    provided = sum(r.status == MATCH or r.actual is not None for r in results)
    return correct, provided


def pair_calls(expected: tuple, actual: list[CheckedCall], tools: dict[str, Tool],
               mocks: dict | None) -> list[tuple[ExpectedCall, CheckedCall, int, int]]:
    """One-to-one pairs of calls of the same tool, most matching arguments first."""
    pairs = []
    for tool in sorted({e.tool for e in expected}):
        wants = [e for e in expected if e.tool == tool]
        gots = [a for a in actual if a.call.name == tool]
        if not gots or tool not in tools:
            continue
        scores = {(i, j): _pair_score(w, g, tools, mocks) for i, w in enumerate(wants) for j, g in enumerate(gots)}
        small, large = (wants, gots) if len(wants) <= len(gots) else (gots, wants)
        if len(large) <= EXACT_PAIRING_LIMIT:
            best = max(permutations(range(len(large)), len(small)),
                       key=lambda perm: sum(scores[_ij(k, p, wants, small)][0] for k, p in enumerate(perm)))
            chosen = [_ij(k, p, wants, small) for k, p in enumerate(best)]
        else:
            chosen, used_i, used_j = [], set(), set()
            for (i, j), _ in sorted(scores.items(), key=lambda kv: -kv[1][0]):
                if i not in used_i and j not in used_j:
                    chosen.append((i, j))
                    used_i.add(i)
                    used_j.add(j)
        pairs += [(wants[i], gots[j], *scores[(i, j)]) for i, j in sorted(chosen)]
    return pairs


def _ij(k: int, p: int, wants: list, small: list) -> tuple[int, int]:
    return (k, p) if small is wants else (p, k)


def _key(c: CheckedCall) -> str:
    return c.call.name + "\0" + (json.dumps(c.arguments, sort_keys=True) if c.arguments is not None
                                 else c.call.raw_arguments)


def trace_counts(expected: tuple, actual: list[CheckedCall], tools: dict[str, Tool],
                 mocks: dict | None) -> TraceCounts:
    out = TraceCounts()
    pairs = pair_calls(expected, actual, tools, mocks)
    paired_actual = {id(g) for _, g, _, _ in pairs}
    out.correct = sum(c for _, _, c, _ in pairs)
    out.provided = sum(p for _, _, _, p in pairs)
    out.provided += sum(len(a.arguments or {}) for a in actual if id(a) not in paired_actual)
    out.expected = sum(len(e.fields()) for e in expected)
    names_expected, names_actual = [e.tool for e in expected], [a.call.name for a in actual]
    out.distance = edit_distance(names_expected, names_actual)
    out.longest = max(len(names_expected), len(names_actual))
    out.calls = len(actual)
    for tool in set(names_actual):
        out.redundant += max(0, names_actual.count(tool) - names_expected.count(tool))
    seen: set[str] = set()
    for a in actual:
        key = _key(a)
        out.identical += key in seen
        seen.add(key)
    out.required = len(expected)
    out.required_met = sum(1 for _, g, _, _ in pairs if g.valid)
    return out
