"""running/settings.py's one table of run-setting bounds and its check: every edge at, just inside
and just outside, values that are not numbers, and the phrases both edges build their lines from."""
from __future__ import annotations

import math

import pytest

from toolproof.running.settings import BOUNDS, Bound, Problem, check_value, checked


def _step(bound: Bound, value, up: bool):
    """The next value a setting of this kind can take past `value`."""
    if bound.whole:
        return value + (1 if up else -1)
    return math.nextafter(value, math.inf if up else -math.inf)


EDGES = [(name, edge) for name, bound in BOUNDS.items() for edge in ("low", "high") if getattr(bound, edge) is not None]


@pytest.mark.parametrize("name, edge", EDGES)
def test_every_edge_is_taken_and_the_next_value_past_it_refused(name, edge):
    bound = BOUNDS[name]
    at = getattr(bound, edge)
    inside, outside = _step(bound, at, edge == "low"), _step(bound, at, edge == "high")
    assert check_value(name, at) == (at, None)
    assert check_value(name, inside) == (inside, None)
    value, problem = check_value(name, outside)
    assert value is None and problem == Problem(name, bound, outside)


@pytest.mark.parametrize("name, edge", [(n, e) for n, e in EDGES if BOUNDS[n].kind != "count"])   # a count is never typed
def test_a_text_at_an_edge_gets_the_verdict_of_the_number(name, edge):
    bound = BOUNDS[name]
    at = getattr(bound, edge)
    outside = _step(bound, at, edge == "high")
    assert check_value(name, repr(at)) == (at, None)
    assert check_value(name, repr(outside))[1] == Problem(name, bound, repr(outside))


def test_the_table_states_each_bound_once():
    assert {name: (b.kind, b.low, b.high, b.unit, b.optional) for name, b in BOUNDS.items()} == {
        "cap": ("int", 1, None, "", False),
        "timeout_s": ("float", 0.1, 3600, "seconds", False),
        "max_tokens": ("int", 1, 1_000_000, "", False),
        "repeats": ("int", 1, 20, "", False),
        "concurrency": ("int", 1, 16, "", False),
        "temperature": ("float", 0, 2, "", True),
        "seed": ("int", 0, 2 ** 31 - 1, "", True),
        "pad_seed": ("int", 0, 2 ** 53 - 1, "", False),      # JavaScript's Number.MAX_SAFE_INTEGER
        "headers": ("count", 0, 32, "", False),
        "pause_s": ("float", 0, 60, "seconds", False),
    }


@pytest.mark.parametrize("raw", [math.nan, math.inf, -math.inf, "nan", "inf", "-inf", "1e309", True, False,
                                 "", "  ", "ten", "0x10", "5 requests", None, [5], {"v": 5}, b"5", pytest.param(10 ** 5000, id="10**5000"),
                                 pytest.param(-10 ** 5000, id="-10**5000"), "9" * 101])
def test_what_is_not_a_number_in_bounds_is_refused_for_every_setting(raw):
    for name, bound in BOUNDS.items():
        if bound.optional and (raw is None or isinstance(raw, str) and not raw.strip()):
            assert check_value(name, raw) == (None, None)       # blank: not sent
        elif name == "cap" and isinstance(raw, int) and raw > 1:
            assert check_value(name, raw)[0] == raw             # no upper edge but the run's need
        else:
            assert check_value(name, raw) == (None, Problem(name, bound, raw)), name


@pytest.mark.parametrize("name, raw, value", [
    ("repeats", " 5 ", 5), ("repeats", "+5", 5), ("repeats", "1_0", 10), ("repeats", 5.0, 5),
    ("timeout_s", "1e-1", 0.1), ("timeout_s", 45, 45.0), ("temperature", "0", 0.0), ("seed", " 7", 7),
    ("pad_seed", str(2 ** 53 - 1), 2 ** 53 - 1),
])
def test_a_value_in_bounds_comes_back_as_its_kind(name, raw, value):
    got, problem = check_value(name, raw)
    assert problem is None and got == value and type(got) is type(value)


@pytest.mark.parametrize("name, raw", [("repeats", "2.0"), ("repeats", "1e1"), ("repeats", 2.5),
                                       ("pad_seed", str(2 ** 53)), ("pad_seed", "9007199254740993")])
def test_a_whole_number_is_read_as_the_terminal_reads_it(name, raw):
    # int() as argparse's type=int: "2.0" is no more a whole number in the page than in the terminal,
    # and 2**53 + 1 is never read through a float (which would make it 2**53)
    assert check_value(name, raw) == (None, Problem(name, BOUNDS[name], raw))


def test_a_callers_upper_edge_narrows_the_cap():
    assert check_value("cap", 18, high=18) == (18, None)
    assert check_value("cap", 19, high=18) == (None, Problem("cap", BOUNDS["cap"], 19, 18))
    assert check_value("cap", 0, high=0)[1] is not None                 # nothing to run: no cap fits
    assert check_value("cap", 10 ** 9) == (10 ** 9, None)               # the terminal lowers it itself
    assert check_value("repeats", 20, high=50) == (20, None)            # never widens the table's


@pytest.mark.parametrize("name, got, high, terminal", [
    ("timeout_s", 0.0, None, "--timeout must be between 0.1 and 3600 seconds, got 0"),
    ("timeout_s", math.nan, None, "--timeout must be between 0.1 and 3600 seconds, got nan"),
    ("repeats", 21, None, "--repeats must be between 1 and 20, got 21"),
    ("pause_s", 1e308, None, "--pause must be between 0 and 60 seconds, got 1e+308"),
    ("pad_seed", 2 ** 63, None, "--pad-seed must be between 0 and 9007199254740991, got 9223372036854775808"),
    ("headers", 33, None, "at most 32 --header flags, got 33"),
    ("cap", 0, None, "--cap must be at least 1, got 0"),
    ("cap", 40, 36, "--cap must be between 1 and 36, got 40"),
    ("repeats", "x" * 50, None, "--repeats must be between 1 and 20, got '" + "x" * 40 + "'"),
    ("repeats", "\x1b[2J", None, "--repeats must be between 1 and 20, got '\\\\x1b[2J'"),
    pytest.param("repeats", 10 ** 5000, None, "--repeats must be between 1 and 20, got a whole number too long to show",
                 id="huge"),
])
def test_the_terminal_line(name, got, high, terminal):
    flag = {"timeout_s": "--timeout", "pause_s": "--pause", "pad_seed": "--pad-seed", "headers": "--header flags"}
    assert Problem(name, BOUNDS[name], got, high).terminal(flag.get(name, f"--{name}")) == terminal


@pytest.mark.parametrize("name, label, note, page", [
    ("timeout_s", "The timeout", "", "The timeout must be a number between 0.1 and 3600 seconds."),
    ("repeats", "Repeats", "", "Repeats must be a whole number between 1 and 20."),
    ("temperature", "The temperature", "", "The temperature must be a number between 0 and 2 (blank: not sent)."),
    ("seed", "The seed", "", "The seed must be a whole number between 0 and 2147483647 (blank: not sent)."),
    ("headers", "extra headers", "", "At most 32 extra headers."),
    ("cap", "The request cap", " here", "The request cap must be a whole number at least 1 here."),
])
def test_the_page_line(name, label, note, page):
    assert Problem(name, BOUNDS[name], "x").page(label, note) == page


def test_checked_reports_the_first_problem_in_the_order_given():
    assert checked({"repeats": 3, "concurrency": 4}) == ({"repeats": 3, "concurrency": 4}, None)
    assert checked({"concurrency": 0, "repeats": 0})[1].name == "concurrency"
    assert checked({"repeats": 0, "concurrency": 0})[1].name == "repeats"
    assert checked({"cap": 9}, high={"cap": 8}) == ({}, Problem("cap", BOUNDS["cap"], 9, 8))
    assert checked({"seed": None, "temperature": ""}) == ({"seed": None, "temperature": None}, None)


def test_an_unknown_setting_is_a_programming_error():
    with pytest.raises(KeyError):
        check_value("timeout", 5)
