"""Compare two runs of the suite: which cases flipped, how the score moved, and whether the move
is more than noise. (Value comparison inside one call is `compare.py`; this is run against run.)

Rules (docs/statistics.md "Comparing runs" says the same for users):
- the runs must record the same `suite_sha256`; a run without one, or two different ones, are
  refused unless `allow_mixed`, and then only the case ids both runs hold are compared;
- a case "passes" in a run when its verdict (the scorecard's: the most common graded verdict, a
  tie to the worse) is PASS; a case whose verdict is PASS in A and not in B regressed, the other
  way round improved, so a flip is always a change of verdict; a case with no graded repeat in
  either run (every request failed) is left out of flips, scores and intervals (`errored`);
- flips and McNemar's exact test count only cases graded the same number of times in A and B:
  with 1 repeat against 2, say, a verdict is not equally likely to be PASS on both sides even
  for the same model (a 1-1 tie is never PASS), and the test cried wolf in 24-76% of simulated
  self-comparisons at 1 vs 2 repeats (benchmarks/compare_calibration.py); the others are counted in
  `mcnemar.left_out`, and with none left to test `p_value` is null and `mcnemar.note` says why;
- scores: the scorecard's formula over the compared cases (mean credit per category, rounded,
  then the weighted mean); `delta` = B - A; its interval a stratified paired t interval over
  cases (scoring/intervals.py);
- one run of several phrasings against one of the base phrasing alone is compared on the base
  phrasing of both (`phrasings_note` says so): the first run's case credit is a mean over its
  phrasings, which set against base-only credits would mix wording into the model's change;
- two runs of several phrasings are also compared per phrasing both used and on the
  worst-phrasing score (`robustness`, scoring/robustness.compare_wording), by the same paired
  interval; informative, not part of the gate;
- scenarios (`scenarios`, when either run has them): each run's success rate and interval as its
  card's `scenarios` block holds them, and which flips are scenarios; informative, the gate reads
  the main score (in which scenarios count as their category);
- runs whose scenarios were played against different versions of a world (each transcript's
  `world_sha256`, for a world both runs hold) are refused like different suites, unless
  `allow_mixed`: then both are graded against the world loaded now and `worlds_note` says so;
- the regression gate fails when the score delta's whole interval lies below zero (at the main
  level, or at any level of two sweeps: then every interval is at 1 - 0.05 / L for L levels,
  Bonferroni, so the sweep's false-alarm rate stays within a single run's); `verdict` says in one
  line what was and was not shown.
Labels come from the documents (provider, model, created, repeats), never from file paths.

Pure: no I/O.
"""
from __future__ import annotations

from toolproof.errors import ToolProofError
from .evaluate import check_scenarios_known, grade_transcripts
from toolproof.grading.verdicts import PASS, CaseEntry
from .repeats import merge_repeats, repeats_summary
from .scorecard import check_weights, weighted_score
from .intervals import LEVEL, delta_p_value, paired_intervals
from .stats import mcnemar
from toolproof.suite.categories import CATEGORY
from toolproof.suite.model import BASE, CATEGORIES, Case, Tool
from .coverage import add_coverage, plan_of
from .results_doc import refuse_scorecard
from .robustness import compare_wording, phrasing_credits, phrasing_groups
from .scenarios import scenarios_block
from .sweep import at_level, levels_in, main_level
from toolproof.grading.transcripts import TranscriptSet, parse_transcripts
from toolproof.plurals import counted, plural


def graded_run(document, cases: list[Case], tools: dict[str, Tool], format_schema: dict,
               source: str, worlds: dict | None = None) -> dict:
    """A results file or page export (results plus its scorecard), graded afresh and summarised.
    The embedded scorecard is ignored: the transcripts are the evidence, so both files are graded
    the same way whatever weights or version produced them. `worlds` (the World records by id)
    grade its scenario transcripts, as `grade` does."""
    refuse_scorecard(document, "compare", source)
    transcripts = parse_transcripts(document, format_schema, {c.id for c in cases}, source)
    if worlds is not None:          # a scenario of no world loaded: refused naming this file
        check_scenarios_known(transcripts, worlds, source)
    levels = levels_in(transcripts)
    if not levels:
        return _summary_of(document, cases, tools, transcripts, worlds=worlds)
    # A sweep: every level summarised on its own; the main level stands for the run (its
    # coverage is the whole sweep's: every planned level, run or not).
    plan = plan_of(transcripts.raw, cases)
    per_level = {pad: _summary_of(document, cases, tools, at_level(transcripts, pad),
                                  None if plan is None else plan.per_level) for pad in levels}
    total = {"planned": 0, "graded": 0, "error": 0, "not_started": 0}
    for summary in per_level.values():
        total = add_coverage(total, summary["coverage"])
    unrun = 0 if plan is None else plan.per_level * sum(pad not in per_level for pad in plan.levels)
    total = add_coverage(total, {"planned": unrun, "graded": 0, "error": 0, "not_started": unrun})
    return {**per_level[main_level(levels)[0]], "coverage": total, "levels": per_level}


def _summary_of(document: dict, cases: list[Case], tools: dict[str, Tool], transcripts,
                planned: int | None = -1, worlds: dict | None = None) -> dict:
    return graded_summary(document, grade_transcripts(cases, tools, transcripts, planned, worlds), transcripts)


def graded_summary(document: dict, graded, transcripts) -> dict:
    """What a comparison needs of one graded run (`graded`: evaluate.Graded of `transcripts`)."""
    count, _ = repeats_summary(phrasing_groups(graded.per_case))
    wording = phrasing_credits(graded.per_case)
    out = {**run_summary(document, [r.to_json() for r in graded.rows], count), "coverage": graded.coverage}
    block = scenarios_block(graded.scenarios, graded.scenario_plan)     # the card's own block, as evaluate builds it
    if block is not None:
        out.update(scenarios=block, worlds=world_fingerprints(transcripts))
    if wording:
        # the base phrasing on its own, for a comparison against a run of the base phrasing alone
        base = [merge_repeats(rs) for rs in ([r for r in rs if r.phrasing == BASE] for rs in graded.per_case) if rs]
        out.update(phrasings=wording, base_cases=run_summary(document, [r.to_json() for r in base], count)["cases"])
    return out


def run_summary(document: dict, card_cases: list[dict], repeats: int) -> dict:
    """What a comparison needs from one graded run: its label and, per case, the counts."""
    cases = {}
    for c in map(CaseEntry.of, card_cases):
        cases[c.id] = {"category": c.category, "passes": c.passes, "graded": c.graded,
                       "repeats": len(c.repeats), "verdict": c.verdict, "credit": c.credit}
    label = {k: document.get(k, "") for k in ("kind", "provider", "model", "created")}
    if isinstance(document.get("arm"), str):       # one arm of a run with arms (arms/analysis.split_arms)
        label["arm"] = document["arm"]
    return {"label": {**label, "repeats": repeats}, "suite_sha256": document.get("suite_sha256"),
            "cases": cases}


def world_fingerprints(transcripts: TranscriptSet) -> dict[str, str | None]:
    """{world: the world_sha256 its scenario transcripts record} of one run, in file order; None
    for a world some transcript records none for, or two of them record different ones."""
    found: dict[str, set] = {}
    for tries in (transcripts.scenarios or {}).values():
        for t in tries:
            found.setdefault(t.world, set()).add(t.world_sha256 or None)
    return {w: next(iter(shas)) if len(shas) == 1 else None for w, shas in found.items()}


def world_mismatch(fingerprints: list[dict], names: list[str], worlds) -> str | None:
    """The line saying which of `worlds` the runs (`names`, with their world_fingerprints) were
    not shown to play in one version, the first such world only; None when every one agrees."""
    for world in worlds:
        shas = [f.get(world) for f in fingerprints]
        missing = [n for n, sha in zip(names, shas) if not sha]
        if missing:
            return f"no world_sha256 recorded for world {world!r} in {', '.join(missing)}, so the runs cannot be " \
                   "shown to play the same world"
        if any(sha != shas[0] for sha in shas):
            first = [n for n, sha in zip(names, shas) if sha == shas[0]]
            other = [n for n, sha in zip(names, shas) if sha != shas[0]]
            return f"the runs played different versions of world {world!r} (world_sha256): " \
                   f"{', '.join(first)} {plural(len(first), 'differs', 'differ')} from {', '.join(other)}"
    return None


def check_same_worlds(a: dict, b: dict, allow_mixed: bool) -> str | None:
    """None when the two runs played the worlds both hold in one version; else refused, unless
    mixing is allowed: then the note that says both are graded against the world loaded now."""
    shared = [w for w in a.get("worlds") or {} if w in (b.get("worlds") or {})]
    problem = world_mismatch([a.get("worlds") or {}, b.get("worlds") or {}], ["run A", "run B"], shared)
    if problem is None:
        return None
    if not allow_mixed:
        raise ToolProofError(f"{problem}; pass --allow-mixed to compare them, both graded against the world "
                             "files loaded now")
    return f"{problem}: both graded against the world files loaded now (--allow-mixed)"


def check_same_suite(a: dict, b: dict, allow_mixed: bool) -> bool:
    """True when both runs name the same suite; refuse otherwise unless mixing is allowed."""
    if a["suite_sha256"] and a["suite_sha256"] == b["suite_sha256"]:
        return True
    if allow_mixed:
        return False
    missing = [n for n, run in (("A", a), ("B", b)) if not run["suite_sha256"]]
    if missing:
        raise ToolProofError(f"run {' and '.join(missing)} records no suite_sha256, so the two runs cannot be "
                             "shown to use the same suite; pass --allow-mixed to compare the case ids they share")
    raise ToolProofError("the two runs used different suites (suite_sha256 differs); pass --allow-mixed "
                         "to compare the case ids they share")


def passes(case: dict) -> bool:
    """The case's verdict is PASS (what the comparison's rows show)."""
    return case["verdict"] == PASS


def scores_of(credits: list[float], categories: list[str], weights: dict) -> tuple[dict, float | None]:
    """(mean credit per category, rounded; the weighted score): the scorecard's formula."""
    means = {}
    for category in CATEGORIES:
        mine = [c for c, k in zip(credits, categories) if k == category]
        if mine:
            means[category] = round(sum(mine) / len(mine), 4)
    return means, weighted_score(means, weights)


def compare_runs(a: dict, b: dict, *, allow_mixed: bool = False, weights: dict | None = None) -> dict:
    """{"comparison": {...}} for two run summaries (see run_summary). Two sweeps are compared at
    their main level and, in `sweep.levels`, level by level over the levels both ran."""
    if ("levels" in a) != ("levels" in b):
        which = "A" if "levels" in a else "B"
        raise ToolProofError(f"run {which} is a tool-count sweep and the other is not: compare two sweeps "
                             "(level by level) or two plain runs")
    if "levels" not in a:
        return _compare_one(a, b, allow_mixed, weights, LEVEL)
    shared = [pad for pad in a["levels"] if pad in b["levels"]]
    if not shared:
        raise ToolProofError("the two sweeps share no pad level, so no level can be compared")
    # The gate fires when any level regresses: each of the L levels is judged at 1 - 0.05 / L
    # (Bonferroni), so a false alarm somewhere stays within the single run's 2.5%.
    level = 1 - (1 - LEVEL) / len(shared)
    out = _compare_one(a, b, allow_mixed, weights, level)
    out["comparison"]["sweep"] = {"levels": [
        _level_row(pad, _compare_one(a["levels"][pad], b["levels"][pad], allow_mixed, weights, level))
        for pad in shared]}
    return out


def level_label(level: float) -> str:
    """'95%', or '98.33%' for an adjusted level."""
    return f"{100 * level:.4g}%"


def _level_row(pad: int, comparison: dict) -> dict:
    c = comparison["comparison"]
    return {"pad": pad, "score": c["score"], "verdict": c["verdict"], "flips": c["flips"], "mcnemar": c["mcnemar"],
            "regression": c["regression"], "errored": c["errored"]}


def compared_on_base(several: list[bool]) -> bool:
    """Compare's base-phrasing rule for any number of runs, given whether each holds several
    phrasings: true when some do and others hold the base phrasing alone, so every one is to be
    compared on its base phrasing (`on_base` for two runs; the board, scoring/board.py, for all of
    its runs, which it then ranks and tests on their base phrasing)."""
    return len(set(several)) > 1


def on_base(a: dict, b: dict) -> tuple[dict, dict, str | None]:
    """When one run holds several phrasings and the other the base one alone, both as their base
    phrasing (the one both ran), with the note that says so; else the runs unchanged. A case's
    score in a run of several phrasings is a mean over them, so set against a base-only run it
    would mix a wording effect into the model's."""
    if not compared_on_base(["phrasings" in a, "phrasings" in b]):
        return a, b, None
    several = "A" if "phrasings" in a else "B"
    other = "B" if several == "A" else "A"
    count = len(a.get("phrasings") or b.get("phrasings"))
    note = (f"run {several} holds {counted(count, 'phrasing')} (its score is a mean over them) and run {other} the base "
            f"phrasing alone: the score, the flips and McNemar compare the base phrasing of both")
    pick = lambda run: {**run, "cases": run["base_cases"]} if "phrasings" in run else run   # noqa: E731
    return pick(a), pick(b), note


def _compare_one(a: dict, b: dict, allow_mixed: bool, weights: dict | None, level: float) -> dict:
    a, b, wording_note = on_base(a, b)
    same = check_same_suite(a, b, allow_mixed)
    worlds_note = check_same_worlds(a, b, allow_mixed)
    weights = check_weights(weights or {})
    shared = [cid for cid in a["cases"] if cid in b["cases"]]
    rows, errored, regressed, improved, untested = [], [], [], [], []
    for cid in shared:
        ca, cb = a["cases"][cid], b["cases"][cid]
        row = {"id": cid, "category": ca["category"],
               "a": {"passes": ca["passes"], "repeats": ca["repeats"], "verdict": ca["verdict"]},
               "b": {"passes": cb["passes"], "repeats": cb["repeats"], "verdict": cb["verdict"]}, "flip": None}
        if not ca["graded"] or not cb["graded"]:
            errored.append(cid)
        elif ca["graded"] != cb["graded"]:
            untested.append(cid)
        elif passes(ca) and not passes(cb):
            row["flip"] = "regressed"
            regressed.append(cid)
        elif passes(cb) and not passes(ca):
            row["flip"] = "improved"
            improved.append(cid)
        rows.append(row)
    graded = [cid for cid in shared if cid not in errored]
    deltas = _deltas(a, b, graded, weights, level)
    changed = sum(a["cases"][cid]["verdict"] != b["cases"][cid]["verdict"] for cid in graded)
    alike = all(a["cases"][cid]["credit"] == b["cases"][cid]["credit"] for cid in graded)
    return {"comparison": {
        "runs": {"a": a["label"], "b": b["label"]},
        "suite": {"same": same, "mixed": not same, "shared_cases": len(shared),
                  "only_a": sum(c not in b["cases"] for c in a["cases"]),
                  "only_b": sum(c not in a["cases"] for c in b["cases"]),
                  # of the shared cases, how many are scenarios (said only when some are)
                  **({"shared_scenarios": played} if (played := sum(
                      a["cases"][cid]["category"] == SCENARIO for cid in shared)) else {})},
        **deltas,
        "verdict": verdict_line(deltas["score"], level, changed=changed, compared=len(graded), alike=alike),
        "verdicts_changed": changed,
        "flips": {"regressed": regressed, "improved": improved},
        "mcnemar": _flip_test(regressed, improved, len(shared) - len(errored) - len(untested), untested),
        "errored": errored,
        "cases": rows,
        "coverage": _coverage(a, b),
        **({"phrasings_note": wording_note} if wording_note else {}),
        **({"worlds_note": worlds_note} if worlds_note else {}),
        **({"scenarios": found} if (found := scenario_part(a, b, regressed, improved)) else {}),
        **({"robustness": wording} if (wording := compare_wording(a.get("phrasings"), b.get("phrasings"),
                                                                   weights, level)) else {}),
    }}


SCENARIO = CATEGORY["scenario"].id
SCENARIO_FIELDS = ("planned", "graded", "passed", "success_rate", "interval")


def scenario_part(a: dict, b: dict, regressed: list[str], improved: list[str]) -> dict | None:
    """The scenarios of two runs side by side: each run's success rate with its interval and
    counts, as its scorecard's `scenarios` block holds them (null for a run with none), and which
    of the flips are scenarios; None when neither run has scenarios. Nothing is recomputed: the
    rate and its interval are each card's own."""
    blocks = {name: run.get("scenarios") for name, run in (("a", a), ("b", b))}
    if not any(isinstance(block, dict) and block for block in blocks.values()):
        return None
    ids = {cid for run in (a, b) for cid, case in run["cases"].items() if case["category"] == SCENARIO}
    return {**{name: {k: block.get(k) for k in SCENARIO_FIELDS} if isinstance(block, dict) and block else None
               for name, block in blocks.items()},
            "flips": {"regressed": [c for c in regressed if c in ids], "improved": [c for c in improved if c in ids]}}


def _coverage(a: dict, b: dict) -> dict:
    """Which cases ran on one side only, and each run's coverage of its plan (`complete` false
    when either run graded less than it planned). Said beside the statistics, never in them."""
    out = {"only_a": [cid for cid in a["cases"] if cid not in b["cases"]],
           "only_b": [cid for cid in b["cases"] if cid not in a["cases"]]}
    for name, run in (("a", a), ("b", b)):
        if "coverage" in run:
            out[name] = run["coverage"]
    out["complete"] = all(out[n]["graded"] == out[n]["planned"] for n in ("a", "b") if n in out)
    return out


def _flip_test(regressed: list, improved: list, tested: int, untested: list) -> dict:
    out = {**mcnemar(len(regressed), len(improved)), "cases": tested, "left_out": len(untested)}
    if untested:
        n = len(untested)
        out["note"] = (f"{counted(n, 'case')} {plural(n, 'was', 'were')} graded a different number of times in A "
                       f"and B and {plural(n, 'is', 'are')} "
                       "left out of the flips and this test: a case's verdict is not equally likely to be PASS "
                       "with 1 repeat as with 2 (a 1-1 tie is never PASS), even for the same model")
        if not tested:
            out["p_value"] = None
            out["note"] = ("not tested: every case was graded a different number of times in A and B, and a "
                           "verdict is not equally likely to be PASS with 1 repeat as with 2 (a 1-1 tie is never "
                           "PASS), even for the same model; run both with the same --repeats, or read the score "
                           "interval")
    return out


def verdict_line(score: dict, level: float = LEVEL, *, changed: int | None = None, compared: int = 0,
                 alike: bool = False) -> str:
    """What the delta's interval shows, in one line (the gate reads the same interval). When no
    case changed verdict (`changed` 0 of `compared` cases graded in both), that is said first:
    it is what the reader of two matching runs needs, and the interval alone ("a drop of up to 6
    points cannot be ruled out") read as a warning about runs that agree case for case. `alike`:
    every compared case also has the same credit (two identical runs)."""
    low, high, pct = score["low"], score["high"], level_label(level)
    if low is None:
        return "no verdict: no case was graded in both runs"
    same = ""
    if changed == 0 and compared:
        same = (f"no case changed verdict ({counted(compared, 'case')} graded in both"
                + (", each with the same credit" if alike else "") + ")")
    if high < 0:
        return (f"REGRESSION: B scores {_points(-high, -low)} lower "
                f"(the whole {pct} interval of the delta is below 0)" + (f"; {same}, but credits fell" if same else ""))
    if low > 0:
        return (f"improvement: B scores {_points(low, high)} higher "
                f"(the whole {pct} interval of the delta is above 0)" + (f"; {same}, but credits rose" if same else ""))
    drop = (f"a drop of up to {_points(-low)} cannot be ruled out "
            f"(nor a rise of up to {high:.0f})")
    if same:
        return f"{same}; no significant change: over other cases like these, {drop}"
    return f"no significant change; {drop}"


def _points(low: float, high: float | None = None) -> str:
    """"1 point", "6 points", "2 to 5 points": score points as the verdict prints them (whole)."""
    ends = [f"{low:.0f}"] + ([f"{high:.0f}"] if high is not None and f"{high:.0f}" != f"{low:.0f}" else [])
    return " to ".join(ends) + " " + plural(float(ends[-1]), "point")


def _deltas(a: dict, b: dict, ids: list[str], weights: dict, level: float) -> dict:
    categories = [a["cases"][c]["category"] for c in ids]
    credits_a = [a["cases"][c]["credit"] for c in ids]
    credits_b = [b["cases"][c]["credit"] for c in ids]
    means_a, score_a = scores_of(credits_a, categories, weights)
    means_b, score_b = scores_of(credits_b, categories, weights)
    boot = paired_intervals(credits_a, credits_b, categories, weights, level)
    interval = boot["score"] or {"low": None, "high": None}
    delta = None if score_a is None or score_b is None else round(score_b - score_a, 2) + 0.0
    by_category = {c: {"a": means_a[c], "b": means_b[c], "delta": round(means_b[c] - means_a[c], 4) + 0.0,
                       **boot["categories"][c]} for c in means_a}
    method = {k: boot[k] for k in ("method", "level")}
    if "note" in boot:
        method["note"] = boot["note"]
    return {"score": {"a": score_a, "b": score_b, "delta": delta, **interval},
            "categories": by_category, "intervals": method,
            "regression": interval["high"] is not None and interval["high"] < 0}


def paired_p_value(a: dict, b: dict, *, weights: dict | None = None) -> float | None:
    """The two-sided p-value of the test behind the comparison's score interval (B - A, over the
    cases graded in both runs, the same cases and weights `_deltas` uses): the board's pairwise
    table reads it to correct for many pairs (Holm). None when no case was graded in both."""
    weights = check_weights(weights or {})
    ids = [cid for cid in a["cases"] if cid in b["cases"] and a["cases"][cid]["graded"] and b["cases"][cid]["graded"]]
    if not ids:
        return None
    return delta_p_value([a["cases"][c]["credit"] for c in ids], [b["cases"][c]["credit"] for c in ids],
                         [a["cases"][c]["category"] for c in ids], weights)


def regression_gate(comparison: dict) -> str | None:
    """The --fail-on-regression verdict: None to pass, else the line saying why it failed."""
    c = comparison["comparison"]
    if not c["regression"]:
        level = next((row for row in c.get("sweep", {}).get("levels", []) if row["regression"]), None)
        if level is None:
            return None
        return _gate_line(f"regression at pad level {level['pad']}", level, c["intervals"]["level"])
    return _gate_line("regression", c, c["intervals"]["level"])


def overall_verdict(c: dict) -> str:
    """The comparison's verdict, sweep levels included: what the gate acts on, so the two agree."""
    if c["regression"]:
        return c["verdict"]
    level = next((row for row in c.get("sweep", {}).get("levels", []) if row["regression"]), None)
    if level is not None:
        return f"REGRESSION at pad level {level['pad']}: " + level["verdict"].split(": ", 1)[1]
    return c["verdict"]


def _gate_line(what: str, c: dict, level: float) -> str:
    s = c["score"]
    cases = ", ".join(c["flips"]["regressed"]) or "none changed from PASS"
    return (f"{what}: score {s['a']} -> {s['b']} (delta {s['delta']}, {level_label(level)} CI {s['low']} to {s['high']} over cases, "
            f"entirely below 0); cases whose verdict fell from PASS: {cases}")
