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
    assert row["warnings"] == [f"the server reported 26 input tokens, fewer than the ~"
                               f"{tool_tokens({'tools': [TOOL] * 3})} its tool definitions take at least: {WARNING}"]
    assert found["warnings"] == [f"1 case: the reported input tokens were fewer than the tool definitions "
                                 f"sent: {WARNING} ({cid})"]
    assert row["verdict"] == card(bundle, doc(cid, 5000))["cases"][0]["verdict"]     # never a verdict change


def test_one_line_per_case_over_its_repeats_and_turns(bundle):
    """A server that drops the tools does it on every request: one line for the case (issue 37 showed
    eight identical lines, one per turn and repeat), counting the requests that fell short of those
    answered, with the fewest tokens reported; a failed request is not an answered one."""
    cid = bundle.cases[0].id
    needed = tool_tokens({"tools": [TOOL] * 3})
    two_turns = doc(cid, 40)
    two_turns["turns"].append(doc(cid, 26)["turns"][0])
    failed = doc(cid, 5000, repeat=3)
    failed["turns"] = [{"request": failed["turns"][0]["request"], "error": {"status": 500, "message": "down"}}]
    found = card(bundle, two_turns, doc(cid, 5000, repeat=1), doc(cid, 30, repeat=2), failed)
    row = next(c for c in found["cases"] if c["id"] == cid)
    assert row["warnings"] == [f"in 3 of 4 answered requests the server reported fewer input tokens than the tool "
                               f"definitions take (as few as 26, where they take ~{needed} at least): {WARNING}"]
    found = card(bundle, doc(cid, 26), doc(cid, 5000, repeat=1))
    assert next(c for c in found["cases"] if c["id"] == cid)["warnings"] == [
        f"in 1 of 2 answered requests the server reported 26 input tokens, fewer than the ~{needed} its tool "
        f"definitions take at least: {WARNING}"]


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
