"""Hostile numbers never raise in the answer rules: NaN, ±inf and integers past any float in a
mock result, a rule's value or the call's arguments, and digit runs of hundreds of characters in
the reply (found by tests/test_fuzz.py: float infinity reached round())."""
from __future__ import annotations

import pytest

from toolproof.grading.answer_rules import judge
from toolproof.suite.model import PhraseRules

HUGE = 10 ** 400
MOCKS = {"get_account_balance": {"available": float("inf"), "pending": float("nan"), "current": HUGE,
                                 "items": [{"name": "A", "price": -float("inf")}, {"name": "B", "price": HUGE}]}}
REPLIES = ["You can spend €834.27.", "1" * 500 + " €", "€" + "9" * 400 + ".99 available", "inf", "nan €",
           "A costs 1e400 € and B costs " + "9" * 320 + ",00 €"]


@pytest.mark.parametrize("reply", REPLIES)
def test_hostile_numbers_grade_without_raising(reply):
    rules = PhraseRules((), (), (), None, None, (), True)
    verdict = judge(rules, reply, MOCKS, called=({"amount": HUGE, "x": float("nan")},))
    assert isinstance(verdict.problems, list)


def test_a_run_of_digits_and_commas_for_pages_is_no_number():
    from toolproof.grading.answer_values import MAX_NUMBER, digit_numbers
    assert digit_numbers("1," * 5000) == []
    assert digit_numbers("total 1.234.567,89 €")[0][2] == {1234567.89}
    assert len("1.234.567.890,12") < MAX_NUMBER
