"""OpenAI Chat Completions (and OpenAI-compatible servers): request bodies out, replies in.

Pure: no I/O, never raises on a strange body.
"""
from __future__ import annotations

from typing import Any, Literal

from .conversation import call_ids, result_text, tool_result_for
from .reply import Call, Reply, arguments_from_json, bounded_calls, readable_body, usage_tokens
from toolproof.suite.toolnames import wire_name


def reply_from_openai(body: Any) -> Reply:
    """choices[0].message -> Reply; a truncated answer has finish_reason "length"."""
    body, problem = readable_body(body)
    if problem:
        return Reply(malformed=problem)
    choices = body.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        return Reply(malformed="response has no choices")
    choice = choices[0]
    message = choice.get("message") if isinstance(choice.get("message"), dict) else {}
    finish = choice.get("finish_reason") if isinstance(choice.get("finish_reason"), str) else ""
    calls, not_read = bounded_calls(_raw_calls(message), _call)
    return Reply(
        calls=calls,
        calls_not_read=not_read,
        text=_text(message.get("content")),
        finish_reason=finish,
        truncated=finish == "length",
        usage=usage_tokens(body.get("usage"), "prompt_tokens", "completion_tokens"),
    )


def _raw_calls(message: dict) -> list:
    calls = message.get("tool_calls")
    if isinstance(calls, list):
        return calls
    legacy = message.get("function_call")       # pre-tools servers still send this
    return [{"function": legacy}] if isinstance(legacy, dict) else []


def _call(raw: Any) -> Call:
    if not isinstance(raw, dict) or not isinstance(raw.get("function"), dict):
        return Call(name="", arguments=None, parse_error="tool call has no function object")
    function = raw["function"]
    name = function.get("name") if isinstance(function.get("name"), str) else ""
    arguments, text, error = arguments_from_json(function.get("arguments"))
    call_id = raw.get("id") if isinstance(raw.get("id"), str) else ""
    return Call(name=name, arguments=arguments, raw_arguments=text, parse_error=error, id=call_id)


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):               # content parts
        return "".join(p.get("text", "") for p in content
                       if isinstance(p, dict) and isinstance(p.get("text"), str))
    return ""


# ---------------------------------------------------------------- going out

def openai_tools(tools: list) -> list[dict]:
    """Tool definitions in the Chat Completions shape."""
    return [{"type": "function", "function": {"name": wire_name(t.name), "description": t.description,
                                              "parameters": t.parameters}} for t in tools]


def openai_messages(case, first: dict | None = None, mocks: dict | None = None) -> list[dict]:
    """The conversation for turn 1, or for turn 2 when `first` (the turn-1 body) is given.

    The assistant turn is echoed with `content: ""` rather than null when it carried no text:
    some OpenAI-compatible servers reject a null content.
    """
    messages = [{"role": "system", "content": case.system}] if case.system else []
    messages.append({"role": "user", "content": case.prompt})
    if first is None:
        return messages
    reply = reply_from_openai(first)
    ids = call_ids(reply.calls)
    messages.append({"role": "assistant", "content": reply.text or "", "tool_calls": [
        {"id": call_id, "type": "function",
         "function": {"name": call.name, "arguments": call.raw_arguments or "{}"}}
        for call_id, call in zip(ids, reply.calls)]})
    for call_id, call in zip(ids, reply.calls):
        messages.append({"role": "tool", "tool_call_id": call_id,
                         "content": result_text(tool_result_for(call, mocks or {}))})
    return messages


TokenField = Literal["max_completion_tokens", "max_tokens"]


def openai_request(case, tools: list, *, model: str, first: dict | None = None,
                   mocks: dict | None = None, max_tokens: int = 1024,
                   token_field: TokenField = "max_completion_tokens") -> dict:
    """The Chat Completions request body for one turn of a case (no credentials in it).

    The output-token limit goes in `max_completion_tokens` for OpenAI itself (its reasoning
    models refuse `max_tokens`) and in `max_tokens` for compatible servers (Ollama, vLLM,
    llama.cpp, LM Studio read that one and may ignore the newer name).
    """
    return {
        "model": model,
        "messages": openai_messages(case, first, mocks),
        "tools": openai_tools(tools),
        "tool_choice": "auto",           # explicit: some compatible servers ignore tools without it
        # One call at a time keeps dependency order observable, unless the case accepts any order.
        "parallel_tool_calls": getattr(case.expect, "order", "") == "any",
        token_field: max_tokens,
    }
