"""The closed expression set (toolproof/worlds/exprs.py): each operator's value, the world's
equality, what cannot be computed (EvalError, never a Python error), the load-time check of
forms, ops, arity and depth, and templates."""
from __future__ import annotations

import pytest

from toolproof.worlds.exprs import MAX_DEPTH, EvalError, Problem, Scope, check, evaluate, same, text_of
from toolproof.worlds.templates import render, template_names


def scope(**args) -> Scope:
    s = Scope(args, "2026-03-14", lets={"fee": 2.5, "total": {"op": "+", "args": [{"arg": "amount"}, {"ref": "fee"}]}})
    s.names["src"] = {"id": "ACC-1", "balance": 100.0, "tags": ["a", "b"], "owner": {"name": "Ana"}}
    return s


def op(name: str, *args):
    return {"op": name, "args": list(args)}


@pytest.mark.parametrize("expr, value", [
    (op("+", 1, 2, 3), 6),
    (op("+", 0.1, 0.2), 0.3),                      # rounded to 9 decimals: money reckons so
    (op("-", 5), -5),
    (op("-", 10, 2.5), 7.5),
    (op("*", 3, 4), 12),
    (op("/", 7, 2), 3.5),
    (op("round", 2.345, 2), 2.35),
    (op("round", 2.5), 2),                         # banker's rounding, Python's: documented
    (op("min", 3, 1, 2), 1),
    (op("max", [3, 9, 2]), 9),                     # min/max/+ of one list: over its items
    (op("abs", -4), 4),
    (op("concat", "a", 1, "b"), "a1b"),
    (op("concat", [1], [2, 3]), [1, 2, 3]),
    (op("lower", "AbC"), "abc"),
    (op("upper", "abc"), "ABC"),
    (op("len", "abcd"), 4),
    (op("len", [1, 2]), 2),
    (op("==", " Lisbon ", "lisbon"), True),        # texts trimmed and case-folded
    (op("==", 1, 1.0), True),
    (op("==", 1, True), False),                    # a boolean only equals a boolean
    (op("==", "1", 1), False),
    (op("!=", "a", "b"), True),
    (op("<", 1, 2), True),
    (op(">=", "2026-03-14", "2026-03-01"), True),  # ISO dates order as texts
    (op("and", True, 1, "x"), "x"),
    (op("and", True, 0, {"op": "/", "args": [1, 0]}), 0),   # short-circuits: the division never runs
    (op("or", 0, None, "y"), "y"),
    (op("not", []), True),
    (op("in", "b", ["a", "B"]), True),
    (op("in", "bon", "Lisbon"), True),
    (op("if", True, "yes", {"op": "/", "args": [1, 0]}), "yes"),
    (op("days_between", "2026-03-01", "2026-03-14"), 13),
    (op("add_days", "2026-02-27", 3), "2026-03-02"),
    (op("add_days", "2026-03-14T10:00", -14), "2026-02-28"),
    (op("coalesce", None, {"arg": "absent"}, 7), 7),
    ({"arg": "amount"}, 10),
    ({"arg": "nested.city"}, "Porto"),
    ({"arg": "absent"}, None),
    ({"ref": "src.balance"}, 100.0),
    ({"ref": "src.tags.1"}, "b"),
    ({"ref": "src.owner.name"}, "Ana"),
    ({"ref": "src.nothing"}, None),
    ({"ref": "total"}, 12.5),                      # a let, computed on first use from another let
    ({"world": "today"}, "2026-03-14"),
    ([1, {"arg": "amount"}], [1, 10]),
    (None, None),
])
def test_each_form_and_operator_has_its_value(expr, value):
    got = evaluate(expr, scope(amount=10, nested={"city": "Porto"}))
    assert got == value and type(got) is type(value)


@pytest.mark.parametrize("expr, reason", [
    (op("+", 1, "a"), "+ needs numbers, not a text"),
    (op("+", 1, None), "+ needs numbers, not null"),
    (op("/", 1, 0), "division by zero"),
    (op("<", 1, "a"), "< compares two numbers or two texts, not a number and a text"),
    (op("lower", 3), "lower needs a text, not a number"),
    (op("len", 3), "len needs a text or a list, not a number"),
    (op("in", 1, 2), "in looks inside a list or a text, not a number"),
    (op("days_between", "2026-02-30", "2026-03-01"), "not a date written YYYY-MM-DD: '2026-02-30'"),
    (op("add_days", "2026-03-01", 1.5), "add_days takes a whole number of days (at most 100,000)"),
    (op("add_days", "9999-12-31", 1), "add_days goes past the calendar"),
    (op("round", 1.5, 40), "round takes a number and 0 to 12 digits"),
    (op("*", 10 ** 200, 10 ** 200), "a computed number is too large"),
    (op("*", 1e200, 1e200), "a computed number is out of range"),
    (op("min", []), "min of an empty list"),
    ({"new_id": "TR-"}, "new_id is only computed inside an insert or an update"),
])
def test_what_cannot_be_computed_is_an_eval_error(expr, reason):
    with pytest.raises(EvalError) as caught:
        evaluate(expr, scope())
    assert caught.value.reason == reason


def test_a_concat_that_would_grow_without_bound_is_refused():
    big = "x" * 60_000
    with pytest.raises(EvalError, match="more than 100,000"):
        evaluate(op("concat", big, big), scope())


@pytest.mark.parametrize("a, b, equal", [
    ("ACC-1", " acc-1 ", True), ("Straße", "STRASSE", True), (1, 1.0, True), (True, 1, False),
    (None, None, True), (None, "", False), ([1, "A"], [1.0, "a"], True), ({"a": "X"}, {"a": "x"}, True),
    ({"a": 1}, {"b": 1}, False), ([1], [1, 2], False),
])
def test_the_worlds_equality(a, b, equal):
    assert same(a, b) is equal and same(b, a) is equal


@pytest.mark.parametrize("expr, place, reason", [
    ({"op": "pow", "args": [2, 3]}, ["op"], "unknown op 'pow'"),
    ({"op": "+", "args": 3}, ["args"], "args must be a list of expressions"),
    ({"op": "not", "args": [1, 2]}, ["args"], "not takes 1 args, not 2"),
    ({"op": "if", "args": [1]}, ["args"], "if takes 3 args, not 1"),
    ({"op": "-", "args": []}, ["args"], "- takes 1 to 2 args, not 0"),
    ({"arg": "a", "ref": "b"}, [], "not an expression"),
    ({"regex": ".*"}, [], "not an expression"),
    ({"world": "now"}, ["world"], "unknown world value 'now'"),
    ({"arg": "a b"}, ["arg"], "arg takes a name or a dotted path"),
    ({"ref": 3}, ["ref"], "ref takes a name or a dotted path"),
    ({"new_id": ""}, ["new_id"], "new_id takes a prefix"),
    ([1, {"op": "+", "args": [1, {"op": "?", "args": []}]}], [1, "args", 1, "op"], "unknown op '?'"),
])
def test_check_refuses_what_is_not_in_the_closed_set_naming_the_place(expr, place, reason):
    with pytest.raises(Problem) as caught:
        check(expr, [])
    assert caught.value.place == place and caught.value.reason.startswith(reason)


def test_check_refuses_a_form_where_it_means_nothing():
    with pytest.raises(Problem) as caught:
        check({"op": "+", "args": [{"row": "balance"}, 1]}, ["lets", "x"], allow=("arg", "ref"))
    assert caught.value.place == ["lets", "x", "args", 0]
    assert "row" in caught.value.reason


def test_check_counts_nodes_and_collects_refs():
    nodes, refs, depth = check(op("+", {"ref": "a.b"}, op("-", {"ref": "c"}, 1)), ["x"])
    assert (nodes, depth) == (5, 3)          # +, a.b, -, c, 1; + holds - holds c
    assert sorted(name for _, name in refs) == ["a.b", "c"]
    assert (["x", "args", 0, "ref"], "a.b") in refs


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 100_000])
def test_check_refuses_a_deep_expression_without_recursion(depth):
    expr: object = 1
    for _ in range(depth):
        expr = {"op": "abs", "args": [expr]}
    with pytest.raises(Problem, match=f"deeper than {MAX_DEPTH} levels"):
        check(expr, [])


def test_an_expression_at_the_depth_bound_is_checked_and_evaluated():
    expr: object = -1
    for _ in range(MAX_DEPTH - 1):
        expr = {"op": "abs", "args": [expr]}
    check(expr, [])
    assert evaluate(expr, scope()) == 1


def test_templates_substitute_names_only():
    s = scope(account="ACC-9", amount=3)
    assert template_names("{arg.account} has {src.balance} {x.y} {{no}} {0} {a!r}") == ["arg.account", "src.balance", "x.y", "no"]
    assert render("account {arg.account}: {src.balance} EUR, fee {fee}, {arg.absent}, {src.tags}", s) == \
        'account ACC-9: 100 EUR, fee 2.5, null, ["a", "b"]'
    assert render("{src.balance:>10} {arg.account!r} {__class__}", s) == "{src.balance:>10} {arg.account!r} null"


@pytest.mark.parametrize("value, shown", [(1250.0, "1250"), (0.5, "0.5"), (True, "true"), (None, "null"),
                                          ("x", "x"), ({"a": 1}, '{"a": 1}'), (7, "7")])
def test_text_of(value, shown):
    assert text_of(value) == shown
