"""compare's JUnit: a flip is a <failure> only when the regression gate fails (issue 38: flips
within noise failed the CI job's test report while `--fail-on-regression` passed it)."""
from __future__ import annotations

import xml.etree.ElementTree as ET

from toolproof.reports.junit import comparison_junit
from toolproof.scoring.comparison import compare_runs, regression_gate


def summary(verdicts: list[str], ids: list[str] | None = None) -> dict:
    """A run summary by hand: should_call cases with these verdicts, one repeat each."""
    ids = ids or [f"c{i}" for i in range(len(verdicts))]
    cases = {cid: {"category": "should_call", "passes": int(v == "PASS"), "graded": 1, "repeats": 1,
                   "verdict": v, "credit": {"PASS": 1.0, "PARTIAL": 0.5, "FAIL": 0.0}[v]}
             for cid, v in zip(ids, verdicts)}
    return {"label": {"repeats": 1}, "suite_sha256": "s", "cases": cases}


def parsed(comparison: dict) -> tuple[ET.Element, dict]:
    root = ET.fromstring(comparison_junit(comparison))
    cases = {(s.get("name"), c.get("name")): c for s in root.iter("testsuite") for c in s.iter("testcase")}
    return root, cases


def test_a_flip_within_noise_is_a_passing_case_with_a_note():
    comparison = compare_runs(summary(["PASS"] * 9), summary(["FAIL"] + ["PASS"] * 8))
    assert regression_gate(comparison) is None and comparison["comparison"]["flips"]["regressed"] == ["c0"]
    root, cases = parsed(comparison)
    assert (root.get("failures"), root.get("errors")) == ("0", "0")
    flipped = cases[("should_call", "c0")]
    assert flipped.find("failure") is None
    assert flipped.find("system-out").text == ("REGRESSED within noise (the regression gate passes): "
                                               "A PASS (1/1 pass) -> B FAIL (0/1 pass)")
    gate = cases[("gate", "regression")]
    assert gate.find("failure") is None
    assert gate.find("system-out").text.startswith("no significant change; a drop of up to ")


def test_when_the_gate_fails_every_flip_fails_and_so_does_the_gate():
    comparison = compare_runs(summary(["PASS"] * 9), summary(["FAIL"] * 6 + ["PASS"] * 3))
    gate = regression_gate(comparison)
    assert gate is not None
    root, cases = parsed(comparison)
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("10", "7", "0")
    for i in range(6):
        failure = cases[("should_call", f"c{i}")].find("failure")
        assert failure.get("type") == "REGRESSED" and failure.text.endswith("\n" + gate)
    assert cases[("should_call", "c6")].find("failure") is None
    assert cases[("gate", "regression")].find("failure").get("message") == "GATE FAILED: " + gate


def test_identical_runs_have_no_failure():
    same = summary(["PASS", "FAIL", "PARTIAL"] * 3)
    root, cases = parsed(compare_runs(same, same))
    assert (root.get("failures"), root.get("errors")) == ("0", "0")
    assert all(c.find("system-out") is None for (suite, _), c in cases.items() if suite != "gate")


def test_hostile_case_ids_stay_well_formed_in_both_outcomes():
    ids = ["<x>&\x01\ufffe", "]]>\u202e", *(f"c{i}" for i in range(7))]
    for b in (["FAIL"] + ["PASS"] * 8, ["FAIL"] * 6 + ["PASS"] * 3):
        root, cases = parsed(compare_runs(summary(["PASS"] * 9, ids), summary(b, ids)))
        assert ("should_call", "<x>&\\u0001\\ufffe") in cases
