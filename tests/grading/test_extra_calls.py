"""A reply with far more calls than any case expects: read up to a bound, reasons bounded.

Found by a hostile-input review: one reply of 50,000 calls (about the most the 5 MB body limit holds) took
104 s and about 1 GB to grade against an `order: any` case. The cost is shown here by counting
(calls read, calls checked, reasons written), never by timing; benchmarks/huge_reply.py prints
the seconds.
"""
from __future__ import annotations

import json

import pytest

from conftest import TOOLS_DOC, case, make_grader, openai
from toolproof.grading import grade as grade_module
from toolproof.grading.extra_calls import MAX_EXTRA_REASONS, called_names
from toolproof.datafiles import format_schema
from toolproof.errors import ToolProofError
from toolproof.grading.transcripts import parse_transcripts
from toolproof.providers.dispatch import reply_from_body, trim_body
from toolproof.providers.reply import MAX_CALLS, MAX_TEXT

LOOKUP = {"tool": "lookup", "args": {"order_id": "ORD-123456"}}
SUITE = {"format": "toolproof.suite", "version": 1, "cases": [
    case("any", "should_call", {"action": "call", "order": "any", "calls": [LOOKUP, LOOKUP]}),
    case("seq", "should_call", {"action": "call", "calls": [LOOKUP]}),
    case("none", "should_not_call", {"action": "no_call"}),
]}
N = 40_000     # about 4.5 MB as OpenAI sends it: inside the 5 MB body limit


def _args(i: int) -> dict:
    return {"order_id": f"ORD-{i:06d}"}


BODIES = {
    "openai": lambda n: {"choices": [{"message": {"role": "assistant", "tool_calls": [
        {"id": f"c{i}", "type": "function", "function": {"name": "lookup", "arguments": json.dumps(_args(i))}}
        for i in range(n)]}, "finish_reason": "tool_calls"}]},
    "anthropic": lambda n: {"content": [{"type": "tool_use", "id": f"t{i}", "name": "lookup", "input": _args(i)}
                                        for i in range(n)], "stop_reason": "tool_use"},
    "openai-responses": lambda n: {"status": "completed", "output": [
        {"type": "function_call", "call_id": f"c{i}", "name": "lookup", "arguments": json.dumps(_args(i))}
        for i in range(n)]},
    "gemini": lambda n: {"candidates": [{"content": {"role": "model", "parts": [
        {"functionCall": {"name": "lookup", "args": _args(i)}} for i in range(n)]}, "finishReason": "STOP"}]},
}


@pytest.fixture(scope="module")
def grader():
    return make_grader(TOOLS_DOC, SUITE)


@pytest.mark.parametrize("provider", sorted(BODIES))
def test_every_wire_reads_at_most_max_calls_and_counts_the_rest(provider):
    reply = reply_from_body(provider, BODIES[provider](N))
    assert reply.malformed is None
    assert len(reply.calls) == MAX_CALLS
    assert reply.calls_not_read == N - MAX_CALLS
    assert reply.calls[-1].arguments == _args(MAX_CALLS - 1)     # the first ones, in order


@pytest.mark.parametrize("provider", sorted(BODIES))
def test_a_reply_within_the_bound_is_read_whole(provider):
    reply = reply_from_body(provider, BODIES[provider](MAX_CALLS))
    assert (len(reply.calls), reply.calls_not_read) == (MAX_CALLS, 0)


@pytest.mark.parametrize("cid", ["any", "seq"])
def test_50000_calls_grade_with_bounded_work_and_bounded_reasons(grader, cid, monkeypatch):
    checked = []
    real = grade_module.check_call
    monkeypatch.setattr(grade_module, "check_call", lambda *a: checked.append(1) or real(*a))
    result = grader(cid, {"response": BODIES["openai"](N)})
    assert result.verdict == "FAIL"
    assert len(checked) <= 2 * MAX_CALLS            # strict and lenient passes, each bounded
    extra = [r for r in result.reasons if r.startswith("extra call")]
    assert len(extra) == MAX_EXTRA_REASONS
    expected = 2 if cid == "any" else 1
    assert f"… and {MAX_CALLS - expected - MAX_EXTRA_REASONS} more extra calls" in result.reasons
    assert result.reasons[-1] == (f"turn 1: {N - MAX_CALLS} more calls not read (a reply's first "
                                  f"{MAX_CALLS} calls are graded; more than any case expects)")
    assert len(result.reasons) <= MAX_EXTRA_REASONS + 4
    assert max(map(len, result.reasons)) < 200


def test_an_over_call_names_a_bounded_number_of_tools(grader):
    result = grader("none", {"response": BODIES["openai"](1_000)})
    assert result.verdict == "FAIL"
    assert result.reasons[0].startswith("over-call: called lookup, lookup")
    assert f"… ({MAX_CALLS - 10} more)" in result.reasons[0] and len(result.reasons[0]) < 200
    assert result.reasons[-1].startswith(f"turn 1: {1_000 - MAX_CALLS} more calls not read")


def test_a_few_extra_calls_are_each_named_as_before(grader):
    result = grader("seq", openai(*[("lookup", {"order_id": "ORD-123456"})] * 3))
    assert result.reasons == ["extra call lookup in turn 1: expected 1 call"] * 2


def test_called_names_lists_all_when_few():
    assert called_names([], {}) == ""


# ---- what a run keeps of such a reply (issue 36) grades the same ---------------------------------

@pytest.mark.parametrize("provider", sorted(BODIES))
@pytest.mark.parametrize("cid", ["any", "seq", "none"])
def test_the_kept_body_with_its_dropped_counts_grades_as_the_whole_reply(grader, provider, cid):
    # a run stores the trimmed body and `dropped` (providers/trimming.py); its re-grade must say
    # what the live grade of the whole reply said, the count of calls not read included
    body = BODIES[provider](N)
    kept, dropped = trim_body(provider, body)
    assert dropped == {"calls": N - MAX_CALLS}
    live = grader(cid, {"response": body}, provider=provider)
    again = grader(cid, {"response": kept, "dropped": dropped}, provider=provider)
    assert (again.verdict, again.reasons) == (live.verdict, live.reasons)
    assert again.reasons[-1].startswith(f"turn 1: {N - MAX_CALLS} more calls not read")
    without = grader(cid, {"response": kept}, provider=provider)     # a file that lost the counts
    assert not any("more calls not read" in r for r in without.reasons)


LONG_TEXT = "I could not find that order. " * 2_000          # 58,000 characters


@pytest.mark.parametrize("provider", sorted(BODIES))
def test_a_long_answer_is_graded_on_its_first_max_text_characters_and_says_so(grader, provider):
    body = {"openai": lambda: {"choices": [{"message": {"content": LONG_TEXT}, "finish_reason": "stop"}]},
            "anthropic": lambda: {"content": [{"type": "text", "text": LONG_TEXT}], "stop_reason": "end_turn"},
            "openai-responses": lambda: {"status": "completed", "output": [
                {"type": "message", "content": [{"type": "output_text", "text": LONG_TEXT}]}]},
            "gemini": lambda: {"candidates": [{"content": {"parts": [{"text": LONG_TEXT}]},
                                               "finishReason": "STOP"}]}}[provider]()
    kept, dropped = trim_body(provider, body)
    live = grader("none", {"response": body}, provider=provider)
    again = grader("none", {"response": kept, "dropped": dropped}, provider=provider)
    assert (again.verdict, again.reasons) == (live.verdict, live.reasons)
    assert live.verdict == "PASS"            # the note does not change the verdict
    assert live.reasons[-1] == (f"turn 1: {len(LONG_TEXT) - MAX_TEXT:,} more characters of text not read "
                                f"(a reply's first {MAX_TEXT:,} characters are graded)")


@pytest.mark.parametrize("dropped, problem", [
    ({"calls": 1, "pages": 2}, "Additional properties are not allowed"),
    ({"calls": -1}, "less than the minimum of 0"),
    ({"characters": "9"}, "is not of type 'integer'"),
    ([3], "is not of type 'object'"),
])
def test_a_file_with_junk_dropped_counts_is_refused_by_path(dropped, problem):
    doc = {"format": "toolproof.transcripts", "version": 1, "kind": "live", "transcripts": [
        {"case_id": "seq", "turns": [{"response": BODIES["openai"](1), "dropped": dropped}]}]}
    with pytest.raises(ToolProofError) as caught:
        parse_transcripts(doc, format_schema("transcripts"))
    assert problem in str(caught.value) and "$.transcripts[0].turns[0].dropped" in str(caught.value)
