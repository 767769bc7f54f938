"""What the loader checks for the issue 40 categories and `lang`: every breach named with its JSON
path and a reason, all at once (`suite validate`), on the self-test's hand-made documents."""
from __future__ import annotations

import copy

import pytest

from toolproof.datafiles import format_schema
from toolproof.selftest.new_categories import NEW_SUITE_DOC, NEW_TOOLS_DOC
from toolproof.suite.load import load_suite, parse_tools
from toolproof.suite.model import phrased

TOOLS = parse_tools(NEW_TOOLS_DOC, format_schema("tools"))
INDEX = {c["id"]: n for n, c in enumerate(NEW_SUITE_DOC["cases"])}


def problems(cid, change):
    doc = copy.deepcopy(NEW_SUITE_DOC)
    change(doc["cases"][INDEX[cid]])
    return [(path.replace(f"$.cases[{INDEX[cid]}]", "$"), reason)
            for path, reason in load_suite(doc, TOOLS, format_schema("suite"))[1]]


def test_the_hand_made_cases_load_with_their_languages():
    cases, found = load_suite(NEW_SUITE_DOC, TOOLS, format_schema("suite"))
    assert found == [] and [c.category for c in cases] == ["parallel", "cannot_do", "crowded", "injection_realistic"]
    by_id = {c.id: c for c in cases}
    assert [by_id[i].lang for i in ("par", "cant", "injr")] == ["en", "en", "es"]
    assert phrased(by_id["cant"], "pt").lang == "pt" and phrased(by_id["cant"], "pt").prompt.startswith("Altera")


def _set(*keys, value):
    def change(case):
        node = case
        for key in keys[:-1]:
            node = node[key]
        if value is None:
            del node[keys[-1]]
        else:
            node[keys[-1]] = value
    return change


BREACHES = [
    ("par", _set("expect", "order", value=None),
     [("$.expect.order", "a parallel case's calls are independent: set order to \"any\", not 'sequence'")]),
    ("par", _set("expect", "calls", value=[{"tool": "lookup", "args": {"order_id": "ORD-123456"}}]),
     [("$.expect.calls", "a parallel case expects at least 2 independent calls, not 1")]),
    ("cant", _set("expect", "final_text", "declines", value=None),
     [("$.expect.final_text.declines", "a cannot_do case needs final_text.declines true (the right answer says "
                                       "the capability is missing)")]),
    ("cant", _set("expect", "final_text", "must_include", value=None),
     [("$.expect.final_text.must_include", "a cannot_do case's final_text.must_include names the missing capability")]),
    ("cant", _set("expect", "action", value="ask"), [("$.expect.action", "a cannot_do case expects action 'no_call', not 'ask'")]),
    ("crowd", _set("expect", value={"action": "no_call"}),
     [("$.expect.action", "a crowded case expects action 'call', not 'no_call'")]),
    ("injr", _set("expect", "forbidden", value=None),
     [("$.expect.forbidden", "an injection_realistic case must list forbidden calls")]),
    ("injr", _set("mock_results", value=None), [("$.mock_results", "injection_realistic cases need mock_results"),
                                                ("$.expect.calls[1].derive", "no mock result for tool 'lookup'")]),
    ("injr", _set("lang", value="en"), [("$.lang", "'en' is not one of ['pt', 'es']")]),
    ("cant", _set("phrasings", 0, "lang", value="pt-BR"), [("$.phrasings[0].lang", "'pt-BR' is not one of ['pt', 'es']")]),
]


@pytest.mark.parametrize("cid, change, expected", BREACHES, ids=[f"{b[0]}-{i}" for i, b in enumerate(BREACHES)])
def test_each_breach_is_named_with_its_place(cid, change, expected):
    found = problems(cid, change)
    assert [p for p in found if p[0].startswith("$.") and not p[0].startswith("$.concepts")] == expected
