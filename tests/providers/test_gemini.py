"""Gemini generateContent: recorded-style bodies in, request bodies out.

Gemini's traps each have a test: thought signatures must come back byte for byte in turn 2,
MAX_TOKENS is truncation, MALFORMED_FUNCTION_CALL / UNEXPECTED_TOOL_CALL are a failed call and
never "no call" (BFCL read them as abstentions: gorilla #443, #1362), SAFETY / RECITATION fail
with that reason, and the key is never part of a URL.
"""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings, strategies as st

from toolproof.datafiles import load_bundle
from toolproof.providers.conversation import NOT_OFFERED, UNREADABLE, case_mocks
from toolproof.providers.dispatch import endpoint, public_headers, reply_from_body, request_body, request_headers
from toolproof.providers.gemini import gemini_request, reply_from_gemini
from toolproof.providers.reply import Call, Reply

TWO_TURNS = next(c for c in load_bundle().cases if c.id == "mst-refund-latest-order")
SIG = "CiQBcsjafD0x+8Jq2kq0Qx7Wz/AAAA=="


def body(*parts: dict, finish: str = "STOP", usage: dict | None = None, **candidate) -> dict:
    """A generateContent body as the API records it."""
    return {"candidates": [{"content": {"role": "model", "parts": list(parts)}, "finishReason": finish,
                            "index": 0, **candidate}],
            "usageMetadata": usage if usage is not None else {"promptTokenCount": 80, "candidatesTokenCount": 9,
                                                              "thoughtsTokenCount": 30, "totalTokenCount": 119},
            "modelVersion": "gemini-3-pro-preview", "responseId": "r1"}


def fcall(name: str, args, signature: str | None = SIG, **extra) -> dict:
    part = {"functionCall": {"name": name, "args": args, **extra}}
    if signature is not None:
        part["thoughtSignature"] = signature
    return part


# ---- reading ----------------------------------------------------------------------------------

def test_a_function_call_part():
    reply = reply_from_gemini(body(fcall("lookup", {"order_id": "ORD-123456"})))
    assert reply == Reply(calls=(Call("lookup", {"order_id": "ORD-123456"}, '{"order_id": "ORD-123456"}'),),
                          finish_reason="STOP", usage={"input": 80, "output": 39})


def test_text_plus_calls_and_thought_parts():
    reply = reply_from_gemini(body({"text": "planning...", "thought": True, "thoughtSignature": SIG},
                                   {"text": "Let me check "}, {"text": "that."},
                                   fcall("lookup", {}), fcall("refund", {"amount": 5}, None, id="fc-2")))
    assert reply.text == "Let me check that."
    assert [(c.name, c.arguments, c.id) for c in reply.calls] == [("lookup", {}, ""), ("refund", {"amount": 5}, "fc-2")]


@pytest.mark.parametrize("args, raw, parse_error", [
    ("{\"a\": 1}", "{\"a\": 1}", "functionCall args is a string, not an object"),
    ([1], "[1]", "functionCall args is an array, not an object"),
    (None, "null", "functionCall args is null, not an object"),
])
def test_args_that_are_not_an_object_are_a_finding(args, raw, parse_error):
    call = reply_from_gemini(body(fcall("lookup", args))).calls[0]
    assert (call.arguments, call.raw_arguments, call.parse_error) == (None, raw, parse_error)


def test_missing_args_mean_no_arguments():
    assert reply_from_gemini(body({"functionCall": {"name": "list_unread"}})).calls[0].arguments == {}


def test_max_tokens_is_truncation():
    reply = reply_from_gemini(body({"text": "The order"}, finish="MAX_TOKENS"))
    assert (reply.truncated, reply.finish_reason) == (True, "MAX_TOKENS")


@pytest.mark.parametrize("finish, malformed", [
    ("MALFORMED_FUNCTION_CALL", "malformed tool call: finishReason MALFORMED_FUNCTION_CALL, "
                                "the model tried to call a tool but the call was malformed"),
    ("UNEXPECTED_TOOL_CALL", "malformed tool call: finishReason UNEXPECTED_TOOL_CALL, "
                             "the model tried to call a tool in a way the request did not allow"),
    ("SAFETY", "finishReason SAFETY: the reply was blocked for safety"),
    ("RECITATION", "finishReason RECITATION: the reply was stopped for recitation (it would repeat source material)"),
    ("PROHIBITED_CONTENT", "finishReason PROHIBITED_CONTENT: the reply was blocked as prohibited content"),
])
def test_endings_that_are_not_an_answer(finish, malformed):
    # as Gemini sends them: usually no content at all, sometimes a finishMessage
    raw = {"candidates": [{"finishReason": finish, "index": 0,
                           "finishMessage": "Malformed function call: print(default_api.lookup(order_id=ORD))"}],
           "usageMetadata": {"promptTokenCount": 50}}
    reply = reply_from_gemini(raw)
    assert reply == Reply(finish_reason=finish, usage={"input": 50}, malformed=malformed)
    # a partial text or call part beside the ending does not turn it into an answer (but an
    # UNEXPECTED_TOOL_CALL's own call is read: see test_unexpected_tool_call_names_its_tool)
    if finish != "UNEXPECTED_TOOL_CALL":
        assert reply_from_gemini(body({"text": "hi"}, fcall("lookup", {}), finish=finish)).malformed == malformed


@pytest.mark.parametrize("raw, reason", [
    (None, "response body is not a JSON object"),
    ([{"candidates": []}], "response body is not a JSON object"),
    ({}, "response has no candidates"),
    ({"candidates": []}, "response has no candidates"),
    ({"candidates": ["x"]}, "response has no candidates"),
    ({"error": {"code": 400, "message": "API key not valid"}}, "response has no candidates"),
    ({"promptFeedback": {"blockReason": "SAFETY"}}, "the prompt was blocked (blockReason SAFETY): no candidates"),
])
def test_malformed_bodies_are_data(raw, reason):
    assert reply_from_body("gemini", raw) == Reply(malformed=reason)


def test_junk_parts_are_skipped():
    reply = reply_from_gemini(body("x", None, {"functionCall": "lookup"}, {"text": 4},
                                   {"functionCall": {"name": ["a"], "args": {}, "id": 3}},
                                   usage={"promptTokenCount": "80", "candidatesTokenCount": False}))
    assert reply == Reply(calls=(Call("", {}, "{}"),), finish_reason="STOP")


def deep(n: int) -> object:
    value: object = {}
    for _ in range(n):
        value = {"a": [value]}
    return value


@pytest.mark.parametrize("args", [
    {"note": "x" * 2_000_000}, deep(300), {"qty": float("nan"), "price": float("inf")},
    {"note": "\u0000\u001b[31m\u202e", "\u0000": 1},
])
def test_hostile_args_never_raise(args):
    call = reply_from_gemini(body(fcall("lookup", args))).calls[0]
    assert call.arguments is args and call.parse_error is None


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                    max_leaves=25)
PART = st.fixed_dictionaries({}, optional={"text": JSON, "thought": JSON, "thoughtSignature": JSON,
                                            "functionCall": JSON | st.fixed_dictionaries(
                                                {"name": JSON}, optional={"args": JSON, "id": JSON})})
SHAPED = st.fixed_dictionaries({"candidates": st.lists(st.fixed_dictionaries(
    {}, optional={"content": JSON | st.fixed_dictionaries({"parts": st.lists(PART | JSON, max_size=4)}),
                  "finishReason": JSON | st.sampled_from(["STOP", "MAX_TOKENS", "SAFETY", "MALFORMED_FUNCTION_CALL"])}),
    max_size=2)}, optional={"usageMetadata": JSON, "promptFeedback": JSON})


@settings(max_examples=300, deadline=None)
@given(st.one_of(JSON, SHAPED))
def test_reader_and_second_turn_never_raise(raw):
    assert isinstance(reply_from_gemini(raw), Reply)
    out = gemini_request(TWO_TURNS, [], model="m", first=raw, mocks=case_mocks(TWO_TURNS))
    assert len(out["contents"]) == (1 if raw is None else 3)      # None is "no first turn yet"


# ---- building ---------------------------------------------------------------------------------

def test_turn_one(bundle):
    case = next(c for c in bundle.cases if c.system)
    tools = [bundle.tools[n] for n in case.tools]
    out = request_body("gemini", case, tools, model="gemini-2.5-flash", max_tokens=300)
    assert out == {
        "contents": [{"role": "user", "parts": [{"text": case.prompt}]}],
        "tools": [{"functionDeclarations": [{"name": t.name, "description": t.description,
                                             "parametersJsonSchema": t.parameters} for t in tools]}],
        "toolConfig": {"functionCallingConfig": {"mode": "AUTO"}},
        "systemInstruction": {"parts": [{"text": case.system}]},
        "generationConfig": {"maxOutputTokens": 300},
    }
    assert "generationConfig" not in request_body("gemini", case, tools, model="m", max_tokens=None)


def test_turn_two_repeats_the_model_content_exactly_then_function_responses(bundle):
    case = next(c for c in bundle.cases if c.id == "mst-refund-latest-order")
    tools = [bundle.tools[n] for n in case.tools]
    content = {"role": "model", "parts": [
        {"text": "Looking it up.", "thoughtSignature": "T1"},
        fcall("search_orders", {"customer_email": "li.wei@example.com"}, "S1", id="c1"),
        fcall("get_weather", {"city": "Paris"}, "S2"),
        fcall("issue_refund", "oops", None)]}
    first = {"candidates": [{"content": content, "finishReason": "STOP"}]}
    out = gemini_request(case, tools, model="m", first=first, mocks=case_mocks(case))
    assert out["contents"][1] is content                      # as received: nothing rebuilt
    assert json.dumps(out["contents"][1]) == json.dumps(json.loads(json.dumps(first))["candidates"][0]["content"])
    assert out["contents"][2] == {"role": "user", "parts": [
        {"functionResponse": {"name": "search_orders", "response": case.mock_results["search_orders"], "id": "c1"}},
        {"functionResponse": {"name": "get_weather", "response": NOT_OFFERED}},
        {"functionResponse": {"name": "issue_refund", "response": UNREADABLE}},
    ]}


def test_a_mock_result_that_is_not_an_object_is_wrapped(bundle):
    case = next(c for c in bundle.cases if c.id == "mst-refund-latest-order")
    first = body(fcall("search_orders", {}))
    out = gemini_request(case, [], model="m", first=first, mocks={"search_orders": ["ORD-1", "ORD-2"]})
    assert out["contents"][2]["parts"][0]["functionResponse"]["response"] == {"output": ["ORD-1", "ORD-2"]}


@pytest.mark.parametrize("base, model, url", [
    ("", "gemini-2.5-flash", "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent"),
    ("", "models/gemini-3-pro-preview", "https://generativelanguage.googleapis.com/v1beta/models/gemini-3-pro-preview:generateContent"),
    ("http://127.0.0.1:9/v1beta/", "m", "http://127.0.0.1:9/v1beta/models/m:generateContent"),
    # a model name cannot add a path, a query (a ?key=) or a fragment
    ("", "../x?key=AIza#f", "https://generativelanguage.googleapis.com/v1beta/models/..%2Fx%3Fkey%3DAIza%23f:generateContent"),
    ("", "gémini 1", "https://generativelanguage.googleapis.com/v1beta/models/g%C3%A9mini%201:generateContent"),
])
def test_endpoint(base, model, url):
    assert endpoint("gemini", base, model) == url


def test_the_key_travels_only_in_x_goog_api_key():
    headers = request_headers("gemini", "AIzaSECRET")
    assert headers == {"content-type": "application/json", "x-goog-api-key": "AIzaSECRET"}
    assert public_headers(headers) == {"content-type": "application/json"}
    assert "AIzaSECRET" not in endpoint("gemini", "", "m")
