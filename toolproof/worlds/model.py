"""The records of a world file: tables, tools with their declarative effects, and the scenarios
(scripted user, expectations, gold and wrong paths) that run over them; plus `State`, the
world's tables at one moment. All frozen: loading builds them once (load.py), the engine and the
grader only read them.

Expressions stay the JSON the file wrote (a closed set, checked at load, evaluated by exprs.py);
nothing from a file is ever executed.

Pure: no I/O. Must not check a file (load.py does) nor run a call (engine.py does).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Mapping

from toolproof.suite.model import ExpectedCall, PhraseRules
from toolproof.suite.schema import CompiledSchema

FORMAT = "toolproof.world"
VERSION = 1
WORLD_ID = re.compile(r"[a-z][a-z0-9_]{0,31}")          # a world's id (and its file name)
NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,63}")       # tables, fields, lets, aliases
TOOL_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_-]{0,63}")  # what every provider accepts
SCENARIO_NAME = re.compile(r"[a-z][a-z0-9_-]{0,47}")     # after "<world>." in a scenario id
PATH_ID = re.compile(r"[a-z0-9][a-z0-9_-]{0,39}")        # gold/wrong path and milestone ids
FIRST_NEW_ID = 1001      # the first number a table's {"new_id": "PREFIX-"} gives
TAGS = ("ask_then_use", "error_recovery", "parallel_fan_out", "chain", "policy_refusal",
        "change_of_mind", "long_result", "confirm_before_write")
POLICY_RULES = ("confirm_before",)
EFFECT_KINDS = ("read", "insert", "update", "delete")


@dataclass(frozen=True, slots=True)
class Table:
    """A table's initial rows (in file order) and the field that keys them."""
    name: str
    key: str
    rows: tuple


@dataclass(frozen=True, slots=True)
class Find:
    """Bind the first row of `table` matching `where` to `alias`; none -> the `missing` text
    (a template) is the tool's error."""
    alias: str
    table: str
    where: Mapping
    missing: str


@dataclass(frozen=True, slots=True)
class Check:
    """A precondition: when `test` is true the call fails with `error` (a template)."""
    test: Any
    error: str


@dataclass(frozen=True, slots=True)
class Effect:
    """One step of a call's effect on the tables, by `kind`:
    read (rows matching `where`, projected on `fields`, sorted by `order_by` ("-field": descending),
    at most `limit`, bound to `alias`; `one`: the first row itself, none -> `missing` error),
    insert (`values` -> a new row), update (`set` on every row matching `where`),
    delete (every row matching `where`). `alias` also names an update's or a delete's rows, and
    `<alias>_after` an update's first row as it left it."""
    kind: str
    table: str
    where: Mapping = field(default_factory=dict)
    values: Mapping = field(default_factory=dict)
    set: Mapping = field(default_factory=dict)
    fields: tuple = ()
    order_by: str | None = None
    limit: int | None = None
    alias: str | None = None
    one: bool = False
    missing: str | None = None


@dataclass(frozen=True, slots=True)
class Answer:
    """A stateless tool's result for calls whose arguments match `when` (normalised equality of
    each listed argument)."""
    when: Mapping
    result: Any


@dataclass(frozen=True, slots=True)
class WorldTool:
    """A tool as offered (`name`, `description`, `parameters`, verbatim) and what a call does:
    either state (lets, finds, checks, effects, result) or `answers` keyed by arguments with
    `otherwise` ({"error": template} or {"result": value}) for any other call."""
    name: str
    description: str
    parameters: dict
    schema: CompiledSchema = field(compare=False, repr=False)
    lets: Mapping = field(default_factory=dict)
    finds: tuple = ()
    checks: tuple = ()
    effects: tuple = ()
    result: Any = None           # a result template; None: the last effect's default result
    answers: tuple = ()
    otherwise: Mapping | None = None

    @property
    def stateless(self) -> bool:
        return bool(self.answers) or self.otherwise is not None


@dataclass(frozen=True, slots=True)
class Reply:
    """A scripted user reply: sent when the assistant asks for one of `asks_for` (detail names of
    the answer rules; empty: any question); `confirms`: the reply confirms a pending write."""
    say: str
    asks_for: tuple = ()
    confirms: bool = False


@dataclass(frozen=True, slots=True)
class UserScript:
    """The scripted user: the first message, replies keyed by what is asked, the fallback when no
    reply fits, and later turns (`then`) sent when the assistant asks nothing."""
    first: str
    replies: tuple = ()
    fallback: str = ""
    then: tuple = ()             # Reply, asks_for always empty


@dataclass(frozen=True, slots=True)
class TableEnd:
    """What a scenario expects of one table at the end: rows inserted (matched on the listed
    fields), rows updated ((key, {field: value})) and keys deleted. Tables not named must end
    unchanged."""
    table: str
    insert: tuple = ()
    update: tuple = ()
    delete: tuple = ()


@dataclass(frozen=True, slots=True)
class Milestone:
    """A call that must happen (argument rules of the suite's expected calls), after the
    milestones named in `after`."""
    id: str
    call: ExpectedCall
    after: tuple = ()


@dataclass(frozen=True, slots=True)
class Minefield:
    """A call that must never happen; `call` None: any call to `tool`."""
    tool: str
    call: ExpectedCall | None
    why: str = ""


@dataclass(frozen=True, slots=True)
class Dataflow:
    """Argument `arg` of every call to `tool` must equal a value found at `field` (a dotted path;
    a list on the way matches any element) in an earlier result of tool `source`."""
    tool: str
    arg: str
    source: str
    field: str


@dataclass(frozen=True, slots=True)
class Budget:
    """At most `calls` tool calls and `turns` model requests (None: no bound)."""
    calls: int | None = None
    turns: int | None = None


@dataclass(frozen=True, slots=True)
class PolicyRule:
    """A rule of conduct, e.g. "confirm_before": no call to `tools` before a user turn that
    confirms it."""
    rule: str
    tools: tuple = ()


@dataclass(frozen=True, slots=True)
class Expectations:
    end_state: tuple = ()        # TableEnd, in file order
    milestones: tuple = ()
    minefields: tuple = ()
    dataflow: tuple = ()
    final_answer: PhraseRules | None = None
    budgets: Budget = Budget()
    policy: tuple = ()


@dataclass(frozen=True, slots=True)
class PathCall:
    tool: str
    arguments: Any


@dataclass(frozen=True, slots=True)
class PathTurn:
    """One model turn of a path: calls (several: parallel) or a text answer (`say`)."""
    calls: tuple = ()
    say: str | None = None


@dataclass(frozen=True, slots=True)
class Path:
    """A scripted model side of a scenario; a wrong path names what it must fail with."""
    id: str
    turns: tuple
    fails_with: str | None = None


@dataclass(frozen=True, slots=True)
class Scenario:
    id: str                      # "<world>.<name>"
    world: str
    title: str
    why: str
    covers: tuple
    tools: tuple                 # offered, in this order
    system: str | None
    user: UserScript
    turn_limit: int
    expect: Expectations
    gold_paths: tuple = ()
    wrong_paths: tuple = ()


@dataclass(frozen=True, slots=True)
class World:
    id: str
    title: str
    why: str
    today: str
    tables: Mapping              # name -> Table, in file order
    tools: Mapping               # name -> WorldTool, in file order
    scenarios: tuple = ()
    sha256: str = ""


@dataclass(frozen=True, slots=True)
class State:
    """The world's tables at one moment: table -> {key: row} (insertion order) and table -> the
    next number its {"new_id"} gives. Never mutated in place: a write builds a new State that
    shares every table it did not touch (copy on write, one table per write). `index` is the
    engine's memo, table -> {key as compared (trimmed, case-folded): key}, filled on first use."""
    tables: Mapping
    counters: Mapping
    index: dict = field(default_factory=dict, compare=False, repr=False)

    def rows(self, table: str) -> list:
        return list(self.tables[table].values())
