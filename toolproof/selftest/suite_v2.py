"""Self-check assertions for suite format v2 (issue 10 item 4), one per rule: optional, absent,
exact, loose, accept by dotted path, several calls, order "any", tool names mapped for
providers (and refused when two a case offers collide), and the loader fix for accept values. Part of
`python -m toolproof selftest` and `index.html?selftest=1` alike (run_selftest calls it).

Pure: no I/O (its documents are written here).
"""
from __future__ import annotations

import json
from typing import Any, Callable

from toolproof.errors import ToolProofError
from toolproof.grading.grade import grade_case
from toolproof.providers.dispatch import request_body
from toolproof.suite.load import parse_suite, parse_tools
from toolproof.suite.toolnames import name_from_wire, wire_name
from toolproof.grading.transcripts import parse_transcripts

_ANY = {"type": "object"}        # the self-test's own documents are trusted
_WEATHER = {"type": "object", "required": ["city"], "properties": {
    "city": {"type": "string"}, "days": {"type": "integer"},
    "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
    "where": {"type": "object", "properties": {"country": {"type": "string"}}}}}
_TOOLS = {"format": "toolproof.tools", "version": 1, "tools": [
    {"name": "weather.get", "description": "Weather.", "parameters": _WEATHER},
    {"name": "play", "description": "Play music.", "parameters": {"type": "object", "properties": {
        "artist": {"type": "string"}}, "required": ["artist"]}}]}
_NY = {"tool": "weather.get", "args": {"city": "New York", "days": 3}}
_PLAY = {"tool": "play", "args": {"artist": "Taylor Swift"}}


def _case(cid: str, *calls: dict, **expect: Any) -> dict:
    return {"id": cid, "category": "should_call", "tools": ["weather.get", "play"], "prompt": "Weather, then music.",
            "expect": {"action": "call", "calls": list(calls), **expect}}


_SUITE = {"format": "toolproof.suite", "version": 2, "cases": [
    _case("optional", {**_NY, "args": {**_NY["args"], "unit": "celsius"}, "optional": ["unit"]}),
    _case("absent", {**_NY, "absent": ["unit"]}),
    _case("exact", {**_NY, "exact": True}),
    _case("loose", {**_NY, "loose": ["city"]}),
    _case("dotted", {**_NY, "args": {**_NY["args"], "where": {"country": "US"}}, "accept": {"where.country": ["USA"]}}),
    _case("several", _NY, _PLAY),
    _case("anyorder", _NY, _PLAY, order="any"),
    _case("loaderfix", {"tool": "weather.get", "args": {"days": 3}, "accept": {"days": [4]}}),
]}


def _reply(*calls: tuple) -> dict:
    return {"response": {"choices": [{"finish_reason": "tool_calls", "message": {"role": "assistant", "tool_calls": [
        {"id": f"c{i}", "type": "function", "function": {"name": n, "arguments": json.dumps(a)}}
        for i, (n, a) in enumerate(calls)]}}]}}


def suite_v2_checks(check: Callable[[str, Any], None]) -> None:
    """Each v2 rule, graded on a hand-written reply (`check(name, condition)`)."""
    tools = parse_tools(_TOOLS, _ANY)
    cases = {c.id: c for c in parse_suite(_SUITE, tools, _ANY)}

    def verdict(cid: str, *calls: tuple) -> str:
        doc = {"format": "toolproof.transcripts", "version": 1, "kind": "fixture",
               "transcripts": [{"case_id": cid, "provider": "openai", "turns": [_reply(*calls)]}]}
        return grade_case(cases[cid], tools, parse_transcripts(doc, _ANY).transcripts[cid]).verdict

    ny, song = {"city": "New York", "days": 3}, ("play", {"artist": "Taylor Swift"})
    check("v2 optional: omitted passes, a wrong value fails",
          verdict("optional", ("weather_get", ny)) == "PASS"
          and verdict("optional", ("weather_get", {**ny, "unit": "fahrenheit"})) == "FAIL")
    check("v2 absent: the field sent fails", verdict("absent", ("weather_get", ny)) == "PASS"
          and verdict("absent", ("weather_get", {**ny, "unit": "celsius"})) == "FAIL")
    check("v2 exact: an argument the case does not list fails",
          verdict("exact", ("weather_get", {**ny, "unit": "celsius"})) == "FAIL"
          and verdict("loose", ("weather_get", {**ny, "unit": "celsius"})) == "PASS")
    check("v2 loose: 'new-york' equals 'New York' (BFCL's rule), not without loose",
          verdict("loose", ("weather_get", {"city": "new-york", "days": 3})) == "PASS"
          and verdict("exact", ("weather_get", {"city": "new-york", "days": 3})) == "FAIL")
    check("v2 accept by dotted path inside an object argument",
          verdict("dotted", ("weather_get", {**ny, "where": {"country": "USA"}})) == "PASS"
          and verdict("dotted", ("weather_get", {**ny, "where": {"country": "CA"}})) == "FAIL")
    check("v2 several calls in should_call keep their order",
          verdict("several", ("weather_get", ny), song) == "PASS" and verdict("several", song, ("weather_get", ny)) == "FAIL")
    check("v2 order any: calls matched one-to-one in any order, an extra still fails",
          verdict("anyorder", song, ("weather_get", ny)) == "PASS"
          and verdict("anyorder", song, ("weather_get", ny), song) == "FAIL")
    check("v2 loader fix: an accept value loads without the required fields args leave out",
          verdict("loaderfix", ("weather_get", {"city": "Oslo", "days": 4})) == "PASS")
    body = request_body("openai", cases["anyorder"], [tools["weather.get"], tools["play"]], model="m")
    check("v2 names: the request carries weather_get, the grader maps it back; order any allows parallel calls",
          [t["function"]["name"] for t in body["tools"]] == ["weather_get", "play"]
          and body["parallel_tool_calls"] is True and name_from_wire(wire_name("weather.get"), tools) == "weather.get")
    check("v2 names: a case offering two names that reach providers alike is refused (the catalogue may hold both)",
          _collision_refused())


def _collision_refused() -> bool:
    doc = {**_TOOLS, "tools": _TOOLS["tools"] + [{"name": "weather_get", "description": "d", "parameters": _ANY}]}
    tools = parse_tools(doc, _ANY)          # the catalogue holds both: no case offers both yet
    both = {**_SUITE, "cases": [{**_SUITE["cases"][0], "tools": ["weather.get", "weather_get"]}]}
    try:
        parse_suite(both, tools, _ANY)
    except ToolProofError as exc:
        return "both reach providers as 'weather_get'" in exc.reason
    return False
