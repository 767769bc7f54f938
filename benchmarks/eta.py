"""How far off the page's "time left" is, by conversations and by requests (issue 37: it said 11
minutes for a run that took 3:40).

The real runner runs the bundled suite (every phrasing) against an in-memory transport that answers
from the committed fixtures after a seeded random delay per request (no sockets, no retries: turns
that were request errors in the fixtures are answered as a plain text reply). At every finished
conversation the two estimates are taken:
- by conversations (the old one): elapsed / finished conversations × conversations left;
- by requests (reports/page_view.py `clock_texts`): elapsed / the requests the finished
  conversations could need × the requests the rest can still need.
Each is divided by the time that was really left (known once the run ends). Printed: the median
of that ratio over the estimates taken in each tenth of the run, per concurrency; 1.00 is right.
These are timings of this machine against a simulated server, not a model's.

    python benchmarks/eta.py [--delay 0.01] [--phrasings all] [--concurrency 1 4 8]
"""
from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from fakeprovider import case_and_turn, fixture_answer  # noqa: E402
from toolproof.datafiles import load_bundle  # noqa: E402
from toolproof.running.runner import Run, RunSettings  # noqa: E402
from toolproof.running.transport import HttpReply  # noqa: E402
from toolproof.suite.model import phrasing_choice  # noqa: E402

TEXT = json.dumps({"id": "x", "object": "chat.completion", "model": "fake", "choices": [
    {"index": 0, "message": {"role": "assistant", "content": "No."}, "finish_reason": "stop"}]})


def transport(delay: float, seed: int = 7):
    rng = random.Random(seed)

    async def answer(url: str, headers: dict, body: dict, timeout: float) -> HttpReply:
        case_id, turn = case_and_turn(url, body)
        await asyncio.sleep(rng.uniform(0.5 * delay, 1.5 * delay))
        status, extra, text = fixture_answer(case_id, turn, "openai")
        return HttpReply(200, extra, text, delay * 1000) if status == 200 else HttpReply(200, {}, TEXT, delay * 1000)
    return answer


def measure(concurrency: int, delay: float, phrasings: str) -> list[float | None]:
    bundle = load_bundle()
    samples: list[tuple[float, float, float]] = []     # (when, by conversations, by requests)
    settings = RunSettings("openai", "fake", "sk-test", "", "all", 10 ** 6, pause_s=0, backoff_s=0,
                           concurrency=concurrency, phrasings=phrasing_choice(phrasings))
    run = Run(bundle.cases, bundle.tools, settings, transport(delay))
    requests = {w.case.id: w.requests for w in run.work}
    total_planned = sum(w.requests for w in run.work)
    start = 0.0

    def on_case(raw, result):
        now = time.perf_counter()
        elapsed, done, total = now - start, len(run.results), len(run.work)
        if done >= total:
            return
        planned_done = sum(requests[r.case_id] for r in run.results)
        by_conversations = elapsed / done * (total - done)
        by_requests = elapsed / planned_done * (total_planned - planned_done)
        samples.append((now, by_conversations, by_requests))

    run.on_case = on_case
    start = time.perf_counter()
    asyncio.run(run.run())
    end = time.perf_counter()
    tenths: list[list[tuple[float, float]]] = [[] for _ in range(10)]
    for i, (when, conv, req) in enumerate(samples):
        left = end - when
        if left > 0:
            tenths[min(9, 10 * i // len(samples))].append((conv / left, req / left))
    return [(statistics.median(c for c, _ in t), statistics.median(r for _, r in t)) if t else None
            for t in tenths], end - start, len(run.work)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--delay", type=float, default=0.01)
    parser.add_argument("--phrasings", default="all")
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 4, 8])
    args = parser.parse_args()
    for concurrency in args.concurrency:
        tenths, wall, conversations = measure(concurrency, args.delay, args.phrasings)
        print(f"concurrency {concurrency}: {conversations} conversations in {wall:.1f} s; "
              "estimate / time really left, median per tenth of the run (by conversations | by requests)")
        print("  " + "  ".join(f"{10 * i}%: {c:.2f}|{r:.2f}" for i, pair in enumerate(tenths) if pair
                               for c, r in [pair]))


if __name__ == "__main__":
    main()
