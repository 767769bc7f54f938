"""The case editor's phrasings field: lines `id | prompt | why` to the suite's list and back, problems
named by the editor field, and what the field cannot show kept file-only."""
from __future__ import annotations

import pytest

from toolproof.authoring.case_form import CaseProblem, case_from_form, check_case, form_of
from toolproof.authoring.phrasings import editable, phrasings_from_text, phrasings_text
from toolproof.datafiles import format_schema
from toolproof.errors import ToolProofError
from toolproof.suite.load import parse_tools

TOOLS = parse_tools({"format": "toolproof.tools", "version": 1, "tools": [
    {"name": "get_weather", "description": "Weather for a city.", "parameters": {
        "type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}]},
    format_schema("tools"))
FORM = {"id": "w1", "category": "should_call", "prompt": "Weather in Paris?", "action": "call",
        "tool": "get_weather", "args": '{"city": "Paris"}', "critical": "", "optional": "", "absent": "",
        "loose": "", "exact": "", "accept": ""}


def test_lines_become_phrasings_and_come_back_the_same():
    text = "terse | paris weather | fewer words\n\n  formal | Might you tell me the weather in Paris? | register  \n"
    found = phrasings_from_text(text)
    assert found == [{"id": "terse", "prompt": "paris weather", "why": "fewer words"},
                     {"id": "formal", "prompt": "Might you tell me the weather in Paris?", "why": "register"}]
    assert phrasings_from_text(phrasings_text(found)) == found and editable(found)


def test_a_prompt_may_hold_the_separator():
    assert phrasings_from_text("pipes | a | b in Paris? | why")[0]["prompt"] == "a | b in Paris?"


def test_the_editor_writes_checks_and_shows_phrasings():
    case = case_from_form({**FORM, "phrasings": "terse | paris weather | fewer words"}, list(TOOLS))
    assert case["phrasings"] == [{"id": "terse", "prompt": "paris weather", "why": "fewer words"}]
    assert check_case(case, [], TOOLS, format_schema("suite")).phrasing_ids == ("base", "terse")
    assert form_of(case)["phrasings"] == "terse | paris weather | fewer words"
    assert "phrasings" not in case_from_form({**FORM, "phrasings": " \n"}, list(TOOLS))


@pytest.mark.parametrize("text, reason", [
    ("just words", "line 1: write id | another way to say the prompt | why"),
    (" | prompt | why", "line 1: write id | another way to say the prompt | why"),
    ("\n".join(f"p{n} | x | y" for n in range(17)), "a case has at most 16 phrasings, not 17"),
    ("x" * 200_001, "the phrasings are over 200,000 characters"),
])
def test_a_malformed_field_is_refused_naming_it(text, reason):
    with pytest.raises(CaseProblem) as exc:
        case_from_form({**FORM, "phrasings": text}, list(TOOLS))
    assert exc.value.field == "phrasings" and exc.value.reason.startswith(reason)


@pytest.mark.parametrize("line, reason", [
    ("base | again | reserved", 'phrasing id "base" is reserved'),
    ("Terse | x | y", "'Terse' does not match"),
    ("terse | Weather in Paris? | same", "repeats the case's prompt word for word"),
])
def test_the_loaders_checks_point_at_the_field(line, reason):
    case = case_from_form({**FORM, "phrasings": line}, list(TOOLS))
    with pytest.raises(CaseProblem) as exc:
        check_case(case, [], TOOLS, format_schema("suite"))
    assert exc.value.field == "phrasings" and reason in exc.value.reason


def test_hostile_text_stays_text_and_what_lines_cannot_hold_stays_file_only():
    hostile = "<img src=x onerror=alert(1)>\u202e\x07"
    case = case_from_form({**FORM, "phrasings": f"odd | {hostile} | {hostile}"}, list(TOOLS))
    assert case["phrasings"][0]["prompt"] == hostile
    assert not editable([{"id": "a", "prompt": "two\nlines", "why": "w"}])
    assert not editable([{"id": "a", "prompt": "p", "why": "w", "extra": 1}]) and not editable("x")
    assert form_of({"id": "w1", "category": "should_call", "tools": ["get_weather"], "prompt": "p",
                    "phrasings": [{"id": "a", "prompt": "two\nlines", "why": "w"}],
                    "expect": {"action": "no_call"}}) is None
    with pytest.raises(ToolProofError):
        phrasings_from_text("x" * 300_000)
