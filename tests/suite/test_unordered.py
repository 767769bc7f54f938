"""Suite v2 `unordered`: a list whose order carries no meaning (two attendees, invoice lines)
matches in any order, one-to-one, and still fails on a missing, extra or wrong item."""
from __future__ import annotations

import pytest

from conftest import make_grader, openai
from toolproof.datafiles import format_schema
from toolproof.errors import ToolProofError
from toolproof.suite.load import parse_suite, parse_tools

PEOPLE = {"type": "array", "items": {"type": "object", "properties": {
    "email": {"type": "string"}, "optional": {"type": "boolean", "default": False}}, "required": ["email"]}}
TOOLS_DOC = {"format": "toolproof.tools", "version": 1, "tools": [
    {"name": "invite", "description": "Invite people.", "parameters": {"type": "object", "properties": {
        "people": PEOPLE, "meta": {"type": "object", "properties": {"tags": {"type": "array", "items": {"type": "string"}}}}},
        "required": ["people"]}}]}
ANA, BO = {"email": "ana@example.com"}, {"email": "bo@example.com", "optional": True}


def suite(**call):
    return {"format": "toolproof.suite", "version": 2, "cases": [
        {"id": "c", "category": "should_call", "tools": ["invite"], "prompt": "Invite Ana, and Bo as optional.",
         "expect": {"action": "call", "calls": [{"tool": "invite", **call}]}}]}


@pytest.fixture(scope="module")
def grade():
    g = make_grader(TOOLS_DOC, suite(args={"people": [ANA, BO], "meta": {"tags": ["a", "b"]}},
                                     unordered=["people", "meta.tags"]))
    return lambda people, tags=("a", "b"): g("c", openai(("invite", {"people": people, "meta": {"tags": list(tags)}})))


@pytest.mark.parametrize("people, tags, verdict", [
    ([ANA, BO], ("a", "b"), "PASS"),
    ([BO, ANA], ("a", "b"), "PASS"),                         # the other order
    ([BO, {"email": "ANA@example.com"}], ("b", "a"), "PASS"),  # normalised strings, a dotted key too
    ([ANA, {"email": "bo@example.com"}], ("a", "b"), "FAIL"),  # Bo not optional (default false)
    ([ANA], ("a", "b"), "FAIL"),                              # one missing
    ([ANA, BO, ANA], ("a", "b"), "FAIL"),                     # one too many
    ([ANA, ANA], ("a", "b"), "FAIL"),                         # a repeat is not a pairing
    ([ANA, BO], ("a", "a"), "FAIL"),
])
def test_unordered_lists_match_in_any_order_one_to_one(grade, people, tags, verdict):
    assert grade(people, tags).verdict == verdict


def test_without_unordered_order_still_counts():
    g = make_grader(TOOLS_DOC, suite(args={"people": [ANA, BO]}))
    assert g("c", openai(("invite", {"people": [BO, ANA]}))).verdict == "FAIL"


@pytest.mark.parametrize("call, why", [
    ({"args": {"people": [ANA]}, "unordered": ["guests"]}, "unordered names 'guests', which is not in args or derive"),
    ({"args": {"people": [ANA], "meta": {"tags": "a"}}, "unordered": ["meta.tags"]}, "whose expected value is not a list"),
])
def test_unordered_must_name_a_listed_list(call, why):
    with pytest.raises(ToolProofError) as exc:
        parse_suite(suite(**call), parse_tools(TOOLS_DOC, format_schema("tools")), format_schema("suite"))
    assert why in exc.value.line()
