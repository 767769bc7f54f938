"""How much of its plan a scorecard rests on: `coverage {planned, graded, error, not_started}`.

The plan of a run is every case of its scope in each chosen phrasing, `repeats` times, at every
pad level: one item per (case, phrasing, repeat, pad level). `graded` items got PASS, PARTIAL or FAIL; `error` items got ERROR (the
request failed after its retries); `not_started` items have no transcript at all (the cap, an
abort or a stop left them out). planned = graded + error + not_started.

A results file of a live run says its plan (`scope`, `settings.repeats`, `settings.phrasings`,
the sweep's levels); a
file that does not (the fixtures, a hand-made file) planned what it holds. A plan the file states
badly (an unknown scope, a repeat count that is not a whole number from 1 to MAX_REPEATS) is not
trusted either: the plan is then what the file holds, never a guess.

Pure: no I/O.
"""
from __future__ import annotations

from dataclasses import dataclass

from toolproof.grading.verdicts import ERROR, CaseResult
from toolproof.limits import MAX_PHRASINGS
from toolproof.plurals import counted
from toolproof.suite.model import Case, chosen_phrasings, scoped

MAX_REPEATS = 1000
MAX_LEVELS = 8           # as scoring/sweep.py: more levels than a sweep may hold is not a plan


@dataclass(frozen=True, slots=True)
class Plan:
    """What a run set out to do: `cases` conversations in scope (each case once per chosen
    phrasing), each `repeats` times, at each of `levels`."""
    cases: int
    repeats: int
    levels: tuple = ()

    @property
    def per_level(self) -> int:
        return self.cases * self.repeats

    @property
    def items(self) -> int:
        return self.per_level * max(1, len(self.levels))


def _whole(value, low: int, high: int) -> int | None:
    ok = isinstance(value, int) and not isinstance(value, bool) and low <= value <= high
    return value if ok else None


def _levels(raw: dict) -> tuple | None:
    sweep = raw.get("sweep")
    levels = sweep.get("levels") if isinstance(sweep, dict) else (raw.get("settings") or {}).get("pad", [])
    if not isinstance(levels, list) or len(levels) > MAX_LEVELS:
        return None
    if any(_whole(level, 0, 10 ** 6) is None for level in levels):
        return None
    return tuple(sorted(set(levels)))


def scenario_plan(raw: dict, worlds: dict | None) -> dict | None:
    """{world: scenario tries planned} of a results file whose scope is `scenarios` (every world
    given) or `scenarios:<world>`, each world's scenarios x repeats; None when the file states no
    such plan (or one naming a world not given)."""
    settings = raw.get("settings")
    if raw.get("kind") != "live" or not isinstance(settings, dict) or not worlds:
        return None
    scope = raw.get("scope", settings.get("scope", "all"))
    repeats = _whole(settings.get("repeats", 1), 1, MAX_REPEATS)
    if not isinstance(scope, str) or repeats is None or not (scope == "scenarios" or scope.startswith("scenarios:")):
        return None
    names = list(worlds) if scope == "scenarios" else [scope.removeprefix("scenarios:")]
    if any(name not in worlds for name in names):
        return None
    return {name: len(worlds[name].scenarios) * repeats for name in names}


def plan_of(raw: dict, cases: list[Case], worlds: dict | None = None) -> Plan | None:
    """The plan a results file states, or None when it states none (or one not to be trusted).
    A scenarios run (given its worlds) plans its scenarios x repeats."""
    found = scenario_plan(raw, worlds)
    if found is not None:
        return Plan(sum(found.values()), 1, ())
    settings = raw.get("settings")
    if raw.get("kind") != "live" or not isinstance(settings, dict):
        return None
    scope = raw.get("scope", settings.get("scope", "all"))
    repeats, levels = _whole(settings.get("repeats", 1), 1, MAX_REPEATS), _levels(raw)
    choice = settings.get("phrasings", "base")
    if choice not in ("base", "all") and _whole(choice, 1, MAX_PHRASINGS + 1) is None:
        return None
    if not isinstance(scope, str) or repeats is None or levels is None:
        return None
    try:
        in_scope = scoped(cases, scope)
    except ValueError:
        return None
    return Plan(sum(len(chosen_phrasings(c, choice)) for c in in_scope), repeats, levels)


def planned_phrasings(raw: dict, cases: list[Case], present) -> list[tuple[Case, tuple]]:
    """Each case the run planned with the phrasing ids it planned it in: the cases of its scope
    with their chosen phrasings when the file states a plan, else every phrasing of the cases it
    holds (phrasing_plan counts these; the robustness section's languages are theirs)."""
    if plan_of(raw, cases) is not None:
        settings = raw["settings"]
        choice = settings.get("phrasings", "base")
        return [(c, chosen_phrasings(c, choice)) for c in scoped(cases, raw.get("scope", settings.get("scope", "all")))]
    return [(c, c.phrasing_ids) for c in cases if c.id in present]


def phrasing_plan(raw: dict, cases: list[Case], present) -> dict:
    """{phrasing: how many cases the run planned in it}: the cases of its scope whose chosen
    phrasings include it when the file states a plan, else the cases it holds that have it
    (what the per-phrasing score's "N of M cases" counts against)."""
    out: dict[str, int] = {}
    for _, ids in planned_phrasings(raw, cases, present):
        for p in ids:
            out[p] = out.get(p, 0) + 1
    return out


def coverage(per_case: list[list[CaseResult]], planned: int | None = None) -> dict:
    """{planned, graded, error, not_started} over every repeat present; `planned` None: what is
    present was the plan (and a plan smaller than what is present grows to hold it)."""
    present = sum(len(results) for results in per_case)
    error = sum(r.verdict == ERROR for results in per_case for r in results)
    planned = present if planned is None else max(planned, present)
    return {"planned": planned, "graded": present - error, "error": error, "not_started": planned - present}


def below_half(cov: dict | None) -> bool:
    """Below half of the plan graded: the scorecard has no score (scoring/withhold.py writes the
    nulls and `no_score_reason` into the JSON; every view reads those)."""
    return bool(cov) and 2 * cov["graded"] < cov["planned"]


def dimensions(card: dict) -> list[str]:
    """What multiplies a case into conversations on this card: ["phrasing", "repeat", "pad level"]."""
    repeats = card.get("repeats")
    # phrasings planned count even when only one phrasing was graded (a run cut short early)
    planned = (card.get("source") or {}).get("phrasings")
    out = ["phrasing"] if card.get("robustness") or planned not in (None, "base", 1) else []
    # cases run a different number of times (repeats_note) ran more than once too
    out += ["repeat"] if isinstance(repeats, int) and repeats > 1 or card.get("repeats_note") else []
    return out + (["pad level"] if "sweep" in card else [])


def plan_unit(card: dict) -> str:
    """What the plan counts: cases, or conversations when a case runs more than once (phrasings,
    repeats, pad levels)."""
    return "conversations" if dimensions(card) else "cases"


def coverage_text(cov: dict | None, unit: str) -> str:
    """'10 of 122 cases graded (112 not started)' when the graded part differs from the plan,
    else '' (every view says it beside the score; `no_score_reason` quotes it)."""
    if not cov or cov["graded"] == cov["planned"]:
        return ""
    parts = [f"{cov['error']} ERROR"] if cov["error"] else []
    parts += [f"{cov['not_started']} not started"] if cov["not_started"] else []
    noun = unit.removesuffix("s")             # "cases" -> "1 case", "2 cases"
    return f"{cov['graded']} of {counted(cov['planned'], noun)} graded" + (f" ({', '.join(parts)})" if parts else "")


def plan_case_ids(raw: dict, cases: list[Case], held) -> set:
    """The case ids a run set out to grade: those of its stated scope when it states a plan
    (plan_of), else the ids it holds (a file that states no plan planned what it holds)."""
    if plan_of(raw, cases) is None:
        return set(held)
    scope = raw.get("scope", (raw.get("settings") or {}).get("scope", "all"))
    return {c.id for c in scoped(cases, scope)}


def add_coverage(total: dict, more: dict) -> dict:
    """Two coverages of disjoint plans (two pad levels) as one."""
    return {key: total[key] + more[key] for key in ("planned", "graded", "error", "not_started")}
