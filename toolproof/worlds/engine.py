"""One tool call against a world's state: `run_call(world, state, tool, arguments) -> Outcome`.

A call runs in this order: the arguments are checked against the tool's JSON Schema (invalid ->
the tool's error "invalid arguments: <first finding>"); `find` binds rows (none -> its `missing`
text); `checks` in order (the first true `if` -> its error); `effects` in order (read, insert,
update, delete); then the `result` (default: the last effect's). Any error comes back as
`{"error": text}` with `error` True and the state unchanged: a model's bad call is data, never an
exception. A stateless tool answers from its `answers` keyed by arguments.

Deterministic and pure: the same world, state, tool and arguments give the same Outcome (no
clock: the world's own `today`; new ids from per-table counters). A State is never changed in
place: a write copies the one table it touches and shares the rest. A look-up by key costs O(1)
(each State keeps an index of its keys as compared, built once and carried forward), a read or a
filter O(rows of that table), a write one dict copy of that table (C speed); benchmarks/
world_engine.py prints the figures for 500 and 20,000 rows. A call counts its steps (cost.py:
rows looked at, expression nodes evaluated per row) and one past MAX_CALL_STEPS stops as the
tool's error, so no call (a model's own, on any world the loader accepted) runs for minutes.

Must not grade (grading/ reads Outcomes) nor touch files.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .cost import MAX_CALL_STEPS, nodes, per_row
from .exprs import EvalError, Scope, argument, contains, evaluate, form_of, mentions, ordered, same
from .templates import render
from .model import FIRST_NEW_ID, Effect, State, World, WorldTool

COMPARATORS = ("gte", "lte", "gt", "lt", "ne", "contains", "in")
_ORDER_OP = {"gte": ">=", "lte": "<=", "gt": ">", "lt": "<"}


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one call gave: the result sent back to the model ({"error": text} when `error`), the
    changes it made (the transcript's `change` entries, in order) and the state after it. The
    result and the changes share rows with the states (nothing is copied twice): read them only."""
    result: Any
    error: bool
    changes: tuple
    state: State


class _Refused(Exception):
    """The call fails with this text as the tool's error (a missing row, a check, a collision)."""

    def __init__(self, text: str):
        super().__init__(text)
        self.text = text


def initial_state(world: World) -> State:
    """The world's tables as the file wrote them, every counter at FIRST_NEW_ID."""
    return State({name: {row[t.key]: row for row in t.rows} for name, t in world.tables.items()},
                 {name: FIRST_NEW_ID for name in world.tables})


def run_call(world: World, state: State, tool_name: str, arguments: Any) -> Outcome:
    """Run one call of `tool_name` with `arguments` (as the model sent them) against `state`."""
    tool = world.tools.get(tool_name) if isinstance(tool_name, str) else None
    if tool is None:
        return _failed(state, f"unknown tool {tool_name!r}")
    if not isinstance(arguments, dict):
        return _failed(state, "invalid arguments: the arguments are not an object")
    finding = tool.schema.first_error(arguments)
    if finding is not None:
        return _failed(state, f"invalid arguments: {finding.path}: {finding.message}")
    try:
        if tool.stateless:
            return Outcome(_answer(tool, Scope(arguments, world.today)), False, (), state)
        draft = _Draft(world, state)
        result = _run_stateful(world, tool, arguments, draft)
    except _Refused as exc:
        return _failed(state, exc.text)
    except EvalError as exc:
        return _failed(state, f"the tool could not compute its answer: {exc.reason}")
    except RecursionError:      # belt and braces: the loader bounds depth through lets (MAX_CHAIN)
        return _failed(state, "the tool could not compute its answer: nested too deeply")
    return Outcome(result, False, tuple(draft.changes), draft.state())


def _failed(state: State, text: str) -> Outcome:
    return Outcome({"error": text}, True, (), state)


def _answer(tool: WorldTool, scope: Scope) -> Any:
    for answer in tool.answers:
        if all(same(argument(scope.args, name)[1], value) for name, value in answer.when.items()):
            return answer.result
    otherwise = tool.otherwise or {"error": "no answer for these arguments"}
    if "error" in otherwise:
        raise _Refused(render(otherwise["error"], scope))
    return otherwise["result"]


class _Draft:
    """The state being built by one call: tables (and their key indexes) copied on their first
    write, and the changes."""

    def __init__(self, world: World, state: State):
        self.world = world
        self.base = state
        self.tables = dict(state.tables)
        self.counters = dict(state.counters)
        self.copied: set = set()
        self.indexes: dict = {}         # table -> its index as this call leaves it
        self.changes: list = []
        self.steps = 0

    def charge(self, steps: int) -> None:
        """Count `steps` of this call's work (cost.py); past MAX_CALL_STEPS the call stops."""
        self.steps += steps
        if self.steps > MAX_CALL_STEPS:
            raise EvalError(f"the call would take more than {MAX_CALL_STEPS:,} steps (rows looked at and "
                            "expression nodes evaluated per row)")

    def index(self, table: str) -> dict:
        """{key as compared: key} of the table: built once per State (kept in its memo) and
        carried to the next State, so a look-up by key never scans the rows."""
        if table not in self.indexes:
            built = self.base.index.get(table)
            if built is None:
                built = self.base.index[table] = {folded(k): k for k in self.base.tables[table]}
            self.indexes[table] = built
        return self.indexes[table]

    def writable(self, table: str, *, keys: bool = False) -> dict:
        """The table, copied on its first write; `keys`: the write adds or removes keys, so the
        index is copied too (an update's keys never change)."""
        if table not in self.copied:
            self.tables[table] = dict(self.tables[table])
            self.copied.add(table)
        if keys and self.index(table) is self.base.index.get(table):
            self.indexes[table] = dict(self.indexes[table])     # the base state's memo stays as it was
        return self.tables[table]

    def taken(self, table: str, key: Any) -> bool:
        """Keys are unique as a world compares values (trimmed, case-folded): "acc-1" is "ACC-1"."""
        return _hashable(key) and folded(key) in self.index(table)

    def new_id(self, table: str, prefix: str) -> str:
        number = self.counters[table]
        while self.taken(table, f"{prefix}{number}"):
            number += 1
        self.counters[table] = number + 1
        return f"{prefix}{number}"

    def state(self) -> State:
        if not self.changes and self.counters == self.base.counters:
            return self.base
        return State(self.tables, self.counters, {**self.base.index, **self.indexes})


def folded(key: Any) -> Any:
    """A key as keys are compared: a text trimmed and case-folded, a number as it is."""
    return key.strip().casefold() if isinstance(key, str) else key


def _run_stateful(world: World, tool: WorldTool, arguments: dict, draft: _Draft) -> Any:
    scope = Scope(arguments, world.today, dict(tool.lets))
    for find in tool.finds:
        rows = _matching(draft, find.table, find.where, scope)
        if not rows:
            raise _Refused(render(find.missing, scope))
        scope.names[find.alias] = rows[0]
    for check in tool.checks:
        if evaluate(check.test, scope):
            raise _Refused(render(check.error, scope))
    last: Any = {}
    for effect in tool.effects:
        last = _EFFECTS[effect.kind](effect, scope, draft)
    for find in tool.finds:
        key = world.tables[find.table].key
        scope.names[f"{find.alias}_after"] = draft.tables[find.table].get(scope.names[find.alias].get(key))
    return last if tool.result is None else build(tool.result, scope)


def build(template: Any, scope: Scope) -> Any:
    """A result template: an object that is no expression is built field by field, anything
    else is an expression."""
    if isinstance(template, dict) and form_of(template) == "?":
        return {name: build(value, scope) for name, value in template.items()}
    return evaluate(template, scope)


def _skipped(expr: Any, scope: Scope) -> bool:
    """An entry whose expression is an argument the call did not give is an optional filter."""
    return isinstance(expr, dict) and form_of(expr) == "arg" and not argument(scope.args, expr["arg"])[0]


def _filters(where: dict, scope: Scope) -> list:
    """(field, comparator, value or expression, per row) for each entry of `where` that applies."""
    out = []
    for name, spec in where.items():
        comparator, expr = ("eq", spec)
        if isinstance(spec, dict) and len(spec) == 1 and next(iter(spec)) in COMPARATORS:
            (comparator, expr), = spec.items()
        if _skipped(expr, scope):
            continue
        moving = mentions(expr, "row")
        out.append((name, comparator, expr if moving else evaluate(expr, scope), moving))
    return out


def _holds(comparator: str, have: Any, want: Any) -> bool:
    if comparator == "eq":
        return same(have, want)
    if comparator == "ne":
        return not same(have, want)
    try:
        if comparator == "contains":
            return contains(have, want)
        if comparator == "in":
            return contains(want, have)
        return ordered(_ORDER_OP[comparator], have, want)
    except EvalError:
        return False        # a row without the field, or of another kind, is not a match


def _test(comparator: str, want: Any) -> Any:
    """A one-argument test of a row's value against a value computed once: the common ones
    (equal to a text, ordered against a text or a number) without a call per row to `same`."""
    if comparator == "eq" and isinstance(want, str):
        want = want.strip().casefold()
        return lambda have: have.__class__ is str and have.strip().casefold() == want
    if comparator in _ORDER_OP and (isinstance(want, str) or _number(want)):
        kind_ok = (lambda h: h.__class__ is str) if isinstance(want, str) else _number
        compare = {"gte": want.__le__, "lte": want.__ge__, "gt": want.__lt__, "lt": want.__gt__}[comparator]
        return lambda have: kind_ok(have) and compare(have) is True
    return lambda have: _holds(comparator, have, want)


def _matching(draft: _Draft, table: str, where: dict, scope: Scope) -> list:
    """The rows (in table order) matching `where`. A key equality is a dict look-up."""
    rows, key = draft.tables[table], draft.world.tables[table].key
    filters = _filters(where, scope)
    candidates: Any = rows.values()
    for name, comparator, want, moving in filters:
        if name == key and comparator == "eq" and not moving and _hashable(want):
            hit = rows.get(draft.index(table).get(folded(want), _ABSENT))
            candidates = [hit] if hit is not None else []
            break
    fixed = [(name, _test(c, w)) for name, c, w, moving in filters if not moving]
    moving = [(name, c, w) for name, c, w, moving in filters if moving]
    walked = sum(len(w) for _, c, w, m in filters if c == "in" and not m and isinstance(w, (list, str)))
    draft.charge(len(candidates) * (per_row(where) + walked))      # before the scan, not after it
    found = []
    for row in candidates:
        if _passes(row, fixed) and (not moving or _passes_per_row(row, moving, scope)):
            found.append(row)
    return found


def _passes(row: dict, fixed: list) -> bool:
    for name, test in fixed:            # a plain loop: no generator per row
        if not test(row.get(name)):
            return False
    return True


def _passes_per_row(row: dict, moving: list, scope: Scope) -> bool:
    scope.row = row
    try:
        return all(_holds(c, row.get(name), evaluate(w, scope)) for name, c, w in moving)
    finally:
        scope.row = None


_ABSENT = object()


def _hashable(value: Any) -> bool:
    return value is None or isinstance(value, (str, int, float, bool))


def _read(effect: Effect, scope: Scope, draft: _Draft) -> Any:
    rows = _matching(draft, effect.table, effect.where, scope)
    if effect.order_by:
        field, reverse = effect.order_by.lstrip("-"), effect.order_by.startswith("-")
        # numbers, then texts, each in the asked order; rows without a number or a text there last
        numbers = sorted((r for r in rows if _number(r.get(field))), key=lambda r: r[field], reverse=reverse)
        texts = sorted((r for r in rows if isinstance(r.get(field), str)), key=lambda r: r[field], reverse=reverse)
        rows = numbers + texts + [r for r in rows if not _number(r.get(field)) and not isinstance(r.get(field), str)]
    shown = rows[:effect.limit] if effect.limit is not None else rows
    if effect.fields:
        shown = [{f: r[f] for f in effect.fields if f in r} for r in shown]
    name = effect.alias or effect.table
    if effect.one:
        if not shown:
            raise _Refused(render(effect.missing or f"no {effect.table} row matches", scope))
        scope.names[name] = shown[0]
        return shown[0]
    scope.names[name] = shown
    return {name: shown, "count": len(rows)}


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _insert(effect: Effect, scope: Scope, draft: _Draft) -> Any:
    table = effect.table
    key = draft.world.tables[table].key
    scope.new_id = lambda prefix: draft.new_id(table, prefix)
    try:
        row = {name: evaluate(expr, scope) for name, expr in effect.values.items()}
    finally:
        scope.new_id = None
    if row.get(key) is None or isinstance(row[key], (dict, list, bool)):
        raise _Refused(f"cannot add to {table}: its key {key!r} needs a text or a number")
    if draft.taken(table, row[key]):
        raise _Refused(f"cannot add to {table}: {row[key]!r} already exists")
    draft.writable(table, keys=True)[row[key]] = row
    draft.index(table)[folded(row[key])] = row[key]
    draft.changes.append({"table": table, "op": "insert", "key": row[key], "row": row})
    scope.names["inserted"] = row
    if effect.alias:
        scope.names[effect.alias] = row
    return row


def _update(effect: Effect, scope: Scope, draft: _Draft) -> Any:
    table = effect.table
    key = draft.world.tables[table].key
    matched = _matching(draft, table, effect.where, scope)
    draft.charge(len(matched) * sum(nodes(expr) for expr in effect.set.values()))
    after = []
    scope.new_id = lambda prefix: draft.new_id(table, prefix)
    try:
        for row in matched:
            scope.row = row
            new = {**row, **{name: evaluate(expr, scope) for name, expr in effect.set.items()}}
            scope.row = None
            changed = {f: [row.get(f), new[f]] for f in effect.set if f not in row or not _identical(row[f], new[f])}
            if changed:
                draft.writable(table)[row[key]] = new
                draft.changes.append({"table": table, "op": "update", "key": row[key], "fields": changed})
            after.append(new)
    finally:
        scope.new_id, scope.row = None, None
    name = effect.alias or "updated"
    scope.names[name] = after
    if effect.alias:        # `<alias>_after`: the (first) row the update left, as a find's is
        scope.names[f"{effect.alias}_after"] = after[0] if after else None
    return {name: after, "count": len(after)}


def _identical(a: Any, b: Any) -> bool:
    """Unchanged as stored (1 and 1.0 are the same number; "Ana" and "ana" are not the same text)."""
    return type(a) is type(b) and a == b or (isinstance(a, (int, float)) and isinstance(b, (int, float))
                                              and not isinstance(a, bool) and not isinstance(b, bool) and a == b)


def _delete(effect: Effect, scope: Scope, draft: _Draft) -> Any:
    table = effect.table
    key = draft.world.tables[table].key
    matched = _matching(draft, table, effect.where, scope)
    rows = draft.writable(table, keys=True) if matched else None
    for row in matched:
        del rows[row[key]]
        del draft.index(table)[folded(row[key])]
        draft.changes.append({"table": table, "op": "delete", "key": row[key], "row": row})
    name = effect.alias or "deleted"
    scope.names[name] = matched
    return {name: matched, "count": len(matched)}


_EFFECTS = {"read": _read, "insert": _insert, "update": _update, "delete": _delete}
