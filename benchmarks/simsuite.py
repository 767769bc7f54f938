"""Simulated suites for the coverage and calibration benchmarks: the shipped shape (8 categories
of 9 cases, the default weights) filled from known per-case probabilities, drawn with the
project's own seeded generator (no `random`, so every figure is reproducible).

A model is a pass probability per category. Each case gets its own probability, spread evenly
around its category's (p +- spread/2, clamped to 0..1, so cases differ as real ones do); every
repeat of the case passes with that probability, else is PARTIAL with chance `partial` and FAIL
otherwise. A case's credit is the mean over its repeats (PASS 1, PARTIAL 0.5, FAIL 0), as in the
scorecard. The true category score is the expected credit of a case drawn from the category,
p + partial * (1 - p) / 2 (the spread is symmetric and never clamped for the profiles below).
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from toolproof.scoring.scorecard import DEFAULT_WEIGHTS  # noqa: E402
from toolproof.scoring.stats import SeededDraws  # noqa: E402

CATEGORIES = tuple(DEFAULT_WEIGHTS)
PROFILES = {             # pass probability per category, in CATEGORIES order
    "mid": (0.6,) * 8,
    "strong": (0.9,) * 8,
    "uneven": (0.45, 0.95, 0.7, 0.8, 0.5, 0.9, 0.85, 0.6),
    "top": (0.97,) * 8,
}
PARTIAL = 0.3            # share of non-PASS repeats that are PARTIAL
SPREAD = 0.2             # cases within a category differ by up to this much in pass probability


def uniform(draws: SeededDraws) -> float:
    return draws.next64() / 2 ** 64


def true_category(p: float, partial: float = PARTIAL) -> float:
    return p + partial * (1 - p) / 2


def true_score(profile: tuple, partial: float = PARTIAL) -> float:
    total = sum(DEFAULT_WEIGHTS.values())
    return 100 * sum(DEFAULT_WEIGHTS[c] * true_category(p, partial) for c, p in zip(CATEGORIES, profile)) / total


def case_probabilities(profile: tuple, per_category: int, draws: SeededDraws,
                       spread: float = SPREAD) -> tuple[list[float], list[str]]:
    """One pass probability per case, and its category, category by category."""
    probs, cats = [], []
    for category, p in zip(CATEGORIES, profile):
        for _ in range(per_category):
            probs.append(min(1.0, max(0.0, p + spread * (uniform(draws) - 0.5))))
            cats.append(category)
    return probs, cats


def verdicts(p: float, repeats: int, draws: SeededDraws, partial: float = PARTIAL) -> list[str]:
    out = []
    for _ in range(repeats):
        u = uniform(draws)
        out.append("PASS" if u < p else "PARTIAL" if u < p + partial * (1 - p) else "FAIL")
    return out


CREDIT = {"PASS": 1.0, "PARTIAL": 0.5, "FAIL": 0.0}


def credit(vs: list[str]) -> float:
    return sum(CREDIT[v] for v in vs) / len(vs)
