"""Do the robustness section's 95% intervals cover the truth (issue 26), and does its test tell
wording from chance (issue 38)?

Simulates suites of the shipped shape (8 categories x 9 cases, default weights) where every case is
sent in 3 phrasings: the base one passes with the case's probability (benchmarks/simsuite.py), each
other phrasing with that probability lowered by a drop drawn from 0..--drop (wording that hurts some
cases more than others). Each simulated suite goes through the shipped code
(scoring/robustness.robustness: the score's closed-form interval over cases for a phrasing's score
and the worst-phrasing score, Clopper-Pearson for consistency), and the script prints how often each
interval holds the true value, and its mean width:
  worst        the worst-phrasing score (each case at its lowest phrasing credit)
  base         the score in the base phrasing alone
  consistency  the share of cases whose phrasings all got one verdict
The true values are the population's, computed from --population simulated cases per category.
Also prints what one robustness section of a full-size run costs (72 cases x 3 phrasings).

    python benchmarks/phrasing_coverage.py                     # ~1-2 minutes on a busy 2-core machine
    python benchmarks/phrasing_coverage.py --part coverage --suites 1000 --profiles mid,strong,uneven,top

A coverage figure p from N suites has a standard error of sqrt(p (1 - p) / N): about 0.01 at N = 400.

The test against chance (scoring/wording_test.py), `--part chance`:
  wording-free  every phrasing passes with the case's own probability (drawn per case like real
                models: the profiles mid, strong, uneven, top, with cases spread +-0.5 around their
                category), 1-5 repeats: the share of runs reporting wording at all (suite-level p at
                or below 0.05, or any case named) must stay at or below 0.05;
  10-of-72      the same, but in 10 of the 72 cases one phrasing passes with probability lowered by
                --effect: the share of runs where the suite level detects it (power), and how many
                of the 10 cases get named, per number of repeats.

    python benchmarks/phrasing_coverage.py --part chance --runs 400
"""
from __future__ import annotations

import argparse
import time

from simsuite import CATEGORIES, PARTIAL, PROFILES, case_probabilities, uniform, verdicts

from toolproof.grading.verdicts import CREDIT, CaseResult, blank_facts
from toolproof.scoring.robustness import robustness
from toolproof.scoring.scorecard import DEFAULT_WEIGHTS
from toolproof.scoring.stats import SeededDraws

PHRASINGS = ("base", "p2", "p3")


def phrasing_probabilities(p: float, drop: float, draws: SeededDraws) -> list[float]:
    return [p] + [max(0.0, p - drop * uniform(draws)) for _ in PHRASINGS[1:]]


def simulate_case(p: float, drop: float, draws: SeededDraws) -> list[str]:
    """One verdict per phrasing."""
    return [verdicts(q, 1, draws)[0] for q in phrasing_probabilities(p, drop, draws)]


def truth(profile: tuple, drop: float, population: int, seed: int) -> dict:
    """The population's worst-phrasing score, base score and consistency rate."""
    draws = SeededDraws(seed)
    worst, base, same, total = {}, {}, 0, 0
    for category, p in zip(CATEGORIES, profile):
        probs, _ = case_probabilities((p,) * 8, population // 8 + 1, draws)
        w = b = 0.0
        for q in probs[:population]:
            vs = simulate_case(q, drop, draws)
            credits = [CREDIT[v] for v in vs]
            w, b = w + min(credits), b + credits[0]
            same += len(set(vs)) == 1
            total += 1
        worst[category], base[category] = w / population, b / population
    weight = sum(DEFAULT_WEIGHTS.values())
    score = lambda means: 100 * sum(DEFAULT_WEIGHTS[c] * means[c] for c in CATEGORIES) / weight  # noqa: E731
    return {"worst": score(worst), "base": score(base), "consistency": same / total}


def suite(profile: tuple, drop: float, per_category: int, draws: SeededDraws) -> list[list[CaseResult]]:
    probs, cats = case_probabilities(profile, per_category, draws)
    per_case = []
    for i, (p, category) in enumerate(zip(probs, cats)):
        per_case.append([CaseResult(f"c{i}", category, v, CREDIT[v], [], v, CREDIT[v], [], blank_facts(),
                                    phrasing=ph) for v, ph in zip(simulate_case(p, drop, draws), PHRASINGS)])
    return per_case


def noisy_suite(per_category: int, repeats: int, draws: SeededDraws, effect: float = 0.0,
                affected: int = 0) -> list[list[CaseResult]]:
    """A run of 3 phrasings x `repeats`: each case's pass probability drawn from a random profile
    (cases spread +-0.5 around it); in the first `affected` cases the last phrasing passes with
    that probability lowered by `effect` (a real wording effect), elsewhere wording is irrelevant."""
    profile = PROFILES[("mid", "strong", "uneven", "top")[draws.below(4)]]
    probs, cats = case_probabilities(profile, per_category, draws, spread=1.0)
    order = [draws.below(len(probs)) for _ in range(affected)]
    hit = set()
    for i in order:                  # `affected` distinct cases, drawn
        while i in hit:
            i = (i + 1) % len(probs)
        hit.add(i)
    per_case = []
    for i, (p, category) in enumerate(zip(probs, cats)):
        tries = []
        for ph in PHRASINGS:
            q = max(0.0, p - effect) if i in hit and ph == PHRASINGS[-1] else p
            tries += [CaseResult(f"c{i}", category, v, CREDIT[v], [], v, CREDIT[v], [], blank_facts(), phrasing=ph)
                      for v in verdicts(q, repeats, draws)]
        per_case.append(tries)
    return per_case, hit


def chance(args) -> None:
    """False alarms without wording, power with wording on 10 of 72 cases, per number of repeats."""
    print(f"\ntest against chance: {args.runs} runs per row, 8 x {args.per_category} cases, 3 phrasings; "
          f"effect: one phrasing's pass probability lowered by {args.effect} in 10 cases")
    print(f"{'model':<13} {'repeats':>7} {'reported':>9} {'suite p<=.05':>13} {'any named':>10} "
          f"{'named of 10':>12} {'wrongly named':>14} {'worst':>7} {'by chance':>10}")
    models = (("wording-free", 0.0, 0), ("10-of-72", args.effect, 10))
    for label, effect, affected in [m for m in models if m[0] in args.models.split(",")]:
        for repeats in map(int, args.repeats.split(",")):
            draws = SeededDraws(20261206 + repeats + 100 * affected)
            suite_hits = named_any = named_right = named_wrong = 0
            worst = expected = 0.0
            for _ in range(args.runs):
                per_case, hit = noisy_suite(args.per_category, repeats, draws, effect, affected)
                found = robustness(per_case, DEFAULT_WEIGHTS, intervals=False)
                test = found["wording_test"]
                named = {int(c[1:]) for c in found["wording_dependent_cases"]}
                suite_hits += test["p"] is not None and test["p"] <= test["level"]
                named_any += bool(named)
                named_right += len(named & hit)
                named_wrong += len(named - hit)
                worst += found["worst"]["score"]
                expected += found["worst_phrasing_expected_by_chance"]
            reported = max(suite_hits, named_any) / args.runs
            print(f"{label:<13} {repeats:>7} {reported:>9.3f} {suite_hits / args.runs:>13.3f} "
                  f"{named_any / args.runs:>10.3f} {named_right / args.runs:>12.2f} {named_wrong / args.runs:>14.3f} "
                  f"{worst / args.runs:>7.1f} {expected / args.runs:>10.1f}")


def inside(bounds: dict | None, value: float) -> bool:
    return bounds is not None and bounds["low"] <= value <= bounds["high"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suites", type=int, default=300)
    parser.add_argument("--per-category", type=int, default=9)
    parser.add_argument("--drop", type=float, default=0.3)
    parser.add_argument("--population", type=int, default=40000, help="simulated cases per category for the truth")
    parser.add_argument("--profiles", default="mid,strong,top")
    parser.add_argument("--part", choices=("coverage", "chance", "all"), default="all")
    parser.add_argument("--runs", type=int, default=300, help="simulated runs per row of the test against chance")
    parser.add_argument("--effect", type=float, default=0.6)
    parser.add_argument("--models", default="wording-free,10-of-72", help="the rows of the test against chance")
    parser.add_argument("--repeats", default="1,2,3,4,5", help="repeat counts of the test against chance's rows")
    args = parser.parse_args()
    if args.part != "coverage":
        chance(args)
    if args.part == "chance":
        return
    print(f"{args.suites} suites per profile, {args.per_category} cases per category, 3 phrasings, drop up to "
          f"{args.drop}; PARTIAL share {PARTIAL}")
    print(f"{'profile':<8} {'measure':<12} {'true':>7} {'coverage':>9} {'mean width':>11}")
    for name in args.profiles.split(","):
        true = truth(PROFILES[name], args.drop, args.population, seed=7)
        draws = SeededDraws(20261201)
        hits = {k: 0 for k in true}
        widths = {k: 0.0 for k in true}
        for _ in range(args.suites):
            found = robustness(suite(PROFILES[name], args.drop, args.per_category, draws), DEFAULT_WEIGHTS)
            bounds = {"worst": found["worst"]["interval"], "base": found["per_phrasing"][0]["interval"],
                      "consistency": found["consistency_interval"]}
            for key, b in bounds.items():
                hits[key] += inside(b, true[key])
                widths[key] += (b["high"] - b["low"]) if b else 0.0
        for key in true:
            scale = 100 if key == "consistency" else 1
            print(f"{name:<8} {key:<12} {scale * true[key]:>7.2f} {hits[key] / args.suites:>9.3f} "
                  f"{scale * widths[key] / args.suites:>11.2f}")
    per_case = suite(PROFILES["mid"], args.drop, 9, SeededDraws(1))
    start = time.perf_counter()
    robustness(per_case, DEFAULT_WEIGHTS)
    print(f"one robustness section, 72 cases x 3 phrasings, with the test against chance: "
          f"{time.perf_counter() - start:.2f} s (CPython)")


if __name__ == "__main__":
    main()
