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
    # near 100% with uneven case difficulty (issue 38): most cases always pass, a quarter are hard
    # (uneven_probabilities); categories sit between 0.90 and 0.99
    "strong-uneven": (0.92, 0.99, 0.95, 0.97, 0.90, 0.98, 0.94, 0.96),
}
UNEVEN = {"strong-uneven"}   # profiles whose cases are drawn by uneven_probabilities
HARD_SHARE = 0.25        # in an uneven profile, the share of a category's cases that are hard
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


def uneven_probabilities(profile: tuple, per_category: int, draws: SeededDraws,
                         hard_share: float = HARD_SHARE) -> tuple[list[float], list[str]]:
    """Uneven case difficulty: each case is hard with chance `hard_share`, else it always passes;
    a hard case passes with 1 - (1 - p) / hard_share, so a case drawn from the category passes
    with p on average and true_category(p) stays its true score (no clamping). At p = 0.9 a hard
    case passes 60% of the time; with repeats its credit varies far more than an easy one's."""
    probs, cats = [], []
    for category, p in zip(CATEGORIES, profile):
        hard = 1 - (1 - p) / hard_share
        if hard < 0:
            raise ValueError(f"p = {p} is too low for {hard_share} hard cases")
        for _ in range(per_category):
            probs.append(hard if uniform(draws) < hard_share else 1.0)
            cats.append(category)
    return probs, cats


def draw_cases(name: str, per_category: int, draws: SeededDraws) -> tuple[list[float], list[str]]:
    """The cases of the named profile, drawn by its case model (even spread or uneven)."""
    pick = uneven_probabilities if name in UNEVEN else case_probabilities
    return pick(PROFILES[name], per_category, draws)


def verdicts(p: float, repeats: int, draws: SeededDraws, partial: float = PARTIAL) -> list[str]:
    out = []
    for _ in range(repeats):
        u = uniform(draws)
        out.append("PASS" if u < p else "PARTIAL" if u < p + partial * (1 - p) else "FAIL")
    return out


CREDIT = {"PASS": 1.0, "PARTIAL": 0.5, "FAIL": 0.0}


def credit(vs: list[str]) -> float:
    return sum(CREDIT[v] for v in vs) / len(vs)
