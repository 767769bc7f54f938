"""The one total reader: every limit has an exact message, nothing but ReadError escapes, values
handed in are walked by the same limits, and the cost stays linear (ratios within one run).

The limits are where the issue's crashes came from: a 5,000-digit integer (ValueError from
int()), a 309-digit one (OverflowError in float comparisons), NaN, and a body 10,000 deep
(RecursionError in json).
"""
from __future__ import annotations

import json
import math
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clirun import cli
from toolproof import limits
from toolproof.limits import MAX_BYTES, MAX_DEPTH, ReadError, check_value, read_json


def refusal(text, **kw) -> str:
    with pytest.raises(ReadError) as exc:
        read_json(text, **kw)
    return exc.value.reason


def walk_refusal(value, **kw) -> str:
    with pytest.raises(ReadError) as exc:
        check_value(value, **kw)
    return exc.value.reason


def nested(depth: int, inner: str = "1") -> str:
    return "[" * depth + inner + "]" * depth


# (text, reason): each limit at and past its edge, and the hostile shapes of the issue
REFUSED = [
    (nested(MAX_DEPTH + 1), "body nested deeper than 64 levels"),
    (nested(10_000), "body nested deeper than 64 levels"),
    ("[" * 100_000, "body nested deeper than 64 levels"),                 # never closed
    ('{"a":' * 65 + "1" + "}" * 65, "body nested deeper than 64 levels"),
    ("1" * 301, "integer with more than 300 digits"),
    ("-" + "1" * 301, "integer with more than 300 digits"),
    ('{"n": ' + "9" * 5000 + "}", "integer with more than 300 digits"),
    ('{"n": ' + "9" * 309 + "}", "integer with more than 300 digits"),
    ("[NaN]", "NaN is not JSON"),
    ('{"x": Infinity}', "Infinity is not JSON"),
    ("-Infinity", "-Infinity is not JSON"),
    ("1e999", "number 1e999 is out of range"),
    ("-1" + "0" * 400 + ".5", "number -1000000000000000000… (384 more) is out of range"),
    ('"\\ud800"', "string with a lone surrogate (not Unicode text)"),
    ('{"\\udfff": 1}', "string with a lone surrogate (not Unicode text)"),
    (b"\xff\xfe{}", "body is not UTF-8 (byte 0)"),
    ("{'a': 1}", "not valid JSON (Expecting property name enclosed in double quotes at char 1)"),
    ('{"a": "[[[[', "not valid JSON (Unterminated string starting at at char 6)"),
]


@pytest.mark.parametrize("text, reason", REFUSED, ids=[f"refused-{i}" for i in range(len(REFUSED))])
def test_refused_with_its_reason(text, reason):
    assert refusal(text) == reason


@pytest.mark.parametrize("text, value", [
    (nested(MAX_DEPTH, "[]")[1:-1], None),          # exactly 64 levels
    ("9" * 300, int("9" * 300)),
    ("-" + "9" * 300, -int("9" * 300)),
    ("1e308", 1e308),
    ('"\\ud83d\\ude00"', "\U0001F600"),              # a surrogate pair is one character
    ('{"a": "[[[[{{{{"}', {"a": "[[[[{{{{"}),       # brackets inside strings do not count
    ('{"a": "\\"[[[["}', {"a": '"[[[['}),
])
def test_accepted_at_the_edge(text, value):
    got = read_json(text)
    if value is not None:
        assert got == value and type(got) is type(value)


def test_the_what_names_the_input():
    assert refusal(nested(65), what="arguments") == "arguments nested deeper than 64 levels"
    assert refusal("[" + " " * 2_000_000 + "]", what="file", max_bytes=2_000_000) == "file larger than 2 MB"


@pytest.mark.parametrize("size, line", [
    (20_000_000, ""),                                              # at the bound: taken
    (20_000_001, "20,000,001 bytes, over the 20 MB limit"),       # never "20.0 MB, over the 20 MB limit"
    (20_099_999, "20,099,999 bytes, over the 20 MB limit"),
    (20_100_000, "20.1 MB, over the 20 MB limit"),
    (21_345_678, "21.3 MB, over the 20 MB limit"),
    (10 ** 12, "1000000.0 MB, over the 20 MB limit"),
])
def test_a_size_refusal_names_the_size_and_the_limit(size, line):
    assert limits.size_refusal(size) == line


def test_a_size_refusal_takes_another_limit():
    assert limits.size_refusal(6_000_000, 5_000_000) == "6.0 MB, over the 5 MB limit"


def test_a_body_over_5_mb_is_refused_before_parsing():
    text = '"' + "a" * MAX_BYTES + '"'
    assert refusal(text) == "body larger than 5 MB"
    assert refusal(text.encode()) == "body larger than 5 MB"
    # multi-byte characters count as their UTF-8 size, not as characters
    assert refusal('"' + "é" * (MAX_BYTES // 2 + 1) + '"') == "body larger than 5 MB"


def test_non_text_is_refused():
    assert refusal(12) == "body is not text"


# ---- values parsed by someone else -----------------------------------------------------------

class Sneaky(str):
    """A str subclass (e.g. from a JS conversion): comes back as a plain str."""


def test_a_value_is_copied_into_plain_types():
    got = check_value({"a": (Sneaky("x"), 1, 2.5, None, True)})
    assert got == {"a": ["x", 1, 2.5, None, True]}
    assert type(got["a"][0]) is str and type(got["a"]) is list


def deep_list(depth: int) -> list:
    value: list = []
    for _ in range(depth - 1):
        value = [value]
    return value


def test_a_self_containing_value_is_too_deep_not_a_hang():
    loop: dict = {}
    loop["again"] = loop
    assert walk_refusal(loop, what="arguments") == "arguments nested deeper than 64 levels"


@pytest.mark.parametrize("value, reason", [
    (deep_list(65), "value nested deeper than 64 levels"),
    (deep_list(100_000), "value nested deeper than 64 levels"),
    ({"n": 10 ** 300}, "integer with more than 300 digits"),
    ({"n": -(10 ** 5000)}, "integer with more than 300 digits"),
    ([math.nan], "NaN is not JSON"),
    ([-math.inf], "-Infinity is not JSON"),
    ({1: "a"}, "value has a key that is not a string (int)"),
    ({"s": {1, 2}}, "value holds a set, which is not JSON"),
    (["\ud800"], "string with a lone surrogate (not Unicode text)"),
])
def test_a_value_past_a_limit_is_refused(value, reason):
    assert walk_refusal(value) == reason


def test_a_value_at_the_edge_is_accepted():
    assert check_value(deep_list(64)) == deep_list(64)
    assert check_value([10 ** 300 - 1]) == [10 ** 300 - 1]


def test_a_huge_value_is_refused_by_size():
    assert walk_refusal(["a" * 1000] * 6000) == "value larger than 5 MB"


# ---- properties ------------------------------------------------------------------------------

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-10 ** 30, max_value=10 ** 30)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=30)


@settings(max_examples=200, deadline=None)
@given(JSON_VALUES)
def test_any_json_within_the_limits_reads_as_json_loads_does(value):
    text = json.dumps(value)
    assert read_json(text) == json.loads(text)
    assert check_value(value) == json.loads(text)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet='[]{}",:\\0123456789eE.-+ NaIfinityul\x00\ud800', max_size=200))
def test_any_text_reads_or_is_refused_with_a_read_error(text):
    try:
        read_json(text)
    except ReadError as exc:
        assert exc.reason and "\n" not in exc.reason


# ---- hostile shapes at size (their cost ratios: benchmarks/linear_cost.py, never asserted) --

@pytest.mark.parametrize("unit", ["[", "[1,", '"[",', '{"a":', "1" * 299 + ","])
def test_large_hostile_text_is_read_or_refused_in_one_line(unit):
    # wrapped in an array, so the valid shapes ('"[",', numbers) are parsed to the end
    text = "[" + unit * (1_280_000 // len(unit)) + "1]"
    try:
        value = read_json(text)
    except ReadError as exc:
        assert exc.reason and "\n" not in exc.reason
    else:
        assert isinstance(value, list) and value[-1] == 1


# ---- where the reader is used: a live run's bodies and the three input files -----------------

HOSTILE_BODIES = [
    ("[" * 10_000 + "]" * 10_000, "the response body is unreadable (body nested deeper than 64 levels)"),
    ('{"choices": [{"message": {"content": "x"}}], "n": ' + "9" * 5000 + "}",
     "the response body is unreadable (integer with more than 300 digits)"),
    ('{"choices": NaN}', "the response body is unreadable (NaN is not JSON)"),
    ('"' + "a" * (MAX_BYTES + 1) + '"', "the response body is unreadable (body larger than 5 MB)"),
    ("<html>", "the response body is not valid JSON"),
]


@pytest.mark.parametrize("text, message", HOSTILE_BODIES, ids=[f"body-{i}" for i in range(len(HOSTILE_BODIES))])
def test_a_hostile_body_errs_its_case_and_the_run_goes_on(bundle, text, message):
    import asyncio

    from toolproof.running.runner import Run, RunSettings
    from toolproof.running.transport import HttpReply

    answers = iter([text])

    async def transport(url, headers, body, timeout):
        # the first request gets the hostile body; the next case a plain text answer
        hostile = next(answers, None)
        return HttpReply(200, {}, hostile if hostile is not None else json.dumps(
            {"choices": [{"message": {"content": "Done."}, "finish_reason": "stop"}]}), 1.0)

    cases = [c for c in bundle.cases if c.category == "should_call"][:2]
    run = Run(cases, bundle.tools, RunSettings("openai", "m", "k", "", "all", 10, pause_s=0), transport)
    asyncio.run(run.run())
    assert run.state == "done" and len(run.results) == 2
    assert run.transcripts[0]["turns"][0]["error"] == {"status": 200, "message": message}
    # an unreadable body is a failed request, kept apart from model failures (ERROR, issue 9)
    assert run.results[0].verdict == "ERROR"
    assert run.results[0].reasons == [f"turn 1: request failed (HTTP 200: {message})"]


@pytest.mark.parametrize("flag", ["--tools", "--suite", "--transcripts"])
@pytest.mark.parametrize("text, reason", [
    ("[" * 10_000 + "]" * 10_000, "file nested deeper than 64 levels"),
    ('{"format": ' + "1" * 5000 + "}", "integer with more than 300 digits"),
    ('{"format": NaN}', "NaN is not JSON"),
])
def test_grade_refuses_a_hostile_input_file_with_one_line(tmp_path, flag, text, reason):
    path = tmp_path / "hostile.json"
    path.write_text(text, encoding="utf-8")
    assert cli("grade", flag, str(path)) == (2, "", f"toolproof: {path}: {reason}\n")


@pytest.mark.parametrize("flag", ["--tools", "--suite", "--transcripts"])
def test_grade_refuses_a_fifo_and_a_device_at_once(tmp_path, flag):
    import os

    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    assert cli("grade", flag, str(fifo)) == (2, "", f"toolproof: {fifo}: not a regular file (a FIFO)\n")
    assert cli("grade", flag, "/dev/zero") == (2, "", "toolproof: /dev/zero: not a regular file (a device)\n")
    assert cli("grade", flag, str(tmp_path)) == (2, "", f"toolproof: {tmp_path}: not a regular file (a directory)\n")


@pytest.mark.parametrize("value, schema", [
    ("9" * 5000, {"type": "integer"}),        # int() itself refuses past 4,300 digits
    ("1" * 301, {"type": "integer"}),
    ("1e999", {"type": "number"}),
    ("[" * 3000 + "]" * 3000, {"type": "array"}),
    ("[NaN]", {"type": "array"}),
    ('{"a": ' + "9" * 400 + "}", {"type": "object"}),
])
def test_the_lenient_cast_reads_within_the_limits(value, schema):
    # A string the cast cannot read within the limits stays a string (and fails the schema).
    from toolproof.grading.normalize import cast_lenient

    parameters = {"type": "object", "properties": {"x": schema}}
    assert cast_lenient({"x": value}, parameters) == {"x": value}


def test_the_lenient_cast_still_casts_ordinary_strings():
    from toolproof.grading.normalize import cast_lenient

    parameters = {"type": "object", "properties": {"n": {"type": "integer"}, "xs": {"type": "array"}}}
    assert cast_lenient({"n": "9" * 300, "xs": '["a"]'}, parameters) == {"n": int("9" * 300), "xs": ["a"]}


def test_a_refusal_line_quoting_a_hostile_file_is_escaped(tmp_path):
    path = tmp_path / "evil\x1b[2J\u202e.json"
    path.write_text("[NaN]", encoding="utf-8")
    code, out, err = cli("grade", "--tools", str(path))
    assert (code, out) == (2, "")
    assert err == f"toolproof: {tmp_path}/evil\\x1b[2J\\u202e.json: NaN is not JSON\n"
