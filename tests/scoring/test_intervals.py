"""intervals: the closed-form intervals the scorecard and compare show, pinned by hand."""
from __future__ import annotations

import math

import pytest

from math import comb

from toolproof.scoring.intervals import (METHOD, beta_cdf, card_intervals, clopper_pearson, delta_intervals,
                                         paired_intervals, score_intervals, t_value, wilson, z_value)

Z = z_value(0.95)
CATS = ["a"] * 9 + ["b"] * 9


@pytest.mark.parametrize("df, exact", [(1, 12.7062), (2, 4.3027), (3, 3.1824), (4, 2.7764), (8, 2.3060),
                                       (30, 2.0423), (10_000, 1.9602)])
def test_t_quantile_is_close_to_the_table(df, exact):
    # the Cornish-Fisher expansion is within 0.004 from 3 df up; 1 and 2 df are exact closed forms
    assert t_value(0.95, df) == pytest.approx(exact, abs=0.004)


@pytest.mark.parametrize("mean, n, low, high", [
    (1.0, 9, 0.7009, 1.0),          # 9 of 9: never a zero-width interval
    (0.0, 9, 0.0, 0.2991),
    (0.5, 10, 0.2366, 0.7634),
    (1.0, 1, 0.2065, 1.0),
])
def test_wilson_by_hand(mean, n, low, high):
    got = wilson(mean, n, Z)
    assert (round(got[0], 4), round(got[1], 4)) == (low, high)


def test_wilson_refuses_no_cases():
    with pytest.raises(ValueError):
        wilson(0.5, 0, Z)


@pytest.mark.parametrize("mean, n, low, high", [
    (1.0, 9, 0.6637, 1.0),          # 9 of 9: never a zero-width interval (Wilson: 0.7009)
    (0.0, 9, 0.0, 0.3363),
    (8 / 9, 9, 0.5175, 0.9972),     # Wilson's 0.9801 left a true 0.98-0.997 out of every 8 of 9
    (0.5, 10, 0.1871, 0.8129),
    (1.0, 1, 0.025, 1.0),
    (0.0, 1, 0.0, 0.975),
])
def test_clopper_pearson_by_hand(mean, n, low, high):
    # the published exact bounds: the beta quantiles at x = n * mean
    got = clopper_pearson(mean, n, 0.95)
    assert (round(got[0], 4), round(got[1], 4)) == (low, high)


def test_clopper_pearson_takes_fractional_counts_between_its_neighbours():
    # 8.5 of 9 (a PARTIAL among eight passes) lies between 8 of 9 and 9 of 9, both ends
    below, mid, above = (clopper_pearson(x / 9, 9, 0.95) for x in (8, 8.5, 9))
    assert below[0] < mid[0] < above[0] and below[1] < mid[1] <= above[1]


@pytest.mark.parametrize("x, a, b, exact", [
    (0.5, 1, 1, 0.5), (0.3, 2, 1, 0.09), (0.3, 1, 2, 0.51),      # closed forms: x, x^2, 1 - (1 - x)^2
    (0.9, 9.5, 0.5, 0.1625499990),                                # scipy.stats.beta.cdf
])
def test_beta_cdf_by_hand(x, a, b, exact):
    assert beta_cdf(x, a, b) == pytest.approx(exact, abs=1e-9)


@pytest.mark.parametrize("bad", [0, -3])
def test_clopper_pearson_refuses_no_cases(bad):
    with pytest.raises(ValueError):
        clopper_pearson(0.5, bad, 0.95)


def test_a_category_interval_covers_every_true_rate_at_nine_pass_fail_cases():
    # issue 38: Wilson covered 0.84 at a true rate of 0.02 (and 0.98), a third of all rates below 0.95;
    # the shipped category interval, summed exactly over the binomial, never falls below 95%
    def covers(p: float) -> float:
        total = 0.0
        for x in range(10):
            _, per = score_intervals([1.0] * x + [0.0] * (9 - x), ["a"] * 9, {"a": 1}, 0.95)
            if per["a"]["low"] <= p <= per["a"]["high"]:
                total += comb(9, x) * p ** x * (1 - p) ** (9 - x)
        return total

    assert min(covers(i / 200) for i in range(1, 200)) >= 0.95


def test_the_score_interval_by_hand():
    # a: nine 1s; smoothed by 3/8 of a case at 0 and at 1: mean 9.375/9.75
    # b: 1,0 x4 and 0.5: mean 0.5, variance (2 + 0.1875) / 8.75 = 0.25; score 75 +- t * 50 * sqrt((v_a + v_b) / 9),
    # t with Welch-Satterthwaite df: (v_a + v_b)^2 / (v_a^2 + v_b^2) * 8.75 (each category 9 - 1 + 0.75)
    m = 9.375 / 9.75
    v_a = (9 * (1 - m) ** 2 + 0.375 * (m ** 2 + (1 - m) ** 2)) / 8.75
    credits = [1.0] * 9 + [1, 0, 1, 0, 1, 0, 1, 0, 0.5]
    score, per = score_intervals(credits, CATS, {"a": 1, "b": 1}, 0.95)
    df = (v_a + 0.25) ** 2 / (v_a ** 2 + 0.25 ** 2) * 8.75
    assert 11 < df < 12
    half = t_value(0.95, df) * 50 * math.sqrt((v_a + 0.25) / 9)
    assert score["low"] == pytest.approx(75 - half, abs=1e-9) and score["high"] == pytest.approx(75 + half, abs=1e-9)
    assert card_intervals(credits, CATS, {"a": 1, "b": 1})["score"] == {"low": round(75 - half, 2), "high": round(75 + half, 2)}
    assert per["a"]["low"] == pytest.approx(0.6637, abs=1e-4)


def test_the_score_interval_stays_on_the_scale_and_says_over_cases():
    got = card_intervals([1.0] * 18, CATS, {"a": 1, "b": 1})
    assert got["score"]["high"] == 100.0 and got["score"]["low"] < 100.0
    assert got["method"] == METHOD and "over cases" in got["method"] and "rough" in got["note"]
    assert "note" not in card_intervals([1.0] * 20, ["a"] * 10 + ["b"] * 10, {"a": 1, "b": 1})


def test_no_cases_or_no_weight_gives_no_score_interval():
    assert card_intervals([], [], {"a": 1})["score"] is None
    assert card_intervals([1.0, 0.0], ["a", "a"], {"a": 0})["score"] is None


def test_a_run_against_itself_is_symmetric_about_zero():
    credits = [1, 0, 0.5, 1, 1, 0, 1, 0, 1] * 2
    got = paired_intervals(credits, credits, CATS, {"a": 1, "b": 1})
    assert got["score"]["low"] == -got["score"]["high"] < 0
    assert "paired t" in got["method"] and "over cases" in got["method"]


def test_a_category_of_one_case_cannot_be_judged():
    score, per = delta_intervals([1.0, 1.0, 1.0], [0.0, 0.0, 0.0], ["a", "b", "b"], {"a": 1, "b": 1}, 0.95)
    assert per["a"] == {"low": -1.0, "high": 1.0} and score == {"low": -100.0, "high": 100.0}
    # ... unless its weight is 0: then only b counts
    score, _ = delta_intervals([1.0, 1.0, 1.0], [0.0, 0.0, 0.0], ["a", "b", "b"], {"a": 0, "b": 1}, 0.95)
    assert score["high"] <= 100.0 and score["low"] == -100.0


def test_a_clear_regression_lies_below_zero():
    got = paired_intervals([1.0] * 18, [0.0] * 18, CATS, {"a": 1, "b": 1})
    assert got["score"]["high"] < 0 and got["score"]["low"] >= -100.0


def test_paired_runs_need_the_same_cases():
    with pytest.raises(ValueError):
        delta_intervals([1.0], [1.0, 0.0], ["a"], {"a": 1}, 0.95)


def test_delta_p_value_is_the_interval_inverted():
    from toolproof.scoring.intervals import delta_intervals, delta_p_value

    weights = {"should_call": 1, "must_ask": 1}
    cats = ["should_call"] * 12 + ["must_ask"] * 12
    a = [1.0, 0.0, 1.0, 1.0, 0.5, 1.0, 0.0, 1.0, 1.0, 1.0, 0.0, 1.0] * 2
    b = [0.0, 0.0, 1.0, 0.0, 0.5, 1.0, 0.0, 0.0, 1.0, 0.5, 0.0, 1.0] * 2
    p = delta_p_value(a, b, cats, weights)
    assert 0 < p < 1
    just_in, _ = delta_intervals(a, b, cats, weights, 1 - p - 1e-6)     # a hair narrower: excludes 0
    just_out, _ = delta_intervals(a, b, cats, weights, 1 - p + 1e-6)    # a hair wider: holds 0
    assert just_in["high"] < 0 <= just_out["high"]
    assert delta_p_value(a, a, cats, weights) == 1.0                     # no difference at all
    assert delta_p_value([1.0, 1.0], [0.0, 0.0], ["should_call", "must_ask"], weights) == 1.0   # one case each
    assert delta_p_value([1.0] * 4, [0.0] * 4, ["should_call"] * 4, weights) < 0.05     # smoothed: not 0
    assert delta_p_value([], [], [], weights) is None
