"""The warning that a server may not have shown the tools to the model: a reply's reported input
tokens fewer than the tool definitions sent take (a real local server reported 26 input tokens
for a request carrying 3 tool schemas). Bodies are hand-written in the providers' shapes."""
from __future__ import annotations

import json

from toolproof.datafiles import format_schema
from toolproof.grading.transcripts import parse_transcripts
from toolproof.scoring.evaluate import evaluate
from toolproof.scoring.unseen_tools import WARNING, tool_tokens

TOOL = {"type": "function", "function": {"name": "get_weather", "description": "Current weather for a city " * 4,
                                         "parameters": {"type": "object", "properties": {
                                             "city": {"type": "string", "description": "The city name " * 4},
                                             "unit": {"type": "string", "enum": ["c", "f"]}},
                                             "required": ["city"]}}}


def answer(input_tokens) -> dict:
    return {"id": "c", "object": "chat.completion", "model": "m",
            "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "Hi"}}],
            "usage": {"prompt_tokens": input_tokens, "completion_tokens": 2}}


def doc(case_id: str, input_tokens, tools=(TOOL,) * 3, repeat: int = 0) -> dict:
    return {"case_id": case_id, "provider": "openai-compatible", "repeat": repeat, "turns": [
        {"request": {"url": "http://h/v1/chat/completions", "body": {"model": "m", "tools": list(tools)}},
         "response": answer(input_tokens)}]}


def card(bundle, *transcripts) -> dict:
    raw = {"format": "toolproof.transcripts", "version": 1, "kind": "live", "provider": "openai-compatible",
           "model": "m", "transcripts": list(transcripts)}
    return evaluate(bundle.cases, bundle.tools, parse_transcripts(raw, format_schema("transcripts")))


def test_the_estimate_is_low_on_purpose():
    text = json.dumps([TOOL] * 3, separators=(",", ":"))
    assert tool_tokens({"tools": [TOOL] * 3}) == int(len(text) / 4 / 2)
    assert tool_tokens({}) == tool_tokens(None) == tool_tokens({"tools": []}) == 0


def test_26_input_tokens_for_three_tool_schemas_warns(bundle):
    cid = bundle.cases[0].id
    found = card(bundle, doc(cid, 26))
    row = next(c for c in found["cases"] if c["id"] == cid)
    assert row["warnings"] == [f"turn 1: the server reported 26 input tokens, fewer than the ~"
                               f"{tool_tokens({'tools': [TOOL] * 3})} its tool definitions take at least: {WARNING}"]
    assert found["warnings"] == [f"1 case: the reported input tokens were fewer than the tool definitions "
                                 f"sent: {WARNING} ({cid})"]
    assert row["verdict"] == card(bundle, doc(cid, 5000))["cases"][0]["verdict"]     # never a verdict change


def test_enough_tokens_no_usage_or_no_request_do_not_warn(bundle):
    cid = bundle.cases[0].id
    no_usage = doc(cid, 26)
    del no_usage["turns"][0]["response"]["usage"]
    no_request = doc(cid, 26)
    del no_request["turns"][0]["request"]
    for transcript in (doc(cid, 5000), no_usage, no_request, doc(cid, 3, tools=())):
        found = card(bundle, transcript)
        assert "warnings" not in found and "warnings" not in found["cases"][0]


def test_hostile_requests_never_raise(bundle):
    cid = bundle.cases[0].id
    for body in ({"tools": "x" * 100_000}, {"tools": {"a": [[[]]]}}, {"tools": None}, [], "x"):
        transcript = doc(cid, 1)
        transcript["turns"][0]["request"]["body"] = body
        assert card(bundle, transcript)["cases"][0]["id"] == cid
