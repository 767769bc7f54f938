"""Provider replies: recorded-style OpenAI and Anthropic bodies into the neutral Reply shape.

Every odd body must come back as data (a parse_error on a call, or `malformed` on the reply),
never as an exception: the grader reads whatever a model or a proxy sent.
"""
from __future__ import annotations

import json

import pytest

from toolproof.providers.anthropic import reply_from_anthropic
from toolproof.providers.dispatch import (PROVIDERS, base_url_problem, endpoint, public_headers, reply_from_body,
                                          request_body, request_headers)
from toolproof.providers.openai import reply_from_openai
from toolproof.providers.reply import Call, Reply, arguments_from_object


def openai_body(message: dict, finish: str = "tool_calls", usage: dict | None = None) -> dict:
    """A Chat Completions body as the API records it (id, model, usage and all)."""
    return {"id": "chatcmpl-abc", "object": "chat.completion", "created": 1767225600, "model": "gpt-4o",
            "choices": [{"index": 0, "message": {"role": "assistant", **message}, "logprobs": None,
                         "finish_reason": finish}],
            "usage": usage if usage is not None else {"prompt_tokens": 120, "completion_tokens": 17,
                                                      "total_tokens": 137}}


def tool_call(name: str, arguments, call_id: str = "call_1") -> dict:
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}


def anthropic_body(*blocks: dict, stop: str = "tool_use", usage: dict | None = None) -> dict:
    """A Messages API body as recorded."""
    return {"id": "msg_01", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
            "content": list(blocks), "stop_reason": stop, "stop_sequence": None,
            "usage": usage if usage is not None else {"input_tokens": 310, "output_tokens": 42}}


def only_call(reply: Reply) -> Call:
    assert reply.malformed is None, reply.malformed
    assert len(reply.calls) == 1, reply.calls
    return reply.calls[0]


# ---- OpenAI: arguments -----------------------------------------------------------------------

# (raw arguments, parsed arguments, raw_arguments kept, parse_error)
OPENAI_ARGUMENTS = [
    # the normal case: a JSON string, kept verbatim for display
    ('{"order_id": "ORD-123456", "qty": 2}', {"order_id": "ORD-123456", "qty": 2},
     '{"order_id": "ORD-123456", "qty": 2}', None),
    # a tool without parameters: models send "" and that means "no arguments", not an error
    ("", {}, "", None),
    ("   ", {}, "   ", None),
    (None, {}, "", None),
    # some OpenAI-compatible servers send an object instead of a string
    ({"city": "Lisbon"}, {"city": "Lisbon"}, '{"city": "Lisbon"}', None),
    ({"city": "Zürich"}, {"city": "Zürich"}, '{"city": "Zürich"}', None),
    # broken JSON is the model's fault: a finding with the decoder's words and position
    ('{"order": 1 2}', None, '{"order": 1 2}', "arguments are not valid JSON (Expecting ',' delimiter at char 12)"),
    ('{"city": "Lisbon"', None, '{"city": "Lisbon"', "arguments are not valid JSON (Expecting ',' delimiter at char 17)"),
    ("{'city': 'Lisbon'}", None, "{'city': 'Lisbon'}",
     "arguments are not valid JSON (Expecting property name enclosed in double quotes at char 1)"),
    # valid JSON that is not an object cannot be a set of named arguments
    ('["ORD-123456"]', None, '["ORD-123456"]', "arguments are JSON but not an object (an array)"),
    ('"ORD-123456"', None, '"ORD-123456"', "arguments are JSON but not an object (a string)"),
    ("42", None, "42", "arguments are JSON but not an object (a number)"),
    ("null", None, "null", "arguments are JSON but not an object (null)"),
    # neither a string nor an object on the wire
    (42, None, "42", "arguments are a number, not a JSON string"),
    (["a"], None, '["a"]', "arguments are an array, not a JSON string"),
]


@pytest.mark.parametrize("raw, arguments, raw_text, parse_error", OPENAI_ARGUMENTS,
                         ids=[f"args-{i}" for i in range(len(OPENAI_ARGUMENTS))])
def test_openai_arguments(raw, arguments, raw_text, parse_error):
    call = only_call(reply_from_openai(openai_body({"content": None, "tool_calls": [tool_call("f", raw)]})))
    assert (call.name, call.id) == ("f", "call_1")
    assert call.arguments == arguments
    assert call.raw_arguments == raw_text
    assert call.parse_error == parse_error


def test_openai_parallel_calls_keep_order_and_ids():
    body = openai_body({"content": None, "tool_calls": [
        tool_call("lookup", '{"order_id": "ORD-1"}', "call_a"),
        tool_call("refund", '{"amount": 5}', "call_b")]})
    reply = reply_from_openai(body)
    assert [(c.name, c.id, c.arguments) for c in reply.calls] == [
        ("lookup", "call_a", {"order_id": "ORD-1"}), ("refund", "call_b", {"amount": 5})]
    assert (reply.text, reply.finish_reason, reply.truncated) == ("", "tool_calls", False)


def test_openai_legacy_function_call():
    # pre-tools servers answer with message.function_call and no id
    body = openai_body({"content": None, "function_call": {"name": "lookup", "arguments": '{"order_id": "ORD-1"}'}},
                       finish="function_call")
    call = only_call(reply_from_openai(body))
    assert (call.name, call.arguments, call.id, call.parse_error) == ("lookup", {"order_id": "ORD-1"}, "", None)


def test_openai_tool_calls_win_over_legacy_function_call():
    body = openai_body({"tool_calls": [tool_call("a", "{}")], "function_call": {"name": "b", "arguments": "{}"}})
    assert [c.name for c in reply_from_openai(body).calls] == ["a"]


@pytest.mark.parametrize("raw, parse_error", [
    # a junk entry in tool_calls becomes a call nobody can match, not a crash
    ("not a call", "tool call has no function object"),
    ({"id": "call_1", "type": "function"}, "tool call has no function object"),
    ({"id": "call_1", "function": "lookup"}, "tool call has no function object"),
])
def test_openai_junk_tool_call_is_data(raw, parse_error):
    call = only_call(reply_from_openai(openai_body({"tool_calls": [raw]})))
    assert (call.name, call.arguments, call.parse_error) == ("", None, parse_error)


def test_openai_non_string_name_becomes_empty():
    call = only_call(reply_from_openai(openai_body({"tool_calls": [
        {"id": 7, "function": {"name": ["lookup"], "arguments": "{}"}}]})))
    assert (call.name, call.id, call.arguments) == ("", "", {})


# ---- OpenAI: text, finish reason, usage --------------------------------------------------------

@pytest.mark.parametrize("content, text", [
    ("Lisbon is the capital.", "Lisbon is the capital."),
    (None, ""),
    # content parts (newer API and several compatible servers): text parts joined, others dropped
    ([{"type": "text", "text": "Lisbon "}, {"type": "text", "text": "is the capital."}], "Lisbon is the capital."),
    ([{"type": "refusal", "refusal": "no"}, {"type": "text", "text": "ok"}, "junk", {"text": 3}], "ok"),
    (42, ""),
])
def test_openai_text(content, text):
    reply = reply_from_openai(openai_body({"content": content}, finish="stop"))
    assert (reply.text, reply.calls, reply.malformed) == (text, (), None)


@pytest.mark.parametrize("finish, truncated", [
    ("length", True),         # cut off by max_tokens: the grader must not read it as an answer
    ("stop", False),
    ("tool_calls", False),
    ("content_filter", False),
])
def test_openai_finish_reason(finish, truncated):
    reply = reply_from_openai(openai_body({"content": "Lisbon is"}, finish=finish))
    assert (reply.finish_reason, reply.truncated) == (finish, truncated)


def test_openai_missing_finish_reason_is_empty():
    reply = reply_from_openai({"choices": [{"message": {"content": "hi"}, "finish_reason": None}]})
    assert (reply.finish_reason, reply.truncated, reply.text) == ("", False, "hi")


@pytest.mark.parametrize("usage, tokens", [
    ({"prompt_tokens": 120, "completion_tokens": 17, "total_tokens": 137}, {"input": 120, "output": 17}),
    ({"prompt_tokens": 120}, {"input": 120}),
    # junk counts are dropped one by one (a bool is not a count)
    ({"prompt_tokens": "120", "completion_tokens": True}, {}),
    ({"prompt_tokens": 1.5, "completion_tokens": 3}, {"output": 3}),
    ([], {}),
])
def test_openai_usage(usage, tokens):
    assert reply_from_openai(openai_body({"content": "x"}, usage=usage)).usage == tokens


def test_openai_body_without_usage_has_empty_usage():
    assert reply_from_openai({"choices": [{"message": {"content": "x"}}]}).usage == {}


# ---- Anthropic --------------------------------------------------------------------------------

def test_anthropic_text_and_tool_use():
    body = anthropic_body(
        {"type": "text", "text": "Let me look that up."},
        {"type": "tool_use", "id": "toolu_01", "name": "lookup", "input": {"order_id": "ORD-1"}},
        {"type": "text", "text": "And refund it."},
        {"type": "tool_use", "id": "toolu_02", "name": "refund", "input": {"amount": 5, "memo": "désolé"}})
    reply = reply_from_anthropic(body)
    assert reply.malformed is None
    assert reply.text == "Let me look that up.\nAnd refund it."
    assert [(c.name, c.id, c.arguments, c.parse_error) for c in reply.calls] == [
        ("lookup", "toolu_01", {"order_id": "ORD-1"}, None), ("refund", "toolu_02", {"amount": 5, "memo": "désolé"}, None)]
    assert reply.calls[1].raw_arguments == '{"amount": 5, "memo": "désolé"}'
    assert (reply.finish_reason, reply.truncated, reply.usage) == ("tool_use", False, {"input": 310, "output": 42})


@pytest.mark.parametrize("raw_input, raw_text, parse_error", [
    ('{"order_id": "ORD-1"}', '"{\\"order_id\\": \\"ORD-1\\"}"', "tool_use input is a string, not an object"),
    (["ORD-1"], '["ORD-1"]', "tool_use input is an array, not an object"),
])
def test_anthropic_input_not_an_object(raw_input, raw_text, parse_error):
    call = only_call(reply_from_anthropic(anthropic_body(
        {"type": "tool_use", "id": "toolu_01", "name": "lookup", "input": raw_input})))
    assert (call.arguments, call.raw_arguments, call.parse_error) == (None, raw_text, parse_error)


@pytest.mark.parametrize("block", [{"type": "tool_use", "id": "toolu_01", "name": "ping"},
                                   {"type": "tool_use", "id": "toolu_01", "name": "ping", "input": None}])
def test_anthropic_missing_or_null_input_reads_as_empty_arguments(block):
    # the same nothing as OpenAI's absent, null or "" arguments: {}, then the schema judges it
    call = only_call(reply_from_anthropic(anthropic_body(block)))
    assert (call.arguments, call.raw_arguments, call.parse_error) == ({}, "", None)


@pytest.mark.parametrize("stop, truncated", [("max_tokens", True), ("end_turn", False), ("tool_use", False),
                                              ("stop_sequence", False)])
def test_anthropic_stop_reason(stop, truncated):
    reply = reply_from_anthropic(anthropic_body({"type": "text", "text": "Lisbon is"}, stop=stop))
    assert (reply.finish_reason, reply.truncated) == (stop, truncated)


def test_anthropic_junk_blocks_are_ignored():
    # thinking blocks, unknown types, non-dicts and text blocks without a string all drop out
    body = anthropic_body(
        {"type": "thinking", "thinking": "hmm", "signature": "x"},
        "junk", None, 3,
        {"type": "text", "text": None},
        {"type": "text"},
        {"type": "image", "source": {}},
        {"type": "text", "text": "Done."},
        stop="end_turn")
    reply = reply_from_anthropic(body)
    assert (reply.text, reply.calls, reply.malformed) == ("Done.", (), None)


def test_anthropic_non_string_name_and_id_become_empty():
    call = only_call(reply_from_anthropic(anthropic_body({"type": "tool_use", "id": 1, "name": None, "input": {}})))
    assert (call.name, call.id, call.arguments) == ("", "", {})


@pytest.mark.parametrize("usage, tokens", [
    ({"input_tokens": 310, "output_tokens": 42, "cache_read_input_tokens": 0}, {"input": 310, "output": 42}),
    ({"output_tokens": 42}, {"output": 42}),
    ("310", {}),
])
def test_anthropic_usage(usage, tokens):
    assert reply_from_anthropic(anthropic_body({"type": "text", "text": "x"}, usage=usage)).usage == tokens


def test_anthropic_non_string_stop_reason():
    reply = reply_from_anthropic({"content": [], "stop_reason": None})
    assert (reply.finish_reason, reply.truncated, reply.text, reply.calls) == ("", False, "", ())


# ---- malformed bodies -------------------------------------------------------------------------

MALFORMED = [
    ("openai", None, "response body is not a JSON object"),
    ("openai", [], "response body is not a JSON object"),
    ("openai", "Internal Server Error", "response body is not a JSON object"),
    ("openai", {}, "response has no choices"),
    ("openai", {"choices": []}, "response has no choices"),
    ("openai", {"choices": None}, "response has no choices"),
    ("openai", {"choices": ["text"]}, "response has no choices"),
    # an error object passed through by a proxy with HTTP 200
    ("openai", {"error": {"message": "overloaded"}}, "response has no choices"),
    # an Anthropic body read as OpenAI (wrong provider in the transcript)
    ("openai", {"content": [{"type": "text", "text": "hi"}]}, "response has no choices"),
    ("anthropic", None, "response body is not a JSON object"),
    ("anthropic", [{"type": "text"}], "response body is not a JSON object"),
    ("anthropic", {}, "response has no content list"),
    ("anthropic", {"content": "hello"}, "response has no content list"),
    ("anthropic", {"type": "error", "error": {"type": "overloaded_error"}}, "response has no content list"),
    ("anthropic", {"choices": [{"message": {"content": "hi"}}]}, "response has no content list"),
]


@pytest.mark.parametrize("provider, body, reason", MALFORMED, ids=[f"{p}-{i}" for i, (p, _, _) in enumerate(MALFORMED)])
def test_malformed_body_is_data(provider, body, reason):
    reply = reply_from_body(provider, body)
    assert reply == Reply(malformed=reason)


def test_openai_choice_without_message_is_an_empty_reply():
    # a choice is there but says nothing: not malformed, just empty (the grader calls it empty)
    reply = reply_from_openai({"choices": [{"finish_reason": "stop"}]})
    assert reply == Reply(finish_reason="stop")


# ---- dispatch ---------------------------------------------------------------------------------

@pytest.mark.parametrize("provider", ["openai", "openai-compatible"])
def test_openai_like_providers_read_choices(provider):
    reply = reply_from_body(provider, openai_body({"content": "hi"}, finish="stop"))
    assert reply.text == "hi"


def test_anthropic_provider_reads_content_blocks():
    reply = reply_from_body("anthropic", anthropic_body({"type": "text", "text": "hi"}, stop="end_turn"))
    assert reply.text == "hi"


# ---- the registry: endpoints, headers, base URLs, dispatch -------------------------------------

@pytest.mark.parametrize("provider, base_url, model, url", [
    ("openai", "", "m", "https://api.openai.com/v1/chat/completions"),
    ("openai-responses", "", "m", "https://api.openai.com/v1/responses"),
    ("openai-responses", "https://gw.example/openai/v1/", "m", "https://gw.example/openai/v1/responses"),
    ("anthropic", "", "m", "https://api.anthropic.com/v1/messages"),
    # an Anthropic-compatible gateway (LiteLLM and others): POST {base}/v1/messages
    ("anthropic", "http://127.0.0.1:4000", "m", "http://127.0.0.1:4000/v1/messages"),
    ("anthropic", " http://127.0.0.1:4000/ ", "m", "http://127.0.0.1:4000/v1/messages"),
    ("gemini", "", "gemini-2.5-flash",
     "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent"),
    ("openai-compatible", "http://localhost:11434/v1", "m", "http://localhost:11434/v1/chat/completions"),
])
def test_endpoints(provider, base_url, model, url):
    assert endpoint(provider, base_url, model) == url


@pytest.mark.parametrize("provider, secret_header", [
    ("openai", "authorization"), ("openai-responses", "authorization"), ("openai-compatible", "authorization"),
    ("anthropic", "x-api-key"), ("gemini", "x-goog-api-key"),
])
def test_the_key_is_in_one_auth_header_and_never_public(provider, secret_header):
    headers = request_headers(provider, "KEY-123")
    holding = [k for k, v in headers.items() if "KEY-123" in v]
    assert holding == [secret_header]
    assert "KEY-123" not in json.dumps(public_headers(headers))


QUERY = "base URL must not have a query (?...) or fragment (#...): give the key as the API key, never in a URL"
CREDENTIALS = ("base URL must not contain user:password@; put the key in the API key field "
               "(or TOOLPROOF_API_KEY), which is sent only in the auth header")
CONTROLS = "base URL holds spaces or control characters"


@pytest.mark.parametrize("base_url, problem", [
    ("http://localhost:11434/v1", None),
    ("https://[::1]:8443/v1beta", None),
    ("https://gw.example/v1beta?key=AIzaSy", QUERY),
    ("https://gw.example/#k", QUERY),
    ("https://user:sk-1@gw.example", CREDENTIALS),
    ("javascript:alert(1)", "base URL must start with http:// or https://"),
    ("gw.example/v1", "base URL must start with http:// or https://"),
    ("http:///v1", "base URL has no host"),
    ("http://gw.example:0/", "base URL has no valid port"),
    ("http://gw.example:99999/", "base URL cannot be read (port out of range)"),
    ("http://gw.example:８０/", "base URL cannot be read (malformed host or port)"),
    ("http://gw example/", CONTROLS),
    ("http://gw.example/\x1b[2J", CONTROLS),
    ("http://gw.example/\u202ev1", CONTROLS),
    ("http://gw.example/\x85v1", CONTROLS),
    ("http://" + "a" * 100_000, None),
])
def test_base_url_problem(base_url, problem):
    # parsed, never sliced; the message never repeats the URL (it may hold a secret)
    assert base_url_problem(base_url) == problem


def test_request_body_passes_max_tokens_to_the_new_builders(bundle):
    case = bundle.cases[0]
    tools = [bundle.tools[n] for n in case.tools]
    assert request_body("openai-responses", case, tools, model="m", max_tokens=64)["max_output_tokens"] == 64
    assert request_body("gemini", case, tools, model="m", max_tokens=64)["generationConfig"] == {"maxOutputTokens": 64}
    for provider in PROVIDERS:
        assert "KEY" not in json.dumps(request_body(provider, case, tools, model="m"))


@pytest.mark.parametrize("provider", PROVIDERS)
def test_every_provider_reads_every_other_providers_body_as_data(provider):
    bodies = [openai_body({"content": "hi"}), anthropic_body({"type": "text", "text": "hi"}),
              {"output": [], "status": "completed"}, {"candidates": [{"content": {"parts": [{"text": "hi"}]}}]}]
    for raw in bodies:
        assert isinstance(reply_from_body(provider, raw), Reply)


def test_the_page_csp_lets_every_default_endpoint_through():
    import re
    from pathlib import Path

    from toolproof.reports.page_view import connect_allowed

    page = (Path(__file__).resolve().parents[2] / "index.html").read_text(encoding="utf-8")
    csp = re.search(r'id="csp" http-equiv="Content-Security-Policy" content="([^"]+)"', page).group(1)
    for provider in PROVIDERS:
        if provider != "openai-compatible":
            assert connect_allowed(endpoint(provider, "", "gemini-2.5-flash"), csp), provider
    assert not connect_allowed("https://generativelanguage.googleapis.com.evil.example/v1beta", csp)
# ---- limits: a model's hostile arguments are a parse error with the limit's reason -----------

DEEP_ARGS = '{"a": ' + "[" * 70 + "]" * 70 + "}"
LIMITED_ARGUMENTS = [
    (DEEP_ARGS, "arguments nested deeper than 64 levels"),
    ('{"qty": ' + "7" * 5000 + "}", "integer with more than 300 digits"),
    ('{"qty": ' + "7" * 309 + "}", "integer with more than 300 digits"),
    ('{"qty": NaN}', "NaN is not JSON"),
    ('{"qty": -Infinity}', "-Infinity is not JSON"),
    ('{"qty": 1e400}', "number 1e400 is out of range"),
    ('{"note": "\\udc00"}', "string with a lone surrogate (not Unicode text)"),
]


@pytest.mark.parametrize("raw, reason", LIMITED_ARGUMENTS)
def test_openai_string_arguments_past_a_limit(raw, reason):
    call = only_call(reply_from_openai(openai_body({"content": None, "tool_calls": [tool_call("f", raw)]})))
    assert (call.arguments, call.raw_arguments, call.parse_error) == (None, raw, reason)


def deep(depth: int) -> list:
    value: list = []
    for _ in range(depth - 1):
        value = [value]
    return value


@pytest.mark.parametrize("value, reason", [
    ({"a": deep(70)}, "arguments nested deeper than 64 levels"),
    ({"qty": 10 ** 400}, "integer with more than 300 digits"),
    ({"qty": float("nan")}, "NaN is not JSON"),
    ({"qty": float("inf")}, "Infinity is not JSON"),
])
def test_object_arguments_past_a_limit(value, reason):
    # Arguments that arrive as objects (an Anthropic input, a compatible server's object) are
    # walked by the same limits as text.
    arguments, raw, error = arguments_from_object(value)
    assert (arguments, error) == (None, reason)
    assert isinstance(raw, str) and "\n" not in raw


@pytest.mark.parametrize("value, reason", [
    ({"a": deep(70)}, "response body nested deeper than 64 levels"),
    ({"qty": 10 ** 400}, "integer with more than 300 digits"),
    ({"qty": float("nan")}, "NaN is not JSON"),
])
def test_a_handed_in_body_with_hostile_arguments_is_malformed(value, reason):
    # A body built by other code is checked whole before its calls are read.
    anthropic_reply = reply_from_anthropic(anthropic_body({"type": "tool_use", "id": "t", "name": "f", "input": value}))
    openai_reply = reply_from_openai(openai_body({"tool_calls": [tool_call("f", value)]}))
    assert anthropic_reply.malformed == openai_reply.malformed == reason
    assert anthropic_reply.calls == openai_reply.calls == ()


def test_a_body_past_a_limit_is_malformed_not_an_exception():
    body = openai_body({"content": "hi"})
    body["usage"] = {"prompt_tokens": 10 ** 5000}
    assert reply_from_openai(body).malformed == "integer with more than 300 digits"
    hostile = {"content": [{"type": "text", "text": "x"}], "extra": deep(200)}
    assert reply_from_anthropic(hostile).malformed == "response body nested deeper than 64 levels"
    assert reply_from_body("openai", {"choices": [{"message": {"content": float("nan")}}]}).malformed == \
        "NaN is not JSON"
