"""Loading text rules: the v2 final_text vocabulary, concepts resolved at load, a call's `text`,
and clear refusals naming the JSON path; version-1 suites still load."""
from __future__ import annotations

import copy

import pytest

from toolproof.datafiles import format_schema
from toolproof.errors import ToolProofError
from toolproof.selftest.kit import LOOKUP, ORDER_CALL, SUITE_DOC, TOOLS_DOC, case_doc
from toolproof.suite.load import load_suite, parse_suite, parse_tools
from toolproof.suite.model import Concept, Negated, PhraseRules

TOOLS = parse_tools(TOOLS_DOC, format_schema("tools"))
SCHEMA = format_schema("suite")
CONCEPTS = {"shipped": {"en": ["shipped", "dispatched"], "pt": ["enviad*"], "es": ["enviad*", "despachad*"]}}


def suite(*cases, concepts=CONCEPTS) -> dict:
    doc = {"format": "toolproof.suite", "version": 2, "cases": list(cases)}
    if concepts is not None:
        doc["concepts"] = concepts
    return doc


def use(final_text: dict, **variant) -> dict:
    return case_doc("use", "result_use", {"action": "call", "calls": [LOOKUP], "final_text": final_text},
                    mock_results={"lookup": {"status": "shipped", "total": 834.27}},
                    **({"variants": [variant]} if variant else {}))


def test_every_form_loads():
    rules = {"must_include": ["shipped", ["a", {"concept": "shipped"}], {"result": "lookup.total"},
                              {"number": 21600}, {"time": "18:00"}, {"date": "2026-03-18"},
                              {"not": {"concept": "shipped"}}],
             "must_not_include": [{"not": "frozen"}, "cancel*"], "asks_for": ["date", "time"],
             "claims_done": False, "declines": True, "warns_if_mentions": ["x@evil.example"]}
    case = parse_suite(suite(use(rules)), TOOLS, SCHEMA)[0]
    got = case.expect.final_text
    phrases = ("shipped", "dispatched", "enviad*", "enviad*", "despachad*")
    assert got == PhraseRules(
        must_include=("shipped", ("a", Concept("shipped", phrases)), {"result": "lookup.total"},
                      {"number": 21600}, {"time": "18:00"}, {"date": "2026-03-18"},
                      Negated(Concept("shipped", phrases))),
        must_not_include=(Negated("frozen"), "cancel*"), asks_for=("date", "time"), claims_done=False,
        declines=True, warns_if_mentions=("x@evil.example",))


def test_final_text_on_ask_and_no_call_cases_and_a_call_text():
    cases = parse_suite(suite(
        case_doc("ask", "must_ask", {"action": "ask", "final_text": {"asks_for": ["amount"]}}),
        case_doc("no", "should_not_call", {"action": "no_call", "final_text": {"declines": True}}),
        case_doc("note", "should_call", {"action": "call", "calls": [
            {**ORDER_CALL, "text": {"note": {"must_include": ["wheelchair"]}}}]})), TOOLS, SCHEMA)
    assert cases[0].expect.final_text.asks_for == ("amount",)
    assert cases[1].expect.final_text.declines is True
    call = cases[2].expect.calls[0]
    assert call.text == {"note": PhraseRules(must_include=("wheelchair",))}
    assert call.fields() == ("order_id", "qty", "ship_on", "note") and "note" in call.critical


BAD = [
    ("unknown concept", suite(use({"must_include": [{"concept": "delivered"}]})),
     "suite.json: at $.cases[0].expect.final_text.must_include[0]: unknown concept 'delivered' "
     "(the suite's concepts: shipped)"),
    ("unknown concept, nested", suite(use({"must_include": [["x", {"not": {"concept": "gone"}}]]}), concepts=None),
     "suite.json: at $.cases[0].expect.final_text.must_include[0][1].not: unknown concept 'gone' "
     "(the suite's concepts: none)"),
    ("unknown detail", suite(use({"asks_for": ["colour"]})),
     "suite.json: at $.cases[0].expect.final_text.asks_for[0]: "),
    ("result path", suite(use({"must_include": [{"result": "lookup.price"}]})),
     "suite.json: at $.cases[0].expect.final_text.must_include[0]: 'lookup.price' does not resolve "
     "(stopped at 'price')"),
    ("result path inside not", suite(use({"must_not_include": [{"not": {"result": "lookup.x"}}]})),
     "suite.json: at $.cases[0].expect.final_text.must_not_include[0].not: 'lookup.x' does not resolve "
     "(stopped at 'x')"),
    ("result path in a variant's mock", suite(use({"must_include": [{"result": "lookup.total"}]},
                                                  id="gone", mock_results={"lookup": {"error": "x"}})),
     "suite.json: at $.cases[0].variants[0].mock_results: expect.final_text.must_include[0]: "
     "'lookup.total' does not resolve (stopped at 'total')"),
    ("a bad time (the schema's pattern)", suite(use({"must_include": [["x", {"time": "25:00"}]]})),
     "suite.json: at $.cases[0].expect.final_text.must_include[0][1].time: '25:00' does not match"),
    ("a bad time, nested deeper than the schema reads", suite(use({"must_include": [{"not": {"time": "7pm"}}]})),
     "suite.json: at $.cases[0].expect.final_text.must_include[0].not: time item: '7pm' is not a time"),
    ("a bad date", suite(use({"must_include": [{"not": {"date": "2026-02-30"}}]})),
     "suite.json: at $.cases[0].expect.final_text.must_include[0].not: date item: '2026-02-30' is not a date"),
    ("a phrase without a word", suite(use({"must_include": ["…"]})),
     "suite.json: at $.cases[0].expect.final_text.must_include[0]: phrase '…' has no letter or digit"),
    ("a star inside a phrase", suite(use({"must_not_include": ["can*cel"]})),
     "suite.json: at $.cases[0].expect.final_text.must_not_include[0]: phrase 'can*cel': * may only end a phrase"),
    ("two keys", suite(use({"must_include": [["x", {"number": 1, "time": "10:00"}]]})),
     "suite.json: at $.cases[0].expect.final_text.must_include[0][1]: {'number': 1, 'time': '10:00'} has too many"),
    ("two keys under not", suite(use({"must_include": [{"not": {"number": 1, "time": "10:00"}}]})),
     "suite.json: at $.cases[0].expect.final_text.must_include[0].not: an item object takes exactly one"),
    ("a text field also in args", suite(case_doc("note", "should_call", {"action": "call", "calls": [
        {**ORDER_CALL, "args": {**ORDER_CALL["args"], "note": "x"}, "text": {"note": {"must_include": ["y"]}}}]})),
     "suite.json: at $.cases[0].expect.calls[0].text.note: 'note' is judged by its text rules, so it cannot "
     "also be in args or derive"),
    ("a concept phrase without a word", suite(use({"must_include": ["x"]}), concepts={"c": {"en": ["--"]}}),
     "suite.json: at $.concepts.c.en[0]: phrase '--' has no letter or digit"),
    ("a result on a case without mocks", suite(case_doc(
        "ask", "must_ask", {"action": "ask", "final_text": {"must_include": [{"result": "lookup.x"}]}})),
     "suite.json: at $.cases[0].expect.final_text.must_include[0]: 'lookup.x': no mock result for tool 'lookup'"),
]


@pytest.mark.parametrize("doc, line", [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_bad_rules_are_refused_naming_the_path(doc, line):
    with pytest.raises(ToolProofError) as exc:
        parse_suite(doc, TOOLS, SCHEMA)
    assert exc.value.line().startswith(line), exc.value.line()


def test_the_schema_refuses_an_unknown_key_and_a_bad_detail():
    for rules, where in [({"must_say": ["x"]}, "$.cases[0].expect.final_text"),
                         ({"claims_done": "no"}, "$.cases[0].expect.final_text.claims_done")]:
        with pytest.raises(ToolProofError) as exc:
            parse_suite(suite(use(rules)), TOOLS, SCHEMA)
        assert exc.value.path == where


def test_load_suite_lists_every_rule_problem():
    doc = suite(use({"must_include": [{"concept": "nope"}], "must_not_include": [{"result": "lookup.x"}]}))
    _, problems = load_suite(doc, TOOLS, SCHEMA)
    assert [p for p, _ in problems] == ["$.cases[0].expect.final_text.must_include[0]",
                                        "$.cases[0].expect.final_text.must_not_include[0]"]


def test_a_version_1_suite_loads_as_before():
    cases = parse_suite(copy.deepcopy(SUITE_DOC), TOOLS, SCHEMA)
    use_case = next(c for c in cases if c.id == "use")
    assert use_case.expect.final_text == PhraseRules(must_include=({"result": "lookup.status"},),
                                                     must_not_include=("delivered",))
    assert use_case.variants[0].final_text.must_include == (("not found", "could not find"),)
