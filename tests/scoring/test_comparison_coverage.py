"""Compare says when a run was incomplete and lists the cases that ran on one side only (issue
20), beside its statistics and without changing them."""
from __future__ import annotations

import pytest

from repeatdocs import CALL_A, CALL_B, SUITE, document
from suitefigures import in_category
from toolproof.datafiles import format_schema, load_bundle
from toolproof.reports.comparison import render_comparison_markdown, render_comparison_text
from toolproof.scoring.comparison import compare_runs, graded_run
from toolproof.suite.fingerprint import suite_sha256

SHA = suite_sha256(SUITE)
CALLS = in_category("should_call")       # the scope of the runs below


@pytest.fixture(scope="module")
def data():
    return load_bundle()


def run(data, plan, *, settings=None, **kw):
    doc = document(plan, **{"suite_sha256": SHA, **kw})
    if settings is not None:
        doc["scope"], doc["settings"] = "should_call", settings
    return graded_run(doc, data.cases, data.tools, format_schema("transcripts"), "run.json")


def test_a_run_cut_short_is_named_and_its_extra_cases_listed(data):
    a = run(data, {CALL_A: ["pass"], CALL_B: ["pass"]}, settings={"repeats": 1})
    b = run(data, {CALL_A: ["fail"]}, settings={"repeats": 1})
    c = compare_runs(a, b)["comparison"]
    assert c["coverage"] == {
        "only_a": [CALL_B], "only_b": [],
        "a": {"planned": CALLS, "graded": 2, "error": 0, "not_started": CALLS - 2},
        "b": {"planned": CALLS, "graded": 1, "error": 0, "not_started": CALLS - 1}, "complete": False}
    text = render_comparison_text({"comparison": c})
    assert f"Run A is incomplete: 2 of {CALLS} planned conversations graded ({CALLS - 2} not started)" in text
    assert f"Run B is incomplete: 1 of {CALLS} planned conversations graded ({CALLS - 1} not started)" in text
    assert f"Ran in A only (1, not compared): {CALL_B}" in text
    assert f"Ran in A only (1, not compared): {CALL_B}" in render_comparison_markdown({"comparison": c})
    # the statistics rest on the shared case only, as before
    assert c["suite"]["shared_cases"] == 1 and c["flips"]["regressed"] == [CALL_A]


def test_two_complete_runs_say_nothing_more(data):
    a, b = run(data, {CALL_A: ["pass"], CALL_B: ["pass"]}), run(data, {CALL_A: ["pass"], CALL_B: ["fail"]})
    c = compare_runs(a, b)["comparison"]
    assert c["coverage"]["complete"] is True and c["coverage"]["only_a"] == c["coverage"]["only_b"] == []
    assert "incomplete" not in render_comparison_text({"comparison": c})


def test_the_compared_line_says_which_cases_an_error_left_out(data):
    """The page shows only the first paragraph ("Compared: 2 cases"): it must say there that a
    case with ERROR in a run was left out, as the text's later "Not graded in both runs" does."""
    a = run(data, {CALL_A: ["pass"], CALL_B: ["pass"]}, settings={"repeats": 1})
    b = run(data, {CALL_A: ["fail"], CALL_B: ["error"]}, settings={"repeats": 1})
    c = compare_runs(a, b)["comparison"]
    assert c["errored"] == [CALL_B]
    first = render_comparison_text({"comparison": c}).split("\n\n")[0]
    assert f"Compared: 2 cases, same suite; 1 case left out, ERROR in a run ({CALL_B})" in first
