"""Does the four-way decision table's macro-F1 interval cover the true macro-F1? (issue 40)

Simulates models over the suite's decision shape (per expected label, as many cases as issue 40's
suite has: 100 call, 11 ask, 10 answer, 12 decline; 2 phrasings a case; 1, 3 or 5 repeats),
draws the real `scoring/four_way` resamples of the per-case cells, and counts how often the
shipped interval (the expanded percentile, `four_way.interval`) holds the truth, beside the
plain percentile and the bias-corrected (BC) percentile interval on the same resamples. Prints
coverage, mean width in points, where the misses fall, and the bias of the point estimate.

The truth (docs/statistics.md "The four-way decision table": an interval *over cases*, what
macro-F1 could be if the cases were drawn again from the same kind): macro-F1 of the expected
table, where each expected label's row is its case count times the population mean of a case's
decision probabilities. Each case draws its probability of the right decision p from the
model's population: 1 (a case the model always gets right) with share `always` x E[p], else Beta with
concentration 4 (cases differ strongly) around the mean that makes the label's E[p] the
model's; a wrong decision goes to the other labels in fixed shares (WRONG: a decline case that
is not declined is mostly a misuse call, an ask case mostly a premature call). Every
conversation of a case (phrasing x repeat) draws from the same p: a case's conversations are
not independent, which is why the interval resamples cases.

Seeded (random.Random, here only): the same figures every run.

    nice -n 10 python benchmarks/four_way_interval.py                # a quick look: about a minute
    nice -n 10 python benchmarks/four_way_interval.py --suites 300 --resamples 400   # docs/statistics.md's table, ~8 min

A coverage p from N suites has a standard error of sqrt(p (1 - p) / N): 0.028 at the default
N = 60 (a quick look), 0.010 at N = 300. The shipped interval draws 1,000 resamples;
--resamples (300 by default here, for time) changes only the Monte-Carlo noise of each bound,
not what the interval estimates.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from toolproof.grading.decision import LABELS  # noqa: E402
from statistics import NormalDist  # noqa: E402

from toolproof.scoring.four_way import SIZE, expanded_level, macro_f1, percentile_bounds, resampled  # noqa: E402
from toolproof.scoring.stats import quantile  # noqa: E402

CASES = {"call": 100, "ask": 11, "answer": 10, "decline": 12}
PHRASINGS = 2
REPEATS = (1, 3, 5)
CONCENTRATION = 4.0
# where a wrong decision goes, per expected label (shares of the other labels)
WRONG = {"call": {"ask": 0.3, "answer": 0.6, "decline": 0.1},
         "ask": {"call": 0.7, "answer": 0.25, "decline": 0.05},
         "answer": {"call": 0.6, "ask": 0.2, "decline": 0.2},
         "decline": {"call": 0.55, "answer": 0.3, "ask": 0.15}}


@dataclass(frozen=True)
class Model:
    name: str
    right: dict       # label -> E[p] of the right decision
    always: float     # share of cases always decided right, as a fraction of each label's E[p]


MODELS = (
    Model("strong", {"call": 0.97, "ask": 0.9, "answer": 0.9, "decline": 0.8}, 0.6),
    Model("mid", {"call": 0.9, "ask": 0.7, "answer": 0.75, "decline": 0.5}, 0.3),
    Model("weak decline", {"call": 0.95, "ask": 0.85, "answer": 0.85, "decline": 0.2}, 0.4),
)


def truth(model: Model) -> float:
    flat = [0.0] * SIZE * SIZE
    for i, label in enumerate(LABELS):
        n, p = CASES[label], model.right[label]
        flat[i * SIZE + i] = n * p
        for other, share in WRONG[label].items():
            flat[i * SIZE + LABELS.index(other)] = n * (1 - p) * share
    return macro_f1(flat)


def case_p(model: Model, label: str, rng: random.Random) -> float:
    """A case's probability of the right decision, with population mean model.right[label]."""
    mean = model.right[label]
    always = model.always * mean        # never more than the mean allows
    if rng.random() < always:
        return 1.0
    rest = (mean - always) / (1 - always)     # the Beta part's mean
    return rng.betavariate(rest * CONCENTRATION, (1 - rest) * CONCENTRATION)


def suite(model: Model, repeats: int, rng: random.Random) -> list[list[int]]:
    clusters = []
    for i, label in enumerate(LABELS):
        others = list(WRONG[label].items())
        for _ in range(CASES[label]):
            p = case_p(model, label, rng)
            cells = [0] * SIZE * SIZE
            for _ in range(PHRASINGS * repeats):
                if rng.random() < p:
                    seen = label
                else:
                    u, seen = rng.random(), others[-1][0]
                    for other, share in others:
                        u -= share
                        if u < 0:
                            seen = other
                            break
                cells[i * SIZE + LABELS.index(seen)] += 1
            clusters.append(cells)
    return clusters


def bias_corrected(values: list[float], estimate: float, level: float = 0.95) -> dict:
    """The bias-corrected percentile interval (Efron's BC), for comparison: the quantiles moved by
    how far the resamples' median sits from the estimate."""
    below = sum(v < estimate for v in values) + 0.5 * sum(v == estimate for v in values)
    share = min(max(below / len(values), 1e-6), 1 - 1e-6)
    normal = NormalDist()
    z0, z = normal.inv_cdf(share), normal.inv_cdf((1 + level) / 2)
    return {"low": quantile(values, normal.cdf(2 * z0 - z)), "high": quantile(values, normal.cdf(2 * z0 + z))}


SMALLEST = min(CASES.values())
METHODS = {"expanded (shipped)": lambda values, estimate: percentile_bounds(values, expanded_level(SMALLEST)),
           "plain percentile": lambda values, estimate: percentile_bounds(values),
           "bias-corrected (BC)": bias_corrected}


def row(model: Model, repeats: int, suites: int, resamples: int, rng: random.Random) -> list[dict]:
    target = truth(model)
    tally = {m: {"covered": 0, "below": 0, "above": 0, "widths": []} for m in METHODS}
    estimates = []
    for s in range(suites):
        clusters = suite(model, repeats, rng)
        flat = [sum(c[k] for c in clusters) for k in range(SIZE * SIZE)]
        estimate = macro_f1(flat)
        estimates.append(estimate)
        values = resampled(clusters, resamples=resamples, seed=s)
        for name, method in METHODS.items():
            bounds, t = method(values, estimate), tally[name]
            t["widths"].append(bounds["high"] - bounds["low"])
            t["below" if target < bounds["low"] else "above" if target > bounds["high"] else "covered"] += 1
    bias = sum(estimates) / len(estimates) - target
    return [{"model": model.name, "repeats": repeats, "method": name, "truth": target,
             "coverage": t["covered"] / suites, "below": t["below"] / suites, "above": t["above"] / suites,
             "width": 100 * sum(t["widths"]) / len(t["widths"]), "bias": bias} for name, t in tally.items()]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--suites", type=int, default=60, help="simulated suites per row")
    ap.add_argument("--resamples", type=int, default=300, help="bootstrap resamples per interval")
    ap.add_argument("--seed", type=int, default=40)
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    started = time.perf_counter()
    print(f"four-way macro-F1 interval: {args.suites} suites a row, {args.resamples} resamples, cases "
          + ", ".join(f"{n} {label}" for label, n in CASES.items()) + f", {PHRASINGS} phrasings a case")
    print(f"{'model':<13} {'repeats':>7} {'method':<21} {'truth':>6} {'coverage':>8} {'truth below':>11} "
          f"{'truth above':>11} {'width':>6} {'bias':>7}")
    for model in MODELS:
        for repeats in REPEATS:
            for r in row(model, repeats, args.suites, args.resamples, rng):
                # "truth below": the interval sits above the truth
                print(f"{r['model']:<13} {r['repeats']:>7} {r['method']:<21} {r['truth']:>6.3f} {r['coverage']:>8.3f} "
                      f"{r['below']:>11.3f} {r['above']:>11.3f} {r['width']:>6.1f} {r['bias']:>+7.3f}", flush=True)
    print(f"({time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
