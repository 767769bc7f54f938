"""The four-way decision diagnosis (issue 40): the observed decision of a reply (grading/decision.py)
against hand-labelled replies in three languages, the 4x4 table and its figures on a worked
example, expected labels from the case (never its category's name), the seeded interval, and
the views showing the block's fields ("N of M", the method).
"""
from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from conftest import error, openai
from toolproof.grading.decision import ASK, ANSWER, CALL, DECLINE, decision_of
from toolproof.reports import four_way as view
from toolproof.reports.scorecard import diagnosis_lines, diagnosis_markdown
from toolproof.scoring import diagnose
from toolproof.scoring.four_way import expected_decision, four_way, interval, macro_f1
from toolproof.suite.model import PhraseRules

LABELLED = json.loads((Path(__file__).parent / "decision_replies.json").read_text(encoding="utf-8"))["replies"]
LOOK = {"order_id": "ORD-123456"}
GOOD = {"order_id": "ORD-123456", "qty": 2, "ship_on": "2026-03-04"}


@pytest.mark.parametrize("item", LABELLED, ids=lambda r: f"{r['lang']}-{r['label']}-{r['reply'][:30]}")
def test_a_reply_with_no_call_is_read_as_a_careful_reader_labels_it(item):
    assert decision_of(False, item["reply"]) == item["label"], item["why"]


def test_the_labelled_table_covers_every_label_in_every_language():
    slots = {(r["lang"], r["label"]) for r in LABELLED}
    assert slots == {(lang, label) for lang in ("en", "pt", "es") for label in (ASK, ANSWER, DECLINE)}
    assert len(LABELLED) >= 40


def test_a_call_is_a_call_whatever_the_text_says():
    assert decision_of(True, "I can't do that. Which day?") == CALL


def _declining(mini, cid: str = "nocall", category: str | None = None):
    """The mini suite's no-call case with declines: true (and maybe another category name)."""
    case = mini.cases[cid]
    rules = PhraseRules((), (), (), None, True, (), None)
    return replace(case, expect=replace(case.expect, final_text=rules), category=category or case.category)


def test_expected_labels_come_from_the_case_not_its_category(mini):
    assert [expected_decision(mini.cases[c]) for c in ("call", "ask", "nocall")] == [CALL, ASK, ANSWER]
    assert expected_decision(_declining(mini)) == DECLINE                       # a should_not_call that declines
    assert expected_decision(replace(mini.cases["nocall"], category="cannot_do")) == ANSWER   # a name decides nothing


def test_the_table_counts_observed_first_turns_and_its_figures_follow(mini):
    cases = {**mini.cases, "cant": replace(_declining(mini), id="cant")}
    results = [
        mini("call", openai(("place_order", GOOD))),                     # call -> call
        mini("call", openai(text="Which day should it ship?")),          # call -> ask
        mini("ask", openai(text="How many should I order?")),            # ask -> ask
        mini("ask", openai(("place_order", GOOD))),                      # ask -> call
        mini("nocall", openai(text="Lisbon is the capital.")),           # answer -> answer
        mini("nocall", openai(text="I can't help with that.")),          # answer -> decline
        replace(mini("nocall", openai(text="I can't move orders with these tools.")), case_id="cant"),  # decline -> decline
        mini("call", openai(("place_order", GOOD), finish="length")),    # cut off: not observed
        mini("call", error(429, "rate limited")),                        # ERROR: not observed
    ]
    fw = four_way(results, cases)
    assert fw["labels"] == ["call", "ask", "answer", "decline"]
    assert fw["confusion"] == [[1, 1, 0, 0], [1, 1, 0, 0], [0, 0, 1, 1], [0, 0, 0, 1]]
    assert (fw["covers"], fw["of"]) == (7, 9) and fw["covers"] == sum(map(sum, fw["confusion"]))
    assert fw["per_label"]["decline"] == {"precision": 0.5, "recall": 1.0, "f1": 0.6667, "expected": 1, "observed": 2}
    assert fw["per_label"]["answer"]["precision"] == 1.0 and fw["per_label"]["answer"]["recall"] == 0.5
    # F1: call 2*1/(2+2) = 0.5, ask 0.5, answer 2*1/(2+1) = 0.6667, decline 0.6667; mean 0.5833
    assert fw["macro_f1"] == 0.5833
    assert "percentile bootstrap over cases" in fw["method"]
    assert diagnose.decide(results, cases)["four_way"] == fw


def test_macro_f1_leaves_out_a_label_no_case_expects():
    flat = [3, 0, 0, 1,  0, 2, 0, 0,  0, 0, 0, 0,  0, 0, 0, 0]    # answer, decline never expected
    # call: 3 right of 4 expected, observed 3 -> 2*3/(4+3) = 6/7; ask 2*2/(2+2) = 1; decline observed
    # once but never expected: left out
    assert macro_f1(flat) == pytest.approx((6 / 7 + 1.0) / 2)
    assert macro_f1([0] * 16) is None


def test_the_interval_is_seeded_over_cases_and_null_with_one_case():
    cells = [[0] * 16 for _ in range(12)]
    for i, c in enumerate(cells):
        c[0 if i % 3 else 1] += 2            # a call case right twice, or asked twice
        c[5] += i % 2                        # and half of them hold an ask conversation too
    first = interval(cells, resamples=300, seed=7)
    # the same bytes every time, and on every runtime: SplitMix64 draws, no `random`, no numpy
    assert first == interval(cells, resamples=300, seed=7) == {"low": 0.4441, "high": 0.9845}
    assert 0 <= first["low"] <= macro_f1([sum(c[k] for c in cells) for k in range(16)]) <= first["high"] <= 1
    assert interval(cells[:1], resamples=300) is None               # one case: nothing to resample
    # a case's conversations go together: one case holding all 24 cannot vary at all
    assert interval([[sum(c[k] for c in cells) for k in range(16)]], resamples=300) is None


def test_every_view_shows_the_table_its_coverage_and_method(mini):
    results = [mini("call", openai(("place_order", GOOD))), mini("ask", openai(text="How many?")),
               mini("nocall", openai(text="Lisbon."))]
    fw = four_way(results, mini.cases)
    line = view.summary(fw)
    assert "3 of 3 conversations" in line and "no case expects decline" in line
    text = "\n".join(view.text_lines(fw))
    markdown = "\n".join(view.markdown_lines(fw))
    html = "".join(view.html_parts(fw))
    for shown in (text, markdown, html):
        assert "percentile bootstrap over cases" in shown and "3 of 3 conversations" in shown
    assert "| call | 1 | 0 | 0 | 0 | 100.0% |" in markdown
    assert "<table class=\"four-way\">" in html
    assert view.present({"should_call": {}}) is None                 # an older card: nothing drawn, no error


def test_the_scorecard_views_carry_the_block(mini):
    results = [mini("call", openai(("place_order", GOOD))), mini("ask", openai(text="How many?"))]
    card = {"diagnosis": diagnose.diagnosis(results, list(mini.cases.values()), mini.tools, {}),
            "counts": {"cases": 2}, "coverage": {"planned": 2, "graded": 2}}
    text = "\n".join(diagnosis_lines(card))
    assert "four ways:" in text and "2 of 2 conversations" in text
    assert "four ways:" not in "\n".join(diagnosis_lines(card, four_ways=False))     # the HTML draws its own
    assert "### Decide: four ways" in "\n".join(diagnosis_markdown(card))


def test_the_interval_is_expanded_for_the_fewest_cases_of_a_label():
    from toolproof.scoring.four_way import expanded_level, fewest, percentile_bounds, resampled
    cells = [[0] * 16 for _ in range(14)]
    for i, c in enumerate(cells):
        c[0 if i < 10 else 5] += 1 + (i % 2)         # 10 call cases, 4 ask cases
        c[1] += i < 10 and i % 3 == 0                # some call conversations asked instead
    assert fewest(cells) == 4 and fewest([[0] * 16]) == 0
    assert expanded_level(4) > expanded_level(30) > 0.95 and expanded_level(1) == 0.95
    values = resampled(cells, resamples=200, seed=3)
    shipped, plain = interval(cells, resamples=200, seed=3), percentile_bounds(values)
    assert shipped["low"] <= plain["low"] and shipped["high"] >= plain["high"]


@pytest.mark.parametrize("text", ["\x00\u202e?" * 5000, "\"" * 9999 + "Which day?", "> Which day?\n# Why?\n",
                                  "Would you like me to help? " * 3000, "\ud800 I can't", "?" * 20000])
def test_a_hostile_reply_gets_a_label_and_never_raises(text):
    assert decision_of(False, text) in (ASK, ANSWER, DECLINE)
