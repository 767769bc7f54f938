"""A parallel case may expect the very same call twice (two draws from one distribution: BFCL's
parallel_158); the copies it expects fill their slots, and only a copy beyond them is duplicated."""
from __future__ import annotations

import copy

import pytest

from toolproof.grading.grade import grade_case
from toolproof.grading.transcripts import parse_transcripts
from toolproof.selftest.new_categories import A, B, NEW_SUITE_DOC, NEW_TOOLS_DOC, _ANY, _turn
from toolproof.suite.load import parse_suite, parse_tools

SUITE = copy.deepcopy(NEW_SUITE_DOC)
SUITE["cases"].append({"id": "par-twice", "category": "parallel", "tools": ["lookup", "place_order"],
                       "prompt": "Look up ORD-123456 twice (it changes by the minute) and ORD-654321 once.",
                       "expect": {"action": "call", "order": "any", "calls": [
                           {"tool": "lookup", "args": dict(A[1])}, {"tool": "lookup", "args": dict(A[1])},
                           {"tool": "lookup", "args": dict(B[1])}]}})
TOOLS = parse_tools(NEW_TOOLS_DOC, _ANY)
CASE = next(c for c in parse_suite(SUITE, TOOLS, _ANY) if c.id == "par-twice")


def graded(*calls):
    doc = {"format": "toolproof.transcripts", "version": 1, "kind": "fixture", "transcripts": [
        {"case_id": CASE.id, "provider": "openai", "turns": [_turn(*calls)]}]}
    return grade_case(CASE, TOOLS, parse_transcripts(doc, _ANY).transcripts[CASE.id])


@pytest.mark.parametrize("calls, verdict, first", [
    ((A, A, B), "PASS", "called lookup and lookup and lookup"),
    ((B, A, A), "PASS", "called lookup and lookup and lookup"),
    ((A, B), "PARTIAL", "sequential: made 2 of 3 independent calls"),
    ((A, A, A, B), "FAIL", 'duplicated call lookup(order_id="ORD-123456") in turn 1'),
    ((B, B, A), "FAIL", 'duplicated call lookup(order_id="ORD-654321") in turn 1'),
])
def test_the_copies_a_case_expects_are_no_duplicates(calls, verdict, first):
    result = graded(*calls)
    assert (result.verdict, result.reasons[0][:len(first)]) == (verdict, first), result.reasons
