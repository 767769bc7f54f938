"""Self-check assertions for catalogue ids (issue 22 item 1): entries that share a name are kept
apart by id, each case offers one of them under the name the model sees, replies are mapped back
per case, mocks reach the model under the name, and reports show the name with the id where
names repeat. Part of `python -m toolproof selftest` and `index.html?selftest=1` alike.

Pure: no I/O (its documents are written here).
"""
from __future__ import annotations

import json
from typing import Any, Callable

from toolproof.grading.grade import grade_case
from toolproof.grading.transcripts import parse_transcripts
from toolproof.providers.dispatch import request_body
from toolproof.suite.load import parse_suite, parse_tools

_ANY = {"type": "object"}        # the self-test's own documents are trusted
_GCD2 = {"type": "object", "required": ["a", "b"], "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}}}
_GCDN = {"type": "object", "required": ["numbers"], "properties": {"numbers": {"type": "array", "items": {"type": "integer"}}}}
_TOOLS = {"format": "toolproof.tools", "version": 1, "tools": [
    {"id": "gcd@two", "name": "math.gcd", "description": "GCD of two numbers.", "parameters": _GCD2},
    {"id": "gcd@many", "name": "math.gcd", "description": "GCD of a list.", "parameters": _GCDN},
    {"name": "lookup", "description": "Look something up.", "parameters": _ANY}]}
_SUITE = {"format": "toolproof.suite", "version": 2, "cases": [
    {"id": "two", "category": "should_call", "tools": ["gcd@two"], "prompt": "gcd of 12 and 18",
     "expect": {"action": "call", "calls": [{"tool": "gcd@two", "args": {"a": 12, "b": 18}}]}},
    {"id": "many", "category": "result_use", "tools": ["gcd@many", "lookup"], "prompt": "gcd of 4, 6, 8",
     "mock_results": {"gcd@many": {"gcd": 2}},
     "expect": {"action": "call", "calls": [{"tool": "gcd@many", "args": {"numbers": [4, 6, 8]}}],
                "final_text": {"must_include": [{"result": "gcd@many.gcd"}]}}},
]}


def _turn(*calls: tuple) -> dict:
    return {"response": {"choices": [{"finish_reason": "tool_calls", "message": {"role": "assistant", "tool_calls": [
        {"id": f"c{i}", "type": "function", "function": {"name": n, "arguments": json.dumps(a)}}
        for i, (n, a) in enumerate(calls)]}}]}}


def tool_id_checks(check: Callable[[str, Any], None]) -> None:
    """Each id rule, on hand-written replies (`check(name, condition)`)."""
    tools = parse_tools(_TOOLS, _ANY)
    cases = {c.id: c for c in parse_suite(_SUITE, tools, _ANY)}

    def graded(cid: str, *turns: dict):
        doc = {"format": "toolproof.transcripts", "version": 1, "kind": "fixture",
               "transcripts": [{"case_id": cid, "provider": "openai", "turns": list(turns)}]}
        return grade_case(cases[cid], tools, parse_transcripts(doc, _ANY).transcripts[cid])

    check("ids: two entries named math.gcd load apart; each case is graded against its own entry's schema",
          graded("two", _turn(("math_gcd", {"a": 12, "b": 18}))).verdict == "PASS"
          and graded("two", _turn(("math_gcd", {"numbers": [12, 18]}))).verdict == "FAIL")
    body = request_body("openai", cases["many"], [tools["gcd@many"], tools["lookup"]], model="m")
    second = request_body("openai", cases["many"], [tools["gcd@many"], tools["lookup"]], model="m",
                          first=_turn(("math_gcd", {"numbers": [4, 6, 8]}))["response"],
                          mocks=cases["many"].mock_results)
    check("ids: the request carries the name (math_gcd), and the mock result reaches the model under it",
          [t["function"]["name"] for t in body["tools"]] == ["math_gcd", "lookup"]
          and json.loads(second["messages"][-1]["content"]) == {"gcd": 2})
    wrong = graded("two", _turn(("gcd@two", {"a": 12, "b": 18})))
    check("ids: a reply naming an id instead of a name is a hallucinated tool",
          wrong.verdict == "FAIL" and "hallucinated tool" in wrong.reasons[0])
    check("ids: reasons show the name with the id where names repeat",
          "expected math.gcd [gcd@two]" in wrong.reasons[0])
