"""The self-contained HTML reports of a scorecard and a comparison (reports/html*.py): inert
whatever the model or the file said, and showing what the page shows."""
from __future__ import annotations

from boarddocs import HOSTILE, run_doc
from htmlcheck import assert_inert
from repeatdocs import BY_ID
from toolproof.datafiles import format_schema
from toolproof.grading.transcripts import known_ids, parse_transcripts
from toolproof.reports.html import esc, whisker
from toolproof.reports.html_comparison import comparison_html
from toolproof.reports.html_scorecard import scorecard_html
from toolproof.scoring.comparison import compare_runs, graded_run
from toolproof.scoring.evaluate import evaluate

SCHEMA = format_schema("transcripts")


def hostile_doc():
    doc = run_doc(HOSTILE, 4, label=HOSTILE)
    first = doc["transcripts"][0]["turns"][0]["response"]
    first["content"] = [{"type": "text", "text": HOSTILE + "</pre></details><script>x()</script>"}]
    return doc


def test_esc_is_the_one_escape():
    assert esc('<a href="x">\u202e\x00') == "&lt;a href=&quot;x&quot;&gt;\\u202e\\x00"
    assert esc("it's") == "it&#x27;s"


def test_whisker_clamps_to_its_scale():
    svg = whisker(150, -20, 120)
    assert svg.startswith("<svg") and 'cx="156.0"' in svg and 'x1="4.0"' in svg


def test_scorecard_page_is_inert_and_shows_cases_with_expected_and_actual_calls(bundle):
    doc = hostile_doc()
    card = evaluate(bundle.cases, bundle.tools, parse_transcripts(doc, SCHEMA, known_ids(bundle.cases)))
    page = scorecard_html(card, bundle.cases)
    found = assert_inert(page)
    text = "".join(found.text)
    assert HOSTILE.replace("\u202e", "\\u202e").replace("\x1b", "\\x1b") in text
    assert "</pre></details><script>x()</script>" in text
    rows = [v for t, a, v in found.attributes if a == "data-case-id"]
    assert rows == [c["id"] for c in card["cases"]] and len(rows) == len(BY_ID)
    classes = [v for t, a, v in found.attributes if a == "class"]
    assert classes.count("expected-call") == len(rows) == classes.count("actual-call")
    assert "95% CI" in text and "Diagnosis" in text and "Schema-valid calls" in text


def test_comparison_page_is_inert(bundle):
    runs = [graded_run(d, bundle.cases, bundle.tools, SCHEMA, "x") for d in (run_doc("a"), hostile_doc())]
    page = comparison_html(compare_runs(*runs))
    found = assert_inert(page)
    text = "".join(found.text)
    assert "ToolProof comparison (B − A)" in text and "<script>alert(1)</script>" in text
    assert "Flipped cases" in text
