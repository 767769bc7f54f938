"""Does `compare` cry wolf? (issue 20, item 5)

Simulates two runs of the *same* model on the shipped shape (8 categories x 9 cases, default
weights; benchmarks/simsuite.py), each case with its own pass probability shared by both runs,
at several repeat counts per side, and prints how often
  - the regression gate fires (the delta's 95% interval entirely below 0; nominal 2.5%):
      percentile-boot  the paired percentile bootstrap (shipped before)
      t                the stratified paired t interval, plain sample variances
      t, shipped       the same, each category's variance smoothed by half a pseudo-difference
                       (a quarter at -1, a quarter at +1): scoring/intervals.py delta_intervals
      t, 1.0           the same with a whole pseudo-difference
  - covers: how often the shipped interval holds the true B - A (0 for one model; with --drop,
    the drop's effect on the true score), two-sided, nominal 95%
  - McNemar's exact test gives p < 0.05 (nominal: at most 5%):
      majority (before) a case passes when more than half of its graded repeats PASS, every case
      verdict (now)     a case passes when its verdict is PASS, and only cases graded the same
                        number of times on both sides are tested ("refused" when none is)

    python benchmarks/compare_calibration.py                    # ~6 minutes on a busy 2-core machine
    python benchmarks/compare_calibration.py --pairs 800 --boot-pairs 800 --repeats 1/1,3/3   # the bootstrap's rate
    python benchmarks/compare_calibration.py --drop 0.1 --repeats 1/1,3/3     # power: a real drop
    python benchmarks/compare_calibration.py --levels 4 --repeats 1/1,1/2 --pairs 1000   # two sweeps

The bootstrap runs on the first --boot-pairs pairs only (~0.1 s each); a rate r from N pairs has
a standard error of sqrt(r (1 - r) / N): 0.0016 for 2.5% at N = 10000, 0.005 at N = 1000.
"""
from __future__ import annotations

import argparse
import sys

from simsuite import PROFILES, credit, draw_cases, true_score, verdicts

from toolproof.scoring.intervals import delta_intervals
from toolproof.scoring.repeats import majority
from toolproof.scoring.scorecard import DEFAULT_WEIGHTS
from toolproof.scoring.stats import SeededDraws, mcnemar, paired_bootstrap

REPEATS = ((1, 1), (1, 2), (2, 2), (3, 3), (1, 3), (3, 5), (5, 5))


def one_pair(profile: str, ra: int, rb: int, draws: SeededDraws, drop: float = 0.0):
    probs, cats = draw_cases(profile, 9, draws)
    a = [verdicts(p, ra, draws) for p in probs]
    b = [verdicts(max(0.0, p - drop), rb, draws) for p in probs]
    return a, b, cats


def flips_before(a: list, b: list) -> dict:
    passes = lambda vs: 2 * vs.count("PASS") > len(vs)  # noqa: E731
    reg = sum(passes(x) and not passes(y) for x, y in zip(a, b))
    imp = sum(passes(y) and not passes(x) for x, y in zip(a, b))
    return mcnemar(reg, imp)


def flips_now(a: list, b: list) -> dict | None:
    pairs = [(x, y) for x, y in zip(a, b) if len(x) == len(y)]
    if not pairs:
        return None
    reg = sum(majority(x) == "PASS" != majority(y) for x, y in pairs)
    imp = sum(majority(y) == "PASS" != majority(x) for x, y in pairs)
    return mcnemar(reg, imp)


def run_sweeps(profile: str, ra: int, rb: int, args) -> dict:
    """Two sweeps of `args.levels` levels each: the gate fires when any level's interval, at
    1 - 0.05 / L as compare computes it for sweeps (or at 0.95, uncorrected), lies below 0."""
    draws = SeededDraws(args.seed + 1000 * ra + rb + sum(map(ord, profile)))
    level = 1 - 0.05 / args.levels
    out = {"n": 0, 0.95: 0, level: 0}
    for _ in range(args.pairs):
        fired = {0.95: False, level: False}
        for _ in range(args.levels):
            a, b, cats = one_pair(profile, ra, rb, draws, args.drop)
            ca, cb = [credit(x) for x in a], [credit(y) for y in b]
            for lv in fired:
                fired[lv] |= delta_intervals(ca, cb, cats, DEFAULT_WEIGHTS, lv)[0]["high"] < 0
        for lv, hit in fired.items():
            out[lv] += hit
        out["n"] += 1
    return out


def run(profile: str, ra: int, rb: int, args) -> dict:
    draws = SeededDraws(args.seed + 1000 * ra + rb + sum(map(ord, profile)))
    out = {"boot": 0, "mc_before": 0, "mc_now": 0, "refused": 0, "n": 0, "nb": 0, "covers": 0}
    # the true B - A: every case's pass probability `drop` lower (valid while none falls below 0)
    truth = true_score(tuple(p - args.drop for p in PROFILES[profile])) - true_score(PROFILES[profile])
    for i in range(args.pairs):
        a, b, cats = one_pair(profile, ra, rb, draws, args.drop)
        ca, cb = [credit(x) for x in a], [credit(y) for y in b]
        for w in (0.0, 0.5, 1.0):           # plain t; the shipped smoothing (0.5); a whole pseudo-case
            sm, _ = delta_intervals(ca, cb, cats, DEFAULT_WEIGHTS, 0.95, smooth=w)
            out[w] = out.get(w, 0) + (sm["high"] < 0)
            if w == 0.5:
                out["covers"] += sm["low"] <= truth <= sm["high"]
        out["mc_before"] += flips_before(a, b)["p_value"] < 0.05
        now = flips_now(a, b)
        out["refused"] += now is None
        out["mc_now"] += now is not None and now["p_value"] < 0.05
        out["n"] += 1
        if i < args.boot_pairs:
            boot = paired_bootstrap(ca, cb, cats, DEFAULT_WEIGHTS, resamples=args.resamples, seed=20261130 + i)
            out["boot"] += boot["score"]["high"] < 0
            out["nb"] += 1
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=2000, help="simulated pairs of runs per row")
    parser.add_argument("--boot-pairs", type=int, default=100, help="of which the bootstrap also runs on")
    parser.add_argument("--resamples", type=int, default=500)
    parser.add_argument("--repeats", default=",".join(f"{a}/{b}" for a, b in REPEATS),
                        help="repeat counts A/B per row, comma-separated")
    parser.add_argument("--profiles", default="mid,strong")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--levels", type=int, default=1,
                        help="compare two sweeps of this many pad levels (the gate column only)")
    parser.add_argument("--drop", type=float, default=0.0,
                        help="B's pass probability lower by this much: the rates become the gate's power")
    args = parser.parse_args(argv)
    if args.levels > 1:
        level = 1 - 0.05 / args.levels
        print(f"two sweeps of {args.levels} levels, one model: the gate fires when any level regresses")
        print(f"  {'model':<7} {'repeats A/B':>11} {'each at 95%':>12} {f'each at {100 * level:.4g}% (now)':>20}   pairs")
        for profile in args.profiles.split(","):
            for ra, rb in (tuple(map(int, x.split("/"))) for x in args.repeats.split(",")):
                r = run_sweeps(profile, ra, rb, args)
                print(f"  {profile:<7} {f'{ra}/{rb}':>11} {r[0.95] / r['n']:>12.3f} {r[level] / r['n']:>20.3f}   {r['n']}")
        return 0
    if args.drop:
        print(f"B's pass probability {args.drop:g} lower than A's (a real drop): how often each test sees it")
    else:
        print("one model compared with itself: 8 categories x 9 cases, default weights; the gate is nominally 2.5%, "
              "McNemar p < 0.05 at most 5%")
    print(f"  {'model':<13} {'repeats A/B':>11} {'gate: boot':>11} {'gate: t':>8} {'t, shipped':>13} {'t, 1.0':>8} {'McNemar before':>15} "
          f"{'McNemar now':>12} {'covers':>7}   pairs (boot)")
    for profile in args.profiles.split(","):
        for ra, rb in (tuple(map(int, x.split("/"))) for x in args.repeats.split(",")):
            r = run(profile, ra, rb, args)
            boot = f"{r['boot'] / r['nb']:.3f}" if r["nb"] else "-"
            now = "refused" if r["refused"] == r["n"] else f"{r['mc_now'] / r['n']:.3f}"
            print(f"  {profile:<13} {f'{ra}/{rb}':>11} {boot:>11} {r[0.0] / r['n']:>8.3f} {r[0.5] / r['n']:>13.3f} {r[1.0] / r['n']:>8.3f}"
                  f"{r['mc_before'] / r['n']:>15.3f} {now:>12} {r['covers'] / r['n']:>7.3f}   {r['n']} ({r['nb']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
