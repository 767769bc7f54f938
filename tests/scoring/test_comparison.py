"""Comparing two runs: suite checks, flips as verdict changes, paired deltas, McNemar, the gate."""
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
    assert c["mcnemar"] == {"regressed": 1, "improved": 1, "p_value": 1.0, "cases": 2, "left_out": 0}
    # two cases of one category: a paired t with 1 degree of freedom cannot rule out anything
    assert c["score"] == {"a": 50.0, "b": 50.0, "delta": 0.0, "low": -100.0, "high": 100.0}
    assert c["regression"] is False and regression_gate({"comparison": c}) is None
    assert [(r["id"], r["a"], r["b"], r["flip"]) for r in c["cases"]][0] == (
        CALL_A, {"passes": 2, "repeats": 3, "verdict": "PASS"}, {"passes": 1, "repeats": 3, "verdict": "FAIL"}, "regressed")


def summary(verdicts: list[str], graded: int = 1) -> dict:
    """A run summary by hand: nine should_call cases with these verdicts."""
    cases = {f"c{i}": {"category": "should_call", "passes": graded * (v == "PASS"), "graded": graded, "repeats": graded,
                       "verdict": v, "credit": {"PASS": 1.0, "PARTIAL": 0.5, "FAIL": 0.0}[v]}
             for i, v in enumerate(verdicts)}
    return {"label": {"repeats": graded}, "suite_sha256": "s", "cases": cases}


def test_a_regression_beyond_noise_fails_the_gate_naming_the_cases():
    a = summary(["PASS"] * 9)
    b = summary(["FAIL"] * 6 + ["PASS"] * 3)
    comparison = compare_runs(a, b)
    c = comparison["comparison"]
    assert c["score"] == {"a": 100.0, "b": 33.33, "delta": -66.67, "low": -100.0, "high": -23.26}
    assert c["mcnemar"]["p_value"] == 0.03125 and c["regression"] is True
    assert c["verdict"] == "REGRESSION: B scores 23 to 100 points lower (the whole 95% interval of the delta is below 0)"
    assert regression_gate(comparison) == (
        "regression: score 100.0 -> 33.33 (delta -66.67, 95% CI -100.0 to -23.26 over cases, entirely below 0); "
        "cases whose verdict fell from PASS: c0, c1, c2, c3, c4, c5")


def test_the_gate_and_the_verdict_agree_when_partial_credit_moves_the_score():
    # every case went PASS -> PARTIAL: the score fell 50 points, no verdict flipped to FAIL... but every
    # verdict changed from PASS, so the flips and the interval tell the same story
    c = compare_runs(summary(["PASS"] * 9), summary(["PARTIAL"] * 9))["comparison"]
    assert c["regression"] is True and c["verdict"].startswith("REGRESSION")


def test_a_small_drop_is_reported_as_what_could_not_be_ruled_out():
    c = compare_runs(summary(["PASS"] * 9), summary(["FAIL"] + ["PASS"] * 8))["comparison"]
    assert c["regression"] is False and regression_gate({"comparison": c}) is None
    assert c["verdict"].startswith("no significant change; a drop of up to ")


def test_unequal_repeats_leave_cases_out_of_flips_and_mcnemar():
    a, b = summary(["PASS"] * 9, graded=1), summary(["FAIL"] * 9, graded=2)
    c = compare_runs(a, b)["comparison"]
    assert c["flips"] == {"regressed": [], "improved": []}
    assert c["mcnemar"]["p_value"] is None and c["mcnemar"]["left_out"] == 9
    assert c["mcnemar"]["note"].startswith("not tested: every case was graded a different number of times")


def test_a_flip_is_a_change_of_verdict():
    # PASS (2/4) against PASS (3/5) was once listed as "improved" (majority of repeats); both verdicts are PASS
    a, b = summary(["PASS"] * 9, graded=4), summary(["PASS"] * 9, graded=4)
    b["cases"]["c0"]["passes"] = 3
    a["cases"]["c0"]["passes"] = 2
    assert compare_runs(a, b)["comparison"]["flips"] == {"regressed": [], "improved": []}


def test_error_cases_leave_flips_and_scores(data):
    a = run(data, {CALL_A: ["pass"], CALL_B: ["pass"]})
    b = run(data, {CALL_A: ["error"], CALL_B: ["pass"]})
    c = compare_runs(a, b)["comparison"]
    assert c["errored"] == [CALL_A] and c["flips"] == {"regressed": [], "improved": []}
    assert (c["score"]["a"], c["score"]["b"], c["score"]["delta"]) == (100.0, 100.0, 0.0)


def test_comparing_a_run_with_itself_is_all_zero(data):
    a = run(data, {CALL_A: ["pass", "fail"], CALL_B: ["pass", "pass"]})
    c = compare_runs(a, a)["comparison"]
    assert c["score"]["delta"] == 0.0 and c["score"]["low"] == -c["score"]["high"] and c["regression"] is False
    assert c["mcnemar"] == {"regressed": 0, "improved": 0, "p_value": 1.0, "cases": 2, "left_out": 0}


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


def test_two_identical_runs_lead_with_no_case_changed_verdict(data):
    # issue 38: byte-identical runs read "a drop of up to 6 points cannot be ruled out" before anything
    # said that no case had changed
    from toolproof.reports.comparison import render_comparison_text

    doc = document({CALL_A: ["pass", "fail"], CALL_B: ["pass", "pass"]}, suite_sha256=SHA)
    comparison = compare_runs(*(graded_run(doc, data.cases, data.tools, format_schema("transcripts"), name)
                                for name in ("a.json", "b.json")))
    c = comparison["comparison"]
    assert c["verdicts_changed"] == 0
    assert c["verdict"].startswith("no case changed verdict (2 cases graded in both, each with the same credit); "
                                   "no significant change: over other cases like these, a drop of up to ")
    lines = render_comparison_text(comparison).splitlines()
    assert lines[4].startswith("Verdict: no case changed verdict") and lines[5].startswith("Score: ")


def test_credits_that_move_within_verdicts_say_so():
    # PASS 3/3 -> PASS 2/3 on every case: no verdict changed, but the credits did
    a, b = summary(["PASS"] * 9, graded=3), summary(["PASS"] * 9, graded=3)
    for case in b["cases"].values():
        case["credit"] = 2 / 3
    c = compare_runs(a, b)["comparison"]
    assert c["verdicts_changed"] == 0 and c["regression"] is True
    assert c["verdict"].startswith("REGRESSION: B scores ") and c["verdict"].endswith(
        "; no case changed verdict (9 cases graded in both), but credits fell")
    b["cases"]["c0"]["credit"] = 1.0          # one case back: still no verdict change, not identical
    for case in list(b["cases"].values())[1:]:
        case["credit"] = 1.0
    b["cases"]["c8"]["credit"] = 2 / 3
    c = compare_runs(a, b)["comparison"]
    assert c["verdict"].startswith("no case changed verdict (9 cases graded in both); no significant change")


def test_a_changed_verdict_is_counted_and_the_interval_leads():
    c = compare_runs(summary(["PASS"] * 9), summary(["PARTIAL"] + ["PASS"] * 8))["comparison"]
    assert c["verdicts_changed"] == 1 and c["verdict"].startswith("no significant change; a drop of up to ")


def test_a_run_of_errors_only_has_no_verdict_change_to_claim(data):
    # nothing graded in both runs: no "no case changed verdict" (it would claim agreement over zero cases)
    a = run(data, {CALL_A: ["error"]})
    c = compare_runs(a, a)["comparison"]
    assert c["verdict"] == "no verdict: no case was graded in both runs" and c["verdicts_changed"] == 0
