"""The robustness section in words: beside the headline, in the terminal, in Markdown and as a JUnit
"wording" suite; absent for a run of one phrasing; hostile text stays inert."""
from __future__ import annotations

import copy
import xml.etree.ElementTree as ET

import pytest

from phrasingdocs import RIGHT, TOOLS_DOC, every_phrasing, suite_doc, transcript, transcripts_doc
from toolproof.datafiles import format_schema
from toolproof.grading.transcripts import parse_transcripts
from toolproof.reports.junit import junit_xml
from toolproof.reports.robustness import case_phrasings
from toolproof.reports.scorecard import render_markdown, render_text
from toolproof.scoring.evaluate import evaluate
from toolproof.suite.load import parse_suite, parse_tools

TOOLS = parse_tools(TOOLS_DOC, format_schema("tools"))
CASES = parse_suite(suite_doc(), TOOLS, format_schema("suite"))


def graded(repeats: int) -> dict:
    return evaluate(CASES, TOOLS, parse_transcripts(transcripts_doc(every_phrasing(repeats)), format_schema("transcripts")))


@pytest.fixture(scope="module")
def card():
    """Five repeats, each phrasing answered alike every time: enough for the test against chance
    to name the two cases whose phrasings disagree (call: p 3/3003; two: p 2/252)."""
    return graded(5)


@pytest.fixture(scope="module")
def once():
    """The same answers with one repeat: wording cannot be told from chance."""
    return graded(1)


def test_the_headline_says_consistency_worst_score_and_how_the_score_is_made(card):
    text = render_text(card)
    head = text.split("\n\n")[0]
    assert "Wording: 1 of 3 cases consistent across phrasings (33.3%, 95% CI " in head
    assert "worst-phrasing score 20.00 / 100 (too few cases for an interval), 3 cases; chance alone would give " in head
    assert "The score is the mean over each case's phrasings" in head


def test_the_terminal_names_the_cases_and_the_phrasings_that_failed(card):
    text = render_text(card)
    assert "  verdict depends on the wording: 2\n    call: PASS in base, terse; FAIL in chatty (p < 0.001)\n" \
           "    two: PASS in base; FAIL in typo (p = 0.00794)\n" in text
    assert "  against chance: wording matters for this model (p = 0.001, level 0.05); verdicts differ between " \
           "phrasings in 2 cases, 2 cases depend on the wording (Holm-corrected across 2 cases tested)" in text
    assert "per phrasing: base: 100.00" in text and "intervals: over cases, as the score's" in text and "seed 20261206" in text


def test_markdown_has_the_section_and_one_row_per_dependent_case(card):
    """One row per case with its own phrasings, never a column per phrasing of the whole suite (the
    bundled suite has 30 phrasing ids: a table 30 columns wide, almost every cell empty)."""
    md = render_markdown(card)
    assert "## Wording sensitivity" in md
    assert "| case | verdict by phrasing | worse in |" in md
    assert "| call | PASS in base, terse; FAIL in chatty | chatty |" in md
    assert "| two | PASS in base; FAIL in typo | typo |" in md
    table = md.split("Cases whose verdict depends")[1].split("\n\n")[1]
    assert "| case | base |" not in md and "polite" not in table and len(table.splitlines()) == 4


def test_junit_fails_wording_dependent_cases_in_their_own_suite(card):
    root = ET.fromstring(junit_xml(card))
    wording = next(s for s in root if s.get("name") == "wording")
    assert (wording.get("tests"), wording.get("failures")) == ("3", "2")
    assert [c.get("name") for c in wording if c.find("failure") is not None] == ["call", "two"]


def test_one_repeat_names_no_case_and_says_wording_cannot_be_told_from_chance(once):
    """The same disagreeing phrasings without repeats: nothing shows how much a case varies on its
    own, so no view names a case (the old views called both wording-dependent)."""
    found = once["robustness"]
    assert found["wording_test"]["decidable"] is False and found["wording_test"]["p"] is None
    assert found["wording_dependent_cases"] == []
    text, md = render_text(once), render_markdown(once)
    assert "wording cannot be told from chance: verdicts differ between phrasings in 2 cases" in text
    assert "verdict depends on the wording: none" in text and "Cases whose verdict depends" not in md
    assert "(differs, within chance)" in md and "(depends on the wording)" not in md
    wording = next(s for s in ET.fromstring(junit_xml(once)) if s.get("name") == "wording")
    assert wording.get("failures") == "0"
    assert found["worst_phrasing_expected_by_chance"] == found["worst"]["score"]   # one try: all of it chance
    rows = case_phrasings(found, once["cases"])
    assert [(r["id"], r["state"]) for r in rows] == [("call", "differs"), ("two", "differs"), ("nocall", "consistent")]


def test_three_repeats_say_no_single_case_can_be_named(card):
    three = graded(3)
    test = three["robustness"]["wording_test"]
    assert test["decidable"] and test["cases_reachable"] == 0 and three["robustness"]["wording_dependent_cases"] == []
    assert "no single case can be named at this many repeats: the smallest p any case could reach is 0.036, " \
           "the Holm-corrected level needs 0.025 or less (0.05 / 2 cases tested)" in render_text(three)


def test_one_phrasing_adds_nothing_to_any_view():
    base = evaluate(CASES, TOOLS, parse_transcripts(transcripts_doc([transcript("call")]), format_schema("transcripts")))
    assert "Wording" not in render_text(base) and "Wording" not in render_markdown(base)
    assert 'name="wording"' not in junit_xml(base)


def test_hostile_text_in_a_card_stays_inert(card):
    bad = copy.deepcopy(card)
    evil = "<script>x</script>|\x1b[2J\u202e"
    row = bad["robustness"]["cases"][0]
    row["id"] = evil
    row["verdicts"] = {evil: "PASS", "chatty": "FAIL"}
    bad["robustness"]["phrasings"].append(evil)
    md = render_markdown(bad)
    assert "<script>" not in md and "&lt;script&gt;x&lt;/script&gt;\\|" in md
    ET.fromstring(junit_xml(bad))             # still well-formed
    assert "FAIL in chatty" in md.split("Cases whose verdict depends")[1]      # an id with ": " is not split


def test_each_case_has_only_its_own_phrasings_with_verdicts_and_prompts(card):
    rows = case_phrasings(card["robustness"], card["cases"], {c.id: c for c in CASES})
    assert [(r["id"], r["state"]) for r in rows] == [("call", "depends"), ("two", "depends"), ("nocall", "consistent")]
    call = rows[0]
    assert [(p["phrasing"], p["verdict"], p["worse"]) for p in call["phrasings"]] == [
        ("base", "PASS", False), ("terse", "PASS", False), ("chatty", "FAIL", True)]
    by_id = {c.id: c for c in CASES}
    assert call["phrasings"][0]["prompt"] == by_id["call"].prompt
    assert call["phrasings"][2]["prompt"] == next(p.prompt for p in by_id["call"].phrasings if p.id == "chatty")
    assert [p["phrasing"] for p in rows[2]["phrasings"]] == ["base", "polite"]
    assert rows[1]["state_text"] == "verdict depends on the wording"
    assert rows[2]["state_text"] == "one verdict in every phrasing"


def test_each_phrasing_lists_its_own_repeats():
    doubled = evaluate(CASES, TOOLS, parse_transcripts(transcripts_doc(every_phrasing(repeats=2)), format_schema("transcripts")))
    rows = case_phrasings(doubled["robustness"], doubled["cases"], {c.id: c for c in CASES})
    assert {p["phrasing"]: p["repeats"] for p in rows[0]["phrasings"]} == {
        "base": ["PASS", "PASS"], "terse": ["PASS", "PASS"], "chatty": ["FAIL", "FAIL"]}


def test_without_the_suite_or_with_a_phrasing_it_lacks_the_prompt_is_none(card):
    assert all(p["prompt"] is None for r in case_phrasings(card["robustness"], card["cases"]) for p in r["phrasings"])
    bad = copy.deepcopy(card)
    bad["robustness"]["cases"][0]["verdicts"]["\u202e<b>x</b>"] = "PASS"
    bad["cases"] = []                                  # a card whose case entries are missing
    row = case_phrasings(bad["robustness"], bad["cases"], {c.id: c for c in CASES})[0]
    odd = row["phrasings"][-1]
    assert (odd["phrasing"], odd["prompt"], odd["repeats"]) == ("\u202e<b>x</b>", None, ["PASS"])


def test_the_bundled_fixtures_list_each_case_with_its_own_phrasings_only():
    """The fixtures carry many phrasing ids over the suite's cases; each case shows at most its own few."""
    from toolproof.datafiles import load_bundle

    bundle = load_bundle()
    found = evaluate(bundle.cases, bundle.tools, bundle.transcripts)
    cases = {c.id: c for c in bundle.cases}
    rows = case_phrasings(found["robustness"], found["cases"], cases)
    assert len(found["robustness"]["phrasings"]) > 20 and len(rows) == len(found["cases"])
    for row in rows:
        own = [p["phrasing"] for p in row["phrasings"]]
        assert own and set(own) <= set(cases[row["id"]].phrasing_ids) and len(own) <= 5, row["id"]
        assert all(p["prompt"] for p in row["phrasings"])
    states = [r["state"] for r in rows]
    first = ("depends", "differs")          # the cases the wording moves first, then the card's order
    assert states == sorted(states, key=lambda s: first.index(s) if s in first else 2) and "differs" in states
    rest = [r["id"] for r in rows if r["state"] not in first]
    assert rest == [c["id"] for c in found["cases"] if c["id"] in set(rest)]
    assert "depends" not in states          # one repeat: no case can be told from chance


def test_two_repeats_that_all_agree_read_as_decided_in_every_view():
    """Every phrasing answered alike at 2 repeats: the views said "with one graded try per phrasing
    ... (run 2 or more repeats)" to a run of 2 repeats, and with no case differing the sentence read
    "wording cannot be told from chance: but with ..."."""
    alike = [transcript(cid, t.get("phrasing", "base"), t["repeat"], turns=RIGHT[cid])
             for t in every_phrasing(2) for cid in [t["case_id"]]]
    same = evaluate(CASES, TOOLS, parse_transcripts(transcripts_doc(alike), format_schema("transcripts")))
    test = same["robustness"]["wording_test"]
    assert test["decidable"] is True and test["p"] == 1.0
    for view in (render_text(same), render_markdown(same)):
        assert "run 2 or more repeats" not in view and "chance: but" not in view
        assert "no evidence that wording matters beyond chance (p = 1, level 0.05); " \
               "no case with repeats gave differing verdicts, so no case is named" in view
    once_alike = evaluate(CASES, TOOLS, parse_transcripts(transcripts_doc(
        [t for t in alike if t["repeat"] == 0]), format_schema("transcripts")))
    assert once_alike["robustness"]["wording_test"]["decidable"] is False
    assert "against chance: wording cannot be told from chance: with one graded try per phrasing" in render_text(once_alike)
