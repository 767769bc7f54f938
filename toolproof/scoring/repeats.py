"""A case sent several times: grade every repeat, then one row per case for the scorecard.

Rules (docs/statistics.md "Statistics" says the same for users):
- every repeat is graded on its own; a repeat whose request failed is ERROR and is not graded;
- a case's `credit` is the mean credit over its graded repeats (None when none was graded);
- its `verdict` is the most common verdict among its graded repeats, a tie going to the worse
  one (PASS > PARTIAL > FAIL); ERROR only when no repeat was graded;
- `flaky`: the graded repeats disagree;
- the reasons, calls and text shown are those of the first repeat with the case's verdict.

Pure: no I/O.
"""
from __future__ import annotations

from dataclasses import replace

from toolproof.grading.verdicts import ERROR, PASS, VERDICT_ORDER, CaseResult


def majority(verdicts: list[str]) -> str:
    """The most common graded verdict, a tie to the worse; ERROR when nothing was graded."""
    graded = [v for v in verdicts if v != ERROR]
    if not graded:
        return ERROR
    return max(VERDICT_ORDER[:3], key=lambda v: (graded.count(v), VERDICT_ORDER.index(v)))


def _mean(values: list) -> float | None:
    values = [v for v in values if v is not None]
    return round(sum(values) / len(values), 4) if values else None


def merge_repeats(results: list[CaseResult]) -> CaseResult:
    """One case's repeats as the single row the scorecard shows."""
    verdicts = tuple(r.verdict for r in results)
    verdict = majority(list(verdicts))
    shown = next(r for r in results if r.verdict == verdict)
    lenient = majority([r.lenient_verdict for r in results])
    return replace(shown, verdict=verdict, credit=_mean([r.credit for r in results]),
                   lenient_verdict=lenient, lenient_credit=_mean([r.lenient_credit for r in results]),
                   repeat_verdicts=verdicts)


def pass_counts(per_case: list[list[CaseResult]]) -> list[tuple[int, int]]:
    """(PASS repeats, graded repeats) per case: what pass^k and pass@k are computed from."""
    return [(sum(r.verdict == PASS for r in rs), sum(r.verdict != ERROR for r in rs)) for rs in per_case]


def repeats_summary(per_case: list[list[CaseResult]]) -> tuple[int, str | None]:
    """(the smallest number of repeats per case, a note when cases differ)."""
    sizes = [len(rs) for rs in per_case]
    if not sizes:
        return 0, None
    low, high = min(sizes), max(sizes)
    note = None if low == high else (f"cases were run between {low} and {high} times; "
                                     f"pass^k and pass@k go up to k = the fewest graded repeats of a case")
    return low, note
