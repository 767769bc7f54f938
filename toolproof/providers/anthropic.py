"""Anthropic Messages: reading replies.

Pure: no I/O, never raises on a strange body.
"""
from __future__ import annotations

import json
from typing import Any

from ..reply import Call, Reply, usage_tokens


def reply_from_anthropic(body: Any) -> Reply:
    """content[] blocks -> Reply; a truncated answer has stop_reason "max_tokens"."""
    if not isinstance(body, dict):
        return Reply(malformed="response body is not a JSON object")
    blocks = body.get("content")
    if not isinstance(blocks, list):
        return Reply(malformed="response has no content list")
    calls, texts = [], []
    for block in blocks:
        if not isinstance(block, dict):
            continue
        if block.get("type") == "tool_use":
            calls.append(_call(block))
        elif block.get("type") == "text" and isinstance(block.get("text"), str):
            texts.append(block["text"])
    stop = body.get("stop_reason") if isinstance(body.get("stop_reason"), str) else ""
    return Reply(
        calls=tuple(calls),
        text="\n".join(texts),
        finish_reason=stop,
        truncated=stop == "max_tokens",
        usage=usage_tokens(body.get("usage"), "input_tokens", "output_tokens"),
    )


def _call(block: dict) -> Call:
    name = block.get("name") if isinstance(block.get("name"), str) else ""
    call_id = block.get("id") if isinstance(block.get("id"), str) else ""
    arguments = block.get("input")
    if isinstance(arguments, dict):
        return Call(name=name, arguments=arguments, id=call_id,
                    raw_arguments=json.dumps(arguments, ensure_ascii=False))
    raw = json.dumps(arguments, ensure_ascii=False) if arguments is not None else ""
    return Call(name=name, arguments=None, raw_arguments=raw, id=call_id,
                parse_error=f"tool_use input is a {type(arguments).__name__}, not an object")
