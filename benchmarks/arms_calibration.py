"""Do arms cry wolf? A/A arms: every arm of a simulated run has the same settings, so every true
difference from the baseline is zero, and each "difference" the arms block reports is false.

A simulated run is the shipped shape (8 categories x 9 cases, default weights;
benchmarks/simsuite.py): one draw of per-case pass probabilities, shared by every arm of the run
(A/A), then each arm's own independent verdicts at the run's repeat count. Each case's repeats
become one card entry by the scorecard's rule (toolproof.scoring.repeats.merge_repeats: verdict
the most common repeat verdict, a tie to the worse; credit the mean), each arm's entries a run
summary (toolproof.scoring.comparison.run_summary), and then the product's own code judges them:
toolproof.arms.analysis.compare_arm (each arm against the baseline), holm_arms (across the arms of
the run) and veto (a stand-in row per case: merged CaseResults, as the arms block reads them).
Printed per model, repeats per arm and arms per run (the baseline plus 1, 3 or 7 others):

  interval   the arm's delta interval (compare's paired 95% interval) excludes 0; nominal 5%
  gate       the interval lies wholly below 0 (compare's regression gate); nominal 2.5%
  McNemar    the arm's raw McNemar p < 0.05; nominal at most 5% per arm
  Holm any   some arm of the run has Holm-adjusted p < 0.05 (family-wise); nominal at most 5%
  Holm arm   the same, per arm
  veto       the arm is marked vetoed (analysis.holm_arms): its score fell with the paired test
             significant after Holm across the arms, or its broken cases (PASS in every baseline
             repeat, FAIL in every arm repeat) outnumber their mirror significantly after Holm.
             Nominal: at most 5% per arm (two tests at 5% and 2.5%, each Holm-corrected); "a case
             broken" (arms that broke one, listed but not vetoed) and "veto any" (runs with some
             arm vetoed) say where it comes from.

Per-arm rates are over runs x (arms - 1) arm comparisons, which are not independent within a run
(they share the baseline), so their standard error sqrt(r (1 - r) / N) with N = runs x (arms - 1)
is a little optimistic; the run-level rates (Holm any, veto any) use N = runs. A rate is read as
above nominal when it exceeds it by more than 2 standard errors. Every draw comes from the
project's seeded generator (--seed), so the same flags print the same figures.

    python benchmarks/arms_calibration.py       # 1,000 runs per row: 54 s of CPU; 1 minute at load 3,
                                                # under 3 minutes at load 6-8 on the shared 2-core machine
    python benchmarks/arms_calibration.py --runs 3000 --profiles mid --repeats 1,2,3 --seed 8   # the closest rows again
    python benchmarks/arms_calibration.py --profiles strong-uneven,top                         # near 100%
"""
from __future__ import annotations

import argparse
import sys
import time
from functools import cache
from math import sqrt

from simsuite import PROFILES, draw_cases, verdicts

from toolproof.arms.analysis import MAX_ARMS, compare_arm, holm_arms, veto
from toolproof.grading.verdicts import CREDIT, CaseResult
from toolproof.scoring.comparison import run_summary
from toolproof.scoring.repeats import merge_repeats
from toolproof.scoring.scorecard import check_weights
from toolproof.scoring.stats import SeededDraws

DOCUMENT = {"kind": "results", "provider": "simulated", "model": "a/a", "suite_sha256": "simulated"}
NOMINAL = {"interval": 0.05, "gate": 0.025, "mcnemar": 0.05, "holm_any": 0.05, "holm_arm": 0.05, "veto": 0.05,
           "veto_any": 0.05}
PER_ARM = ("interval", "gate", "mcnemar", "holm_arm", "veto", "broken")
PER_RUN = ("holm_any", "veto_any")


@cache
def merged(case: int, category: str, tries: tuple[str, ...]) -> tuple[CaseResult, dict]:
    """One case's repeats, each a graded CaseResult, merged by the scorecard's rule, and its card
    entry. Remembered: the same verdicts give the same row (most of the script's time otherwise)."""
    row = merge_repeats([CaseResult(f"c{case}", category, v, CREDIT[v], [], v, CREDIT[v], [], {}, repeat=k)
                         for k, v in enumerate(tries)])
    return row, row.to_json()


def arm_rows(probs: list[float], cats: list[str], repeats: int, draws) -> list[tuple[CaseResult, dict]]:
    """One arm's cases (merged row, card entry), its verdicts drawn afresh."""
    return [merged(i, category, tuple(verdicts(p, repeats, draws))) for i, (p, category) in enumerate(zip(probs, cats))]


def summary_of(rows: list[tuple[CaseResult, dict]], repeats: int) -> dict:
    return run_summary(DOCUMENT, [entry for _, entry in rows], repeats)


def one_run(profile: str, repeats: int, arms: int, draws, weights: dict) -> dict:
    """The outcomes of one simulated run of `arms` identical arms, baseline first."""
    probs, cats = draw_cases(profile, 9, draws)
    base = arm_rows(probs, cats, repeats, draws)
    base_summary, base_by_id = summary_of(base, repeats), {r.case_id: r for r, _ in base}
    rows = [{"baseline": True}]
    for _ in range(arms - 1):
        mine = arm_rows(probs, cats, repeats, draws)
        c = compare_arm(base_summary, summary_of(mine, repeats), weights)
        by_id = {r.case_id: r for r, _ in mine}
        shared = [cid for cid in base_by_id if base_by_id[cid].credit is not None and by_id[cid].credit is not None]
        rows.append({"baseline": False, **c, "veto": veto(shared, base_by_id, by_id)})
    holm_arms(rows)
    out = dict.fromkeys(PER_ARM + PER_RUN, 0)
    for row in rows[1:]:
        mark = row["veto"]
        d = row["delta"]
        out["interval"] += d["low"] > 0 or d["high"] < 0
        out["gate"] += d["high"] < 0
        out["mcnemar"] += row["mcnemar_p"] < 0.05
        out["holm_arm"] += row["significant"]
        out["veto"] += mark["vetoed"]
        out["broken"] += bool(mark["broken"])
    out["holm_any"] = out["holm_arm"] > 0
    out["veto_any"] = out["veto"] > 0
    return out


def run_cell(profile: str, repeats: int, arms: int, args, weights: dict) -> dict:
    draws = SeededDraws(args.seed + 100_000 * repeats + 1_000 * arms + sum(map(ord, profile)))
    total = dict.fromkeys(PER_ARM + PER_RUN, 0)
    for _ in range(args.runs):
        for k, v in one_run(profile, repeats, arms, draws, weights).items():
            total[k] += v
    n = {**dict.fromkeys(PER_ARM, args.runs * (arms - 1)), **dict.fromkeys(PER_RUN, args.runs)}
    return {k: (total[k] / n[k], n[k]) for k in total}


def se(rate: float, n: int) -> float:
    return sqrt(rate * (1 - rate) / n)


def cell(rate: float, n: int) -> str:
    return f"{rate:.3f} ±{se(rate, n):.3f}"


def reading(test: str, rows: list[tuple[str, dict]]) -> str:
    """One line: the range of the test's rate over the rows, and the rows above nominal (by more
    than 2 standard errors, or above it but within them)."""
    nominal = NOMINAL[test]
    rates = [(label, *r[test]) for label, r in rows]
    low, high = min(r for _, r, _ in rates), max(rates, key=lambda x: x[1])
    beyond = [label for label, r, n in rates if r - nominal > 2 * se(r, n)]
    within = [label for label, r, n in rates if nominal < r and label not in beyond]
    line = f"  {test:<9} nominal {nominal:.3g}: {low:.3f} to {high[1]:.3f} ({high[0]}); "
    if beyond:
        return line + f"ABOVE nominal by more than 2 SE in {len(beyond)} of {len(rates)} rows: {', '.join(beyond)}"
    if within:
        return line + f"above nominal within 2 SE in {len(within)} of {len(rates)} rows ({', '.join(within)}), none beyond"
    return line + f"at or below nominal in all {len(rates)} rows, {nominal - high[1]:.3f} under it at the highest"


def veto_reading(rows: list[tuple[str, dict]]) -> str:
    """One line: how often an A/A arm breaks a case by chance (listed, not vetoed)."""
    label, r = max(rows, key=lambda x: x[1]["broken"][0])
    return (f"  broken    listed, not a veto: up to {r['broken'][0]:.3f} of A/A arms break a case by chance ({label}); "
            "the veto asks that the broken outnumber their mirror significantly")


def counts(low: int, high: int):
    """An argparse type: comma-separated whole numbers, each from low to high."""
    def parse(text: str) -> list[int]:
        try:
            values = [int(x) for x in text.split(",")]
        except ValueError:
            values = []
        if not values or not all(low <= v <= high for v in values):
            raise argparse.ArgumentTypeError(f"{text!r}: comma-separated whole numbers from {low} to {high}")
        return values
    return parse


def profiles(text: str) -> list[str]:
    names = text.split(",")
    if not all(n in PROFILES for n in names):
        raise argparse.ArgumentTypeError(f"{text!r}: comma-separated models of simsuite ({', '.join(PROFILES)})")
    return names


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1000, help="simulated runs per row")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--repeats", type=counts(1, 20), default=[1, 2, 3, 5],
                        help="repeats per arm (run --repeats: 1 to 20), comma-separated")
    parser.add_argument("--arms", type=counts(2, MAX_ARMS), default=[2, 4, 8],
                        help=f"arms per run, the baseline included (2 to {MAX_ARMS}), comma-separated")
    parser.add_argument("--profiles", type=profiles, default=["mid", "strong"], help="simsuite models, comma-separated")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error(f"argument --runs: {args.runs}: at least 1")
    weights = check_weights({})
    print(f"A/A arms: identical settings, 8 categories x 9 cases, default weights, {args.runs} runs per row, "
          f"seed {args.seed}; rate ±SE")
    print(f"  {'model':<13} {'rep':>3} {'arms':>4} {'interval≠0':>13} {'gate <0':>13} {'McNemar':>13} {'Holm any':>13} "
          f"{'Holm arm':>13} {'veto':>13} {'a case broken':>14} {'veto any':>9}   comparisons")
    print(f"  {'nominal':<22} {'0.05':>13} {'0.025':>13} {'<=0.05':>13} {'<=0.05':>13} {'<=0.05':>13} {'-':>13}")
    start, rows = time.perf_counter(), []
    for profile in args.profiles:
        for r in args.repeats:
            for a in args.arms:
                out = run_cell(profile, r, a, args, weights)
                rows.append((f"{profile} {r} {a}", out))
                print(f"  {profile:<13} {r:>3} {a:>4} " + " ".join(f"{cell(*out[k]):>13}" for k in
                      ("interval", "gate", "mcnemar", "holm_any", "holm_arm", "veto"))
                      + f" {out['broken'][0]:>14.3f} {out['veto_any'][0]:>9.3f}   {out['interval'][1]}", flush=True)
    print(f"({time.perf_counter() - start:.0f} s; row labels below are model, repeats, arms)")
    for test in ("interval", "gate", "mcnemar", "holm_any", "holm_arm"):
        print(reading(test, rows))
    print(reading("veto", rows))
    print(reading("veto_any", rows))
    print(veto_reading(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
