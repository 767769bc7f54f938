"""Anthropic Messages: request bodies out, replies in.

Pure: no I/O, never raises on a strange body.
"""
from __future__ import annotations

from typing import Any

from .conversation import call_ids, result_text, tool_result_for
from .reply import Call, Reply, arguments_from_object, bounded_calls, readable_body, usage_tokens
from toolproof.suite.toolnames import wire_name


def reply_from_anthropic(body: Any) -> Reply:
    """content[] blocks -> Reply; a truncated answer has stop_reason "max_tokens"."""
    body, problem = readable_body(body)
    if problem:
        return Reply(malformed=problem)
    blocks = body.get("content")
    if not isinstance(blocks, list):
        return Reply(malformed="response has no content list")
    uses, texts = [], []
    for block in blocks:
        if not isinstance(block, dict):
            continue
        if block.get("type") == "tool_use":
            uses.append(block)
        elif block.get("type") == "text" and isinstance(block.get("text"), str):
            texts.append(block["text"])
    calls, not_read = bounded_calls(uses, _call)
    stop = body.get("stop_reason") if isinstance(body.get("stop_reason"), str) else ""
    return Reply(
        calls=calls,
        calls_not_read=not_read,
        text="\n".join(texts),
        finish_reason=stop,
        truncated=stop == "max_tokens",
        usage=usage_tokens(body.get("usage"), "input_tokens", "output_tokens"),
    )


def _call(block: dict) -> Call:
    name = block.get("name") if isinstance(block.get("name"), str) else ""
    call_id = block.get("id") if isinstance(block.get("id"), str) else ""
    arguments = block.get("input")
    if arguments is None:       # no input at all reads as {} for every provider; the schema judges it
        return Call(name=name, arguments={}, raw_arguments="", id=call_id)
    # walked by the same limits as any JSON we read: too deep, huge integers, NaN are findings
    parsed, raw, error = arguments_from_object(arguments)
    return Call(name=name, arguments=parsed, raw_arguments=raw, id=call_id, parse_error=error)


# ---------------------------------------------------------------- going out

ANTHROPIC_VERSION = "2023-06-01"
MAX_TOKENS = 1024


def anthropic_tools(tools: list) -> list[dict]:
    """Tool definitions in the Messages shape (`input_schema`)."""
    return [{"name": wire_name(t.name), "description": t.description, "input_schema": t.parameters} for t in tools]


def anthropic_messages(case, first: dict | None = None, mocks: dict | None = None) -> list[dict]:
    """The conversation for turn 1, or for turn 2 when `first` (the turn-1 body) is given."""
    messages: list[dict] = [{"role": "user", "content": case.prompt}]
    if first is None:
        return messages
    reply = reply_from_anthropic(first)
    blocks = first.get("content") if isinstance(first, dict) else None
    messages.append({"role": "assistant", "content": blocks if isinstance(blocks, list) else []})
    messages.append({"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": call_id,
         "content": result_text(tool_result_for(call, mocks or {}))}
        for call_id, call in zip(call_ids(reply.calls), reply.calls)]})
    return messages


def anthropic_request(case, tools: list, *, model: str, first: dict | None = None,
                      mocks: dict | None = None, max_tokens: int = MAX_TOKENS) -> dict:
    """The Messages request body for one turn of a case (no credentials in it)."""
    body = {"model": model, "max_tokens": max_tokens,
            "messages": anthropic_messages(case, first, mocks),
            "tools": anthropic_tools(tools), "tool_choice": {"type": "auto"}}
    if case.system:
        body["system"] = case.system
    return body
