"""Coverage of the plan (issue 20): a partial run never looks complete. Each finding of the
issue is reproduced here from a real run (the runner with the scripted transport) or a results
file, and the views are read as a user reads them."""
from __future__ import annotations

import asyncio
import copy
import json
import xml.etree.ElementTree as ET

import pytest

from repeatdocs import CALL_A, CALL_B, document
from suitefigures import CASES, FIXTURE_CONVERSATIONS, in_category
from scripted import Transport
from toolproof.datafiles import format_schema, load_bundle
from toolproof.grading.transcripts import parse_transcripts
from toolproof.reports.junit import junit_xml
from toolproof.reports.scorecard import (coverage_line, render_markdown, render_text, score_with_interval,
                                         statistics_lines)
from toolproof.running.runner import Run, RunSettings
from toolproof.scoring.cost import check_prices
from toolproof.scoring.evaluate import evaluate

SCHEMA = format_schema("transcripts")


@pytest.fixture(scope="module")
def data():
    return load_bundle()


def card(data, doc, **kw):
    return evaluate(data.cases, data.tools, parse_transcripts(doc, SCHEMA), **kw)


def run_doc(data, transport=None, **settings) -> tuple[Run, dict]:
    run = Run(data.cases, data.tools, RunSettings("openai", "m", "k", "", settings.pop("scope", "all"),
                                                  settings.pop("cap", 1000), pause_s=0, backoff_s=0.001,
                                                  **settings), transport or Transport())
    asyncio.run(run.run())
    return run, run.document(created="2026-12-01T00:00:00+00:00")


def test_the_fixtures_planned_what_they_hold(data):
    # every case in its base phrasing and the other phrasings it has fixtures for; one base answer is
    # an HTTP 500
    c = evaluate(data.cases, data.tools, data.transcripts)
    planned = FIXTURE_CONVERSATIONS
    assert c["coverage"] == {"planned": planned, "graded": planned - 1, "error": 1, "not_started": 0}
    assert list(c)[list(c).index("counts") + 1] == "coverage"      # beside the counts
    assert coverage_line(c) == f"{planned - 1} of {planned} conversations graded (1 ERROR)"
    from repeatdocs import FIXTURES            # the base phrasing's transcripts only
    assert coverage_line(card(data, FIXTURES)) == f"{CASES - 1} of {CASES} cases graded (1 ERROR)"


def test_a_run_the_cap_cut_to_10_requests_shows_no_full_size_score(data):
    # The issue: cap 10 with scope "All categories" graded 10 cases and showed "62.96 / 100".
    run, doc = run_doc(data, cap=10)
    c = card(data, doc)
    graded = len(run.transcripts)
    assert c["coverage"] == {"planned": CASES, "graded": graded, "error": 0, "not_started": CASES - graded}
    # issue 38: the JSON withholds the number as the views do, and says why
    assert (c["score"], c["intervals"]["score"], c["strict"]["score"], c["lenient"]["score"]) == (None,) * 4
    reason = f"only {graded} of {CASES} cases graded ({CASES - graded} not started), below half of the plan"
    assert c["no_score_reason"] == reason
    line = f"No score: {reason}"
    assert score_with_interval(c).startswith(line)
    text, md = render_text(c), render_markdown(c)
    assert line in text and "Score:" not in text and "CI" not in text.split("\n")[3]
    assert line in md
    root = ET.fromstring(junit_xml(c))
    assert root.get("name").startswith(f"toolproof: {line}; the graded cases are listed; {graded} cases: ")
    plan = root.find("testsuite[@name='coverage']/testcase[@name='plan']/error")
    assert plan is not None and plan.get("message").startswith("NOT STARTED:")


def test_aborting_after_one_case_does_not_show_a_zero_score_with_a_zero_interval(data):
    one = document({CALL_A: ["fail"]})
    one["settings"] = {"repeats": 1, "scope": "all"}
    c = card(data, one)
    shown = score_with_interval(c)
    assert "0.0" not in shown and "CI" not in shown
    assert shown.startswith(f"No score: only 1 of {CASES} cases graded ({CASES - 1} not started)")


def test_a_run_in_which_every_request_failed_draws_no_diagnosis(data):
    # The issue: such a run still said "Every expected tool was chosen right".
    failing = {c.id: [(503, {}, "{}")] * 3 for c in data.cases}
    from toolproof.running.transport import HttpReply
    transport = Transport({k: [HttpReply(*s, 1.0) for s in v] for k, v in failing.items()})
    run, doc = run_doc(data, transport, scope="should_call")
    assert run.state == "error"
    c = card(data, doc)
    # the runner stops once 5 conversations have failed with one status before any success (issues
    # 19 and 36), so five cases end in ERROR and the rest never start
    calls = in_category("should_call")
    assert c["coverage"] == {"planned": calls, "graded": 0, "error": 5, "not_started": calls - 5}
    assert c["diagnosis"] == {}
    assert score_with_interval(c) == (f"No score: nothing was graded (0 of {calls} cases graded (5 ERROR, "
                                      f"{calls - 5} not started))")
    assert "Diagnosis: none, no case was graded" in render_text(c)


def test_half_of_the_plan_graded_shows_the_score_with_the_partial_line(data):
    from repeatdocs import BY_ID
    passing = [c.id for c in data.cases if c.category == "distractor"
               and BY_ID[c.id].get("intended_verdict") == "PASS"]
    cases = in_category("distractor")

    def scoped(n: int) -> dict:
        doc = document({cid: ["pass"] for cid in passing[:n]})
        doc["scope"], doc["settings"] = "distractor", {"repeats": 1}
        return doc
    assert len(passing) >= max(3, cases // 2)
    below = card(data, scoped(2))
    assert score_with_interval(below).startswith(f"No score: only 2 of {cases} cases graded ({cases - 2} not started)")
    assert card(data, {**scoped(3), "scope": "all"})["coverage"]["planned"] == CASES
    # exactly half of the plan graded (half the cases twice, and one more once when their number is
    # odd, of every case twice): the score is shown, with the partial line beside it; one
    # conversation fewer, none
    other = next(c.id for c in data.cases if c.category == "distractor" and c.id in BY_ID and c.id not in passing)
    doc = document({**{cid: ["pass", "pass"] for cid in passing[:cases // 2]}, **({other: ["fail"]} if cases % 2 else {})})
    doc["scope"], doc["settings"] = "distractor", {"repeats": 2}
    exact = card(data, doc)
    assert exact["coverage"] == {"planned": 2 * cases, "graded": cases, "error": 0, "not_started": cases}
    assert exact["score"] is not None and exact["no_score_reason"] is None
    assert score_with_interval(exact).startswith(f"{exact['score']:.1f}")
    assert f"[{cases} of {2 * cases} conversations graded ({cases} not started)]" in render_text(exact)
    doc["transcripts"].pop()
    assert card(data, doc)["score"] is None


def test_repeats_count_in_the_plan(data):
    doc = document({CALL_A: ["pass", "pass"], CALL_B: ["pass", "fail", "error"]})
    doc["scope"], doc["settings"] = "should_call", {"repeats": 3}
    c = card(data, doc)
    planned = 3 * in_category("should_call")
    assert c["coverage"] == {"planned": planned, "graded": 4, "error": 1, "not_started": planned - 5}
    assert coverage_line(c) == f"4 of {planned} conversations graded (1 ERROR, {planned - 5} not started)"


@pytest.mark.parametrize("settings, scope", [
    ({"repeats": "3"}, "all"), ({"repeats": 10 ** 30}, "all"), ({"repeats": True}, "all"),
    ({"repeats": -1}, "all"), ({"repeats": float("nan")}, "all"), ({"pad": "0,8"}, "all"),
    ({"pad": [0, "x"]}, "all"), ({"pad": list(range(50))}, "all"), ({}, "no_such_scope"),
    ({}, ["all"]), ("not settings", "all"),
], ids=["string", "huge", "bool", "negative", "nan", "pad-text", "pad-junk", "pad-many", "scope",
        "scope-list", "settings-text"])
def test_a_plan_stated_badly_is_not_trusted_the_file_planned_what_it_holds(data, settings, scope):
    doc = document({CALL_A: ["pass"], CALL_B: ["fail"]})
    doc["settings"], doc["scope"] = settings, scope
    try:
        c = card(data, doc)
    except Exception as exc:                       # noqa: BLE001 - the format check may refuse it
        from toolproof.errors import ToolProofError
        assert isinstance(exc, ToolProofError) and "\n" not in str(exc)
        return
    assert c["coverage"] == {"planned": 2, "graded": 2, "error": 0, "not_started": 0}


def test_pass_k_says_which_k_an_error_repeat_left(data):
    # The issue: one ERROR repeat silently lowered k.
    doc = document({CALL_A: ["pass", "pass", "error"], CALL_B: ["pass", "pass", "pass"]})
    c = card(data, doc)
    assert list(c["reliability"]["pass_hat_k"]) == ["1", "2"]
    note = c["reliability"]["k_note"]
    assert note == f"k = 1..2 only (of 3 repeats): {CALL_A} has 2 graded repeats, 1 ERROR; ERROR repeats are not graded"
    assert any(note in line for line in statistics_lines(c))
    assert "k_note" not in card(data, document({CALL_A: ["pass", "fail"]}))["reliability"]


def sweep_run(data, drop: int = 0):
    run, doc = run_doc(data, scope="should_call", pad_levels=(0, 2))
    if drop:       # the last `drop` cases of the pad-2 level never ran
        doc["transcripts"] = doc["transcripts"][:-drop]
    return run, doc


def test_a_sweep_level_with_missing_cases_says_how_many_it_rests_on(data):
    _, doc = sweep_run(data, drop=3)
    c = card(data, doc)
    rows = {row["pad"]: row for row in c["sweep"]["levels"]}
    n = in_category("should_call")
    assert (rows[0]["cases"], rows[0]["cases_planned"]) == (n, n)
    assert (rows[2]["cases"], rows[2]["cases_planned"]) == (n - 3, n)
    assert rows[2]["coverage"] == {"planned": n, "graded": n - 3, "error": 0, "not_started": 3}
    assert c["coverage"] == {"planned": 2 * n, "graded": 2 * n - 3, "error": 0, "not_started": 3}
    from toolproof.reports.sweep import sweep_geometry
    g = sweep_geometry(c["sweep"])
    assert [p["hollow"] for p in g["points"]] == [False, True]
    assert g["partial"] == [f"pad 2: {n - 3} of {n} cases"] and g["tool_path"].startswith("M")
    assert f"pad 2: {n - 3} of {n} cases" in render_text(c) and f"pad 2: {n - 3} of {n} cases" in render_markdown(c)


def test_a_sweep_whose_last_level_never_started_counts_it_as_planned(data):
    _, doc = sweep_run(data)
    doc["transcripts"] = [t for t in doc["transcripts"] if t["pad"] == 0]
    c = card(data, doc)
    n = in_category("should_call")
    assert c["coverage"] == {"planned": 2 * n, "graded": n, "error": 0, "not_started": n}


def test_the_overall_cost_of_a_sweep_counts_every_level(data):
    # The issue: the overall card's cost tiles counted level 0 only.
    run, doc = sweep_run(data)
    c = card(data, doc, prices=check_prices(1.0, 1.0))
    assert c["cost"]["requests"] == run.used
    level0 = card(data, {**doc, "transcripts": [t for t in doc["transcripts"] if t["pad"] == 0],
                         "sweep": {"seed": 0, "levels": [0]}, "settings": {**doc["settings"], "pad": [0]}})
    assert level0["cost"]["requests"] < c["cost"]["requests"]
    assert json.dumps(c)                       # strict JSON as ever
