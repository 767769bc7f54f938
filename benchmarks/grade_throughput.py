"""Grading throughput: graded calls per second on a seeded synthetic workload.

10,000 single-call cases over 12 tools with 4-6 typed arguments (string with pattern, enum,
integer with bounds, number, boolean, ISO date). Half the calls are right; the rest are a wrong
value, a string-typed number, a missing argument, a wrong tool, an extra argument, or an extra
second call. Only grading is timed (building the workload is not), median of 3 rounds.
If the peer library `tool-scorer` (import `toolscore`) is installed, its
`evaluate(expected=..., actual=...)` is timed on the same cases in the same run.

    python benchmarks/grade_throughput.py [--calls 10000] [--rounds 3]
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from toolproof.grading.grade import grade_case  # noqa: E402
from toolproof.suite.load import parse_suite, parse_tools  # noqa: E402
from toolproof.grading.transcripts import parse_transcripts  # noqa: E402

OPEN = {"type": "object"}   # the workload is generated, so its format is trusted
KINDS = ["correct"] * 6 + ["wrong_value", "string_number", "missing", "wrong_tool", "extra_arg", "extra_call"]


def make_tools(rng: random.Random, count: int = 12) -> list[dict]:
    tools = []
    for i in range(count):
        props = {
            "ref": {"type": "string", "pattern": "^R-[0-9]{5}$", "description": "reference"},
            "mode": {"type": "string", "enum": ["fast", "safe", "dry"], "description": "mode"},
            "count": {"type": "integer", "minimum": 1, "maximum": 500, "description": "how many"},
            "amount": {"type": "number", "minimum": 0, "description": "amount"},
            "notify": {"type": "boolean", "default": False, "description": "notify"},
            "on": {"type": "string", "pattern": r"^\d{4}-\d{2}-\d{2}$", "description": "date YYYY-MM-DD"},
        }
        keep = list(props)[: rng.randint(4, 6)]
        tools.append({"name": f"tool_{i}", "domain": "bench", "description": "synthetic",
                      "parameters": {"type": "object", "properties": {k: props[k] for k in keep},
                                     "required": keep[:3], "additionalProperties": False}})
    return tools


def make_args(rng: random.Random, schema: dict) -> dict:
    values = {"ref": f"R-{rng.randint(0, 99999):05d}", "mode": rng.choice(["fast", "safe", "dry"]),
              "count": rng.randint(1, 500), "amount": round(rng.uniform(0, 1000), 2),
              "notify": rng.random() < 0.5, "on": f"2026-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"}
    return {k: values[k] for k in schema["properties"]}


def make_workload(n: int, seed: int = 7) -> tuple[list[dict], list[dict], list[dict]]:
    """(tools, cases, [{case, expected, actual, kind}]) with the actual calls prepared."""
    rng = random.Random(seed)
    tools = make_tools(rng)
    cases, items = [], []
    for i in range(n):
        tool = rng.choice(tools)
        other = rng.choice([t for t in tools if t is not tool])
        args = make_args(rng, tool["parameters"])
        kind = rng.choice(KINDS)
        actual = [{"tool": tool["name"], "args": dict(args)}]
        if kind == "wrong_value":
            actual[0]["args"]["count"] = args["count"] % 500 + 1
        elif kind == "string_number":
            actual[0]["args"]["count"] = str(args["count"])
        elif kind == "missing":
            del actual[0]["args"]["mode"]
        elif kind == "wrong_tool":
            actual = [{"tool": other["name"], "args": make_args(rng, other["parameters"])}]
        elif kind == "extra_arg":
            actual[0]["args"]["priority"] = "high"
        elif kind == "extra_call":
            actual.append({"tool": tool["name"], "args": dict(args)})
        cases.append({"id": f"c{i}", "category": "should_call", "tools": [tool["name"], other["name"]],
                      "prompt": "synthetic", "expect": {"action": "call",
                                                        "calls": [{"tool": tool["name"], "args": args}]}})
        items.append({"expected": [{"tool": tool["name"], "args": args}], "actual": actual, "kind": kind})
    return tools, cases, items


def openai_turn(actual: list[dict]) -> dict:
    return {"response": {"choices": [{"finish_reason": "tool_calls", "message": {"tool_calls": [
        {"id": f"c{j}", "type": "function", "function": {"name": c["tool"], "arguments": json.dumps(c["args"])}}
        for j, c in enumerate(actual)]}}]}}


def toolproof_round(n: int) -> tuple[callable, int]:
    """A function that grades the whole workload once, and the number of calls it grades."""
    tools_doc, case_docs, items = make_workload(n)
    tools = parse_tools({"tools": tools_doc}, OPEN)
    cases = parse_suite({"cases": case_docs}, tools, OPEN)
    tset = parse_transcripts({"transcripts": [
        {"case_id": c.id, "provider": "openai", "turns": [openai_turn(it["actual"])]}
        for c, it in zip(cases, items)]}, OPEN)
    pairs = [(c, tset.transcripts[c.id]) for c in cases]

    def run() -> None:
        for case, transcript in pairs:
            grade_case(case, tools, transcript)
    return run, sum(len(it["actual"]) for it in items)


def toolscore_round(n: int) -> tuple[callable, int] | None:
    try:
        import toolscore
    except ImportError:
        return None
    _, _, items = make_workload(n)

    def run() -> None:
        for it in items:
            toolscore.evaluate(expected=it["expected"], actual=it["actual"])
    return run, sum(len(it["actual"]) for it in items)


def timed(run: callable) -> float:
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=10_000, help="cases in the workload")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    ours, calls = toolproof_round(args.calls)
    theirs = toolscore_round(args.calls)
    our_times, their_times = [], []
    for _ in range(args.rounds):     # interleaved, so both see the same machine load
        our_times.append(timed(ours))
        if theirs is not None:
            their_times.append(timed(theirs[0]))
    ours_s = statistics.median(our_times)
    print(f"toolproof: {args.calls} cases, {calls} graded calls (schema validation + values + verdict), "
          f"median {ours_s:.3f} s of {args.rounds} -> {calls / ours_s:,.0f} calls/s")
    if theirs is None:
        print("toolscore: not installed (pip install tool-scorer) - no comparison")
        return 0
    their_s = statistics.median(their_times)
    print(f"toolscore: same cases, {theirs[1]} calls, evaluate() without schema checks, "
          f"median {their_s:.3f} s -> {theirs[1] / their_s:,.0f} calls/s")
    print(f"ratio toolproof / toolscore: {(calls / ours_s) / (theirs[1] / their_s):.2f}x")
    return 0

if __name__ == "__main__":
    raise SystemExit(main())
