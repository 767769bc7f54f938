"""The results file planned before anything is sent (running/results_size.py): the requests
exactly, the replies by their allowance, and the lines a plan or a run is stopped with."""
from __future__ import annotations

import asyncio

import pytest

from fakeprovider import case_and_turn, replay, wire_of
from toolproof.datafiles import load_suite_files
from toolproof.grading.results_text import ResultsText, results_text
from toolproof.providers.catalog import PROVIDERS
from toolproof.running import results_size
from toolproof.running.results_size import Planned, plan_problem, planned, started_items, stop_line
from toolproof.running.runner import Run, RunSettings
from toolproof.running.transport import HttpReply

BUNDLE = load_suite_files()


async def replayed(url: str, headers: dict, body: dict, timeout: float) -> HttpReply:
    case_id, turn = case_and_turn(url, body)
    status, out, text = replay(case_id, turn, wire_of(url), body)
    return HttpReply(status, out, text, 5.0)


def a_run(provider: str, scope: str, repeats: int, cap: int = 10**5) -> Run:
    base = "http://127.0.0.1:9/v1" if provider == "openai-compatible" else ""
    return Run(BUNDLE.cases, BUNDLE.tools, RunSettings(provider, "m", "sk-x", base, scope, cap, pause_s=0,
                                                         repeats=repeats, concurrency=4), replayed)


@pytest.mark.parametrize("provider", PROVIDERS)
def test_the_plan_holds_the_requests_exactly_and_the_replies_by_their_allowance(provider, monkeypatch):
    run = a_run(provider, "multi_step", 3)        # second turns, variants, repeats
    with_replies = planned(run)
    monkeypatch.setattr(results_size, "TURN_ALLOWANCE", 0)
    requests_only = planned(run)
    asyncio.run(run.run())
    pieces = ResultsText()
    written = results_text(run.document(created="2026-12-06T00:00:00+00:00"))
    for transcript in run.document(created="x")["transcripts"]:
        pieces.item(transcript)
    actual = len(written.encode("utf-8"))
    # the requests are sent as planned; the fake's replies (0.3 KB a turn) take less than allowed for
    assert requests_only.file_bytes < actual < with_replies.file_bytes
    assert with_replies.file_bytes < 3 * actual
    # what the references stand for: every repeat's request and every later turn's first part
    assert 0.8 * pieces.encoder.referred < requests_only.referred <= 1.2 * pieces.encoder.referred


def test_only_what_the_cap_lets_start_is_planned():
    run = a_run("anthropic", "all", 20, cap=30)
    items = started_items(run)
    assert sum(w.requests for w in items) <= 30 < sum(w.requests for w in run.work[:len(items) + 1])
    assert planned(run).file_bytes < planned(a_run("anthropic", "all", 20)).file_bytes / 50


def test_the_lines_a_plan_is_refused_with():
    assert plan_problem(Planned(20_000_000, 10), 20_000_000) is None
    assert plan_problem(Planned(26_100_000, 10), 20_000_000) == (
        "--out: this plan's results file would take about 26.1 MB, over the 20 MB every reader of results files "
        "accepts; send less in one run (fewer --repeats or --phrasings, a --scope) or split it into several runs")
    assert plan_problem(Planned(19_000_000, 250_000_000), 20_000_000, 200_000_000) == (
        "--out: this plan's results file would repeat about 250 MB of requests, over the 200 MB every reader "
        "expands; send less in one run (fewer --repeats or --phrasings, a --scope) or split it into several runs")


def test_the_bundled_suite_at_ten_repeats_of_every_phrasing_is_planned_under_the_limits():
    # issue 40 (136 cases, crowded ones offering 56 tools) took twenty repeats of every phrasing to
    # about 33 MB: refused before anything is sent, with the way out named
    def plan(repeats):
        return planned(Run(BUNDLE.cases, BUNDLE.tools, RunSettings("anthropic", "m", "k", "", "all", 10**6,
                                                                  repeats=repeats, phrasings="all"), replayed))
    ten = plan(10)
    assert plan_problem(ten, 20_000_000) is None
    assert 12_000_000 < ten.file_bytes < 20_000_000
    assert "(fewer --repeats or --phrasings, a --scope)" in plan_problem(plan(20), 20_000_000)


def test_a_run_stops_starting_work_before_its_file_passes_the_limit():
    assert stop_line(10_000_000, 50_000, 8, 100, 20_000_000) is None
    line = stop_line(19_000_000, 200_000, 8, 100, 20_000_000)
    assert line == ("the results file is at 19.0 MB, near the 20 MB reading limit (the replies are larger than "
                    "planned for): no further case starts, so the file still reads back")
    # room for the not-started list of a long plan counts too
    assert stop_line(18_000_000, 1_000, 1, 6_000, 20_000_000) is not None
