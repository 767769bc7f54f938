"""Grading cost as the suite grows: is it linear in cases and tools? (issue 8, "Cost growth")

Builds k renamed copies of the committed suite, each copy with its own tools (every tool name
and case id gets a `__c<i>` suffix, in the tools, the cases, the mock results, the derive paths
and the fixture responses, so names stay unique and every copy grades exactly like the
original), for k = 4 and k = 40 (default), and times the whole scorecard path the CLI and the
page share (`evaluate`: grading, diagnosis, scorecard), split into grading and the rest. Loading
is not timed. Each figure is the fastest of --rounds runs (the machine is shared: the fastest
run is the one least disturbed). Prints both times and their ratio: linear is 10, the goal is
at most 12.

    python benchmarks/grade_scale.py [--small 4] [--large 40] [--rounds 3]
"""
from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from toolproof.datafiles import format_schema  # noqa: E402
from toolproof.scoring.diagnose import diagnosis  # noqa: E402
from toolproof.scoring.evaluate import evaluate  # noqa: E402
from toolproof.grading.grade import grade_run  # noqa: E402
from toolproof.suite.load import parse_suite, parse_tools  # noqa: E402
from toolproof.grading.transcripts import known_ids, parse_transcripts  # noqa: E402


def load(name: str) -> dict:
    return json.loads((ROOT / "data" / f"{name}.json").read_text(encoding="utf-8"))


def renamed(tools: dict, suite: dict, fixtures: dict, copy: int) -> tuple[list, list, list]:
    """One copy of the three documents with every tool name and case id suffixed."""
    names = sorted((t["name"] for t in tools["tools"]), key=len, reverse=True)
    # A tool name as a whole word: inside "search_orders.orders.0.id" or a response's "name".
    pattern = re.compile(r"(?<![\w])(" + "|".join(map(re.escape, names)) + r")(?![\w])")
    suffix = f"__c{copy}"

    def rename(doc: object) -> object:
        return json.loads(pattern.sub(lambda m: m.group(1) + suffix, json.dumps(doc)))

    copy_tools = rename(tools["tools"])
    copy_cases = rename(suite["cases"])
    copy_transcripts = rename(fixtures["transcripts"])
    for case in copy_cases:
        case["id"] += suffix
    for transcript in copy_transcripts:
        transcript["case_id"] += suffix
    return copy_tools, copy_cases, copy_transcripts


def workload(copies: int) -> tuple:
    tools, suite, fixtures = load("tools"), load("suite"), load("fixtures")
    all_tools, all_cases, all_transcripts = [], [], []
    for i in range(copies):
        t, c, f = renamed(tools, suite, fixtures, i)
        all_tools += t
        all_cases += c
        all_transcripts += f
    parsed_tools = parse_tools({**tools, "tools": all_tools}, format_schema("tools"))
    cases = parse_suite({**suite, "cases": all_cases}, parsed_tools, format_schema("suite"))
    tset = parse_transcripts({**fixtures, "transcripts": all_transcripts}, format_schema("transcripts"),
                             known_ids(cases))
    return parsed_tools, cases, tset


def timed(copies: int, rounds: int) -> dict:
    tools, cases, tset = workload(copies)
    whole, grading, diagnosing = [], [], []
    for _ in range(rounds):
        start = time.perf_counter()
        card = evaluate(cases, tools, tset)
        whole.append(time.perf_counter() - start)
        start = time.perf_counter()
        results = grade_run(cases, tools, tset.transcripts)
        grading.append(time.perf_counter() - start)
        start = time.perf_counter()
        diagnosis(results, cases, tools, tset.transcripts)
        diagnosing.append(time.perf_counter() - start)
    return {"cases": len(cases), "tools": len(tools), "score": card["score"],
            "evaluate": min(whole), "grade": min(grading), "diagnose": min(diagnosing)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small", type=int, default=4)
    parser.add_argument("--large", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    small, large = timed(args.small, args.rounds), timed(args.large, args.rounds)
    assert small["score"] == large["score"], "every copy must grade exactly like the original"
    for k, row in ((args.small, small), (args.large, large)):
        print(f"{k:>3} copies: {row['cases']:>5} cases, {row['tools']:>5} tools: evaluate {row['evaluate']:.3f} s "
              f"(grade {row['grade']:.3f} s, diagnose {row['diagnose']:.3f} s), fastest of {args.rounds}")
    linear = args.large / args.small
    print(f"ratio {large['evaluate'] / small['evaluate']:.1f} (grade {large['grade'] / small['grade']:.1f}, "
          f"diagnose {large['diagnose'] / small['diagnose']:.1f}); linear is {linear:.0f}, "
          f"goal <= {linear * 1.2:.0f}")


if __name__ == "__main__":
    main()
