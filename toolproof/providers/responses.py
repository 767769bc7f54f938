"""OpenAI Responses API: request bodies out, replies in.

Calls arrive as `function_call` output items whose `arguments` are a JSON string (read through
`reply.arguments_from_json`, like Chat Completions). The second turn sends the whole
conversation again (`store: false` keeps nothing server-side): the user's message, the model's
own output items, then one `function_call_output` item per call. Because nothing is stored,
server-side item ids are left out of the echo (the API refuses ids it did not store), except
where a reasoning item is echoed with the calls it led to (see responses_turn_from_reply); a
reasoning model's request asks for `include: ["reasoning.encrypted_content"]` so there is
reasoning to echo (which models: wants_encrypted_reasoning). A reply whose status is `queued`,
`in_progress` or `cancelled` is no answer yet (`Reply.unfinished`; the runner fetches the first
two again by `pending_id`: running/polling.py).

Pure: no I/O, never raises on a strange body.
"""
from __future__ import annotations

import re
from typing import Any

from .conversation import call_ids, result_text, tool_result_for
from .reply import Call, Reply, arguments_from_json, bounded_calls, bounded_text, usage_tokens
from .trimming import Keeper, kept_list
from toolproof.suite.toolnames import wire_name

TRUNCATED = "max_output_tokens"
# Statuses of a response that is no finished answer: whatever output it holds so far is not the
# model's answer (a background or slow response: runner polls the first two, see pending_id).
UNFINISHED = {
    "queued": "the provider had not started the answer",
    "in_progress": "the provider had not finished the answer",
    "cancelled": "the response was cancelled before it finished",
}
POLLABLE = ("queued", "in_progress")


def pending_id(body: Any) -> str:
    """The id to fetch a still-running response by (GET {base}/responses/{id}): a body whose status
    is `queued` or `in_progress` and that names its id; "" for any other body."""
    if not isinstance(body, dict) or body.get("status") not in POLLABLE:
        return ""
    ident = body.get("id")
    return ident if isinstance(ident, str) and 0 < len(ident) <= 256 else ""


def reply_from_responses(body: Any) -> Reply:
    """output[] items -> Reply; `status: "incomplete"` for max_output_tokens is truncation."""
    if not isinstance(body, dict):
        return Reply(malformed="response body is not a JSON object")
    status = body.get("status") if isinstance(body.get("status"), str) else ""
    if status == "failed":
        return Reply(malformed="response status is failed: the provider produced no answer")
    if status in UNFINISHED:
        return Reply(finish_reason=status, usage=usage_tokens(body.get("usage"), "input_tokens", "output_tokens"),
                     unfinished=f"status {status}: {UNFINISHED[status]}")
    output = body.get("output")
    if not isinstance(output, list):
        return Reply(malformed="response has no output list")
    items, texts = [], []
    for item in output:
        if not isinstance(item, dict):
            continue
        if item.get("type") == "function_call":
            if _zero_filled(item):
                continue            # no name, no arguments: no call
            items.append(item)
        elif item.get("type") == "message":
            texts.extend(_texts(item.get("content")))
    reason = _incomplete_reason(body) if status == "incomplete" else ""
    if reason == "content_filter":
        return Reply(malformed="status incomplete (content_filter): the reply was stopped by the "
                               "provider's content filter")
    calls, not_read = bounded_calls(items, _call)
    text, text_not_read = bounded_text("\n".join(texts))
    usage = usage_tokens(body.get("usage"), "input_tokens", "output_tokens")
    if reason and reason != TRUNCATED and not calls and not any(texts):
        return Reply(finish_reason=reason, usage=usage, blocked=reason)
    return Reply(
        calls=calls,
        calls_not_read=not_read,
        text=text,
        text_not_read=text_not_read,
        finish_reason=reason or status,
        truncated=reason == TRUNCATED,
        usage=usage,
    )


def trim_responses(body: Any) -> tuple[Any, dict]:
    """(the body as a run keeps it, what was dropped): its output items with the first MAX_CALLS
    function_call items and the message text (output_text and refusal parts) up to MAX_TEXT
    characters, as reply_from_responses reads them; a message whose every text part was dropped
    goes too, the other items stay (see providers/trimming.py)."""
    output = body.get("output") if isinstance(body, dict) else None
    if not isinstance(output, list):
        return body, {}
    keep = Keeper("\n")
    kept = []
    for item in output:
        if isinstance(item, dict) and item.get("type") == "function_call" and not _zero_filled(item):
            if keep.call():
                kept.append(item)
        elif isinstance(item, dict) and item.get("type") == "message" and isinstance(item.get("content"), list):
            parts = kept_list(item["content"], keep, _text_part)
            if parts or not item["content"]:        # a message whose text was all dropped goes
                kept.append(item if parts == item["content"] else {**item, "content": parts})
        else:
            kept.append(item)
    dropped = keep.dropped()
    return ({**body, "output": kept}, dropped) if dropped else (body, {})


def _text_part(part: Any):
    """What the reader reads in a message's content part: an output_text's text or a refusal."""
    if isinstance(part, dict) and part.get("type") == "output_text" and isinstance(part.get("text"), str):
        return ("text", part["text"], "text")
    if isinstance(part, dict) and part.get("type") == "refusal" and isinstance(part.get("refusal"), str):
        return ("text", part["refusal"], "refusal")
    return None


def _zero_filled(item: dict) -> bool:
    return not item.get("name") and item.get("arguments") in (None, "", {})


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


def responses_turn_from_reply(first: Any) -> list[dict]:
    """The model's turn-1 output items as the request accepts them back (store: false).

    - A reasoning item goes back as received (with its id and `encrypted_content`, or, from
      servers that send it instead, its own `content`) only together with the function_call items
      after it (up to the next reasoning item), and those calls then keep their ids: the API pairs
      a reasoning item with the items it led to, and keeping one while dropping the other's id
      has drawn 400s. A reasoning item with neither (a bare reference to server state that
      store: false did not keep) or with no call after it is left out.
    - Every other item drops its server-side `id` (nothing was stored to refer to).
    - A function call gets the call id its `function_call_output` will name, and its arguments as
      a string (the API wants one there).
    """
    output = first.get("output") if isinstance(first, dict) else None
    output = [item for item in output if isinstance(item, dict)] if isinstance(output, list) else []
    parsed = reply_from_responses(first).calls
    ids = call_ids(parsed)
    items, calls, paired = [], 0, False
    for index, item in enumerate(output):
        kind = item.get("type")
        if kind == "reasoning":
            paired = _echoable(item) and _calls_follow(output, index)
            if paired:
                items.append(dict(item))
            continue
        if kind == "function_call" and _zero_filled(item):
            continue
        if kind not in ("function_call", "message") or kind == "function_call" and calls >= len(ids):
            continue                # (a call the reader refused, e.g. in a failed response)
        keep_id = kind == "function_call" and paired
        copy = {k: v for k, v in item.items() if k != "id" or keep_id}
        if kind == "function_call":
            copy["call_id"] = ids[calls]
            if not isinstance(copy.get("arguments"), str):     # the API wants a string here
                copy["arguments"] = parsed[calls].raw_arguments or "{}"
            calls += 1
        items.append(copy)
    return items


def _echoable(item: dict) -> bool:
    """A reasoning item that carries itself: encrypted, or plain content from servers that send it."""
    return bool(item.get("encrypted_content")) or bool(item.get("content"))


def _calls_follow(output: list, index: int) -> bool:
    """Is a function_call among the items after `index`, before the next reasoning item?"""
    for item in output[index + 1:]:
        if item.get("type") == "reasoning":
            return False
        if item.get("type") == "function_call":
            return True
    return False


echoed_items = responses_turn_from_reply       # the name older callers know


# Which models are asked for `include: ["reasoning.encrypted_content"]`: OpenAI's reasoning models
# (`gpt-5*`, the `o` series) and their `-chat-latest` aliases (`gpt-5.1-chat-latest` reasons);
# not `gpt-5-chat` / `gpt-5-chat-latest` (the non-reasoning chat model), nor `gpt-4*`, `gpt-3.5*`,
# `chatgpt-*`, which refuse it with 400 "Encrypted content is not supported with this model"
# (pydantic-ai #2865, gorilla #1148). Any other name is not asked either: a model that refuses the
# field would fail every request, one that could use it only loses its reasoning between turns.
REASONING_FAMILIES = re.compile(r"^(?:gpt-5(?:[.-]|$)|o\d)")
NON_REASONING_CHAT = re.compile(r"^gpt-5-chat(?:-|$)")      # the one gpt-5* name that does not reason


def wants_encrypted_reasoning(model: str) -> bool:
    """Does the Responses request ask for encrypted reasoning (store: false keeps none
    server-side)? The documented rule (docs/providers.md, "Responses reasoning"), on the model's
    name lower-cased with any provider prefix (`openai/`, `azure/openai/`) stripped."""
    name = model.strip().lower().rsplit("/", 1)[-1]
    return bool(REASONING_FAMILIES.match(name)) and not NON_REASONING_CHAT.match(name)


def responses_input(case, first: Any = None, mocks: dict | None = None) -> list[dict]:
    """The input items for turn 1, or for turn 2 when `first` (the turn-1 body) is given."""
    items: list[dict] = [{"type": "message", "role": "user", "content": case.prompt}]
    if first is None:
        return items
    reply = reply_from_responses(first)
    items.extend(responses_turn_from_reply(first))
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
    if wants_encrypted_reasoning(model):  # so a reasoning model's turn 2 keeps its reasoning
        body["include"] = ["reasoning.encrypted_content"]
    if case.system:
        body["instructions"] = case.system
    if max_tokens is not None:
        body["max_output_tokens"] = max_tokens
    return body
