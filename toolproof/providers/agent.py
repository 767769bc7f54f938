"""A multi-turn conversation (a scenario's) as each provider's request body.

A case has at most one fixed second turn (conversation.py); a scenario loops: the model calls
tools, every call gets the world's answer in the same turn, the scripted user speaks after a text
answer, and so on up to the turn limit. The runner keeps that conversation in a neutral history
(`UserText`, `ModelTurn`, `ToolResults`) and `agent_request` dresses the whole of it, each turn,
in one wire format:
- Chat Completions (and compatible servers): the assistant message echoed by
  `openai_turn_from_reply` (DeepSeek's `reasoning_content`, each call's `extra_content` kept),
  then one `role: tool` message per call (an error is the JSON `{"error": ...}` as its content:
  the format has no error flag);
- Anthropic Messages: the assistant turn echoed by `anthropic_turn_from_reply` (request fields
  only, thinking blocks with their signature), then ONE user message holding a `tool_result` per
  `tool_use`, `is_error: true` on an error;
- Gemini: the model's content exactly as received (`gemini_turn_from_reply`: every
  `thoughtSignature`), then one user content with a `functionResponse` per call (an error as
  `{"error": ...}`, Gemini's documented key; the call's own id echoed only when it had one);
- Responses (`store: false`): the output items echoed by `responses_turn_from_reply` (a reasoning
  item only with the calls after it, which keep their ids; `include` asked by the builder for
  reasoning models), then a `function_call_output` per call.
Everything else (the model, tools, token field, sampling, `parallel_tool_calls`, the system
prompt's place) comes from the provider's own builder through dispatch.request_body, so a case's
first turn and a scenario's every turn are built by one rule. Parallel calls are allowed:
a scenario may fan out.

Pure: no I/O. Must not run tools or pick the user's words: it only renders what it is given.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .anthropic import anthropic_turn_from_reply
from .conversation import result_text
from .dispatch import reply_from_body, request_body
from .gemini import gemini_turn_from_reply
from .openai import openai_turn_from_reply
from .responses import responses_turn_from_reply
from .anthropic import MAX_TOKENS


@dataclass(frozen=True, slots=True)
class UserText:
    """Something the user says (the first message, or a scripted reply)."""
    text: str


@dataclass(frozen=True, slots=True)
class ModelTurn:
    """One response body of the model, as the run keeps it (trimmed): echoed back verbatim."""
    body: Any


@dataclass(frozen=True, slots=True)
class ToolResult:
    """The answer to one call: the id the echo gave the call (call_ids), the tool name the model
    sent, the result, and whether it is the tool's error."""
    call_id: str
    tool: str
    result: Any
    error: bool = False


@dataclass(frozen=True, slots=True)
class ToolResults:
    """The answers to every call of the model turn before it, in call order."""
    results: tuple


@dataclass(frozen=True, slots=True)
class _AnyOrder:
    order: str = "any"          # the builders allow parallel calls for a case that accepts any order


@dataclass(frozen=True, slots=True)
class _Opening:
    """What the providers' builders read of a case: the system prompt, the first message, the
    order rule (parallel calls allowed)."""
    system: str
    prompt: str
    expect: _AnyOrder = _AnyOrder()


# Where each wire format keeps the conversation in its body.
CONVERSATION_KEY = {"openai": "messages", "openai-compatible": "messages", "anthropic": "messages",
                    "gemini": "contents", "openai-responses": "input"}


def agent_request(provider: str, *, system: str, history: list, tools: list, model: str,
                  max_tokens: int = MAX_TOKENS, temperature: float | None = None,
                  seed: int | None = None) -> dict:
    """The request body for the next model turn of a conversation (no credentials in it).
    `history` starts with the user's first message (a UserText); `tools` are records with
    name, description and parameters, offered verbatim."""
    first = next((h.text for h in history if isinstance(h, UserText)), "")
    body = request_body(provider, _Opening(system, first), tools, model=model, max_tokens=max_tokens,
                        temperature=temperature, seed=seed)
    body[CONVERSATION_KEY[provider]] = _RENDER[provider](system, history)
    return body


def _openai(system: str, history: list) -> list[dict]:
    messages: list[dict] = [{"role": "system", "content": system}] if system else []
    for entry in history:
        if isinstance(entry, UserText):
            messages.append({"role": "user", "content": entry.text})
        elif isinstance(entry, ModelTurn):
            echo = openai_turn_from_reply(entry.body)
            if not echo.get("tool_calls"):      # OpenAI refuses an empty tool_calls array
                echo.pop("tool_calls", None)
            messages.append(echo)
        elif isinstance(entry, ToolResults):
            messages += [{"role": "tool", "tool_call_id": r.call_id, "content": result_text(_shaped(r))}
                         for r in entry.results]
    return messages


def _anthropic(system: str, history: list) -> list[dict]:
    messages: list[dict] = []
    for entry in history:
        if isinstance(entry, UserText):
            messages.append({"role": "user", "content": entry.text})
        elif isinstance(entry, ModelTurn):
            echo = anthropic_turn_from_reply(entry.body)
            if echo["content"]:                 # the API refuses an empty assistant turn
                messages.append(echo)
        elif isinstance(entry, ToolResults) and entry.results:
            messages.append({"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": r.call_id, "content": result_text(_shaped(r)),
                 **({"is_error": True} if r.error else {})} for r in entry.results]})
    return messages


def _gemini(system: str, history: list) -> list[dict]:
    contents: list[dict] = []
    own_ids: list = []                          # the ids Gemini gave the last turn's calls ("" none)
    for entry in history:
        if isinstance(entry, UserText):
            contents.append({"role": "user", "parts": [{"text": entry.text}]})
        elif isinstance(entry, ModelTurn):
            echo = gemini_turn_from_reply(entry.body)
            own_ids = [c.id for c in reply_from_body("gemini", entry.body).calls]
            if echo.get("parts"):               # an empty content is refused
                contents.append(echo)
        elif isinstance(entry, ToolResults) and entry.results:
            parts = []
            for k, r in enumerate(entry.results):
                result = _shaped(r)
                response = {"name": r.tool, "response": result if isinstance(result, dict) else {"output": result}}
                if k < len(own_ids) and own_ids[k]:
                    response["id"] = own_ids[k]
                parts.append({"functionResponse": response})
            contents.append({"role": "user", "parts": parts})
    return contents


def _responses(system: str, history: list) -> list[dict]:
    items: list[dict] = []
    for entry in history:
        if isinstance(entry, UserText):
            items.append({"type": "message", "role": "user", "content": entry.text})
        elif isinstance(entry, ModelTurn):
            items += responses_turn_from_reply(entry.body)
        elif isinstance(entry, ToolResults):
            items += [{"type": "function_call_output", "call_id": r.call_id, "output": result_text(_shaped(r))}
                      for r in entry.results]
    return items


_RENDER = {"openai": _openai, "openai-compatible": _openai, "anthropic": _anthropic,
           "gemini": _gemini, "openai-responses": _responses}


def _shaped(result: ToolResult) -> Any:
    """A tool's error always travels as {"error": text}, whatever shape it was handed in."""
    if result.error and not (isinstance(result.result, dict) and "error" in result.result):
        return {"error": result.result if isinstance(result.result, str) else result_text(result.result)}
    return result.result
