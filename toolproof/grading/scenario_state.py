"""A scenario transcript replayed through its world: what each call returned and changed, and how
the tables ended against what the scenario expects.

The grader never trusts a transcript's recorded tool results: every call the model made runs again
through the world's engine (worlds/engine.py) from the world's initial state, in the order sent
(a turn's calls in call order). A recorded result that differs from the replay (the world file
changed since the run) is named in a note, and the grade follows the replay.

`answer_call` is the one answer to a model's call, for the runner and the grader alike: a tool the
scenario does not offer, or arguments that are not JSON, get a tool error and change nothing; every
other call is the engine's.

Values compare as the world compares them (worlds/exprs.same: texts trimmed and case-folded, 1
equals 1.0). `end_state_diff` compares the final tables with the scenario's `end_state`: rows inserted (matched
on the fields listed), rows updated (listed fields equal; no other field changed), keys deleted,
and every table or row not named unchanged. Each difference names table, key and field.

Pure: no I/O. Must not decide a verdict (scenario_grade.py does).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from toolproof.worlds.engine import initial_state, run_call
from toolproof.worlds.exprs import same
from toolproof.worlds.model import Scenario, State, World

from .reasons import show as show_value

MAX_DIFFS = 50          # differences kept per scenario: the first names the verdict's reason


@dataclass(frozen=True, slots=True)
class Answered:
    """One call replayed: what the model saw and what it changed."""
    turn: int                    # 1-based model turn
    index: int                   # the call's place in its turn
    tool: str
    arguments: Any               # None when they were not readable
    result: Any
    error: bool
    changes: tuple


def answer_call(world: World, scenario: Scenario, state: State, tool: str, arguments: Any):
    """(result, error, changes, state after) for one call the model made."""
    if tool not in scenario.tools or tool not in world.tools:
        offered = ", ".join(scenario.tools)
        return {"error": f"unknown tool {tool!r}; the tools offered are: {offered}"}, True, (), state
    if not isinstance(arguments, dict):
        return {"error": "invalid arguments: not a JSON object"}, True, (), state
    out = run_call(world, state, tool, arguments)
    return out.result, bool(out.error), tuple(out.changes), out.state


def canonical(value: Any) -> str:
    """A value as sorted, compact JSON (what two results are compared by)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


def replay(world: World, scenario: Scenario, turns: list, start: State | None = None) -> tuple[list, State]:
    """(every call answered, in order; the final state). `turns` are (turn number, [(tool,
    arguments)]) for each turn that holds calls; `start` the world's initial state (made once per
    world by a caller that grades many transcripts)."""
    state = start if start is not None else initial_state(world)
    answered = []
    for number, calls in turns:
        for index, (tool, arguments) in enumerate(calls):
            result, error, changes, state = answer_call(world, scenario, state, tool, arguments)
            answered.append(Answered(number, index, tool, arguments, result, error, changes))
    return answered, state


def recorded_differs(answered: list, recorded: dict) -> str | None:
    """A note on the first recorded tool result that differs from the replay (None: all agree).
    `recorded`: turn number -> the turn's recorded `tool_results` (None when not recorded)."""
    for step in answered:
        kept = recorded.get(step.turn)
        if kept is None:
            continue
        note = _differs(step.turn, step.tool, step.index, step.result, step.error, kept)
        if note:
            return note
    return None


def _differs(number: int, tool: str, index: int, result: Any, error: bool, recorded: Any) -> str | None:
    kept = recorded[index] if isinstance(recorded, list) and index < len(recorded) else None
    if not isinstance(kept, dict):
        return f"turn {number}: no recorded result for call {index + 1} ({tool}); graded as the replay says"
    if canonical(kept.get("result")) != canonical(result) or bool(kept.get("error")) != error:
        return (f"turn {number}: the recorded result of {tool} differs from the world's replay "
                f"(recorded {show_value(kept.get('result'))}, replayed {show_value(result)}); the world file "
                "changed since the run? graded as the replay says")
    return None


# ---- the end state ---------------------------------------------------------------------------


def _diff(table: str, key: Any, field: str | None, expected: Any, actual: Any) -> dict:
    return {"table": table, "key": key, "field": field, "expected": expected, "actual": actual}


def _rows(state: State, table: str) -> dict:
    rows = state.tables.get(table)
    return rows if rows is not None else {}


def end_state_diff(world: World, scenario: Scenario, final: State, start: State | None = None) -> list[dict]:
    """Every difference between the final tables and what the scenario expects, table by table in
    the world's order (at most MAX_DIFFS): `{"table", "key", "field", "expected", "actual"}`;
    `field` None for a whole row (one missing, one too many). `start` must be the state the replay
    began from: a table (or row) a write never touched is the very same object in both (the
    engine copies on write), so the cost is that of what changed, not of the world's size."""
    start = start or initial_state(world)
    wanted = {end.table: end for end in scenario.expect.end_state}
    out: list[dict] = []
    for table in world.tables:
        before, after = _rows(start, table), _rows(final, table)
        end = wanted.get(table)
        if after is before and (end is None or not (end.insert or end.update or end.delete)):
            continue
        out += _table_diff(table, before, after, end)
        if len(out) >= MAX_DIFFS:
            break
    return out[:MAX_DIFFS]


def _table_diff(table: str, before: dict, after: dict, end) -> list[dict]:
    out: list[dict] = []
    inserted = [k for k in after if k not in before] if len(after) != len(before) or after is not before else []
    updates = {} if end is None else {_key(k, before): dict(fields) for k, fields in end.update}
    deletes = set() if end is None else {_key(k, before) for k in end.delete}
    for key, row in before.items():
        now = after.get(key)
        if now is row and key not in updates and key not in deletes:
            continue                        # untouched (the same object): nothing to compare
        if key in deletes:
            if key in after:
                out.append(_diff(table, key, None, "deleted", now))
            continue
        if key not in after:
            out.append(_diff(table, key, None, row, "deleted"))
            continue
        sets = updates.get(key, {})
        for field in dict.fromkeys([*row, *now]):
            want = sets[field] if field in sets else row.get(field)
            if not same(want, now.get(field)):
                out.append(_diff(table, key, field, want, now.get(field)))
    for key in updates:
        if key not in before:
            out.append(_diff(table, key, None, "a row to update", None))
    out += _inserts(table, [(k, after[k]) for k in inserted], () if end is None else end.insert)
    return out


def _key(key: Any, rows: dict) -> Any:
    """The row key as the table holds it (a file may write 7 for a key stored as "7")."""
    if key in rows:
        return key
    return next((k for k in rows if same(key, k)), key)


def _inserts(table: str, got: list, wanted: tuple) -> list[dict]:
    """Each expected insert matched to the first unmatched new row whose listed fields are equal."""
    out, left = [], list(got)
    for want in wanted:
        found = next((i for i, (_, row) in enumerate(left)
                      if all(same(v, row.get(f)) for f, v in dict(want).items())), None)
        if found is not None:
            left.pop(found)
            continue
        near = _nearest(want, left)
        if near is None:
            out.append(_diff(table, None, None, dict(want), None))
        else:
            key, row = near
            field = next(f for f, v in dict(want).items() if not same(v, row.get(f)))
            out.append(_diff(table, key, field, dict(want)[field], row.get(field)))
            left.remove(near)
    out += [_diff(table, key, None, None, row) for key, row in left]
    return out


def _nearest(want: Any, rows: list) -> tuple | None:
    """The new row sharing most listed fields with an expected insert (None: no new row)."""
    if not rows:
        return None
    fields = dict(want)
    return max(rows, key=lambda kr: sum(same(v, kr[1].get(f)) for f, v in fields.items()))


def diff_reason(diff: dict) -> str:
    """The end state's first difference as a reason: "end state: accounts ACC-1 balance is 400.0,
    expected 350"."""
    table, key, field = diff["table"], diff["key"], diff["field"]
    if key is None:
        return f"end state: {table}: no row inserted matching {show_value(diff['expected'])}"
    if diff["expected"] is None:
        return f"end state: {table}: unexpected row {key} {show_value(diff['actual'])}"
    if diff["actual"] == "deleted":
        return f"end state: {table} {key} was deleted; expected to stay"
    if diff["expected"] == "deleted":
        return f"end state: {table} {key} still exists; expected deleted"
    if field is None:
        return f"end state: {table} {key}: expected {show_value(diff['expected'])}, got {show_value(diff['actual'])}"
    return (f"end state: {table} {key} {field} is {show_value(diff['actual'])}, "
            f"expected {show_value(diff['expected'])}")
