"""The leaderboard: many runs of one suite ranked by score, each with its interval, and a pairwise
table saying which differences are more than noise once the number of pairs is allowed for.

Rules (docs/statistics.md "The leaderboard" says the same for users):
- every run is graded afresh from its transcripts (a page export's embedded scorecard is
  ignored, as `compare` ignores it), with the prices its file records, if any;
- the runs must record one and the same `suite_sha256`; otherwise they are refused with one
  line naming the files, unless `allow_mixed`: then every run is graded on the case ids all
  runs hold, and the board says so (`suite.mixed`, `suite.note`);
- every run is graded on the cases the runs planned (`suite.cases`: nine for runs of one
  category, not the suite's 72); runs of one suite but different scopes or plans (one run
  `--scope should_call`, one of the whole suite; a file holding part of the suite and stating no
  plan) would be ranked on scores over different cases while their pairs are tested on the cases
  both hold: so when the case sets the runs planned differ, every run is graded on the cases all
  runs share, as with `allow_mixed`, and the board says so (`suite.shared_only`, `suite.note`);
  no case shared is refused with one line naming the files;
- scenarios (multi-turn tasks over a world, each a `cases` entry of category "scenario") are
  ranked like cases: the items a run planned are its cases and its scenarios (those of the
  worlds its `scenarios` / `scenarios:<world>` scope names, else those it holds), the board
  ranks on the items all runs share (a scenarios-only board's score is the scenario category's),
  and a cases run set beside a scenarios run shares nothing and is refused; a scenario of no
  world loaded is refused naming the file, and runs that played a shared world in different
  versions (`world_sha256`) are refused like different suites unless `allow_mixed`
  (`suite.worlds_note` then says so);
- a run is graded on those cases alone: its cost, requests and latency count only their
  transcripts, not the whole file's;
- compare's base-phrasing rule (comparison.compared_on_base): when some runs hold several
  phrasings and others the base phrasing alone, every run is ranked and tested on its base
  phrasing (a score over several phrasings is a mean over them, which set against base-only
  scores would mix wording into the ranking), and `suite.phrasings_note` says so;
- one unit per count: a row's `cases` counts cases (each case once, whatever its phrasings,
  repeats and pad levels), its `coverage` conversations (the scorecard's plan);
- a run with below half of its plan graded (coverage.below_half, the scorecard's rule) has no
  score and no interval and is not ranked: it is listed apart in `unranked` (`score`,
  `interval` and `rank` null, `no_score` is the scorecard's own `no_score_reason`, one wording
  for every view) and takes part in no pairwise test;
- the ranked runs (`runs`) in order of score, ties in the order given; each pair of them is
  compared exactly as `compare A B` compares two runs (scoring/comparison.py: `compare_runs` for
  the delta and its 95% interval over the cases graded in both, McNemar on flips as the second
  test), and `paired_p_value` gives the p-value of that same interval's test; Holm's step-down
  correction over the m pairs keeps the chance of any false "significant" in the table at 5% or
  below (benchmarks/board_calibration.py measures it);
- rank: a run's best possible rank is 1 + the runs significantly above it, its worst n - the
  runs significantly below it; when they differ the rank reads "1–3" (not separable).

Pure: no I/O.
"""
from __future__ import annotations

from dataclasses import replace

from toolproof.plurals import counted
from toolproof.errors import ToolProofError
from toolproof.grading.transcripts import TranscriptSet, known_ids, parse_transcripts
from toolproof.suite.model import BASE, Case, Tool
from .comparison import (SCENARIO_FIELDS, compare_runs, compared_on_base, paired_p_value, run_summary,
                         world_fingerprints, world_mismatch)
from .cost import check_prices
from .coverage import below_half, plan_case_ids, scenario_plan
from .evaluate import check_scenarios_known, evaluate
from .intervals import LEVEL, METHOD
from .results_doc import refuse_scorecard

FORMAT, VERSION = "toolproof.board", 2
MAX_RUNS = 40           # 780 pairs: beyond this a table of pairs is no longer read
ALPHA = round(1 - LEVEL, 10)
# plain words, no Markdown: the page shows this line as text, and Markdown exports escape it
PAIR_METHOD = ("each pair tested as compare tests two runs: the score delta's stratified paired t interval over "
               "the cases graded in both runs; p-values corrected for the number of pairs by Holm's step-down method")


def _prices(document: dict) -> dict | None:
    """The prices the results file records (settings.prices), checked; None when absent or bad."""
    settings = document.get("settings")
    found = settings.get("prices") if isinstance(settings, dict) else None
    if not isinstance(found, dict):
        return None
    try:
        return check_prices(found.get("input_per_mtok"), found.get("output_per_mtok"))
    except ToolProofError:
        return None


def parse_run(document, format_schema: dict, cases: list[Case], source: str):
    """A results file (or page export) checked and parsed; a scorecard alone is refused."""
    refuse_scorecard(document, "board", source)
    return parse_transcripts(document, format_schema, known_ids(cases), source)


def _check_suites(docs: list[dict], sources: list[str], allow_mixed: bool) -> bool:
    """True when every run records the same suite_sha256; refuse otherwise unless allowed."""
    shas = [d.get("suite_sha256") if isinstance(d.get("suite_sha256"), str) else None for d in docs]
    if shas[0] and all(s == shas[0] for s in shas):
        return True
    if allow_mixed:
        return False
    missing = [src for src, sha in zip(sources, shas) if not sha]
    if missing:
        raise ToolProofError(f"no suite_sha256 recorded in {', '.join(missing)}, so the runs cannot be shown to use "
                             "the same suite; pass --allow-mixed to rank them on the case ids all runs share")
    first = [src for src, sha in zip(sources, shas) if sha == shas[0]]
    other = [src for src, sha in zip(sources, shas) if sha != shas[0]]
    raise ToolProofError(f"the runs used different suites (suite_sha256): {', '.join(first)} differ from "
                         f"{', '.join(other)}; pass --allow-mixed to rank them on the case ids all runs share")


def _label(document: dict) -> dict:
    out = {k: document.get(k, "") if isinstance(document.get(k, ""), str) else "" for k in
           ("label", "kind", "provider", "model", "created")}
    return out


def _case_counts(card: dict, planned: int) -> dict:
    """{planned, graded, error, not_started} in cases: a case is graded when one of its
    conversations got a verdict, ERROR when none did (the card's counts), not started when the
    file holds none of its conversations."""
    counts = card["counts"]
    present, error = counts["cases"], counts.get("error", 0)
    planned = max(planned, present)
    return {"planned": planned, "graded": present - error, "error": error, "not_started": planned - present}


def _row(index: int, document: dict, card: dict, planned_cases: int) -> dict:
    cov, cost, intervals = card["coverage"], card.get("cost") or {}, card.get("intervals") or {}
    cases = _case_counts(card, planned_cases)
    latency = cost.get("latency_ms") or {}
    usd = cost.get("usd")
    requests = cost.get("requests") or 0
    reliability = card.get("reliability") or {}
    repeats = card.get("repeats", 1)
    unranked = below_half(cov) or card["score"] is None
    return {
        "id": f"run-{index + 1}", **_label(document), "repeats": repeats,
        "cases": cases, "coverage": cov,
        "score": None if unranked else card["score"],
        "interval": None if unranked else intervals.get("score"),
        "no_score": (card.get("no_score_reason") or "no score") if unranked else None,
        "categories": {c: {"score": row["score"], **(intervals.get("categories") or {}).get(c, {})}
                       for c, row in card["categories"].items() if row["score"] is not None},
        "metrics": card["metrics"],
        "pass_hat_k": reliability.get("pass_hat_k") if repeats > 1 else None,
        # the run's scenario success rate as its card says it (comparison.SCENARIO_FIELDS), when it has scenarios
        **({"scenarios": {k: block.get(k) for k in SCENARIO_FIELDS}}
           if isinstance(block := card.get("scenarios"), dict) and block else {}),
        "error_rate": card.get("error_rate"),
        "cost": {"requests": requests, "input_tokens": cost.get("input_tokens"),
                 "output_tokens": cost.get("output_tokens"), "usd": usd,
                 "usd_per_1000_requests": round(1000 * usd / requests, 6) if usd is not None and requests else None,
                 "usd_per_pass": cost.get("usd_per_passing_run"),
                 "latency_p50_ms": latency.get("p50"), "latency_p95_ms": latency.get("p95")},
    }


def holm(p_values: list[float | None]) -> list[float | None]:
    """Holm's step-down adjusted p-values, in the order given (None stays None, not counted)."""
    known = sorted((p, i) for i, p in enumerate(p_values) if p is not None)
    m, out, running = len(known), [None] * len(p_values), 0.0
    for step, (p, i) in enumerate(known):
        running = max(running, min(1.0, (m - step) * p))
        out[i] = round(running, 6)
    return out


def _pair(a_row: dict, b_row: dict, a: dict, b: dict, mixed: bool, weights: dict | None) -> dict:
    c = compare_runs(a, b, allow_mixed=mixed, weights=weights)["comparison"]
    s, cases = c["score"], c["suite"]["shared_cases"] - len(c["errored"])
    out = {"a": a_row["id"], "b": b_row["id"], "delta": s["delta"], "low": s["low"], "high": s["high"],
           "cases": cases, "p_value": paired_p_value(a, b, weights=weights), "mcnemar_p": c["mcnemar"]["p_value"],
           "note": None}
    if cases <= 0:
        # nothing to test on: no p-value of 1.0 that would read as "tested, no difference"
        out.update(delta=None, low=None, high=None, p_value=None, mcnemar_p=None,
                   note="not tested: no case graded in both runs")
    return out


def _ranks(rows: list[dict], pairs: list[dict]) -> None:
    above = {r["id"]: 0 for r in rows}
    below = dict(above)
    for pair in pairs:
        if pair["significant"]:
            worse, better = (pair["a"], pair["b"]) if pair["delta"] > 0 else (pair["b"], pair["a"])
            above[worse] += 1
            below[better] += 1
    for row in rows:
        best, worst = 1 + above[row["id"]], len(rows) - below[row["id"]]
        row["rank"] = {"best": best, "worst": worst, "label": str(best) if best == worst else f"{best}–{worst}"}


def _narrowed(transcripts: TranscriptSet, keep, **settings) -> TranscriptSet:
    """The transcripts (of cases and of scenarios) `keep(t)` holds, as a set of their own;
    `settings` restate the file's plan (phrasings="base": a run kept to its base phrasing
    planned that phrasing alone)."""
    def kept(groups: dict) -> dict:
        return {k: mine for k, ts in groups.items() if (mine := tuple(t for t in ts if keep(t)))}

    repeats, scenarios = kept(transcripts.all_repeats()), kept(transcripts.scenarios or {})
    raw = transcripts.raw
    if settings and isinstance(raw.get("settings"), dict):
        raw = {**raw, "settings": {**raw["settings"], **settings}}
    return replace(transcripts, transcripts={k: ts[0] for k, ts in repeats.items()}, repeats=repeats, raw=raw,
                   scenarios=scenarios)


def _planned_scenarios(run: TranscriptSet, worlds: dict | None) -> set:
    """The scenario ids a run set out to play: those of the worlds its scope names when it states
    that plan (coverage.scenario_plan), else those it holds; none when no worlds are loaded."""
    if worlds is None:
        return set()
    plan = scenario_plan(run.raw, worlds)
    if plan is None:
        return set(run.scenarios or {})
    return {s.id for name in plan for s in worlds[name].scenarios}


def _shared_items(parsed: list, sources: list[str], cases: list[Case], same: bool,
                  worlds: dict | None) -> tuple[list[Case], set, bool]:
    """The cases (suite order) and the scenario ids every run is graded on, those all runs
    planned, and whether that is fewer than some run planned; nothing shared is refused naming
    the files (a cases run beside a scenarios run shares nothing)."""
    held = [(set(p.all_repeats()) if not same else plan_case_ids(p.raw, cases, p.all_repeats()))
            | _planned_scenarios(p, worlds) for p in parsed]
    shared = set.intersection(*held)
    if not shared:
        raise ToolProofError(f"the runs share no case to rank them on: {', '.join(sources)} "
                             "(different scopes, plans or suites)")
    ids = {c.id for c in cases}
    return [c for c in cases if c.id in shared], shared - ids, not same or any(h != held[0] for h in held)


def _worlds_on(worlds: dict | None, scenario_ids: set) -> dict | None:
    """The loaded worlds narrowed to the scenarios ranked (a world with none of them left out):
    each run's plan (coverage.scenario_plan) then counts those alone, as `used` does for cases."""
    if worlds is None:
        return None
    out = {}
    for wid, world in worlds.items():
        mine = tuple(s for s in world.scenarios if s.id in scenario_ids)
        if mine:
            out[wid] = replace(world, scenarios=mine)
    return out


def _check_worlds(parsed: list, sources: list[str], worlds: dict, allow_mixed: bool) -> str | None:
    """None when every run played each world ranked in one and the same version (world_sha256);
    else refused naming the files, unless allowed: then the note that says so."""
    problem = world_mismatch([world_fingerprints(p) for p in parsed], sources, worlds)
    if problem is None:
        return None
    if not allow_mixed:
        raise ToolProofError(f"{problem}; pass --allow-mixed to rank them, each graded against the world files "
                             "loaded now")
    names = [f"run-{i + 1}" for i in range(len(parsed))]     # the board names runs by id, never by file
    found = world_mismatch([world_fingerprints(p) for p in parsed], names, worlds)
    return f"{found}: every run graded against the world files loaded now (--allow-mixed)"


def _phrasings_note(several: list[str], base: list[str]) -> str:
    return (f"{', '.join(several)} {'holds' if len(several) == 1 else 'hold'} several phrasings and {', '.join(base)} "
            "the base phrasing alone: every run is ranked and tested on its base phrasing, as compare compares "
            "such runs (a score over several phrasings is a mean over them)")


def _suite(same: bool, docs: list[dict], used: list[Case], cases: list[Case], narrowed: bool, runs: int,
           phrasings_note: str | None, worlds: dict | None = None, worlds_note: str | None = None) -> dict:
    """The board's `suite`: what every run was graded on (`cases`, and `scenarios` with the
    `worlds` they belong to, each world's fingerprint as loaded) and the notes saying why fewer."""
    worlds = worlds or {}
    played = sum(len(w.scenarios) for w in worlds.values())
    suite = {"same": same, "mixed": not same, "suite_sha256": docs[0].get("suite_sha256") if same else None,
             "cases": len(used), "suite_cases": len(cases), "scenarios": played,
             "worlds": {w: world.sha256 or None for w, world in worlds.items()}, "shared_only": narrowed}
    scenarios = f" and {counted(played, 'scenario')}" if played else ""
    if not same:
        suite["note"] = (f"mixed suites (--allow-mixed): every run graded (its cost too) on the {len(used)} "
                         f"case ids{scenarios} all {counted(runs, 'run')} share, not on its whole suite")
    elif narrowed:
        what = f"the {len(used)} of {counted(len(cases), 'case')}" if used else "the"
        what = f"{what}{scenarios}" if used else f"{what} {counted(played, 'scenario')}"
        suite["note"] = (f"different scopes or plans: every run graded (its cost too) on {what} "
                         f"all {counted(runs, 'run')} share, not on its own plan")
    if phrasings_note:
        suite["phrasings_note"] = phrasings_note
    if worlds_note:
        suite["worlds_note"] = worlds_note
    return suite


def build_board(runs: list[tuple], cases: list[Case], tools: dict[str, Tool], format_schema: dict, *,
                allow_mixed: bool = False, weights: dict | None = None, worlds: dict | None = None) -> dict:
    """The board document for `runs` = [(document, source name), ...] (the source names only
    appear in error lines, never in the board: labels come from the documents); `worlds` grade
    the runs' scenario transcripts, as `grade` does."""
    if not runs:
        raise ToolProofError("the board needs at least one results file")
    if len(runs) > MAX_RUNS:
        raise ToolProofError(f"at most {MAX_RUNS} runs on one board, got {len(runs)}")
    sources = [source for _, source in runs]
    parsed = [parse_run(doc, format_schema, cases, source) for doc, source in runs]
    docs = [p.raw for p in parsed]
    same = _check_suites(docs, sources, allow_mixed)
    for p, source in zip(parsed, sources):     # a scenario of no world loaded: refused naming its file
        if worlds is not None:
            check_scenarios_known(p, worlds, source)
    used, played, narrowed = _shared_items(parsed, sources, cases, same, worlds)
    worlds = _worlds_on(worlds, played)
    worlds_note = _check_worlds(parsed, sources, worlds or {}, allow_mixed)
    ids = {c.id for c in used} | played
    sets = [_narrowed(p, lambda t: t.case_id in ids) for p in parsed]     # cost on the items ranked, too
    cards = [evaluate(used, tools, ts, weights, prices=_prices(doc), worlds=worlds) for ts, doc in zip(sets, docs)]
    several = ["robustness" in card for card in cards]
    note = None
    if compared_on_base(several):
        names = [f"run-{i + 1}" for i in range(len(cards))]
        note = _phrasings_note([n for n, s in zip(names, several) if s], [n for n, s in zip(names, several) if not s])
        cards = [evaluate(used, tools, _narrowed(ts, lambda t: t.phrasing == BASE, phrasings=BASE), weights,
                          prices=_prices(doc), worlds=worlds) if s else card
                 for ts, doc, card, s in zip(sets, docs, cards, several)]
    rows, summaries = [], {}
    for index, (doc, card) in enumerate(zip(docs, cards)):
        row = _row(index, doc, card, len(ids))
        rows.append(row)
        summaries[row["id"]] = {**run_summary(doc, card["cases"], card.get("repeats", 1)), "coverage": card["coverage"]}
    ranked = sorted((r for r in rows if r["no_score"] is None), key=lambda r: -r["score"])     # stable: ties as given
    unranked = [{**r, "rank": None} for r in rows if r["no_score"] is not None]
    pairs = [_pair(x, y, summaries[x["id"]], summaries[y["id"]], not same, weights)
             for i, x in enumerate(ranked) for y in ranked[i + 1:]]
    for pair, adjusted in zip(pairs, holm([p["p_value"] for p in pairs])):
        pair["p_holm"] = adjusted
        pair["significant"] = adjusted is not None and adjusted < ALPHA
    _ranks(ranked, pairs)
    return {"format": FORMAT, "version": VERSION, "suite": _suite(same, docs, used, cases, narrowed, len(rows), note,
                                                                   worlds, worlds_note),
            "method": {"intervals": METHOD, "pairwise": PAIR_METHOD, "level": LEVEL, "pairs": len(pairs),
                       "alpha": ALPHA},
            "runs": ranked, "unranked": unranked, "pairs": pairs}
