"""Every rate with what it rests on and an interval that never collapses (scoring/rates.py):
the counts agree with the rates, the unit says what was counted, and a rate over calls clustered
in a few cases is wider than the binomial on the calls would claim."""
from __future__ import annotations

import io
import json

import pytest

from toolproof.cli.main import run as cli
from toolproof.grading.verdicts import CREDIT, ERROR, FAIL, PASS, CaseResult, CheckedCall, blank_facts
from toolproof.scoring.intervals import clopper_pearson
from toolproof.scoring.rates import clustered_interval, rate_counts, rate_intervals
from toolproof.scoring.scorecard import METRIC_KEYS, metrics
from toolproof.providers.reply import Call

NAMES = (*METRIC_KEYS, "error_rate")


def grade_json(*argv: str) -> dict:
    out, err = io.StringIO(), io.StringIO()
    assert cli(["grade", "--format", "json", *argv], out, err) == 0, err.getvalue()
    return json.loads(out.getvalue())


CARD = grade_json()


def call(valid: bool = True, offered: bool = True) -> CheckedCall:
    return CheckedCall(1, Call("t", {}), offered, {} if valid else None, [])


def result(case_id: str, category: str = "should_call", verdict: str = PASS, calls: list | None = None,
           repeat: int = 0, **facts) -> CaseResult:
    found = {**blank_facts(expects_call=category == "should_call"), "observed": True, **facts}
    return CaseResult(case_id, category, verdict, CREDIT[verdict], [], verdict, CREDIT[verdict],
                      calls or [], found, "", repeat)


def test_the_counts_are_what_the_rates_divide():
    for key in METRIC_KEYS:
        c = CARD["rate_counts"][key]
        assert CARD["metrics"][key] == round(c["numerator"] / c["denominator"], 4), key
    e = CARD["rate_counts"]["error_rate"]
    assert (e["numerator"], e["denominator"], e["unit"]) == (CARD["counts"]["error"], CARD["counts"]["cases"], "case")


def test_every_rate_has_an_interval_around_it_that_is_never_a_point():
    assert set(CARD["intervals"]["rates"]) == set(NAMES) == set(CARD["rate_counts"])
    for key in NAMES:
        value = CARD["metrics"].get(key, CARD["error_rate"])
        bounds = CARD["intervals"]["rates"][key]
        assert bounds["low"] <= value <= bounds["high"] and bounds["high"] - bounds["low"] > 0, key
    assert CARD["intervals"]["rates"]["error_rate"]["high"] > 0 == CARD["error_rate"]   # 0 of 72 is not "0 for sure"


def test_units_name_what_was_counted():
    units = {k: v["unit"] for k, v in CARD["rate_counts"].items()}
    assert units["schema_valid_rate"] == units["hallucinated_tool_rate"] == "call"
    assert (units["correct_tool_rate"], units["argument_accuracy"]) == ("expected call", "expected field")
    # the fixtures hold phrasings: a case sent several times counts conversations, never "cases"
    assert units["over_call_rate"] == "conversation"
    once = [result("a", "should_not_call", called=True), result("b", "should_not_call")]
    assert rate_counts(once, once)["over_call_rate"] == {"numerator": 1, "denominator": 2, "unit": "case"}
    twice = once + [result("a", "should_not_call", repeat=1)]
    assert rate_counts(once, twice)["over_call_rate"] == {"numerator": 1, "denominator": 3, "unit": "conversation"}


def test_a_rate_with_nothing_to_count_is_null_and_so_is_its_interval():
    rows = [result("a", "should_call", calls=[call()])]
    assert metrics(rows)["over_call_rate"] is None
    assert rate_counts(rows, rows)["over_call_rate"] == {"numerator": 0, "denominator": 0, "unit": "case"}
    assert rate_intervals(rows, rows)["over_call_rate"] is None
    assert rate_intervals([], [])["error_rate"] is None


def test_error_results_count_only_in_the_error_rate():
    rows = [result("a", calls=[call()]), result("b", verdict=ERROR)]
    counts = rate_counts(rows, [rows[0]])
    assert counts["error_rate"] == {"numerator": 1, "denominator": 2, "unit": "case"}
    assert counts["schema_valid_rate"] == {"numerator": 1, "denominator": 1, "unit": "call"}


def test_one_unit_per_case_is_clopper_pearson_on_the_counts():
    assert clustered_interval([(1, 1)] * 9 + [(0, 1)]) == clopper_pearson(0.9, 10, 0.95)
    assert clustered_interval([]) is None and clustered_interval([(0, 0)]) is None


@pytest.mark.parametrize("clusters", [[(4, 4)] * 6, [(0, 4)] * 6, [(3, 3), (1, 1), (2, 2)], [(0, 5)]])
def test_no_interval_collapses_at_the_edges(clusters):
    low, high = clustered_interval(clusters)
    assert high - low > 0.05
    assert 0 <= low <= high <= 1


def test_calls_that_fail_together_get_a_wider_interval_than_the_calls_alone_would():
    # 20 cases of 5 calls each, every case all right or all wrong: 20 cases' worth of evidence, not 100 calls'
    clusters = [(5, 5)] * 14 + [(0, 5)] * 6
    low, high = clustered_interval(clusters)
    naive = clopper_pearson(0.7, 100, 0.95)
    assert high - low > 1.8 * (naive[1] - naive[0])
    per_case = clopper_pearson(0.7, 20, 0.95)
    assert high - low >= per_case[1] - per_case[0]       # no narrower than one unit per case
    # the same calls spread evenly over the cases: close to the binomial on the calls
    even = [(3, 5)] * 10 + [(4, 5)] * 10
    assert clustered_interval(even)[1] - clustered_interval(even)[0] < 1.1 * (naive[1] - naive[0])


def test_a_card_from_before_rate_counts_still_shows_its_rates():
    from toolproof.reports.html_scorecard import scorecard_html as render_html
    from toolproof.reports.scorecard import render_markdown, render_text

    old = {k: v for k, v in CARD.items() if k != "rate_counts"}
    old["intervals"] = {k: v for k, v in CARD["intervals"].items() if k not in ("rates", "rates_method")}
    shown = f"{CARD['metrics']['schema_valid_rate'] * 100:.1f}%"       # the fixtures' rate, as the views print it
    for text in (render_text(old), render_markdown(old), render_html(old)):
        assert shown in text and "95% CI: Clopper" not in text


def test_the_views_print_the_cards_fields_and_compute_nothing():
    from toolproof.reports.html_scorecard import scorecard_html
    from toolproof.reports.scorecard import render_markdown, render_text

    card = json.loads(json.dumps(CARD))
    card["rate_counts"]["schema_valid_rate"] = {"numerator": 7, "denominator": 1, "unit": "call"}
    card["intervals"]["rates"]["schema_valid_rate"] = {"low": 0.1234, "high": 0.5678}
    card["intervals"]["rates"]["error_rate"] = {"low": 0.0, "high": 0.4321}
    for text in (render_text(card), render_markdown(card), scorecard_html(card)):
        assert "7 of 1 call" in text and "12.3–56.8%" in text, text[:200]
    assert "(0.0%, 95% CI 0.0–43.2%)" in render_text(card)


@pytest.mark.parametrize("counts, bounds, shown", [
    ("x", [1], ""), ({"schema_valid_rate": None}, {"schema_valid_rate": "x"}, "n/a"),
    ({"schema_valid_rate": {"numerator": 1}}, {"schema_valid_rate": {"low": None, "high": 1}}, "n/a")])
def test_a_malformed_rates_block_reads_as_absent_never_a_traceback(counts, bounds, shown):
    from toolproof.reports.rates import rate_count_text, rate_interval_text

    card = {**CARD, "rate_counts": counts, "intervals": {**CARD["intervals"], "rates": bounds}}
    assert (rate_count_text(card, "schema_valid_rate"), rate_interval_text(card, "schema_valid_rate")) == ("", shown)
