"""A scripted model turn dressed as each provider's response body.

A scenario's gold and wrong paths (worlds/model.py `PathTurn`) say what the MODEL does in a turn:
some calls (several = parallel) or a text answer. `reply_body(provider, turn)` renders such a
turn as the body the provider would have sent, so a path becomes a transcript that is graded
exactly as a live run's (grading/scenario_paths.py) and a fake server can answer with it (tests).
Every wire format's own reader (catalog.py) reads the body back to the same calls, in order,
and the same text: tests/providers/test_scripted.py holds that for all five.

A turn is read leniently, as a mapping (`{"calls": [{"tool", "arguments"}], "say": text}`, the
world file's shape) or as a record with the same attributes; a call may give `raw_arguments`
(a string sent verbatim where the wire carries arguments as a string: Chat Completions and
Responses) to script arguments that are not valid JSON.

Pure: no I/O. Must not decide anything about grading: it only renders.
"""
from __future__ import annotations

import json
from typing import Any

from .catalog import PROVIDER


def turn_calls(turn: Any) -> list[tuple[str, Any, str | None]]:
    """(tool name, arguments, raw argument text or None) of each call of a path turn, in order."""
    calls = _field(turn, "calls") or ()
    out = []
    for call in calls:
        name = _field(call, "tool") or _field(call, "name") or ""
        arguments = _field(call, "arguments")
        raw = _field(call, "raw_arguments")
        out.append((str(name), {} if arguments is None else arguments, raw if isinstance(raw, str) else None))
    return out


def turn_text(turn: Any) -> str:
    """The text a path turn says ("" when it only calls)."""
    say = _field(turn, "say")
    return say if isinstance(say, str) else ""


def call_id(provider: str, number: int, index: int) -> str:
    """A deterministic call id: unique within a conversation (turn `number`, call `index`), in the
    provider's usual prefix."""
    prefix = "toolu_" if provider == "anthropic" else "call_"
    return f"{prefix}{number}_{index + 1}"


def reply_body(provider: str, turn: Any, *, number: int = 1, model: str = "scripted") -> dict:
    """The response body `provider` would send for a path turn (its `number` in the conversation
    makes the call ids unique). An unknown provider is rendered as Chat Completions (as
    dispatch.reply_from_body reads one)."""
    calls, text = turn_calls(turn), turn_text(turn)
    render = _RENDER.get(provider if provider in PROVIDER else "openai", _openai)
    return render(provider, calls, text, number, model)


def _openai(provider: str, calls: list, text: str, number: int, model: str) -> dict:
    message: dict = {"role": "assistant", "content": text or None}
    if calls:
        message["tool_calls"] = [
            {"id": call_id(provider, number, i), "type": "function",
             "function": {"name": name, "arguments": raw if raw is not None else _json(arguments)}}
            for i, (name, arguments, raw) in enumerate(calls)]
    return {"id": f"chatcmpl-scripted-{number}", "object": "chat.completion", "model": model,
            "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls" if calls else "stop"}]}


def _anthropic(provider: str, calls: list, text: str, number: int, model: str) -> dict:
    content: list = [{"type": "text", "text": text}] if text else []
    content += [{"type": "tool_use", "id": call_id(provider, number, i), "name": name,
                 "input": arguments} for i, (name, arguments, _raw) in enumerate(calls)]
    return {"id": f"msg_scripted_{number}", "type": "message", "role": "assistant", "model": model,
            "content": content, "stop_reason": "tool_use" if calls else "end_turn", "stop_sequence": None}


def _gemini(provider: str, calls: list, text: str, number: int, model: str) -> dict:
    parts: list = [{"text": text}] if text else []
    parts += [{"functionCall": {"name": name, "args": arguments}} for name, arguments, _raw in calls]
    return {"candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}],
            "modelVersion": model}


def _responses(provider: str, calls: list, text: str, number: int, model: str) -> dict:
    output: list = []
    if text:
        output.append({"type": "message", "id": f"msg_scripted_{number}", "status": "completed",
                       "role": "assistant",
                       "content": [{"type": "output_text", "text": text, "annotations": []}]})
    output += [{"type": "function_call", "id": f"fc_scripted_{number}_{i + 1}",
                "call_id": call_id(provider, number, i), "name": name,
                "arguments": raw if raw is not None else _json(arguments), "status": "completed"}
               for i, (name, arguments, raw) in enumerate(calls)]
    return {"id": f"resp_scripted_{number}", "object": "response", "status": "completed", "model": model,
            "output": output}


_RENDER = {"openai": _openai, "openai-compatible": _openai, "anthropic": _anthropic,
           "gemini": _gemini, "openai-responses": _responses}


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _field(thing: Any, name: str) -> Any:
    if isinstance(thing, dict):
        return thing.get(name)
    return getattr(thing, name, None)
