"""OpenAI Responses API: recorded-style bodies in, request bodies out.

The reader must turn every odd body into data (a parse_error, `malformed`, truncation), never an
exception; the builder must send the case's own tools flat, keep nothing server-side, and in
turn 2 echo the model's output items (without the ids `store: false` cannot resolve) followed by
one function_call_output per call.
"""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings, strategies as st

from toolproof.providers.conversation import NOT_OFFERED, UNREADABLE, case_mocks
from toolproof.providers.dispatch import reply_from_body, request_body
from toolproof.providers.responses import echoed_items, reply_from_responses, responses_request
from toolproof.providers.reply import Call, Reply


def body(*output: dict, status: str = "completed", usage: dict | None = None, **extra) -> dict:
    """A Responses body as the API records it."""
    return {"id": "resp_1", "object": "response", "created_at": 1767225600, "model": "gpt-4.1-mini",
            "status": status, "output": list(output), "parallel_tool_calls": False,
            "usage": usage if usage is not None else {"input_tokens": 90, "output_tokens": 12,
                                                      "total_tokens": 102}, **extra}


def call_item(name: str, arguments, call_id: str = "call_a", item_id: str = "fc_1") -> dict:
    return {"type": "function_call", "id": item_id, "call_id": call_id, "name": name,
            "arguments": arguments, "status": "completed"}


def message(*texts: str, item_id: str = "msg_1") -> dict:
    return {"type": "message", "id": item_id, "role": "assistant", "status": "completed",
            "content": [{"type": "output_text", "text": t, "annotations": []} for t in texts]}


# ---- reading ----------------------------------------------------------------------------------

def test_a_function_call_item():
    reply = reply_from_responses(body(call_item("lookup", '{"order_id": "ORD-123456"}')))
    assert reply == Reply(calls=(Call("lookup", {"order_id": "ORD-123456"}, '{"order_id": "ORD-123456"}',
                                      None, "call_a"),),
                          finish_reason="completed", usage={"input": 90, "output": 12})


def test_text_plus_call_keeps_both_in_order():
    reply = reply_from_responses(body(message("Let me check."), call_item("lookup", "{}"),
                                      call_item("refund", '{"amount": 5}', "call_b", "fc_2")))
    assert reply.text == "Let me check."
    assert [(c.name, c.arguments, c.id) for c in reply.calls] == [("lookup", {}, "call_a"),
                                                                   ("refund", {"amount": 5}, "call_b")]


@pytest.mark.parametrize("arguments, parse_error", [
    ('{"qty": 2', "arguments are not valid JSON (Expecting ',' delimiter at char 9)"),
    ('["ORD-1"]', "arguments are JSON but not an object (an array)"),
    (7, "arguments are a number, not a JSON string"),
])
def test_unreadable_arguments_are_a_finding(arguments, parse_error):
    call = reply_from_responses(body(call_item("lookup", arguments))).calls[0]
    assert (call.arguments, call.parse_error) == (None, parse_error)


def test_refusal_and_reasoning_items():
    reply = reply_from_responses(body(
        {"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": "thinking"}]},
        {"type": "message", "role": "assistant", "content": [{"type": "refusal", "refusal": "I can't help."}]}))
    assert (reply.text, reply.calls) == ("I can't help.", ())      # a summary is not the answer


@pytest.mark.parametrize("status, details, truncated, finish", [
    ("incomplete", {"reason": "max_output_tokens"}, True, "max_output_tokens"),
    ("incomplete", None, False, "incomplete"),
    ("completed", None, False, "completed"),
    ("in_progress", None, False, "in_progress"),
])
def test_truncation_is_incomplete_for_max_output_tokens(status, details, truncated, finish):
    reply = reply_from_responses(body(call_item("lookup", '{"order_id": "OR'), status=status,
                                      incomplete_details=details))
    assert (reply.truncated, reply.finish_reason) == (truncated, finish)


@pytest.mark.parametrize("raw, reason", [
    (None, "response body is not a JSON object"),
    ("<html>502</html>", "response body is not a JSON object"),
    ({}, "response has no output list"),
    ({"output": "text"}, "response has no output list"),
    ({"choices": [{"message": {"content": "hi"}}]}, "response has no output list"),
    ({"status": "failed", "error": {"code": "server_error", "message": "key sk-x"}, "output": []},
     "response status is failed: the provider produced no answer"),
    ({"status": "incomplete", "incomplete_details": {"reason": "content_filter"}, "output": []},
     "status incomplete (content_filter): the reply was stopped by the provider's content filter"),
])
def test_malformed_bodies_are_data(raw, reason):
    assert reply_from_body("openai-responses", raw) == Reply(malformed=reason)


def test_junk_items_and_fields_are_skipped():
    reply = reply_from_responses(body("x", None, [1], {"type": "function_call", "name": 3, "call_id": [],
                                                       "arguments": "{}"},
                                      {"type": "message", "content": [{"type": "output_text", "text": 5}, "y"]},
                                      usage={"input_tokens": True, "output_tokens": 3.5}))
    assert reply.calls == (Call("", {}, "{}", None, ""),) and reply.text == "" and reply.usage == {}


def deep(n: int) -> object:
    value: object = {}
    for _ in range(n):
        value = {"a": [value]}
    return value


@pytest.mark.parametrize("arguments", [
    json.dumps({"note": "x" * 2_000_000}),                      # huge
    json.dumps(deep(200)),                                       # deep
    '{"qty": NaN, "price": Infinity}',                           # JSON's non-numbers
    '{"note": "\\u0000\\u001b[31m\\u202e"}',                     # control characters
])
def test_hostile_arguments_never_raise(arguments):
    reply = reply_from_responses(body(call_item("lookup", arguments)))
    call = reply.calls[0]
    assert call.raw_arguments == arguments
    assert call.parse_error is not None or isinstance(call.arguments, dict)


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                    max_leaves=25)
SHAPED = st.fixed_dictionaries({"status": JSON | st.sampled_from(["completed", "incomplete", "failed"]),
                                "output": st.lists(st.fixed_dictionaries(
                                    {"type": st.sampled_from(["function_call", "message", "reasoning"])},
                                    optional={"name": JSON, "call_id": JSON, "arguments": JSON, "id": JSON,
                                              "content": JSON, "encrypted_content": JSON}), max_size=4)},
                               optional={"incomplete_details": JSON, "usage": JSON})


@settings(max_examples=300, deadline=None)
@given(st.one_of(JSON, SHAPED))
def test_reader_and_echo_never_raise(raw):
    reply = reply_from_responses(raw)
    assert isinstance(reply, Reply)
    echoed = echoed_items(raw)
    # ids only where the API pairs them: a reasoning item and the calls after it
    assert all("id" not in item or item.get("type") in ("reasoning", "function_call") for item in echoed)
    kinds = [item.get("type") for item in echoed]
    for index, item in enumerate(echoed):
        if item.get("type") == "function_call" and "id" in item:
            assert "reasoning" in kinds[:index]


# ---- building ---------------------------------------------------------------------------------

def test_turn_one(bundle):
    case = next(c for c in bundle.cases if c.system)
    tools = [bundle.tools[n] for n in case.tools]
    out = request_body("openai-responses", case, tools, model="gpt-4.1-mini", max_tokens=256)
    assert out == {
        "model": "gpt-4.1-mini",
        "input": [{"type": "message", "role": "user", "content": case.prompt}],
        "tools": [{"type": "function", "name": t.name, "description": t.description, "parameters": t.parameters}
                  for t in tools],
        "tool_choice": "auto", "parallel_tool_calls": False, "store": False,
        "instructions": case.system, "max_output_tokens": 256,
    }
    assert "max_output_tokens" not in request_body("openai-responses", case, tools, model="m", max_tokens=None)


def test_turn_two_echoes_reasoning_with_its_calls_then_the_outputs(bundle):
    case = next(c for c in bundle.cases if c.id == "mst-refund-latest-order")
    tools = [bundle.tools[n] for n in case.tools]
    first = body({"type": "reasoning", "id": "rs_1", "summary": []},          # a bare reference: dropped
                 {"type": "reasoning", "id": "rs_2", "summary": [], "encrypted_content": "gAAA"},
                 message("Looking up the latest order."),
                 call_item("search_orders", '{"customer_email": "li.wei@example.com"}'),
                 call_item("get_weather", "{}", "call_b", "fc_2"),
                 {"type": "function_call", "name": "issue_refund", "arguments": "{oops"})
    out = responses_request(case, tools, model="m", first=first, mocks=case_mocks(case))
    mock = case.mock_results["search_orders"]
    assert out["input"] == [
        {"type": "message", "role": "user", "content": case.prompt},
        {"type": "reasoning", "id": "rs_2", "summary": [], "encrypted_content": "gAAA"},
        {"type": "message", "role": "assistant", "status": "completed",
         "content": [{"type": "output_text", "text": "Looking up the latest order.", "annotations": []}]},
        # the calls after an echoed reasoning item keep their ids (the API pairs them with it)
        {"type": "function_call", "id": "fc_1", "call_id": "call_a", "name": "search_orders",
         "arguments": '{"customer_email": "li.wei@example.com"}', "status": "completed"},
        {"type": "function_call", "id": "fc_2", "call_id": "call_b", "name": "get_weather", "arguments": "{}", "status": "completed"},
        {"type": "function_call", "call_id": "call_3", "name": "issue_refund", "arguments": "{oops"},
        {"type": "function_call_output", "call_id": "call_a", "output": json.dumps(mock, ensure_ascii=False)},
        {"type": "function_call_output", "call_id": "call_b", "output": json.dumps(NOT_OFFERED)},
        {"type": "function_call_output", "call_id": "call_3", "output": json.dumps(UNREADABLE)},
    ]


def test_an_object_argument_goes_back_as_a_string(bundle):
    case = next(c for c in bundle.cases if c.id == "mst-refund-latest-order")
    first = body(call_item("search_orders", {"customer_email": "a@b.example"}))
    items = echoed_items(first)
    assert items[0]["arguments"] == '{"customer_email": "a@b.example"}'
    sent = responses_request(case, [], model="m", first=first)["input"]
    assert [i["type"] for i in sent] == ["message", "function_call", "function_call_output"]
