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
    # format characters str.isprintable refused and the list once missed (the draft suite's shown
    # text used isprintable until it moved to this list: the move must only be stricter)
    ("shape \u206a", "shape \\u206a"),
    ("note \ufff9x\ufffb", "note \\ufff9x\\ufffb"),
    ("short \U0001bca0", "short \\U0001bca0"),
    ("music \U0001d173", "music \\U0001d173"),
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


def test_clip_and_quoted_bound_a_value_and_say_how_much_was_cut():
    from toolproof.errors import MAX_QUOTED, clip, quoted
    assert clip("abc") == "abc" and clip("x" * MAX_QUOTED) == "x" * MAX_QUOTED
    assert clip("x" * 1_000_000) == "x" * MAX_QUOTED + "… (999,880 more)"
    assert quoted("a" * 200, 10) == "'aaaaaaaaa… (192 more)"


def test_every_refusal_is_bounded_where_it_is_built():
    from toolproof.errors import MAX_REASON, MAX_WHERE, ToolProofError
    exc = ToolProofError("r" * 3_000_000, source="s" * 10_000, path="$." + "p" * 10_000)
    assert len(exc.line()) < MAX_REASON + 2 * MAX_WHERE + 80
    assert exc.reason.endswith("… (2,999,400 more)") and exc.source.endswith("… (9,800 more)")
    assert ToolProofError("short", source="f.json", path="$.a").line() == "f.json: at $.a: short"
