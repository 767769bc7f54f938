"""The agent loop (running/scenario_run.py inside the shared Run), end to end for all five wire
formats against a fake multi-turn model (tests/fakeagent.py): parallel calls answered in the same
turn, tool errors in each provider's shape, invalid JSON arguments, a model that never stops
calling (cut at the turn limit, graded), a 500 mid-conversation (ERROR, no scenario lost), abort,
concurrency with repeats, the cap and the early stop as for cases; requests sent == model turns in
the results file and on the wire, and no request anywhere but the model's endpoint."""
from __future__ import annotations

import asyncio
import json
from urllib.parse import urlsplit

import pytest

from fakeagent import FakeAgent
from toolproof.cli.transport import urllib_transport
from toolproof.errors import ToolProofError
from toolproof.providers.catalog import PROVIDERS
from toolproof.running.runner import SAME_STATUS_STOP, Run, RunSettings
from toolproof.running.scenario_run import scenario_need
from toolproof.running.transport import HttpReply
from toolproof.worlds.load import load_world
from worldkit import FIRSTS, SCRIPTS, run_doc

WORLDS = {"minibank": load_world(run_doc(), "minibank.json")}
ORDER = ["minibank.pay", "minibank.rates", "minibank.loop", "minibank.ask"]
NEED = 6 + 6 + 4 + 6


class InMemory:
    """The fake model with no socket: every request's URL is recorded, answered by the script."""

    def __init__(self, scripts: dict = SCRIPTS, block_at: int | None = None):
        self.fake = FakeAgent(scripts)
        self.fake.server.server_close()         # never served: answers are computed in-process
        self.urls: list[str] = []
        self.block_at = block_at

    async def __call__(self, url, headers, body, timeout):
        self.urls.append(url)
        if self.block_at is not None and len(self.urls) >= self.block_at:
            await asyncio.Event().wait()        # hangs until abort cancels it
        status, answer = self.fake.answer(urlsplit(url).path, body)
        await asyncio.sleep(0)
        return HttpReply(status, {}, json.dumps(answer), 1.0)


def settings(provider: str, base: str = "", **extra) -> RunSettings:
    base = base or ("" if provider == "openai" else "http://model.test")
    values = dict(cap=NEED, pause_s=0, backoff_s=0.01, timeout_s=20)
    values.update(extra)
    return RunSettings(provider, "gpt-5-mini" if provider == "openai-responses" else "fake-model",
                       "sk-test-key-1234567890", base, values.pop("scope", "scenarios"), **values)


def go(run: Run) -> Run:
    asyncio.run(asyncio.wait_for(run.run(), 120))       # a hang guard, not a timing
    return run


def by_id(run: Run) -> dict:
    return {t["case_id"]: (t, r) for t, r in zip(run.transcripts, run.results)}


def sent_turns(run: Run) -> int:
    return sum(len(t["turns"]) for t in run.transcripts)


@pytest.mark.parametrize("provider", PROVIDERS)
def test_every_wire_format_holds_each_conversation_to_its_end(provider):
    wire = InMemory()
    run = go(Run([], {}, settings(provider), wire, worlds=WORLDS))
    assert run.state == "done", run.error
    done = by_id(run)
    assert list(done) == ORDER
    # requests sent == model turns taken: the results file, the ledger and the wire agree
    assert len(wire.urls) == sent_turns(run) == run.used == 4 + 3 + 4 + 5
    # no request anywhere but the model's endpoint
    assert {urlsplit(u).netloc for u in wire.urls} == {"api.openai.com" if provider == "openai" else "model.test"}
    assert {t["ended"] for t, _ in done.values()} == {"answer", "turn_limit"}

    pay, result = done["minibank.pay"]
    assert [len(t.get("tool_results", [])) for t in pay["turns"]] == [1, 1, 1, 0]
    failed, paid = pay["turns"][1]["tool_results"][0], pay["turns"][2]["tool_results"][0]
    assert failed["error"] is True and failed["change"] == [] and "insufficient funds" in failed["result"]["error"]
    assert paid["error"] is False and {c["table"] for c in paid["change"]} == {"accounts", "transfers"}
    assert result.verdict == "PASS", result.reasons

    rates, _ = done["minibank.rates"]
    parallel = rates["turns"][0]["tool_results"]
    assert [(r["result"], r["error"]) for r in parallel] == [
        ({"rate": 0.92}, False), ({"rate": 0.85}, False), ({"error": "no rate for JPY"}, True)]
    assert rates["turns"][1]["tool_results"][0]["error"] is True

    loop, graded = done["minibank.loop"]
    assert loop["ended"] == "turn_limit" and len(loop["turns"]) == 4
    assert graded.verdict == "FAIL" and graded.reasons[0] == "turn limit reached (4 requests) before the task ended"

    ask, asked = done["minibank.ask"]
    assert [t.get("user", {}).get("say") for t in ask["turns"]] == [
        "100, please.", None, "Thanks. Also check my balance.", None, None]
    assert ask["ended"] == "answer" and asked.verdict == "PASS", asked.reasons


@pytest.mark.parametrize("provider", PROVIDERS)
def test_each_provider_gets_tool_errors_in_its_own_shape(provider):
    """The second request of the parallel turn carries all three answers, the error flagged as
    the provider flags one."""
    wire = InMemory()
    run = go(Run([], {}, settings(provider, scope="scenarios:minibank"), wire, worlds=WORLDS))
    rates, _ = by_id(run)["minibank.rates"]
    body = rates["turns"][1]["request"]["body"]
    if provider == "anthropic":
        results = body["messages"][-1]["content"]
        assert [r["type"] for r in results] == ["tool_result"] * 3
        assert [r.get("is_error", False) for r in results] == [False, False, True]
    elif provider == "gemini":
        parts = body["contents"][-1]["parts"]
        assert [p["functionResponse"]["response"] for p in parts] == [
            {"rate": 0.92}, {"rate": 0.85}, {"error": "no rate for JPY"}]
    elif provider == "openai-responses":
        outputs = [i for i in body["input"] if i.get("type") == "function_call_output"]
        assert [json.loads(o["output"]) for o in outputs][-1] == {"error": "no rate for JPY"}
        assert body["include"] == ["reasoning.encrypted_content"] and body["store"] is False
    else:
        tools = [m for m in body["messages"] if m["role"] == "tool"]
        assert [json.loads(m["content"]) for m in tools][-1] == {"error": "no rate for JPY"}
        assert body["parallel_tool_calls"] is True


@pytest.mark.parametrize("provider", ["openai", "openai-compatible", "openai-responses"])
def test_invalid_json_arguments_get_a_tool_error_and_change_nothing(provider):
    run = go(Run([], {}, settings(provider, scope="scenarios:minibank"), InMemory(), worlds=WORLDS))
    rates, result = by_id(run)["minibank.rates"]
    (answer,) = rates["turns"][1]["tool_results"]
    assert answer["error"] is True and answer["change"] == [] and "invalid arguments" in answer["result"]["error"]
    assert result.verdict in ("PASS", "PARTIAL", "FAIL")        # graded: model misbehaviour is data


@pytest.mark.parametrize("provider", ["openai-compatible", "anthropic", "gemini", "openai-responses"])
def test_on_the_wire_against_a_local_server(provider):
    """The real urllib transport against a server on 127.0.0.1: every request reaches the model's
    path, and the server saw exactly the requests the results file holds."""
    with FakeAgent(SCRIPTS) as fake:
        run = go(Run([], {}, settings(provider, base=fake.base + "/v1"), urllib_transport, worlds=WORLDS))
    assert run.state == "done", run.error
    assert len(fake.requests) == sent_turns(run) == run.used
    assert {r["host"] for r in fake.requests} == {urlsplit(fake.base).netloc}
    assert all(r["path"].startswith("/v1/") for r in fake.requests)
    document = run.document(created="2026-03-14T00:00:00Z")
    assert [t["case_id"] for t in document["transcripts"]] == ORDER
    assert "sk-test-key-1234567890" not in json.dumps(document)
    assert [r["body"] for r in fake.requests if r["body"] in
            [t["request"]["body"] for tr in document["transcripts"] for t in tr["turns"]]] == \
        [r["body"] for r in fake.requests]


def test_a_500_mid_conversation_is_an_error_and_no_scenario_is_lost():
    scripts = {**SCRIPTS, FIRSTS["pay"]: [SCRIPTS[FIRSTS["pay"]][0], {"status": 500}]}
    wire = InMemory(scripts)
    run = go(Run([], {}, settings("anthropic", retries=2, cap=NEED * 3), wire, worlds=WORLDS))
    done = by_id(run)
    assert list(done) == ORDER and run.state == "done"
    pay, result = done["minibank.pay"]
    assert pay["ended"] == "error" and len(pay["turns"]) == 2
    assert pay["turns"][1]["error"]["status"] == 500 and pay["turns"][1]["attempts"] == 3
    assert result.verdict == "ERROR"
    assert len(wire.urls) == run.used == sum(t["attempts"] for tr in run.transcripts for t in tr["turns"])
    assert not run.not_started()


def test_concurrency_4_with_3_repeats_keeps_plan_order_and_the_cap():
    wire = InMemory()
    run = go(Run([], {}, settings("openai-compatible", repeats=3, concurrency=4, cap=NEED * 3), wire, worlds=WORLDS))
    assert run.state == "done"
    assert [(t["case_id"], t["repeat"]) for t in run.transcripts] == [(s, r) for s in ORDER for r in range(3)]
    assert len(wire.urls) == sent_turns(run) == run.used <= NEED * 3
    verdicts = [r.verdict for r in run.results]
    assert all(verdicts[i:i + 3] == [verdicts[i]] * 3 for i in range(0, 12, 3))   # a steady model
    assert run.need == scenario_need(WORLDS, "scenarios", repeats=3) == NEED * 3


def test_a_cap_below_a_scenarios_turn_limit_leaves_it_unstarted_and_listed():
    """Each conversation reserves its turn limit when it starts and gives back what it did not use:
    with 12, pay (4 of 6 used) and rates (3 of 6) leave 5, enough for loop (4) but not ask (6)."""
    run = go(Run([], {}, settings("anthropic", cap=12), InMemory(), worlds=WORLDS))
    assert [t["case_id"] for t in run.transcripts] == ["minibank.pay", "minibank.rates", "minibank.loop"]
    assert run.used == 11
    assert run.not_started() == [{"case_id": "minibank.ask", "repeat": 0,
                                  "reason": "the request cap (12) could not cover its requests"}]


def test_abort_keeps_what_was_graded_and_lists_the_conversation_in_flight():
    wire = InMemory(block_at=6)             # pay takes 4 requests, rates blocks on its 2nd

    async def scenario():
        run = Run([], {}, settings("gemini"), wire, worlds=WORLDS)
        task = asyncio.ensure_future(run.run())
        while len(wire.urls) < 6:
            await asyncio.sleep(0.01)
        run.abort()
        await asyncio.wait_for(task, 30)
        return run
    run = asyncio.run(scenario())
    assert run.state == "aborted"
    assert [t["case_id"] for t in run.transcripts] == ["minibank.pay"]
    missing = run.not_started()
    assert missing[0] == {"case_id": "minibank.rates", "repeat": 0,
                          "reason": "the run was aborted while it was in flight"}
    assert [m["case_id"] for m in missing] == ORDER[1:]
    assert len(wire.urls) == 6


def test_an_endpoint_failing_everything_stops_after_same_status_stop_conversations():
    scripts = {first: [{"status": 404}] for first in SCRIPTS}
    wire = InMemory(scripts)
    run = go(Run([], {}, settings("openai-compatible", repeats=3, cap=NEED * 3), wire, worlds=WORLDS))
    assert run.state == "error" and len(run.transcripts) == SAME_STATUS_STOP
    assert all(t["ended"] == "error" for t in run.transcripts)
    assert len(run.not_started()) == 12 - SAME_STATUS_STOP


def test_an_unknown_world_is_one_line_naming_the_known_ones():
    with pytest.raises(ToolProofError) as raised:
        Run([], {}, settings("anthropic", scope="scenarios:nope"), InMemory(), worlds=WORLDS)
    assert str(raised.value) == "unknown world 'nope' (scope scenarios:<world>); the worlds are: minibank"
    with pytest.raises(ToolProofError):
        Run([], {}, settings("anthropic", scope="scenarios:" + "x" * 10_000), InMemory(), worlds={})


def test_the_document_and_on_callbacks_behave_as_for_cases():
    kept, seen = [], []
    run = Run([], {}, settings("anthropic"), InMemory(), worlds=WORLDS,
              on_kept=lambda index, raw: kept.append((index, raw["case_id"])),
              on_case=lambda raw, result: seen.append((result.case_id, result.category)))
    go(run)
    assert sorted(kept) == [(i, s) for i, s in enumerate(ORDER)]
    assert seen == [(s, "scenario") for s in ORDER]
    document = run.document(created="2026-03-14T00:00:00Z")
    assert document["scope"] == "scenarios" and document["requests_used"] == sent_turns(run)
    first = document["transcripts"][0]
    assert {"case_id", "world", "world_sha256", "repeat", "provider", "model", "turns", "ended"} <= set(first)
    assert first["world_sha256"] == WORLDS["minibank"].sha256 != ""


HOSTILE = [
    "not json",                                                        # unreadable: the turn fails
    "{}",                                                              # no choices: malformed, no calls
    json.dumps({"choices": [{"message": {"tool_calls": [
        {"id": f"c{i}", "type": "function", "function": {"name": "rm.-rf" if i % 2 else "get_balance",
                                                         "arguments": "[1, 2]" if i % 3 else "{\"account_id\": 7}"}}
        for i in range(300)]}, "finish_reason": "tool_calls"}]}),        # 300 calls: unknown tools, junk args
    json.dumps({"choices": [{"message": {"content": "?" * 100_000}, "finish_reason": "stop"}]}),
]


@pytest.mark.parametrize("text", HOSTILE, ids=["not-json", "empty", "300-calls", "huge-text"])
def test_a_hostile_model_is_data_never_an_exception(text):
    sent = []

    async def transport(url, headers, body, timeout):
        sent.append(body)
        return HttpReply(200, {}, text, 1.0)
    worlds = {"minibank": load_world(run_doc("loop"), "minibank.json")}
    run = go(Run([], {}, settings("openai-compatible", cap=4), transport, worlds=worlds))
    (transcript,) = run.transcripts
    (result,) = run.results
    assert result.verdict in ("PASS", "PARTIAL", "FAIL", "ERROR")
    assert len(sent) == len(transcript["turns"]) <= 4
    for turn in transcript["turns"]:
        assert len(turn.get("tool_results", [])) <= 128       # a reply's calls are read up to MAX_CALLS
