"""providers/agent.py: a scenario's conversation as each wire format's request body. The echo of
each model turn keeps what the provider requires back (Anthropic thinking with its signature and
no response-only field; Responses reasoning paired with its calls; Gemini's content exactly, every
thoughtSignature; DeepSeek's reasoning_content; Gemini 3's extra_content per call), every call of
a turn is answered in the next request, and a tool error goes in the provider's own shape."""
from __future__ import annotations

import json

import pytest

from toolproof.providers.agent import ModelTurn, ToolResult, ToolResults, UserText, agent_request
from toolproof.providers.catalog import PROVIDERS
from toolproof.providers.scripted import reply_body


class Tool:
    def __init__(self, name):
        self.name, self.description, self.parameters = name, f"{name} tool", {"type": "object", "properties": {}}


TOOLS = [Tool("get_rate"), Tool("transfer")]
PARALLEL = {"calls": [{"tool": "get_rate", "arguments": {"currency": "USD"}},
                      {"tool": "get_rate", "arguments": {"currency": "JPY"}}]}


def history(provider: str, first_body: dict) -> list:
    from toolproof.providers.dispatch import reply_from_body
    from toolproof.providers.conversation import call_ids
    calls = reply_from_body(provider, first_body).calls
    ids = call_ids(calls)
    return [UserText("rates please"), ModelTurn(first_body),
            ToolResults((ToolResult(ids[0], "get_rate", {"rate": 1.08}),
                         ToolResult(ids[1], "get_rate", {"error": "no rate for JPY"}, error=True))),
            ModelTurn(reply_body(provider, {"say": "Which amount?"}, number=2)), UserText("100")]


def build(provider, first_body, model="m"):
    return agent_request(provider, system="Be brief.", history=history(provider, first_body), tools=TOOLS,
                         model=model, max_tokens=300, temperature=0.0, seed=7)


def test_chat_completions_answers_each_call_and_keeps_deepseek_and_gemini3_fields():
    first = reply_body("openai-compatible", PARALLEL)
    message = first["choices"][0]["message"]
    message["reasoning_content"] = "thinking..."
    for call in message["tool_calls"]:
        call["extra_content"] = {"google": {"thought_signature": "sig-" + call["id"]}}
    body = build("openai-compatible", first)
    roles = [m["role"] for m in body["messages"]]
    assert roles == ["system", "user", "assistant", "tool", "tool", "assistant", "user"]
    echo = body["messages"][2]
    assert echo["reasoning_content"] == "thinking..."
    assert [c["extra_content"]["google"]["thought_signature"] for c in echo["tool_calls"]] == \
        ["sig-call_1_1", "sig-call_1_2"]
    assert [m["tool_call_id"] for m in body["messages"][3:5]] == ["call_1_1", "call_1_2"]
    assert json.loads(body["messages"][4]["content"]) == {"error": "no rate for JPY"}
    assert "tool_calls" not in body["messages"][5]          # OpenAI refuses an empty array
    assert body["max_tokens"] == 300 and body["seed"] == 7 and body["parallel_tool_calls"] is True
    assert build("openai", reply_body("openai", PARALLEL))["max_completion_tokens"] == 300


def test_anthropic_one_user_turn_of_tool_results_with_is_error_and_only_request_fields():
    first = reply_body("anthropic", PARALLEL)
    first["content"] = [{"type": "thinking", "thinking": "hm", "signature": "sig"}] + [
        {**b, "caller": {"type": "direct"}} for b in first["content"]]
    body = build("anthropic", first)
    assert [m["role"] for m in body["messages"]] == ["user", "assistant", "user", "assistant", "user"]
    echo = body["messages"][1]["content"]
    assert echo[0] == {"type": "thinking", "thinking": "hm", "signature": "sig"}
    assert all("caller" not in block for block in echo)
    results = body["messages"][2]["content"]
    assert [(r["tool_use_id"], r.get("is_error", False)) for r in results] == [("toolu_1_1", False), ("toolu_1_2", True)]
    assert body["system"] == "Be brief." and "seed" not in body


def test_gemini_echoes_the_content_exactly_and_answers_with_one_function_response_per_call():
    first = reply_body("gemini", PARALLEL)
    for part in first["candidates"][0]["content"]["parts"]:
        part["thoughtSignature"] = "c2ln"
    first["candidates"][0]["content"]["parts"][0]["functionCall"]["id"] = "fc-1"
    body = build("gemini", first)
    contents = body["contents"]
    assert [c["role"] for c in contents] == ["user", "model", "user", "model", "user"]
    assert contents[1] == first["candidates"][0]["content"]
    responses = [p["functionResponse"] for p in contents[2]["parts"]]
    assert responses == [{"name": "get_rate", "response": {"rate": 1.08}, "id": "fc-1"},
                         {"name": "get_rate", "response": {"error": "no rate for JPY"}}]
    assert body["systemInstruction"] == {"parts": [{"text": "Be brief."}]}
    assert body["generationConfig"]["seed"] == 7


def test_responses_pairs_reasoning_with_its_calls_and_asks_for_it():
    first = reply_body("openai-responses", PARALLEL)
    first["output"].insert(0, {"type": "reasoning", "id": "rs_1", "encrypted_content": "enc", "summary": []})
    body = build("openai-responses", first, model="gpt-5-mini")
    items = body["input"]
    assert items[1] == {"type": "reasoning", "id": "rs_1", "encrypted_content": "enc", "summary": []}
    calls = [i for i in items if i.get("type") == "function_call"]
    assert [c["id"] for c in calls] == ["fc_scripted_1_1", "fc_scripted_1_2"]     # paired: ids kept
    outputs = [i for i in items if i.get("type") == "function_call_output"]
    assert [o["call_id"] for o in outputs] == ["call_1_1", "call_1_2"]
    assert body["include"] == ["reasoning.encrypted_content"] and body["store"] is False
    assert body["instructions"] == "Be brief."
    assert items[-1] == {"type": "message", "role": "user", "content": "100"}


@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_first_turn_is_the_builders_first_turn(provider):
    """With only the user's message, the body is what the provider's builder sends for a case."""
    body = agent_request(provider, system="", history=[UserText("hi")], tools=TOOLS, model="m")
    text = json.dumps(body)
    assert "hi" in text and "get_rate" in text and "transfer" in text


@pytest.mark.parametrize("provider", PROVIDERS)
def test_hostile_model_bodies_are_echoed_without_raising(provider):
    for junk in (None, [], {"choices": "x"}, {"content": 5}, {"candidates": [{}]}, {"output": [1, None]}):
        agent_request(provider, system="s", history=[UserText("hi"), ModelTurn(junk), UserText("again")],
                      tools=TOOLS, model="m")


def test_a_llama_cpp_python_reply_is_read_and_echoed_as_its_server_accepts():
    """llama-cpp-python 0.3.35 (llama_chat_format.py): a call turn has `content: None`, the call in
    both `tool_calls` and the deprecated `function_call`, `finish_reason: "tool_calls"`, `logprobs`;
    its server's request model (llama_types.ChatCompletionRequestAssistantMessage) takes `content`
    only as a string, and a `role: tool` message by `tool_call_id`."""
    arguments = '{"currency": "USD"}'
    first = {"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "qwen",
             "choices": [{"index": 0, "logprobs": None, "finish_reason": "tool_calls", "message": {
                 "role": "assistant", "content": None,
                 "function_call": {"name": "get_rate", "arguments": arguments},
                 "tool_calls": [{"id": "call__0_get_rate_cmpl-1", "type": "function",
                                 "function": {"name": "get_rate", "arguments": arguments}}]}}],
             "usage": {"prompt_tokens": 5, "completion_tokens": 3, "total_tokens": 8}}
    body = agent_request("openai-compatible", system="", tools=TOOLS, model="qwen", history=[
        UserText("rate?"), ModelTurn(first),
        ToolResults((ToolResult("call__0_get_rate_cmpl-1", "get_rate", {"rate": 1.08}),))])
    echo, answer = body["messages"][1], body["messages"][2]
    assert echo["content"] == "" and "function_call" not in echo
    assert [c["id"] for c in echo["tool_calls"]] == ["call__0_get_rate_cmpl-1"]
    assert answer == {"role": "tool", "tool_call_id": "call__0_get_rate_cmpl-1", "content": '{"rate": 1.08}'}
