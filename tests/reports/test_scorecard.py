"""Rendering a scorecard: byte-stable JSON, readable text, and Markdown that carries no raw HTML."""
from __future__ import annotations

import json

import pytest

from conftest import openai
from htmlcheck import assert_inert
from toolproof.reports.html_scorecard import scorecard_html
from toolproof.reports.scorecard import (better, percent, render_markdown, render_text, results_json, score_text,
                                         to_json)
from toolproof.safe_text import printable
from toolproof.scoring.scorecard import METRIC_KEYS, scorecard
from toolproof.selftest.kit import with_facts

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
    card = scorecard([])
    assert (card["score"], card["no_score_reason"]) == (None, "nothing was graded")
    text = render_text(card)
    assert "No score: nothing was graded\n" in text and "Score:" not in text
    # the nine rates, and the one line under the categories saying why no category is scored
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


def test_a_label_or_model_cannot_make_a_link_an_image_or_code_in_markdown():
    # Found by review: a label "![pixel](https://evil.example/t.png)" rendered as an image (a
    # tracking pixel in a CI summary) and a model "[m](https://evil.example)" as a link.
    md = render_markdown(scorecard([], source={"label": "![pixel](https://evil.example/t.png) `x`",
                                               "model": "[m](https://evil.example/m)"}))
    assert "![pixel](" not in md and "[m](" not in md and "`x`" not in md
    assert "!\\[pixel\\](https\\://evil.example/t.png) \\`x\\`" in md and "\\[m\\](https\\://evil.example/m)" in md


# ---- control characters from a file or a model are shown escaped, never obeyed ----------------

# ESC [2J clears a terminal; CR overwrites the line; C1 CSI; DEL; RLO and LRI reorder text;
# U+2028 is a line break to some viewers.
CONTROLS = "\x1b[2J\rFAKE\x9b31m\x7f\u202eevil\u2066\u2028x\x00"
ESCAPED = "\\x1b[2J\\x0dFAKE\\x9b31m\\x7f\\u202eevil\\u2066\\u2028x\\x00"


@pytest.mark.parametrize("text, shown", [
    (CONTROLS, ESCAPED),
    ("tab\there", "tab\\x09here"),
    ("Zürich → “ok” …", "Zürich → “ok” …"),        # ordinary non-ASCII text is left alone
])
def test_printable(text, shown):
    assert printable(text) == shown


@pytest.fixture(scope="module")
def hostile_card(mini):
    results = [mini("nocall", openai(text="fine")),
               mini("call", openai(("place_order", {**GOOD, "note": CONTROLS}), ("lookup", {"order_id": CONTROLS})))]
    return scorecard(results, source={"kind": "live", "label": "night\nScore: 100.00" + CONTROLS,
                                      "provider": "openai\x1b[31m", "model": "m\u202e"})


@pytest.mark.parametrize("render", [render_text, render_markdown])
def test_no_control_character_reaches_text_or_markdown(hostile_card, render):
    out = render(hostile_card)
    assert not [c for c in out if c != "\n" and (ord(c) < 0x20 or 0x7f <= ord(c) <= 0x9f
                                                  or c in "\u202e\u2066\u2028")]
    assert "\\x1b" in out and "\\u202e" in out
    # a newline in the label does not forge a line of its own
    assert "\nScore: 100.00" not in out


def test_markdown_cells_stay_one_line(hostile_card):
    rows = [line for line in render_markdown(hostile_card).splitlines() if line.startswith("| call |")]
    assert len(rows) == 1 and rows[0].endswith(" |")


# ---- strict JSON --------------------------------------------------------------------------------

def test_to_json_never_emits_nan_and_names_where_it_was(card):
    bad = {**card, "score": float("nan"), "metrics": {**card["metrics"], "over_call_rate": float("-inf")}}
    text = to_json(bad)

    def refuse(name):
        raise AssertionError(f"non-strict JSON: {name}")
    back = json.loads(text, parse_constant=refuse)
    assert back["score"] is None and back["metrics"]["over_call_rate"] is None
    assert back["notes"] == ["non-finite number at $.metrics.over_call_rate replaced by null",
                             "non-finite number at $.score replaced by null"]
    assert to_json(card) == to_json(json.loads(to_json(card)))      # a clean card has no notes
    assert "notes" not in json.loads(to_json(card))


def test_results_json_is_strict_too(card):
    text = results_json({"format": "toolproof.transcripts", "elapsed": float("inf")}, card)
    assert json.loads(text)["elapsed"] is None
    assert json.loads(text)["notes"] == ["non-finite number at $.elapsed replaced by null"]


def test_a_lone_surrogate_never_reaches_an_output(card):
    # Only a value built by code (not read by the reader) can hold one; UTF-8 cannot write it.
    bad = {**card, "source": {**card["source"], "label": "x\ud800y"}}
    back = json.loads(to_json(bad))
    assert back["source"]["label"] == "x\ufffdy"
    assert back["notes"] == ["lone surrogate at $.source.label replaced by U+FFFD"]
    to_json(bad).encode("utf-8")
    assert "x\\ud800y" in render_text(bad) and "x\\ud800y" in render_markdown(bad)
    render_text(bad).encode("utf-8")


# Issue 35: injection measured apart. Compliance is better low, utility better high, side by side:
# every view says which way each rate is good, beside the rate.
@pytest.fixture(scope="module")
def attacked():
    return scorecard([with_facts("by-call", injection_observed=True, forbidden_called=True, task_done=False),
                      with_facts("in-words", injection_observed=True, injection_claimed=True, task_done=False),
                      with_facts("done", "PASS", injection_observed=True, task_done=True),
                      with_facts("wrong", injection_observed=True, task_done=False),
                      with_facts("unseen", observed=False, called=False)])


def test_every_rate_says_which_way_is_better():
    assert [better(k)[0] for k in METRIC_KEYS] == ["↑", "↑", "↑", "↓", "↓", "↓", "↓", "↓", "↑"]
    assert better("injection_compliance_rate") == "↓ lower is better"
    assert better("utility_under_attack") == "↑ higher is better"


def test_text_shows_both_injection_rates_with_their_direction(attacked):
    lines = render_text(attacked).splitlines()
    assert "Rates (↑ higher is better, ↓ lower is better)" in lines
    row = {line.split()[0]: line for line in lines if line.strip().split(" ")[0] in METRIC_KEYS}
    assert row["injection_compliance_rate"].split()[1:3] == ["50.0%", "↓"]
    assert row["utility_under_attack"].split()[1:3] == ["25.0%", "↑"]
    assert "still did the user's task" in row["utility_under_attack"]


def test_markdown_shows_both_injection_rates_with_their_direction(attacked):
    md = render_markdown(attacked).splitlines()
    assert "| metric | value | 95% CI | of | better | meaning |" in md
    # a card without intervals (scoring.scorecard alone) leaves the interval cell empty, never "n/a"
    assert any(r.startswith("| `injection_compliance_rate` | 50.0% |  | 2 of 4 cases | ↓ lower is better | ") for r in md)
    assert any(r.startswith("| `utility_under_attack` | 25.0% |  | 1 of 4 cases | ↑ higher is better | ") for r in md)


def test_html_shows_both_injection_rates_with_their_direction(attacked):
    text = " ".join(assert_inert(scorecard_html(attacked, [])).text)
    assert "Injection compliance 50.0% 2 of 4 cases ↓ lower is better" in " ".join(text.split())
    assert "Utility under attack 25.0% 1 of 4 cases ↑ higher is better" in " ".join(text.split())
