"""The live-run loop, driven with an in-memory transport: the cap, retries, stops, abort, and
what each turn records (request minus credentials, second-turn conversation).

No sockets: tests/scripted.py's transport is an async function that answers from a script,
falling back to the committed fixture for the case, and records every call it receives.
"""
from __future__ import annotations

import asyncio
import contextvars
import json
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fakeprovider import FIXTURES, fixture_answer
from scripted import BLOCK, Transport

# A guard against a hang, never a bound a busy machine must meet; and "at once" for a wait of
# 30 s or more (a retry's or a pause's), which a loaded machine still meets with room to spare.
HANG_S = 300
AT_ONCE_S = 15
from toolproof.providers.dispatch import endpoint, request_headers
from toolproof.running.runner import Run, RunSettings
from toolproof.suite.model import requests_needed, scoped
from toolproof.running.retries import retry_wait, status_message
from toolproof.running.transport import HttpReply, TransportError
from toolproof.suite.categories import CATEGORY
from toolproof.suite.categories import CASE_CATEGORIES
from toolproof.suite.model import SECOND_TURN_CATEGORIES

KEY = "sk-live-KEY-789"
LEAK = KEY                  # what a provider's error body echoes: the configured key itself
SAID = "Incorrect API key provided: [REDACTED:api-key]"     # its message, as kept and shown


def reply(status: int = 200, body="", headers: dict | None = None) -> HttpReply:
    text = body if isinstance(body, str) else json.dumps(body)
    return HttpReply(status, headers or {}, text, 5.0)


def leaky(status: int, headers: dict | None = None) -> HttpReply:
    """An error answer whose body echoes the key, as some providers and proxies do."""
    return reply(status, {"error": {"message": f"Incorrect API key provided: {LEAK}"}}, headers)


def make_run(bundle, cases, transport, *, provider="openai", cap=100, scope="all", **extra) -> Run:
    run_settings = RunSettings(provider, "fake-model", KEY, extra.pop("base_url", ""), scope, cap,
                               pause_s=extra.pop("pause_s", 0), backoff_s=0.01, **extra)
    return Run(cases, bundle.tools, run_settings, transport)


def go(run: Run, monkeypatch=None) -> list:
    """Run to the end; with monkeypatch, record the waits instead of waiting."""
    waits = []
    if monkeypatch is not None:
        async def sleep(self, seconds):
            waits.append(seconds)
        monkeypatch.setattr(Run, "_sleep", sleep)
    asyncio.run(run.run())
    return waits


def by_id(bundle, *ids: str) -> list:
    cases = {c.id: c for c in bundle.cases}
    return [cases[i] for i in ids]


def fixture_turns(case_id: str) -> int:
    return len(FIXTURES[case_id]["turns"])


def clean(bundle, category: str | None = None, turns: int | None = None) -> list:
    """Suite cases whose fixture has no error turn (so replay needs no retry)."""
    return [c for c in bundle.cases
            if not any("error" in t for t in FIXTURES[c.id]["turns"])
            and category in (None, c.category) and turns in (None, fixture_turns(c.id))]


# ---- the cap ---------------------------------------------------------------------------------

def two_turn_calling(bundle) -> list:
    # without counterfactual variants, so each of these needs exactly 2 requests
    return [c for c in clean(bundle, turns=2) if c.turns == 2 and not c.variants]


def test_cap_is_never_exceeded_and_no_case_is_cut_short(bundle):
    # three two-turn cases fill 6 of 7 requests; the fourth needs 2 and must not be started
    first = two_turn_calling(bundle)[:4]
    rest = [c for c in bundle.cases if c not in first]
    transport = Transport()
    run = make_run(bundle, first + rest, transport, cap=7)
    go(run)
    assert run.state == "done"
    assert len(transport.calls) == run.used == 6
    assert [t["case_id"] for t in run.transcripts] == [c.id for c in first[:3]]
    assert run.skipped == len(run.plan) - 3 > 0
    for raw in run.transcripts:
        assert len(raw["turns"]) == 2 and all("response" in t for t in raw["turns"]), raw["case_id"]


def test_a_case_whose_first_turn_makes_no_call_leaves_room_for_the_next(bundle):
    # inj-booking-remarks needs up to 2 requests but its fixture answers turn 1 without a call
    silent = [c for c in clean(bundle, turns=1) if c.turns == 2 and not c.variants][0]
    cases = [silent] + two_turn_calling(bundle)[:3]
    assert requests_needed(cases) == 8
    transport = Transport()
    run = make_run(bundle, cases, transport, cap=7)
    go(run)
    assert (run.state, run.skipped, len(transport.calls), run.used) == ("done", 0, 7, 7)
    assert [len(t["turns"]) for t in run.transcripts] == [1, 2, 2, 2]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), cap=st.integers(1, 12))
def test_any_order_and_cap_sends_at_most_cap_and_finishes_every_started_case(bundle, data, cap):
    pool = clean(bundle, turns=1)[:3] + [c for c in clean(bundle, turns=1) if c.turns == 2 and not c.variants][:1] \
        + two_turn_calling(bundle)[:4]
    cases = data.draw(st.permutations(pool))
    transport = Transport()
    run = make_run(bundle, cases, transport, cap=cap)
    go(run)
    assert len(transport.calls) == run.used <= cap
    assert len(run.transcripts) + run.skipped == len(cases)
    for raw in run.transcripts:
        assert len(raw["turns"]) == fixture_turns(raw["case_id"])
        assert all("response" in t for t in raw["turns"])


FAILURES = st.sampled_from([None, None, reply(429), reply(500), reply(503),
                            TransportError("network", "network error (refused)")])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), cap=st.integers(1, 12))
def test_retries_count_against_the_cap_too(bundle, data, cap):
    cases = clean(bundle, turns=1)[:3] + two_turn_calling(bundle)[:3]
    script = {c.id: [s for s in data.draw(st.lists(FAILURES, max_size=4)) if s is not None] for c in cases}
    transport = Transport(script)
    run = make_run(bundle, cases, transport, cap=cap)
    go(run)
    assert len(transport.calls) == run.used <= cap


# ---- scope and requests needed ---------------------------------------------------------------

@pytest.mark.parametrize("category", CASE_CATEGORIES)
def test_requests_needed_counts_turns_and_variants(bundle, category):
    # one request per turn, plus one second turn per counterfactual variant
    cases = scoped(bundle.cases, category)
    assert cases and {c.category for c in cases} == {category}
    two_turns = CATEGORY[category].second_turn is not None
    expected = sum(2 + len(c.variants) if two_turns else 1 for c in cases)
    assert requests_needed(cases) == expected


def test_scope_all_keeps_suite_order_and_needs_the_sum(bundle):
    assert scoped(bundle.cases, "all") == bundle.cases
    assert requests_needed(bundle.cases) == sum(requests_needed(scoped(bundle.cases, c)) for c in CASE_CATEGORIES)
    assert make_run(bundle, bundle.cases, Transport(), scope="injection").need == \
        2 * len(scoped(bundle.cases, "injection"))
    assert SECOND_TURN_CATEGORIES == {"multi_step", "injection", "result_use", "injection_realistic"}


def test_unknown_scope_is_refused(bundle):
    with pytest.raises(ValueError) as caught:
        scoped(bundle.cases, "bogus")
    assert str(caught.value) == f"unknown scope 'bogus'; use all or one of {', '.join(CASE_CATEGORIES)}"


# ---- retries ---------------------------------------------------------------------------------

ONE = "sc-hotels-lisbon"            # a single-turn case whose fixture passes


def test_429_then_200_grades_the_200(bundle, monkeypatch):
    transport = Transport({ONE: [leaky(429)]})
    run = make_run(bundle, by_id(bundle, ONE), transport)
    waits = go(run, monkeypatch)
    assert waits == [0.01]          # no Retry-After: the backoff
    turn = run.transcripts[0]["turns"][0]
    assert (turn["attempts"], turn["status"], run.used, len(transport.calls)) == (2, 200, 2, 2)
    assert turn["response"] == json.loads(fixture_answer(ONE, 1, "openai")[2])
    assert run.results[0].verdict == FIXTURES[ONE]["intended_verdict"] == "PASS"


@pytest.mark.parametrize("value, wait", [
    ("0.05", 0.05),
    ("0", 0.0),
    (" 2 ", 2.0),
    ("30", 30.0),                   # the longest wait that is slept
    ("-5", 0.0),
    ("Wed, 21 Oct 2026 07:28:00 GMT", 0.01),  # an HTTP date is not read: the backoff applies
])
def test_retry_after_is_honoured(bundle, monkeypatch, value, wait):
    transport = Transport({ONE: [reply(503, "", {"retry-after": value})]})
    run = make_run(bundle, by_id(bundle, ONE), transport)
    assert go(run, monkeypatch) == [wait]
    assert run.transcripts[0]["turns"][0]["attempts"] == 2


def test_retry_after_wait_is_really_waited(bundle):
    # without the monkeypatch: the second call comes after the Retry-After delay
    loop_times = []

    class Timed(Transport):
        async def __call__(self, *args):
            loop_times.append(asyncio.get_running_loop().time())
            return await super().__call__(*args)

    run = make_run(bundle, by_id(bundle, ONE), Timed({ONE: [reply(429, "", {"retry-after": "0.05"})]}))
    go(run)
    assert loop_times[1] - loop_times[0] >= 0.045


@pytest.mark.parametrize("attempt, wait", [(1, 0.5), (2, 1.0), (3, 2.0)])
def test_backoff_doubles_without_retry_after(attempt, wait):
    assert retry_wait(reply(500), attempt, 0.5) == wait
    assert retry_wait(None, attempt, 0.5) == wait


TIMEOUT = TransportError("timeout", "timed out after 45 s", 45000.0)

# (script for the case, the turn's error, attempts, waits)
FAILED_TURNS = [
    # server errors are retried twice, then the case fails with the status and a fixed message
    ([leaky(500)] * 3, {"status": 500, "message": "server error, after 5 ms", "provider_message": SAID}, 3, [0.01, 0.02]),
    ([leaky(529)] * 3, {"status": 529, "message": "overloaded, after 5 ms", "provider_message": SAID}, 3, [0.01, 0.02]),
    ([leaky(429)] * 3, {"status": 429, "message": "rate limited, after 5 ms", "provider_message": SAID}, 3, [0.01, 0.02]),
    # the request itself is wrong: retrying would fail the same way; the status is not explained
    # by a guessed cause (a 400 can be a context limit as well as a bad field): the provider's own
    # message says which, with the key it echoed redacted by value
    ([leaky(400)], {"status": 400, "message": "bad request, after 5 ms", "provider_message": SAID}, 1, []),
    ([leaky(404)], {"status": 404, "message": "not found (check the model name and the base URL), after 5 ms", "provider_message": SAID}, 1, []),
    ([leaky(418)], {"status": 418, "message": "request refused, after 5 ms", "provider_message": SAID}, 1, []),
    # a redirect is not followed: the key never reaches the target, and the reason names it
    ([reply(302, "", {"location": "http://user:pw@127.0.0.1:9/steal?k=1"})],
     {"status": 302, "message": "redirect to http://127.0.0.1:9/ not followed, after 5 ms"}, 1, []),
    ([TransportError("redirect", "redirect not followed")],
     {"status": None, "message": "redirect not followed"}, 1, []),
    # no answer at all: retried, then the transport's own words
    ([TIMEOUT] * 3, {"status": None, "message": "timed out after 45 s"}, 3, [0.01, 0.02]),
    ([TransportError("blocked", "blocked by the browser (CORS)")],
     {"status": None, "message": "blocked by the browser (CORS)"}, 1, []),
    # a 200 that is not JSON is a broken answer, not a busy server
    ([reply(200, "<html>proxy login</html>")], {"status": 200, "message": "the response body is not valid JSON"}, 1, []),
]


@pytest.mark.parametrize("steps, error, attempts, waits", FAILED_TURNS)
def test_failed_turns(bundle, monkeypatch, steps, error, attempts, waits):
    transport = Transport({ONE: steps})
    run = make_run(bundle, by_id(bundle, ONE), transport)
    assert go(run, monkeypatch) == waits
    turn = run.transcripts[0]["turns"][0]
    assert turn["error"] == error and "response" not in turn
    assert (turn["attempts"], run.used, len(transport.calls)) == (attempts, attempts, attempts)
    assert len(turn["attempt_log"]) == attempts
    # nothing succeeded: the run ends in the error state, never "done"
    assert (run.state, run.error) == ("error", f"no request succeeded ({attempts} sent); each case's reason says why")
    assert run.results[0].verdict == "ERROR"          # the endpoint failed, not the model


def test_a_timeout_then_an_answer_is_graded(bundle, monkeypatch):
    transport = Transport({ONE: [TIMEOUT]})
    run = make_run(bundle, by_id(bundle, ONE), transport)
    go(run, monkeypatch)
    turn = run.transcripts[0]["turns"][0]
    assert (turn["attempts"], turn["status"], run.results[0].verdict) == (2, 200, "PASS")
    assert turn["elapsed_ms"] == 45005.0        # both attempts' time


def test_the_key_an_error_body_echoes_is_never_kept(bundle, monkeypatch):
    ids = [c.id for c in clean(bundle, turns=1)[:5]]
    script = {ids[0]: [leaky(500)] * 3, ids[1]: [leaky(400)], ids[2]: [leaky(429)] * 3,
              ids[3]: [leaky(429, {"retry-after": "0"})], ids[4]: [leaky(404)]}
    run = make_run(bundle, by_id(bundle, *ids), Transport(script))
    go(run, monkeypatch)
    assert len(run.transcripts) == 5
    assert LEAK not in json.dumps(run.transcripts)
    assert LEAK not in json.dumps(run.document(created="x"))


def test_each_finished_conversation_is_handed_on_redacted_with_its_plan_index(bundle, monkeypatch):
    # the page stores these as the run goes (page/keeping.py): they must be what the results file
    # will hold, key removed, and say where in the plan each belongs (workers finish out of order)
    ids = [c.id for c in clean(bundle, turns=1)[:3]]
    kept = []
    run = make_run(bundle, by_id(bundle, *ids), Transport({ids[1]: [leaky(400)]}), repeats=2, concurrency=3)
    run.on_kept = lambda index, transcript: kept.append((index, transcript))
    go(run, monkeypatch)
    assert sorted(i for i, _ in kept) == list(range(6))
    assert LEAK not in json.dumps(kept)
    assert [t for _, t in sorted(kept, key=lambda k: k[0])] == run.document(created="x")["transcripts"]


# When the cap leaves no room for a retry, the runner must not wait for a retry it cannot send,
# and the turn keeps the status it got ("a failed request fails that case with its status").
def test_a_retry_the_cap_cannot_cover_keeps_the_status_and_does_not_wait(bundle, monkeypatch):
    transport = Transport({ONE: [reply(500, "", {"retry-after": "30"})] * 3})
    run = make_run(bundle, by_id(bundle, ONE), transport, cap=1)
    waits = go(run, monkeypatch)
    turn = run.transcripts[0]["turns"][0]
    assert len(transport.calls) == 1
    assert turn["error"] == {"status": 500, "message": "server error, after 5 ms"}
    assert waits == []


# ---- stops -----------------------------------------------------------------------------------

@pytest.mark.parametrize("status, message", [
    (401, "HTTP 401, unauthorized (check the API key)"),
    (403, "HTTP 403, forbidden"),
])
def test_401_and_403_stop_the_run(bundle, status, message):
    cases = clean(bundle, turns=1)[:4]
    transport = Transport({cases[1].id: [leaky(status)]})
    run = make_run(bundle, cases, transport)
    go(run)
    assert (run.state, run.error) == ("error", message)
    assert [t["case_id"] for t in run.transcripts] == [cases[0].id, cases[1].id]
    assert [c["case_id"] for c in transport.calls] == [cases[0].id, cases[1].id]   # not retried
    assert run.transcripts[1]["turns"][0]["error"]["status"] == status
    assert run.document(created="x")["state"] == "error"
    assert LEAK not in json.dumps(run.document(created="x"))


def test_a_401_on_the_second_turn_stops_too(bundle):
    first, later = two_turn_calling(bundle)[:2]
    transport = Transport({first.id: [None, leaky(401)]})     # turn 1 from the fixture
    run = make_run(bundle, [first, later], transport)
    go(run)
    assert run.state == "error" and "HTTP 401" in run.error
    assert len(transport.calls) == 2 and later.id not in [c["case_id"] for c in transport.calls]


# ---- abort -----------------------------------------------------------------------------------

def test_abort_abandons_the_request_in_flight(bundle):
    cases = clean(bundle, turns=1)[:4]

    async def scenario():
        transport = Transport({cases[2].id: [BLOCK]})
        run = make_run(bundle, cases, transport)
        task = asyncio.ensure_future(run.run())
        await asyncio.wait_for(transport.blocked.wait(), HANG_S)
        run.abort()
        await asyncio.wait_for(task, HANG_S)    # it ends though the blocked request never does
        await asyncio.sleep(0.05)       # nothing more is sent afterwards
        return run, transport

    run, transport = asyncio.run(scenario())
    assert run.state == "aborted"
    assert [r.case_id for r in run.results] == [c.id for c in cases[:2]]
    assert [t["case_id"] for t in run.transcripts] == [c.id for c in cases[:2]]
    assert len(transport.calls) == 3
    assert run.document(created="x")["state"] == "aborted"


def test_abort_during_the_pause_between_cases_stops_at_once(bundle):
    cases = clean(bundle, turns=1)[:3]

    async def scenario():
        transport = Transport()
        run = make_run(bundle, cases, transport, pause_s=60)
        graded = asyncio.Event()
        run.on_case = lambda raw, result: graded.set()
        task = asyncio.ensure_future(run.run())
        await asyncio.wait_for(graded.wait(), HANG_S)
        await asyncio.sleep(0.02)       # the run is now in its 60 s pause
        assert not task.done()
        run.abort()
        await asyncio.wait_for(task, AT_ONCE_S)
        await asyncio.sleep(0.05)
        return run, transport

    run, transport = asyncio.run(scenario())
    assert run.state == "aborted"
    assert len(transport.calls) == 1 and [r.case_id for r in run.results] == [cases[0].id]


def test_abort_during_a_retry_wait_stops_at_once(bundle):
    async def scenario():
        transport = Transport({ONE: [reply(429, "", {"retry-after": "30"})]})
        run = make_run(bundle, by_id(bundle, ONE), transport)
        task = asyncio.ensure_future(run.run())
        while not transport.calls:      # the 429 is sent (a busy machine may take a while to get there)
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.05)       # and answered: the run waits its 30 s
        run.abort()
        await asyncio.wait_for(task, AT_ONCE_S)
        return run, transport

    run, transport = asyncio.run(scenario())
    assert (run.state, len(transport.calls), run.transcripts) == ("aborted", 1, [])


def test_abort_before_the_start_sends_nothing(bundle):
    transport = Transport()
    run = make_run(bundle, bundle.cases, transport)
    run.abort()
    go(run)
    assert (run.state, transport.calls, run.results) == ("aborted", [], [])


# ---- what a turn records ---------------------------------------------------------------------

@pytest.mark.parametrize("provider, base_url, url", [
    ("openai", "", "https://api.openai.com/v1/chat/completions"),
    ("anthropic", "", "https://api.anthropic.com/v1/messages"),
    ("openai-compatible", "http://127.0.0.1:9/v1/", "http://127.0.0.1:9/v1/chat/completions"),
])
def test_each_turn_records_the_request_without_credentials(bundle, provider, base_url, url):
    cases = clean(bundle, turns=1)[:2] + two_turn_calling(bundle)[:1]
    transport = Transport()
    run = make_run(bundle, cases, transport, provider=provider, base_url=base_url, timeout_s=7.5)
    go(run)
    turns = [t for raw in run.transcripts for t in raw["turns"]]
    assert len(turns) == len(transport.calls) == 4
    for turn, call in zip(turns, transport.calls):
        assert turn["request"]["url"] == call["url"] == url
        assert turn["request"]["body"] == call["body"]
        assert turn["request"]["headers"] == {k: v for k, v in call["headers"].items()
                                              if k not in ("authorization", "x-api-key")}
        assert not {"authorization", "x-api-key"} & set(turn["request"]["headers"])
        assert call["timeout"] == 7.5
    # ... while the transport did get the key
    assert KEY in json.dumps([c["headers"] for c in transport.calls])
    document = json.dumps(run.document(created="x"))
    assert KEY not in document


def test_the_document_is_a_live_transcripts_file(bundle):
    cases = clean(bundle, turns=1)[:2]
    run = make_run(bundle, cases, Transport(), provider="openai-compatible", base_url="http://h/v1", cap=5)
    go(run)
    doc = run.document(created="2026-01-01T00:00:00+00:00")
    assert {k: v for k, v in doc.items() if k != "transcripts"} == {
        "format": "toolproof.transcripts", "version": 1, "kind": "live", "label": "",
        "provider": "openai-compatible", "model": "fake-model", "created": "2026-01-01T00:00:00+00:00",
        "scope": "all", "base_url": "http://h/v1", "cap": 5, "requests_used": 2, "state": "done",
        "error": "", "settings": {"max_tokens": 1024, "timeout_s": 45.0, "cap": 5, "scope": "all",
                                  "retries": 2, "pause_s": 0, "repeats": 1,
                                  "concurrency": 1, "temperature": None, "seed": None}}
    assert [(t["case_id"], t["repeat"]) for t in doc["transcripts"]] == [(c.id, 0) for c in cases]
    # base_url only means something for a compatible server
    openai_run = make_run(bundle, cases, Transport(), base_url="http://h/v1")
    assert openai_run.document(created="x")["base_url"] == ""


# ---- the second turn -------------------------------------------------------------------------

def multi_step(bundle):
    case = scoped(bundle.cases, "multi_step")[0]
    call = case.expect.calls[0]
    return case, call.tool, call.args


def second_turn(bundle, provider: str, first: dict):
    case, _, _ = multi_step(bundle)
    done = reply(200, {"choices": [{"index": 0, "message": {"role": "assistant", "content": "Done."},
                                    "finish_reason": "stop"}]}
                 if provider == "openai" else
                 {"content": [{"type": "text", "text": "Done."}], "stop_reason": "end_turn"})
    transport = Transport({case.id: [reply(200, first)] + [done] * (1 + len(case.variants))})
    run = make_run(bundle, [case], transport, provider=provider)
    go(run)
    # the second turn, then one more second turn per counterfactual variant
    assert len(transport.calls) == 2 + len(case.variants)
    return case, transport.calls[0]["body"], transport.calls[1]["body"]


def test_variants_reuse_the_first_answer_and_send_their_own_mock(bundle):
    case = next(c for c in scoped(bundle.cases, "result_use") if c.variants)
    transport = Transport()
    run = make_run(bundle, [case], transport, cap=case.requests)
    go(run)
    assert len(transport.calls) == 2 + len(case.variants) == run.used
    raw = run.transcripts[0]
    assert [v["id"] for v in raw["variants"]] == [v.id for v in case.variants]
    for call, variant in zip(transport.calls[2:], case.variants):
        mock = next(iter(variant.mock_results.values()))
        assert call["body"]["messages"][-1]["content"] == json.dumps(mock, ensure_ascii=False) \
            or call["body"]["messages"][-1]["content"][0]["content"] == json.dumps(mock, ensure_ascii=False)
    assert all(v["turns"][0] == raw["turns"][0] for v in raw["variants"])


def test_openai_second_turn_echoes_the_calls_and_sends_the_mock(bundle):
    case, tool, args = multi_step(bundle)
    raw_args = json.dumps(args)
    first = {"choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
        "role": "assistant", "content": None,
        "tool_calls": [{"id": "call_77", "type": "function", "function": {"name": tool, "arguments": raw_args}}]}}]}
    case, body1, body2 = second_turn(bundle, "openai", first)
    assert body2["messages"][:-2] == body1["messages"]
    assistant, result = body2["messages"][-2:]
    # content "" rather than null: some compatible servers reject a null content
    assert assistant == {"role": "assistant", "content": "", "tool_calls": [
        {"id": "call_77", "type": "function", "function": {"name": tool, "arguments": raw_args}}]}
    assert result == {"role": "tool", "tool_call_id": "call_77",
                      "content": json.dumps(case.mock_results[tool], ensure_ascii=False)}
    assert json.loads(result["content"]) == case.mock_results[tool]
    for body in (body1, body2):
        assert body["tool_choice"] == "auto" and body["parallel_tool_calls"] is False
        assert [t["function"]["name"] for t in body["tools"]] == list(case.tools)
        assert body["model"] == "fake-model"


def test_openai_second_turn_without_call_ids_makes_them_up(bundle):
    case, tool, args = multi_step(bundle)
    first = {"choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
        "role": "assistant", "content": "Looking it up.",
        "tool_calls": [{"type": "function", "function": {"name": tool, "arguments": json.dumps(args)}}]}}]}
    _, _, body2 = second_turn(bundle, "openai", first)
    assistant, result = body2["messages"][-2:]
    assert assistant["content"] == "Looking it up."
    assert assistant["tool_calls"][0]["id"] == result["tool_call_id"] == "call_1"


def test_anthropic_second_turn_echoes_the_blocks_and_sends_tool_results(bundle):
    case, tool, args = multi_step(bundle)
    blocks = [{"type": "text", "text": "Let me check."},
              {"type": "tool_use", "id": "toolu_42", "name": tool, "input": args}]
    first = {"id": "msg_1", "type": "message", "role": "assistant", "content": blocks, "stop_reason": "tool_use"}
    case, body1, body2 = second_turn(bundle, "anthropic", first)
    assert body1["messages"] == [{"role": "user", "content": case.prompt}]
    assert body2["messages"] == [
        {"role": "user", "content": case.prompt},
        {"role": "assistant", "content": blocks},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_42",
                                      "content": json.dumps(case.mock_results[tool], ensure_ascii=False)}]},
    ]
    for body in (body1, body2):
        assert body["tool_choice"] == {"type": "auto"} and "parallel_tool_calls" not in body
        assert [t["name"] for t in body["tools"]] == list(case.tools)


def test_no_second_turn_when_the_first_makes_no_call(bundle):
    case, _, _ = multi_step(bundle)
    text = reply(200, {"choices": [{"index": 0, "message": {"role": "assistant", "content": "No."},
                                    "finish_reason": "stop"}]})
    transport = Transport({case.id: [text]})
    run = make_run(bundle, [case], transport)
    go(run)
    assert len(transport.calls) == 1 and len(run.transcripts[0]["turns"]) == 1


def test_no_second_turn_after_a_failed_first(bundle, monkeypatch):
    case, _, _ = multi_step(bundle)
    transport = Transport({case.id: [leaky(400)]})
    run = make_run(bundle, [case], transport)
    go(run, monkeypatch)
    assert len(transport.calls) == 1 and run.transcripts[0]["turns"][0]["error"]["status"] == 400


# ---- headers and endpoints -------------------------------------------------------------------

@pytest.mark.parametrize("provider, key, headers", [
    ("openai", "K", {"content-type": "application/json", "authorization": "Bearer K"}),
    ("openai-compatible", "K", {"content-type": "application/json", "authorization": "Bearer K"}),
    # a local server without auth: no empty "Bearer " header
    ("openai-compatible", "", {"content-type": "application/json"}),
    ("anthropic", "K", {"content-type": "application/json", "x-api-key": "K", "anthropic-version": "2023-06-01",
                        "anthropic-dangerous-direct-browser-access": "true"}),
])
def test_request_headers(provider, key, headers):
    assert request_headers(provider, key) == headers


@pytest.mark.parametrize("provider, base_url, url", [
    ("openai", "", "https://api.openai.com/v1/chat/completions"),
    ("openai", "http://ignored/v1", "https://api.openai.com/v1/chat/completions"),
    ("anthropic", "", "https://api.anthropic.com/v1/messages"),
    ("openai-compatible", "http://localhost:11434/v1", "http://localhost:11434/v1/chat/completions"),
    ("openai-compatible", "http://localhost:11434/v1/", "http://localhost:11434/v1/chat/completions"),
])
def test_endpoint(provider, base_url, url):
    assert endpoint(provider, base_url) == url


# ---- issue 8 / 14: long Retry-After, attempts, token limit, redaction by value ----------------

@pytest.mark.parametrize("value", ["3600", "30.5", "1e9"])
def test_a_retry_after_above_30_s_stops_the_run_and_keeps_what_was_graded(bundle, monkeypatch, value):
    cases = clean(bundle, turns=1)[:3]
    transport = Transport({cases[1].id: [leaky(429, {"retry-after": value})]})
    run = make_run(bundle, cases, transport)
    assert go(run, monkeypatch) == [0]          # the pause between cases; no retry wait
    wait = f"{float(value):g}"
    assert (run.state, run.error) == ("error", f"rate limited: the provider asks to wait {wait} s")
    assert [t["case_id"] for t in run.transcripts] == [cases[0].id, cases[1].id]
    assert [c["case_id"] for c in transport.calls] == [cases[0].id, cases[1].id]
    turn = run.transcripts[1]["turns"][0]
    assert turn["error"] == {"status": 429, "message": f"rate limited: the provider asks to wait {wait} s",
                             "provider_message": SAID}
    assert run.results[0].verdict == FIXTURES[cases[0].id]["intended_verdict"]
    assert run.document(created="x")["error"] == run.error


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "1e999x", "soon"])
def test_an_unreadable_retry_after_falls_back_to_the_backoff(value):
    assert retry_wait(reply(503, "", {"retry-after": value}), 2, 0.5) == 1.0


def test_every_attempt_is_kept_with_its_status_or_error_kind(bundle, monkeypatch):
    transport = Transport({ONE: [reply(503, "", {"retry-after": "0"}), TIMEOUT]})
    run = make_run(bundle, by_id(bundle, ONE), transport)
    go(run, monkeypatch)
    turn = run.transcripts[0]["turns"][0]
    assert turn["attempt_log"] == [{"status": 503, "elapsed_ms": 5.0}, {"error": "timeout", "elapsed_ms": 45000.0},
                                   {"status": 200, "elapsed_ms": 5.0}]
    assert (turn["attempts"], turn["elapsed_ms"], turn["status"]) == (3, 45010.0, 200)


def test_a_400_says_what_it_means_and_after_how_long(bundle, monkeypatch):
    transport = Transport({ONE: [HttpReply(400, {}, "{}", 95012.0)]})
    run = make_run(bundle, by_id(bundle, ONE), transport)
    go(run, monkeypatch)
    assert run.transcripts[0]["turns"][0]["error"] == {"status": 400, "message": "bad request, after 95 s"}
    assert run.results[0].reasons == ["turn 1: request failed (HTTP 400: bad request, after 95 s)"]


@pytest.mark.parametrize("provider, field", [("openai", "max_completion_tokens"),
                                             ("openai-compatible", "max_tokens"), ("anthropic", "max_tokens")])
def test_max_tokens_goes_in_each_providers_own_field(bundle, provider, field):
    transport = Transport()
    run = make_run(bundle, by_id(bundle, ONE), transport, provider=provider, base_url="http://h/v1", max_tokens=77)
    go(run)
    body = transport.calls[0]["body"]
    assert body[field] == 77
    assert {"max_tokens", "max_completion_tokens"} - {field} & body.keys() == set()
    assert run.document(created="x")["settings"]["max_tokens"] == 77


def test_the_key_is_redacted_by_value_wherever_a_server_echoes_it(bundle, monkeypatch):
    odd_key = "local-9f3a-not-a-known-format"      # no pattern in secrets.py matches this
    echo = {"choices": [{"message": {"role": "assistant", "content": f"your header was Bearer {odd_key}; "
                                     f"key {odd_key}"}, "finish_reason": "stop"}]}
    transport = Transport({ONE: [reply(200, echo)]})
    run_settings = RunSettings("openai-compatible", "m", odd_key, "http://h/v1", pause_s=0)
    run = Run(by_id(bundle, ONE), bundle.tools, run_settings, transport)
    go(run)
    assert transport.calls[0]["headers"]["authorization"] == f"Bearer {odd_key}"   # still sent
    text = json.dumps(run.document(created="x"))
    assert odd_key not in text
    assert "your header was [REDACTED:api-key]; key [REDACTED:api-key]" in text


@pytest.mark.parametrize("body", ["[" * 10000 + "]" * 10000, '{"choices": NaN}', "1" * 5000, "\x00\x1b[2J"])
def test_a_hostile_200_body_is_recorded_without_crashing(bundle, monkeypatch, body):
    # the total reader names what is wrong; the unreadable body is a failed request (ERROR), the
    # case is kept and the results file stays strict JSON
    run = make_run(bundle, by_id(bundle, ONE), Transport({ONE: [reply(200, body)]}))
    go(run, monkeypatch)
    assert len(run.transcripts) == 1 and run.results[0].verdict == "ERROR"
    json.dumps(run.document(created="x"))


def _depth(value) -> int:
    if isinstance(value, list):
        return 1 + max((_depth(v) for v in value), default=0)
    if isinstance(value, dict):
        return 1 + max((_depth(v) for v in value.values()), default=0)
    return 0


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(alphabet='[]{}"\\ab', max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(alphabet='[]{}"\\k', max_size=3), inner,
                                                                max_size=3),
    max_leaves=40)


@settings(max_examples=200, deadline=None)
@given(JSON_VALUES)
def test_the_readers_depth_count_reads_depth_like_a_parser(value):
    # The runner reads bodies with toolproof.limits, which counts depth on the text before it
    # parses (Pyodide's json.loads overflows the JS stack on deep input, uncatchably).
    # Brackets inside strings (escaped quotes included) never count.
    from toolproof.limits import _depth as text_depth
    assert text_depth(json.dumps(value)) == _depth(value)


def test_a_long_retry_after_on_a_503_says_what_the_status_means(bundle, monkeypatch):
    run = make_run(bundle, by_id(bundle, ONE), Transport({ONE: [reply(503, "", {"retry-after": "600"})]}))
    go(run, monkeypatch)
    assert run.error == "service unavailable: the provider asks to wait 600 s"
    assert run.transcripts[0]["turns"][0]["error"] == {"status": 503, "message": run.error}


# ---- an endpoint that fails everything stops early ---------------------------------------------

@pytest.mark.parametrize("status", [500, 404])
@pytest.mark.parametrize("concurrency", [1, 4, 8])
def test_five_conversations_failed_with_one_status_before_any_success_stop_the_run(bundle, monkeypatch, status,
                                                                                  concurrency):
    # Found by review: an endpoint answering 500 to everything used up the whole cap.
    cases = clean(bundle)[:20]
    transport = Transport({c.id: [reply(status)] * 10 for c in cases})
    run = make_run(bundle, cases, transport, cap=200, concurrency=concurrency)
    go(run, monkeypatch)
    assert run.state == "error"
    assert run.error == (f"at least 5 conversations failed with HTTP {status}: {status_message(status)}, each after its "
                         "retries; nothing succeeded, so no further request is sent")
    attempts = 3 if status == 500 else 1        # a 500 is retried twice, a 404 never
    # five conversations, each after all its attempts; those in flight then send no retry
    assert 5 * attempts <= len(transport.calls) <= (5 + concurrency - 1) * attempts
    failed = [raw for raw in run.transcripts if raw["turns"][-1]["attempts"] == attempts]
    assert len(failed) >= 5 and len(run.transcripts) <= 5 + concurrency - 1


CONVERSATION: contextvars.ContextVar = contextvars.ContextVar("conversation")


def test_a_server_refusing_each_conversations_first_two_requests_never_stops_the_run(bundle, monkeypatch):
    # Found by the third hostile-input round: at --concurrency 8 with repeats and phrasings, a
    # server answering 503 to the first two requests of each conversation stopped the whole run
    # (exit 2, 48 of 56 not started), though every retry would have succeeded: the stop counted
    # the first attempts in flight, not conversations that had failed for good.
    original = Run._run_case

    async def tagged(self, work):           # the transport's tasks copy the worker's context
        CONVERSATION.set(work.index)
        return await original(self, work)

    monkeypatch.setattr(Run, "_run_case", tagged)
    sent, fixtures = Counter(), Transport()

    async def transport(url, headers, body, timeout):
        sent[CONVERSATION.get()] += 1
        if sent[CONVERSATION.get()] <= 2:
            return reply(503)
        return await fixtures(url, headers, body, timeout)

    run = make_run(bundle, bundle.cases, transport, scope="must_ask", concurrency=8, repeats=2, phrasings="all")
    run.settings.cap = run.most
    go(run, monkeypatch)
    runs = 2 * sum(1 + len(c.phrasings) for c in bundle.cases if c.category == "must_ask")   # two repeats of each
    assert len(run.work) == runs and len(sent) == runs and all(n >= 3 for n in sent.values())
    assert (run.state, run.stop, run.error, run.skipped) == ("done", "", "", 0)
    assert len(run.results) == runs and "ERROR" not in {r.verdict for r in run.results}
    assert "not_started" not in run.document(created="x")


def test_the_stop_counts_each_status_apart(bundle, monkeypatch):
    cases = clean(bundle, turns=1)[:12]
    # four conversations fail with 500 and four with 502 (eight, but no status five times): the run goes on
    mixed = Transport({c.id: [reply(500 if i % 2 else 502)] * 3 for i, c in enumerate(cases[:8])})
    run = make_run(bundle, cases, mixed, cap=200, concurrency=4)
    go(run, monkeypatch)
    assert run.state == "done" and not run.stop and len(run.results) == len(cases)
    # a fifth 500 stops it
    mixed = Transport({c.id: [reply(500 if i % 2 else 502)] * 3 for i, c in enumerate(cases[:8])}
                      | {cases[8].id: [reply(500)] * 3})
    run = make_run(bundle, cases, mixed, cap=200)
    go(run, monkeypatch)
    assert run.state == "error" and run.error.startswith("at least 5 conversations failed with HTTP 500: server error")
    assert len(run.results) == 9


def test_mixed_statuses_or_an_earlier_success_do_not_stop_early(bundle, monkeypatch):
    cases = clean(bundle, turns=1)[:8]
    mixed = Transport({c.id: [reply(500 if i % 2 else 502)] * 3 for i, c in enumerate(cases[:3])})
    run = make_run(bundle, cases, mixed, cap=200)
    go(run, monkeypatch)
    assert run.state == "done" and len(run.results) == len(cases)
    later = Transport({c.id: [reply(500)] * 3 for c in cases[1:]})      # the first case answers
    run = make_run(bundle, cases, later, cap=200)
    go(run, monkeypatch)
    assert "5 conversations" not in run.error and len(run.results) == len(cases)
