"""One reply with many tool calls, graded against an `order: any` case: seconds and peak memory.

A reply within the 5 MB body limit can hold about 50,000 calls. Prints, per size, the time to
read the body into a Reply, to grade it and to build the scorecard as `grade --format json`, the calls read, the reasons produced and the peak
memory (tracemalloc). Figures, never asserted: see docs/benchmarks.md.

    python benchmarks/huge_reply.py            # 1,000, 10,000 and 50,000 calls
    python benchmarks/huge_reply.py 50000      # one size
"""
from __future__ import annotations

import json
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from toolproof.datafiles import format_schema  # noqa: E402
from toolproof.grading.grade import grade_case  # noqa: E402
from toolproof.grading.transcripts import parse_transcripts  # noqa: E402
from toolproof.reports.scorecard import to_json  # noqa: E402
from toolproof.scoring.evaluate import evaluate  # noqa: E402
from toolproof.suite.load import parse_suite, parse_tools  # noqa: E402

TOOLS = {"format": "toolproof.tools", "version": 1, "tools": [
    {"name": "lookup", "domain": "commerce", "description": "Look up an order.", "parameters": {
        "type": "object", "properties": {"order_id": {"type": "string"}}, "required": ["order_id"],
        "additionalProperties": False}}]}
SUITE = {"format": "toolproof.suite", "version": 1, "cases": [
    {"id": "any", "category": "should_call", "tools": ["lookup"], "prompt": "Look up ORD-1 and ORD-2.",
     "expect": {"action": "call", "order": "any", "calls": [
         {"tool": "lookup", "args": {"order_id": "ORD-1"}},
         {"tool": "lookup", "args": {"order_id": "ORD-2"}}]}}]}


def body(n: int) -> dict:
    calls = [{"id": f"c{i}", "type": "function",
              "function": {"name": "lookup", "arguments": json.dumps({"order_id": f"ORD-{i}"})}}
             for i in range(n)]
    return {"choices": [{"message": {"role": "assistant", "content": None, "tool_calls": calls},
                         "finish_reason": "tool_calls"}]}


def measure(n: int, tools, case) -> None:
    doc = {"format": "toolproof.transcripts", "version": 1, "kind": "live",
           "transcripts": [{"case_id": "any", "provider": "openai", "turns": [{"response": body(n)}]}]}
    size = len(json.dumps(doc))
    started = time.perf_counter()
    tset = parse_transcripts(doc, format_schema("transcripts"))
    read = time.perf_counter()
    result = grade_case(case, tools, tset.transcripts["any"])
    done = time.perf_counter()
    text = to_json(evaluate([case], tools, tset))     # what `grade --format json` does
    card = time.perf_counter()
    tracemalloc.start()         # a second pass for memory: tracing slows Python several times
    grade_case(case, tools, parse_transcripts(doc, format_schema("transcripts")).transcripts["any"])
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    calls = len(tset.transcripts["any"].turns[0].reply.calls)
    print(f"{n:>7,} calls ({size / 1e6:.2f} MB): read {read - started:5.2f} s, grade {done - read:5.2f} s, "
          f"scorecard {card - done:5.2f} s ({len(text) / 1e6:.2f} MB of JSON), "
          f"calls read {calls:,}, reasons {len(result.reasons):,}, "
          f"longest reason {max(map(len, result.reasons)):,} chars, peak {peak / 1e6:,.0f} MB, "
          f"verdict {result.verdict}")


def main(argv: list[str]) -> None:
    tools = parse_tools(TOOLS, format_schema("tools"))
    case = parse_suite(SUITE, tools, format_schema("suite"))[0]
    for n in [int(a) for a in argv] or [1_000, 10_000, 50_000]:
        measure(n, tools, case)


if __name__ == "__main__":
    main(sys.argv[1:])
