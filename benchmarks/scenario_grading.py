"""Scenario grading throughput: 10,000 scenario transcripts graded into one scorecard, in seconds.

The transcripts are every gold and wrong path of the bundled worlds (data/worlds/*.json; the
selftest's built-in world when none is bundled) played on each of the five wire formats by
grading/scenario_paths.py, repeated (as repeats of their scenario) up to `--transcripts`. Timed:
reading the results document (parse_transcripts) and `evaluate` with the worlds (replay through
the engine, the rules, the answer rules, the scenarios block, the scorecard); building the
document is not timed. The target is under 60 s in CPython. A conversation met again (the same
calls in the same turns: a repeat, the same path on another wire) is not replayed again within one
grading (scenario_grade's memo, exact since the engine and the answer rules are deterministic), so
the second figure is the cold cost: each distinct play graded alone, with nothing kept. The last
is grading's cost per model turn on short and long conversations (a model that loops until the
turn limit), which should stay flat: grading is linear in the turns.

    python benchmarks/scenario_grading.py [--transcripts 10000]
"""
from __future__ import annotations

import argparse
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from toolproof.datafiles import bundled_worlds, format_schema  # noqa: E402
from toolproof.grading.scenario_grade import grade_scenario  # noqa: E402
from toolproof.grading.scenario_paths import path_transcript  # noqa: E402
from toolproof.grading.transcripts import parse_transcripts, scenario_transcript  # noqa: E402
from toolproof.providers.catalog import PROVIDERS  # noqa: E402
from toolproof.scoring.evaluate import evaluate  # noqa: E402
from toolproof.selftest.scenario_checks import WORLD as SELFTEST_WORLD  # noqa: E402
from toolproof.worlds.load import load_world  # noqa: E402
from toolproof.worlds.model import Path as ScriptedPath  # noqa: E402


def worlds() -> dict:
    found = bundled_worlds()
    return found or {"selfbank": load_world(SELFTEST_WORLD, "selfbank.json")}


def workload(every: dict, size: int) -> dict:
    plays = [(w, s, p, provider) for w in every.values() for s in w.scenarios
             for p in (*s.gold_paths, *s.wrong_paths) for provider in PROVIDERS]
    repeats: dict[str, int] = {}
    out = []
    for i in range(size):
        world, scenario, path, provider = plays[i % len(plays)]
        repeat = repeats.get(scenario.id, 0)
        repeats[scenario.id] = repeat + 1
        out.append(path_transcript(world, scenario, path, provider, repeat=repeat))
    return {"format": "toolproof.transcripts", "version": 1, "kind": "fixture", "transcripts": out}


def _plays(every: dict) -> int:
    return sum(len(s.gold_paths) + len(s.wrong_paths) for w in every.values() for s in w.scenarios) * len(PROVIDERS)


def per_turn(every: dict, turns: int, rounds: int = 200) -> float:
    """Microseconds of grading per model turn, for a model that calls one tool `turns` times."""
    world = next(iter(every.values()))
    scenario = world.scenarios[0]
    call = next(t for p in scenario.gold_paths for t in p.turns if t.calls)
    loop = ScriptedPath("loop", (call,) * turns)
    limited = replace(scenario, turn_limit=turns)
    raw = path_transcript(world, limited, loop, "openai")
    transcript = scenario_transcript(raw, "openai")
    start = time.perf_counter()
    for _ in range(rounds):
        grade_scenario(world, limited, transcript)
    return (time.perf_counter() - start) / rounds / turns * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--transcripts", type=int, default=10_000)
    args = parser.parse_args()
    every = worlds()
    doc = workload(every, args.transcripts)
    turns = sum(len(t["turns"]) for t in doc["transcripts"])
    start = time.perf_counter()
    tset = parse_transcripts(doc, format_schema("transcripts"))
    card = evaluate([], {}, tset, worlds=every)
    seconds = time.perf_counter() - start
    block = card["scenarios"]
    print(f"{args.transcripts:,} scenario transcripts ({turns:,} model turns, {len(every)} worlds): "
          f"graded in {seconds:.1f} s ({seconds / args.transcripts * 1e3:.2f} ms each); "
          f"{block['passed']} of {block['graded']} passed")
    distinct = workload(every, min(args.transcripts, _plays(every)))
    cold = [scenario_transcript(t, t["provider"]) for t in distinct["transcripts"]]
    index = {s.id: (w, s) for w in every.values() for s in w.scenarios}
    start = time.perf_counter()
    for t in cold:
        grade_scenario(*index[t.case_id], t)
    each = (time.perf_counter() - start) / len(cold)
    print(f"cold, nothing kept between transcripts: {each * 1e3:.2f} ms each over {len(cold):,} distinct plays "
          f"({each * args.transcripts:.1f} s for {args.transcripts:,} such)")
    for n in (5, 30):
        print(f"grading cost per model turn, conversations of {n} turns: {per_turn(every, n):.0f} µs")


if __name__ == "__main__":
    main()
