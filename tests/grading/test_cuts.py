"""Every cut of a reason or a list says how much it left out: "… (N more)" (and "… (N before) "
in front of a cut around a difference), never a bare "…" a reader cannot size. Issue 38: a long
argument value, a quoted reply and a list of names were cut with a bare "…".
"""
from __future__ import annotations

import json
import re

import pytest

from toolproof.errors import clip, clip_list, clip_window
from toolproof.grading.answer_text import MAX_QUOTE, Reading
from toolproof.grading.reasons import MAX_SHOWN, show, show_pair

BARE = re.compile(r"…(?! \(\d[\d,]* (?:more|before)\))")      # an ellipsis that does not say how much


def test_clip_says_how_many_characters_more():
    assert clip("abcdef", 4) == "abcd… (2 more)" and clip("abcd", 4) == "abcd"
    assert clip("x" * 5000, 10) == "x" * 10 + "… (4,990 more)"


@pytest.mark.parametrize("start, end, expected", [
    (0, 3, "abc… (7 more)"), (4, 10, "… (4 before) efghij"), (2, 5, "… (2 before) cde… (5 more)"),
    (0, 10, "abcdefghij"), (-5, 99, "abcdefghij")])
def test_clip_window_says_what_it_left_out_on_each_side(start, end, expected):
    assert clip_window("abcdefghij", start, end) == expected


def test_clip_list_counts_the_items_left_out():
    assert clip_list(["a", "b", "c", "d"], 2) == "a, b, … (2 more)"
    assert clip_list(["a", "b"], 2) == "a, b" and clip_list([], 3) == ""
    assert clip_list(["a"], 1, total=1001) == "a, … (1,000 more)"


def test_a_long_value_in_a_reason_says_how_much_was_cut():
    value = {"note": "y" * 500}
    text = json.dumps(value)
    assert show(value) == text[:MAX_SHOWN] + f"… ({len(text) - MAX_SHOWN} more)"
    assert not BARE.search(show(value))


def test_two_long_values_are_cut_around_their_difference_saying_how_much_each_side():
    a, b = show_pair("x" * 200 + "alpha" + "z" * 300, "x" * 200 + "beta" + "z" * 300)
    assert a.startswith("… (171 before) ") and b.startswith("… (171 before) ")
    assert "alpha" in a and "beta" in b and a.endswith(" more)") and b.endswith(" more)")
    assert not BARE.search(a + b)


def test_a_quoted_reply_says_how_much_more_it_had():
    text = "Your order " + "really " * 40 + "has not shipped. And then some more words."
    reading = Reading(text)
    quoted = reading.quote(0, len(text))
    assert quoted.startswith("Your order really") and not BARE.search(quoted)
    assert quoted.endswith(f"… ({len(text) - MAX_QUOTE} more)")
    around = reading.context(200, 205)           # inside the long first sentence: cut on both sides
    assert around.startswith("… (") and " before) " in around and around.endswith(" more)")
    assert not BARE.search(around)


def test_called_names_beyond_the_bound_are_counted():
    from toolproof.grading.extra_calls import MAX_NAMES, called_names
    from toolproof.grading.verdicts import CheckedCall
    from toolproof.providers.reply import Call

    calls = [CheckedCall(1, Call(f"t{i}", {}), False, {}, []) for i in range(MAX_NAMES + 3)]
    names = called_names(calls, {})
    assert names.endswith(", … (3 more)") and not BARE.search(names)
