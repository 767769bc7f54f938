"""Does the scenarios block's 95% interval cover the true success rate? (issue 39)

Simulates models over the bundled plan's shape (26 scenarios in 3 worlds of 8, 8 and 10; 1, 3
or 5 repeats each), builds the graded tries as ScenarioResult records the way grading does (one
list per scenario, in plan order, with the plan {world: scenarios x repeats}), calls the real
`scoring/scenarios.scenarios_block`, and counts how often its `interval` (and each world's in
`by_world`) contains the truth. Prints coverage, mean width and the bias of pass^k.

The truth (the estimand docs/statistics.md "Scenarios" states: an interval *over scenarios*,
what the rate could be if the scenarios were drawn again from the same kind): the population
mean of the per-scenario pass probability, E[p]. `success_rate` is passed / graded tries; with
no ERROR try every scenario has the same number of tries, so that ratio is also the mean of the
per-scenario pass rates, and both estimate E[p]: per try and per scenario are the same target
here. Every world draws its scenarios from the model's population, so each world's truth is E[p]
too. A second column gives the coverage of the mean p of the 26 scenarios actually drawn (the
conditional rate of this fixed set), which an over-scenarios interval should cover at least as
often.

Models: each scenario's pass probability p is 0 (a scenario the model always fails) with share
`never`, 1 (always passes) with share `always`, else Beta with concentration 4 (strongly
heterogeneous) and the mean that makes E[p] the model's mean. A try passes with probability p;
a try that does not pass is PARTIAL 30% of the time, else FAIL (only PASS counts as success).

Seeded (random.Random): the same figures every run.

    nice -n 10 python benchmarks/scenario_interval.py              # under a minute on a busy 2-core machine
    nice -n 10 python benchmarks/scenario_interval.py --runs 4000 --seed 7

A coverage p from N runs has a standard error of sqrt(p (1 - p) / N): 0.0034 at N = 4000.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import dataclass
from math import prod, sqrt
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from toolproof.grading.scenario_grade import CATEGORY, ScenarioResult  # noqa: E402
from toolproof.grading.verdicts import CREDIT, FAIL, PARTIAL, PASS, blank_facts  # noqa: E402
from toolproof.scoring.scenarios import scenarios_block  # noqa: E402

WORLDS = (("bank", 8), ("shop", 8), ("travel", 10))     # the bundled plan: 26 scenarios
REPEATS = (1, 3, 5)
CONCENTRATION = 4.0
PARTIAL_SHARE = 0.3


@dataclass(frozen=True)
class Model:
    mean: float       # E[p]: the truth
    never: float      # share of scenarios always failed (p = 0)
    always: float     # share of scenarios always passed (p = 1)

    @property
    def beta_mean(self) -> float:
        return (self.mean - self.always) / (1 - self.never - self.always)

    def draw_p(self, rng: random.Random) -> float:
        u = rng.random()
        if u < self.never:
            return 0.0
        if u < self.never + self.always:
            return 1.0
        b = self.beta_mean
        return rng.betavariate(b * CONCENTRATION, (1 - b) * CONCENTRATION)

    def pass_hat(self, k: int) -> float:
        """E[p^k]: the true pass^k of a scenario drawn from the population."""
        a, b = self.beta_mean * CONCENTRATION, (1 - self.beta_mean) * CONCENTRATION
        moment = prod((a + j) / (a + b + j) for j in range(k))
        return self.always + (1 - self.never - self.always) * moment


MODELS = (Model(0.20, 0.30, 0.05), Model(0.50, 0.15, 0.15), Model(0.80, 0.05, 0.30), Model(0.95, 0.0, 0.60))


def _result(world: str, scenario: int, repeat: int, verdict: str) -> ScenarioResult:
    """One graded try, shaped as grading/scenario_grade.py builds it."""
    credit = CREDIT[verdict]
    facts = {**blank_facts(), "request_error": False, "scenario": {
        "turns_used": 3, "calls_used": 2, "errors_seen": 0, "recovered": 0, "asked": 0, "answered": 0, "used": 0}}
    return ScenarioResult(f"{world}.s{scenario}", CATEGORY, verdict, credit, [] if verdict == PASS else ["simulated"],
                          verdict, credit, [], facts, repeat=repeat, world=world, turn_credit=credit, ended="answer")


# the records are read-only to the block: build each (scenario, repeat, verdict) once
RECORDS = {(w, i, r, v): _result(w, i, r, v) for w, n in WORLDS for i in range(n)
           for r in range(max(REPEATS)) for v in (PASS, PARTIAL, FAIL)}


def one_run(model: Model, repeats: int, rng: random.Random) -> tuple[dict, float]:
    """The block of one simulated run, and the mean p of the scenarios drawn."""
    per_scenario, ps = [], []
    for world, n in WORLDS:
        for i in range(n):
            p = model.draw_p(rng)
            ps.append(p)
            tries = []
            for r in range(repeats):
                v = PASS if rng.random() < p else (PARTIAL if rng.random() < PARTIAL_SHARE else FAIL)
                tries.append(RECORDS[(world, i, r, v)])
            per_scenario.append(tries)
    plan = {world: n * repeats for world, n in WORLDS}
    return scenarios_block(per_scenario, plan), sum(ps) / len(ps)


def row(model: Model, repeats: int, runs: int, seed: int) -> dict:
    rng = random.Random(seed)
    hit = hit_set = width = 0.0
    world_hit = world_width = 0.0
    per_world = {w: 0 for w, _ in WORLDS}
    pass_k = 0.0
    for _ in range(runs):
        block, set_mean = one_run(model, repeats, rng)
        low, high = block["interval"]["low"], block["interval"]["high"]
        hit += low <= model.mean <= high
        hit_set += low <= set_mean <= high
        width += high - low
        for w, entry in block["by_world"].items():
            wl, wh = entry["interval"]["low"], entry["interval"]["high"]
            inside = wl <= model.mean <= wh
            per_world[w] += inside
            world_hit += inside
            world_width += wh - wl
        pass_k += block["pass_hat_k"][str(repeats)]
    worlds = len(WORLDS)
    return {"coverage": hit / runs, "coverage_set": hit_set / runs, "width": width / runs,
            "world_coverage": world_hit / (runs * worlds), "world_min": min(per_world.values()) / runs,
            "world_width": world_width / (runs * worlds),
            "pass_k_bias": pass_k / runs - model.pass_hat(repeats)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=4000, help="simulated runs per row (default 4000)")
    parser.add_argument("--seed", type=int, default=39)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    se = sqrt(0.95 * 0.05 / args.runs)
    print(f"scenarios block, 95% interval: coverage of E[p] over {args.runs} runs per row "
          f"(standard error {se:.4f} at 0.95); 26 scenarios in worlds of 8, 8, 10")
    print("| model E[p] | repeats | coverage | covers the 26 drawn | width | per world: coverage | lowest world | width |"
          " pass^k − E[p^k] (k = repeats) |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    low_rows = []
    for m_i, model in enumerate(MODELS):
        for r_i, repeats in enumerate(REPEATS):
            found = row(model, repeats, args.runs, args.seed * 1000 + m_i * 10 + r_i)
            print(f"| {model.mean:.2f} | {repeats} | {found['coverage']:.3f} | {found['coverage_set']:.3f} "
                  f"| {100 * found['width']:.1f} | {found['world_coverage']:.3f} | {found['world_min']:.3f} "
                  f"| {100 * found['world_width']:.1f} | {found['pass_k_bias']:+.4f} |", flush=True)
            for name in ("coverage", "world_min"):
                if found[name] < 0.93:
                    low_rows.append(f"E[p] {model.mean:.2f}, {repeats} repeats: {name} {found[name]:.3f}")
    print("widths in points (0-100); per world: pooled over the 3 worlds, and the lowest world's own")
    print("below 0.93: " + ("; ".join(low_rows) if low_rows else "none"))
    print(f"{time.perf_counter() - started:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
