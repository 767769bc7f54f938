"""Nesting is measured before parsing, so the page never overflows Pyodide's stack."""
from __future__ import annotations

import json

import pytest
from hypothesis import given, strategies as st

from toolproof.errors import ToolProofError
from toolproof.jsontext import MAX_DEPTH, nesting_depth, parse_json_text


@pytest.mark.parametrize("text, depth", [
    ("1", 0), ("[]", 1), ('{"a": [1, {"b": []}]}', 4), ('["[[[[", "]]"]', 1), ('"\\"[["', 0), ("]]][[", 2),
])
def test_depth(text, depth):
    assert nesting_depth(text) == depth


@given(st.recursive(st.none() | st.integers() | st.text(), lambda c: st.lists(c) | st.dictionaries(st.text(), c)))
def test_depth_never_undercounts_parsable_json(value):
    text = json.dumps(value)

    def depth(v):
        return 1 + max([depth(x) for x in (v.values() if isinstance(v, dict) else v)], default=0) \
            if isinstance(v, (list, dict)) else 0
    assert nesting_depth(text) == depth(value)


@pytest.mark.parametrize("text, line", [
    ("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), "f.json: JSON nested too deeply to read"),
    ("[" * 100000, "f.json: JSON nested too deeply to read"),
    ("{\x00", "f.json: not valid JSON: Expecting property name enclosed in double quotes (line 1, column 2)"),
    ("NaN x", "f.json: not valid JSON: Extra data (line 1, column 5)"),
])
def test_refusals(text, line):
    with pytest.raises(ToolProofError) as exc:
        parse_json_text(text, "f.json")
    assert exc.value.line() == line


def test_depth_at_the_limit_parses():
    assert parse_json_text("[" * MAX_DEPTH + "]" * MAX_DEPTH, "f.json") is not None
