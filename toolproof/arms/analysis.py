"""A results file with arms, graded: the baseline's scorecard with an `arms` block that sets every
other arm against the baseline, case by case (docs/arms.md and docs/statistics.md say the same):

- each arm is graded on its own transcripts (an ablated arm's calls turned back: grading/unmask.py)
  against the suite's catalogue; its `score` is the scorecard's formula over its graded cases, with
  the scorecard's 95% interval (`score_interval`), and its `coverage` counts its own plan (`planned`
  in its entry);
- every arm but the baseline: `delta` (arm minus baseline, with the paired interval `compare`
  uses, over the cases graded in both), `mcnemar_p` (exact McNemar on the cases whose verdict
  went from PASS or to PASS, as compare counts them), `holm_p` (Holm across the arms compared) and
  `significant` (holm_p < 0.05);
- `migration`: how the baseline's failure kinds moved (arms/kinds.py), e.g. schema -> pass;
- `veto`: marked when the arm's score fell and the paired test behind compare's interval is
  significant after Holm across the arms (`regression`), or when, with two or more repeats, the
  cases it broke (PASS in every baseline repeat, FAIL in every repeat of the arm) outnumber their
  mirror significantly after Holm: an arm that wins on score yet breaks cases is not a free switch;
- `tool_effects` (an arm that changes what is shown: ablate or tools): per catalogue tool, the
  cases that expect it and which of them flipped, with McNemar per tool and Holm across the tools;
- `audit`: the honouring audit's findings (arms/audit.py);
- a refused arm has its provider's words in `refused`, no score, and takes no part in Holm.

Pure: no I/O.
"""
from __future__ import annotations

from math import comb

from toolproof.errors import ToolProofError
from toolproof.grading.results_refs import expand
from toolproof.grading.transcripts import parse_transcripts
from toolproof.grading.verdicts import FAIL, PASS
from toolproof.safe_text import printable
from toolproof.scoring.board import holm
from toolproof.scoring.comparison import compare_runs, graded_summary, paired_p_value, scores_of
from toolproof.scoring.evaluate import evaluate, grade_transcripts
from toolproof.scoring.intervals import card_intervals
from toolproof.scoring.scorecard import check_weights
from toolproof.scoring.stats import mcnemar
from .audit import audit_arm, effort_findings
from .kinds import failure_kind

SIGNIFICANCE = 0.05
MAX_ARMS = 16
SHOWN_KEYS = ("ablate", "tools")


def is_arms_file(doc: object) -> bool:
    return isinstance(doc, dict) and "arms" in doc


def check_entries(doc: dict, source: str) -> list[dict]:
    """The file's arm entries, checked enough to read (ToolProofError naming the file and entry)."""
    entries = doc.get("arms")
    if not isinstance(entries, list) or not 2 <= len(entries) <= MAX_ARMS:
        raise ToolProofError(f"{source}: arms must be a list of 2 to {MAX_ARMS} arm entries")
    names = set()
    for i, entry in enumerate(entries):
        where = f"{source}: arms[{i}]"
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str) or not entry["name"]:
            raise ToolProofError(f"{where} must be an object with a name")
        if entry["name"] in names:
            raise ToolProofError(f"{where}: the name {printable(entry['name'][:40])!r} is used twice")
        names.add(entry["name"])
        if not isinstance(entry.get("settings", {}), dict):
            raise ToolProofError(f"{where}.settings must be an object")
        if entry.get("refused") is not None and not isinstance(entry["refused"], str):
            raise ToolProofError(f"{where}.refused must be null or the provider's words")
    for i, t in enumerate(doc.get("transcripts") or []):
        if isinstance(t, dict) and t.get("arm") not in names:
            raise ToolProofError(f"{source}: transcripts[{i}] names no arm of the file "
                                 f"(arm {printable(str(t.get('arm'))[:40])!r})")
    return entries


def split_arms(doc: dict, source: str) -> list[tuple[dict, dict]]:
    """[(arm entry, the arm's own results document)], baseline first: each document is what a
    plain run of that arm would have written (its transcripts, its not_started, its provider and
    model), so every reader of results files reads it unchanged."""
    doc = expand(doc, source)       # a version 2 file refers across arms: resolved before it is split
    entries = check_entries(doc, source)
    head = {k: v for k, v in doc.items() if k not in ("arms", "probes", "transcripts", "not_started")}
    out = []
    for entry in entries:
        name = entry["name"]
        model = entry.get("model", head.get("model", ""))
        named = head.get("label") if isinstance(head.get("label"), str) and head.get("label") else model
        own = {**head, "label": f"{named} (arm {name})" if named else f"arm {name}",
               "provider": entry.get("provider", head.get("provider", "")), "model": model, "arm": name,
               "transcripts": [t for t in doc.get("transcripts") or [] if isinstance(t, dict) and t.get("arm") == name]}
        if entry.get("unmask"):
            own["unmask"] = entry["unmask"]
        missing = [n for n in doc.get("not_started") or [] if isinstance(n, dict) and n.get("arm") == name]
        if missing:
            own["not_started"] = missing
        out.append((entry, own))
    return out


def arm_document(doc: dict, name: str | None, source: str) -> dict:
    """One arm's own results document (the baseline's when `name` is None): what compare reads."""
    parts = split_arms(doc, source)
    if name is None:
        return parts[0][1]
    for entry, own in parts:
        if entry["name"] == name:
            return own
    raise ToolProofError(f"{source}: no arm named {printable(name[:40])!r} (its arms: "
                         f"{', '.join(printable(e['name'][:40]) for e, _ in parts)})")


def arm_documents(doc: dict, source: str) -> list[tuple[dict, str]]:
    """[(each arm's own document, its source name)] of the arms that were run (a refused arm has
    no transcripts): what the board ranks, one row per arm."""
    return [(own, f"{source} (arm {entry['name']})") for entry, own in split_arms(doc, source) if not entry.get("refused")]


def arms_card(doc: dict, cases: list, tools: dict, format_schema: dict, *, weights: dict | None = None,
              prices: dict | None = None, source: str = "results") -> dict:
    """The baseline arm's scorecard with the `arms` block (see the module docstring)."""
    weights = check_weights(weights or {})
    ids = {c.id for c in cases}
    graded = []
    for entry, own in split_arms(doc, source):
        # its calls unmasked (grading/unmask.py); a problem names the arm (its document's paths are its own)
        sets = parse_transcripts(own, format_schema, ids, f"{source} (arm {printable(entry['name'][:40])})")
        planned = entry.get("planned") if isinstance(entry.get("planned"), int) and entry["planned"] >= 0 else -1
        graded.append((entry, own, sets, grade_transcripts(cases, tools, sets, planned)))
    card = evaluate(cases, tools, graded[0][2], weights, prices=prices)
    card["arms"] = arms_block(graded, cases, tools, weights)
    return card


def _weighted_score(graded, weights: dict) -> float | None:
    rows = [r for r in graded.rows if r.credit is not None]
    return scores_of([r.credit for r in rows], [r.category for r in rows], weights)[1] if rows else None


def _score_interval(graded, weights: dict) -> dict | None:
    """The arm's score interval, as its own scorecard would give it (scoring/intervals.py)."""
    rows = [r for r in graded.rows if r.credit is not None]
    return card_intervals([r.credit for r in rows], [r.category for r in rows], weights)["score"] if rows else None


def arms_block(graded: list, cases: list, tools: dict, weights: dict) -> list[dict]:
    """One entry per arm, baseline first (see the module docstring)."""
    by_id = {c.id: c for c in cases}
    efforts = effort_findings([e for e, *_ in graded], {e["name"]: _every(s) for e, _, s, _ in graded})
    base_entry, base_doc, base_sets, base_graded = graded[0]
    base_summary = graded_summary(base_doc, base_graded, base_sets)
    out = []
    for i, (entry, own, sets, g) in enumerate(graded):
        settings = entry.get("settings") or {}
        refused = entry.get("refused")
        row = {"name": entry["name"], "baseline": i == 0, "settings": settings,
               "described": entry.get("described", ""), "provider": own.get("provider", ""),
               "model": own.get("model", ""), "score": None if refused else _weighted_score(g, weights),
               "score_interval": None if refused else _score_interval(g, weights),
               "coverage": g.coverage, "refused": refused, "probe": entry.get("probe"),
               "audit": [] if refused else audit_arm(settings, _every(sets), tools,
                                                     schemas_sent=not _changes_schemas(settings))
               + efforts.get(entry["name"], [])}
        if i > 0:
            row.update(_against(base_summary, graded_summary(own, g, sets), base_graded, g, by_id, tools, weights,
                                refused, base_entry.get("refused"), settings))
        out.append(row)
    holm_arms(out)
    return out


def _every(sets) -> list:
    return [t for ts in sets.all_repeats().values() for t in ts]


def _changes_schemas(settings: dict) -> bool:
    ops = str(settings.get("ablate", "")).split("+")
    return "tools" in settings or "enums" in ops or "types" in ops


def _against(base: dict, arm: dict, base_graded, arm_graded, by_id: dict, tools: dict, weights: dict,
             refused, base_refused, settings: dict) -> dict:
    """The paired comparison of one arm with the baseline."""
    empty = {"delta": None, "mcnemar_p": None, "holm_p": None, "significant": False, "flips": None,
             "migration": [], "veto": None}
    if refused or base_refused:
        return {**empty, "note": "not compared: " + ("this arm was refused" if refused else "the baseline was refused")}
    c = compare_arm(base, arm, weights)
    rows = {r.case_id: r for r in base_graded.rows}
    mine = {r.case_id: r for r in arm_graded.rows}
    shared = [cid for cid in rows if cid in mine and rows[cid].credit is not None and mine[cid].credit is not None]
    out = {**c, "cases": len(shared), "migration": migration(shared, rows, mine, by_id, tools),
           "veto": veto(shared, rows, mine)}
    if any(k in settings for k in SHOWN_KEYS):
        out["tool_effects"] = tool_effects(c["flips"], shared, by_id)
    return out


def compare_arm(base: dict, arm: dict, weights: dict) -> dict:
    """The paired tests of one arm's summary against the baseline's (scoring.comparison's
    run summaries): delta with compare's interval, McNemar's p, the flips, compare's regression
    gate. holm_p and significant are filled across the arms by holm_arms. What
    benchmarks/arms_calibration.py simulates."""
    c = compare_runs(base, arm, allow_mixed=True, weights=weights)["comparison"]
    s = c["score"]
    out = {"delta": {"delta": s["delta"], "low": s["low"], "high": s["high"]}, "mcnemar_p": c["mcnemar"]["p_value"],
           "holm_p": None, "significant": False, "flips": c["flips"], "verdicts_changed": c["verdicts_changed"],
           "delta_p": paired_p_value(base, arm, weights=weights)}
    if c["mcnemar"].get("note"):
        out["note"] = c["mcnemar"]["note"]
    return out


def migration(shared: list, base: dict, arm: dict, by_id: dict, tools: dict) -> list[dict]:
    """[{from, to, count}] of the failure kinds of the cases both graded, most first; a case
    whose kind stayed the same counts too (a failure the arm did not touch: "wrong_tool ->
    wrong_tool"), a case that passed in both does not."""
    counts: dict = {}
    for cid in shared:
        pair = (failure_kind(base[cid], by_id[cid], tools), failure_kind(arm[cid], by_id[cid], tools))
        if pair != ("pass", "pass"):
            counts[pair] = counts.get(pair, 0) + 1
    return [{"from": a, "to": b, "count": n} for (a, b), n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))]


def veto(shared: list, base: dict, arm: dict) -> dict:
    """The cases the arm broke (PASS in every baseline repeat, FAIL in every repeat of the arm, two
    repeats or more) and their mirror (FAIL in every baseline repeat, PASS in every arm repeat), with
    the exact one-sided binomial p of that many broken against the mirror: at 2 repeats an arm
    identical to the baseline breaks a case or two by chance in most runs (benchmarks/
    arms_calibration.py), so a broken case alone is listed, not a veto. holm_arms decides `vetoed`."""
    broken = [cid for cid in shared if _every_repeat(base[cid], PASS) and _every_repeat(arm[cid], FAIL)]
    fixed = sum(_every_repeat(base[cid], FAIL) and _every_repeat(arm[cid], PASS) for cid in shared)
    n = len(broken) + fixed
    p = sum(comb(n, i) for i in range(len(broken), n + 1)) / 2 ** n if n else None
    return {"broken": broken, "fixed": fixed, "broken_p": None if p is None else round(min(1.0, p), 6),
            "regression": False, "vetoed": False}


def _every_repeat(result, verdict: str) -> bool:
    verdicts = result.repeat_verdicts or (result.verdict,)
    return len(verdicts) >= 2 and all(v == verdict for v in verdicts)


def tool_effects(flips: dict, shared: list, by_id: dict) -> list[dict]:
    """Per catalogue tool a compared case expects to be called: its cases, which flipped, McNemar
    on them and Holm across the tools; tools whose cases flipped first."""
    regressed, improved = set(flips["regressed"]), set(flips["improved"])
    per_tool: dict = {}
    for cid in shared:
        expect = by_id[cid].expect
        for tool in dict.fromkeys(call.tool for call in (*expect.calls, *(c for alt in expect.alternatives for c in alt))):
            per_tool.setdefault(tool, []).append(cid)
    rows = []
    for tool, ids in per_tool.items():
        down, up = [c for c in ids if c in regressed], [c for c in ids if c in improved]
        rows.append({"tool": tool, "cases": len(ids), "regressed": down, "improved": up,
                     "mcnemar_p": mcnemar(len(down), len(up))["p_value"]})
    for row, p in zip(rows, holm([r["mcnemar_p"] for r in rows])):
        row["holm_p"], row["significant"] = p, p is not None and p < SIGNIFICANCE
    return sorted(rows, key=lambda r: (-len(r["regressed"]) - len(r["improved"]), r["tool"]))


def holm_arms(rows: list[dict]) -> None:
    """Across the arms compared, in place, each test with Holm over the arms so that a run of arms
    identical to the baseline marks none of them more often than one comparison would:
    - holm_p and significant: McNemar's p;
    - veto.regression: the score fell (delta < 0) and the paired test behind compare's interval
      (its p, `delta_p`) is significant after Holm: compare's regression gate, corrected for
      the number of arms (uncorrected, 8 identical arms marked some arm in 8.5% of runs);
    - veto.vetoed: that, or the arm's broken cases outnumber their mirror significantly after Holm."""
    compared = [r for r in rows if not r["baseline"] and r.get("mcnemar_p") is not None]
    for row, p in zip(compared, holm([r["mcnemar_p"] for r in compared])):
        row["holm_p"], row["significant"] = p, p is not None and p < SIGNIFICANCE
    vetoes = [r for r in rows if not r["baseline"] and isinstance(r.get("veto"), dict)]
    fell = holm([r.get("delta_p") if (r.get("delta") or {}).get("delta") is not None and r["delta"]["delta"] < 0
                 else None for r in vetoes])
    broke = holm([r["veto"].get("broken_p") for r in vetoes])
    for row, down, broken in zip(vetoes, fell, broke):
        row["veto"]["regression"] = down is not None and down < SIGNIFICANCE
        row["veto"]["regression_p"] = down
        row["veto"]["vetoed"] = row["veto"]["regression"] or broken is not None and broken < SIGNIFICANCE
