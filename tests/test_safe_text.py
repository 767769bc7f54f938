"""The one definition of control and invisible characters: what every report, CLI line, lint
finding and grading reason escapes or flags. One row per kind of character that once slipped
through one of the four definitions it replaced."""
from __future__ import annotations

import pytest

from toolproof.safe_text import hidden_characters, looks_same, printable, without_hidden


@pytest.mark.parametrize("text, shown", [
    ("plain text, café", "plain text, café"),
    ("esc \x1b[31m red", "esc \\x1b[31m red"),
    ("two\nlines\r", "two\\x0alines\\x0d"),
    ("tab\there", "tab\\x09here"),
    ("del \x7f c1 \x9b", "del \\x7f c1 \\x9b"),
    ("zero\u200bwidth", "zero\\u200bwidth"),              # once shown raw by reports
    ("soft\u00adhyphen", "soft\\xadhyphen"),            # once shown raw by reports
    ("bidi \u202eevil", "bidi \\u202eevil"),
    ("line\u2028sep", "line\\u2028sep"),
    ("tag \U000e0041\U000e0042", "tag \\U000e0041\\U000e0042"),   # ASCII smuggling, once raw in reports
    ("bom \ufeff", "bom \\ufeff"),
    ("lone \ud800", "lone \\ud800"),
])
def test_printable_escapes_every_control_and_invisible_character(text, shown):
    assert printable(text) == shown


def test_printable_keeps_one_line_one_line():
    assert "\n" not in printable("a\nb\u2028c\u2029d\x85e")


def test_hidden_characters_name_each_one_and_leave_layout_alone():
    assert hidden_characters("a\tb\nc\rd") == []
    assert hidden_characters("ig\u200bnore \U000e0049") == [(2, "U+200B ZERO WIDTH SPACE"), (8, "U+E0049 TAG I")]
    assert without_hidden("ig\u200bnore\u00ad") == "ignore"


@pytest.mark.parametrize("a, b, same", [
    ("café", "cafe\u0301", True),            # composed and decomposed accents
    ("paris", "pa\u200bris", True),           # a zero-width space
    ("a b", "a\u00a0b", True),                # a no-break space
    ("paris", "Paris", False),
    ("same", "same", False),                  # equal texts are not "different but alike"
])
def test_looks_same(a, b, same):
    assert looks_same(a, b) is same
