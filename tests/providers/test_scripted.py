"""providers/scripted.py: a path turn rendered as each provider's body reads back, through that
provider's own reader, to the same calls (names, arguments, order) and the same text."""
from __future__ import annotations

import pytest

from toolproof.providers.catalog import PROVIDERS
from toolproof.providers.dispatch import reply_from_body
from toolproof.providers.scripted import reply_body

TURNS = [
    # a text answer only, with non-ASCII (the Portuguese reply a real model gives)
    {"say": "Transferi 900 € para o senhorio. Confirma?"},
    # one call
    {"calls": [{"tool": "find_payee", "arguments": {"name": "landlord"}}]},
    # parallel calls, nested arguments, an empty argument object
    {"calls": [{"tool": "get_weather", "arguments": {"city": "Lisbon", "days": [1, 2]}},
               {"tool": "get_weather", "arguments": {"city": "Porto", "opts": {"unit": "c"}}},
               {"tool": "list_accounts", "arguments": {}}]},
    # text beside a call (some models narrate)
    {"say": "Let me check.", "calls": [{"tool": "get_balance", "arguments": {"account_id": "ACC-1"}}]},
]


@pytest.mark.parametrize("provider", PROVIDERS)
@pytest.mark.parametrize("turn", TURNS, ids=["say", "one", "parallel", "both"])
def test_every_reader_reads_back_the_turn(provider, turn):
    reply = reply_from_body(provider, reply_body(provider, turn, number=3))
    assert reply.malformed is None and not reply.blocked and not reply.unfinished
    assert [(c.name, c.arguments, c.parse_error) for c in reply.calls] == \
        [(c["tool"], c["arguments"], None) for c in turn.get("calls", [])]
    assert reply.text == turn.get("say", "")
    assert not reply.truncated


@pytest.mark.parametrize("provider", PROVIDERS)
def test_call_ids_are_unique_across_turns(provider):
    parallel = {"calls": [{"tool": "a", "arguments": {}}, {"tool": "b", "arguments": {}}]}
    ids = [c.id for n in (1, 2) for c in reply_from_body(provider, reply_body(provider, parallel, number=n)).calls]
    if provider == "gemini":        # Gemini sends no call ids; none is invented in its body
        assert ids == [""] * 4
    else:
        assert len(set(ids)) == 4


def test_a_record_turn_reads_like_a_mapping():
    class Call:
        tool, arguments = "find_payee", {"name": "x"}

    class Turn:
        calls, say = (Call(),), None
    assert reply_body("anthropic", Turn()) == reply_body("anthropic", {"calls": [{"tool": "find_payee",
                                                                                 "arguments": {"name": "x"}}]})


@pytest.mark.parametrize("provider", ["openai", "openai-compatible", "openai-responses"])
def test_raw_arguments_script_invalid_json(provider):
    turn = {"calls": [{"tool": "transfer_funds", "raw_arguments": '{"amount": 9'}]}
    (call,) = reply_from_body(provider, reply_body(provider, turn)).calls
    assert call.arguments is None and call.raw_arguments == '{"amount": 9'
    assert call.parse_error.startswith("arguments are not valid JSON")


def test_finish_reasons_say_whether_the_model_called():
    call = {"calls": [{"tool": "a", "arguments": {}}]}
    assert reply_body("openai", call)["choices"][0]["finish_reason"] == "tool_calls"
    assert reply_body("openai", {"say": "done"})["choices"][0]["finish_reason"] == "stop"
    assert reply_body("anthropic", call)["stop_reason"] == "tool_use"
    assert reply_body("anthropic", {"say": "done"})["stop_reason"] == "end_turn"


def test_hostile_turns_render_without_raising():
    for provider in PROVIDERS:
        for turn in ({}, {"calls": None}, {"calls": [{}]}, {"say": 5}, {"calls": [{"tool": "x", "arguments": None}]}):
            reply = reply_from_body(provider, reply_body(provider, turn))
            assert reply.malformed is None
            assert all(c.arguments == {} for c in reply.calls)
