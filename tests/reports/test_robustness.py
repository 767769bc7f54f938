"""The robustness section in words: beside the headline, in the terminal, in Markdown and as a JUnit
"wording" suite; absent for a run of one phrasing; hostile text stays inert."""
from __future__ import annotations

import copy
import xml.etree.ElementTree as ET

import pytest

from phrasingdocs import TOOLS_DOC, every_phrasing, suite_doc, transcript, transcripts_doc
from toolproof.datafiles import format_schema
from toolproof.grading.transcripts import parse_transcripts
from toolproof.reports.junit import junit_xml
from toolproof.reports.scorecard import render_markdown, render_text
from toolproof.scoring.evaluate import evaluate
from toolproof.suite.load import parse_suite, parse_tools

TOOLS = parse_tools(TOOLS_DOC, format_schema("tools"))
CASES = parse_suite(suite_doc(), TOOLS, format_schema("suite"))


@pytest.fixture(scope="module")
def card():
    return evaluate(CASES, TOOLS, parse_transcripts(transcripts_doc(every_phrasing()), format_schema("transcripts")))


def test_the_headline_says_consistency_worst_score_and_how_the_score_is_made(card):
    text = render_text(card)
    head = text.split("\n\n")[0]
    assert "Wording: 1 of 3 cases consistent across phrasings (33.3%, 95% CI " in head
    assert "worst-phrasing score 20.00 / 100 (95% CI " in head
    assert "The score is the mean over each case's phrasings" in head


def test_the_terminal_names_the_cases_and_the_phrasings_that_failed(card):
    text = render_text(card)
    assert "  verdict depends on the wording: 2\n    call: PASS in base, terse; FAIL in chatty\n" \
           "    two: PASS in base; FAIL in typo\n" in text
    assert "per phrasing: base: 100.00" in text and "seed 20261130" in text


def test_markdown_has_the_section_and_a_side_by_side_table(card):
    md = render_markdown(card)
    assert "## Wording sensitivity" in md
    assert "| case | base | terse | chatty | polite | typo |" in md
    assert "| call | PASS | PASS | FAIL | - | - |" in md


def test_junit_fails_wording_dependent_cases_in_their_own_suite(card):
    root = ET.fromstring(junit_xml(card))
    wording = next(s for s in root if s.get("name") == "wording")
    assert (wording.get("tests"), wording.get("failures")) == ("3", "2")
    assert [c.get("name") for c in wording if c.find("failure") is not None] == ["call", "two"]


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
