"""The runner with repeats and several requests in flight: plan order, the cap under
concurrency, a 429 pausing every worker, abort, and the early stop on a dead endpoint.

An in-memory transport answers from the committed fixtures after a delay chosen per call (seeded),
so cases finish out of order; no sockets.
"""
from __future__ import annotations

import asyncio
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fakeprovider import FIXTURES, case_and_turn, fixture_answer
from toolproof.datafiles import load_bundle
from toolproof.running.runner import Run, RunSettings
from toolproof.suite.model import requests_needed
from toolproof.running.transport import HttpReply, TransportError
from toolproof.running.workplan import Ledger, Work, plan_work

BUNDLE = load_bundle()
CLEAN = [c for c in BUNDLE.cases if not any("error" in t for t in FIXTURES[c.id]["turns"])]


class Delayed:
    """Fixture answers after a seeded random delay; counts what is in flight at once."""

    def __init__(self, seed: int = 7, script: dict | None = None, delay: float = 0.02, floor: float = 0.0):
        self.random, self.delay, self.floor = random.Random(seed), delay, floor
        self.script = {k: list(v) for k, v in (script or {}).items()}
        self.calls: list[tuple[float, str | None, int]] = []
        self.events: list[tuple] = []               # ("send", case, turn) in the order they happen
        self.in_flight = self.most = 0
        self.cancelled = 0

    async def __call__(self, url: str, headers: dict, body: dict, timeout: float) -> HttpReply:
        case_id, turn = case_and_turn(url, body)
        self.calls.append((asyncio.get_running_loop().time(), case_id, turn))
        self.events.append(("send", case_id, turn))
        self.in_flight += 1
        self.most = max(self.most, self.in_flight)
        try:
            queue = self.script.get(case_id)
            step = queue.pop(0) if queue else None
            if isinstance(step, Exception):        # a refused connection fails at once
                raise step
            await asyncio.sleep(self.random.uniform(self.floor, max(self.floor, self.delay)))
            if step == "block":
                await asyncio.Event().wait()
            if step is not None:
                return step
            status, headers_out, text = fixture_answer(case_id, turn, "openai")
            return HttpReply(status, headers_out, text, 5.0)
        except asyncio.CancelledError:
            self.cancelled += 1
            raise
        finally:
            self.in_flight -= 1


def make(cases, transport, *, cap=1000, repeats=1, concurrency=1, **extra) -> Run:
    run_settings = RunSettings("openai", "fake-model", "sk-test-key", "", "all", cap, pause_s=0, backoff_s=0.01,
                               repeats=repeats, concurrency=concurrency, **extra)
    return Run(cases, BUNDLE.tools, run_settings, transport)


def go(run: Run) -> Run:
    asyncio.run(asyncio.wait_for(run.run(), 300))      # a hang guard, not a time a busy machine must meet
    return run


def outcome(run: Run) -> list:
    return [(t["case_id"], t["repeat"], r.verdict) for t, r in zip(run.transcripts, run.results)]


# ---- the plan and the ledger --------------------------------------------------------------

def test_the_plan_is_suite_order_then_repeat():
    cases = CLEAN[:2]
    assert [(w.index, w.case.id, w.repeat) for w in plan_work(cases, 3)] == [
        (0, cases[0].id, 0), (1, cases[0].id, 1), (2, cases[0].id, 2),
        (3, cases[1].id, 0), (4, cases[1].id, 1), (5, cases[1].id, 2)]


def test_the_ledger_reserves_before_it_counts():
    case = next(c for c in CLEAN if c.requests == 2)
    a, b = Work(0, case), Work(1, case)
    ledger = Ledger(3)
    assert ledger.reserve(a) and not ledger.reserve(b)          # 2 held, 1 free: b needs 2
    assert ledger.take(a) and ledger.take(a) and ledger.take(a)  # the third is a retry from the free one
    assert not ledger.take(a) and (ledger.used, ledger.free) == (3, 0)
    ledger.release(a)
    assert not ledger.reserve(b)


# ---- repeats -------------------------------------------------------------------------------

def test_repeats_send_every_case_n_times_as_independent_conversations():
    cases = CLEAN[:3]
    transport = Delayed(delay=0)
    run = go(make(cases, transport, repeats=3))
    assert run.need == 3 * requests_needed(cases)
    assert [(t["case_id"], t["repeat"]) for t in run.transcripts] == [(c.id, r) for c in cases for r in range(3)]
    # each repeat starts from the user's prompt again: a first turn per repeat, nothing carried over
    firsts = [call for call in transport.calls if call[2] == 1]
    assert len(firsts) == 9 and run.state == "done"
    doc = run.document(created="x")
    assert (doc["settings"]["repeats"], doc["settings"]["concurrency"]) == (3, 1)


def test_the_cap_covers_whole_repeats_only():
    case = next(c for c in CLEAN if c.requests == 2 and c.turns == 2)
    run = go(make([case], Delayed(delay=0), cap=5, repeats=3))
    assert (run.used, run.skipped, len(run.transcripts)) == (4, 1, 2)


# ---- concurrency ---------------------------------------------------------------------------

def test_concurrent_runs_give_the_sequential_verdicts_in_the_same_order():
    cases = CLEAN[:12]
    sequential = go(make(cases, Delayed(seed=1), repeats=2))
    transport = Delayed(seed=2, delay=0.05)
    concurrent = go(make(cases, transport, repeats=2, concurrency=8))
    assert outcome(concurrent) == outcome(sequential)
    assert 1 < transport.most <= 8
    assert concurrent.used == sequential.used == len(transport.calls)


def test_a_case_turns_stay_in_order():
    cases = [c for c in CLEAN if c.turns == 2][:6]
    transport = Delayed(seed=3, delay=0.05)
    go(make(cases, transport, concurrency=6))
    seen: dict = {}
    for _, case_id, turn in transport.calls:
        seen.setdefault(case_id, []).append(turn)
    assert all(turns[0] == 1 for turns in seen.values())


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cap=st.integers(1, 40), concurrency=st.integers(1, 16), seed=st.integers(0, 10_000),
       failing=st.lists(st.sampled_from([c.id for c in CLEAN[:10]]), max_size=6))
def test_the_cap_is_never_exceeded_with_retries_in_flight(cap, concurrency, seed, failing):
    script = {case_id: [HttpReply(503, {"retry-after": "0"}, "", 1.0)] for case_id in failing}
    transport = Delayed(seed=seed, script=script, delay=0.005)
    run = go(make(CLEAN[:10], transport, cap=cap, repeats=2, concurrency=concurrency))
    assert len(transport.calls) == run.used <= cap
    assert transport.most <= concurrency
    # no lost item: each plan item finished, or was not started for want of budget
    assert len(run.transcripts) + run.skipped == len(run.work)
    assert [(t["case_id"], t["repeat"]) for t in run.transcripts] == \
        sorted(((t["case_id"], t["repeat"]) for t in run.transcripts),
               key=lambda k: ([c.id for c in CLEAN].index(k[0]), k[1]))


def test_a_429_pauses_every_worker_for_its_retry_after():
    # Checked by the order of events, not by clock readings: a busy machine can delay any step.
    cases = CLEAN[:8]
    first = cases[0].id
    transport = Delayed(delay=0.01, script={first: [HttpReply(429, {"retry-after": "0.3"}, "", 1.0)]})
    run = make(cases, transport, repeats=2, concurrency=4)
    pause_all = run._pause_all

    async def watched(seconds: float) -> None:
        transport.events.append(("pause", seconds))
        await pause_all(seconds)
        transport.events.append(("resume",))

    run._pause_all = watched
    go(run)
    assert run.state == "done"
    assert transport.events[0] == ("send", first, 1)           # the 429 is the first call
    kinds = [e[0] for e in transport.events]
    start, end = kinds.index("pause"), kinds.index("resume")
    assert transport.events[start] == ("pause", 0.3)            # the provider's Retry-After, as given
    assert "send" not in kinds[start:end]                       # nobody sent anything during the pause
    assert kinds.count("pause") == 1 and ("send", first, 1) in transport.events[end:]   # then the retry
    assert len(run.transcripts) == 16


def test_a_long_retry_after_still_stops_a_concurrent_run():
    cases = CLEAN[:8]
    transport = Delayed(delay=0.01, script={cases[0].id: [HttpReply(429, {"retry-after": "120"}, "", 1.0)]})
    run = go(make(cases, transport, concurrency=4))
    assert (run.state, run.error) == ("error", "rate limited: the provider asks to wait 120 s")
    assert len(run.transcripts) < len(cases)


def test_abort_cancels_every_request_in_flight():
    cases = CLEAN[:6]
    transport = Delayed(delay=0, script={c.id: ["block"] for c in cases})

    async def scenario():
        run = make(cases, transport, concurrency=4)
        task = asyncio.ensure_future(run.run())
        while transport.in_flight < 4 and not task.done():     # the four are sent, however slowly
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.05)
        assert transport.in_flight == 4
        run.abort()
        await asyncio.wait_for(task, 300)           # it ends though the blocked requests never do
        await asyncio.sleep(0)
        return run

    run = asyncio.run(scenario())
    assert (run.state, run.transcripts, transport.cancelled, transport.in_flight) == ("aborted", [], 4, 0)


# ---- the early stop --------------------------------------------------------------------------

REFUSED = TransportError("network", "network error: no HTTP answer from http://127.0.0.1:9/v1/chat/completions "
                         "(<urlopen error [Errno 111] Connection refused>)", 1.0)


@pytest.mark.parametrize("concurrency", [1, 4])
def test_a_dead_endpoint_stops_the_run_at_once(concurrency):
    cases = CLEAN[:10]
    # the first case is refused three times (after its retries); the others would answer late
    transport = Delayed(delay=0.3, floor=0.2, script={cases[0].id: [REFUSED] * 3})
    run = make(cases, transport, concurrency=concurrency)
    go(run)
    assert (run.state, run.error) == ("error", REFUSED.message)
    assert [t["case_id"] for t in run.transcripts] == [cases[0].id]
    assert run.results[0].verdict == "ERROR"
    # the other workers' first requests were abandoned, and nothing started after the stop
    assert len(transport.calls) == 3 + (concurrency - 1)
    assert (transport.in_flight, transport.cancelled) == (0, concurrency - 1)


def test_a_network_error_after_an_answer_does_not_stop_the_run():
    cases = CLEAN[:4]
    transport = Delayed(delay=0, script={cases[1].id: [REFUSED] * 3})
    run = go(make(cases, transport))
    assert run.state == "done"
    assert [r.verdict for r in run.results][1] == "ERROR" and len(run.results) == 4


def test_a_timeout_is_not_a_dead_endpoint():
    cases = CLEAN[:3]
    slow = TransportError("timeout", "no complete answer within 1 s", 1000.0)
    run = go(make(cases, Delayed(delay=0, script={cases[0].id: [slow] * 3})))
    assert run.state == "done" and len(run.results) == 3


def test_the_document_records_the_suite_fingerprint():
    from toolproof.suite.fingerprint import suite_sha256

    run = make(CLEAN[:1], Delayed(delay=0))
    run.suite_sha256 = suite_sha256(BUNDLE.documents["suite"])
    go(run)
    doc = run.document(created="x")
    assert doc["suite_sha256"] == suite_sha256(BUNDLE.documents["suite"]) and len(doc["suite_sha256"]) == 64
    assert "sk-test-key" not in json.dumps(doc)


def test_longest_items_start_first_only_when_the_cap_covers_the_plan():
    from toolproof.running.workplan import dispatch_order

    short = next(c for c in CLEAN if c.requests == 1)
    long = next(c for c in BUNDLE.cases if c.requests >= 3)
    work = plan_work([short, long], 2)
    need = sum(w.requests for w in work)
    assert [w.index for w in dispatch_order(work, need)] == [2, 3, 0, 1]
    assert [w.index for w in dispatch_order(work, need - 1)] == [0, 1, 2, 3]
    # concurrently dispatched or not, the results stay in plan order
    run = go(make([short, long], Delayed(delay=0.01), repeats=2, concurrency=2))
    assert [(t["case_id"], t["repeat"]) for t in run.transcripts] == [(short.id, 0), (short.id, 1), (long.id, 0), (long.id, 1)]
