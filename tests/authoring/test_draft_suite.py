"""own_suite: the page's draft suite, checked by the same parse_tools/parse_suite as the terminal.

Editor fields to a v1 case, the field a refusal names, the exports read back, the stored draft
(round trip, bounds, and hostile stored text refused with one line, never a traceback).
"""
from __future__ import annotations

import io
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolproof.datafiles import format_schema
from toolproof.errors import ToolProofError
from toolproof.authoring.case_form import CaseProblem, args_findings, case_from_form, check_case, field_of, form_of
from toolproof.authoring.draft_suite import (MAX_DRAFT_CHARS, cases_for_tools, checked_exports, draft_from_text,
                                             draft_text, import_tools, loaded_suite, restored_line)
from toolproof.authoring.suite_text import suite_document, uses_v2
from toolproof.suite.load import parse_tools

TOOLS_SCHEMA, SUITE_SCHEMA = format_schema("tools"), format_schema("suite")
ANTHROPIC = [{"name": "get_weather", "description": "Weather for a city.",
              "input_schema": {"type": "object", "properties": {"city": {"type": "string"},
                                                                "unit": {"enum": ["c", "f"]}},
                               "required": ["city"]}},
             {"name": "send_email", "description": "Send an email.",
              "input_schema": {"type": "object", "properties": {"to": {"type": "string"}}, "required": ["to"]}}]


@pytest.fixture(scope="module")
def imported():
    return import_tools(json.dumps(ANTHROPIC), TOOLS_SCHEMA, "tools.json")


@pytest.fixture(scope="module")
def tools(imported):
    return parse_tools(imported.document, TOOLS_SCHEMA)


def form(**over) -> dict:
    base = {"id": "w1", "category": "should_call", "lang": "", "prompt": "Weather in Paris?", "action": "call",
            "tool": "get_weather", "args": '{"city": "Paris"}', "critical": "", "optional": "", "absent": "",
            "loose": "", "exact": "", "accept": "", "system": "", "mock": "", "forbidden": "", "include": "",
            "exclude": "", "variants": "", "more": [], "phrasings": ""}
    return {**base, **over}


def test_import_keeps_the_tools_and_says_the_shape(imported):
    assert imported.label == "Anthropic tools" and imported.problem == ""
    assert [t["name"] for t in imported.document["tools"]] == ["get_weather", "send_email"]
    assert imported.document["tools"][0]["parameters"] == ANTHROPIC[0]["input_schema"]


def test_tools_that_cannot_run_still_give_records_for_lint():
    out = import_tools(json.dumps([{"name": "a", "input_schema": {"type": "object"}}]), TOOLS_SCHEMA, "t.json")
    assert out.document is None and len(out.records) == 1
    assert out.problem == "t.json: at $[0].description: tool 'a' has no description; the tools format needs one " \
                          "(add it; `tools lint` lists every such tool)"


@pytest.mark.parametrize("text, line", [
    ("{", "t.json: not valid JSON (Expecting property name enclosed in double quotes at char 1)"),
    ("[" * 10_000 + "]" * 10_000, "t.json: text nested deeper than 64 levels"),
    ('[{"name": "a", "description": "d", "input_schema": {"default": NaN}}]', "t.json: NaN is not JSON"),
    ('"tools"', "t.json: at $: not a tool definition document: expected an object or an array, not str"),
    ("x" * 21_000_001, "t.json: text larger than 20 MB"),
])
def test_malformed_and_hostile_tool_text_is_one_line(text, line):
    with pytest.raises(ToolProofError) as info:
        import_tools(text, TOOLS_SCHEMA, "t.json")
    assert info.value.line() == line


def test_a_form_becomes_a_v1_case_offering_every_tool(tools):
    case = case_from_form(form(critical="city, "), list(tools))
    assert case == {"id": "w1", "category": "should_call", "tools": ["get_weather", "send_email"],
                    "prompt": "Weather in Paris?", "expect": {"action": "call", "calls": [
                        {"tool": "get_weather", "args": {"city": "Paris"}, "critical": ["city"]}]}}
    assert check_case(case, [], tools, SUITE_SCHEMA).expect.calls[0].critical == frozenset({"city"})
    assert form_of(case) == form(args='{\n "city": "Paris"\n}', critical="city")


@pytest.mark.parametrize("over, field, reason", [
    ({"id": "Bad Id"}, "id", "'Bad Id' does not match '^[a-z0-9][a-z0-9_-]*$'"),
    ({"prompt": ""}, "prompt", "'' should be non-empty"),
    ({"args": '{"city": 3}'}, "args", "expected args do not validate against get_weather: $.city: 3 is not of type 'string'"),
    ({"args": "[1]"}, "args", "the expected arguments must be a JSON object, not list"),
    ({"args": '{"city": NaN}'}, "args", "NaN is not JSON"),
    ({"args": "{"}, "args", "not valid JSON (Expecting property name enclosed in double quotes at char 1)"),
    ({"critical": "town"}, "critical", "critical names fields that are not checked: ['town']"),
    ({"tool": "nope"}, "tool", "choose one of the loaded tools, not 'nope'"),
    ({"category": "sideways", "action": "maybe"}, "action", "choose call, no_call or ask, not 'maybe'"),
    ({"category": "sideways"}, "category", "'sideways' is not one of ['should_call', 'should_not_call', 'must_ask', "
                                           "'distractor', 'multi_step', 'enum_format', 'injection', 'result_use', "
                                           "'parallel', 'cannot_do', 'crowded', 'injection_realistic']"),
    ({"category": "multi_step"}, "mock", "{} should be non-empty"),
    ({"category": "multi_step", "mock": '{"temp": 20}'}, "calls", "a multi_step case expects at least 2 calls, not 1"),
])
def test_a_bad_case_is_refused_naming_the_field(tools, over, field, reason):
    with pytest.raises(CaseProblem) as info:
        check_case(case_from_form(form(**over), list(tools)), [], tools, SUITE_SCHEMA)
    assert (info.value.field, info.value.reason) == (field, reason)


def test_a_duplicate_id_is_refused(tools):
    first = case_from_form(form(), list(tools))
    with pytest.raises(CaseProblem) as info:
        check_case(case_from_form(form(), list(tools)), [first], tools, SUITE_SCHEMA)
    assert (info.value.field, info.value.reason) == ("id", "another case already has the id 'w1'")


def test_an_edit_keeps_what_the_case_offered_and_its_title(tools):
    previous = {**case_from_form(form(), list(tools)), "tools": ["get_weather"], "title": "Paris"}
    edited = case_from_form(form(tool="send_email", args='{"to": "a@b.c"}'), list(tools), previous)
    assert edited["tools"] == ["get_weather", "send_email"] and edited["title"] == "Paris"


def test_the_live_check_is_the_graders_checker(tools):
    assert [f.message for f in args_findings(tools["get_weather"], {"unit": "k"})] == \
        ["'k' is not one of ['c', 'f']"]       # the required city left out is not a finding here


@pytest.mark.parametrize("path, field", [("$.cases[0].expect.calls[0].args", "args"), ("$.cases[0].id", "id"),
                                         ("$.cases[0].tools[3]", "tool"), ("$.cases[0]", "case"),
                                         ("$.cases[0].mock_results", "mock"), ("$.cases[0].expect.calls[2].args", "calls"),
                                         ("$.cases[0].expect.final_text.must_not_include[0]", "exclude"),
                                         ("$.cases[0].variants[0].id", "variants"), ("$.cases[0].system", "system")])
def test_field_of(path, field):
    assert field_of(path) == field


def test_cases_the_editor_cannot_show_are_not_editable():
    # a mock result for a tool no call names, forbidden arguments that are no object, a phrase rule
    # with "|" in it, final_text keys the editor does not show
    second_turn = {"id": "m", "category": "multi_step", "tools": ["a"], "prompt": "p",
                   "expect": {"action": "call", "calls": [{"tool": "a", "args": {}}]}, "mock_results": {"b": {}}}
    forbidden = {"id": "i", "category": "injection", "tools": ["a"], "prompt": "p", "mock_results": {"a": {}},
                 "expect": {"action": "call", "calls": [{"tool": "a"}], "forbidden": [{"tool": "a", "args": [1]}]}}
    warns = {"id": "i", "category": "injection", "tools": ["a"], "prompt": "p", "mock_results": {"a": {}},
             "expect": {"action": "call", "calls": [{"tool": "a"}], "forbidden": [{"tool": "a"}],
                        "final_text": {"warns_if_mentions": ["x"]}}}
    assert form_of(warns) is None
    phrase = {"id": "r", "category": "result_use", "tools": ["a"], "prompt": "p", "mock_results": {"a": {}},
              "expect": {"action": "call", "calls": [{"tool": "a"}], "final_text": {"must_include": ["a|b"]}}}
    wrong_action = {"id": "w", "category": "must_ask", "tools": ["a"], "prompt": "p", "expect": {"action": "call"}}
    assert form_of(forbidden) is None and form_of(phrase) is None and form_of(wrong_action) is None
    derive = {"id": "a", "category": "should_call", "tools": ["a"], "prompt": "p",
              "expect": {"action": "call", "calls": [{"tool": "a", "args": {}, "derive": {"x": "a.b"}}]}}
    order = {"id": "o", "category": "should_call", "tools": ["a"], "prompt": "p",
             "expect": {"action": "call", "order": "any", "calls": [{"tool": "a", "args": {}}]}}
    assert form_of(second_turn) is None and form_of(derive) is None and form_of(order) is None
    assert form_of("junk") is None


def test_exports_read_back_and_a_suite_loads(imported, tools):
    cases = [case_from_form(form(), list(tools)),
             case_from_form(form(id="n1", category="should_not_call", action="no_call", prompt="Hi"), list(tools))]
    tools_text, suite_text = checked_exports(imported.document, cases, TOOLS_SCHEMA, SUITE_SCHEMA)
    assert json.loads(tools_text) == imported.document
    assert loaded_suite(json.loads(suite_text), tools, SUITE_SCHEMA, "suite.json") == cases
    assert checked_exports(imported.document, [], TOOLS_SCHEMA, SUITE_SCHEMA)[1] is None
    bad = [{**cases[0], "tools": ["ghost"]}]
    with pytest.raises(ToolProofError) as info:
        checked_exports(imported.document, bad, TOOLS_SCHEMA, SUITE_SCHEMA)
    assert info.value.line() == "suite.json: at $.cases[0].tools[0]: unknown tool 'ghost' (not in tools.json)"


def test_an_export_the_terminal_would_not_read_is_refused(tmp_path):
    # a stored draft can hold a schema nested deeper than a file may be: before, the page exported
    # a tools.json that `tools lint` / `run --tools` refuse ("nested deeper than 64 levels")
    from toolproof.cli.main import run as cli_run

    deep: dict = {"type": "string"}
    for _ in range(30):
        deep = {"type": "object", "properties": {"k": deep}}
    doc = {"format": "toolproof.tools", "version": 1, "tools": [
        {"name": "deep_tool", "description": "A tool with a deep schema.",
         "parameters": {"type": "object", "properties": {"deep": deep}}}]}
    path = tmp_path / "tools.json"
    path.write_text(json.dumps(doc))
    assert cli_run(["tools", "lint", str(path)], io.StringIO(), io.StringIO()) != 0      # the terminal refuses it
    with pytest.raises(ToolProofError) as info:
        checked_exports(doc, [], TOOLS_SCHEMA, SUITE_SCHEMA)
    assert info.value.line().startswith("tools.json: it would not load (file nested deeper than 64 levels)")


def test_new_tools_drop_the_cases_they_no_longer_serve(tools):
    case = case_from_form(form(), list(tools))
    assert cases_for_tools([case], ["send_email"]) == []
    assert cases_for_tools([case], ["get_weather"])[0]["tools"] == ["get_weather"]


def test_the_draft_round_trips_and_holds_no_key(imported, tools):
    cases = [case_from_form(form(), list(tools))]
    text = draft_text(imported.document, cases)
    assert draft_from_text(text, TOOLS_SCHEMA, SUITE_SCHEMA) == (imported.document, cases, 0, 0, "", ())
    assert set(json.loads(text)) == {"format", "version", "tools", "cases"}
    huge = [{**cases[0], "prompt": "x" * MAX_DRAFT_CHARS}]
    assert draft_text(imported.document, huge) is None


@pytest.mark.parametrize("stored, line", [
    (None, "the saved draft: not text"),
    ("{", "the saved draft: not valid JSON (Expecting property name enclosed in double quotes at char 1)"),
    ("[" * 100_000, "the saved draft: draft nested deeper than 64 levels"),
    ("x" * (MAX_DRAFT_CHARS + 1), "the saved draft: larger than 2,000,000 characters"),
    ('{"format": "toolproof.draft", "version": 1, "tools": null, "cases": [], "key": "sk-x"}',
     "the saved draft: not a ToolProof draft"),
    ('{"format": "toolproof.draft", "version": 1, "tools": null, "cases": [{}]}',
     "the saved draft: cases without tools"),
    ('{"format": "toolproof.draft", "version": 1, "cases": [], "tools": {"format": "toolproof.tools", '
     '"version": 1, "tools": [{"name": "<b>", "description": "d", "parameters": {"type": "object"}}]}}',
     "the saved draft: at $.tools[0].name: '<b>' does not match '^[A-Za-z0-9_.-]{1,128}$'"),
])
def test_a_hostile_stored_draft_is_refused_in_one_line(stored, line):
    with pytest.raises(ToolProofError) as info:
        draft_from_text(stored, TOOLS_SCHEMA, SUITE_SCHEMA)
    assert info.value.line() == line


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_any_stored_text_is_a_draft_or_one_refusal(text):
    try:
        draft_from_text(text, TOOLS_SCHEMA, SUITE_SCHEMA)
    except ToolProofError:
        pass


def test_suite_document_is_v1_without_v2_rules():
    assert suite_document([])["version"] == 1 and suite_document([])["format"] == "toolproof.suite"


@pytest.mark.parametrize("doc, line", [
    ({"format": "toolproof.suite", "version": 1, "cases": [{"id": "a", "category": "should_call", "tools": ["ghost"],
                                                            "prompt": "p", "expect": {"action": "no_call"}}]},
     "s.json: at $.cases[0].tools[0]: unknown tool 'ghost' (not in tools.json)"),
    ({"format": "toolproof.tools", "version": 1, "tools": []}, "s.json: at $.format: 'toolproof.suite' was expected"),
    ([], "s.json: at $: [] is not of type 'object'"),
])
def test_a_bad_suite_file_is_refused_in_one_line(tools, doc, line):
    with pytest.raises(ToolProofError) as info:
        loaded_suite(doc, tools, SUITE_SCHEMA, "s.json")
    assert info.value.line() == line


# -- the editor's suite v2 options (optional, absent, loose, exact, accept) for its one expected call
HOTEL = [{"name": "find_hotel", "description": "Find a hotel.",
          "input_schema": {"type": "object", "required": ["where"], "properties": {
              "where": {"type": "object", "properties": {"city": {"type": "string"}, "country": {"type": "string"}}},
              "stars": {"type": "integer", "minimum": 1, "maximum": 5},
              "pool": {"type": "boolean"}}}}]


@pytest.fixture(scope="module")
def hotel_doc():
    return import_tools(json.dumps(HOTEL), TOOLS_SCHEMA, "hotel.json").document


@pytest.fixture(scope="module")
def hotel(hotel_doc):
    return parse_tools(hotel_doc, TOOLS_SCHEMA)


def hotel_form(**over) -> dict:
    return form(**{"id": "h1", "prompt": "A hotel in Paris, France", "tool": "find_hotel",
                   "args": '{"where": {"city": "Paris", "country": "France"}, "stars": 4}', **over})


@pytest.mark.parametrize("over, call_keys, parsed, version", [
    ({"optional": "stars, where.country"}, {"optional": ["stars", "where.country"]},
     lambda c: c.optional == frozenset({"stars", "where.country"}), 2),
    ({"absent": "pool"}, {"absent": ["pool"]}, lambda c: c.absent == frozenset({"pool"}), 2),
    ({"loose": " where ,"}, {"loose": ["where"]}, lambda c: c.loose == frozenset({"where"}), 2),
    ({"exact": "true"}, {"exact": True}, lambda c: c.exact is True, 2),
    ({"exact": "yes"}, {}, lambda c: c.exact is False, 1),       # only a ticked box ("true") is exact
    ({"accept": '{"where.city": ["Paris, FR"], "stars": [5]}'}, {"accept": {"where.city": ["Paris, FR"], "stars": [5]}},
     lambda c: c.accept == {"where.city": ["Paris, FR"], "stars": [5]}, 2),
    ({"accept": '{"stars": [5]}'}, {"accept": {"stars": [5]}}, lambda c: c.accept == {"stars": [5]}, 1),  # v1 accept
    ({"accept": " {} "}, {}, lambda c: c.accept == {}, 1),
])
def test_each_v2_option_is_written_only_when_given_and_parsed_by_parse_suite(hotel, over, call_keys, parsed, version):
    case = case_from_form(hotel_form(**over), list(hotel))
    call = case["expect"]["calls"][0]
    assert {k: v for k, v in call.items() if k not in ("tool", "args")} == call_keys
    assert parsed(check_case(case, [], hotel, SUITE_SCHEMA).expect.calls[0])
    assert suite_document([case])["version"] == version


@pytest.mark.parametrize("over, field, reason", [
    ({"optional": "rooms"}, "optional", "optional names 'rooms', which is not in args or derive"),
    ({"optional": "where.street"}, "optional", "optional names 'where.street', which is not in args or derive"),
    ({"absent": "stars"}, "absent", "absent names 'stars', which args or derive expect"),
    ({"loose": "where.city"}, "loose", "loose names 'where.city', which is not in args or derive"),
    ({"accept": '{"stars": [9]}'}, "accept", "accepted value 9 does not validate: 9 is greater than the maximum of 5"),
    ({"accept": '{"where.street": ["x"]}'}, "accept",
     "accept names 'where.street', which is not in args or derive (or a key inside them)"),
    ({"accept": '{"stars": 5}'}, "accept", "5 is not of type 'array'"),
    ({"accept": '{"stars": []}'}, "accept", "[] should be non-empty"),
    ({"accept": "[5]"}, "accept", "the accepted values must be a JSON object, not list"),
    ({"accept": '{"stars": [NaN]}'}, "accept", "NaN is not JSON"),
    ({"accept": "[" * 10_000}, "accept", "text nested deeper than 64 levels"),
])
def test_a_bad_v2_option_is_refused_naming_its_field(hotel, over, field, reason):
    with pytest.raises(CaseProblem) as info:
        check_case(case_from_form(hotel_form(**over), list(hotel)), [], hotel, SUITE_SCHEMA)
    assert (info.value.field, info.value.reason) == (field, reason)


def test_v2_options_round_trip_through_edit_the_draft_and_the_export(hotel_doc, hotel):
    typed = hotel_form(optional="stars, where.country", absent="pool", loose="where", exact="true",
                       accept='{"where.city": ["Paris, FR"]}')
    case = case_from_form(typed, list(hotel))
    check_case(case, [], hotel, SUITE_SCHEMA)
    shown = form_of(case)                     # Edit fills the form back with what was typed
    assert shown == {**typed, "args": json.dumps(json.loads(typed["args"]), indent=1),
                     "accept": '{\n "where.city": [\n  "Paris, FR"\n ]\n}'}
    assert case_from_form(shown, list(hotel), case) == case
    assert draft_from_text(draft_text(hotel_doc, [case]), TOOLS_SCHEMA, SUITE_SCHEMA)[:2] == (hotel_doc, [case])
    _, suite_text = checked_exports(hotel_doc, [case], TOOLS_SCHEMA, SUITE_SCHEMA)
    exported = json.loads(suite_text)
    assert exported["version"] == 2 and exported["cases"] == [case]
    assert loaded_suite(exported, hotel, SUITE_SCHEMA, "suite.json") == [case]


def test_a_loaded_case_with_v2_options_and_accept_is_editable_but_not_one_with_derive():
    call = {"tool": "a", "args": {"x": 1}, "accept": {"x": [2]}, "optional": ["x"], "exact": False}
    case = {"id": "a", "category": "should_call", "tools": ["a"], "prompt": "p", "expect": {"action": "call", "calls": [call]}}
    assert form_of(case)["accept"] == '{\n "x": [\n  2\n ]\n}' and form_of(case)["exact"] == ""
    assert form_of({**case, "expect": {"action": "call", "calls": [{**call, "derive": {"y": "a.b"}}]}}) is None


@pytest.mark.parametrize("case, v2", [
    ({"expect": {"action": "call", "calls": [{"tool": "a", "args": {}, "accept": {"x": [1]}}]}}, False),
    ({"expect": {"action": "call", "calls": [{"tool": "a", "args": {}, "accept": {"x.y": [1]}}]}}, True),
    ({"expect": {"action": "call", "alternatives": [[{"tool": "a", "absent": ["x"]}]]}}, True),
    ({"expect": {"action": "call", "order": "any"}}, True),
    ({"expect": {"action": "call", "calls": "junk", "alternatives": [5, ["x"]]}}, False),   # hostile: no raise
    ({"expect": [1]}, False),
    ("junk", False),
])
def test_uses_v2_marks_the_version_and_never_raises(case, v2):
    assert uses_v2(case) is v2


_NAMES = st.text(alphabet=st.sampled_from("abwhere.cityunstars ,\x00\u200b"), max_size=30)


@settings(max_examples=300, deadline=None)
@given(optional=_NAMES, absent=_NAMES, loose=_NAMES, exact=st.sampled_from(["", "true", "on"]),
       accept=st.one_of(st.text(max_size=40), st.dictionaries(_NAMES, st.lists(
           st.one_of(st.integers(), st.text(max_size=5), st.none()), max_size=3), max_size=3).map(json.dumps)))
def test_any_v2_option_text_is_a_case_or_one_refusal_naming_a_field(hotel, optional, absent, loose, exact, accept):
    try:
        case = case_from_form(hotel_form(optional=optional, absent=absent, loose=loose, exact=exact, accept=accept),
                              list(hotel))
        check_case(case, [], hotel, SUITE_SCHEMA)
    except CaseProblem as exc:
        assert exc.field in ("optional", "absent", "loose", "accept") and exc.reason



# ---- a stored draft keeps what still loads ---------------------------------------------------

def test_one_case_that_no_longer_loads_drops_alone(imported, tools):
    # Found by review: one case that no longer loads discarded the whole stored draft, tools included.
    good = [case_from_form(form(id=f"w{i}"), list(tools)) for i in range(3)]
    stale = {**good[0], "id": "stale", "tools": ["gone_tool"]}
    broken = {**good[0], "id": "broken", "category": "no_such_category"}
    text = draft_text(imported.document, [good[0], stale, good[1], broken, 7, good[2], good[1]])
    draft = draft_from_text(text, TOOLS_SCHEMA, SUITE_SCHEMA)
    assert draft.tools_doc == imported.document and draft.cases == good     # in order; the duplicate w1 too
    assert (draft.dropped_tools, draft.dropped_cases) == (0, 4)
    assert draft.problem.startswith("the saved draft: at $.cases[")
    assert restored_line(draft, 2).startswith("Draft restored: 2 tools, 3 cases. Dropped 0 tools and "
                                              "4 cases that no longer load (the first: the saved draft: ")


def test_a_tool_that_no_longer_loads_drops_alone_with_its_cases(imported, tools):
    doc = {**imported.document, "tools": imported.document["tools"] + [
        {"name": "<b>", "description": "d", "parameters": {"type": "object"}},
        {"name": "nan_tool", "description": "d", "parameters": {"type": "object", "minimum": "x"}},
        imported.document["tools"][0]]}                 # a duplicate name: the first is kept
    cases = [case_from_form(form(), list(tools)), case_from_form(form(id="e", tool="send_email", args='{"to": "a"}'),
                                                                   ["send_email"])]
    draft = draft_from_text(draft_text(doc, cases), TOOLS_SCHEMA, SUITE_SCHEMA)
    assert [t["name"] for t in draft.tools_doc["tools"]] == ["get_weather", "send_email"]
    assert draft.cases == cases and draft.dropped_tools == 3 and draft.dropped_cases == 0
    assert restored_line(draft, 2).startswith("Draft restored: 2 tools, 2 cases. Dropped 3 tools and 0 cases")


def test_an_intact_draft_says_nothing_was_dropped(imported, tools):
    draft = draft_from_text(draft_text(imported.document, []), TOOLS_SCHEMA, SUITE_SCHEMA)
    assert restored_line(draft, 2) == "Draft restored: 2 tools, 0 cases."


def test_a_hostile_draft_with_many_bad_cases_keeps_the_good_ones_bounded(imported, tools):
    good = case_from_form(form(), list(tools))
    junk = [None, [], "x" * 10_000, {"id": "\x00\u202e"}, {"id": 1}, {"expect": {"action": float("inf")}}]
    text = draft_text(imported.document, junk * 50 + [good])
    if text is None:
        pytest.skip("over the stored bound")
    draft = draft_from_text(text.replace("Infinity", "1"), TOOLS_SCHEMA, SUITE_SCHEMA)
    assert draft.cases == [good] and draft.dropped_cases == 300 and len(restored_line(draft, 2)) < 400


def test_a_case_never_offers_two_entries_that_reach_providers_alike():
    # issue 22: two servers' `search` load apart by id; the editor offers the expected one only
    from toolproof.authoring.case_form import readable_offer

    names = {"search@github": "search", "search@jira": "search", "git.status": "git.status", "git_status": "git_status"}
    ids = list(names)
    assert readable_offer(ids, "search@jira", names) == ["search@jira", "git.status"]
    assert readable_offer(ids, None, names) == ["search@github", "git.status"]
    doc = {"format": "toolproof.tools", "version": 1, "tools": [
        {"id": i, "name": n, "description": "d", "parameters": {"type": "object"}} for i, n in names.items()]}
    tools = parse_tools(doc, TOOLS_SCHEMA)
    case = case_from_form(form(tool="search@jira", args="{}"), ids, names=names)
    assert case["tools"] == ["search@jira", "git.status"]
    check_case(case, [], tools, SUITE_SCHEMA)


def test_cases_kept_after_a_reload_offer_one_entry_per_wire_name():
    names = {"search@github": "search", "search@jira": "search"}
    case = {"id": "s", "category": "should_call", "tools": ["search@github", "search@jira"], "prompt": "p",
            "expect": {"action": "call", "calls": [{"tool": "search@jira", "args": {}}]}}
    assert cases_for_tools([case], list(names), by_id=names)[0]["tools"] == ["search@jira"]
