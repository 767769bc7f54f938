"""What the page shows, computed in CPython: whiskers, filters, cost tiles, flip rows."""
from __future__ import annotations

from toolproof.reports.board import RATE_SHORT
from toolproof.reports.page_view import (METRIC_LABELS, chart_bars, cost_tiles, flip_rows, id_prefix, interval_text,
                                         visible_cases)
from toolproof.reports.scorecard import METRIC_HELP
from toolproof.scoring.scorecard import METRIC_KEYS


def test_chart_whiskers_follow_the_interval_and_an_errored_category_is_empty():
    geometry = chart_bars({"should_call": {"score": 0.5}, "injection": {"score": None}}, width=556, label_width=100,
                          intervals={"should_call": {"low": 0.25, "high": 1.0}, "injection": {"low": 0, "high": 1}})
    call, injection = geometry["bars"]
    assert geometry["span"] == 400 and call["width"] == 200.0
    assert call["whisker"] == {"x1": 200.0, "x2": 500.0, "y": 11.0}
    assert (injection["width"], injection["text"], injection["whisker"]) == (0, "n/a", None)
    assert chart_bars({"should_call": {"score": 1.0}})["bars"][0]["whisker"] is None


def test_flaky_and_error_filters():
    cases = [{"id": "a", "category": "should_call", "verdict": "PASS", "flaky": True},
             {"id": "b", "category": "should_call", "verdict": "ERROR", "flaky": False},
             {"id": "c", "category": "injection", "verdict": "FAIL"}]
    assert visible_cases(cases, flaky="flaky") == ["a"]
    assert visible_cases(cases, verdict="ERROR") == ["b"]
    assert visible_cases(cases) == ["a", "b", "c"]


def test_cost_tiles_with_and_without_prices():
    cost = {"requests": 3, "input_tokens": 10, "output_tokens": 2, "prices": None,
            "latency_ms": {"mean": 200.4, "p50": 199.5, "p95": 290.0, "max": 300.0, "answered": 3}}
    assert [t[2] for t in cost_tiles(cost)] == ["3", "10", "2", "200 ms", "200 ms", "290 ms", "300 ms"]
    priced = {**cost, "latency_ms": None, "usd": 0.5, "usd_per_passing_run": None, "passing_runs": 0}
    assert cost_tiles(priced)[3][2] == "n/a" and cost_tiles(priced)[-2:] == [
        ("usd", "Cost (USD)", "$0.5000"), ("usd_per_passing_run", "USD per passing run (0 passed)", "n/a (no passing run)")]
    assert cost_tiles(None) == []


def test_flip_rows_list_only_flipped_cases_with_their_majority_verdicts():
    comparison = {"comparison": {"cases": [
        {"id": "x", "category": "should_call", "a": {"passes": 3, "repeats": 3, "verdict": "PASS"},
         "b": {"passes": 1, "repeats": 3, "verdict": "FAIL"}, "flip": "regressed"},
        {"id": "y", "category": "should_call", "a": {"passes": 3, "repeats": 3, "verdict": "PASS"},
         "b": {"passes": 3, "repeats": 3, "verdict": "PASS"}, "flip": None}]}}
    assert flip_rows(comparison) == [{"id": "x", "category": "should_call", "from": "PASS", "to": "FAIL",
                                      "flip": "regressed", "text": "3/3 → 1/3 pass"}]


def test_id_prefix_marks_the_fixtures_apart_from_every_live_card():
    # the page promises #fixture-* and #live-* ids (e.g. #fixture-filter-verdict, #live-diagnosis)
    assert [id_prefix(k) for k in ("fixture", "live", "other", "kept")] == ["fixture", "live", "live", "kept"]


def test_interval_text_is_a_tooltip_or_nothing():
    assert interval_text({"low": 0.552, "high": 0.684}) == "95% CI 55%–68% over cases"
    assert interval_text(None) == "" and interval_text({}) == ""


def test_every_rate_has_a_label_a_meaning_and_a_board_column():
    # a rate added to the scorecard (issue 35: utility_under_attack) is named in every view
    assert list(METRIC_LABELS) == list(METRIC_HELP) == list(RATE_SHORT) == list(METRIC_KEYS)
