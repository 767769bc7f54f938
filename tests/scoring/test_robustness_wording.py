"""The review of issue 26's wording views: a phrasing is never a repeat (so never "flaky"), the
intervals stay inside the score's range, reasons from another phrasing say which one, the HTML
reports carry the wording section, and compare says what it does with one run of several phrasings."""
from __future__ import annotations

import json

from phrasingdocs import TOOLS_DOC, every_phrasing, suite_doc, transcript, transcripts_doc
from suitefigures import CASES as SUITE_CASES
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
    assert "by phrasing: base PASS · terse PASS · chatty FAIL (differs, within chance)" in md   # one repeat
    html = scorecard_html(c)
    assert "repeats PASS" not in html and "(differs, within chance)" in html
    named = card(every_phrasing(repeats=5))
    assert "by phrasing: base PASS PASS PASS PASS PASS · terse PASS PASS PASS PASS PASS · chatty FAIL FAIL FAIL " \
           "FAIL FAIL (depends on the wording)" in render_markdown(named)


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
    assert "1 conversation ended in ERROR" in score_gate(card(items), 10)


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


def _fixture_card():
    from toolproof.datafiles import DATA, read_json

    tools = parse_tools(read_json(DATA / "tools.json"), format_schema("tools"))
    cases = parse_suite(read_json(DATA / "suite.json"), tools, format_schema("suite"))
    return evaluate(cases, tools, parse_transcripts(read_json(DATA / "fixtures.json"), format_schema("transcripts")))


def test_intervals_stay_inside_the_range_and_few_cases_get_none():
    found = _fixture_card()["robustness"]
    for row in found["per_phrasing"] + [found["worst"]]:
        if row.get("interval"):
            assert 0 <= row["interval"]["low"] <= row["score"] <= row["interval"]["high"] <= 100, row
    per = {p["phrasing"]: p for p in found["per_phrasing"]}
    assert per["extra-context"]["cases"] == 5 and per["extra-context"]["interval"]["high"] <= 100
    assert per["numeric-date"]["interval"] is None and "too few cases" in per["numeric-date"]["interval_note"]
    assert (per["base"]["cases"], per["base"]["planned"]) == (SUITE_CASES - 1, SUITE_CASES)  # one base fixture: ERROR
    text = render_text(_fixture_card())
    scores = next(line for line in text.splitlines() if "per phrasing:" in line)   # (a gap's CI may go below 0)
    assert "CI -" not in scores and "108" not in scores and "0–0)" not in scores and "100–100)" not in scores
    assert "numeric-date: 0.00 (too few cases for an interval), 1 of 1 case" in text
    base = per["base"]
    assert (f"base: {base['score']:.2f} (95% CI {base['interval']['low']:.0f}–{base['interval']['high']:.0f}), "
            f"{SUITE_CASES - 1} of {SUITE_CASES} cases") in text


def test_per_phrasing_counts_against_the_plan():
    # a live run of all 10 cases in every phrasing: base was planned for 10, chatty for 1
    settings = {"repeats": 1, "phrasings": "all", "scope": "all"}
    items = [t for t in every_phrasing() if t.get("phrasing") != "terse"]
    per = {p["phrasing"]: p for p in card(items, settings=settings)["robustness"]["per_phrasing"]}
    assert (per["base"]["cases"], per["base"]["planned"]) == (3, 10)
    assert "terse" not in per and (per["chatty"]["cases"], per["chatty"]["planned"]) == (1, 1)
    # no stated plan: the cases the file holds that have the phrasing
    items = [t for t in every_phrasing() if t["case_id"] != "two" or t.get("phrasing")]
    per = {p["phrasing"]: p for p in card(items)["robustness"]["per_phrasing"]}
    assert (per["base"]["cases"], per["base"]["planned"]) == (2, 3)
    assert "base: 100.00 (too few cases for an interval), 2 of 3 cases" in render_text(card(items))


def test_compare_shows_no_interval_for_a_phrasing_on_few_cases():
    from toolproof.reports.comparison import render_comparison_text
    from toolproof.scoring.comparison import compare_runs, graded_run

    def summary(items):
        doc = transcripts_doc(items, suite_sha256="a" * 64)
        return graded_run(doc, CASES, TOOLS, format_schema("transcripts"), "run.json")

    out = compare_runs(summary(every_phrasing()), summary(every_phrasing()))
    per = {p["phrasing"]: p for p in out["comparison"]["robustness"]["per_phrasing"]}
    assert per["base"]["low"] is None and "too few cases" in per["base"]["interval_note"]
    assert "too few cases" in render_comparison_text(out)


def test_the_html_reports_carry_the_wording_section():
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from htmlcheck import assert_inert
    from toolproof.reports.html_comparison import comparison_html
    from toolproof.scoring.comparison import compare_runs, graded_run

    c = card(every_phrasing(repeats=5))
    text = "".join(assert_inert(scorecard_html(c)).text)
    assert "Wording sensitivity" in text and "1 of 3 cases consistent across phrasings" in text
    assert "worst-phrasing score 20.00 / 100" in text and "too few cases for an interval" in text
    assert "Verdict depends on the wording (2)" in text and "PASS in base, terse; FAIL in chatty" in text
    assert "Against chance: wording matters for this model" in text
    once = "".join(assert_inert(scorecard_html(card(every_phrasing()))).text)
    assert "Verdict depends on the wording" not in once and "wording cannot be told from chance" in once
    assert "Wording sensitivity" not in scorecard_html(card([transcript(cid) for cid in ("call", "nocall", "two")]))

    def summary(items):
        return graded_run(transcripts_doc(items, suite_sha256="a" * 64), CASES, TOOLS, format_schema("transcripts"), "r")

    fixed = [transcript(t["case_id"], t.get("phrasing", "base"), turns=transcript(t["case_id"])["turns"])
             for t in every_phrasing()]
    text = "".join(assert_inert(comparison_html(compare_runs(summary(every_phrasing()), summary(fixed)))).text)
    assert "Wording (B − A per phrasing both runs used, points)" in text
    assert "worst phrasing" in text and "too few cases" in text and "+80.00" in text


def test_compare_of_a_run_with_phrasings_against_a_base_run_compares_the_base_phrasing():
    from toolproof.reports.comparison import render_comparison_text
    from toolproof.scoring.comparison import compare_runs, graded_run

    def summary(items):
        return graded_run(transcripts_doc(items, suite_sha256="a" * 64), CASES, TOOLS, format_schema("transcripts"), "r")

    base = summary([transcript(cid) for cid in ("call", "nocall", "two")])
    for a, b, several in ((summary(every_phrasing()), base, "A"), (base, summary(every_phrasing()), "B")):
        out = compare_runs(a, b)
        c = out["comparison"]
        # the base answers are the same on both sides: no flip, no change, McNemar tested on all 3
        assert c["score"]["delta"] == 0.0 and c["flips"] == {"regressed": [], "improved": []}
        assert c["mcnemar"]["cases"] == 3 and c["mcnemar"]["left_out"] == 0 and "note" not in c["mcnemar"]
        assert c["phrasings_note"].startswith(f"run {several} holds 5 phrasings (its score is a mean over them)")
        text = render_comparison_text(out)
        assert "same --repeats" not in text and "compare the base phrasing of both" in text
    assert "phrasings_note" not in compare_runs(base, base)["comparison"]
