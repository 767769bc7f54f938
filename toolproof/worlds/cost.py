"""What a tool call costs, in steps, so that no world file (and no model) can make a call, or the
replay of a world's paths, run for minutes: one cost model for the loader's bounds and the
engine's per-call budget.

A step is one row looked at, plus one per node of the expressions evaluated for that row (a
`where` entry that reads {"row": ...}, an update's `set`). The loader (load.py) estimates a
tool's call as if every find and effect scanned its whole table (a key look-up costs less: the
estimate is an upper bound) and refuses, in one line naming the place:
- a find or an effect, or a whole tool, whose call would take more than MAX_CALL_WORK steps;
- paths (gold and wrong, every scenario) whose calls together would take more than
  MAX_REPLAY_WORK steps (`suite validate`, the page's loader and the grader replay them all).
The engine counts the steps a call really takes (tables grow by inserts, a list given to `in`
or `contains` is walked per row) and stops a call past MAX_CALL_STEPS as the tool's error.
benchmarks/world_engine.py prints what these bounds cost in seconds; docs/scenarios.md states them.

Pure: no I/O. Must not run a call (engine.py) nor read a file.
"""
from __future__ import annotations

from typing import Any, Iterator

from .exprs import mentions

MAX_CALL_WORK = 1_000_000       # estimated steps of one call of a tool (and of each find or effect)
MAX_REPLAY_WORK = 2_000_000     # estimated steps of every path call of a world together
MAX_CALL_STEPS = 2 * MAX_CALL_WORK   # steps a call may really take (room for tables grown by inserts)


def nodes(expr: Any) -> int:
    """Nodes of a checked expression (iterative: the loader bounded its depth and size)."""
    count, stack = 0, [expr]
    while stack:
        item = stack.pop()
        count += 1
        if isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, dict) and "op" in item and "args" in item:
            stack.extend(item["args"])
    return count


def per_row(where: Any, set_: Any = None) -> int:
    """Steps for one row of a scan: the row, the nodes of the where entries evaluated per row and
    of an update's set."""
    steps = 1
    for spec in (where or {}).values():
        expr = next(iter(spec.values())) if isinstance(spec, dict) and len(spec) == 1 \
            and next(iter(spec)) in ("gte", "lte", "gt", "lt", "ne", "contains", "in") else spec
        if mentions(expr, "row"):
            steps += nodes(expr)
    for expr in (set_ or {}).values():
        steps += nodes(expr)
    return steps


def parts(tool: Any, rows: dict) -> Iterator[tuple[list, int]]:
    """(place within the tool, estimated steps) of each find and each effect of a stateful tool,
    `rows` giving each table's row count."""
    for j, find in enumerate(tool.finds):
        yield ["find", j], rows.get(find.table, 0) * per_row(find.where)
    for j, effect in enumerate(tool.effects):
        if effect.kind == "insert":
            yield ["effects", j], 1 + sum(nodes(e) for e in effect.values.values())
        else:
            yield ["effects", j], rows.get(effect.table, 0) * per_row(effect.where, effect.set)


def call_work(tool: Any, rows: dict) -> int:
    """Estimated steps of one call of `tool` (a stateless tool: one per answer it may compare)."""
    if tool is None:
        return 1
    if not (tool.finds or tool.effects):
        return 1 + len(tool.answers)
    return 1 + sum(steps for _, steps in parts(tool, rows))
