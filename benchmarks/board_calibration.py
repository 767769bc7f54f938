"""Does the leaderboard's pairwise table cry wolf, and does it see a real difference? (issue 25)

Simulates boards of K runs on the shipped shape (8 categories x 9 cases, default weights;
benchmarks/simsuite.py), every case with its own pass probability, drawn with the project's
seeded generator. Each pair is tested as the board tests it: `delta_p_value` (the p-value of the
stratified paired t interval `compare` shows, scoring/intervals.py) over the cases, then Holm's
step-down correction over the K(K-1)/2 pairs (scoring/board.py `holm`). It prints
  - under no difference (K runs of one model): the family-wise false-alarm rate, the chance that
    ANY pair of the board is called significant (nominal: at most 5% with Holm), against the
    same table left uncorrected;
  - under a known difference (--lift: the last run's pass probability higher by this much in
    every category, the others one model): per-pair power on the K - 1 pairs that truly differ,
    the chance all of them are found, and the false alarms among the pairs that do not differ.

    python benchmarks/board_calibration.py                     # ~10 minutes on a busy 2-core machine (K = 8 dominates)
    python benchmarks/board_calibration.py --boards 2000 --runs 3,5,8
    python benchmarks/board_calibration.py --lift 0.15 --repeats 3

A rate r from N boards has a standard error of sqrt(r (1 - r) / N): 0.007 for 5% at N = 1000.
"""
from __future__ import annotations

import argparse
import sys

from simsuite import PROFILES, case_probabilities, credit, verdicts

from toolproof.scoring.board import holm
from toolproof.scoring.intervals import delta_p_value
from toolproof.scoring.scorecard import DEFAULT_WEIGHTS
from toolproof.scoring.stats import SeededDraws


def one_board(profile: tuple, runs: int, repeats: int, lift: float, draws: SeededDraws):
    """Credits per run over the same cases; the last run lifted by `lift` when it is not 0."""
    probs, cats = case_probabilities(profile, 9, draws)
    out = []
    for i in range(runs):
        up = lift if lift and i == runs - 1 else 0.0
        out.append([credit(verdicts(min(1.0, p + up), repeats, draws)) for p in probs])
    return out, cats


def tested(credits: list, cats: list) -> list[tuple[int, int, float, float]]:
    """(i, j, p, Holm-adjusted p) for every pair, as the board computes them."""
    pairs = [(i, j) for i in range(len(credits)) for j in range(i + 1, len(credits))]
    ps = [delta_p_value(credits[i], credits[j], cats, DEFAULT_WEIGHTS) for i, j in pairs]
    return [(i, j, p, q) for (i, j), p, q in zip(pairs, ps, holm(ps))]


def simulate(profile: str, runs: int, args) -> dict:
    draws = SeededDraws(args.seed + 100 * runs + sum(map(ord, profile)))
    out = {"any_raw": 0, "any_holm": 0, "found": 0, "pairs_true": 0, "all_found": 0, "null_alarm": 0,
           "pairs_null": 0, "n": 0}
    for _ in range(args.boards):
        credits, cats = one_board(PROFILES[profile], runs, args.repeats, args.lift, draws)
        rows = tested(credits, cats)
        out["n"] += 1
        if not args.lift:
            out["any_raw"] += any(p < 0.05 for _, _, p, _ in rows)
            out["any_holm"] += any(q < 0.05 for _, _, _, q in rows)
            continue
        real = [q < 0.05 for i, j, _, q in rows if j == runs - 1]
        null = [q < 0.05 for i, j, _, q in rows if j != runs - 1]
        out["found"] += sum(real)
        out["pairs_true"] += len(real)
        out["all_found"] += all(real)
        out["null_alarm"] += any(null)
        out["pairs_null"] += len(null)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=400, help="simulated boards per row")
    parser.add_argument("--runs", default="2,3,5,8", help="runs per board, comma-separated")
    parser.add_argument("--profiles", default="mid,strong")
    parser.add_argument("--repeats", type=int, default=1, help="repeats per case in every run")
    parser.add_argument("--lift", type=float, default=0.0,
                        help="the last run's pass probability higher by this much (power); 0: no difference")
    parser.add_argument("--seed", type=int, default=25)
    args = parser.parse_args(argv)
    if args.lift:
        print(f"the last run's pass probability {args.lift:g} higher, the others one model; {args.repeats} repeat(s)")
        print(f"  {'model':<7} {'runs':>4} {'per-pair power':>15} {'all found':>10} {'false alarm (others)':>21}   boards")
    else:
        print(f"K runs of one model, every pair tested; {args.repeats} repeat(s); nominal family-wise rate <= 0.05")
        print(f"  {'model':<7} {'runs':>4} {'pairs':>5} {'any pair, uncorrected':>22} {'any pair, Holm':>15}   boards")
    for profile in args.profiles.split(","):
        for runs in map(int, args.runs.split(",")):
            r = simulate(profile, runs, args)
            if args.lift:
                alarm = f"{r['null_alarm'] / r['n']:.3f}" if r["pairs_null"] else "-"
                print(f"  {profile:<7} {runs:>4} {r['found'] / r['pairs_true']:>15.3f} {r['all_found'] / r['n']:>10.3f} "
                      f"{alarm:>21}   {r['n']}")
            else:
                print(f"  {profile:<7} {runs:>4} {runs * (runs - 1) // 2:>5} {r['any_raw'] / r['n']:>22.3f} "
                      f"{r['any_holm'] / r['n']:>15.3f}   {r['n']}")
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
