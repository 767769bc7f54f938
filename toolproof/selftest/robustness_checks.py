"""Self-checks of wording sensitivity (issue 26): phrasings in the suite, the mean over phrasings,
consistency, the worst-phrasing score and the nested bootstrap, the test against chance (issue 38:
its exact per-case law, one repeat undecidable, the worst-phrasing score expected by chance), and
the committed fixtures' own phrasings when they carry some.

Pure: no I/O.
"""
from __future__ import annotations

from toolproof.grading.verdicts import CREDIT, ERROR, FAIL, PASS, PARTIAL, CaseResult, blank_facts
from toolproof.suite.load import load_suite, parse_tools
from toolproof.suite.model import chosen_phrasings, phrased
from .kit import FORMAT_OK, SUITE_DOC, TOOLS_DOC, Checker
from toolproof.scoring.robustness import consistency_bounds, merge_phrasings, robustness
from toolproof.scoring.wording_test import case_p, expected_worst, suite_test


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
    found = robustness(per_case, {"should_call": 1, "must_ask": 1})
    t.check("robustness: consistency counts cases with two graded phrasings (1 of 2; an ERROR phrasing is not graded)",
            (found["consistent_cases"], found["judged_cases"], found["consistency_rate"]) == (1, 2, 0.5))
    t.check("robustness: worst-phrasing score by hand (should_call 0.5, must_ask 1 -> 75)",
            found["worst"]["score"] == 75.0 and found["cases"][0]["worse_in"] == ["terse"])
    again = robustness(per_case, {"should_call": 1, "must_ask": 1})
    t.check("robustness: reproducible, and no worst-phrasing interval on fewer than 5 cases",
            again == found and found["worst"]["interval"] is None and "too few" in found["worst"]["interval_note"])
    t.check("robustness: consistency's Wilson interval does not collapse at 72 of 72",
            consistency_bounds(72, 72)["high"] == 1.0 and consistency_bounds(72, 72)["low"] < 0.96)
    wording_checks(t)
    t.check("robustness: one phrasing, no section",
            robustness([rs[:1] for rs in per_case], {"should_call": 1, "must_ask": 1}) is None)


def wording_checks(t: Checker) -> None:
    """The test against chance (scoring/wording_test.py) on tables worked by hand."""
    pure = ((1.0, 1.0, 1.0), (0.0, 0.0, 0.0), (0.0, 0.0, 0.0))
    t.check("wording: 3 phrasings x 3 repeats, all passes in one phrasing: exact p 3/84",
            abs(case_p(pure)[0] - 3 / 84) < 1e-12)
    once = tuple(((1.0,), (0.0,), (0.0,)) for _ in range(30))
    t.check("wording: one repeat per phrasing cannot tell wording from chance",
            suite_test(once)["decidable"] is False and suite_test(once)["named"] == ())
    t.check("wording: worst phrasing expected by chance: PASS PASS / FAIL FAIL -> 1/3 (4 of 6 arrangements mix, "
            "worst 0.5); one FAIL in four -> 0.5",
            abs(expected_worst(((1.0, 1.0), (0.0, 0.0))) - 1 / 3) < 1e-12
            and abs(expected_worst(((1.0, 0.0), (1.0, 1.0))) - 0.5) < 1e-12)


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
