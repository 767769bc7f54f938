"""The scorecard over repeats: majority verdicts, mean credit, pass^k / pass@k, flaky cases,
ERROR exclusions, intervals and cost, on documents built by hand from the fixtures."""
from __future__ import annotations

from toolproof.scoring.intervals import METHOD

import copy
import json
import random

import pytest

from repeatdocs import CALL_A, CALL_B, FIXTURES, SUITE, document
from toolproof.scoring.cost import check_prices
from toolproof.datafiles import format_schema, load_bundle
from toolproof.errors import ToolProofError
from toolproof.scoring.evaluate import evaluate
from toolproof.suite.fingerprint import canonical_json, suite_sha256
from toolproof.reports.scorecard import to_json
from toolproof.grading.transcripts import parse_transcripts

SCHEMA = format_schema("transcripts")


@pytest.fixture(scope="module")
def data():
    return load_bundle()


def card(data, doc, **kw):
    return evaluate(data.cases, data.tools, parse_transcripts(doc, SCHEMA), **kw)


def rows(c):
    return {x["id"]: (x["verdict"], x["credit"], x["repeats"], x["passes"], x["flaky"]) for x in c["cases"]}


def test_repeats_give_majority_verdict_mean_credit_and_pass_hat_k(data):
    c = card(data, document({CALL_A: ["pass", "fail", "pass"], CALL_B: ["pass", "pass", "pass"]}))
    assert rows(c) == {CALL_A: ("PASS", 0.6667, ["PASS", "FAIL", "PASS"], 2, True),
                       CALL_B: ("PASS", 1.0, ["PASS", "PASS", "PASS"], 3, False)}
    # by hand: pass^k = C(c,k)/C(3,k) averaged: k=1 (2/3+1)/2, k=2 (1/3+1)/2, k=3 (0+1)/2
    assert c["reliability"] == {"pass_hat_k": {"1": 0.8333, "2": 0.6667, "3": 0.5},
                                "pass_at_k": {"1": 0.8333, "2": 1.0, "3": 1.0}, "flaky_cases": [CALL_A]}
    assert c["repeats"] == 3 and "repeats_note" not in c
    # the score stays the weighted mean of the rounded category scores
    assert c["categories"]["should_call"]["score"] == 0.8334 and c["score"] == 83.34


def test_a_tie_goes_to_the_worse_verdict(data):
    c = card(data, document({CALL_A: ["pass", "fail"]}))
    assert rows(c)[CALL_A] == ("FAIL", 0.5, ["PASS", "FAIL"], 1, True)
    assert c["counts"]["FAIL"] == 1 and c["categories"]["should_call"]["fail"] == 1


def test_error_repeats_are_not_graded_and_an_all_error_case_leaves_every_denominator(data):
    # 3 of 6 conversations graded: exactly half of what the file holds, so the card has a score
    c = card(data, document({CALL_A: ["pass", "pass", "pass", "error"], CALL_B: ["error", "error"]}))
    assert rows(c) == {CALL_A: ("PASS", 1.0, ["PASS", "PASS", "PASS", "ERROR"], 3, False),
                       CALL_B: ("ERROR", None, ["ERROR", "ERROR"], 0, False)}
    assert c["counts"]["error"] == 1 and c["error_rate"] == 0.5
    assert c["categories"]["should_call"] == {"score": 1.0, "weight": 20, "count": 2, "pass": 1, "partial": 0,
                                              "fail": 0, "error": 1}
    assert c["score"] == 100.0 and c["no_score_reason"] is None
    # pass^k over graded repeats only: CALL_A has 3 graded repeats, CALL_B none (left out)
    assert c["reliability"]["pass_hat_k"] == {"1": 1.0, "2": 1.0, "3": 1.0}
    # the rates count only the graded repeats: three emitted calls, schema-valid
    assert c["metrics"]["schema_valid_rate"] == 1.0 and c["metrics"]["under_call_rate"] == 0.0
    assert c["diagnosis"]["decide"]["should_call"] == {"called": 3, "not_called": 0}
    # one graded of four: below half, so the JSON has no score, no category score, no pass^k
    low = card(data, document({CALL_A: ["pass", "error"], CALL_B: ["error", "error"]}))
    assert (low["score"], low["categories"]["should_call"]["score"], low["reliability"]["pass_hat_k"]) == \
        (None, None, {"1": None})
    assert low["no_score_reason"] == "only 1 of 4 conversations graded (3 ERROR), below half of the plan"
    assert low["metrics"]["schema_valid_rate"] == 1.0          # a rate of what was graded stays


def test_unequal_repeats_are_noted_and_k_stops_at_the_fewest(data):
    c = card(data, document({CALL_A: ["pass", "pass", "fail"], CALL_B: ["pass"]}))
    assert c["repeats"] == 1
    assert c["repeats_note"] == ("cases were run between 1 and 3 times; pass^k and pass@k go up to "
                                 "k = the fewest graded repeats of a case")
    assert c["reliability"]["pass_hat_k"] == {"1": round((2 / 3 + 1) / 2, 4)}


def test_one_repeat_everywhere_gives_pass_hat_1_equal_to_the_pass_rate(data):
    c = card(data, FIXTURES)
    graded = c["counts"]["cases"] - c["counts"]["error"]
    assert c["reliability"]["pass_hat_k"] == {"1": round(c["counts"]["PASS"] / graded, 4)}
    assert c["reliability"]["pass_at_k"] == c["reliability"]["pass_hat_k"]
    assert c["reliability"]["flaky_cases"] == [] and c["repeats"] == 1
    assert all(x["repeats"] == [x["verdict"]] for x in c["cases"])


def test_a_regrade_is_byte_identical_whatever_the_order_of_the_file(data):
    doc = document({CALL_A: ["pass", "fail", "pass", "error"], CALL_B: ["fail", "pass", "pass", "pass"]},
                   elapsed_ms=250)
    shuffled = copy.deepcopy(doc)
    random.Random(4).shuffle(shuffled["transcripts"])
    assert to_json(card(data, doc)) == to_json(card(data, shuffled)) == to_json(card(data, json.loads(json.dumps(doc))))


def test_intervals_are_seeded_stratified_and_say_when_they_are_rough(data):
    c = card(data, FIXTURES)
    i = c["intervals"]
    assert (i["method"], i["level"]) == (METHOD, 0.95) and "over cases" in i["method"]
    assert i["score"]["low"] < c["score"] < i["score"]["high"]
    assert set(i["categories"]) == set(c["categories"])
    # the bundled suite has 10 or more cases in every category: no note; a run of two cases is rough
    assert all(row["count"] >= 10 for row in c["categories"].values()) and "note" not in i
    all_pass = card(data, document({CALL_A: ["pass"], CALL_B: ["pass"]}))["intervals"]
    assert all_pass["note"].startswith("rough: fewer than 10 cases in should_call")
    # a category whose cases all pass is not certain: Clopper-Pearson for 2 of 2 is 16%-100%, never zero width
    assert all_pass["categories"]["should_call"] == {"low": 0.1581, "high": 1.0}
    assert all_pass["score"]["low"] < 100.0 == all_pass["score"]["high"]


def test_cost_counts_requests_tokens_latency_and_prices(data):
    doc = document({CALL_A: ["pass", "fail", "error"], CALL_B: ["pass"]}, elapsed_ms=None)
    for t, ms in zip(doc["transcripts"], (100, 300, None, 200)):
        for turn in t["turns"]:
            if ms is not None:
                turn["elapsed_ms"] = ms
    tokens_in = sum(t["turns"][0]["response"]["usage"]["input_tokens"] for t in doc["transcripts"] if "response" in t["turns"][0])
    tokens_out = sum(t["turns"][0]["response"]["usage"]["output_tokens"] for t in doc["transcripts"] if "response" in t["turns"][0])
    c = card(data, doc, prices=check_prices(3.0, 15.0))
    usd = round((tokens_in * 3 + tokens_out * 15) / 1e6, 6)
    assert c["cost"] == {"requests": 4, "input_tokens": tokens_in, "output_tokens": tokens_out,
                         "latency_ms": {"mean": 200.0, "p50": 200.0, "p95": 290.0, "max": 300.0, "answered": 3},
                         "prices": {"input_per_mtok": 3.0, "output_per_mtok": 15.0},
                         "usd": usd, "usd_per_passing_run": round(usd / 2, 6), "passing_runs": 2}
    none_pass = card(data, document({CALL_A: ["fail"]}), prices=check_prices(1, 1))
    assert none_pass["cost"]["usd_per_passing_run"] is None and none_pass["cost"]["latency_ms"] is None
    assert "usd" not in card(data, doc)["cost"]


@pytest.mark.parametrize("junk", [float("nan"), -5, "12", True, None, 1e308 * 10])
def test_hostile_timings_and_usage_are_ignored_not_raised(data, junk):
    doc = document({CALL_A: ["pass"]})
    turn = doc["transcripts"][0]["turns"][0]
    turn["response"]["usage"] = {"input_tokens": junk, "output_tokens": -3}
    turn["elapsed_ms"] = junk
    # NaN and infinity cannot pass the file's own check of elapsed_ms as a JSON number only
    c = evaluate(data.cases, data.tools, parse_transcripts(doc, {"type": "object"}))
    assert c["cost"]["input_tokens"] in (0,) and c["cost"]["output_tokens"] == 0
    assert c["cost"]["latency_ms"] is None


@pytest.mark.parametrize("price_in, price_out, message", [
    (1.0, None, "give both --price-in and --price-out (USD per million tokens)"),
    (float("nan"), 1.0, "--price-in must be a finite number >= 0 (USD per million tokens), got nan"),
    (1.0, -2.0, "--price-out must be a finite number >= 0 (USD per million tokens), got -2.0"),
])
def test_bad_prices_are_refused(price_in, price_out, message):
    with pytest.raises(ToolProofError) as exc:
        check_prices(price_in, price_out)
    assert exc.value.line() == message


def test_suite_fingerprint_ignores_key_order_and_whitespace_but_not_values():
    same = json.loads(json.dumps(SUITE, indent=3, sort_keys=True))
    assert suite_sha256(same) == suite_sha256(SUITE)
    assert canonical_json({"b": 1, "a": "é"}) == '{"a":"é","b":1}'
    changed = copy.deepcopy(SUITE)
    changed["cases"][0]["prompt"] += " "
    assert suite_sha256(changed) != suite_sha256(SUITE)
    assert len(suite_sha256(SUITE)) == 64
