"""Normalisation rules, one table row per rule; idempotence as a property."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toolproof.grading.normalize import (cast_lenient, english_date_to_iso, needs_cast, normalize_text,
                                 values_equal)

ISO = {"type": "string", "description": "Departure date, YYYY-MM-DD."}
STRICT_ISO = {"type": "string", "pattern": r"^\d{4}-\d{2}-\d{2}$"}
ENUM = {"type": "string", "enum": ["economy", "business"]}


@pytest.mark.parametrize("expected, actual, schema, equal", [
    ("Lisbon", "  Lisbon ", None, True),                 # trimmed
    ("New York", "New \t  York", None, True),            # internal whitespace collapsed
    ("Lisbon", "lisBON", None, True),                    # case ignored
    ("Lisbon", "Lisboa", None, False),
    ("2026-03-04", "March 4, 2026", ISO, True),          # documented date: English month
    ("2026-03-04", "4 March 2026", ISO, True),
    ("2026-03-04", "Wednesday, March 4th, 2026", ISO, True),
    ("2026-03-04", "Mar. 4 2026", ISO, True),
    ("2026-03-04", "March 5, 2026", ISO, False),
    ("2026-03-04", "03/04/2026", ISO, False),            # numeric dates are ambiguous
    ("2026-03-04", "March 4, 2026", None, False),        # undocumented field: plain string rules
    ("2026-03-04", "March 4, 2026", STRICT_ISO, False),  # patterns stay strict
    ("business", "Business", ENUM, False),               # enums stay strict
    (19.99, 19.990000999, None, True),                   # within 1e-6
    (19.99, 19.9900011, None, False),
    (3, 3.0, None, True),
    (True, 1, None, False),                              # booleans are not numbers
    (1, True, None, False),
    ("3", 3, None, False),                               # strict: no casting
    (["a", "b"], ["a", "b"], None, True),
    (["a", "b"], ["b", "a"], None, False),               # arrays are order-sensitive
    (["a"], ["a", "b"], None, False),
    ({"city": "Porto"}, {"city": "porto ", "zip": "4000"}, None, True),  # expected keys only
    ({"city": "Porto"}, {"zip": "4000"}, None, False),
    (None, None, None, True),
])
def test_values_equal(expected, actual, schema, equal):
    assert values_equal(expected, actual, schema) is equal


def test_omitted_nested_field_with_default_matches():
    schema = {"type": "object", "properties": {"seat": {"type": "string", "default": "any"}}}
    assert values_equal({"seat": "any"}, {}, schema)
    assert not values_equal({"seat": "window"}, {}, schema)


@pytest.mark.parametrize("text, iso", [
    ("March 4, 2026", "2026-03-04"), ("4 March 2026", "2026-03-04"), ("the 4th of March 2026", "2026-03-04"),
    ("Sept 30 2026", "2026-09-30"), ("February 29, 2028", "2028-02-29"),
    ("February 29, 2026", None), ("Smarch 4, 2026", None), ("March 4", None), ("2026-03-04", None),
])
def test_english_dates(text, iso):
    assert english_date_to_iso(text) == iso


@pytest.mark.parametrize("value, schema, cast", [
    ("12", {"type": "integer"}, 12),
    (" 12 ", {"type": "integer"}, 12),
    ("12.0", {"type": "integer"}, 12),
    ("12.5", {"type": "integer"}, "12.5"),               # never change a value
    ("12.5", {"type": "number"}, 12.5),
    ("1e3", {"type": "number"}, 1000.0),
    ("abc", {"type": "number"}, "abc"),
    ("TRUE", {"type": "boolean"}, True),
    ("yes", {"type": "boolean"}, "yes"),
    ('["a", "b"]', {"type": "array"}, ["a", "b"]),
    ('{"a": 1}', {"type": "array"}, '{"a": 1}'),
    ('{"a": 1}', {"type": "object"}, {"a": 1}),
    ("12", {"type": "string"}, "12"),
    ("12", {"type": ["string", "integer"]}, "12"),        # a string is already allowed
    (12, {"type": "string"}, 12),                         # only strings are cast
    ({"n": "2", "s": "2"}, {"type": "object", "properties": {"n": {"type": "integer"},
                                                          "s": {"type": "string"}}}, {"n": 2, "s": "2"}),
    (["1", "2"], {"type": "array", "items": {"type": "integer"}}, [1, 2]),
])
def test_cast_lenient(value, schema, cast):
    assert cast_lenient(value, schema) == cast
    assert needs_cast(value, schema) is (cast_lenient(value, schema) != value or type(cast) is not type(value))


@given(st.text())
def test_normalize_text_is_idempotent(text):
    assert normalize_text(normalize_text(text)) == normalize_text(text)


json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8)
                           | st.floats(allow_nan=False, allow_infinity=False),
                           lambda inner: st.lists(inner, max_size=3)
                           | st.dictionaries(st.text(max_size=4), inner, max_size=3), max_leaves=10)


@given(json_values)
def test_every_value_equals_itself(value):
    assert values_equal(value, value, ISO)


@given(json_values, st.sampled_from([{"type": "integer"}, {"type": "number"}, {"type": "boolean"},
                                     {"type": "array"}, {"type": "object"}, ISO]))
def test_lenient_cast_is_idempotent(value, schema):
    once = cast_lenient(value, schema)
    assert cast_lenient(once, schema) == once


@pytest.mark.parametrize("text, iso, problem", [
    ("Thursday, March 19, 2026", "2026-03-19", None),
    ("Thu 19 March 2026", "2026-03-19", None),
    ("Monday, March 19, 2026", None, "the weekday does not match: 2026-03-19 is a Thursday, not a Monday"),
    ("tues. the 4th of March 2026", None, "the weekday does not match: 2026-03-04 is a Wednesday, not a Tuesday"),
    ("the 4th of March 2026", "2026-03-04", None),
    ("Monkey, March 4, 2026", None, None),          # not a weekday: not a date at all
])
def test_weekday_must_match_the_date(text, iso, problem):
    from toolproof.grading.normalize import weekday_problem
    assert english_date_to_iso(text) == iso
    assert weekday_problem(text) == problem
