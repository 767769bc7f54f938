"""Comparing two runs: suite checks, flips by majority PASS, paired deltas, McNemar, the gate."""
from __future__ import annotations

import pytest

from repeatdocs import CALL_A, CALL_B, SUITE, document
from toolproof.datafiles import format_schema, load_bundle
from toolproof.errors import ToolProofError
from toolproof.suite.fingerprint import suite_sha256
from toolproof.scoring.comparison import compare_runs, graded_run, regression_gate

SHA = suite_sha256(SUITE)


@pytest.fixture(scope="module")
def data():
    return load_bundle()


def run(data, plan, **kw):
    return graded_run(document(plan, **{"suite_sha256": SHA, **kw}), data.cases, data.tools,
                      format_schema("transcripts"), "run.json")


def test_flips_scores_paired_interval_and_mcnemar(data):
    a = run(data, {CALL_A: ["pass", "pass", "fail"], CALL_B: ["fail", "fail", "pass"]}, model="old")
    b = run(data, {CALL_A: ["fail", "fail", "pass"], CALL_B: ["pass", "pass", "fail"]}, model="new")
    c = compare_runs(a, b)["comparison"]
    assert c["runs"]["a"] == {"kind": "live", "provider": "anthropic", "model": "old",
                              "created": "2026-11-30T10:00:00+00:00", "repeats": 3}
    assert c["flips"] == {"regressed": [CALL_A], "improved": [CALL_B]}
    assert c["mcnemar"] == {"regressed": 1, "improved": 1, "p_value": 1.0}
    # both runs score (2/3 + 1/3) / 2; the interval spans drawing only one of the two cases (credits are
    # rounded to 4 places per case, so 0.6667 - 0.3333 = 0.3334)
    assert c["score"] == {"a": 50.0, "b": 50.0, "delta": 0.0, "low": -33.34, "high": 33.34}
    assert c["regression"] is False and regression_gate({"comparison": c}) is None
    assert [(r["id"], r["a"], r["b"], r["flip"]) for r in c["cases"]][0] == (
        CALL_A, {"passes": 2, "repeats": 3, "verdict": "PASS"}, {"passes": 1, "repeats": 3, "verdict": "FAIL"}, "regressed")


def test_a_regression_beyond_noise_fails_the_gate_naming_the_cases(data):
    a = run(data, {CALL_A: ["pass"] * 3, CALL_B: ["pass"] * 3})
    b = run(data, {CALL_A: ["fail"] * 3, CALL_B: ["fail", "fail", "pass"]})
    comparison = compare_runs(a, b)
    c = comparison["comparison"]
    # B's category score: (0 + 0.3333) / 2 rounded to 4 places = 0.1666 (as the scorecard rounds)
    assert c["score"] == {"a": 100.0, "b": 16.66, "delta": -83.34, "low": -100.0, "high": -66.67}
    assert c["categories"]["should_call"] == {"a": 1.0, "b": 0.1666, "delta": -0.8334, "low": -1.0, "high": -0.6667}
    assert c["mcnemar"]["p_value"] == 0.5        # 2 flips one way: 2 * (1/2)^2
    assert regression_gate(comparison) == (
        "regression: score 100.0 -> 16.66 (delta -83.34, 95% CI -100.0 to -66.67, entirely below 0); "
        f"regressed cases: {CALL_A}, {CALL_B}")


def test_error_cases_leave_flips_and_scores(data):
    a = run(data, {CALL_A: ["pass"], CALL_B: ["pass"]})
    b = run(data, {CALL_A: ["error"], CALL_B: ["pass"]})
    c = compare_runs(a, b)["comparison"]
    assert c["errored"] == [CALL_A] and c["flips"] == {"regressed": [], "improved": []}
    assert (c["score"]["a"], c["score"]["b"], c["score"]["delta"]) == (100.0, 100.0, 0.0)


def test_comparing_a_run_with_itself_is_all_zero(data):
    a = run(data, {CALL_A: ["pass", "fail"], CALL_B: ["pass", "pass"]})
    c = compare_runs(a, a)["comparison"]
    assert (c["score"]["delta"], c["score"]["low"], c["score"]["high"]) == (0.0, 0.0, 0.0)
    assert c["mcnemar"] == {"regressed": 0, "improved": 0, "p_value": 1.0}


@pytest.mark.parametrize("sha_a, sha_b, message", [
    (None, SHA, "run A records no suite_sha256, so the two runs cannot be shown to use the same suite; "
                "pass --allow-mixed to compare the case ids they share"),
    (SHA, "f" * 64, "the two runs used different suites (suite_sha256 differs); pass --allow-mixed to "
                    "compare the case ids they share"),
])
def test_other_suites_are_refused_unless_mixing_is_allowed(data, sha_a, sha_b, message):
    a = graded_run(document({CALL_A: ["pass"], CALL_B: ["pass"]}, suite_sha256=sha_a), data.cases, data.tools,
                   format_schema("transcripts"), "a.json")
    b = run(data, {CALL_A: ["fail"]}, suite_sha256=sha_b)
    with pytest.raises(ToolProofError) as exc:
        compare_runs(a, b)
    assert exc.value.line() == message
    c = compare_runs(a, b, allow_mixed=True)["comparison"]
    assert c["suite"] == {"same": False, "mixed": True, "shared_cases": 1, "only_a": 1, "only_b": 0}
    assert [r["id"] for r in c["cases"]] == [CALL_A]


def test_a_bare_scorecard_is_refused_with_the_reason(data):
    with pytest.raises(ToolProofError) as exc:
        graded_run({"toolproof": "1", "cases": []}, data.cases, data.tools, format_schema("transcripts"), "card.json")
    assert exc.value.line().startswith("card.json: this is a scorecard, not a results file")
