"""Intervals over cases, computed in closed form: Wilson for a category, a stratified normal
interval for the weighted score, a stratified paired t interval for the difference of two runs.
No resampling, so no Monte-Carlo error, no seed, and the page has them at once.

Why these (benchmarks/interval_coverage.py and benchmarks/compare_calibration.py measure them
against the percentile bootstrap they replaced; docs/statistics.md, "How well the intervals
cover" and "Does compare cry wolf?", has the figures):
- category: the Wilson score interval of the mean credit, n = the category's graded cases.
  Wilson assumes pass/fail cases; a PARTIAL (credit 0.5) or a mean over repeats only lowers the
  true variance below p(1 - p), so it errs wide, never narrow. It never has zero width: "9 of 9"
  reads 70-100%, not 100-100% (the bootstrap's category intervals covered 0.60-0.89 at 9 cases).
- score: S +- z * sqrt(sum a_c^2 v_c / n_c), a_c = 100 w_c / sum w, where v_c is the category's
  credit variance with half a pseudo-case added (a quarter case at 0, a quarter at 1). Without
  it a category at 9 of 9 reads as certain and a strong model's interval covered 0.91; with a
  whole pseudo-case or Agresti-Coull's z^2 the interval grew 13-39% wider than needed.
- difference B - A: per case d = credit_B - credit_A; delta = sum a_c mean_c(d), its standard
  error from the same smoothed variance (pseudo-differences at -1 and +1), Student's t with
  Welch-Satterthwaite degrees of freedom. The bootstrap's plug-in variance is (n - 1)/n too small
  per category (8/9 at 9 cases): its regression gate fired 3.9-5.0% against a nominal 2.5%; the
  plain t interval, up to 4.5% when the two runs had different repeat counts (a skewed
  difference); with the smoothing, 0.1-1.9%.

Pure: no I/O, no randomness.
"""
from __future__ import annotations

from functools import lru_cache
from math import fsum, pi, sqrt, tan
from typing import Sequence

LEVEL = 0.95
ROUGH_BELOW = 10        # a category with fewer cases gets a note that its interval is rough
SMOOTH = 0.5        # pseudo-cases per category in a variance (half at each end): see the docstring
METHOD = ("over cases: Wilson per category; the score a stratified normal interval, "
          "each category's variance smoothed by half a pseudo-case")
DELTA_METHOD = ("over cases: paired t, stratified by category (Welch-Satterthwaite df), "
                "each category's variance smoothed by half a pseudo-case")


@lru_cache(maxsize=16)
def z_value(level: float) -> float:
    """The two-sided normal quantile: 1.959964 for 0.95. (statistics is imported here, not at
    the top: with fractions and decimal it is a tenth of a second of the page's start-up.)"""
    from statistics import NormalDist      # lazy: with fractions and decimal, 0.1 s of the page's start-up

    return NormalDist().inv_cdf((1 + level) / 2)


def t_value(level: float, df: float) -> float:
    """Student's t two-sided quantile by the Cornish-Fisher expansion in 1/df (Abramowitz &
    Stegun 26.7.5): within 0.004 of the exact value for df >= 3, exact in the limit; df < 1
    is treated as 1 (0.95: 12.7)."""
    z = z_value(level)
    if df < 1:
        df = 1.0
    if df < 3:                       # the expansion is poor this low: the exact closed forms
        p = (1 + level) / 2
        if df < 2:
            return tan(pi * (p - 0.5))
        a = 4 * p * (1 - p)
        return 2 * (p - 0.5) * sqrt(2 / a)
    g1 = (z ** 3 + z) / 4
    g2 = (5 * z ** 5 + 16 * z ** 3 + 3 * z) / 96
    g3 = (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / 384
    g4 = (79 * z ** 9 + 776 * z ** 7 + 1482 * z ** 5 - 1920 * z ** 3 - 945 * z) / 92160
    return z + g1 / df + g2 / df ** 2 + g3 / df ** 3 + g4 / df ** 4


def wilson(mean: float, n: int, z: float) -> tuple[float, float]:
    """The Wilson score interval for a proportion `mean` over `n` cases (0 < low, high < 1 unless
    the mean sits there)."""
    if n <= 0:
        raise ValueError("wilson() needs n >= 1")
    mean = min(1.0, max(0.0, mean))
    z2 = z * z
    centre = (mean + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * sqrt(mean * (1 - mean) / n + z2 / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def _strata(credits: Sequence[float], categories: Sequence[str]) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {}
    for credit, category in zip(credits, categories):
        out.setdefault(category, []).append(credit)
    return out


def _shares(strata: dict, weights: dict) -> dict[str, float] | None:
    total = sum(weights.get(c, 0) for c in strata)
    return None if total == 0 else {c: 100 * weights.get(c, 0) / total for c in strata}


def _smoothed_var(values: list[float], low: float, high: float, smooth: float) -> float:
    """The unbiased variance of `values` with `smooth` pseudo-values added, half at `low`, half
    at `high`: never 0 for smooth > 0, and still small when the values agree (all PARTIAL)."""
    n = len(values) + smooth
    if n <= 1:
        return 0.0
    m = (sum(values) + smooth / 2 * (low + high)) / n
    return (sum((v - m) ** 2 for v in values) + smooth / 2 * ((low - m) ** 2 + (high - m) ** 2)) / (n - 1)


def score_intervals(credits: Sequence[float], categories: Sequence[str], weights: dict,
                    level: float) -> tuple[dict | None, dict]:
    """(score bounds on 0-100 or None, {category: Wilson bounds on 0-1}), unrounded."""
    strata = _strata(credits, categories)
    z = z_value(level)
    per = {}
    for c, values in strata.items():
        low, high = wilson(sum(values) / len(values), len(values), z)
        per[c] = {"low": low, "high": high}
    shares = _shares(strata, weights)
    if not strata or shares is None:
        return None, per
    score = fsum(shares[c] * fsum(v) / len(v) for c, v in strata.items())
    var = fsum(shares[c] ** 2 * _smoothed_var(v, 0.0, 1.0, SMOOTH) / len(v) for c, v in strata.items())
    half = z * sqrt(var)
    return {"low": max(0.0, score - half), "high": min(100.0, score + half)}, per


def delta_intervals(credits_a: Sequence[float], credits_b: Sequence[float], categories: Sequence[str],
                    weights: dict, level: float, smooth: float = SMOOTH) -> tuple[dict | None, dict]:
    """(B - A score bounds on the 0-100 scale or None, {category: bounds on 0-1}), unrounded: a
    stratified paired t interval. A category of one case has no variance estimate: its bounds are
    the widest a difference can have (-1 to 1), and so is its share of the score's."""
    if len(credits_a) != len(credits_b):
        raise ValueError("paired runs need the same cases")
    strata = _strata([b - a for a, b in zip(credits_a, credits_b)], categories)
    per, parts = {}, {}
    for c, d in strata.items():
        n = len(d)
        mean, var = sum(d) / n, (_smoothed_var(d, -1.0, 1.0, smooth) if n >= 2 else 0.0)
        if n < 2:
            per[c] = {"low": -1.0, "high": 1.0}
            parts[c] = (mean, None, 0)
            continue
        half = t_value(level, n - 1) * sqrt(var / n)
        per[c] = {"low": max(-1.0, mean - half), "high": min(1.0, mean + half)}
        parts[c] = (mean, var / n, n - 1)
    shares = _shares(strata, weights)
    if not strata or shares is None:
        return None, per
    delta = fsum(shares[c] * parts[c][0] for c in strata)
    if any(parts[c][1] is None and shares[c] > 0 for c in strata):
        return {"low": -100.0, "high": 100.0}, per
    v = {c: shares[c] ** 2 * parts[c][1] for c in strata if parts[c][1] is not None}
    total = fsum(v.values())
    if total == 0:
        return {"low": delta, "high": delta}, per
    df = total ** 2 / fsum(x ** 2 / parts[c][2] for c, x in v.items() if x > 0)
    half = t_value(level, df) * sqrt(total)
    return {"low": max(-100.0, delta - half), "high": min(100.0, delta + half)}, per


def _rounded(bounds: dict, places: int) -> dict:
    # + 0.0 turns a rounded -0.0 into 0.0, so the JSON never says "-0.0"
    return {k: round(v, places) + 0.0 for k, v in bounds.items()}


def _doc(method: str, level: float, categories: Sequence[str]) -> dict:
    counts: dict[str, int] = {}
    for c in categories:
        counts[c] = counts.get(c, 0) + 1
    rough = [c for c, n in counts.items() if n < ROUGH_BELOW]
    doc = {"method": method, "level": level}
    if rough:
        doc["note"] = (f"rough: fewer than {ROUGH_BELOW} cases in " + ", ".join(rough)
                       + "; their intervals (and the score's) rest on few cases and are wide")
    return doc


def card_intervals(credits: Sequence[float], categories: Sequence[str], weights: dict,
                   level: float = LEVEL) -> dict:
    """The scorecard's `intervals`: the score's bounds on 0-100 (2 places), each category's on
    0-1 (4 places), the method and level, and a note when a category has few cases."""
    score, per = score_intervals(credits, categories, weights, level)
    return {**_doc(METHOD, level, categories), "score": _rounded(score, 2) if score is not None else None,
            "categories": {c: _rounded(b, 4) for c, b in per.items()}}


def paired_intervals(credits_a: Sequence[float], credits_b: Sequence[float], categories: Sequence[str],
                     weights: dict, level: float = LEVEL) -> dict:
    """A comparison's intervals for B - A, in the same shape as card_intervals (score on the
    0-100 scale, categories on 0-1)."""
    score, per = delta_intervals(credits_a, credits_b, categories, weights, level)
    return {**_doc(DELTA_METHOD, level, categories), "score": _rounded(score, 2) if score is not None else None,
            "categories": {c: _rounded(b, 4) for c, b in per.items()}}


def delta_p_value(credits_a: Sequence[float], credits_b: Sequence[float], categories: Sequence[str],
                  weights: dict) -> float | None:
    """The two-sided p-value of the test behind delta_intervals: the smallest 1 - level at which
    the interval of B - A excludes 0, found by bisection on the interval itself, so the p-value
    and the interval `compare` shows never disagree (p < 0.05 exactly when the 95% interval
    excludes 0, up to 1e-9). None when there is nothing to test; 1.0 when no interval excludes
    0 (no difference, or a category of one case that carries weight)."""
    def excludes(alpha: float) -> bool:
        bounds, _ = delta_intervals(credits_a, credits_b, categories, weights, 1 - alpha)
        return bounds["low"] > 0 or bounds["high"] < 0

    bounds, _ = delta_intervals(credits_a, credits_b, categories, weights, LEVEL)
    if bounds is None:
        return None
    if not excludes(1 - 1e-9):
        return 1.0
    if excludes(1e-12):
        return 0.0
    low, high = 1e-12, 1 - 1e-9           # excludes(low) is False, excludes(high) is True
    for _ in range(60):
        if high - low < 1e-9:
            break
        middle = (low + high) / 2
        if excludes(middle):
            high = middle
        else:
            low = middle
    return round(high, 6)
