"""What one tool call costs against a world's table of 500 and of 20,000 rows (the most a world
holds): figures, not a test.

    python benchmarks/world_engine.py

For each kind of call on the test world (tests/worldkit.py) with its `transfers` table grown to N
rows, it prints the best of several runs in microseconds per call:
- a transfer (two finds by key, two checks, two updates, one insert): the finds are dict look-ups,
  each write copies the one table it touches (accounts: 3 rows; transfers: N rows);
- a read with filters, sorted and projected (scans and sorts the N rows);
- a read of one row by key (a dict look-up, whatever N);
- a failed call (an invalid argument: nothing is read or copied).
Then the cost of loading (checking) such a world, and of refusing 10^6 rows as a document and as
a file's text (the JSON reader's bounds come first there). Last, what the work bounds of
worlds/cost.py cost in seconds (a step: a row looked at, or an expression node evaluated per
row): a scan of 20,000 rows by `contains`, and one by a per-row expression at MAX_CALL_WORK steps,
give seconds per million steps, hence the worst call and the worst replay of a world's paths
(`suite validate` replays each path twice); and what the bundled worlds ask for.
"""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from toolproof.errors import ToolProofError  # noqa: E402
from toolproof.datafiles import bundled_worlds  # noqa: E402
from toolproof.worlds.cost import MAX_CALL_STEPS, MAX_CALL_WORK, MAX_REPLAY_WORK, call_work  # noqa: E402
from toolproof.worlds.engine import initial_state, run_call  # noqa: E402
from toolproof.worlds.load import load_world, world_from_text  # noqa: E402
from worldkit import bank_doc  # noqa: E402

READ_ONE = {"name": "get_transfer", "description": "One transfer by id.",
            "parameters": {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]},
            "effects": [{"read": "transfers", "where": {"id": {"arg": "id"}}, "one": True}]}


def world_of(rows: int):
    doc = bank_doc()
    own = sum(len(table["rows"]) for table in doc["tables"].values())     # the world holds `rows` in all
    doc["tables"]["transfers"]["rows"] = [
        {"id": f"TR-{i:05d}", "from": "ACC-1" if i % 3 else "ACC-7", "to": "ACC-7", "amount": i % 97 + 0.5,
         "date": f"2026-0{1 + i % 3}-{1 + i % 28:02d}"} for i in range(rows - own)] + doc["tables"]["transfers"]["rows"]
    doc["tools"].append(READ_ONE)
    return doc, load_world(doc, "bank.json")


def best_us(call, runs: int = 7, inner: int = 20) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        for _ in range(inner):
            call()
        best = min(best, (time.perf_counter() - start) / inner)
    return best * 1e6


def best_s(call, runs: int = 3) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        try:
            call()
        except ToolProofError:
            pass
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    calls = [("transfer (finds by key, 2 updates, 1 insert)", "transfer_funds",
              {"from_account": "ACC-1", "to_account": "ACC-7", "amount": 5}),
             ("read: filter, sort, project", "list_transfers", {"account_id": "ACC-1", "since": "2026-02-15"}),
             ("read one row by key", "get_transfer", {"id": "TR-00042"}),
             ("invalid arguments (refused)", "transfer_funds", {"from_account": "ACC-1"})]
    sizes = (500, 20_000)
    worlds = {n: world_of(n) for n in sizes}
    print(f"{'call':48} " + " ".join(f"{n:>10,} rows" for n in sizes) + "   ratio")
    for label, tool, args in calls:
        figures = []
        for n in sizes:
            world = worlds[n][1]
            state = initial_state(world)
            assert not run_call(world, state, tool, args).error or "invalid" in label
            figures.append(best_us(lambda: run_call(world, state, tool, args), inner=5 if n > 1000 else 20))
        print(f"{label:48} " + " ".join(f"{f:>12,.1f} µs" for f in figures) + f"   {figures[1] / figures[0]:5.1f}x")
    print()
    for n in sizes:
        doc = worlds[n][0]
        print(f"load (check) a world of {n:>6,} rows: {best_s(lambda: load_world(doc, 'bank.json')) * 1000:8.1f} ms")
    huge = bank_doc()
    huge["tables"]["transfers"]["rows"] = [{"id": i} for i in range(1_000_000)]
    print(f"refuse 10^6 rows as a document:      {best_s(lambda: load_world(huge, 'bank.json')) * 1000:8.1f} ms")
    text = json.dumps(huge)
    print(f"refuse 10^6 rows as text ({len(text) / 1e6:.1f} MB):   {best_s(lambda: world_from_text(text, 'bank.json')):8.2f} s")

    print()
    bounds()


def bounds() -> None:
    per_row = 49                        # 20,000 rows x (1 + 49 nodes) = MAX_CALL_WORK
    scans = {"contains": ({"contains": {"arg": "q"}}, 20_000 * 1),
             "per-row expression": ({"contains": {"op": "concat", "args": [{"row": "to"}] * (per_row - 1)}},
                                    20_000 * (1 + per_row))}
    print(f"work bounds: a call at most {MAX_CALL_WORK:,} steps (estimated at load; {MAX_CALL_STEPS:,} counted "
          f"as it runs), all the paths of a world {MAX_REPLAY_WORK:,}")
    worst = 0.0
    for label, (test, steps) in scans.items():
        doc, _ = world_of(20_000)
        doc["tools"].append({"name": "scan", "description": "A scan.", "parameters": {
            "type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]},
            "effects": [{"read": "transfers", "where": {"to": test}, "limit": 1}]})
        world = load_world(doc, "bank.json")
        state = initial_state(world)
        seconds = best_us(lambda: run_call(world, state, "scan", {"q": "ACC"}), runs=3, inner=1) / 1e6
        per_million = seconds / steps * 1e6
        worst = max(worst, per_million)
        print(f"  scan of 20,000 rows by {label:19} {steps:>10,} steps {seconds * 1000:8.1f} ms "
              f"({per_million:.2f} s per million steps)")
    print(f"  worst call ~{worst * MAX_CALL_WORK / 1e6:.1f} s; worst `suite validate` replay "
          f"~{2 * worst * MAX_REPLAY_WORK / 1e6:.1f} s")
    for world in bundled_worlds().values():
        rows = {name: len(table.rows) for name, table in world.tables.items()}
        work = {name: call_work(tool, rows) for name, tool in world.tools.items()}
        replay = sum(work[c.tool] for s in world.scenarios for p in s.gold_paths + s.wrong_paths
                     for t in p.turns for c in t.calls)
        print(f"  bundled {world.id:8} largest call {max(work.values()):>8,} steps, all paths {replay:>10,} steps")


if __name__ == "__main__":
    main()
