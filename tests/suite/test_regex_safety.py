"""Tool patterns that can backtrack without bound are refused; ordinary ones are not (item 13)."""
from __future__ import annotations

import re
import signal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolproof.suite.regex_safety import unsafe_reason

NESTED = "nests a quantifier inside a repeated group (like (a+)+), which can take exponential time"
AMBIGUOUS = "repeats a group whose alternatives can match the same text (like (a|a)*), which can take exponential time"
IN_A_ROW = "has quantifiers in a row that can match the same characters (like \\d+\\d+), which can take polynomial time"

REFUSED = [
    ("^(a+)+$", NESTED), ("(a*)*", NESTED), ("(a|aa)*", NESTED), ("(.*a){20}", NESTED), ("^(\\w+\\s?)*$", NESTED),
    ("(a?)*b", NESTED), ("([a-z]+)*$", NESTED), ("(\\w+)\\1+x", NESTED), ("((ab)*)*c", NESTED),
    ("(a|a)*", AMBIGUOUS), ("(?:x|x)+y", AMBIGUOUS),
    ("\\d+\\d+x", IN_A_ROW), ("\\d*\\d*\\d*x", IN_A_ROW), ("a*a*", IN_A_ROW), (".*.*=.*", IN_A_ROW),
    ("\\d+\\.?\\d*", IN_A_ROW), ("\\d+a*\\d+", IN_A_ROW), ("(?i)[a-z]+[A-Z]+", IN_A_ROW),
    ("^\\d+\\d+\\d+x", IN_A_ROW), ("(?m)^\\d+\\d+x", IN_A_ROW), ("[^@\\s]+@[^@\\s]+\\.[^@\\s]+$", IN_A_ROW),
    ("x" * 1001, "is longer than 1000 characters"),
    ("(" * 200 + ")" * 200, None),        # deep but harmless: accepted or refused, never a crash
]
ACCEPTED = [
    "^\\d{4}-\\d{2}-\\d{2}$", "^[0-9]{4}-[0-1][0-9]-[0-3][0-9]$", "^[a-z0-9]+(-[a-z0-9]+)*$",
    "(\\d{1,3}\\.){3}\\d{1,3}", "^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$", "^\\+?[1-9]\\d{1,14}$", "^ORD-[0-9]{6}$",
    "^(?=.*[A-Z])(?=.*\\d).{8,}$", "^\\d+(\\.\\d+)?$", "^[A-Z]+[0-9]+$", "^(ab|cd)*$", "^[a-z]+(?:_[a-z]+)*$",
    "^\\d{1,3}\\d{1,3}$", "^(?:[01]\\d|2[0-3]):[0-5]\\d$", "^https?://\\S+$", "a++a+", "(?>a+)+b",
    "^#[0-9a-fA-F]{6}$", "^[\\w.+-]+@[\\w-]+\\.[\\w.-]+$", "(ab|a)*c", "^\\d+\\d+x",
]


@pytest.mark.parametrize("pattern, reason", REFUSED)
def test_refused(pattern, reason):
    got = unsafe_reason(pattern)
    if reason is None:
        assert got is None or isinstance(got, str)
    else:
        assert got == reason


@pytest.mark.parametrize("pattern", ACCEPTED)
def test_accepted(pattern):
    assert unsafe_reason(pattern) is None


def test_invalid_patterns_say_so():
    assert unsafe_reason("(x") == "is not a valid regular expression (missing ), unterminated subpattern at position 0)"
    assert unsafe_reason("a{2,1}").startswith("is not a valid regular expression")


# ---- property: what is accepted finishes on hostile text ------------------------------------
# Patterns are drawn from a small grammar over {a, b} that produces every shape above (nesting,
# alternation, runs in a row, anchors). Each accepted one is searched in texts built to make a
# backtracking engine work hardest, at 1,000 characters: at most quadratic work finishes in
# milliseconds, exponential never does. The outcome asserted is "finishes"; the alarm only turns
# a hang into a failure naming the pattern (60 s: no busy machine makes milliseconds into that).
# The growth ratios (300 vs 1,000 characters) are printed by benchmarks/regex_safety.py, never
# asserted: a timing ratio is not a test on a shared machine.
atoms = st.sampled_from(["a", "b", "[ab]", ".", "\\w", "[^b]", "a?"])


def _quantified(inner):
    return st.tuples(inner, st.sampled_from(["", "*", "+", "?", "{1,3}", "{2,}"])).map(lambda t: t[0] + t[1])


patterns = st.recursive(
    _quantified(atoms),
    lambda inner: st.one_of(
        st.lists(inner, min_size=1, max_size=3).map("".join),
        st.tuples(inner, inner).map(lambda t: f"(?:{t[0]}|{t[1]})"),
        _quantified(inner.map(lambda p: f"({p})")),
    ),
    max_leaves=6,
).flatmap(lambda p: st.sampled_from([p, "^" + p, p + "$", "^" + p + "$", p + "c"]))


class _Hung(Exception):
    pass


def _finishes(pattern: re.Pattern, text: str, guard_s: float = 60.0) -> bool:
    def stop(*_):
        raise _Hung
    old = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, guard_s)
    try:
        pattern.search(text)
        return True
    except _Hung:
        return False
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def hostile_texts(n: int) -> list[str]:
    return ["a" * n + "!", "ab" * (n // 2) + "!", "a" * (n - 1) + "b", "b" * n + "!"]


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True, database=None)
@given(pattern=patterns)
def test_accepted_patterns_finish_on_hostile_text(pattern):
    if unsafe_reason(pattern) is not None:
        return
    compiled = re.compile(pattern)
    for text in hostile_texts(1000):
        assert _finishes(compiled, text), f"{pattern!r} was accepted but did not finish on {len(text)} characters"


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(pattern=patterns)
def test_the_check_never_raises(pattern):
    reason = unsafe_reason(pattern)
    assert reason is None or isinstance(reason, str)
