"""A run asked for in full completes in full, and one that does not says what it left out
(issue 20): the cap's maximum allows for retries, and the results file lists every unstarted
item with why."""
from __future__ import annotations

import asyncio
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scripted import BLOCK, Transport
from toolproof.datafiles import format_schema
from toolproof.grading.transcripts import parse_transcripts
from toolproof.running.runner import Run, RunSettings
from toolproof.running.transport import HttpReply
from toolproof.scoring.evaluate import evaluate

SCHEMA = format_schema("transcripts")


def failing(status: int = 500) -> HttpReply:
    return HttpReply(status, {}, json.dumps({"error": {"message": "no"}}), 5.0)


def make_run(bundle, transport, *, scope="should_call", cap=None, **extra) -> Run:
    run = Run(bundle.cases, bundle.tools, RunSettings("openai", "m", "k", "", scope, 1, pause_s=0,
                                                      backoff_s=0.001, **extra), transport)
    run.settings.cap = run.most if cap is None else cap(run)
    return run


def test_the_maximum_allows_for_every_retry(bundle):
    run = make_run(bundle, Transport(), scope="all", repeats=2)
    assert run.need == 2 * sum(c.requests for c in bundle.cases)
    assert run.most == 3 * run.need          # two retries per request at most


def test_before_at_the_bare_need_one_failing_case_leaves_others_unstarted_and_says_so(bundle):
    # What the issue found: retries count against the cap, so a cap of exactly the need ran out.
    transport = Transport()
    run = make_run(bundle, transport, cap=lambda r: r.need)
    transport.script[run.plan[0].id] = [failing()] * 3
    asyncio.run(run.run())
    doc = run.document(created="x")
    assert run.skipped > 0 and doc["state"] == "done"
    assert [m["case_id"] for m in doc["not_started"]] == [c.id for c in run.plan][-run.skipped:]
    assert all(m["reason"] == f"the request cap ({run.need}) could not cover its requests" for m in doc["not_started"])
    card = evaluate(bundle.cases, bundle.tools, parse_transcripts(doc, SCHEMA))
    assert card["coverage"] == {"planned": len(run.plan), "graded": len(run.plan) - run.skipped - 1,
                                "error": 1, "not_started": run.skipped}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), concurrency=st.sampled_from([1, 3]))
def test_at_the_maximum_no_item_is_left_unstarted_whatever_fails(bundle, data, concurrency):
    transport = Transport()
    run = make_run(bundle, transport, scope="injection", concurrency=concurrency, repeats=2)
    steps = st.lists(st.sampled_from([failing(500), failing(503), failing(429)]), max_size=6)
    for case in run.plan:
        transport.script[case.id] = data.draw(steps)
    asyncio.run(run.run())
    assert len(transport.calls) == run.used <= run.settings.cap
    assert run.skipped == 0                 # the cap never left an item out
    if run.stop:                            # 5 failures of one status before any success stop the run
        assert run.stop.startswith("at least 5 conversations failed with HTTP")
        assert all(m["reason"].startswith("the run stopped") for m in run.document(created="x")["not_started"])
        return
    assert len(run.transcripts) == len(run.work)
    assert "not_started" not in run.document(created="x")


def test_an_abort_lists_every_item_it_left_with_why(bundle):
    async def scenario():
        transport = Transport()
        run = make_run(bundle, transport, repeats=2)
        transport.script[run.plan[1].id] = [BLOCK]
        task = asyncio.ensure_future(run.run())
        await asyncio.wait_for(transport.blocked.wait(), 300)     # hang guards, not time bounds
        run.abort()
        await asyncio.wait_for(task, 300)
        return run

    run = asyncio.run(scenario())
    missing = run.document(created="x")["not_started"]
    assert len(missing) == len(run.work) - len(run.transcripts) == len(run.work) - 2
    assert missing[0] == {"case_id": run.plan[1].id, "repeat": 0,
                          "reason": "the run was aborted while it was in flight"}
    assert {m["reason"] for m in missing[1:]} == {"the run was aborted"}


def test_a_file_written_while_the_run_goes_lists_nothing_yet(bundle):
    run = make_run(bundle, Transport())
    assert "not_started" not in run.document(created="x")
