"""Intervals over cases, computed in closed form: Clopper-Pearson for a category, a stratified
t interval for the weighted score, a stratified paired t interval for the difference of two
runs. No resampling, so no Monte-Carlo error, no seed, and the page has them at once.

Why these (benchmarks/interval_coverage.py and benchmarks/compare_calibration.py measure them
against the alternatives; docs/statistics.md, "How well the intervals cover" and "Does compare
cry wolf?", has the figures):
- category: the Clopper-Pearson interval of the mean credit, n = the category's graded cases,
  x = n * mean (fractional with PARTIALs or repeats). It never has zero width ("9 of 9" reads
  66-100%) and, for pass/fail cases, covers at least 95% whatever the true rate; a PARTIAL or a
  mean over repeats only lowers the variance below the binomial's, so it errs wide. Wilson
  (shipped before) dipped below: at 9 cases it covers 0.84 for a rate just above 0.98, and
  for a strong model with uneven case difficulty 4 of 8 categories covered 0.90-0.93 (issue 38).
- score: S +- t * sqrt(sum a_c^2 v_c / n_c), a_c = 100 w_c / sum w, where v_c is the category's
  credit variance with SCORE_SMOOTH pseudo-cases added (half at 0, half at 1), and t Student's
  quantile with Welch-Satterthwaite degrees of freedom (each category n_c - 1 + SCORE_SMOOTH).
  Without the pseudo-cases a category at 9 of 9 reads as certain and a strong model's interval
  covered 0.91. Issue 38: with half a pseudo-case and z, a near-perfect model with uneven case
  difficulty and no PARTIALs covered 0.944 (its misses all low: a symmetric interval is short on
  the long side of a skewed mean) and a mid-range pass/fail model 0.943-0.945 (z ignores that
  each variance is estimated from 9 cases); three quarters of a pseudo-case with t held >= 0.95
  in every profile measured, at 4-7% more width.
- difference B - A: per case d = credit_B - credit_A; delta = sum a_c mean_c(d), its standard
  error from the same kind of smoothed variance (half a pseudo-difference at -1 and +1, SMOOTH),
  Student's t with Welch-Satterthwaite degrees of freedom. The bootstrap's plug-in variance is
  (n - 1)/n too small per category (8/9 at 9 cases): its regression gate fired 3.9-5.0% against
  a nominal 2.5%; the plain t interval, up to 4.5% when the two runs had different repeat counts
  (a skewed difference); with the smoothing, 0.1-1.9%.

Pure: no I/O, no randomness.
"""
from __future__ import annotations

from functools import lru_cache
from math import exp, fsum, lgamma, log, pi, sqrt, tan
from typing import Sequence

LEVEL = 0.95
ROUGH_BELOW = 10        # a category with fewer cases gets a note that its interval is rough
SMOOTH = 0.5        # pseudo-differences per category in a delta's variance (half at each end): see the docstring
SCORE_SMOOTH = 0.75  # pseudo-cases per category in the score's variance (half at each end): see the docstring
CATEGORY_METHOD = "Clopper-Pearson"     # the category interval's name, as the views print it
METHOD = (f"over cases: {CATEGORY_METHOD} per category; the score a stratified t interval "
          "(Welch-Satterthwaite df), each category's variance smoothed by three quarters of a pseudo-case")
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


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz; Numerical
    Recipes 6.4): converges fast for x < (a + 1) / (a + b + 2)."""
    tiny = 1e-300
    c, d = 1.0, 1 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        for num in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                    -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1 + num * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + num / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return h


def beta_cdf(x: float, a: float, b: float) -> float:
    """The regularized incomplete beta function I_x(a, b), a, b > 0 (any real, not only whole)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log(1 - x))
    if x < (a + 1) / (a + b + 2):
        return front * _beta_fraction(a, b, x) / a
    return 1 - front * _beta_fraction(b, a, 1 - x) / b


def beta_quantile(q: float, a: float, b: float) -> float:
    """The x with I_x(a, b) = q: Newton's steps on the cdf (its slope is the beta density), kept
    inside a shrinking bracket by bisection whenever a step would leave it; to 1e-13."""
    low, high, x = 0.0, 1.0, 0.5
    log_norm = lgamma(a + b) - lgamma(a) - lgamma(b)
    for _ in range(200):
        gap = beta_cdf(x, a, b) - q
        if gap < 0:
            low = x
        else:
            high = x
        slope = exp(log_norm + (a - 1) * log(x) + (b - 1) * log(1 - x)) if 0 < x < 1 else 0.0
        step = x - gap / slope if slope > 0 else -1.0
        nxt = step if low < step < high else (low + high) / 2
        if abs(nxt - x) < 1e-13 or high - low < 1e-13:
            return nxt
        x = nxt
    return x


@lru_cache(maxsize=1024)     # a weight edit on the page recomputes the same categories: free the second time
def clopper_pearson(mean: float, n: int, level: float) -> tuple[float, float]:
    """The Clopper-Pearson ("exact") interval for a proportion `mean` over `n` cases: the beta
    quantiles at x = n * mean, which may be fractional (a PARTIAL adds half a success, a mean
    over repeats a share of one). For pass/fail cases its coverage is at least `level` for every
    true rate, near 0 and 1 too, where Wilson's dips (at 9 cases, to 0.84 for a rate just above 0.98)."""
    if n <= 0:
        raise ValueError("clopper_pearson() needs n >= 1")
    x = n * min(1.0, max(0.0, mean))
    alpha = 1 - level
    low = 0.0 if x <= 0 else beta_quantile(alpha / 2, x, n - x + 1)
    high = 1.0 if x >= n else beta_quantile(1 - alpha / 2, x + 1, n - x)
    return low, high


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
    """(score bounds on 0-100 or None, {category: Clopper-Pearson bounds on 0-1}), unrounded."""
    strata = _strata(credits, categories)
    z = z_value(level)
    per = {}
    for c, values in strata.items():
        low, high = clopper_pearson(sum(values) / len(values), len(values), level)
        per[c] = {"low": low, "high": high}
    shares = _shares(strata, weights)
    if not strata or shares is None:
        return None, per
    score = fsum(shares[c] * fsum(v) / len(v) for c, v in strata.items())
    parts = {c: shares[c] ** 2 * _smoothed_var(v, 0.0, 1.0, SCORE_SMOOTH) / len(v) for c, v in strata.items()}
    var = fsum(parts.values())
    # Welch-Satterthwaite: each category's variance rests on its cases (plus the pseudo-cases)
    spread = fsum(x ** 2 / (len(strata[c]) - 1 + SCORE_SMOOTH) for c, x in parts.items())
    half = (t_value(level, var ** 2 / spread) if spread > 0 else z) * sqrt(var)
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
