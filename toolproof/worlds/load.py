"""A world file checked and built: `load_world(doc, source) -> World`, `load_worlds(docs)`,
`world_sha256(doc)` and `world_from_text(text, source)`.

A world file is input like any other, and may be hostile: before anything reads it, its row
count is bounded (MAX_ROWS in all, counted before a row is looked at, so 10^6 rows cost nothing)
and every value is walked once (shape.refuse_hostile: depth, huge lists, NaN, control characters,
lone surrogates). Then the top, the tables (a key per row, unique as compared), the tools
(load_tools.py) and the scenarios (load_scenarios.py). Every refusal is one ToolProofError line
naming the file and the JSON path ("bank.json: at $.tools[2].checks[0].if.op: unknown op 'pow'; ...").

docs/scenarios.md is the manual of the format; data/schemas/world.schema.json describes the same
shape for editors (a test checks the bundled worlds against it and that its bounds are these).

Pure: no I/O (datafiles.bundled_worlds reads the files). Must not run a call nor grade.
"""
from __future__ import annotations

import hashlib
from datetime import date
from typing import Any

from toolproof.errors import ToolProofError
from toolproof.suite.fingerprint import canonical_json
from .cost import MAX_CALL_WORK, MAX_REPLAY_WORK, call_work, parts
from .load_scenarios import load_scenarios
from .load_tools import load_tools
from .model import FORMAT, NAME, VERSION, WORLD_ID, Table, World
from .shape import Refusal, document_from_text, items, mapping, obj, refuse_hostile, text

MAX_ROWS = 20_000           # rows of all of a world's tables together
MAX_TABLES = 32
MAX_FIELDS = 64             # fields of one row
_TOP = ("format", "version", "id", "title", "today", "tables", "tools")
_TOP_OPTIONAL = ("why", "scenarios")


def world_sha256(doc: Any) -> str:
    """Hex sha256 of the world document's canonical JSON (what a transcript records as
    `world_sha256`): key order and whitespace never change it, any value does."""
    return hashlib.sha256(canonical_json(doc).encode("utf-8")).hexdigest()


def world_from_text(text_: str, source: str) -> World:
    """A world file's text (read from disk, or chosen in the page) checked and built; a
    duplicate key is refused too (json would keep the last value silently)."""
    return load_world(document_from_text(text_, source), source)


def load_world(doc: Any, source: str) -> World:
    """A parsed world document -> World, or ToolProofError naming `source` and the JSON path."""
    try:
        return _world(doc, source)
    except Refusal as exc:
        raise exc.error(source) from None
    except RecursionError:      # belt and braces: every walk here is iterative or bounded
        raise ToolProofError("nested too deeply to read", source=source) from None


def load_worlds(docs: dict) -> dict:
    """{source: world document} -> {world id: World}, in the given order; a world id or a
    scenario id used twice (scenario ids are unique across all worlds) is refused."""
    worlds: dict = {}
    owner: dict = {}
    for source, doc in docs.items():
        world = load_world(doc, source)
        if world.id in worlds:
            raise ToolProofError(f"world id {world.id!r} is also the id of another world file",
                                 source=source, path="$.id")
        for i, scenario in enumerate(world.scenarios):
            if scenario.id in owner:
                raise ToolProofError(f"scenario id {scenario.id!r} is also used in {owner[scenario.id]}",
                                     source=source, path=f"$.scenarios[{i}].id")
            owner[scenario.id] = source
        worlds[world.id] = world
    return worlds


def _world(doc: Any, source: str) -> World:
    doc = obj(doc, [], _TOP, _TOP_OPTIONAL)
    _count_rows(doc["tables"])
    refuse_hostile(doc)
    if doc["format"] != FORMAT:
        raise Refusal(["format"], f"a world file says \"format\": {FORMAT!r}")
    if doc["version"] != VERSION or isinstance(doc["version"], bool):
        raise Refusal(["version"], f"this ToolProof reads world files of version {VERSION}")
    world_id = text(doc["id"], ["id"], most=32, pattern=WORLD_ID,
                    what="a world id (a-z, then up to 31 of a-z, 0-9 and _)")
    title = text(doc["title"], ["title"], most=200)
    why = text(doc.get("why", ""), ["why"], most=2000, blank=True)
    today = _today(doc["today"])
    tables = _tables(doc["tables"])
    tools = load_tools(doc["tools"], tables, source)
    scenarios = load_scenarios(doc.get("scenarios", []), world_id, tables, tools)
    _refuse_costly(tables, tools, scenarios)
    return World(world_id, title, why, today, tables, tools, scenarios, world_sha256(doc))


def _count_rows(raw: Any) -> None:
    """Bound the rows before any row is read: a file of 10^6 rows is refused at once."""
    tables = mapping(raw, ["tables"])
    if len(tables) > MAX_TABLES:
        raise Refusal(["tables"], f"holds {len(tables)} tables; a world holds at most {MAX_TABLES}")
    total = 0
    for name, table in tables.items():
        rows = table.get("rows") if isinstance(table, dict) else None
        total += len(rows) if isinstance(rows, list) else 0
        if total > MAX_ROWS:
            raise Refusal(["tables", name, "rows"], f"the world's tables hold more than {MAX_ROWS:,} "
                                                    f"rows (this one {len(rows):,}); at most {MAX_ROWS:,} in all")


def _refuse_costly(tables: dict, tools: dict, scenarios: tuple) -> None:
    """Bound the work of one call and of replaying every path (cost.py's estimate: each find and
    effect scans its whole table), so neither a call nor `suite validate` can run for minutes."""
    rows = {name: len(table.rows) for name, table in tables.items()}
    work = {}
    for i, (name, tool) in enumerate(tools.items()):
        if tool.finds or tool.effects:
            for place, steps in parts(tool, rows):
                if steps > MAX_CALL_WORK:
                    raise Refusal(["tools", i] + place, f"would take about {steps:,} steps a call (rows of its "
                                  f"table x (1 + expression nodes per row)); at most {MAX_CALL_WORK:,}")
        work[name] = call_work(tool, rows)
        if work[name] > MAX_CALL_WORK:
            raise Refusal(["tools", i], f"a call would take about {work[name]:,} steps (its finds and effects "
                                        f"together); at most {MAX_CALL_WORK:,}")
    total = 0
    for i, scenario in enumerate(scenarios):
        for kind in ("gold_paths", "wrong_paths"):
            for j, path in enumerate(getattr(scenario, kind)):
                total += sum(work.get(call.tool, 1) for turn in path.turns for call in turn.calls)
                if total > MAX_REPLAY_WORK:
                    raise Refusal(["scenarios", i, kind, j], f"the paths' calls up to here would take about "
                                  f"{total:,} steps to replay (rows their tools scan); at most "
                                  f"{MAX_REPLAY_WORK:,} for all the world's paths")


def _today(raw: Any) -> str:
    day = text(raw, ["today"], most=10)
    try:
        date.fromisoformat(day)
        if len(day) != 10:
            raise ValueError(day)
    except ValueError:
        raise Refusal(["today"], f"{day!r} is not a date written YYYY-MM-DD") from None
    return day


def _tables(raw: dict) -> dict:
    """{name: Table}, each row an object holding its key (a text or a number), keys unique as a
    world compares them (trimmed, case-folded: "acc-1" is "ACC-1")."""
    tables = {}
    for name, table in raw.items():
        place = ["tables", name]
        text(name, place, most=64, pattern=NAME, what="a table name (letters, digits and _)")
        table = obj(table, place, ("key", "rows"))
        key = text(table["key"], place + ["key"], most=64, pattern=NAME, what="a field name")
        seen: dict = {}
        for i, row in enumerate(items(table["rows"], place + ["rows"], MAX_ROWS)):
            where = place + ["rows", i]
            row = obj(row, where, (key,), more=True)
            if len(row) > MAX_FIELDS:
                raise Refusal(where, f"a row of {len(row)} fields; at most {MAX_FIELDS}")
            for field in row:
                text(field, where + [field], most=64, pattern=NAME, what="a field name (letters, digits and _)")
            value = row[key]
            if isinstance(value, bool) or not isinstance(value, (str, int, float)):
                raise Refusal(where + [key], f"a row's key {key!r} is a text or a number")
            norm = value.strip().casefold() if isinstance(value, str) else value
            if norm in seen:
                raise Refusal(where + [key], f"key {value!r} is also the key of row {seen[norm]} "
                                             "(keys are compared trimmed and case-folded)")
            seen[norm] = i
        tables[name] = Table(name, key, tuple(table["rows"]))
    return tables


