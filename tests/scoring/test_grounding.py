"""What counts as a sourced argument value (docs/diagnosis.md quotes these rules): one row per
rule, with the near misses that must stay unsourced, and the paths `unsourced` reports.
"""
from __future__ import annotations

import pytest

from toolproof.scoring.grounding import is_sourced, source_text, unsourced

ANCHOR = "Today is 2026-03-04."

# (value, field schema or None, what the user said, expected)
TABLE = [
    # dates
    ("2026-03-04", None, "ship on 2026-03-04", True),
    ("2026-03-04", None, "ship on March 4", True),
    ("2026-03-04", None, "ship on 4 March", True),
    ("2026-03-04", None, "ship on Mar 4", True),
    ("2026-03-04", None, "ship on the 4th of March", True),
    ("2026-03-04", None, "ship on March 14", False),          # another day
    ("2026-03-04", None, "ship on April 4", False),           # another month
    ("March 4, 2026", None, "ship on 4 March", True),         # an English date is judged as ISO
    ("2026-03-05", None, f"{ANCHOR} Ship it tomorrow.", True),  # relative day + today's date
    ("2026-03-09", None, f"{ANCHOR} Ship it on Monday.", True),
    ("2026-03-05", None, "Ship it tomorrow.", False),         # relative day, no anchor: a guess
    ("2026-02-30", None, "ship on February 30", False),       # not a date at all
    # times
    ("17:30", None, "at 17:30", True),
    ("17:30", None, "at 5:30 pm", True),
    ("17:30", None, "at 5.30pm", True),
    ("17:30", None, "at 5:30 am", False),
    ("20:00", None, "at 8 pm", True),
    ("20:00", None, "at 8:00 p.m.", True),
    ("20:00", None, "at 18:00", False),
    ("09:00", None, "at 9 am", True),
    ("09:00", None, "at 19 am", False),                       # "9" inside "19" is not 9
    ("12:00", None, "around noon", True),
    # numbers
    (1250, None, "it costs $1,250.00", True),
    (1250.0, None, "it costs $1,250.00", True),
    ("1250", None, "it costs $1,250.00", True),               # a numeric string is a number
    (1251, None, "it costs $1,250.00", False),
    (60, None, "for an hour", True),                          # minutes from hours
    (120, None, "for two hours", True),
    (90, None, "for one and a half hours", True),
    (90, None, "for 1.5 hours", True),
    (45, None, "for an hour", False),
    (0, None, "a nonstop flight", True),                      # 0 and 1 are implied
    (1, None, "a table for me", True),
    (0, None, "", True),
    (3, None, "three of us", True),                           # number words, one to twelve
    (12, None, "twelve chairs", True),
    (13, None, "thirteen chairs", False),
    (7, None, "a week", False),
    (5, None, "order ORD-123456", False),                     # a digit inside an id is not a number
    # strings
    ("Lisbon", None, "fly to LISBON  please", True),          # case and spacing ignored
    ("new  york", None, "going to New York", True),
    ("ORD-123456", None, "where is ORD-123456?", True),
    ("Porto", None, "fly to Lisbon", False),
    ("leave at the door", None, "no instructions", False),    # four words: still judged
    # not judged
    ("economy", {"type": "string", "enum": ["economy", "business"]}, "x", None),
    ("eur", {"const": "eur"}, "x", None),
    (True, None, "x", None),
    (False, {"type": "boolean"}, "x", None),
    (None, None, "x", None),
    (3, {"type": "integer", "default": 3}, "x", None),
    ("please leave it by the back door", None, "x", None),   # free text over four words
    ("", None, "x", None),
    (["Lisbon"], None, "x", None),
]


@pytest.mark.parametrize("value, schema, said, expected", TABLE,
                         ids=[f"{i}-{row[0]!r}-{row[3]}" for i, row in enumerate(TABLE)])
def test_is_sourced(value, schema, said, expected):
    assert is_sourced(value, schema, source_text(None, said, [])) is expected


def test_a_morning_time_is_not_sourced_by_the_evening():
    # "5:30" inside "5:30 pm" is the evening, not 05:30.
    assert is_sourced("05:30", None, source_text(None, "at 5:30 pm", [])) is False
    assert is_sourced("05:30", None, source_text(None, "at 5:30 am", [])) is True


def test_the_source_is_system_prompt_and_results_normalised():
    source = source_text("Be  BRIEF.", "Refund  Ana", [{"customer": {"id": "C-9"}}])
    assert source == 'be brief. refund ana {"customer": {"id": "c-9"}}'
    assert is_sourced("C-9", None, source) is True
    assert is_sourced("C-9", None, source_text(None, "Refund Ana", [])) is False


SCHEMA = {"type": "object", "properties": {
    "city": {"type": "string"},
    "cabin": {"type": "string", "enum": ["economy", "business"]},
    "trip": {"type": "object", "properties": {
        "from": {"type": "string"},
        "stops": {"type": "array", "items": {"type": "string"}},
    }},
    "guests": {"type": "array", "items": {"type": "object", "properties": {
        "name": {"type": "string"}, "age": {"type": "integer"}}}},
    "tags": {"type": "array", "items": {"type": "string", "enum": ["a", "b"]}},
}}


def test_unsourced_reports_paths_in_nested_objects_and_arrays():
    source = source_text(None, "Ana (34) and Rui fly from Lisbon to Porto via Madrid.", [])
    arguments = {
        "city": "Porto",                                      # sourced
        "cabin": "business",                                  # enum: not judged
        "trip": {"from": "Lisbon", "stops": ["Madrid", "Paris"]},
        "guests": [{"name": "Ana", "age": 34}, {"name": "Rui", "age": 41}, {"name": "Eva"}],
        "tags": ["b"],                                        # enum items: not judged
        "extra": "Faro",                                      # not in the schema: still judged
        "wifi": True,                                         # boolean: not judged
    }
    assert unsourced(arguments, SCHEMA, source) == [
        ("trip.stops[1]", "Paris"),
        ("guests[1].age", 41),
        ("guests[2].name", "Eva"),
        ("extra", "Faro"),
    ]


def test_unsourced_when_everything_is_sourced_or_unjudged():
    source = source_text(None, "Lisbon", [])
    assert unsourced({}, SCHEMA, source) == []
    assert unsourced({"city": "lisbon", "cabin": "economy", "trip": {}}, SCHEMA, source) == []
    assert unsourced({"city": "Faro"}, {}, source) == [("city", "Faro")]   # no schema: still judged
