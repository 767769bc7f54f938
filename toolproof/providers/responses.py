"""OpenAI Responses API: request bodies out, replies in.

Calls arrive as `function_call` output items whose `arguments` are a JSON string (read through
`reply.arguments_from_json`, like Chat Completions). The second turn sends the whole
conversation again (`store: false` keeps nothing server-side): the user's message, the model's
own output items, then one `function_call_output` item per call. Because nothing is stored,
server-side item ids are left out of the echo (the API refuses ids it did not store) and
reasoning items are echoed only when they carry their `encrypted_content`.

Pure: no I/O, never raises on a strange body.
"""
from __future__ import annotations

from typing import Any

from .conversation import call_ids, result_text, tool_result_for
from .reply import Call, Reply, arguments_from_json, bounded_calls, usage_tokens
from toolproof.suite.toolnames import wire_name

TRUNCATED = "max_output_tokens"


def reply_from_responses(body: Any) -> Reply:
    """output[] items -> Reply; `status: "incomplete"` for max_output_tokens is truncation."""
    if not isinstance(body, dict):
        return Reply(malformed="response body is not a JSON object")
    status = body.get("status") if isinstance(body.get("status"), str) else ""
    if status == "failed":
        return Reply(malformed="response status is failed: the provider produced no answer")
    output = body.get("output")
    if not isinstance(output, list):
        return Reply(malformed="response has no output list")
    items, texts = [], []
    for item in output:
        if not isinstance(item, dict):
            continue
        if item.get("type") == "function_call":
            items.append(item)
        elif item.get("type") == "message":
            texts.extend(_texts(item.get("content")))
    reason = _incomplete_reason(body) if status == "incomplete" else ""
    if reason == "content_filter":
        return Reply(malformed="status incomplete (content_filter): the reply was stopped by the "
                               "provider's content filter")
    calls, not_read = bounded_calls(items, _call)
    return Reply(
        calls=calls,
        calls_not_read=not_read,
        text="\n".join(texts),
        finish_reason=reason or status,
        truncated=reason == TRUNCATED,
        usage=usage_tokens(body.get("usage"), "input_tokens", "output_tokens"),
    )


def _incomplete_reason(body: dict) -> str:
    details = body.get("incomplete_details")
    reason = details.get("reason") if isinstance(details, dict) else None
    return reason if isinstance(reason, str) else "incomplete"


def _call(item: dict) -> Call:
    name = item.get("name") if isinstance(item.get("name"), str) else ""
    call_id = item.get("call_id") if isinstance(item.get("call_id"), str) else ""
    arguments, text, error = arguments_from_json(item.get("arguments"))
    return Call(name=name, arguments=arguments, raw_arguments=text, parse_error=error, id=call_id)


def _texts(content: Any) -> list[str]:
    """output_text parts, and refusals (a refusal is the model answering in text)."""
    if not isinstance(content, list):
        return []
    out = []
    for part in content:
        if not isinstance(part, dict):
            continue
        if part.get("type") == "output_text" and isinstance(part.get("text"), str):
            out.append(part["text"])
        elif part.get("type") == "refusal" and isinstance(part.get("refusal"), str):
            out.append(part["refusal"])
    return out


# ---------------------------------------------------------------- going out

def responses_tools(tools: list) -> list[dict]:
    """Tool definitions in the Responses shape (flat, no nested `function`)."""
    return [{"type": "function", "name": wire_name(t.name), "description": t.description,
             "parameters": t.parameters} for t in tools]


def echoed_items(first: Any) -> list[dict]:
    """The model's turn-1 output items as they go back in turn 2.

    Items are copied as received except their server-side `id` (with `store: false` there is
    nothing to refer to, and the API refuses an id it did not store); a function call gets the
    call id its `function_call_output` will name. Reasoning items without `encrypted_content`
    are only references to server state, so they are left out.
    """
    output = first.get("output") if isinstance(first, dict) else None
    items, calls = [], 0
    parsed = reply_from_responses(first).calls
    ids = call_ids(parsed)
    for item in output if isinstance(output, list) else []:
        if not isinstance(item, dict):
            continue
        kind = item.get("type")
        if kind == "reasoning":
            if item.get("encrypted_content"):
                items.append(dict(item))
            continue
        if kind not in ("function_call", "message") or kind == "function_call" and calls >= len(ids):
            continue                # (a call the reader refused, e.g. in a failed response)
        copy = {k: v for k, v in item.items() if k != "id"}
        if kind == "function_call":
            copy["call_id"] = ids[calls]
            if not isinstance(copy.get("arguments"), str):     # the API wants a string here
                copy["arguments"] = parsed[calls].raw_arguments or "{}"
            calls += 1
        items.append(copy)
    return items


def responses_input(case, first: Any = None, mocks: dict | None = None) -> list[dict]:
    """The input items for turn 1, or for turn 2 when `first` (the turn-1 body) is given."""
    items: list[dict] = [{"type": "message", "role": "user", "content": case.prompt}]
    if first is None:
        return items
    reply = reply_from_responses(first)
    items.extend(echoed_items(first))
    for call_id, call in zip(call_ids(reply.calls), reply.calls):
        items.append({"type": "function_call_output", "call_id": call_id,
                      "output": result_text(tool_result_for(call, mocks or {}))})
    return items


def responses_request(case, tools: list, *, model: str, first: Any = None,
                      mocks: dict | None = None, max_tokens: int | None = None) -> dict:
    """The Responses request body for one turn of a case (no credentials in it)."""
    body: dict = {
        "model": model,
        "input": responses_input(case, first, mocks),
        "tools": responses_tools(tools),
        "tool_choice": "auto",
        # One call at a time keeps dependency order observable, unless the case accepts any order.
        "parallel_tool_calls": getattr(case.expect, "order", "") == "any",
        "store": False,                 # nothing of the suite is kept server-side
    }
    if case.system:
        body["instructions"] = case.system
    if max_tokens is not None:
        body["max_output_tokens"] = max_tokens
    return body
