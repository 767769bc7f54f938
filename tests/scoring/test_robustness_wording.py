"""The review of issue 26's wording views: a phrasing is never a repeat (so never "flaky"), the
intervals stay inside the score's range, reasons from another phrasing say which one, the HTML
reports carry the wording section, and compare says what it does with one run of several phrasings."""
from __future__ import annotations

import json

from phrasingdocs import TOOLS_DOC, every_phrasing, suite_doc, transcript, transcripts_doc
from toolproof.datafiles import format_schema
from toolproof.grading.transcripts import parse_transcripts
from toolproof.scoring.evaluate import evaluate
from toolproof.suite.load import parse_suite, parse_tools
from toolproof.reports.scorecard import render_markdown, render_text
from toolproof.reports.html_scorecard import scorecard_html
from toolproof.scoring.gates import score_gate

TOOLS = parse_tools(TOOLS_DOC, format_schema("tools"))
CASES = parse_suite(suite_doc(), TOOLS, format_schema("suite"))


def card(items, cases=CASES, **head):
    tset = parse_transcripts(transcripts_doc(items, **head), format_schema("transcripts"), {c.id for c in cases})
    return evaluate(cases, TOOLS, tset)


def test_a_phrasing_is_not_a_repeat_and_its_disagreement_is_not_flaky():
    c = card(every_phrasing())
    rows = {r["id"]: r for r in c["cases"]}
    assert c["reliability"]["flaky_cases"] == []
    assert not any(r["flaky"] for r in c["cases"])
    assert rows["call"]["repeats"] == ["PASS"] and rows["call"]["passes"] == 1
    assert rows["call"]["phrasings"] == {"base": ["PASS"], "terse": ["PASS"], "chatty": ["FAIL"]}
    md = render_markdown(c)
    assert "(flaky)" not in md and "PASS FAIL" not in md
    assert "by phrasing: base PASS · terse PASS · chatty FAIL (depends on the wording)" in md
    html = scorecard_html(c)
    assert "repeats PASS" not in html and "(depends on the wording)" in html


def test_repeats_stay_per_phrasing_and_a_phrasing_that_disagrees_with_itself_is_flaky():
    items = every_phrasing(repeats=2)
    items = [transcript("nocall", "polite", 1, turns=transcript("call")["turns"]) if
             (t["case_id"], t.get("phrasing"), t["repeat"]) == ("nocall", "polite", 1) else t for t in items]
    c = card(items, settings={"repeats": 2, "phrasings": "all", "scope": "all"})
    rows = {r["id"]: r for r in c["cases"]}
    assert rows["call"]["repeats"] == ["PASS", "PASS"] and not rows["call"]["flaky"]
    assert rows["call"]["phrasings"]["chatty"] == ["FAIL", "FAIL"]
    assert rows["nocall"]["phrasings"]["polite"][0] == "PASS" and rows["nocall"]["flaky"]
    assert c["reliability"]["flaky_cases"] == ["nocall"]


def test_an_error_in_any_phrasing_still_fails_the_gate():
    items = [transcript("call"), transcript("call", "terse"),
             transcript("call", "chatty", turns=[{"error": {"status": 500, "message": "server error"}}])]
    assert "1 case run(s) ended in ERROR" in score_gate(card(items), 10)


def test_reasons_from_another_phrasing_name_it():
    # "two" is PASS in base and FAIL in typo: a tie goes to the worse, so typo's reasons are shown
    c = card(every_phrasing())
    two = {r["id"]: r for r in c["cases"]}["two"]
    assert two["verdict"] == "FAIL" and two["reasons"] and all(r.startswith("[typo] ") for r in two["reasons"])
    assert "- [typo] " in render_text(c)
    base = {r["id"]: r for r in card([transcript("two")])["cases"]}["two"]
    assert not any(r.startswith("[") for r in base["reasons"])


def test_a_base_only_run_has_no_phrasing_fields_in_its_cases():
    c = card([transcript(cid) for cid in ("call", "nocall", "two")])
    assert not any("phrasings" in r for r in c["cases"])
    assert "by phrasing" not in render_markdown(c) and "by phrasing" not in scorecard_html(c)
