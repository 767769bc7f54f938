"""Property-based fuzzing of everything that reads what a model, a server or a file sends.

Hypothesis throws random and hostile bodies, arguments and files (too deep, huge integers,
NaN and Infinity, control characters, lone surrogates, wrong types at every level, the shapes
of issue 8) at the provider readers, the grader (`grade_case` unguarded, and `evaluate`), the
renderers and the file readers, and checks that
- nothing raises (and no case needs the "internal error" guard: the guard is for bugs);
- the JSON output is strict: it parses back with NaN/Infinity refused, and round-trips;
- text and Markdown output carry no control characters;
- hostile replies of 160 KB (the shapes that were quadratic once) grade to a verdict; their cost
  ratios (16x the input) are printed by benchmarks/linear_cost.py, never asserted here.

Budget: each property has a fixed `max_examples` (below); the whole module stays under a minute
on a shared 2-core machine. Raise the numbers locally to fuzz harder.
"""
from __future__ import annotations

import io
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import SUITE_DOC, TOOLS_DOC
from toolproof.cli.main import run as cli_run
from toolproof.scoring.evaluate import evaluate
from toolproof.grading.grade import grade_case
from toolproof.limits import ReadError, check_value, read_json
from toolproof.providers.anthropic import reply_from_anthropic
from toolproof.providers.dispatch import PROVIDERS, reply_from_body, trim_body
from toolproof.providers.trimming import counted
from toolproof.providers.openai import reply_from_openai
from toolproof.providers.reply import Reply, arguments_from_json
from toolproof.reports.scorecard import render_markdown, render_text, to_json
from toolproof.grading.transcripts import TranscriptSet, make_transcript

MAX_EXAMPLES = {"readers": 150, "grader": 80, "fields": 120, "files": 40, "linear": 6}
FUZZ = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                                      HealthCheck.function_scoped_fixture])

# ---- hostile pieces ---------------------------------------------------------------------------

NASTY_TEXT = ["\x1b[2J\x1b[31m", "\r\n", "\u202e\u2066", "\x9b", "\x00", "\ud800", "\udfff", "<script>",
              "| x |", "sk-" + "proj-" + "FAKE" * 8, "eyJ-" * 50, "é" * 3, "ORD-123456", ""]
TOOL_NAMES = ["place_order", "lookup", "refund", "send_mail", "", "nope", "\x1b[2J"]
HOSTILE_JSON_TEXT = [
    "[" * 10_000 + "]" * 10_000, "{" * 5_000, '{"a":' * 100 + "1" + "}" * 100,
    '{"qty": ' + "9" * 5000 + "}", '{"qty": ' + "9" * 309 + "}", '{"qty": -' + "1" * 301 + "}",
    '{"qty": NaN}', '{"qty": Infinity}', '{"qty": -Infinity}', '{"qty": 1e999}',
    '{"note": "\\ud800"}', '{"note": "\\u001b[2J"}', "", "   ", "null", "[]", '"str"', "{", "}{",
    '{"order_id": "ORD-123456", "qty": 2}', '{"order_id": "ORD-123456", "qty": 2.0}',
]


def deep(depth: int, leaf=1):
    value = leaf
    for i in range(depth):
        value = [value] if i % 2 else {"k": value}
    return value


SCALARS = st.one_of(
    st.none(), st.booleans(),
    st.integers(), st.sampled_from([10 ** 300 - 1, 10 ** 300, -(10 ** 309), 2 ** 64]),
    st.integers(4400, 6000).map(lambda digits: 10 ** digits),     # past int()'s own 4300-digit limit
    st.floats(),                                      # NaN and +-Infinity included
    st.text(max_size=12), st.sampled_from(NASTY_TEXT),
)
VALUES = st.one_of(
    st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=3)
                 | st.dictionaries(st.text(max_size=6) | st.sampled_from(NASTY_TEXT), inner, max_size=3),
                 max_leaves=12),
    st.integers(55, 140).map(deep),
    st.sampled_from([(1, 2), {1, 2}, b"bytes", object()]),       # not JSON at all
)


def either(good, bad=VALUES):
    """The right shape most of the time, a wrong value sometimes: wrong types at every level."""
    return st.one_of(good, good, good, bad)


ARGUMENT_TEXT = st.one_of(
    st.sampled_from(HOSTILE_JSON_TEXT),
    VALUES.map(lambda v: json.dumps(v, default=repr) if _dumpable(v) else "{}"),
    st.text(alphabet='[]{}",:0123456789eE.-+ NaIfinty\\u\x1b', max_size=60),
)


def _dumpable(value) -> bool:
    try:
        json.dumps(value, default=repr)
        return True
    except (ValueError, RecursionError, TypeError):
        return False


@st.composite
def openai_bodies(draw):
    calls = draw(st.lists(either(st.fixed_dictionaries({
        "id": either(st.sampled_from(["call_1", "call_2"])),
        "type": st.just("function"),
        "function": either(st.fixed_dictionaries({
            "name": either(st.sampled_from(TOOL_NAMES)),
            "arguments": st.one_of(ARGUMENT_TEXT, ARGUMENT_TEXT, VALUES)})),
    })), max_size=3))
    message = draw(either(st.fixed_dictionaries({
        "role": st.just("assistant"),
        "content": either(st.one_of(st.none(), st.sampled_from(NASTY_TEXT), st.text(max_size=30))),
        "tool_calls": either(st.just(calls))})))
    choice = draw(either(st.fixed_dictionaries({
        "message": st.just(message), "finish_reason": either(st.sampled_from(["stop", "tool_calls", "length"]))})))
    return draw(either(st.fixed_dictionaries({
        "choices": either(st.just([choice])),
        "usage": either(st.fixed_dictionaries({"prompt_tokens": either(st.integers(0, 10 ** 6)),
                                               "completion_tokens": either(st.integers(0, 10 ** 6))}))})))


@st.composite
def anthropic_bodies(draw):
    blocks = draw(st.lists(either(st.one_of(
        st.fixed_dictionaries({"type": st.just("tool_use"), "id": either(st.just("toolu_1")),
                               "name": either(st.sampled_from(TOOL_NAMES)),
                               "input": either(st.just({"order_id": "ORD-123456", "qty": 2}))}),
        st.fixed_dictionaries({"type": st.just("text"),
                               "text": either(st.one_of(st.sampled_from(NASTY_TEXT), st.text(max_size=30)))}),
    )), max_size=3))
    return draw(either(st.fixed_dictionaries({
        "content": either(st.just(blocks)),
        "stop_reason": either(st.sampled_from(["end_turn", "tool_use", "max_tokens"]))})))


TURNS = st.one_of(
    openai_bodies().map(lambda b: ("openai", b)),
    anthropic_bodies().map(lambda b: ("anthropic", b)),
)
ERROR_TURN = st.fixed_dictionaries({"error": st.fixed_dictionaries({
    "status": st.one_of(st.none(), st.integers(-10 ** 30, 10 ** 30)),
    "message": st.one_of(st.sampled_from(NASTY_TEXT), st.text(max_size=20))})})


# ---- checks -----------------------------------------------------------------------------------

def _refuse(name):
    raise AssertionError(f"non-strict JSON constant {name}")


def assert_strict_json(text: str) -> None:
    back = json.loads(text, parse_constant=_refuse)
    assert json.loads(to_json(back), parse_constant=_refuse) == back


def assert_printable(text: str) -> None:
    bad = [c for c in text if c != "\n" and (ord(c) < 0x20 or 0x7f <= ord(c) <= 0x9f
                                              or c in "\u061c\u200e\u200f\u2028\u2029"
                                              or 0x202a <= ord(c) <= 0x202e or 0x2066 <= ord(c) <= 0x2069
                                              or 0xd800 <= ord(c) <= 0xdfff)]
    assert not bad, bad[:5]


def assert_no_internal_error(card: dict) -> None:
    reasons = [r for c in card["cases"] for r in c["reasons"]] + card.get("notes", [])
    assert not [r for r in reasons if "internal error" in r], reasons


# ---- the readers ------------------------------------------------------------------------------

@settings(FUZZ, max_examples=MAX_EXAMPLES["readers"])
@given(st.one_of(openai_bodies(), anthropic_bodies(), VALUES))
def test_provider_readers_never_raise(body):
    for reply in (reply_from_openai(body), reply_from_anthropic(body), reply_from_body("openai", body)):
        assert isinstance(reply, Reply)
        assert reply.malformed is None or (isinstance(reply.malformed, str) and reply.malformed)
        for call in reply.calls:
            assert call.arguments is None or isinstance(call.arguments, dict)
            assert (call.arguments is None) == (call.parse_error is not None)
            assert isinstance(call.raw_arguments, str)
            if call.arguments is not None:
                check_value(call.arguments)                # within the limits, plain JSON
                json.dumps(call.arguments, allow_nan=False)


@settings(FUZZ, max_examples=MAX_EXAMPLES["readers"])
@given(st.one_of(openai_bodies(), anthropic_bodies(), VALUES))
def test_trimming_never_raises_and_keeps_what_is_read(body):
    # what a run keeps of a body (providers/trimming.py): never a crash, whatever the body holds;
    # and where the whole body reads, the kept one reads the same with its counts added back
    for provider in PROVIDERS:
        kept, dropped = trim_body(provider, body)
        assert isinstance(dropped, dict) and all(isinstance(n, int) and n > 0 for n in dropped.values())
        if provider in ("openai", "anthropic") and reply_from_body(provider, body).malformed is None:
            assert counted(reply_from_body(provider, kept), dropped) == reply_from_body(provider, body)


@settings(FUZZ, max_examples=MAX_EXAMPLES["readers"])
@given(st.one_of(ARGUMENT_TEXT, VALUES))
def test_arguments_reader_never_raises(raw):
    arguments, shown, error = arguments_from_json(raw)
    assert isinstance(shown, str)
    assert (arguments is None) == (error is not None)
    if arguments is not None:
        json.dumps(arguments, allow_nan=False)


@settings(FUZZ, max_examples=MAX_EXAMPLES["readers"])
@given(st.one_of(st.sampled_from(HOSTILE_JSON_TEXT), ARGUMENT_TEXT, st.binary(max_size=40)))
def test_the_reader_raises_only_its_own_error(text):
    try:
        value = read_json(text)
    except ReadError as exc:
        assert exc.reason and "\n" not in exc.reason
        return
    json.dumps(value, allow_nan=False)


# ---- the grader and the outputs ---------------------------------------------------------------

@pytest.fixture(scope="module")
def mini_suite(mini):
    return mini.cases, mini.tools


@settings(FUZZ, max_examples=MAX_EXAMPLES["grader"])
@given(case_id=st.sampled_from([c["id"] for c in SUITE_DOC["cases"]]),
       turns=st.lists(st.one_of(TURNS, ERROR_TURN), min_size=0, max_size=3),
       variant_turns=st.lists(st.one_of(TURNS, ERROR_TURN), max_size=2))
def test_the_grader_and_the_outputs_never_fail(mini_suite, case_id, turns, variant_turns):
    cases, tools = mini_suite
    provider = next((t[0] for t in turns if isinstance(t, tuple)), "openai")

    def as_turns(items):
        return [{"response": t[1]} if isinstance(t, tuple) else t for t in items]
    raw = {"case_id": case_id, "turns": as_turns(turns)}
    case = cases[case_id]
    if case.variants:
        raw["variants"] = [{"id": case.variants[0].id, "turns": as_turns(variant_turns)}]
    transcript = make_transcript(raw, provider, "m")
    result = grade_case(case, tools, transcript)          # unguarded: must not raise by itself
    assert result.verdict in ("PASS", "PARTIAL", "FAIL", "ERROR") and result.reasons
    tset = TranscriptSet("live", "fuzz \x1b[2J", provider, "m\u202e", {case_id: transcript}, {})
    card = evaluate(list(cases.values()), tools, tset)
    assert_no_internal_error(card)
    assert_strict_json(to_json(card))
    for text in (render_text(card), render_markdown(card)):
        assert_printable(text)


# Field values aimed at the lenient cast and the comparison: number texts past int()'s limit or
# a float's range, JSON texts for array and object fields that are deep or hold NaN.
NUMBER_TEXT = ["9" * 5000, "1" * 400, "9" * 299, "1e999", "-1e999", "NaN", "Infinity", " 12 ", "12.0",
               "1_000", "0x10", "+7", ".5", "1e-400"]
JSON_FIELD_TEXT = ["[" * 3000 + "]" * 3000, '{"a":' * 100 + "1" + "}" * 100, "[NaN]", "[" + "9" * 5000 + "]",
                   '[{"x": 1e999}]', '{"\\ud800": 1}', "[]", "{}", '["a", "b"]']
FIELD_VALUES = st.one_of(st.sampled_from(NUMBER_TEXT), st.sampled_from(JSON_FIELD_TEXT), VALUES,
                         st.sampled_from(NASTY_TEXT))
CAST_TYPES = {"integer", "number", "array", "object", "boolean"}


@settings(FUZZ, max_examples=MAX_EXAMPLES["fields"])
@given(data=st.data())
def test_hostile_values_in_the_right_fields_of_the_committed_suite(bundle, data):
    calling = [c for c in bundle.cases if c.expect.action == "call"]
    case = data.draw(st.sampled_from(calling), label="case")
    want = case.expect.calls[0]
    properties = bundle.tools[want.tool].parameters.get("properties", {})
    # fields the lenient cast reads (numbers, arrays, objects) are drawn three times as often
    typed = [n for n, p in sorted(properties.items()) if isinstance(p, dict) and p.get("type") in CAST_TYPES]
    fields = sorted(properties) + typed * 2
    arguments = dict(want.args)
    for name in data.draw(st.lists(st.sampled_from(fields), min_size=1, max_size=3, unique=True), label="fields"):
        arguments[name] = data.draw(FIELD_VALUES, label=name)
    provider = data.draw(st.sampled_from(["openai", "anthropic"]), label="provider")
    if provider == "openai":
        text = json.dumps(arguments, default=repr) if _dumpable(arguments) else "{}"
        first = {"choices": [{"message": {"content": None, "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": want.tool, "arguments": text}}]},
            "finish_reason": "tool_calls"}]}
        second = {"choices": [{"message": {"content": data.draw(st.sampled_from(NASTY_TEXT))}, "finish_reason": "stop"}]}
    else:
        first = {"content": [{"type": "tool_use", "id": "t1", "name": want.tool, "input": arguments}],
                 "stop_reason": "tool_use"}
        second = {"content": [{"type": "text", "text": data.draw(st.sampled_from(NASTY_TEXT))}], "stop_reason": "end_turn"}
    raw = {"case_id": case.id, "turns": [{"response": first}, {"response": second}]}
    transcript = make_transcript(raw, provider, "m")
    result = grade_case(case, bundle.tools, transcript)       # unguarded: must not raise by itself
    assert result.verdict in ("PASS", "PARTIAL", "FAIL", "ERROR")
    tset = TranscriptSet("live", "fuzz", provider, "m", {case.id: transcript}, {})
    card = evaluate(bundle.cases, bundle.tools, tset)
    assert_no_internal_error(card)
    assert_strict_json(to_json(card))
    assert_printable(render_text(card))
    assert_printable(render_markdown(card))


# ---- the files --------------------------------------------------------------------------------

def _transcripts_doc(turns: list) -> dict:
    return {"format": "toolproof.transcripts", "version": 1, "kind": "live", "label": "fuzz",
            "transcripts": [{"case_id": c["id"], "provider": p, "turns": [{"response": b}]}
                            for c, (p, b) in zip(SUITE_DOC["cases"], turns)]}


def _grade_files(tmp_path, texts: dict) -> tuple[int, str, str]:
    paths = {}
    for name, text in texts.items():
        path = tmp_path / f"{name}.json"
        path.write_bytes(text.encode("utf-8", "surrogatepass"))
        paths[name] = str(path)
    out, err = io.StringIO(), io.StringIO()
    code = cli_run(["grade", "--format", "json", "--tools", paths["tools"], "--suite", paths["suite"],
                    "--transcripts", paths["transcripts"]], stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def _as_text(value) -> str:
    return json.dumps(value, default=repr) if _dumpable(value) else "{}"


@settings(FUZZ, max_examples=MAX_EXAMPLES["files"])
@given(turns=st.lists(TURNS, min_size=1, max_size=len(SUITE_DOC["cases"])),
       spoil=st.sampled_from(["none", "tools", "suite", "transcripts"]),
       junk=st.one_of(st.sampled_from(HOSTILE_JSON_TEXT), VALUES.map(_as_text)))
def test_grading_files_ends_in_a_scorecard_or_one_line(tmp_path, turns, spoil, junk):
    texts = {"tools": json.dumps(TOOLS_DOC), "suite": json.dumps(SUITE_DOC),
             "transcripts": json.dumps(_transcripts_doc(turns), default=repr)
             if _dumpable(_transcripts_doc(turns)) else "{}"}
    if spoil != "none":
        texts[spoil] = junk
    code, out, err = _grade_files(tmp_path, texts)
    if code == 0:
        assert err == ""
        card = json.loads(out, parse_constant=_refuse)
        assert_strict_json(out)
        assert_no_internal_error(card)
    else:
        assert (code, out) == (2, "")
        assert err.startswith("toolproof: ") and err.count("\n") == 1 and err.endswith("\n"), err
        assert_printable(err.rstrip("\n"))


# ---- hostile replies at size (their cost ratios: benchmarks/linear_cost.py) -----------------------

UNITS = ["eyJ-", "sk-ant-", "[", '{"a":', "9" * 299 + ",", "NaN,", "\x1b[2J", "ORD-123456 ", "March 4, 2026 "]


@settings(FUZZ, max_examples=MAX_EXAMPLES["linear"])
@given(unit=st.sampled_from(UNITS), where=st.sampled_from(["arguments", "note", "text"]))
def test_a_large_hostile_reply_is_graded(mini_suite, unit, where):
    cases, tools = mini_suite
    case = cases["call"]

    def grade(size: int):
        blob = unit * (size // len(unit))
        if where == "arguments":
            arguments = blob
        else:
            arguments = json.dumps({"order_id": "ORD-123456", "qty": 2, "note": blob})
        message = {"content": blob if where == "text" else None,
                   "tool_calls": [{"id": "c", "type": "function",
                                   "function": {"name": "place_order", "arguments": arguments}}]}
        transcript = make_transcript({"case_id": "call", "turns": [{"response": {"choices": [
            {"message": message, "finish_reason": "tool_calls"}]}}]}, "openai")
        return lambda: evaluate([case], tools, TranscriptSet("live", "", "openai", "m", {"call": transcript}, {}))

    card = grade(160_000)()
    assert_no_internal_error(card)
    assert [c["verdict"] for c in card["cases"]] in (["PASS"], ["PARTIAL"], ["FAIL"])
