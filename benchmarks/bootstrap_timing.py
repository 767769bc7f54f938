"""The timing both halves of benchmarks/bootstrap_time.py run: the 2,000-resample stratified
bootstrap (and the paired one) over 72 cases x 5 repeats, with the scorecard's weights, and the
closed-form intervals that replaced them (scoring/intervals.py, issue 20).

Imported as `tp_stats` in the page (toolproof/scoring/stats.py copied into Pyodide) and as
`toolproof.scoring.stats` in CPython; the synthetic credits are fixed, so both runs do the same work.
"""
from __future__ import annotations

import time

try:
    import tp_intervals as intervals              # in the page
    import tp_stats as stats
except ImportError:
    from toolproof.scoring import intervals, stats   # in CPython

CATEGORIES = ("should_call", "should_not_call", "must_ask", "distractor", "multi_step", "enum_format",
              "injection", "result_use")
WEIGHTS = dict(zip(CATEGORIES, (20, 10, 15, 15, 20, 10, 10, 10)))


def synthetic(cases: int = 72, repeats: int = 5, shift: int = 0) -> tuple[list, list]:
    """Per-case credit = mean over `repeats` fixed verdict credits; 9 cases per category."""
    draws = stats.SeededDraws(7 + shift)
    credits = [sum((0.0, 0.5, 1.0)[draws.below(3)] for _ in range(repeats)) / repeats for _ in range(cases)]
    return credits, [CATEGORIES[i % len(CATEGORIES)] for i in range(cases)]


def measure(rounds: int = 3) -> dict:
    credits, categories = synthetic()
    other, _ = synthetic(shift=1)
    single, paired, closed, closed_paired = [], [], [], []
    for _ in range(rounds):
        start = time.perf_counter()
        stats.bootstrap(credits, categories, WEIGHTS)
        single.append(time.perf_counter() - start)
        start = time.perf_counter()
        stats.paired_bootstrap(credits, other, categories, WEIGHTS)
        paired.append(time.perf_counter() - start)
        start = time.perf_counter()
        intervals.card_intervals(credits, categories, WEIGHTS)
        closed.append(time.perf_counter() - start)
        start = time.perf_counter()
        intervals.paired_intervals(credits, other, categories, WEIGHTS)
        closed_paired.append(time.perf_counter() - start)
    return {"bootstrap_s": min(single), "paired_s": min(paired), "intervals_s": min(closed),
            "paired_intervals_s": min(closed_paired), "rounds": rounds}
