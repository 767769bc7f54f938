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
a file's text (the JSON reader's bounds come first there).
"""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from toolproof.errors import ToolProofError  # noqa: E402
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


if __name__ == "__main__":
    main()
