"""Grading throughput: graded calls per second on a seeded synthetic workload.

10,000 single-call cases over 12 tools with 4-6 typed arguments (string with pattern, enum,
integer with bounds, number, boolean, ISO date). Half the calls are right; the rest are a wrong
value, a string-typed number, a missing argument, a wrong tool, an extra argument, or an extra
second call. Only grading is timed (building the workload is not), median of 3 rounds.
If the peer library `tool-scorer` (import `toolscore`) is installed, its
`evaluate(expected=..., actual=...)` is timed on the same cases in the same run.
`--baseline PATH` also times the toolproof of another checkout (e.g. a `git worktree` of an
older commit) on the same workload, in a worker process whose rounds are interleaved with
these, so every figure printed comes from the same machine load.

    python benchmarks/grade_throughput.py [--calls 10000] [--rounds 3] [--baseline PATH]
"""
from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

# The checkout whose toolproof is timed: this one, or a baseline's when run as its worker.
CHECKOUT_VAR = "GRADE_THROUGHPUT_CHECKOUT"
sys.path.insert(0, os.environ.get(CHECKOUT_VAR) or str(Path(__file__).resolve().parent.parent))

try:                                           # the layered package (issue 18 on)
    from toolproof.grading.grade import grade_case  # noqa: E402
    from toolproof.grading.transcripts import parse_transcripts  # noqa: E402
    from toolproof.suite.load import parse_suite, parse_tools  # noqa: E402
except ImportError:                            # a --baseline checkout from before the layer folders
    from toolproof.grade import grade_case  # noqa: E402
    from toolproof.suite import parse_suite, parse_tools  # noqa: E402
    from toolproof.transcripts import parse_transcripts  # noqa: E402

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


class Baseline:
    """Another checkout's toolproof grading the same workload in a worker process: each `round()`
    asks it for one timed round over a pipe, so its rounds interleave with this process's."""

    def __init__(self, checkout: str, calls: int):
        self.checkout = str(Path(checkout).resolve())
        if not (Path(self.checkout) / "toolproof").is_dir():
            raise SystemExit(f"--baseline {checkout}: no toolproof/ package there")
        env = {**os.environ, CHECKOUT_VAR: self.checkout}
        self.worker = subprocess.Popen([sys.executable, __file__, "--worker", "--calls", str(calls)],
                                       stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
        self.calls = int(self._answer())

    def round(self) -> float:
        self.worker.stdin.write("round\n")
        self.worker.stdin.flush()
        return float(self._answer())

    def close(self) -> None:
        self.worker.stdin.close()
        self.worker.wait()

    def _answer(self) -> str:
        line = self.worker.stdout.readline()
        if not line:
            raise SystemExit(f"--baseline {self.checkout}: the worker stopped (see its error above)")
        return line.strip()


def serve_rounds(calls: int) -> int:
    """The worker side of --baseline: say how many calls, then time one round per request."""
    run, graded = toolproof_round(calls)
    print(graded, flush=True)
    for _ in sys.stdin:
        print(timed(run), flush=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=10_000, help="cases in the workload")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--baseline", metavar="PATH", help="also time the toolproof of this checkout")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        return serve_rounds(args.calls)
    ours, calls = toolproof_round(args.calls)
    theirs = toolscore_round(args.calls)
    baseline = Baseline(args.baseline, args.calls) if args.baseline else None
    our_times, their_times, base_times = [], [], []
    for _ in range(args.rounds):     # interleaved, so all see the same machine load
        our_times.append(timed(ours))
        if theirs is not None:
            their_times.append(timed(theirs[0]))
        if baseline is not None:
            base_times.append(baseline.round())
    if baseline is not None:
        baseline.close()
    ours_s = statistics.median(our_times)
    our_rate = calls / ours_s
    print(f"toolproof: {args.calls} cases, {calls} graded calls (schema validation + values + verdict), "
          f"median {ours_s:.3f} s of {args.rounds} -> {our_rate:,.0f} calls/s")
    base_rate = None
    if baseline is not None:
        base_s = statistics.median(base_times)
        base_rate = baseline.calls / base_s
        print(f"baseline:  {baseline.checkout}, {baseline.calls} calls, median {base_s:.3f} s "
              f"-> {base_rate:,.0f} calls/s")
        print(f"ratio toolproof / baseline: {our_rate / base_rate:.2f}x")
    if theirs is None:
        print("toolscore: not installed (pip install tool-scorer) - no comparison")
        return 0
    their_s = statistics.median(their_times)
    their_rate = theirs[1] / their_s
    print(f"toolscore: same cases, {theirs[1]} calls, evaluate() without schema checks, "
          f"median {their_s:.3f} s -> {their_rate:,.0f} calls/s")
    print(f"ratio toolproof / toolscore: {our_rate / their_rate:.2f}x")
    if base_rate is not None:
        print(f"ratio baseline / toolscore: {base_rate / their_rate:.2f}x")
    return 0

if __name__ == "__main__":
    raise SystemExit(main())
