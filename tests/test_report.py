"""Rendering a scorecard: byte-stable JSON, readable text, and Markdown that carries no raw HTML."""
from __future__ import annotations

import json

import pytest

from conftest import openai
from toolproof.report import percent, render_markdown, render_text, score_text, to_json
from toolproof.score import METRIC_KEYS, scorecard

GOOD = {"order_id": "ORD-123456", "qty": 2, "ship_on": "2026-03-04"}
HOSTILE = "<script>alert(1)</script>|x"


@pytest.fixture(scope="module")
def card(mini):
    results = [
        mini("call", openai(("place_order", GOOD))),
        mini("accept", openai(("send_mail", {"to": HOSTILE}))),
        mini("noncrit", openai(("place_order", {**GOOD, "note": "à la porte\nsonnez"}))),
    ]
    return scorecard(results, source={"kind": "live", "label": "Zürich nightly", "provider": "openai",
                                      "model": "gpt-4o"})


def test_to_json_is_deterministic(card, mini):
    again = scorecard([mini("call", openai(("place_order", GOOD))),
                       mini("accept", openai(("send_mail", {"to": HOSTILE}))),
                       mini("noncrit", openai(("place_order", {**GOOD, "note": "à la porte\nsonnez"})))],
                      source=dict(card["source"]))
    # a fresh grading of the same transcripts gives the same bytes: the page relies on this
    assert to_json(card) == to_json(again) == to_json(json.loads(to_json(card)))


def test_to_json_shape(card):
    text = to_json(card)
    assert text.endswith("}\n") and not text.endswith("\n\n")
    assert json.loads(text) == card
    # keys keep insertion order (not sorted), so every runtime prints the same document
    assert list(json.loads(text)) == list(card)
    assert text.startswith('{\n  "toolproof": ')


def test_to_json_keeps_non_ascii(card):
    text = to_json(card)
    assert "Zürich nightly" in text and "à la porte" in text
    assert "\\u00" not in text


@pytest.mark.parametrize("value, shown", [(None, "n/a"), (0.0, "0.0%"), (1.0, "100.0%"), (0.3333, "33.3%"),
                                          (0.12345, "12.3%")])
def test_percent(value, shown):
    assert percent(value) == shown


@pytest.mark.parametrize("value, shown", [(None, "n/a"), (0.0, "0.00"), (58.333, "58.33"), (100.0, "100.00")])
def test_score_text(value, shown):
    assert score_text(value) == shown


def test_render_text_shows_na_for_null_rates(card):
    text = render_text(card)
    # no should_not_call, must_ask or injection case ran: those rates have no denominator
    for key in METRIC_KEYS:
        line = next(row for row in text.splitlines() if row.strip().startswith(key))
        assert ("n/a" in line) == (card["metrics"][key] is None), line
    assert card["metrics"]["over_call_rate"] is None


def test_render_text_of_an_empty_run():
    text = render_text(scorecard([]))
    assert "Score: n/a / 100 strict; n/a lenient" in text
    assert sum("n/a" in line for line in text.splitlines()) == 1 + len(METRIC_KEYS)


def test_render_text_lists_what_went_wrong(card):
    text = render_text(card)
    assert text.splitlines()[:2] == ["ToolProof scorecard - openai / gpt-4o", "Zürich nightly"]
    assert "Failing and partial cases (2)" in text
    assert "  FAIL    accept [enum_format]" in text
    # the terminal shows hostile text verbatim: there is nothing to inject into
    assert HOSTILE in text


def test_render_markdown_escapes_html_and_pipes(card):
    md = render_markdown(card)
    assert "<script>" not in md
    assert "&lt;script&gt;alert(1)&lt;/script&gt;\\|x" in md
    row = next(r for r in md.splitlines() if r.startswith("| accept |"))
    # the escaped pipe keeps the table at its five columns (case, category, verdict, repeats, reasons)
    assert row.replace("\\|", "").count("|") == 6
    # a newline in model text would end the table row early
    assert next(r for r in md.splitlines() if r.startswith("| noncrit |")).endswith("sonnez\" |")


def test_render_markdown_sections(card):
    md = render_markdown(card)
    assert md.startswith("# ToolProof scorecard - openai / gpt-4o\n\n> Zürich nightly\n")
    for heading in ("## Rates", "## Categories", "## Cases"):
        assert f"\n{heading}\n" in md
    for key in METRIC_KEYS:
        assert f"| `{key}` |" in md
    assert md.endswith(" |\n")


# The heading carries the transcripts file's label, provider and model: a results file from
# someone else is as untrusted as model text.
def test_render_markdown_escapes_the_source():
    md = render_markdown(scorecard([], source={"label": "<img src=x onerror=alert(1)>", "model": "<b>m</b>"}))
    assert "<img" not in md and "<b>" not in md
