"""What a run keeps of each reply, driven through the runner with an in-memory transport.

Issue 36: a server answering 50,000 calls per reply left a 110-166 MB results file and took over
a gigabyte, though a reply's calls are read only up to MAX_CALLS. Here, for every wire format: each
turn keeps the trimmed body and says what it dropped, turn 2 and every counterfactual variant
echo only the kept calls and answer each one as the real API requires, the results file re-grades
to the live verdicts and reasons, and the run's memory is bounded by one body, not by the turns.
"""
from __future__ import annotations

import asyncio
import json
import tracemalloc

import pytest

from fakeprovider import anthropic_turn_problem, chat_turn_problem, in_wire, responses_turn_problem
from wire_echoes import echoed_and_answered
from misbehaving import many_calls
from scripted import Transport
from toolproof.datafiles import format_schema
from toolproof.grading.grade import grade_case
from toolproof.grading.transcripts import parse_transcripts
from toolproof.providers.reply import MAX_CALLS, MAX_TEXT
from toolproof.running.runner import Run, RunSettings
from toolproof.running.transport import HttpReply

WIRES = ("openai", "anthropic", "openai-responses", "gemini")
CALLS = 5_000           # in the real shapes (signatures, thinking), about 1-2 MB: inside the body limit
TEXT = "The order shipped on 3 March. " * 2_000         # 60,000 characters


def answer(wire: str, case) -> HttpReply:
    """CALLS calls of the case's first tool and TEXT, as `wire`'s real API writes them."""
    calls = [{"id": f"c{i}", "type": "function", "function": {"name": case.tools[0], "arguments": "{}"}}
             for i in range(CALLS)]
    chat = {"id": "x", "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
        "role": "assistant", "content": TEXT, "tool_calls": calls}}]}
    return HttpReply(200, {}, json.dumps(in_wire(chat, wire)), 5.0)


def run_case(bundle, wire: str, case, transport) -> Run:
    settings = RunSettings(wire, "m", "key", "", "all", 100, pause_s=0, backoff_s=0.01)
    run = Run([case], bundle.tools, settings, transport)
    asyncio.run(run.run())
    return run


def refusal(wire: str, kept: dict, request: dict) -> str | None:
    """What the real API refuses in a turn 2 (tests/fakeprovider.py), judged against the body
    the run kept and echoed."""
    if wire == "openai":
        return chat_turn_problem(kept, request)
    if wire == "anthropic":
        return anthropic_turn_problem(kept, request)
    if wire == "openai-responses":
        return responses_turn_problem(request)
    return None if request["contents"][1] == kept["candidates"][0]["content"] else "content not echoed exactly"


@pytest.mark.parametrize("wire", WIRES)
def test_each_turn_keeps_what_is_read_and_turn_two_echoes_only_that(bundle, wire):
    case = next(c for c in bundle.cases if len(c.variants) >= 2)
    requests = 2 + len(case.variants)
    transport = Transport({case.id: [answer(wire, case) for _ in range(requests)]})
    run = run_case(bundle, wire, case, transport)
    raw = run.transcripts[0]
    turns = raw["turns"] + [v["turns"][1] for v in raw["variants"]]
    assert len(turns) == requests and all("response" in t for t in turns)
    for turn in turns:
        assert turn["dropped"] == {"calls": CALLS - MAX_CALLS, "characters": len(TEXT) - MAX_TEXT}
        assert len(json.dumps(turn["response"])) < 100_000               # was 1-2 MB each
    kept = raw["turns"][0]["response"]
    seconds = [c["body"] for c in transport.calls[1:]]                    # turn 2, then each variant's
    assert len(seconds) == requests - 1
    for request in seconds:
        echoed, answered = echoed_and_answered(wire, request)
        assert echoed == answered and len(echoed) == MAX_CALLS
        assert refusal(wire, kept, request) is None
        assert TEXT[:MAX_TEXT] in json.dumps(request) and TEXT[:MAX_TEXT + 5] not in json.dumps(request)


@pytest.mark.parametrize("wire", WIRES)
def test_the_results_file_regrades_to_the_live_verdicts_and_reasons(bundle, wire):
    case = next(c for c in bundle.cases if len(c.variants) >= 2)
    transport = Transport({case.id: [answer(wire, case) for _ in range(2 + len(case.variants))]})
    run = run_case(bundle, wire, case, transport)
    # the file as written (JSON text and back), then graded as `grade --transcripts` grades it
    doc = json.loads(json.dumps(run.document(created="2026-01-01T00:00:00Z")))
    again = grade_case(case, bundle.tools, parse_transcripts(doc, format_schema("transcripts")).transcripts[case.id])
    live = run.results[0]
    assert (again.verdict, again.reasons) == (live.verdict, live.reasons)
    assert live.verdict == "FAIL"
    assert f"turn 1: {CALLS - MAX_CALLS} more calls not read" in " ".join(live.reasons)


def test_memory_is_bounded_by_one_body_not_by_the_turns(bundle):
    # every turn of the case is answered with 50,000 calls (4.3 MB, the most the body limit holds);
    # the run holds one body being read at a time, never one per turn or per variant
    case = next(c for c in bundle.cases if len(c.variants) >= 2)
    requests = 2 + len(case.variants)
    body = many_calls(case.tools[0]).decode()
    transport = Transport({case.id: [HttpReply(200, {}, body, 5.0) for _ in range(requests)]})
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        run = run_case(bundle, "openai", case, transport)
        held, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(transport.calls) == requests
    parsed = 30 * 1000 * 1000       # one 4.3 MB body parsed is about 27 MB of Python objects
    assert peak - before < 2 * parsed           # before: every body kept, 5 of them, over a gigabyte
    assert held - before < 5 * 1000 * 1000      # what the run keeps once the case is done
    assert all(t["dropped"] == {"calls": 50_000 - MAX_CALLS} for t in run.transcripts[0]["turns"])
