"""Replies that are not finished answers: a Responses status `queued`, `in_progress` or
`cancelled`, an Anthropic `pause_turn`, a Gemini candidate without a finish reason.

Each reader says so (`Reply.unfinished`, with the reason) instead of reading what the body holds
so far as the model's answer, and the grader makes such a turn an ERROR (left out of every score):
before, a `queued` reply with its empty output graded as "empty response: no call and no text",
a FAIL the model never earned.
"""
from __future__ import annotations

import pytest

from toolproof.grading.grade import grade_case
from toolproof.grading.transcripts import make_transcript
from toolproof.providers.anthropic import reply_from_anthropic
from toolproof.providers.gemini import reply_from_gemini
from toolproof.providers.responses import pending_id, reply_from_responses

CALL = {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "get_weather",
        "arguments": "{\"city\": \"Lisbon\"}", "status": "in_progress"}
TEXT = {"type": "message", "id": "msg_1", "role": "assistant", "status": "in_progress",
        "content": [{"type": "output_text", "text": "No tool needed.", "annotations": []}]}


def responses(status: str, *output: dict, **extra) -> dict:
    return {"id": "resp_9", "object": "response", "status": status, "output": list(output), **extra}


@pytest.mark.parametrize("status", ["queued", "in_progress", "cancelled"])
@pytest.mark.parametrize("output", [(), (TEXT,), (CALL,)])
def test_responses_unfinished_statuses_are_no_answer(status, output):
    reply = reply_from_responses(responses(status, *output))
    assert reply.unfinished.startswith(f"status {status}: ")
    assert reply.calls == () and reply.text == "" and not reply.malformed and not reply.truncated


def test_responses_finished_statuses_read_as_before():
    assert reply_from_responses(responses("completed", TEXT)).unfinished == ""
    assert reply_from_responses(responses("completed", CALL)).calls[0].name == "get_weather"
    cut = reply_from_responses(responses("incomplete", TEXT, incomplete_details={"reason": "max_output_tokens"}))
    assert cut.truncated and not cut.unfinished


@pytest.mark.parametrize("body, expected", [
    (responses("queued"), "resp_9"), (responses("in_progress", TEXT), "resp_9"),
    (responses("completed", TEXT), ""), (responses("cancelled"), ""), (responses("failed"), ""),
    # hostile: no id, an id that is not a string, an absurdly long one, not an object at all
    ({"status": "queued", "output": []}, ""), ({"status": "queued", "id": 7}, ""),
    ({"status": "queued", "id": "r" * 5000}, ""), (["queued"], ""), (None, ""), ("in_progress", "")])
def test_pending_id_names_only_a_response_still_running(body, expected):
    assert pending_id(body) == expected


def anthropic(stop: str, *content: dict) -> dict:
    return {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
            "content": list(content), "stop_reason": stop, "usage": {"input_tokens": 10, "output_tokens": 3}}


def test_anthropic_pause_turn_is_no_answer():
    reply = reply_from_anthropic(anthropic("pause_turn", {"type": "text", "text": "Let me search"},
                                           {"type": "tool_use", "id": "tu_1", "name": "get_weather", "input": {}}))
    assert reply.unfinished.startswith("stop_reason pause_turn")
    assert reply.calls == () and reply.text == ""


def test_anthropic_context_window_exceeded_is_a_cut_off_answer():
    reply = reply_from_anthropic(anthropic("model_context_window_exceeded", {"type": "text", "text": "The wea"}))
    assert reply.truncated and not reply.unfinished


def gemini(candidate: dict) -> dict:
    return {"candidates": [candidate], "usageMetadata": {"promptTokenCount": 5, "candidatesTokenCount": 2}}


@pytest.mark.parametrize("candidate", [
    {"content": {"role": "model", "parts": [{"text": "Partly"}]}},
    {"content": {"role": "model", "parts": [{"functionCall": {"name": "get_weather", "args": {}}}]}},
    {"content": {"role": "model", "parts": [{"text": "Partly"}]}, "finishReason": None},
    {"content": {"role": "model", "parts": []}}])
def test_gemini_without_a_finish_reason_has_not_finished(candidate):
    reply = reply_from_gemini(gemini(candidate))
    assert reply.unfinished and reply.calls == () and reply.text == ""
    assert reply.usage == {"input": 5, "output": 2}


def test_gemini_with_a_finish_reason_reads_as_before():
    reply = reply_from_gemini(gemini({"content": {"role": "model", "parts": [{"text": "Hi"}]}, "finishReason": "STOP"}))
    assert reply.text == "Hi" and not reply.unfinished


def _case(bundle, action: str):
    return next(c for c in bundle.cases if c.expect.action == action and c.mock_results is None)


@pytest.mark.parametrize("provider, body", [
    ("openai-responses", responses("queued")),
    ("openai-responses", responses("in_progress", TEXT)),
    ("anthropic", anthropic("pause_turn", {"type": "text", "text": "Searching"})),
    ("gemini", gemini({"content": {"role": "model", "parts": [{"text": "Partly"}]}}))])
@pytest.mark.parametrize("action", ["no_call", "call"])
def test_an_unfinished_reply_grades_as_error_never_as_an_empty_answer(bundle, provider, body, action):
    case = _case(bundle, action)
    result = grade_case(case, bundle.tools, make_transcript({"case_id": case.id, "turns": [{"response": body}]},
                                                            provider, "m"))
    assert result.verdict == "ERROR", result.reasons
    assert result.reasons[0].startswith("turn 1: reply not finished (")
    assert result.facts["request_error"] is True


def test_an_unfinished_second_turn_is_an_error_when_turn_one_was_right(bundle):
    """Turn 1 right, turn 2 paused: the case is not the model's failure, it is not graded."""
    case = next(c for c in bundle.cases if c.category == "multi_step")
    first = {"id": "msg_1", "type": "message", "role": "assistant", "stop_reason": "tool_use",
             "content": [{"type": "tool_use", "id": f"tu_{i}", "name": bundle.tools[call.tool].name, "input": call.args}
                         for i, call in enumerate(case.expect.calls[:1])]}
    result = grade_case(case, bundle.tools, make_transcript(
        {"case_id": case.id, "turns": [{"response": first}, {"response": anthropic("pause_turn")}]}, "anthropic", "m"))
    assert result.verdict == "ERROR", result.reasons
    assert any("turn 2: reply not finished (stop_reason pause_turn" in r for r in result.reasons)
