"""stats: every formula pinned on inputs small enough to compute by hand."""
from __future__ import annotations

import pytest

from toolproof.scoring.stats import (BOOTSTRAP_METHOD, SeededDraws, bootstrap, mcnemar, paired_bootstrap, resampled_means,
                             pass_at_k, pass_hat_k, percentiles, quantile, reliability)


@pytest.mark.parametrize("c, n, k, hat, at", [
    (0, 4, 1, 0.0, 0.0),            # never passes
    (4, 4, 3, 1.0, 1.0),            # always passes
    (2, 4, 1, 0.5, 0.5),            # k = 1: both are c / n
    (2, 4, 2, 1 / 6, 5 / 6),        # C(2,2)/C(4,2); 1 - C(2,2)/C(4,2)
    (3, 4, 4, 0.0, 1.0),            # k = n: pass^n needs every repeat, pass@n any
    (4, 4, 4, 1.0, 1.0),
    (1, 5, 2, 0.0, 0.4),            # 1 - C(4,2)/C(5,2) = 1 - 6/10
])
def test_pass_k_by_hand(c, n, k, hat, at):
    assert pass_hat_k(c, n, k) == pytest.approx(hat)
    assert pass_at_k(c, n, k) == pytest.approx(at)


@pytest.mark.parametrize("c, n, k", [(5, 4, 1), (-1, 4, 1), (2, 4, 0), (2, 4, 5)])
def test_pass_k_refuses_impossible_counts(c, n, k):
    with pytest.raises(ValueError):
        pass_hat_k(c, n, k)


def test_reliability_averages_over_cases_up_to_the_smallest_repeat_count():
    # unequal repeats: (1 of 2) and (3 of 3); k runs to 2, the smaller n
    got = reliability([(1, 2), (3, 3)])
    assert got == {"pass_hat_k": {"1": 0.75, "2": 0.5}, "pass_at_k": {"1": 0.75, "2": 1.0}}


def test_reliability_of_three_cases_by_hand():
    got = reliability([(2, 4), (4, 4), (0, 4)])
    assert got["pass_hat_k"] == {"1": 0.5, "2": 0.3889, "3": 0.3333, "4": 0.3333}
    assert got["pass_at_k"] == {"1": 0.5, "2": 0.6111, "3": 0.6667, "4": 0.6667}


def test_reliability_ignores_cases_without_graded_repeats():
    assert reliability([]) == {"pass_hat_k": {}, "pass_at_k": {}}
    assert reliability([(0, 0), (1, 1)]) == {"pass_hat_k": {"1": 1.0}, "pass_at_k": {"1": 1.0}}


@pytest.mark.parametrize("values, q, want", [
    ([1, 2, 3, 4], 0.5, 2.5), ([1, 2, 3, 4], 0.0, 1), ([1, 2, 3, 4], 1.0, 4),
    ([1, 2, 3, 4], 0.25, 1.75), ([7], 0.95, 7), ([0, 10], 0.975, 9.75),
])
def test_quantile_interpolates_between_order_statistics(values, q, want):
    assert quantile(values, q) == pytest.approx(want)


def test_percentiles_sort_first_and_name_each_point():
    assert percentiles([400, 100, 300, 200], [0.5, 0.95]) == {"p50": 250, "p95": pytest.approx(385)}
    assert percentiles([], [0.5]) == {}


def test_splitmix64_matches_the_reference_sequence():
    draws = SeededDraws(0)      # published SplitMix64 outputs for seed 0
    assert [draws.next64() for _ in range(3)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4,
                                                  0x06C45D188009454F]


def test_below_stays_in_range_and_covers_it():
    draws = SeededDraws(7)
    seen = [draws.below(3) for _ in range(3000)]
    assert set(seen) == {0, 1, 2}
    assert all(800 < seen.count(v) < 1200 for v in range(3))
    assert {SeededDraws(1).below(1) for _ in range(5)} == {0}
    with pytest.raises(ValueError):
        draws.below(0)


CATS = ["a"] * 9 + ["b"] * 9
WEIGHTS = {"a": 1, "b": 1}


def test_bootstrap_is_determined_by_its_seed():
    credits = [1, 0, 0.5, 1, 1, 0, 1, 0, 1] * 2
    first = bootstrap(credits, CATS, WEIGHTS, resamples=300, seed=5)
    assert first == bootstrap(credits, CATS, WEIGHTS, resamples=300, seed=5)
    assert first != bootstrap(credits, CATS, WEIGHTS, resamples=300, seed=6)
    assert first["method"] == BOOTSTRAP_METHOD and first["resamples"] == 300 and first["seed"] == 5
    low, high = first["score"]["low"], first["score"]["high"]
    assert 0 <= low < 100 * sum(credits) / len(credits) < high <= 100


def test_bootstrap_is_stratified_by_category():
    # a is always right, b always wrong: a resample that kept the category sizes can only ever
    # give category means 1 and 0, so the score cannot move from 50; pooled resampling would.
    got = bootstrap([1] * 9 + [0] * 9, CATS, WEIGHTS, resamples=500)
    assert got["score"] == {"low": 50.0, "high": 50.0}
    assert got["categories"] == {"a": {"low": 1.0, "high": 1.0}, "b": {"low": 0.0, "high": 0.0}}


def test_bootstrap_weights_the_categories_like_the_score():
    got = bootstrap([1] * 9 + [0] * 9, CATS, {"a": 3, "b": 1}, resamples=50)
    assert got["score"] == {"low": 75.0, "high": 75.0}
    assert bootstrap([1] * 18, CATS, {"a": 0, "b": 0}, resamples=50)["score"] is None


def test_bootstrap_notes_rough_categories_and_handles_no_cases():
    got = bootstrap([1, 0], ["a", "b"], WEIGHTS, resamples=20)
    assert "rough" in got["note"] and "a, b" in got["note"]
    assert "note" not in bootstrap([1, 0] * 5, ["a"] * 10, WEIGHTS, resamples=20)
    assert bootstrap([], [], WEIGHTS)["score"] is None


def test_paired_bootstrap_cancels_shared_noise():
    credits = [1, 0, 0.5, 1, 1, 0, 1, 0, 1] * 2
    same = paired_bootstrap(credits, credits, CATS, WEIGHTS, resamples=200)
    assert same["score"] == {"low": 0.0, "high": 0.0}
    everything = paired_bootstrap([0] * 18, [1] * 18, CATS, WEIGHTS, resamples=200)
    assert everything["score"] == {"low": 100.0, "high": 100.0}
    assert everything["categories"]["a"] == {"low": 1.0, "high": 1.0}
    with pytest.raises(ValueError):
        paired_bootstrap([1], [1, 0], ["a"], WEIGHTS)


def test_paired_delta_counts_only_the_flipped_case():
    # B = A with one case of category a flipped to PASS. A resample's delta is then
    # 100 * 1/2 * (times that case was drawn) / 9: never negative, 0 when it was not drawn
    # (chance (8/9)^9 = 35%), and drawn 4 or more times less than 2.5% of the time.
    a = [1, 0, 1, 0, 1, 0, 1, 0, 1] * 2
    b = list(a)
    b[1] = 1
    got = paired_bootstrap(a, b, CATS, WEIGHTS, resamples=1000)
    assert got["score"]["low"] == 0.0
    assert 100 / 18 <= got["score"]["high"] <= round(100 * 3 / 18, 2)
    assert got["categories"]["b"] == {"low": 0.0, "high": 0.0}


@pytest.mark.parametrize("b, c, p", [
    (0, 0, 1.0), (3, 0, 0.25), (5, 1, 0.21875), (1, 1, 1.0), (0, 6, 0.03125), (10, 0, 0.001953),
])
def test_mcnemar_exact_by_hand(b, c, p):
    assert mcnemar(b, c) == {"regressed": b, "improved": c, "p_value": p}


def test_below_many_draws_exactly_what_repeated_below_draws():
    # the bootstrap's fast path must not change a single seeded figure
    one, many = SeededDraws(99), SeededDraws(99)
    for n in (1, 3, 9, 72, 2 ** 63 + 5):
        assert many.below_many(n, 50) == [one.below(n) for _ in range(50)]
    assert one.state == many.state


def test_cached_draws_give_the_same_intervals_for_any_weights():
    # the page draws once and recomputes the score's interval when a weight changes
    credits, categories = [1.0, 0.5, 0.0, 1.0, 1.0, 0.0], ["a", "a", "a", "b", "b", "c"]
    cached = resampled_means([credits], categories, resamples=500)
    for weights in ({"a": 1, "b": 1, "c": 1}, {"a": 5, "b": 0, "c": 2}, {"a": 0, "b": 0, "c": 0}):
        assert bootstrap(credits, categories, weights, resamples=500, resampled=cached) == \
            bootstrap(credits, categories, weights, resamples=500)
