"""scoring/withhold.py: the one rule that writes a score's absence into the scorecard (issue 38)."""
from __future__ import annotations

import copy

from suitefigures import CASES, in_category
from viewsagree import BUNDLE, run_document
from toolproof.datafiles import format_schema
from toolproof.grading.transcripts import parse_transcripts
from toolproof.scoring.evaluate import evaluate
from toolproof.scoring.scorecard import scorecard
from toolproof.scoring.withhold import UNWEIGHTED, withhold

SWEEP = run_document("should_call", pad_levels=(0, 4))
CAPPED = run_document("all", cap=10)
CALLS = in_category("should_call")          # SWEEP's cases at each pad level


def card_of(doc: dict, **kw) -> dict:
    return evaluate(BUNDLE.cases, BUNDLE.tools, parse_transcripts(doc, format_schema("transcripts")), **kw)


def test_the_reason_sits_after_the_score_and_withholding_twice_changes_nothing():
    for card in (card_of(CAPPED), card_of(SWEEP)):
        keys = list(card)
        assert keys[keys.index("score") + 1] == "no_score_reason"
        assert withhold(card) == card and list(withhold(card)) == keys


def test_below_half_every_scored_number_is_null_and_what_was_counted_stays():
    card = card_of(CAPPED)
    assert card["no_score_reason"] == f"only 10 of {CASES} cases graded ({CASES - 10} not started), below half of the plan"
    assert card["counts"]["cases"] == 10 and card["coverage"]["graded"] == 10
    assert card["metrics"]["correct_tool_rate"] is not None and card["error_rate"] == 0
    assert [c["verdict"] for c in card["cases"]] == [c["verdict"] for c in card_of(CAPPED)["cases"]]


def test_an_older_card_that_kept_its_number_is_brought_to_the_rule():
    card = card_of(CAPPED)
    old = {**copy.deepcopy(card), "score": 48.76, "intervals": {**card["intervals"], "score": {"low": 15.69, "high": 81.85}}}
    old.pop("no_score_reason")
    assert withhold(old) == card


def test_with_every_weight_zero_only_the_score_is_null_and_the_reason_says_why():
    zero = {c: 0 for c in card_of(SWEEP)["weights"]}
    card = card_of(SWEEP, weights=zero)
    assert (card["score"], card["no_score_reason"]) == (None, UNWEIGHTED)
    assert all(row["score"] is not None for row in card["categories"].values())
    assert card["intervals"]["categories"] and card["coverage"]["graded"] == card["coverage"]["planned"]


def test_nothing_graded_says_so_even_without_a_plan():
    assert scorecard([])["no_score_reason"] == "nothing was graded"


def test_a_sweep_whose_main_level_alone_is_below_half_says_which_level():
    # level 0 keeps 2 of its cases, level 4 all: above half of the conversations graded, but the
    # score is level 0's, resting on 2 cases: no score, and the reason names the level
    doc = copy.deepcopy(SWEEP)
    level0 = [t for t in doc["transcripts"] if t.get("pad") == 0]
    doc["transcripts"] = [t for t in doc["transcripts"] if t.get("pad") != 0 or t in level0[:2]]
    card = card_of(doc)
    assert card["coverage"] == {"planned": 2 * CALLS, "graded": CALLS + 2, "error": 0, "not_started": CALLS - 2}
    assert card["score"] is None
    assert card["no_score_reason"] == (f"at pad level 0, only 2 of {CALLS} cases graded ({CALLS - 2} not started), "
                                       "below half of the plan")
    levels = {row["pad"]: row for row in card["sweep"]["levels"]}
    assert levels[0]["score"] is None and levels[4]["score"] is not None and levels[4]["no_score_reason"] is None
