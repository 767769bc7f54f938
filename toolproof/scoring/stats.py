"""Statistics for numbers you can compare: pass^k, pass@k, McNemar, the seeded draws, and the
percentile bootstrap (no longer what a scorecard or a comparison shows: it under-covered at 9 cases
per category, see scoring/intervals.py; kept so benchmarks/ can show the before and after).

Every function takes plain data and returns plain data, so the terminal and the page give the
same figures. Randomness comes only from `SeededDraws`, a SplitMix64 generator written out
here: the same seed gives the same draws on CPython and on Pyodide, whatever `random` does in
either, and the purity test keeps the `random` module out of the core.

Definitions (docs/statistics.md "Statistics" says the same for users):
- pass^k  = C(c, k) / C(n, k): the chance that k repeats drawn from a case's n all pass;
- pass@k  = 1 - C(n - c, k) / C(n, k): the chance that at least one of them passes
  (both tau-bench's unbiased estimators, averaged over cases);
- interval = percentile bootstrap over cases, stratified by category: each resample draws, in
  every category, as many cases as it has, with replacement (a case carries all its repeats);
  the bounds are the (1 - level) / 2 and (1 + level) / 2 quantiles of the resampled values,
  interpolated linearly between order statistics;
- paired delta = the same resampled cases applied to both runs, so per-case noise cancels;
- McNemar's exact test = two-sided binomial test over the flipped cases:
  p = min(1, 2 * P(X <= min(b, c))) with X ~ Bin(b + c, 1/2).

Pure: no I/O, no clock, no `random`.
"""
from __future__ import annotations

from math import comb, fsum
from typing import Callable, Sequence

MASK64 = (1 << 64) - 1
BOOTSTRAP_SEED = 20261130
BOOTSTRAP_RESAMPLES = 2000
BOOTSTRAP_LEVEL = 0.95
BOOTSTRAP_METHOD = "percentile bootstrap over cases, stratified by category"
ROUGH_BELOW = 10        # a category with fewer cases gets a note that its interval is rough


class SeededDraws:
    """SplitMix64: a tiny, well-tested generator whose output is fixed by its seed alone."""

    def __init__(self, seed: int):
        self.state = seed & MASK64

    def next64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below_many(self, n: int, count: int) -> list[int]:
        """`count` draws of below(n), the same sequence, in one tight loop (the bootstrap's hot
        path: in the page every attribute lookup and call costs several times what it does here)."""
        if n <= 0:
            raise ValueError("below() needs n >= 1")
        limit = (1 << 64) - (1 << 64) % n
        state, out = self.state, []
        while len(out) < count:
            state = (state + 0x9E3779B97F4A7C15) & MASK64
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
            z ^= z >> 31
            if z < limit:
                out.append(z % n)
        self.state = state
        return out

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), without modulo bias (rejection of the ragged top)."""
        if n <= 0:
            raise ValueError("below() needs n >= 1")
        limit = (1 << 64) - (1 << 64) % n
        while True:
            value = self.next64()
            if value < limit:
                return value % n


def keyed_draws(seed: int, *parts: object) -> SeededDraws:
    """A generator for one (seed, key parts...): the key is hashed, so ids of any length and
    content give independent, reproducible streams, the same in CPython and Pyodide (a sweep's
    padding and order per case and level, an arm's shuffled offer per case)."""
    import hashlib          # lazy: the page's start-up reads the pad field, never draws

    key = "\x1f".join(str(p) for p in (seed, *parts)).encode("utf-8", "surrogatepass")
    return SeededDraws(int.from_bytes(hashlib.sha256(key).digest()[:8], "big"))


def shuffled(items: list, draws: SeededDraws) -> list:
    """A new list: `items` in a Fisher-Yates order drawn from `draws` (each order equally likely)."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = draws.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def pass_hat_k(passes: int, repeats: int, k: int) -> float:
    """C(c, k) / C(n, k): every one of k repeats passes (0 when c < k)."""
    _check_counts(passes, repeats, k)
    return comb(passes, k) / comb(repeats, k)


def pass_at_k(passes: int, repeats: int, k: int) -> float:
    """1 - C(n - c, k) / C(n, k): at least one of k repeats passes (1 when n - c < k)."""
    _check_counts(passes, repeats, k)
    return 1.0 - comb(repeats - passes, k) / comb(repeats, k)


def _check_counts(passes: int, repeats: int, k: int) -> None:
    if not 0 <= passes <= repeats or not 1 <= k <= repeats:
        raise ValueError(f"need 0 <= c <= n and 1 <= k <= n, got c={passes}, n={repeats}, k={k}")


def reliability(counts: Sequence[tuple[int, int]]) -> dict:
    """{"pass_hat_k": {"1": ..}, "pass_at_k": {"1": ..}} for k = 1 .. the smallest n, averaged
    over cases given as (passes, repeats); cases with no graded repeat are left out."""
    counts = [(c, n) for c, n in counts if n > 0]
    if not counts:
        return {"pass_hat_k": {}, "pass_at_k": {}}
    top = min(n for _, n in counts)
    return {
        name: {str(k): round(fsum(f(c, n, k) for c, n in counts) / len(counts), 4)
               for k in range(1, top + 1)}
        for name, f in (("pass_hat_k", pass_hat_k), ("pass_at_k", pass_at_k))
    }


def quantile(sorted_values: Sequence[float], q: float) -> float:
    """The q-quantile of already sorted values, linear between order statistics (type 7)."""
    if not sorted_values:
        raise ValueError("quantile of no values")
    position = q * (len(sorted_values) - 1)
    low = int(position)
    high = min(low + 1, len(sorted_values) - 1)
    return sorted_values[low] + (sorted_values[high] - sorted_values[low]) * (position - low)


def percentiles(values: Sequence[float], points: Sequence[float]) -> dict:
    """{"p50": ..., "p95": ...} of the values (linear interpolation); empty input gives {}."""
    ordered = sorted(values)
    return {f"p{round(p * 100):d}": quantile(ordered, p) for p in points} if ordered else {}


def _strata(categories: Sequence[str]) -> dict[str, list[int]]:
    """Case positions per category, in first-seen order (the order resampling walks them)."""
    out: dict[str, list[int]] = {}
    for i, category in enumerate(categories):
        out.setdefault(category, []).append(i)
    return out


def weighted(means: dict[str, float], weights: dict[str, float]) -> float | None:
    """100 * sum(w * s) / sum(w): the scorecard's score formula, unrounded."""
    total = sum(weights.get(c, 0) for c in means)
    if total == 0:
        return None
    return 100 * fsum(weights.get(c, 0) * s for c, s in means.items()) / total


def _resample(strata: dict[str, list[int]], draws: SeededDraws) -> dict[str, list[int]]:
    """Per category, positions *within the category* drawn with replacement, as many as it has."""
    return {c: draws.below_many(len(members), len(members)) for c, members in strata.items()}


def _bounds(values: list[float], level: float) -> dict:
    values.sort()
    return {"low": quantile(values, (1 - level) / 2), "high": quantile(values, (1 + level) / 2)}


def _interval_doc(level: float, resamples: int, seed: int, strata: dict) -> dict:
    rough = sorted(c for c, members in strata.items() if len(members) < ROUGH_BELOW)
    doc = {"method": BOOTSTRAP_METHOD, "level": level, "resamples": resamples, "seed": seed}
    if rough:
        doc["note"] = (f"rough: fewer than {ROUGH_BELOW} cases in " + ", ".join(rough)
                       + "; their intervals (and the score's) rest on few cases")
    return doc


def bootstrap(credits: Sequence[float], categories: Sequence[str], weights: dict, *,
              resamples: int = BOOTSTRAP_RESAMPLES, level: float = BOOTSTRAP_LEVEL,
              seed: int = BOOTSTRAP_SEED, resampled: list | None = None) -> dict:
    """Intervals for the score and each category score from per-case credits (a case's credit
    is already the mean over its repeats). Score bounds on the 0-100 scale, rounded to 2
    places; category bounds on 0-1, rounded to 4, as the scorecard shows its numbers.
    `resampled` (from resampled_means on the same inputs) skips the draws: weights do not
    change them, so a page can recompute the score's interval for new weights at once."""
    return _run_bootstrap([credits], categories, weights, resamples, level, seed,
                          lambda means: means[0], resampled)


def paired_bootstrap(credits_a: Sequence[float], credits_b: Sequence[float],
                     categories: Sequence[str], weights: dict, *,
                     resamples: int = BOOTSTRAP_RESAMPLES, level: float = BOOTSTRAP_LEVEL,
                     seed: int = BOOTSTRAP_SEED) -> dict:
    """Intervals for B - A (score and per category): every resample applies the same drawn
    cases to both runs. Inputs are aligned: position i is the same case in A and in B."""
    if len(credits_a) != len(credits_b):
        raise ValueError("paired runs need the same cases")
    return _run_bootstrap([credits_a, credits_b], categories, weights, resamples, level, seed,
                          lambda means: {c: means[1][c] - means[0][c] for c in means[0]})


def resampled_means(runs: list, categories: Sequence[str], *, resamples: int = BOOTSTRAP_RESAMPLES,
                    seed: int = BOOTSTRAP_SEED) -> list[list[dict]]:
    """Per resample, per run, the mean credit of each category over the drawn cases: the costly,
    weight-free part of the bootstrap."""
    strata = _strata(categories)
    draws = SeededDraws(seed)
    values = [{c: [run[i] for i in members] for c, members in strata.items()} for run in runs]
    out = []
    for _ in range(resamples):
        picked = _resample(strata, draws)
        out.append([{c: sum(map(v[c].__getitem__, rows)) / len(rows) for c, rows in picked.items()}
                    for v in values])
    return out


def _run_bootstrap(runs: list, categories: Sequence[str], weights: dict, resamples: int,
                   level: float, seed: int, combine: Callable, resampled: list | None = None) -> dict:
    strata = _strata(categories)
    doc = _interval_doc(level, resamples, seed, strata)
    if not strata or resamples < 1:
        return {**doc, "score": None, "categories": {}}
    if resampled is None:
        resampled = resampled_means(runs, categories, resamples=resamples, seed=seed)
    per_category: dict[str, list[float]] = {c: [] for c in strata}
    scores: list[float] = []
    for means in resampled:
        value = combine(means)
        for c in strata:
            per_category[c].append(value[c])
        score = _weighted_of(means, weights, len(runs))
        if score is not None:
            scores.append(score)
    return {
        **doc,
        "score": _rounded(_bounds(scores, level), 2) if scores else None,
        "categories": {c: _rounded(_bounds(v, level), 4) for c, v in per_category.items()},
    }


def _weighted_of(means: list[dict], weights: dict, runs: int) -> float | None:
    if runs == 1:
        return weighted(means[0], weights)
    a, b = weighted(means[0], weights), weighted(means[1], weights)
    return None if a is None or b is None else b - a


def _rounded(bounds: dict, places: int) -> dict:
    # + 0.0 turns a rounded -0.0 into 0.0, so the JSON never says "-0.0"
    return {k: round(v, places) + 0.0 for k, v in bounds.items()}


def mcnemar(regressed: int, improved: int) -> dict:
    """McNemar's exact two-sided test on the flipped cases (b regressed, c improved)."""
    if regressed < 0 or improved < 0:
        raise ValueError("counts must be >= 0")
    flips = regressed + improved
    tail = sum(comb(flips, i) for i in range(min(regressed, improved) + 1)) / 2 ** flips
    return {"regressed": regressed, "improved": improved, "p_value": round(min(1.0, 2 * tail), 6)}
