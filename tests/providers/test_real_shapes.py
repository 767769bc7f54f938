"""Turn 2 that the real APIs accept, and replies read right, on real-shaped bodies.

The bodies are tests/fixtures/real_shapes.json: HAND-WRITTEN from the providers' public API
references (see its "source"), not recorded traffic. Each test names what the real API did with
the wrong shape: Anthropic refused echoed response-only fields ("Extra inputs are not permitted"),
DeepSeek a turn 2 without `reasoning_content` ("must be passed back"), Gemini 3 a tool call
without its thought signature, the Responses API a reasoning item without its call's id.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from toolproof.grading.grade import grade_case
from toolproof.grading.transcripts import make_transcript
from toolproof.providers.anthropic import anthropic_turn_from_reply, reply_from_anthropic
from toolproof.providers.conversation import case_mocks
from toolproof.providers.dispatch import reply_from_body, request_body
from toolproof.providers.gemini import gemini_turn_from_reply, reply_from_gemini
from toolproof.providers.openai import openai_turn_from_reply, reply_from_openai
from toolproof.providers.responses import reply_from_responses, responses_turn_from_reply, wants_encrypted_reasoning

SHAPES = json.loads((Path(__file__).parents[1] / "fixtures" / "real_shapes.json").read_text("utf-8"))["bodies"]


def shape(name: str) -> dict:
    return json.loads(json.dumps(SHAPES[name]["body"]))      # a fresh copy: the echo must not alias


# ---- 1. turn 2 in the shape each API accepts ---------------------------------------------------

def test_anthropic_echo_keeps_only_request_fields_in_received_order():
    turn = anthropic_turn_from_reply(shape("anthropic_thinking_tool_use"))
    assert turn == {"role": "assistant", "content": [
        {"type": "thinking", "thinking": "The user wants the order; I should look it up first.",
         "signature": "EqQBCkYIBxgCKkBexampleSignature=="},
        {"type": "redacted_thinking", "data": "EmwKAhgBEgy3vaExampleRedacted=="},
        # the empty text block is left out (the API refuses empty text blocks), citations: null too
        {"type": "text", "text": "Let me look that up."},
        # `caller` is response-only: echoed, it drew 400 "Extra inputs are not permitted"
        {"type": "tool_use", "id": "toolu_01A09q90qw90lq917835lq9", "name": "get_order_status",
         "input": {"order_id": "ORD-123456"}}]}


def test_anthropic_turn_two_pairs_the_tool_result_with_the_echoed_id(bundle):
    case = next(c for c in bundle.cases if c.mock_results)
    first = shape("anthropic_thinking_tool_use")
    del first["content"][4]["id"]                       # a gateway that sends no id
    sent = request_body("anthropic", case, [], model="m", first=first, mocks=case_mocks(case))["messages"]
    assert sent[1]["content"][-1]["id"] == sent[2]["content"][0]["tool_use_id"] == "call_1"


@pytest.mark.parametrize("junk", [None, [], {"content": "x"}, {"content": [1, None, {"type": ["x"]}, {"type": "tool_use"}]}])
def test_anthropic_echo_of_junk_never_raises(junk):
    turn = anthropic_turn_from_reply(junk)
    assert turn["role"] == "assistant" and isinstance(turn["content"], list)


def test_deepseek_reasoning_content_goes_back():
    message = openai_turn_from_reply(shape("deepseek_reasoning_tool_call"))
    assert message["reasoning_content"] == "The user asks for an order status. I will call get_order_status."
    assert message["tool_calls"] == [{"index": 0, "id": "call_00_abc", "type": "function",
                                      "function": {"name": "get_order_status",
                                                   "arguments": "{\"order_id\": \"ORD-123456\"}"}}]
    assert message["role"] == "assistant" and message["content"] == ""


def test_gemini_compat_thought_signature_goes_back_on_each_call():
    message = openai_turn_from_reply(shape("gemini_openai_compat_signature"))
    call = message["tool_calls"][0]
    assert call["extra_content"] == {"google": {"thought_signature": "CuQBAYExampleThoughtSignature=="}}
    assert (call["id"], call["function"]["name"]) == ("function-call-1", "get_order_status")
    assert message["content"] == ""                    # absent content goes back as "", not null


def test_chat_echo_drops_response_only_fields():
    body = shape("openai_refusal")
    body["choices"][0]["message"].update(tool_calls=[{"id": "c1", "type": "function",
                                                      "function": {"name": "f", "arguments": "{}"}}],
                                         audio={"id": "a", "data": "..."}, refusal=None)
    message = openai_turn_from_reply(body)
    assert set(message) == {"role", "content", "tool_calls"}


def test_responses_reasoning_goes_back_with_its_call_and_ids():
    items = responses_turn_from_reply(shape("responses_reasoning_calls"))
    assert items == [
        {"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "gAAAAABexampleEncrypted=="},
        {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "get_order_status",
         "arguments": "{\"order_id\":\"ORD-123456\"}", "status": "completed"},
        # rs_bare (a reference store: false cannot resolve) and rs_2 (no call after it) are left out;
        # the message loses its id (nothing was stored)
        {"type": "message", "role": "assistant", "status": "completed",
         "content": [{"type": "output_text", "text": "Checking.", "annotations": []}]}]


def test_responses_plain_content_reasoning_goes_back():
    items = responses_turn_from_reply(shape("responses_plain_reasoning"))
    assert [(i["type"], i.get("id")) for i in items] == [("reasoning", "rs_a"), ("function_call", "fc_a")]


@pytest.mark.parametrize("model, asks", [
    # the documented rule (docs/providers.md "Responses reasoning"): reasoning families and their
    # -chat-latest aliases are asked; the misses were gpt-5.1/5.2-chat-latest and gpt-5-chat
    ("gpt-5", True), ("gpt-5-mini", True), ("gpt-5.1", True), ("gpt-5.1-chat-latest", True),
    ("gpt-5.2-chat-latest", True), ("o3", True), ("o4-mini", True), ("o1-pro", True),
    ("openai/gpt-5", True), ("OpenAI/GPT-5.1-Chat-Latest", True), ("openai/o3", True),
    # non-reasoning models refuse the field: 400 "Encrypted content is not supported with this model"
    ("gpt-5-chat", False), ("gpt-5-chat-latest", False), ("openai/gpt-5-chat", False),
    ("gpt-4.1-mini", False), ("gpt-4o", False), ("openai/gpt-4o", False), ("gpt-3.5-turbo", False),
    ("chatgpt-4o-latest", False),
    # names outside the rule are not asked: a refusal would fail every request
    ("some-gateway-model", False), ("olmo-2", False), ("gpt-50", False), ("", False)])
def test_responses_asks_for_encrypted_reasoning(bundle, model, asks):
    case = bundle.cases[0]
    body = request_body("openai-responses", case, [], model=model)
    assert body["store"] is False
    assert ("include" in body) is asks and wants_encrypted_reasoning(model) is asks
    if asks:
        assert body["include"] == ["reasoning.encrypted_content"]


def test_gemini_echo_is_the_content_as_received():
    body = shape("gemini_unexpected_tool_call")
    assert gemini_turn_from_reply(body) is body["candidates"][0]["content"]


# ---- 2. reading ------------------------------------------------------------------------------

def test_a_zero_filled_function_call_is_no_call():
    reply = reply_from_openai(shape("snowflake_zero_filled"))
    assert (reply.calls, reply.text, reply.blocked) == ((), "Which order do you mean?", "")


def test_a_named_legacy_function_call_is_still_a_call():
    body = shape("snowflake_zero_filled")
    body["choices"][0]["message"]["function_call"] = {"name": "lookup", "arguments": ""}
    assert [c.name for c in reply_from_openai(body).calls] == ["lookup"]


def test_refusals_read_the_same_in_chat_and_responses():
    chat, responses = reply_from_openai(shape("openai_refusal")), reply_from_responses(shape("responses_refusal"))
    assert chat.text == responses.text == "I'm sorry, I can't help with that."
    assert chat.calls == responses.calls == () and not chat.blocked and not responses.blocked


@pytest.mark.parametrize("provider, name, reason", [
    ("gemini", "gemini_model_armor", "MODEL_ARMOR"),
    ("openai", "openai_content_filter", "content_filter"),
    ("anthropic", "anthropic_refusal", "refusal"),
])
def test_an_unknown_finish_with_no_content_is_a_block(provider, name, reason):
    reply = reply_from_body(provider, shape(name))
    assert (reply.blocked, reply.calls, reply.text, reply.malformed) == (reason, (), "", None)


def test_a_block_fails_the_case_saying_so(mini):
    case_id = next(iter(mini.cases))
    result = mini(case_id, {"response": shape("gemini_model_armor")}, provider="gemini")
    assert result.verdict == "FAIL"
    assert result.reasons == ["turn 1: blocked (MODEL_ARMOR): no content, and the provider's "
                              "finish reason is not a normal stop"]


def test_unknown_finish_with_content_is_still_an_answer():
    body = shape("gemini_model_armor")
    body["candidates"][0]["content"] = {"role": "model", "parts": [{"text": "Hello"}]}
    reply = reply_from_gemini(body)
    assert (reply.text, reply.blocked) == ("Hello", "")


@pytest.mark.parametrize("name, tool", [("gemini_unexpected_tool_call", "undeclaredTool"),
                                        ("gemini_unexpected_tool_call_message_only", "web_search")])
def test_unexpected_tool_call_names_its_tool(name, tool):
    reply = reply_from_gemini(shape(name))
    assert (reply.malformed, [c.name for c in reply.calls]) == (None, [tool])


def test_unexpected_tool_call_is_a_hallucinated_tool(mini):
    case_id = next(c for c, case in mini.cases.items() if case.expect.action == "call")
    result = mini(case_id, {"response": shape("gemini_unexpected_tool_call")}, provider="gemini")
    assert result.verdict == "FAIL" and "undeclaredTool" in result.reasons[0]
    assert "hallucinated tool" in result.reasons[0]
    assert [c.offered for c in result.calls] == [False]


def test_usage_counts_cache_and_tool_use_prompt_tokens_as_input():
    assert reply_from_anthropic(shape("anthropic_thinking_tool_use")).usage == {
        "input": 14 + 120 + 2048, "output": 92, "cache_read": 2048, "cache_creation": 120}
    assert reply_from_gemini(shape("gemini_tool_use_prompt")).usage == {
        "input": 435, "output": 13, "tool_use_prompt": 35}
    # prompt_tokens / input_tokens already include cached tokens: nothing added
    assert reply_from_openai(shape("deepseek_reasoning_tool_call")).usage == {"input": 412, "output": 61}
