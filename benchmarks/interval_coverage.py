"""Do the scorecard's 95% intervals cover the true score? (issue 20, item 4)

Simulates suites of the shipped shape (8 categories x 9 cases, default weights) from known
per-case probabilities (benchmarks/simsuite.py), computes every candidate interval on each, and
prints how often each one contains the true score (and each category's true score), its mean
width, and how many category intervals have zero width.

Methods, score:
  percentile-boot   the percentile bootstrap over cases, stratified by category (shipped before)
  rescaled-boot     the same draws, each category's deviation scaled by sqrt(n / (n - 1))
  bca-boot          bias-corrected and accelerated bootstrap (jackknife acceleration), same draws
  wald-sample       score +- z * sqrt(sum a_c^2 var_c / n_c), the plug-in (sample) variance
  wald-agresti-coull  the same, var_c = p~(1 - p~) with z^2/2 pseudo-cases at 0 and at 1
  wald-smoothed-W   the same, var_c the sample variance with W pseudo-cases, half at 0, half at 1
  mover-wilson      MOVER over the category Wilson intervals
  shipped           the same with 0.75 pseudo-cases and Student's t (Welch-Satterthwaite df) in place of z
                    (scoring/intervals.py score_intervals; wald-smoothed-0.5 before issue 38)
Methods, category (coverage over all categories, the lowest category's, and how many fall below 0.95):
  percentile-boot   as above (shipped before issue 20)
  wilson            Wilson score interval of the mean credit (shipped before issue 38)
  wilson-cc         Wilson with a continuity correction
  clopper-pearson   the exact interval at x = n * mean (shipped: scoring/intervals.py clopper_pearson)

Profiles (benchmarks/simsuite.py): mid, strong, uneven (categories apart), top (0.97 everywhere),
strong-uneven (categories 0.90-0.99, a quarter of each category's cases hard, the rest always
pass: issue 38's near-perfect model with uneven case difficulty).

Rates (benchmarks/ratesim.py; --rates-suites 0 leaves them out): the nine rates' intervals
(scoring/rates.py) on clustered units, calls / fields / conversations per case, near 0%, mid
and near 100%, against a plain Clopper-Pearson on the units that ignores the clustering. --partial 0 makes every
non-PASS a FAIL: pass/fail cases, the binomial, where the category intervals are weakest.

    python benchmarks/interval_coverage.py                      # ~2-3 minutes on a busy 2-core machine
    python benchmarks/interval_coverage.py --suites 4000 --boot-suites 2000 --resamples 2000
    python benchmarks/interval_coverage.py --per-category 30 --repeats 3 --profiles mid,strong,uneven
    python benchmarks/interval_coverage.py --profiles mid,strong,top,strong-uneven --partial 0 --boot-suites 0

The bootstrap methods run on the first --boot-suites suites only (they cost ~0.1 s each); the
analytic ones on all --suites. A coverage figure p from N suites has a standard error of
sqrt(p (1 - p) / N): about 0.003 at N = 4000 and 0.009 at N = 600 for p = 0.95.
"""
from __future__ import annotations

import argparse
import sys
from math import sqrt
from statistics import NormalDist

from ratesim import rates_lines
from simsuite import CATEGORIES, PARTIAL, PROFILES, credit, draw_cases, true_category, true_score, verdicts

from toolproof.scoring.intervals import clopper_pearson, score_intervals, wilson, z_value
from toolproof.scoring.scorecard import DEFAULT_WEIGHTS
from toolproof.scoring.stats import SeededDraws, quantile, resampled_means, weighted

LEVEL = 0.95


def boot_methods(credits: list[float], cats: list[str], resamples: int, seed: int) -> dict:
    """Score intervals of the three bootstrap variants and the percentile category intervals."""
    strata: dict[str, list[float]] = {}
    for c, k in zip(credits, cats):
        strata.setdefault(k, []).append(c)
    means = {k: sum(v) / len(v) for k, v in strata.items()}
    score = weighted(means, DEFAULT_WEIGHTS)
    draws = resampled_means([credits], cats, resamples=resamples, seed=seed)
    plain = sorted(weighted(d[0], DEFAULT_WEIGHTS) for d in draws)
    scale = {k: sqrt(len(v) / (len(v) - 1)) for k, v in strata.items()}
    rescaled = sorted(weighted({k: means[k] + scale[k] * (d[0][k] - means[k]) for k in means}, DEFAULT_WEIGHTS)
                      for d in draws)
    lo, hi = (1 - LEVEL) / 2, (1 + LEVEL) / 2
    out = {"percentile-boot": (quantile(plain, lo), quantile(plain, hi)),
           "rescaled-boot": (quantile(rescaled, lo), quantile(rescaled, hi)),
           "bca-boot": bca(plain, score, strata, lo, hi)}
    cat_boot = {}
    for k in strata:
        values = sorted(d[0][k] for d in draws)
        cat_boot[k] = (quantile(values, lo), quantile(values, hi))
    return {"score": out, "categories": cat_boot}


def bca(ordered: list[float], score: float, strata: dict, lo: float, hi: float) -> tuple[float, float]:
    normal = NormalDist()
    below = sum(v < score for v in ordered) + 0.5 * sum(v == score for v in ordered)
    share = min(max(below / len(ordered), 1 / len(ordered)), 1 - 1 / len(ordered))
    z0 = normal.inv_cdf(share)
    jack = []                                   # leave one case out, within its category
    for k, values in strata.items():
        for i in range(len(values)):
            rest = values[:i] + values[i + 1:]
            means = {c: sum(v) / len(v) for c, v in strata.items()}
            if rest:
                means[k] = sum(rest) / len(rest)
            jack.append(weighted(means, DEFAULT_WEIGHTS))
    centre = sum(jack) / len(jack)
    num = sum((centre - j) ** 3 for j in jack)
    den = 6 * sum((centre - j) ** 2 for j in jack) ** 1.5
    a = num / den if den else 0.0
    bounds = []
    for q in (lo, hi):
        zq = normal.inv_cdf(q)
        adjusted = normal.cdf(z0 + (z0 + zq) / (1 - a * (z0 + zq)))
        bounds.append(quantile(ordered, adjusted))
    return bounds[0], bounds[1]


def wald(credits: list[float], cats: list[str], variance: str = "sample") -> tuple[float, float]:
    """score +- z * se, se from a per-category variance: the sample variance, Agresti-Coull's
    p~(1 - p~) with z^2/2 pseudo-cases each way, or the sample variance with one pseudo-case at 0
    and one at 1 (smoothed: never 0, PARTIAL still lowers it)."""
    strata: dict[str, list[float]] = {}
    for c, k in zip(credits, cats):
        strata.setdefault(k, []).append(c)
    total = sum(DEFAULT_WEIGHTS[k] for k in strata)
    z = z_value(LEVEL)
    score, var = 0.0, 0.0
    for k, v in strata.items():
        a = 100 * DEFAULT_WEIGHTS[k] / total
        n = len(v)
        m = sum(v) / n
        if variance == "sample":
            s2 = sum((x - m) ** 2 for x in v) / (n - 1)
        elif variance == "agresti-coull":
            pt = (n * m + z * z / 2) / (n + z * z)
            s2 = pt * (1 - pt)
        else:                               # "smoothed-W": W pseudo-cases, half at 0, half at 1
            w = float(variance.split("-")[1])
            mt = (sum(v) + w / 2) / (n + w)
            s2 = (sum((x - mt) ** 2 for x in v) + w / 2 * (mt ** 2 + (1 - mt) ** 2)) / (n + w - 1)
        score += a * m
        var += a * a * s2 / n
    half = z * sqrt(var)
    return score - half, score + half


def mover_wilson(per: dict) -> tuple[float, float]:
    """MOVER (Zou & Donner) over the category Wilson intervals: tried, not shipped (under-covers
    strong models: each category's Wilson shrinks toward 1/2, and the shrinkage adds up)."""
    total = sum(DEFAULT_WEIGHTS[k] for k in per)
    a = {k: 100 * DEFAULT_WEIGHTS[k] / total for k in per}
    score = sum(a[k] * m for k, (m, _) in per.items())
    down = sqrt(sum((a[k] * (m - b["low"])) ** 2 for k, (m, b) in per.items()))
    up = sqrt(sum((a[k] * (b["high"] - m)) ** 2 for k, (m, b) in per.items()))
    return score - down, score + up


def wilson_cc(mean: float, n: int, z: float) -> tuple[float, float]:
    """Wilson's interval with a continuity correction (Newcombe 1998, method 4): tried, not shipped."""
    p, z2 = mean, z * z
    low = 0.0 if p <= 0 else (2 * n * p + z2 - 1 - z * sqrt(max(0.0, z2 - 2 - 1 / n + 4 * p * (n * (1 - p) + 1)))) / (2 * (n + z2))
    high = 1.0 if p >= 1 else (2 * n * p + z2 + 1 + z * sqrt(max(0.0, z2 + 2 - 1 / n + 4 * p * (n * (1 - p) - 1)))) / (2 * (n + z2))
    return max(0.0, low), min(1.0, high)


CATEGORY_METHODS = {
    "percentile-boot": None,                    # drawn with the bootstrap score methods below
    "wilson": lambda m, n: wilson(m, n, z_value(LEVEL)),
    "wilson-cc": lambda m, n: wilson_cc(m, n, z_value(LEVEL)),
    "clopper-pearson": lambda m, n: clopper_pearson(m, n, LEVEL),
    "shipped": None,                            # scoring/intervals.py score_intervals' own
}


def simulate(profile: str, args) -> dict:
    probs_true = PROFILES[profile]
    truth = true_score(probs_true, args.partial)
    cat_truth = {k: true_category(p, args.partial) for k, p in zip(CATEGORIES, probs_true)}
    draws = SeededDraws(args.seed + sum(map(ord, profile)))
    hits: dict[str, list] = {}
    widths: dict[str, list] = {}
    misses: dict[str, list] = {}
    cat_hits: dict[str, dict] = {name: {k: [] for k in CATEGORIES} for name in CATEGORY_METHODS}
    cat_widths: dict[str, list] = {name: [] for name in CATEGORY_METHODS}
    zero = {name: 0 for name in CATEGORY_METHODS}

    def record_category(name: str, k: str, low: float, high: float) -> None:
        cat_hits[name][k].append(low <= cat_truth[k] <= high)
        cat_widths[name].append(high - low)
        zero[name] += high - low < 1e-12

    def record(name: str, low: float, high: float) -> None:
        hits.setdefault(name, []).append(low <= truth <= high)
        misses.setdefault(name, [0, 0])[truth > high] += not low <= truth <= high
        widths.setdefault(name, []).append(high - low)

    for i in range(args.suites):
        probs, cats = draw_cases(profile, args.per_category, draws)
        credits = [credit(verdicts(p, args.repeats, draws, args.partial)) for p in probs]
        score_b, cat_b = score_intervals(credits, cats, DEFAULT_WEIGHTS, LEVEL)
        record("shipped", score_b["low"], score_b["high"])
        means = {}
        for c, k in zip(credits, cats):
            means.setdefault(k, []).append(c)
        cat_b = {k: (sum(v) / len(v), cat_b[k]) for k, v in means.items()}
        for variance in ("sample", "agresti-coull", "smoothed-0.5", "smoothed-0.6", "smoothed-0.75", "smoothed-1", "smoothed-2"):
            record("wald-" + variance, *wald(credits, cats, variance))
        record("mover-wilson", *mover_wilson({k: (sum(v) / len(v), dict(zip(("low", "high"), wilson(
            sum(v) / len(v), len(v), z_value(LEVEL))))) for k, v in means.items()}))
        for k, values in means.items():
            for name, method in CATEGORY_METHODS.items():
                if method is not None:
                    record_category(name, k, *method(sum(values) / len(values), len(values)))
            record_category("shipped", k, cat_b[k][1]["low"], cat_b[k][1]["high"])
        if i < args.boot_suites:
            boot = boot_methods(credits, cats, args.resamples, 20261130 + i)
            for name, (low, high) in boot["score"].items():
                record(name, low, high)
            for k, (low, high) in boot["categories"].items():
                record_category("percentile-boot", k, low, high)
    return {"truth": truth, "hits": hits, "misses": misses, "widths": widths, "cat_hits": cat_hits,
            "cat_widths": cat_widths, "zero": zero}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suites", type=int, default=4000, help="simulated suites per profile (analytic methods)")
    parser.add_argument("--boot-suites", type=int, default=400, help="of which the bootstrap methods also run on")
    parser.add_argument("--resamples", type=int, default=1000)
    parser.add_argument("--per-category", type=int, default=9)
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--profiles", default="mid,strong,strong-uneven")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rates-suites", type=int, default=4000,
                        help="simulated suites per model in the rates section (0: leave it out)")
    parser.add_argument("--partial", type=float, default=PARTIAL,
                        help="share of non-PASS verdicts that are PARTIAL (0: pass/fail only, the hardest case)")
    args = parser.parse_args(argv)
    print(f"95% interval coverage over cases: {len(CATEGORIES)} categories x {args.per_category} cases, "
          f"{args.repeats} repeat(s), PARTIAL {args.partial:g} of non-PASS, default weights; bootstrap {args.resamples} resamples on "
          f"{min(args.boot_suites, args.suites)} suites, analytic on {args.suites}")
    for profile in args.profiles.split(","):
        r = simulate(profile, args)
        print(f"\n{profile} (pass p = {', '.join(f'{p:g}' for p in PROFILES[profile])}): "
              f"true score {r['truth']:.2f}")
        print(f"  {'score interval':<18} {'coverage':>8} {'mean width':>11} {'suites':>7} {'low, high':>10}")
        for name in ("percentile-boot", "rescaled-boot", "bca-boot", "wald-sample", "wald-agresti-coull",
                     "wald-smoothed-0.5", "wald-smoothed-0.6", "wald-smoothed-0.75", "wald-smoothed-1", "wald-smoothed-2", "mover-wilson", "shipped"):
            if name not in r["hits"]:
                continue
            h, w = r["hits"][name], r["widths"][name]
            print(f"  {name:<18} {sum(h) / len(h):>8.3f} {sum(w) / len(w):>11.1f} {len(h):>7}   {r['misses'][name][0] / len(h):.3f}, {r['misses'][name][1] / len(h):.3f}")
        print(f"  {'category interval':<18} {'coverage':>8} {'lowest':>7} {'< 0.95':>7} {'mean width':>11} {'zero-width':>11}"
              "   per category")
        for name, per in r["cat_hits"].items():
            h = [x for v in per.values() for x in v]
            if not h:
                continue
            each = [sum(v) / len(v) for v in per.values()]
            w = r["cat_widths"][name]
            print(f"  {name:<18} {sum(h) / len(h):>8.3f} {min(each):>7.3f} {sum(c < 0.95 for c in each):>4} of {len(each)}"
                  f" {100 * sum(w) / len(w):>10.1f} {r['zero'][name] / len(h):>11.1%}   "
                  + " ".join(f"{c:.3f}" for c in each))
    if args.rates_suites:
        print("\n".join(rates_lines(args.rates_suites, args.seed)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
