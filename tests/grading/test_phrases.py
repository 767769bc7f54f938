"""Phrase rules on a final answer: whole words, any case, any spacing, values read from mocks."""
from __future__ import annotations

import pytest

from toolproof.grading.phrases import mentions, text_problems
from toolproof.suite.model import PhraseRules

MENTIONS = [
    ("Your order has shipped.", "shipped", True),
    # word boundaries: a negation glued to the word is a different word
    ("Your order is unshipped.", "shipped", False),
    ("It shipped_late", "shipped", False),
    ("shipped", "shipped", True),
    ("(shipped)", "shipped", True),
    # case and whitespace do not matter, on either side
    ("It has SHIPPED", "Shipped", True),
    ("it could not\n\t be   found", "not  be found", True),
    ("  ", "shipped", False),
    ("Zürich is sunny", "ZÜRICH", True),
    ("Die Straße ist gesperrt", "STRASSE", True),       # casefold, not lower
    # ids: the next character decides, so ORD-1 is not found inside ORD-12
    ("Order ORD-12 is late", "ORD-1", False),
    ("Order ORD-1 is late", "ORD-1", True),
    ("see TRF-88412.", "TRF-88412", True),
    ("Total: $96.45 today", "96.45", True),
    ("Total: 196.45", "96.45", False),
    # regex characters in a phrase are literal
    ("costs 3.5 EUR", "3.5", True),
    ("costs 3x5 EUR", "3.5", False),
    ("C++ is fine", "C++", True),
    # an empty or blank phrase never matches (it would match everything)
    ("anything", "", False),
    ("anything", "   ", False),
]


@pytest.mark.parametrize("text, phrase, found", MENTIONS, ids=[f"{p!r}-in-{t!r}" for t, p, _ in MENTIONS])
def test_mentions(text, phrase, found):
    assert mentions(text, phrase) is found


MOCKS = {"lookup": {"status": "shipped", "total": 1250.0, "price": 96.45, "gift": True, "qty": 3,
                    "items": [{"sku": "A-1"}]}}


def rules(*include, avoid=()) -> PhraseRules:
    return PhraseRules(tuple(include), tuple(avoid))


TEXT_PROBLEMS = [
    # literal phrase
    (rules("shipped"), "It shipped today.", []),
    (rules("shipped"), "It is on its way.", ['final answer does not mention "shipped"']),
    # any-of tuple: one is enough, the reason lists them all
    (rules(("not found", "could not find")), "I could not find that order.", []),
    (rules(("not found", "could not find")), "No such order.",
     ['final answer does not mention "not found" or "could not find"']),
    # a value from the mock result: a different mock demands a different answer
    (rules({"result": "lookup.status"}), "Status: SHIPPED", []),
    (rules({"result": "lookup.status"}), "Status: delivered",
     ['final answer does not mention "shipped" (from lookup.status)']),
    (rules({"result": "lookup.items.0.sku"}), "Item A-1 is back.", []),
    # a whole float is shown as the integer people write
    (rules({"result": "lookup.total"}), "Your total is 1250 EUR.", []),
    # numbers compare by value: thousands separators and trailing zeros are the same number
    (rules({"result": "lookup.total"}), "Your total is 1,250 EUR.", []),
    (rules({"result": "lookup.total"}), "Your total is 1250.00 EUR.", []),
    (rules({"result": "lookup.price"}), "It costs $96.45.", []),
    (rules({"result": "lookup.qty"}), "You have 3 left.", []),
    (rules({"result": "lookup.gift"}), "gift: true", []),
    # must_not_include: a claim the tool result does not support
    (rules(avoid=("delivered",)), "It was delivered.",
     ['final answer says "delivered", which the tool result does not support']),
    (rules(avoid=("delivered",)), "It is undelivered so far.", []),
    # every problem is reported, includes first, in rule order
    (rules("shipped", {"result": "lookup.total"}, avoid=("delivered", "lost")), "Delivered, or lost.",
     ['final answer does not mention "shipped"', 'final answer does not mention "1250" (from lookup.total)',
      'final answer says "delivered", which the tool result does not support',
      'final answer says "lost", which the tool result does not support']),
    (rules(), "", []),
    # non-ASCII phrases are quoted as written, not \u-escaped
    (rules("Zürich"), "Lisbon", ['final answer does not mention "Zürich"']),
]


@pytest.mark.parametrize("rule, text, problems", TEXT_PROBLEMS, ids=[f"rule-{i}" for i in range(len(TEXT_PROBLEMS))])
def test_text_problems(rule, text, problems):
    assert text_problems(rule, text, MOCKS) == problems


# A number from a mock result is compared as a number: a different number that merely starts
# with the same digits does not state it, and "12.50" does.
@pytest.mark.parametrize("mocks, text, problems", [
    ({"lookup": {"total": 1250.0}}, "Your balance is 1250.75 EUR.",
     ['final answer does not mention "1250" (from lookup.total)']),
    ({"lookup": {"total": 12.5}}, "It costs $12.50.", []),
])
def test_numeric_results_compare_as_numbers(mocks, text, problems):
    assert text_problems(rules({"result": "lookup.total"}), text, mocks) == problems
