"""draft_view: what #own shows of a draft, as data: the tool list, the lint, the case list, every
hostile text escaped by safe_text's one rule and cut."""
from __future__ import annotations

from toolproof.authoring.draft_view import (NO_CASES, NO_FINDINGS, OPEN_UP_TO, SHOWN_FINDINGS, SHOWN_TOOLS, case_rows,
                                            lint_list, tool_list, visible)
from toolproof.authoring.lint import LintFinding
from toolproof.authoring.tool_offer import Refused
from toolproof.safe_text import CONTROL_RANGES, INVISIBLE_RANGES, escape
from toolproof.suite.model import Tool


def test_visible_escapes_what_safe_text_rules_hidden_and_cuts():
    assert visible("a\u200bb\u202e\x00<i>") == "a\\u200bb\\u202e\\x00<i>"
    assert visible("x" * 10, 4) == "xxxx… (6 more)"
    # every control and invisible character safe_text lists is escaped, whatever Unicode version
    # the interpreter ships (CPython and Pyodide differ): one rule for shown text
    for lo, hi in CONTROL_RANGES + INVISIBLE_RANGES:
        for code in (lo, hi):
            assert visible(chr(code)) == escape(chr(code))


def test_visible_is_stricter_than_isprintable_was_where_characters_hide():
    # str.isprintable passed variation selectors (category Mn), which can hide in a tool name;
    # safe_text escapes them. Line breaks stay escaped (spelled \x0a where isprintable's ascii()
    # wrote \n), so a description never breaks the line it is shown on.
    assert visible("search\ufe0f") == "search\\ufe0f"
    assert visible("a\U000e0100b") == "a\\U000e0100b"
    assert visible("one\ntwo\tthree") == "one\\x0atwo\\x09three"
    # not hidden by safe_text's rule, and shown as written: a no-break space, emoji, other scripts
    assert visible("10\u00a0km 🌦 Zürich 東京") == "10\u00a0km 🌦 Zürich 東京"


def tools(n: int) -> dict:
    return {f"t{i}": Tool(f"t{i}", "", f"Tool number {i}.", {}, None) for i in range(n)}


def test_the_tool_list_says_how_many_are_offered_and_opens_when_short_or_something_is_off():
    assert tool_list({}, (), ()) is None
    shown = tool_list(tools(3), ("t1",), ())
    assert shown.summary == "Your tools (3 loaded, 2 offered)" and shown.open and shown.more == ""
    assert [(r.name, r.offered) for r in shown.rows] == [("t0", True), ("t1", False), ("t2", True)]
    assert shown.rows[0].aria == "Offer t0 to the model" and shown.rows[0].description == "Tool number 0."
    many = tool_list(tools(SHOWN_TOOLS + 5), (), ())
    assert len(many.rows) == SHOWN_TOOLS and many.more == "… and 5 more (offered)" and not many.open
    assert tool_list(tools(OPEN_UP_TO), (), ()).open and not tool_list(tools(OPEN_UP_TO + 1), (), ()).open
    assert tool_list(tools(OPEN_UP_TO + 1), ("t0",), ()).open
    refused = tool_list(tools(OPEN_UP_TO + 1), (), [Refused("b\u202ead", "t.json: at $[1]: why\n")])
    assert refused.summary == "Your tools (21 loaded, 21 offered, 1 not loaded)" and refused.open
    assert refused.refused[0] == ("b\u202ead", "b\\u202ead", "t.json: at $[1]: why\\x0a")


def test_hostile_tool_text_reaches_the_list_escaped_and_cut():
    hostile = {"x": Tool("x", "", "Do\u200b it" + "." * 300, {}, None, label="e\u202evil")}
    row = tool_list(hostile, (), ()).rows[0]
    assert row.shown == "e\\u202evil" and row.aria == "Offer e\\u202evil to the model"
    assert row.description.startswith("Do\\u200b it") and row.description.endswith("… (146 more)")


def finding(severity="error", tool="t\u200b", message="m", path="$.tools[0]"):
    return LintFinding("no-description", severity, tool, path, message)


def test_the_lint_counts_errors_and_warnings_and_bounds_the_rows():
    empty = lint_list([])
    assert (empty.heading, empty.empty, empty.rows, empty.more) == ("Lint: 0 errors, 0 warnings", NO_FINDINGS, [], "")
    some = lint_list([finding(), finding("warning")], note="restored")
    assert some.heading == "Lint: 1 error, 1 warning" and some.note == "restored" and some.empty == ""
    assert some.rows[0] == ("error", "no-description", "t\u200b", "t\\u200b", "m", "$.tools[0]")
    lots = lint_list([finding()] * (SHOWN_FINDINGS + 2))
    assert len(lots.rows) == SHOWN_FINDINGS
    assert lots.more == "… and 2 more (python -m toolproof tools lint FILE lists them all)"


def test_the_case_list_names_calls_forbidden_tools_and_rules():
    assert case_rows([]) == ("Your cases (0)", NO_CASES, [])
    call = {"id": "a", "category": "injection", "tools": ["get", "send"], "prompt": "Weather\u202e?",
            "expect": {"action": "call", "calls": [{"tool": "get", "args": {}, "optional": ["x"], "accept": {"x": [1]}},
                                                   {"tool": "get", "args": {}}],
                       "forbidden": [{"tool": "send"}]}}
    derived = {"id": "b", "category": "should_call", "tools": ["get"], "prompt": "p",
               "expect": {"action": "call", "calls": [{"tool": "get", "args": {}}]}, "derive": {"from": "x"}}
    heading, empty, rows = case_rows([call, derived])
    assert (heading, empty) == ("Your cases (2)", "")
    assert rows[0] == ("a", "injection", "call get → get · never send (accept, optional)", "Weather\\u202e?", True)
    assert rows[1].what == "call get" and not rows[1].editable      # the editor cannot show `derive`
