"""OpenAI Chat Completions (and OpenAI-compatible servers): request bodies out, replies in.

Pure: no I/O, never raises on a strange body.
"""
from __future__ import annotations

from typing import Any, Literal

from .conversation import call_ids, result_text, tool_result_for
from .reply import Call, Reply, arguments_from_json, bounded_calls, bounded_text, readable_body, usage_tokens
from .trimming import Keeper, kept_list
from toolproof.suite.toolnames import wire_name


def reply_from_openai(body: Any) -> Reply:
    """choices[0].message -> Reply; a truncated answer has finish_reason "length".

    A refusal (`message.refusal`) is the model answering in text, as in the Responses reader. A
    zero-filled call (no name, no arguments: Snowflake Cortex sends `"function_call": {"name":
    "", "arguments": ""}` on plain text answers) is no call. A finish reason not known as a normal
    stop, with no content at all (`content_filter`, or a server's own), is a block.
    """
    body, problem = readable_body(body)
    if problem:
        return Reply(malformed=problem)
    choices = body.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        return Reply(malformed="response has no choices")
    choice = choices[0]
    message = choice.get("message") if isinstance(choice.get("message"), dict) else {}
    finish = choice.get("finish_reason") if isinstance(choice.get("finish_reason"), str) else ""
    calls, not_read = bounded_calls(raw_calls(message), _call)
    refusal = message.get("refusal") if isinstance(message.get("refusal"), str) else ""
    text, text_not_read = bounded_text("\n".join(t for t in (_text(message.get("content")), refusal) if t))
    usage = usage_tokens(body.get("usage"), "prompt_tokens", "completion_tokens")
    if finish not in NORMAL_FINISHES and not calls and not text:
        return Reply(finish_reason=finish, usage=usage, blocked=finish)
    return Reply(calls=calls, calls_not_read=not_read, text=text, text_not_read=text_not_read,
                 finish_reason=finish, truncated=finish == "length", usage=usage)


# Finish reasons known to mean a normal stop (or a cut-off) on OpenAI and the compatible servers
# (vLLM, llama.cpp, Ollama, LM Studio, DeepSeek); any other with no content is a block.
NORMAL_FINISHES = frozenset({"", "stop", "tool_calls", "function_call", "length", "eos",
                             "end_turn", "stop_sequence"})


def raw_calls(message: dict) -> list:
    """The message's tool calls as received, zero-filled ones left out."""
    calls = message.get("tool_calls")
    if not isinstance(calls, list):
        legacy = message.get("function_call")       # pre-tools servers still send this
        calls = [{"function": legacy}] if isinstance(legacy, dict) else []
    return [raw for raw in calls if not _zero_filled(raw)]


def _zero_filled(raw: Any) -> bool:
    function = raw.get("function") if isinstance(raw, dict) else None
    return isinstance(function, dict) and not function.get("name") \
        and function.get("arguments") in (None, "", {})


def _call(raw: Any) -> Call:
    if not isinstance(raw, dict) or not isinstance(raw.get("function"), dict):
        return Call(name="", arguments=None, parse_error="tool call has no function object")
    function = raw["function"]
    name = function.get("name") if isinstance(function.get("name"), str) else ""
    arguments, text, error = arguments_from_json(function.get("arguments"))
    call_id = raw.get("id") if isinstance(raw.get("id"), str) else ""
    return Call(name=name, arguments=arguments, raw_arguments=text, parse_error=error, id=call_id)


def trim_openai(body: Any) -> tuple[Any, dict]:
    """(the body as a run keeps it, what was dropped): choices[0].message with its first
    MAX_CALLS tool calls and its text (content, then refusal) up to MAX_TEXT characters, as
    reply_from_openai reads them (see providers/trimming.py)."""
    choices = body.get("choices") if isinstance(body, dict) else None
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict) \
            or not isinstance(choices[0].get("message"), dict):
        return body, {}
    message, keep = dict(choices[0]["message"]), Keeper("")
    if isinstance(message.get("tool_calls"), list):
        message["tool_calls"] = kept_list(message["tool_calls"], keep,
                                          lambda raw: None if _zero_filled(raw) else "call")
    content = message.get("content")
    if isinstance(content, str):
        message["content"] = keep.text(content)
    elif isinstance(content, list):
        message["content"] = kept_list(content, keep, _text_part)
    if isinstance(message.get("refusal"), str) and message["refusal"]:
        cut = keep.text(message["refusal"], sep="\n" if keep.end else "")     # joined after any content
        if cut is None:
            del message["refusal"]
        else:
            message["refusal"] = cut
    dropped = keep.dropped()
    if not dropped:
        return body, {}
    return {**body, "choices": [{**choices[0], "message": message}, *choices[1:]]}, dropped


def _text_part(part: Any):
    """What the reader reads in a content part: its text, if it has one."""
    return ("text", part["text"], "text") if isinstance(part, dict) and isinstance(part.get("text"), str) else None


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
    messages.append(openai_turn_from_reply(first))
    for call_id, call in zip(ids, reply.calls):
        messages.append({"role": "tool", "tool_call_id": call_id,
                         "content": result_text(tool_result_for(call, mocks or {}))})
    return messages


# Fields of a Chat Completions reply message that the request does not take back: citations,
# audio (the request wants only its id), the legacy function_call (rebuilt as tool_calls).
RESPONSE_ONLY = frozenset({"annotations", "audio", "function_call"})


def openai_turn_from_reply(first: Any) -> dict:
    """The received assistant message as the request accepts it back.

    Every field the server sent is kept where it sent it (DeepSeek requires its
    `reasoning_content` back, and other servers their own extras), except the response-only
    ones above and a null `refusal`; `content` is "" rather than null (some compatible servers
    reject a null). Each tool call keeps every field it arrived with (Gemini 3's
    `extra_content.google.thought_signature` must come back), with the id its tool message names
    and its arguments as a JSON string.
    """
    reply = reply_from_openai(first)
    choices = first.get("choices") if isinstance(first, dict) else None
    message = choices[0].get("message") if isinstance(choices, list) and choices \
        and isinstance(choices[0], dict) else None
    message = message if isinstance(message, dict) and reply.malformed is None else {}
    out = {k: v for k, v in message.items() if k not in RESPONSE_ONLY and not
           (k == "refusal" and v is None)}
    out.update(role="assistant", content=_text(message.get("content")))
    tool_calls = []
    for call_id, call, raw in zip(call_ids(reply.calls), reply.calls, raw_calls(message)):
        kept = dict(raw) if isinstance(raw, dict) else {}
        kept.update(id=call_id, type="function",
                    function={"name": call.name, "arguments": call.raw_arguments or "{}"})
        tool_calls.append(kept)
    out["tool_calls"] = tool_calls
    return out


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
