"""OpenAI Chat Completions (and OpenAI-compatible servers): reading replies.

Pure: no I/O, never raises on a strange body.
"""
from __future__ import annotations

from typing import Any

from ..reply import Call, Reply, arguments_from_json, usage_tokens


def reply_from_openai(body: Any) -> Reply:
    """choices[0].message -> Reply; a truncated answer has finish_reason "length"."""
    if not isinstance(body, dict):
        return Reply(malformed="response body is not a JSON object")
    choices = body.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        return Reply(malformed="response has no choices")
    choice = choices[0]
    message = choice.get("message") if isinstance(choice.get("message"), dict) else {}
    finish = choice.get("finish_reason") if isinstance(choice.get("finish_reason"), str) else ""
    calls = [_call(raw) for raw in _raw_calls(message)]
    return Reply(
        calls=tuple(calls),
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
