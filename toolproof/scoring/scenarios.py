"""The scorecard's `scenarios` block: how the model did on multi-turn tasks over stateful worlds.

From every graded try of every scenario (grading/scenario_grade.ScenarioResult, one list per
scenario in plan order) it counts:
- `planned` (scenarios x repeats the run set out to do), `graded` (tries with a verdict other than
  ERROR), `passed`, `partial`, `failed`, `error`;
- `success_rate` = passed / graded, with its 95% `interval`: Clopper-Pearson over scenarios (each
  scenario one cluster of its graded tries; with repeats, the effective sample size of
  scoring/rates.clustered_interval, so a scenario run 5 times is not 5 independent scenarios);
- `turn_credit`: the mean per-turn credit of the graded tries;
- `by_world`: each world's planned, graded, passed, success_rate and interval;
- `turns_used` and `calls_used` ({mean, max} over graded tries);
- `recovery`: tool errors the model saw, those followed by a successful call to the same tool,
  and their rate; `asks`: questions to the user, those the script answered, those whose answer a
  later call used;
- `pass_hat_k`: {k: the chance that k tries of a scenario all pass}, averaged over scenarios,
  for k up to the fewest graded tries of a scenario (scoring/stats.reliability).
Rates are rounded to 4 places, means to 2; a rate with nothing to divide is null.

Pure: no I/O. Must not grade (grading/ does) nor word anything (reports/scenarios.py does).
"""
from __future__ import annotations

from toolproof.grading.verdicts import ERROR, FAIL, PARTIAL, PASS

from .rates import clustered_interval
from .stats import reliability

METHOD = "clopper-pearson"


def _rate(num: int, den: int) -> float | None:
    return None if den == 0 else round(num / den, 4)


def _interval(tries: list[list]) -> dict | None:
    found = clustered_interval([(sum(r.verdict == PASS for r in rs), sum(r.verdict != ERROR for r in rs))
                                for rs in tries])
    if found is None:
        return None
    return {"low": round(found[0], 4) + 0.0, "high": round(found[1], 4) + 0.0, "method": METHOD}


def _spread(values: list) -> dict:
    return {"mean": round(sum(values) / len(values), 2) if values else None, "max": max(values) if values else None}


def _counts(tries: list[list], planned: int) -> dict:
    every = [r for rs in tries for r in rs]
    graded = [r for r in every if r.verdict != ERROR]
    passed = sum(r.verdict == PASS for r in graded)
    return {"planned": max(planned, len(every)), "graded": len(graded), "passed": passed,
            "success_rate": _rate(passed, len(graded)), "interval": _interval(tries)}


def scenarios_block(per_scenario: list[list], planned: dict | None = None) -> dict | None:
    """The block from each scenario's tries (None when no scenario was planned or run).
    `planned`: {world: tries planned} (None: what is present was the plan)."""
    planned = planned or {}
    if not per_scenario and not planned:
        return None
    by_world: dict[str, list] = {w: [] for w in planned}
    for rs in per_scenario:
        if rs:
            by_world.setdefault(rs[0].world, []).append(rs)
    every = [r for rs in per_scenario for r in rs]
    graded = [r for r in every if r.verdict != ERROR]
    facts = [r.facts["scenario"] for r in graded]
    seen, recovered = sum(f["errors_seen"] for f in facts), sum(f["recovered"] for f in facts)
    credits = [r.turn_credit for r in graded if r.turn_credit is not None]
    total = sum(planned.values()) if planned else len(every)
    out = _counts(per_scenario, total)
    out = {"planned": out["planned"], "graded": out["graded"], "passed": out["passed"],
           "partial": sum(r.verdict == PARTIAL for r in graded), "failed": sum(r.verdict == FAIL for r in graded),
           "error": len(every) - len(graded), "success_rate": out["success_rate"], "interval": out["interval"],
           "turn_credit": round(sum(credits) / len(credits), 4) if credits else None,
           "by_world": {w: _counts(rs, planned.get(w, 0) if planned else sum(len(x) for x in rs))
                        for w, rs in by_world.items()},
           "turns_used": _spread([f["turns_used"] for f in facts]),
           "calls_used": _spread([f["calls_used"] for f in facts]),
           "recovery": {"errors_seen": seen, "recovered": recovered, "rate": _rate(recovered, seen)},
           "asks": {"asked": sum(f["asked"] for f in facts), "answered": sum(f["answered"] for f in facts),
                    "used": sum(f["used"] for f in facts)},
           "pass_hat_k": reliability([(sum(r.verdict == PASS for r in rs), sum(r.verdict != ERROR for r in rs))
                                      for rs in per_scenario])["pass_hat_k"]}
    return out
