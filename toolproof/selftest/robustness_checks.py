"""Self-checks of wording sensitivity (issue 26): phrasings in the suite, the mean over phrasings,
consistency, the worst-phrasing score and the nested bootstrap, and the committed fixtures' own
phrasings when they carry some.

Pure: no I/O.
"""
from __future__ import annotations

from toolproof.grading.verdicts import CREDIT, ERROR, FAIL, PASS, PARTIAL, CaseResult, blank_facts
from toolproof.suite.load import load_suite, parse_tools
from toolproof.suite.model import chosen_phrasings, phrased
from .kit import FORMAT_OK, SUITE_DOC, TOOLS_DOC, Checker
from toolproof.scoring.robustness import merge_phrasings, robustness


def _result(cid: str, category: str, verdict: str, phrasing: str) -> CaseResult:
    credit = CREDIT[verdict]
    return CaseResult(cid, category, verdict, credit, [], verdict, credit, [], blank_facts(), phrasing=phrasing)


def robustness_checks(t: Checker) -> None:
    tools = parse_tools(TOOLS_DOC, FORMAT_OK)
    doc = {**SUITE_DOC, "cases": [dict(SUITE_DOC["cases"][0], phrasings=[
        {"id": "terse", "prompt": "2x ORD-123456.", "why": "terse"},
        {"id": "base", "prompt": "again", "why": "reserved"}])] + SUITE_DOC["cases"][1:]}
    cases, problems = load_suite(doc, tools, FORMAT_OK)
    t.check("phrasings: the id base is reserved for the case's own prompt",
            [p for p, _ in problems] == ["$.cases[0].phrasings[1].id"])
    doc["cases"][0]["phrasings"] = doc["cases"][0]["phrasings"][:1]
    case = load_suite(doc, tools, FORMAT_OK)[0][0]
    t.check("phrasings: a phrasing replaces the prompt only; --phrasings 2 is base and the first other",
            phrased(case, "terse").prompt == "2x ORD-123456." and phrased(case, "terse").expect == case.expect
            and chosen_phrasings(case, 2) == ("base", "terse") and chosen_phrasings(case, "base") == ("base",))
    row = merge_phrasings([_result("a", "should_call", v, p) for v, p in
                           ((PASS, "base"), (PASS, "terse"), (FAIL, "chatty"), (PARTIAL, "chatty"))])
    t.check("robustness: a case's credit is the mean over its phrasings (1, 1, 0.25 -> 0.75), verdict their majority",
            (row.credit, row.verdict) == (0.75, PASS))
    per_case = [[_result("a", "should_call", PASS, "base"), _result("a", "should_call", FAIL, "terse")],
                [_result("b", "should_call", PASS, "base"), _result("b", "should_call", PASS, "terse")],
                [_result("c", "must_ask", PASS, "base"), _result("c", "must_ask", ERROR, "terse")]]
    found = robustness(per_case, {"should_call": 1, "must_ask": 1}, resamples=200)
    t.check("robustness: consistency counts cases with two graded phrasings (1 of 2; an ERROR phrasing is not graded)",
            (found["consistent_cases"], found["judged_cases"], found["consistency_rate"]) == (1, 2, 0.5))
    t.check("robustness: worst-phrasing score by hand (should_call 0.5, must_ask 1 -> 75)",
            found["worst"]["score"] == 75.0 and found["cases"][0]["worse_in"] == ["terse"])
    again = robustness(per_case, {"should_call": 1, "must_ask": 1}, resamples=200)
    t.check("robustness: the nested bootstrap is seeded and brackets its score",
            again == found and found["worst"]["interval"]["low"] <= 75.0 <= found["worst"]["interval"]["high"])
    t.check("robustness: one phrasing, no section",
            robustness([rs[:1] for rs in per_case], {"should_call": 1, "must_ask": 1}) is None)


def fixture_phrasing_checks(t: Checker, card: dict, tset) -> None:
    """When the committed fixtures carry phrasings: every one gets its intended verdict, and the
    scorecard has a robustness section."""
    worded = [tr for ts in tset.all_repeats().values() for tr in ts if tr.phrasing != "base"]
    if not worded:
        return
    found = card.get("robustness") or {}
    verdicts = {row["id"]: row["verdicts"] for row in found.get("cases", [])}
    wrong = [f"{tr.case_id}/{tr.phrasing}" for tr in worded if tr.intended_verdict
             and verdicts.get(tr.case_id, {}).get(tr.phrasing) != tr.intended_verdict]
    t.check("data: every phrasing fixture gets its intended verdict" + (f" (not: {', '.join(wrong[:8])})" if wrong else ""),
            bool(found) and not wrong)
    t.check("data: the fixtures' robustness section states consistency and a worst-phrasing score",
            found.get("judged_cases", 0) > 0 and found.get("worst", {}).get("score") is not None)
