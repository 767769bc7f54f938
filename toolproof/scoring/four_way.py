"""The decision diagnosis in When2Call's four ways: a 4x4 table of the decision each case expects
against the one its first reply made (call / ask / answer / decline), per-label precision,
recall and F1, macro-F1 and its interval.

- Expected (`expected_decision`), from the case alone, never from its category's name: `call`
  (action call), `ask` (action ask), `decline` (action no_call whose final_text says declines:
  true), `answer` (any other no_call).
- Observed (grading/decision.py): `call` when turn 1 called a tool, else read from its text.
- Counted over every graded conversation (case x phrasing x repeat) whose turn 1 was observed
  (no ERROR, no cut-off, blocked or unreadable first reply): `covers` is the table's sum, `of`
  the conversations the diagnosis read.
- F1 of a label = 2 TP / (expected + observed), the harmonic mean of precision (TP / observed)
  and recall (TP / expected); macro-F1 = the mean F1 over the labels expected at least once (a
  label no case expects has no recall, and a model must not score for never using it).
- Interval: a percentile bootstrap over cases: each resample draws as many cases as the table
  holds, with replacement, each with all its phrasings and repeats (they are not independent),
  and computes macro-F1 by the same rule. The bounds are Hesterberg's expanded percentile
  interval: the quantiles at (1 -+ L) / 2 with L = 2 Phi(sqrt(m/(m-1)) t_{m-1, 0.975}) - 1, m the
  fewest cases expecting one label (0.981 for m = 11, the 2.5% and 97.5% quantiles as m grows):
  the plain percentile covered 0.93 for a strong model, the expanded 0.97-0.99. The draws
  come from stats.SeededDraws (SplitMix64), so the page and the terminal give the same bytes.
  Null below MIN_CASES cases. Its coverage is measured by benchmarks/four_way_interval.py
  (docs/statistics.md "The four-way decision table").

Pure: no I/O, no `random`.
"""
from __future__ import annotations

from math import erf, sqrt
from typing import Iterable

from toolproof.grading.decision import ANSWER, ASK, CALL, DECLINE, LABELS, decision_of
from toolproof.grading.verdicts import CaseResult
from toolproof.suite.model import Case
from .intervals import t_value
from .scorecard import rate
from .stats import BOOTSTRAP_LEVEL, BOOTSTRAP_SEED, SeededDraws, quantile

RESAMPLES = 1000
MIN_CASES = 2           # fewer cases than this: no interval (every resample would be the same case)
SIZE = len(LABELS)
METHOD = (f"macro-F1 = mean F1 over the labels expected at least once; 95% interval: percentile "
          f"bootstrap over cases (a case's phrasings and repeats drawn together), {RESAMPLES:,} "
          f"resamples, seed {BOOTSTRAP_SEED}, expanded for the fewest cases expecting one label (Hesterberg)")


def expected_decision(case: Case) -> str:
    """What the case expects turn 1 to do, from its action and answer rules."""
    action = case.expect.action
    if action == "call":
        return CALL
    if action == "ask":
        return ASK
    rules = case.expect.final_text
    return DECLINE if rules is not None and rules.declines is True else ANSWER


def observed_decision(result: CaseResult) -> str | None:
    """What turn 1 did, or None when it was not observed (ERROR, cut off, blocked)."""
    if not result.facts.get("observed"):
        return None
    return decision_of(bool(result.facts.get("called")), result.final_text or "")


def four_way(results: list[CaseResult], cases: dict[str, Case], *, resamples: int = RESAMPLES,
             seed: int = BOOTSTRAP_SEED) -> dict:
    """The four-way block of the diagnosis' decide part (docs/diagnosis.md)."""
    clusters: dict[str, list[int]] = {}     # case id -> its 16 cells (row-major: expected, observed)
    for r in results:
        case = cases.get(r.case_id)
        seen = observed_decision(r) if case is not None else None
        if seen is None:
            continue
        cells = clusters.setdefault(r.case_id, [0] * SIZE * SIZE)
        cells[LABELS.index(expected_decision(case)) * SIZE + LABELS.index(seen)] += 1
    flat = _summed(clusters.values())
    confusion = [flat[i * SIZE:(i + 1) * SIZE] for i in range(SIZE)]
    per_label = {}
    for i, label in enumerate(LABELS):
        hit, expected = confusion[i][i], sum(confusion[i])
        observed = sum(row[i] for row in confusion)
        per_label[label] = {"precision": rate(hit, observed), "recall": rate(hit, expected),
                            "f1": rate(2 * hit, expected + observed), "expected": expected, "observed": observed}
    macro = macro_f1(flat)
    return {"labels": list(LABELS), "confusion": confusion, "covers": sum(flat), "of": len(results),
            "per_label": per_label, "macro_f1": None if macro is None else round(macro, 4),
            "macro_f1_interval": interval(list(clusters.values()), resamples=resamples, seed=seed)
            if macro is not None else None,
            "method": METHOD}


def _summed(cells: Iterable[list[int]]) -> list[int]:
    total = [0] * SIZE * SIZE
    for c in cells:
        for k, n in enumerate(c):
            total[k] += n
    return total


def macro_f1(flat: list[int]) -> float | None:
    """Mean F1 over the labels expected at least once, from the 16 cells (row-major); None when
    nothing is expected."""
    scores = []
    for i in range(SIZE):
        expected = sum(flat[i * SIZE:(i + 1) * SIZE])
        if expected:
            observed = sum(flat[j * SIZE + i] for j in range(SIZE))
            scores.append(2 * flat[i * SIZE + i] / (expected + observed))
    return sum(scores) / len(scores) if scores else None


def interval(clusters: list[list[int]], *, resamples: int = RESAMPLES, seed: int = BOOTSTRAP_SEED,
             level: float = BOOTSTRAP_LEVEL) -> dict | None:
    """{"low", "high"} of macro-F1 by the expanded percentile bootstrap over cases (each cluster
    one case's 16 cells), rounded to 4 places; None below MIN_CASES cases or with no resample.
    The expansion is for the fewest cases that expect one label: macro-F1 weighs that label's F1
    as much as the call label's, and a dozen cases is what its spread rests on."""
    values = resampled(clusters, resamples=resamples, seed=seed)
    return percentile_bounds(values, expanded_level(fewest(clusters), level)) if values else None


def fewest(clusters: list[list[int]]) -> int:
    """The fewest cases expecting one label, over the labels some case expects."""
    per_row: dict[int, int] = {}
    for cells in clusters:
        row = next((k // SIZE for k, c in enumerate(cells) if c), None)
        if row is not None:
            per_row[row] = per_row.get(row, 0) + 1
    return min(per_row.values(), default=0)


def resampled(clusters: list[list[int]], *, resamples: int = RESAMPLES, seed: int = BOOTSTRAP_SEED) -> list[float]:
    """macro-F1 of each resample of the cases, sorted; [] below MIN_CASES cases."""
    n = len(clusters)
    if n < MIN_CASES or resamples < 1:
        return []
    sparse = [[(k, c) for k, c in enumerate(cells) if c] for cells in clusters]   # most cases fill one cell
    draws = SeededDraws(seed)
    values = []
    for _ in range(resamples):
        flat = [0] * SIZE * SIZE
        for i in draws.below_many(n, n):
            for k, c in sparse[i]:
                flat[k] += c
        value = macro_f1(flat)
        if value is not None:
            values.append(value)
    values.sort()
    return values


def expanded_level(smallest: int, level: float = BOOTSTRAP_LEVEL) -> float:
    """The level whose percentile interval is Hesterberg's expanded percentile interval for a
    sample of `smallest` (2 Phi(sqrt(n/(n-1)) t_{n-1}) - 1): a bootstrap's spread is that of
    the plug-in variance, (n-1)/n of the unbiased one, and a mean over few cases needs t, not z."""
    if smallest < 2:
        return level
    reach = sqrt(smallest / (smallest - 1)) * t_value(level, smallest - 1)
    return round(erf(reach / sqrt(2)), 6)     # rounded: libm may differ in the last bit between page and terminal


def percentile_bounds(values: list[float], level: float = BOOTSTRAP_LEVEL) -> dict:
    """The (1 - level) / 2 and (1 + level) / 2 quantiles of sorted values, rounded to 4 places."""
    # + 0.0 keeps a rounded -0.0 out of the JSON
    return {"low": round(quantile(values, (1 - level) / 2), 4) + 0.0,
            "high": round(quantile(values, (1 + level) / 2), 4) + 0.0}
