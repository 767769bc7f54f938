"""Google Gemini (generateContent): request bodies out, replies in.

Calls arrive as `functionCall` parts whose `args` are already an object. Gemini's traps, and
how they are read:
- the second turn repeats the model's content exactly as received, so every `thoughtSignature`
  goes back unchanged (Gemini 3 refuses a follow-up without them), then a user turn of
  `functionResponse` parts;
- `finishReason: "MAX_TOKENS"` is truncation;
- `MALFORMED_FUNCTION_CALL` / `UNEXPECTED_TOOL_CALL` mean the model tried to call and failed:
  the reply is unreadable as a call and fails the case with a reason saying so, never read as
  "no call" (BFCL counted such replies as correct abstentions: gorilla #443, #1362); except that
  an `UNEXPECTED_TOOL_CALL` naming the undeclared function it called (a functionCall part, or
  its finishMessage) is that call: a hallucinated tool, with its name;
- a candidate with no `finishReason` has not finished ("If empty, the model has not stopped
  generating tokens"): what it holds so far is no answer (the case is an ERROR, not graded);
- `SAFETY`, `RECITATION` (and the other blocking reasons) fail the case with that reason; any
  other finish reason not known as a normal stop, with no content (`MODEL_ARMOR`), is a block;
- `toolUsePromptTokenCount` is input, beside `promptTokenCount`.

Pure: no I/O, never raises on a strange body.
"""
from __future__ import annotations

import json
from typing import Any

from .conversation import tool_result_for
from .reply import Call, Reply, bounded_calls, bounded_text
from .trimming import Keeper, kept_list
from toolproof.errors import kind_of
from toolproof.suite.toolnames import wire_name

TRUNCATED = "MAX_TOKENS"
MALFORMED_CALL = {
    "MALFORMED_FUNCTION_CALL": "the model tried to call a tool but the call was malformed",
    "UNEXPECTED_TOOL_CALL": "the model tried to call a tool in a way the request did not allow",
}
BLOCKED = {
    "SAFETY": "the reply was blocked for safety",
    "RECITATION": "the reply was stopped for recitation (it would repeat source material)",
    "BLOCKLIST": "the reply was stopped by a blocklist",
    "PROHIBITED_CONTENT": "the reply was blocked as prohibited content",
    "SPII": "the reply was stopped for sensitive personal information",
}


def reply_from_gemini(body: Any) -> Reply:
    """candidates[0].content.parts -> Reply; see the module docstring for the finish reasons."""
    if not isinstance(body, dict):
        return Reply(malformed="response body is not a JSON object")
    candidates = body.get("candidates")
    if not isinstance(candidates, list) or not candidates or not isinstance(candidates[0], dict):
        return Reply(malformed=_no_candidates(body))
    candidate = candidates[0]
    finish = candidate.get("finishReason") if isinstance(candidate.get("finishReason"), str) else ""
    if candidate.get("finishReason") is None:   # the API: "If empty, the model has not stopped generating tokens"
        return Reply(usage=_usage(body), unfinished="no finishReason: the model had not stopped generating")
    undeclared, not_read = _undeclared_calls(candidate) if finish == "UNEXPECTED_TOOL_CALL" else ((), 0)
    if undeclared:      # a call to a function the request did not declare: a hallucinated tool, with its name
        return Reply(calls=undeclared, calls_not_read=not_read, finish_reason=finish, usage=_usage(body))
    if finish in MALFORMED_CALL:
        return Reply(finish_reason=finish, usage=_usage(body),
                     malformed=f"malformed tool call: finishReason {finish}, {MALFORMED_CALL[finish]}")
    if finish in BLOCKED:
        return Reply(finish_reason=finish, usage=_usage(body),
                     malformed=f"finishReason {finish}: {BLOCKED[finish]}")
    found, texts = [], []
    for part in _parts(candidate):
        if isinstance(part.get("functionCall"), dict):
            found.append(part["functionCall"])
        elif isinstance(part.get("text"), str) and part.get("thought") is not True:
            texts.append(part["text"])          # thought summaries are not the answer
    calls, not_read = bounded_calls(found, _call)
    text, text_not_read = bounded_text("".join(texts))
    if finish not in NORMAL_FINISHES and not calls and not text:
        return Reply(finish_reason=finish, usage=_usage(body), blocked=finish)     # e.g. MODEL_ARMOR
    return Reply(calls=calls, calls_not_read=not_read, text=text, text_not_read=text_not_read,
                 finish_reason=finish, truncated=finish == TRUNCATED, usage=_usage(body))


NORMAL_FINISHES = frozenset({"", "STOP", "MAX_TOKENS", "FINISH_REASON_UNSPECIFIED"})


def trim_gemini(body: Any) -> tuple[Any, dict]:
    """(the body as a run keeps it, what was dropped): candidates[0].content.parts with the first
    MAX_CALLS functionCall parts and, when the reader reads text (not on a malformed or blocking
    finish), the text parts up to MAX_TEXT characters; thought parts and the rest stay (see
    providers/trimming.py). Turn 2 echoes this content, so each thoughtSignature kept goes back."""
    candidates = body.get("candidates") if isinstance(body, dict) else None
    candidate = candidates[0] if isinstance(candidates, list) and candidates else None
    content = candidate.get("content") if isinstance(candidate, dict) else None
    if not isinstance(content, dict) or not isinstance(content.get("parts"), list):
        return body, {}
    finish = candidate.get("finishReason") if isinstance(candidate.get("finishReason"), str) else ""
    reads_text = finish not in MALFORMED_CALL and finish not in BLOCKED

    def kind(part: Any):
        if not isinstance(part, dict):
            return None
        if isinstance(part.get("functionCall"), dict):
            return "call"
        if reads_text and isinstance(part.get("text"), str) and part.get("thought") is not True:
            return ("text", part["text"], "text")
        return None
    keep = Keeper("")
    parts = kept_list(content["parts"], keep, kind)
    dropped = keep.dropped()
    if not dropped:
        return body, {}
    return {**body, "candidates": [{**candidate, "content": {**content, "parts": parts}}, *candidates[1:]]}, dropped


UNDECLARED = "undeclared function:"


def _undeclared_calls(candidate: dict) -> tuple[tuple, int]:
    """(the calls of an UNEXPECTED_TOOL_CALL reply, how many were left unread): its functionCall
    parts (the first MAX_CALLS, as every reader), else the name its finishMessage gives ("...
    tried to call an undeclared function: NAME"); ((), 0) if neither."""
    calls, not_read = bounded_calls([p["functionCall"] for p in _parts(candidate)
                                     if isinstance(p.get("functionCall"), dict)], _call)
    if any(c.name for c in calls):
        return calls, not_read
    message = candidate.get("finishMessage")
    if isinstance(message, str) and UNDECLARED in message:
        name = message.split(UNDECLARED, 1)[1].strip().split()[0:1]
        if name and len(name[0]) <= 128:
            return (Call(name=name[0].rstrip(".,;:"), arguments={}),), 0
    return (), 0


def _no_candidates(body: dict) -> str:
    feedback = body.get("promptFeedback")
    reason = feedback.get("blockReason") if isinstance(feedback, dict) else None
    if isinstance(reason, str):
        return f"the prompt was blocked (blockReason {reason}): no candidates"
    return "response has no candidates"


def _parts(candidate: dict) -> list[dict]:
    content = candidate.get("content")
    parts = content.get("parts") if isinstance(content, dict) else None
    return [p for p in parts if isinstance(p, dict)] if isinstance(parts, list) else []


def _call(raw: dict) -> Call:
    name = raw.get("name") if isinstance(raw.get("name"), str) else ""
    call_id = raw.get("id") if isinstance(raw.get("id"), str) else ""
    args = raw.get("args", {})
    if isinstance(args, dict):
        return Call(name=name, arguments=args, id=call_id,
                    raw_arguments=json.dumps(args, ensure_ascii=False))
    raw_text = args if isinstance(args, str) else json.dumps(args, ensure_ascii=False)
    return Call(name=name, arguments=None, raw_arguments=raw_text, id=call_id,
                parse_error=f"functionCall args is {kind_of(args)}, not an object")


def _usage(body: dict) -> dict:
    """Input and output tokens; thinking tokens are billed as output, so they count as output."""
    meta = body.get("usageMetadata")
    if not isinstance(meta, dict):
        return {}

    def count(key: str) -> int | None:
        value = meta.get(key)
        return value if isinstance(value, int) and not isinstance(value, bool) else None
    out = {}
    if count("promptTokenCount") is not None:
        out["input"] = count("promptTokenCount")
    if count("toolUsePromptTokenCount"):     # tool-use prompt tokens are input, apart from the prompt's
        out["input"] = out.get("input", 0) + count("toolUsePromptTokenCount")
        out["tool_use_prompt"] = count("toolUsePromptTokenCount")
    produced = [n for n in (count("candidatesTokenCount"), count("thoughtsTokenCount")) if n is not None]
    if produced:
        out["output"] = sum(produced)
    return out


# ---------------------------------------------------------------- going out

def gemini_tools(tools: list) -> list[dict]:
    """One tool holding every declaration; `parametersJsonSchema` takes full JSON Schema."""
    return [{"functionDeclarations": [{"name": wire_name(t.name), "description": t.description,
                                       "parametersJsonSchema": t.parameters} for t in tools]}]


def gemini_turn_from_reply(first: Any) -> dict:
    """The model's turn-1 content as the request accepts it back: exactly as received, the very
    object (every `thoughtSignature`; Gemini 3 refuses a follow-up that lost one)."""
    candidates = first.get("candidates") if isinstance(first, dict) else None
    if isinstance(candidates, list) and candidates and isinstance(candidates[0], dict) \
            and isinstance(candidates[0].get("content"), dict):
        return candidates[0]["content"]
    return {"role": "model", "parts": []}


model_content = gemini_turn_from_reply      # the name older callers know


def function_response(call: Call, mocks: dict) -> dict:
    """One functionResponse part; `response` must be an object, so other results are wrapped."""
    result = tool_result_for(call, mocks)
    response = {"name": call.name, "response": result if isinstance(result, dict) else {"output": result}}
    if call.id:                    # echo an id only when Gemini gave one
        response["id"] = call.id
    return {"functionResponse": response}


def gemini_contents(case, first: Any = None, mocks: dict | None = None) -> list[dict]:
    """The contents for turn 1, or for turn 2 when `first` (the turn-1 body) is given."""
    contents: list[dict] = [{"role": "user", "parts": [{"text": case.prompt}]}]
    if first is None:
        return contents
    contents.append(gemini_turn_from_reply(first))
    contents.append({"role": "user", "parts": [function_response(call, mocks or {})
                                               for call in reply_from_gemini(first).calls]})
    return contents


def gemini_request(case, tools: list, *, model: str, first: Any = None,
                   mocks: dict | None = None, max_tokens: int | None = None) -> dict:
    """The generateContent request body for one turn (the model is named in the URL; no
    credentials here: the key travels only in the x-goog-api-key header)."""
    body: dict = {
        "contents": gemini_contents(case, first, mocks),
        "tools": gemini_tools(tools),
        "toolConfig": {"functionCallingConfig": {"mode": "AUTO"}},
    }
    if case.system:
        body["systemInstruction"] = {"parts": [{"text": case.system}]}
    if max_tokens is not None:
        body["generationConfig"] = {"maxOutputTokens": max_tokens}
    return body
