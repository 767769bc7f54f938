"""Catalogue ids (issue 22 item 1): an entry's id is what cases reference, its name what the model
sees; names may repeat across the catalogue, never within one case's offer (by wire name);
replies are mapped back per case; reports show the name, with the id where names repeat."""
from __future__ import annotations

import json

import pytest

from toolproof.datafiles import format_schema
from toolproof.errors import ToolProofError
from toolproof.grading.grade import grade_case
from toolproof.grading.transcripts import parse_transcripts
from toolproof.providers.dispatch import request_body
from toolproof.running.sweep import pad_pool
from toolproof.scoring.evaluate import evaluate
from toolproof.suite.load import load_tools, parse_suite, parse_tools

TWO = {"type": "object", "required": ["a", "b"], "additionalProperties": False,
       "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}}}
LIST = {"type": "object", "required": ["numbers"], "additionalProperties": False,
        "properties": {"numbers": {"type": "array", "items": {"type": "integer"}}}}
TOOLS = {"format": "toolproof.tools", "version": 1, "tools": [
    {"id": "gcd-two", "name": "math.gcd", "domain": "maths", "description": "GCD of two numbers.", "parameters": TWO},
    {"id": "gcd-list", "name": "math.gcd", "domain": "maths", "description": "GCD of a list.", "parameters": LIST},
    {"name": "math_gcd", "domain": "other", "description": "Another spelling.", "parameters": TWO},
    {"name": "echo", "domain": "other", "description": "Echo.", "parameters": {"type": "object"}}]}


def suite(*cases):
    return {"format": "toolproof.suite", "version": 2, "cases": list(cases)}


def call_case(cid, tool, args, offer=None, **extra):
    return {"id": cid, "category": extra.pop("category", "should_call"), "tools": offer or [tool],
            "prompt": "gcd of 12 and 18", "expect": {"action": "call", "calls": [{"tool": tool, "args": args}]},
            **extra}


def reply(*calls):
    return {"response": {"choices": [{"finish_reason": "tool_calls", "message": {"role": "assistant", "tool_calls": [
        {"id": f"c{i}", "type": "function", "function": {"name": n, "arguments": json.dumps(a)}}
        for i, (n, a) in enumerate(calls)]}}]}}


def grade(case, tools, *turns):
    doc = {"format": "toolproof.transcripts", "version": 1, "kind": "fixture",
           "transcripts": [{"case_id": case.id, "provider": "openai", "turns": list(turns)}]}
    return grade_case(case, tools, parse_transcripts(doc, format_schema("transcripts")).transcripts[case.id])


@pytest.fixture
def tools():
    return parse_tools(TOOLS, format_schema("tools"))


def test_entries_that_share_a_name_load_apart_and_are_labelled_with_their_id(tools):
    assert list(tools) == ["gcd-two", "gcd-list", "math_gcd", "echo"]
    assert [t.name for t in tools.values()] == ["math.gcd", "math.gcd", "math_gcd", "echo"]
    assert [t.label for t in tools.values()] == ["math.gcd [gcd-two]", "math.gcd [gcd-list]", "math_gcd", "echo"]


def test_without_ids_nothing_changes():
    doc = {**TOOLS, "tools": [{k: v for k, v in t.items() if k != "id"} for t in TOOLS["tools"][2:]]}
    tools = parse_tools(doc, format_schema("tools"))
    assert [(i, t.name, t.label) for i, t in tools.items()] == [("math_gcd", "math_gcd", "math_gcd"),
                                                                ("echo", "echo", "echo")]


def test_each_case_is_graded_against_the_entry_it_offers_under_the_name_the_model_saw(tools):
    two, lst = parse_suite(suite(call_case("two", "gcd-two", {"a": 12, "b": 18}),
                                 call_case("list", "gcd-list", {"numbers": [12, 18]})), tools, format_schema("suite"))
    assert grade(two, tools, reply(("math_gcd", {"a": 12, "b": 18}))).verdict == "PASS"
    assert grade(lst, tools, reply(("math_gcd", {"numbers": [12, 18]}))).verdict == "PASS"
    assert grade(lst, tools, reply(("math.gcd", {"numbers": [12, 18]}))).verdict == "PASS"
    wrong = grade(two, tools, reply(("math_gcd", {"numbers": [12, 18]})))
    assert wrong.verdict == "FAIL"
    assert "math.gcd [gcd-two] arguments fail the schema" in wrong.reasons[0]
    body = request_body("openai", two, [tools["gcd-two"]], model="m")
    assert body["tools"] == [{"type": "function", "function": {"name": "math_gcd", "description": "GCD of two numbers.",
                                                               "parameters": TWO}}]


def test_an_id_is_never_a_name_on_the_wire(tools):
    two, = parse_suite(suite(call_case("two", "gcd-two", {"a": 12, "b": 18}, offer=["gcd-two", "echo"])),
                       tools, format_schema("suite"))
    result = grade(two, tools, reply(("gcd-two", {"a": 12, "b": 18})))
    assert result.verdict == "FAIL"
    assert result.reasons[0] == ("call 1: called gcd-two, which this case does not offer (hallucinated tool); "
                                 "expected math.gcd [gcd-two]")


def test_a_case_may_not_offer_two_entries_whose_names_reach_providers_alike(tools):
    for offer in (["gcd-two", "gcd-list"], ["gcd-two", "math_gcd"]):
        with pytest.raises(ToolProofError) as exc:
            parse_suite(suite(call_case("both", "gcd-two", {"a": 1, "b": 2}, offer=offer)), tools, format_schema("suite"))
        assert exc.value.line().startswith(f"suite.json: at $.cases[0].tools[1]: tools {offer[0]!r} and {offer[1]!r} "
                                           "both reach providers as 'math_gcd'")


def test_mock_results_are_keyed_by_id_and_reach_the_model_under_the_name(tools):
    case = call_case("use", "gcd-list", {"numbers": [4, 6]}, offer=["gcd-list", "echo"], category="result_use",
                     mock_results={"gcd-list": {"gcd": 2}})
    case["expect"]["final_text"] = {"must_include": [{"result": "gcd-list.gcd"}]}
    loaded, = parse_suite(suite(case), tools, format_schema("suite"))
    first = reply(("math_gcd", {"numbers": [4, 6]}))
    body = request_body("anthropic", loaded, [tools["gcd-list"], tools["echo"]], model="m",
                        first={"content": [{"type": "tool_use", "id": "t1", "name": "math_gcd", "input": {"numbers": [4, 6]}}],
                               "stop_reason": "tool_use"},
                        mocks=loaded.mock_results)
    assert json.loads(body["messages"][-1]["content"][0]["content"]) == {"gcd": 2}
    second = {"response": {"choices": [{"finish_reason": "stop", "message": {"role": "assistant", "content": "It is 2."}}]}}
    assert grade(loaded, tools, first, second).verdict == "PASS"


def test_the_confusion_matrix_and_field_table_show_labels(tools):
    cases = parse_suite(suite(call_case("two", "gcd-two", {"a": 12, "b": 18}, offer=["gcd-two", "echo"])),
                        tools, format_schema("suite"))
    doc = {"format": "toolproof.transcripts", "version": 1, "kind": "fixture",
           "transcripts": [{"case_id": "two", "provider": "openai", "turns": [reply(("echo", {}))]}]}
    card = evaluate(cases, tools, parse_transcripts(doc, format_schema("transcripts")))
    select = card["diagnosis"]["select"]
    assert select["rows"] == ["math.gcd [gcd-two]", "(no call)"] and "echo" in select["columns"]


def test_padding_never_offers_a_second_entry_that_reaches_providers_under_an_offered_name(tools):
    loaded, = parse_suite(suite(call_case("two", "gcd-two", {"a": 1, "b": 2})), tools, format_schema("suite"))
    assert pad_pool(loaded, tools) == ["echo"]       # math_gcd would reach providers like math.gcd


@pytest.mark.parametrize("entry, line", [
    ({"id": 7, "name": "f", "description": "d", "parameters": {"type": "object"}},
     "tools.json: at $.tools[1].id: 7 is not of type 'string'"),
    ({"id": "", "name": "f", "description": "d", "parameters": {"type": "object"}},
     "tools.json: at $.tools[1].id: '' does not match '^[A-Za-z0-9_.:@/+-]{1,200}$'"),
    ({"id": "echo", "name": "f", "description": "d", "parameters": {"type": "object"}},
     "tools.json: at $.tools[1].id: duplicate tool id 'echo'"),
])
def test_malformed_ids_are_refused_in_one_line(entry, line):
    doc = {"format": "toolproof.tools", "version": 1, "tools": [TOOLS["tools"][3], entry]}
    with pytest.raises(ToolProofError) as exc:
        parse_tools(doc, format_schema("tools"))
    assert exc.value.line() == line


def test_hostile_catalogue_of_thousands_sharing_one_name_loads_and_lists_every_duplicate_id():
    many = [{"id": f"t{i}", "name": "same", "description": "d", "parameters": {"type": "object"}} for i in range(3000)]
    many += [{"id": "t5", "name": "x", "description": "d", "parameters": {"type": "object"}}] * 3
    tools, problems = load_tools({"format": "toolproof.tools", "version": 1, "tools": many}, format_schema("tools"))
    assert len(tools) == 3000 and tools["t2999"].label == "same [t2999]"
    assert problems == [(f"$.tools[{i}].id", "duplicate tool id 't5'") for i in (3000, 3001, 3002)]
