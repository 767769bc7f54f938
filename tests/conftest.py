"""Shared helpers: the fake provider's fixtures, the small hand-made suite (the selftest's, from
toolproof/selftest/kit.py) and transcript builders for provider bodies. The command line run
in-process is tests/clirun.py's `cli`."""
from __future__ import annotations

import json

import pytest

from toolproof.datafiles import format_schema, load_bundle
from toolproof.grading.grade import grade_case
from toolproof.suite.load import parse_suite, parse_tools
from toolproof.grading.transcripts import parse_transcripts
from toolproof.selftest.kit import LOOKUP, ORDER_CALL, SUITE_DOC, TOOLS_DOC, case_doc


# ---- the fake provider (tests/fakeprovider.py): one server per test module ---------------------

@pytest.fixture(scope="module")
def fake_provider():
    """Started once per module (a server start per test would be most of the run)."""
    from fakeprovider import FakeProvider      # here, not above: it reads data/ when imported

    provider = FakeProvider()
    yield provider
    provider.close()


@pytest.fixture
def fake(fake_provider):
    """The module's fake provider with no request recorded and no answer scripted by an earlier
    test (what a test scripts and the fake does not use up is gone after it too). What a module
    adds to `prompts` stays: its suite's wordings hold for all its tests."""
    fake_provider.requests.clear()
    fake_provider.script.clear()
    fake_provider.polls.clear()
    fake_provider.background = False
    yield fake_provider
    fake_provider.script.clear()
    fake_provider.polls.clear()
    fake_provider.background = False


# The small hand-made suite (TOOLS_DOC, SUITE_DOC, LOOKUP, ORDER_CALL) is the selftest's: the
# package cannot import tests/, so the one definition lives there.
case = case_doc


def openai(*calls, text=None, finish=None):
    """One OpenAI turn; calls are (name, arguments-as-JSON-text-or-object)."""
    tool_calls = [{"id": f"call_{i}", "type": "function",
                   "function": {"name": n, "arguments": a if isinstance(a, str) else json.dumps(a)}}
                  for i, (n, a) in enumerate(calls)]
    message = {"role": "assistant", "content": text}
    if tool_calls:
        message["tool_calls"] = tool_calls
    return {"response": {"choices": [{"index": 0, "message": message,
                                      "finish_reason": finish or ("tool_calls" if calls else "stop")}]}}


def anthropic(*calls, text="", stop=None):
    blocks = ([{"type": "text", "text": text}] if text else []) + [
        {"type": "tool_use", "id": f"toolu_{i}", "name": n, "input": a} for i, (n, a) in enumerate(calls)]
    return {"response": {"content": blocks, "stop_reason": stop or ("tool_use" if calls else "end_turn")}}


def error(status=500, message="server error"):
    return {"error": {"status": status, "message": message}}


@pytest.fixture(scope="session")
def mini():
    return make_grader(TOOLS_DOC, SUITE_DOC)


def make_grader(tools_doc, suite_doc):
    """grade(case id, *turns, provider=...) -> CaseResult over these tools and this suite."""
    tools = parse_tools(tools_doc, format_schema("tools"))
    cases = {c.id: c for c in parse_suite(suite_doc, tools, format_schema("suite"))}

    def grade(cid, *turns, provider="openai"):
        doc = {"format": "toolproof.transcripts", "version": 1, "kind": "live",
               "transcripts": [{"case_id": cid, "provider": provider, "turns": list(turns)}]}
        tset = parse_transcripts(doc, format_schema("transcripts"))
        return grade_case(cases[cid], tools, tset.transcripts[cid])
    grade.tools, grade.cases = tools, cases
    return grade


@pytest.fixture(scope="session")
def bundle():
    return load_bundle()


# ---- browser tests: one server and one Chromium per test module ----------------------------

@pytest.fixture(scope="module")
def server():
    from browser import start_server

    srv, url = start_server()
    yield url
    srv.shutdown()


@pytest.fixture(scope="module")
def browser():
    from browser import CHROMIUM, CHROMIUM_ARGS

    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def ctrl_c():
    """Ctrl-C as a terminal delivers it. A process started in the background by a
    non-interactive shell (as CI may start this suite) inherits SIGINT ignored, and Python then
    never raises KeyboardInterrupt: the tests of Ctrl-C put Python's own handler back for
    themselves, and restore what was there."""
    import signal

    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)


# ---- every scorecard a test makes matches data/schemas/scorecard.schema.json ----------------

@pytest.fixture(autouse=True)
def scorecards_match_their_schema(monkeypatch):
    """Wraps the scorecard builders for the test (tests/scorecard_check.py); fails it at teardown
    if any card it made departs from the schema."""
    from scorecard_check import wrap_builders

    seen: list[str] = []
    wrap_builders(monkeypatch, seen)
    yield
    assert not seen, "a scorecard does not match data/schemas/scorecard.schema.json:\n" + "\n".join(seen[:10])
