"""The self-check: named assertions over every grading rule, runnable in a terminal and in the page.

`python -m toolproof selftest` and `index.html?selftest=1` both call `run_selftest` with the
committed data documents already parsed, so this module never touches files, the clock or the
network, and both runtimes count the same N. Each assertion is small and hand-computed; the
pytest suite goes deeper, this is the proof a user can run anywhere in a second.

Pure: no I/O (data is passed in).
"""
from __future__ import annotations

from toolproof.scoring.evaluate import evaluate
from toolproof.scoring.scorecard import rate, weighted_score
from .suite_v2 import suite_v2_checks
from .tool_ids import tool_id_checks
from .new_categories import new_category_checks
from .arm_checks import arm_checks
from toolproof.suite.load import parse_suite, parse_tools
from toolproof.suite.categories import CASE_CATEGORIES
from toolproof.grading.transcripts import known_ids, parse_transcripts
from .kit import SelftestReport, Checker
from .grading_checks import validator_checks, schema_guard_checks, normalise_checks, reply_checks, verdict_checks
from .answer_checks import answer_checks
from .scoring_checks import coverage_checks, diagnosis_checks, score_checks, stats_checks
from .robustness_checks import fixture_phrasing_checks, robustness_checks
from .scenario_checks import scenario_checks
from toolproof.errors import ToolProofError


def _data_checks(t: Checker, documents: dict, schemas: dict) -> None:
    tools = parse_tools(documents["tools"], schemas["tools"])
    cases = parse_suite(documents["suite"], tools, schemas["suite"])
    tset = parse_transcripts(documents["transcripts"], schemas["transcripts"], known_ids(cases))
    card = evaluate(cases, tools, tset)
    t.check("data: at least 30 tools", len(tools) >= 30)
    t.check("transcripts: a variant id the case does not have is refused", _refuses_variant(cases, schemas))
    t.check("data: at least 64 cases, 8 per category",
            len(cases) >= 64 and all(sum(c.category == k for c in cases) >= 8 for k in CASE_CATEGORIES))
    by_id = {c["id"]: c for c in card["cases"]}
    # with phrasings a case's row is the majority over them: the base fixture is read in robustness
    base = {row["id"]: row["verdicts"]["base"] for row in (card.get("robustness") or {}).get("cases", [])}
    disagree = [cid for cid, tr in tset.transcripts.items()
                if tr.intended_verdict and base.get(cid, by_id[cid]["verdict"]) != tr.intended_verdict]
    t.check("data: every fixture gets its intended verdict" + (f" (not: {', '.join(disagree)})" if disagree else ""),
            not disagree)
    t.check("data: fixtures show all three verdicts",
            all(card["counts"][v] > 0 for v in ("PASS", "PARTIAL", "FAIL")))
    recomputed = weighted_score({c: row["score"] for c, row in card["categories"].items()}, card["weights"])
    t.check("data: score is the weighted mean of its category scores", card["score"] == recomputed)
    errors = sum(all(tr.intended_verdict == "ERROR" for tr in ts) for ts in tset.all_repeats().values())
    t.check("data: ERROR cases are counted apart and leave the score's denominators",
            card["counts"]["error"] == errors and card["error_rate"] == rate(errors, len(card["cases"]))
            and sum(row["count"] - row["error"] for row in card["categories"].values()) == len(card["cases"]) - errors)
    every = [v for ts in tset.all_repeats().values() for v in _verdicts(card, ts)]
    t.check("data: one repeat per case: pass^1 is the pass rate over graded cases (and phrasings)",
            card["reliability"]["pass_hat_k"] == {"1": rate(every.count("PASS"), len(every) - every.count("ERROR"))})
    t.check("data: the score's interval brackets the score",
            card["intervals"]["score"]["low"] <= card["score"] <= card["intervals"]["score"]["high"])
    t.check("data: lenient never below strict", all(
        c["lenient"]["credit"] >= c["credit"] for c in card["cases"] if c["verdict"] != "ERROR"))
    fixture_phrasing_checks(t, card, tset)


def _verdicts(card: dict, transcripts: tuple) -> list[str]:
    """The graded verdict of each of a case's transcripts (its row's, or per phrasing)."""
    rows = {row["id"]: row for row in (card.get("robustness") or {}).get("cases", [])}
    if transcripts[0].case_id not in rows:
        return [next(c["verdict"] for c in card["cases"] if c["id"] == transcripts[0].case_id)]
    return [rows[transcripts[0].case_id]["verdicts"][tr.phrasing] for tr in transcripts]


def _refuses_variant(cases: list, schemas: dict) -> bool:
    case = next(c for c in cases if c.variants)
    doc = {"format": "toolproof.transcripts", "version": 1, "kind": "live", "transcripts": [
        {"case_id": case.id, "turns": [], "variants": [{"id": "no-such-variant", "turns": []}]}]}
    try:
        parse_transcripts(doc, schemas["transcripts"], known_ids(cases))
    except ToolProofError as exc:
        return exc.path == "$.transcripts[0].variants[0].id" and "has no variant 'no-such-variant'" in exc.reason
    return False


def run_selftest(documents: dict, schemas: dict) -> SelftestReport:
    """Run every assertion; `documents` holds the parsed tools, suite and transcripts."""
    t = Checker()
    for group in (validator_checks, schema_guard_checks, normalise_checks, reply_checks, verdict_checks,
                  answer_checks, diagnosis_checks, score_checks, stats_checks, coverage_checks, robustness_checks,
                  scenario_checks):
        group(t)
    suite_v2_checks(t.check)
    tool_id_checks(t.check)
    new_category_checks(t.check, schemas["suite"])
    arm_checks(t.check)
    _data_checks(t, documents, schemas)
    return t.report
