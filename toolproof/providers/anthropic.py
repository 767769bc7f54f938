"""Anthropic Messages: request bodies out, replies in.

Pure: no I/O, never raises on a strange body.
"""
from __future__ import annotations

from typing import Any

from .conversation import call_ids, result_text, tool_result_for
from .reply import (Call, Reply, arguments_from_object, bounded_calls, bounded_text, readable_body, usage_split,
                    usage_tokens)
from .trimming import Keeper, kept_list
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
    text, text_not_read = bounded_text("\n".join(texts))
    stop = body.get("stop_reason") if isinstance(body.get("stop_reason"), str) else ""
    usage = anthropic_usage(body.get("usage"))
    if stop in UNFINISHED:          # what it holds so far is not the model's answer
        return Reply(finish_reason=stop, usage=usage, unfinished=f"stop_reason {stop}: {UNFINISHED[stop]}")
    if stop not in NORMAL_STOPS and not calls and not any(texts):
        return Reply(finish_reason=stop, usage=usage, blocked=stop)
    return Reply(
        calls=calls,
        calls_not_read=not_read,
        text=text,
        text_not_read=text_not_read,
        finish_reason=stop,
        truncated=stop in TRUNCATED,
        usage=usage,
    )


def trim_anthropic(body: Any) -> tuple[Any, dict]:
    """(the body as a run keeps it, what was dropped): its content blocks with the first
    MAX_CALLS tool_use blocks and the text blocks up to MAX_TEXT characters, as
    reply_from_anthropic reads them; every other block is kept (see providers/trimming.py)."""
    blocks = body.get("content") if isinstance(body, dict) else None
    if not isinstance(blocks, list):
        return body, {}
    keep = Keeper("\n")
    content = kept_list(blocks, keep, _block_kind)
    dropped = keep.dropped()
    return ({**body, "content": content}, dropped) if dropped else (body, {})


def _block_kind(block: Any):
    if not isinstance(block, dict):
        return None
    if block.get("type") == "tool_use":
        return "call"
    if block.get("type") == "text" and isinstance(block.get("text"), str):
        return ("text", block["text"], "text")
    return None


# Stop reasons known to mean the model stopped normally (or ran out of room: TRUNCATED); any
# other with no content (e.g. "refusal") is a block, not an empty answer.
NORMAL_STOPS = frozenset({"", "end_turn", "tool_use", "max_tokens", "stop_sequence",
                          "model_context_window_exceeded"})
# Cut off: by the output-token limit, or by the context window (the answer stopped mid-way).
TRUNCATED = frozenset({"max_tokens", "model_context_window_exceeded"})
# A turn the API paused (a long server-tool loop): the request is to be sent again to continue it,
# so what it holds so far is no answer (Anthropic's "handling stop reasons": pause_turn).
UNFINISHED = {"pause_turn": "the provider paused the turn before the model finished it"}


def anthropic_usage(usage: Any) -> dict:
    """Input tokens include the cache: `input_tokens` counts only what was neither read from nor
    written to the prompt cache, so cache reads and writes are added (and kept apart)."""
    out = usage_tokens(usage, "input_tokens", "output_tokens")
    split = usage_split(usage, cache_read="cache_read_input_tokens",
                        cache_creation="cache_creation_input_tokens")
    if split:
        out["input"] = out.get("input", 0) + sum(split.values())
        out.update(split)
    return out


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


# What the request schema allows per content block, in the order it is echoed. Anything else a
# reply carries (`tool_use.caller`, `citations`, server-tool blocks) is response-only: the API has
# refused echoed response-only fields with 400 "Extra inputs are not permitted".
REQUEST_FIELDS = {
    "text": ("type", "text"),
    "tool_use": ("type", "id", "name", "input"),
    "thinking": ("type", "thinking", "signature"),
    "redacted_thinking": ("type", "data"),
}


def anthropic_turn_from_reply(first: Any) -> dict:
    """The received assistant turn as the request accepts it back: each block of a type the
    request schema knows, with only its request-allowed fields, in the received order. An empty
    text block is left out (the API refuses "text content blocks must be non-empty"); a
    `tool_use` without an object `input` goes back with `{}` (the reader graded it as {})."""
    blocks = first.get("content") if isinstance(first, dict) else None
    ids = iter(call_ids(reply_from_anthropic(first).calls))
    content = []
    for block in blocks if isinstance(blocks, list) else []:
        kind = block.get("type") if isinstance(block, dict) else None
        fields = REQUEST_FIELDS.get(kind) if isinstance(kind, str) else None
        if fields is None or kind == "text" and not block.get("text"):
            continue
        kept = {k: block[k] for k in fields if k in block}
        if kind == "tool_use":      # the id its tool_result names, made up if the server sent none
            kept["id"] = next(ids, "")
            if not isinstance(kept.get("input"), dict):
                kept["input"] = {}
        content.append(kept)
    return {"role": "assistant", "content": content}


def anthropic_messages(case, first: dict | None = None, mocks: dict | None = None) -> list[dict]:
    """The conversation for turn 1, or for turn 2 when `first` (the turn-1 body) is given."""
    messages: list[dict] = [{"role": "user", "content": case.prompt}]
    if first is None:
        return messages
    reply = reply_from_anthropic(first)
    messages.append(anthropic_turn_from_reply(first))
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
