"""Suite format v2 (issue 10 item 4), rule by rule: optional, absent, exact, loose, accept by
dotted path, several calls in any category, order "any", tool names with dots, and the loader
fix (an accept value is judged without the required fields the case leaves out)."""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import anthropic, make_grader, openai
from toolproof.datafiles import format_schema
from toolproof.errors import ToolProofError
from toolproof.providers.dispatch import request_body
from toolproof.providers.reply import MAX_CALLS
from toolproof.suite.load import load_suite, parse_suite, parse_tools

WEATHER = {"type": "object", "properties": {
    "city": {"type": "string", "description": "city name"},
    "unit": {"type": "string", "enum": ["celsius", "fahrenheit"], "description": "unit"},
    "days": {"type": "integer", "description": "forecast days"},
    "where": {"type": "object", "properties": {"city": {"type": "string"}, "country": {"type": "string"}},
              "description": "a place"}},
    "required": ["city"]}
TOOLS_DOC = {"format": "toolproof.tools", "version": 1, "tools": [
    {"name": "weather.get", "description": "Current weather for a city.", "parameters": WEATHER},
    {"name": "play-song", "description": "Play a song.", "parameters": {"type": "object", "properties": {
        "artist": {"type": "string"}, "minutes": {"type": "number"}}, "required": ["artist", "minutes"]}},
]}


def case(cid, calls, **expect):
    return {"id": cid, "category": expect.pop("category", "should_call"), "tools": ["weather.get", "play-song"],
            "prompt": "Weather in New York for 3 days, in celsius; then play Taylor Swift for 20 minutes.",
            "expect": {"action": "call", "calls": calls, **expect}}


W = {"tool": "weather.get", "args": {"city": "New York", "days": 3}}
SUITE_DOC = {"format": "toolproof.suite", "version": 2, "cases": [
    case("optional", [{**W, "args": {**W["args"], "unit": "celsius"}, "optional": ["unit"]}]),
    case("absent", [{**W, "absent": ["unit"]}]),
    case("exact", [{**W, "exact": True}]),
    case("loose", [{**W, "loose": ["city"]}]),
    case("dotted", [{"tool": "weather.get", "args": {"city": "NYC", "where": {"city": "New York", "country": "US"}},
                     "accept": {"where.country": ["USA"], "city": ["New York City"]},
                     "optional": ["where.country"], "exact": True}]),
    case("several", [W, {"tool": "play-song", "args": {"artist": "Taylor Swift", "minutes": 20}}]),
    case("anyorder", [W, {"tool": "play-song", "args": {"artist": "Taylor Swift", "minutes": 20}}], order="any"),
    case("loader-fix", [{"tool": "weather.get", "args": {"days": 3}, "accept": {"days": [4]}}]),
]}


@pytest.fixture(scope="module")
def v2():
    return make_grader(TOOLS_DOC, SUITE_DOC)


NY = {"city": "New York", "days": 3}
SONG = ("play-song", {"artist": "Taylor Swift", "minutes": 20})
RULES = [
    # optional: omitted is fine, given must be right
    ("optional", [openai(("weather_get", NY))], "PASS", "called weather.get"),
    ("optional", [openai(("weather_get", {**NY, "unit": "celsius"}))], "PASS", "expected"),
    ("optional", [openai(("weather_get", {**NY, "unit": "fahrenheit"}))], "FAIL",
     'weather.get.unit: expected "celsius", got "fahrenheit"'),
    # absent: the field must not be sent at all
    ("absent", [openai(("weather_get", NY))], "PASS", "expected"),
    ("absent", [openai(("weather_get", {**NY, "unit": "celsius"}))], "FAIL",
     'weather.get.unit: the case says this field must be omitted, got "celsius"'),
    # exact: an argument the case does not list fails; without exact it is only schema-checked
    ("exact", [openai(("weather_get", NY))], "PASS", "expected"),
    ("exact", [openai(("weather_get", {**NY, "unit": "celsius"}))], "FAIL",
     "weather.get.unit: the case lists every argument (exact), and not this one"),
    ("loose", [openai(("weather_get", {**NY, "unit": "celsius"}))], "PASS", "expected"),
    # loose: BFCL's punctuation- and space-insensitive strings
    ("loose", [openai(("weather_get", {"city": "new-york", "days": 3}))], "PASS", "expected"),
    ("loose", [openai(("weather_get", {"city": "N.Y.", "days": 3}))], "FAIL", "weather.get.city"),
    ("exact", [openai(("weather_get", {"city": "new-york", "days": 3}))], "FAIL", "weather.get.city"),
    # accept by dotted path inside an object argument, optional inside it, exact inside it
    ("dotted", [openai(("weather_get", {"city": "NYC", "where": {"city": "New York", "country": "USA"}}))], "PASS", ""),
    ("dotted", [openai(("weather_get", {"city": "New York City", "where": {"city": "New York"}}))], "PASS", ""),
    ("dotted", [openai(("weather_get", {"city": "NYC", "where": {"city": "New York", "country": "CA"}}))], "FAIL",
     "weather.get.where"),
    ("dotted", [openai(("weather_get", {"city": "NYC", "where": {"city": "New York", "zip": "10001"}}))], "FAIL",
     "weather.get.where"),
    # several expected calls outside multi_step: in order unless order is "any"
    ("several", [openai(("weather_get", NY), SONG)], "PASS", "called weather.get then play-song"),
    ("several", [openai(SONG, ("weather_get", NY))], "FAIL", "call 1: called play-song, expected weather.get"),
    ("several", [openai(("weather_get", NY))], "FAIL", "call 2: missing, expected play-song"),
    ("anyorder", [openai(SONG, ("weather_get", NY))], "PASS", "called weather.get and play-song"),
    ("anyorder", [anthropic(SONG, ("weather.get", NY))], "PASS", "expected"),
    ("anyorder", [openai(SONG, ("weather_get", NY), SONG)], "FAIL", "extra call play-song in turn 1"),
    ("anyorder", [openai(("weather_get", {**NY, "days": 4}), SONG)], "FAIL", "weather.get.days: expected 3, got 4"),
    ("anyorder", [openai(SONG)], "FAIL", "call 1: missing, expected weather.get"),
    # the loader fix: 'city' (required) is left out of args, yet accept's 4 loads and grades
    ("loader-fix", [openai(("weather_get", {"city": "Oslo", "days": 4}))], "PASS", "expected"),
]


@pytest.mark.parametrize("cid, turns, verdict, phrase", RULES)
def test_v2_rule(v2, cid, turns, verdict, phrase):
    provider = "anthropic" if "content" in turns[0]["response"] else "openai"
    result = v2(cid, *turns, provider=provider)
    assert result.verdict == verdict, result.reasons
    assert phrase in result.reasons[0]


def test_wire_names_map_back_so_the_scorecard_shows_the_suite_name(v2):
    result = v2("optional", openai(("weather_get", NY)))
    assert result.calls[0].call.name == "weather.get" and result.calls[0].offered


def test_a_tool_the_case_does_not_offer_stays_hallucinated_under_its_own_name(v2):
    result = v2("optional", openai(("weather_getx", NY)))
    assert result.verdict == "FAIL" and "called weather_getx, which this case does not offer" in result.reasons[0]


def test_any_order_pairs_the_calls_that_earn_most(v2):
    # The wrong-city call comes first; greedy in-order pairing would give the right call no slot.
    result = v2("anyorder", openai(("weather_get", {"city": "Boston", "days": 3}), SONG))
    assert result.verdict == "FAIL" and result.reasons == [
        'weather.get.city: expected "New York", got "Boston"']


@pytest.mark.parametrize("provider, where", [
    ("openai", lambda b: [t["function"]["name"] for t in b["tools"]]),
    ("openai-responses", lambda b: [t["name"] for t in b["tools"]]),
    ("anthropic", lambda b: [t["name"] for t in b["tools"]]),
    ("gemini", lambda b: [d["name"] for d in b["tools"][0]["functionDeclarations"]]),
])
def test_requests_carry_wire_names(v2, provider, where):
    case = v2.cases["anyorder"]
    body = request_body(provider, case, [v2.tools[n] for n in case.tools], model="m")
    assert where(body) == ["weather_get", "play-song"]


@pytest.mark.parametrize("provider", ["openai", "openai-responses"])
def test_any_order_allows_parallel_calls_in_the_request(v2, provider):
    tools = [v2.tools[n] for n in v2.cases["several"].tools]
    assert request_body(provider, v2.cases["anyorder"], tools, model="m")["parallel_tool_calls"] is True
    assert request_body(provider, v2.cases["several"], tools, model="m")["parallel_tool_calls"] is False


def test_second_turn_mock_is_found_under_the_wire_name():
    from toolproof.providers.conversation import tool_result_for
    from toolproof.providers.reply import Call

    assert tool_result_for(Call("git_log", {}), {"git.log": {"sha": "abc"}}) == {"sha": "abc"}


def test_derive_reads_a_tool_name_with_dots():
    from toolproof.suite.model import resolve_result

    assert resolve_result({"git.log": {"items": [{"sha": "abc"}]}}, "git.log.items.0.sha") == "abc"
    assert resolve_result({"git": {"log": 1}, "git.log": {"x": 2}}, "git.log.x") == 2


def test_colliding_wire_names_load_in_the_catalogue_but_no_case_may_offer_both():
    # The wire-name check applies per case (issue 22): a reply could not tell the two apart
    doc = {**TOOLS_DOC, "tools": TOOLS_DOC["tools"] + [
        {"name": "weather_get", "description": "Another.", "parameters": {"type": "object"}}]}
    tools = parse_tools(doc, format_schema("tools"))
    assert list(tools) == ["weather.get", "play-song", "weather_get"]
    both = {**SUITE_DOC, "cases": [{**SUITE_DOC["cases"][0], "tools": ["weather.get", "weather_get"]}]}
    with pytest.raises(ToolProofError) as exc:
        parse_suite(both, tools, format_schema("suite"))
    assert exc.value.line() == ("suite.json: at $.cases[0].tools[1]: tools 'weather.get' and 'weather_get' both "
                                "reach providers as 'weather_get' (characters outside A-Z a-z 0-9 _ - become _), "
                                "so a reply could not tell them apart: offer one of them")
    alone = {**SUITE_DOC, "cases": [{**SUITE_DOC["cases"][0], "tools": ["weather_get"], "expect": {"action": "no_call"}}]}
    assert [c.id for c in parse_suite(alone, tools, format_schema("suite"))] == ["optional"]


BAD = [
    (lambda c: c.update(optional=["nope"]), "$.cases[0].expect.calls[0].optional: optional names 'nope', which is not in args or derive"),
    (lambda c: c.update(absent=["city"]), "$.cases[0].expect.calls[0].absent: absent names 'city', which args or derive expect"),
    # absent is checked on top-level arguments: a dotted path would silently never fail, so it is refused
    (lambda c: c.update(absent=["where.street"]), "$.cases[0].expect.calls[0].absent: absent takes top-level argument names, not the path 'where.street'"),
    (lambda c: c.update(loose=["zzz"]), "$.cases[0].expect.calls[0].loose: loose names 'zzz', which is not in args or derive"),
    (lambda c: c.update(accept={"where.zip": ["1"]}), "$.cases[0].expect.calls[0].accept.where.zip: accept names 'where.zip', which is not in args or derive (or a key inside them)"),
    (lambda c: c.update(accept={"days": ["three"]}), "$.cases[0].expect.calls[0].accept.days: accepted value 'three' does not validate: 'three' is not of type 'integer'"),
    (lambda c: c.update(exact="yes"), "$.cases[0].expect.calls[0].exact: 'yes' is not of type 'boolean'"),
]


@pytest.mark.parametrize("breaks, where", BAD)
def test_bad_v2_fields_are_refused_with_their_path(breaks, where):
    call = {"tool": "weather.get", "args": {"city": "Oslo", "days": 3, "where": {"city": "Oslo"}}}
    breaks(call)
    doc = {"format": "toolproof.suite", "version": 2, "cases": [case("c", [call])]}
    tools = parse_tools(TOOLS_DOC, format_schema("tools"))
    with pytest.raises(ToolProofError) as exc:
        parse_suite(doc, tools, format_schema("suite"))
    assert exc.value.line() == "suite.json: at " + where


def test_order_any_needs_calls():
    doc = {"format": "toolproof.suite", "version": 2, "cases": [
        {**case("c", []), "expect": {"action": "no_call", "order": "any"}}]}
    _, problems = load_suite(doc, parse_tools(TOOLS_DOC, format_schema("tools")), format_schema("suite"))
    assert problems == [("$.cases[0].expect.order", "action 'no_call' has no calls to order")]


def test_load_suite_collects_every_problem():
    doc = json.loads(json.dumps(SUITE_DOC))
    doc["cases"][0]["tools"] = ["nope", "weather.get", "weather.get"]
    doc["cases"][2]["category"] = "bogus"
    doc["cases"][3]["expect"]["calls"][0]["optional"] = ["x"]
    cases, problems = load_suite(doc, parse_tools(TOOLS_DOC, format_schema("tools")), format_schema("suite"))
    assert [p for p, _ in problems] == ["$.cases[2].category", "$.cases[0].tools[0]", "$.cases[0].tools[2]",
                                        "$.cases[3].expect.calls[0].optional"]
    assert len(cases) == len(SUITE_DOC["cases"]) - 3


@settings(max_examples=60, deadline=None)
@given(st.permutations(range(4)))
def test_any_order_verdict_never_depends_on_the_order_of_the_calls(v2, order):
    calls = [("weather_get", NY), SONG, ("weather_get", {"city": "Paris", "days": 1}), SONG]
    result = v2("anyorder", openai(*[calls[i] for i in order]))
    assert result.verdict == "FAIL"
    assert sorted(result.reasons) == sorted(["extra call weather.get in turn 1: expected 2 calls",
                                             "extra call play-song in turn 1: expected 2 calls"])


def test_a_hostile_reply_of_thousands_of_calls_grades_with_bounded_work(v2):
    # Counted, not timed (benchmarks/huge_reply.py prints the seconds): the first MAX_CALLS calls are
    # read, 10 extra calls get a reason each and the rest are counted.
    calls = [("weather_get", {"city": f"City {i}", "days": i % 5}) for i in range(3000)] + [SONG]
    result = v2("anyorder", openai(*calls))
    assert result.verdict == "FAIL" and len(result.calls) == MAX_CALLS
    assert sum(r.startswith("extra call") for r in result.reasons) == 10
    assert f"… and {MAX_CALLS - 2 - 10} more extra calls" in result.reasons
    assert result.reasons[-1].startswith(f"turn 1: {3001 - MAX_CALLS} more calls not read")


def test_expected_calls_are_capped_at_64():
    doc = {"format": "toolproof.suite", "version": 2, "cases": [case("c", [W] * 65, order="any")]}
    with pytest.raises(ToolProofError) as exc:
        parse_suite(doc, parse_tools(TOOLS_DOC, format_schema("tools")), format_schema("suite"))
    assert "$.cases[0].expect.calls" in exc.value.line() and "is too long" in exc.value.line()
