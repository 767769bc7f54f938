"""A world file's tools checked and built (WorldTool): the offer (name, description, JSON Schema
parameters, checked as a tools file's are), then either the stateful parts (lets, find, checks,
effects, result) or the stateless ones (answers, otherwise).

Beyond shape, every name an expression or a template reads must be bound where it is read:
lets and earlier finds in a find; lets and finds in a check; anything the call binds in its
effects and result. A let may not reach itself (a cycle, direct or not) nor a find bound after
the place that reads it (a find that refers to itself), each tool's expressions hold at most
exprs.MAX_NODES nodes, and `new_id` / `row` appear only where they mean something. Each
refusal names the JSON path (shape.Refusal).

Pure: no I/O. Must not run a call (engine.py does).
"""
from __future__ import annotations

from typing import Any

from toolproof.errors import ToolProofError, quoted
from toolproof.suite.schema import CompiledSchema
from toolproof.suite.schema_guard import check_tool_schema
from . import exprs
from .engine import COMPARATORS
from .model import NAME, TOOL_NAME, Answer, Check, Effect, Find, WorldTool
from .templates import template_names
from .shape import Refusal, flag, items, mapping, obj, text, whole

MAX_TOOLS = 64
MAX_LETS = 64
MAX_STEPS = 32              # finds, checks, effects and answers of one tool, each
MAX_TEMPLATE = 1000
_STATEFUL = ("lets", "find", "checks", "effects", "result")
_STATELESS = ("answers", "otherwise")
_NO_ROW = ("arg", "ref", "world")           # forms outside a row's context
_WITH_ROW = ("arg", "ref", "world", "row")
_EFFECT_FIELDS = {"read": ("where", "fields", "order_by", "limit", "as", "one", "missing"),
                  "insert": ("values", "as"), "update": ("where", "set", "as"), "delete": ("where", "as")}


def load_tools(raw: Any, tables: dict, source: str) -> dict:
    """The world's `tools` list -> {name: WorldTool}, in file order."""
    tools: dict = {}
    for i, entry in enumerate(items(raw, ["tools"], MAX_TOOLS, fewest=1)):
        place = ["tools", i]
        entry = obj(entry, place, ("name", "description", "parameters"), _STATEFUL + _STATELESS)
        name = text(entry["name"], place + ["name"], most=64, pattern=TOOL_NAME,
                    what="a tool name (letters, digits, _ and -, starting with a letter or _)")
        if name in tools:
            raise Refusal(place + ["name"], f"tool {name!r} is defined twice")
        tools[name] = _tool(entry, place, tables, source)
    return tools


def _tool(entry: dict, place: list, tables: dict, source: str) -> WorldTool:
    description = text(entry["description"], place + ["description"])
    parameters = mapping(entry["parameters"], place + ["parameters"])
    if parameters.get("type") != "object":
        raise Refusal(place + ["parameters", "type"], 'a tool\'s parameters are a JSON Schema of "type": "object"')
    try:
        check_tool_schema(parameters, source, place + ["parameters"])
        schema = CompiledSchema(parameters)
    except ImportError:
        raise               # jsonschema missing (the page loads it on demand): not the file's fault
    except ToolProofError:
        raise
    except Exception as exc:  # jsonschema's SchemaError: say which tool, keep its words
        raise Refusal(place + ["parameters"], f"not a valid JSON Schema: {exc}".splitlines()[0]) from None
    stateful = [k for k in _STATEFUL if k in entry]
    stateless = [k for k in _STATELESS if k in entry]
    if stateful and stateless:
        raise Refusal(place + [stateless[0]], f"a tool answers from {stateless[0]} or from its tables "
                                              f"({stateful[0]}), not both")
    if stateless:
        answers, otherwise = _stateless(entry, place)
        return WorldTool(entry["name"], description, parameters, schema, answers=answers, otherwise=otherwise)
    return _Stateful(entry, place, tables).build(entry["name"], description, parameters, schema)


def _stateless(entry: dict, place: list) -> tuple[tuple, dict | None]:
    answers = []
    for j, raw in enumerate(items(entry.get("answers", []), place + ["answers"], MAX_STEPS * 8)):
        where = place + ["answers", j]
        raw = obj(raw, where, ("when", "result"))
        when = mapping(raw["when"], where + ["when"])
        answers.append(Answer(when, raw["result"]))
    otherwise = entry.get("otherwise")
    if otherwise is not None:
        otherwise = obj(otherwise, place + ["otherwise"], optional=("error", "result"))
        if len(otherwise) != 1:
            raise Refusal(place + ["otherwise"], "otherwise holds either error (a template) or result")
        if "error" in otherwise:
            _template(otherwise["error"], place + ["otherwise", "error"], set())
    return tuple(answers), otherwise


class _Stateful:
    """The checks of one stateful tool, which need what the tool binds where."""

    def __init__(self, entry: dict, place: list, tables: dict):
        self.entry, self.place, self.tables = entry, place, tables
        self.nodes = 0
        self.depth = 0              # the depth of the expression _expr checked last
        self.lets = self._lets(entry.get("lets", {}))
        self.let_refs: dict = {}

    def build(self, name: str, description: str, parameters: dict, schema: CompiledSchema) -> WorldTool:
        entry, place = self.entry, self.place
        depths = {}
        for let, expr in self.lets.items():
            self.let_refs[let] = self._expr(expr, place + ["lets", let], _NO_ROW)
            depths[let] = self.depth
        self._refuse_cycles()
        self._refuse_deep_chains(depths)
        finds = self._finds(entry.get("find", []))
        bound = set(self.lets) | {f.alias for f in finds}
        for let, refs in self.let_refs.items():
            # a let is computed once, on first use: what the effects bind would be stale after them
            self._refs_bound(refs, bound, f"let {let!r}")
        checks = []
        for j, raw in enumerate(items(entry.get("checks", []), place + ["checks"], MAX_STEPS)):
            raw = obj(raw, place + ["checks", j], ("if", "error"))
            self._refs_bound(self._expr(raw["if"], place + ["checks", j, "if"], _NO_ROW), bound, "a check")
            self._refs_bound(_template(raw["error"], place + ["checks", j, "error"], bound), bound, "a check")
            checks.append(Check(raw["if"], raw["error"]))
        effects = self._effects(entry.get("effects", []), finds)
        known = bound | {f"{f.alias}_after" for f in finds} | {e.alias or _default_alias(e) for e in effects} \
            | ({"inserted"} if any(e.kind == "insert" for e in effects) else set()) \
            | {f"{e.alias}_after" for e in effects if e.kind == "update" and e.alias}
        for eplace, refs in self.effect_refs:
            self._refs_bound(refs, known, "an effect", eplace)
        result = entry.get("result")
        if result is not None:
            self._refs_bound(self._template_expr(result, place + ["result"]), known, "the result")
        if self.nodes > exprs.MAX_NODES:
            raise Refusal(place, f"the tool's expressions hold {self.nodes:,} nodes; at most {exprs.MAX_NODES:,}")
        return WorldTool(name, description, parameters, schema, lets=self.lets, finds=tuple(finds),
                         checks=tuple(checks), effects=tuple(effects), result=result)

    def _lets(self, raw: Any) -> dict:
        lets = mapping(raw, self.place + ["lets"])
        if len(lets) > MAX_LETS:
            raise Refusal(self.place + ["lets"], f"holds {len(lets)} lets; at most {MAX_LETS}")
        for name in lets:
            _name(name, self.place + ["lets", name], "a let's name")
        return lets

    def _expr(self, expr: Any, place: list, allow: tuple) -> list:
        try:
            nodes, refs, self.depth = exprs.check(expr, place, allow=allow)
        except exprs.Problem as exc:
            raise Refusal(exc.place, exc.reason) from None
        self.nodes += nodes
        if self.nodes > exprs.MAX_NODES:
            raise Refusal(self.place, f"the tool's expressions hold more than {exprs.MAX_NODES:,} nodes")
        return refs

    def _template_expr(self, template: Any, place: list) -> list:
        """A result template: objects that are no expression, built field by field."""
        if isinstance(template, dict) and exprs.form_of(template) == "?":
            refs: list = []
            for key, value in template.items():
                refs += self._template_expr(value, place + [key])
            return refs
        return self._expr(template, place, _NO_ROW)

    def _refuse_cycles(self) -> None:
        """A let that reaches itself through other lets would never finish computing."""
        state: dict = {}

        def visit(name: str, trail: list) -> None:
            state[name] = "open"
            for where, ref in self.let_refs[name]:
                head = ref.split(".")[0]
                if head not in self.lets:
                    continue
                if state.get(head) == "open":
                    cycle = " -> ".join(trail[trail.index(head):] + [head]) if head in trail else head
                    raise Refusal(where, f"let {head!r} refers to itself ({cycle})")
                if head not in state:
                    visit(head, trail + [head])
            state[name] = "done"
        for name in self.lets:
            if name not in state:
                visit(name, [name])

    def _refuse_deep_chains(self, depths: dict) -> None:
        """A let computed through other lets goes down their depths too: bounded (MAX_CHAIN), so
        evaluating it never exhausts the Python stack (no cycle is left: the order is finite)."""
        chain: dict = {}

        def down(name: str) -> int:
            if name not in chain:
                heads = {ref.split(".")[0] for _, ref in self.let_refs[name]} & set(self.lets)
                chain[name] = depths[name] + max((down(h) for h in heads), default=0)
            return chain[name]
        for name in self.lets:
            if down(name) > exprs.MAX_CHAIN:
                raise Refusal(self.place + ["lets", name], f"computing let {name!r} goes {chain[name]} levels "
                                                           f"deep through other lets; at most {exprs.MAX_CHAIN}")

    def _reach(self, refs: list) -> list:
        """Every (place, ref) read, the lets' own refs included (a let's reads happen where it is used)."""
        out, seen, todo = [], set(), list(refs)
        while todo:
            where, ref = todo.pop()
            out.append((where, ref))
            head = ref.split(".")[0]
            if head in self.lets and head not in seen:
                seen.add(head)
                todo.extend(self.let_refs[head])
        return out

    def _refs_bound(self, refs: list, bound: set, what: str, place: list | None = None) -> None:
        for where, ref in self._reach(refs):
            head = ref.split(".")[0]
            if head not in bound:
                said = (f"{what} reads {ref!r}, but nothing named {head!r} is bound there "
                        f"(bound: {', '.join(sorted(bound)) or 'nothing'})")
                raise Refusal(place or where, said)

    def _finds(self, raw: Any) -> list:
        finds: list = []
        for j, entry in enumerate(items(raw, self.place + ["find"], MAX_STEPS)):
            place = self.place + ["find", j]
            entry = obj(entry, place, ("as", "table", "where"), ("missing",))
            alias = _name(entry["as"], place + ["as"], "an alias")
            if alias in self.lets or alias in {f.alias for f in finds} or alias == "inserted":
                raise Refusal(place + ["as"], f"the name {alias!r} is already bound in this tool")
            table = self._table(entry["table"], place + ["table"])
            bound = set(self.lets) | {f.alias for f in finds}
            refs = self._where(entry["where"], place + ["where"])
            self._refs_bound(refs, bound, f"find {alias!r}")
            missing = entry.get("missing", f"no {table} row matches")
            self._refs_bound(_template(missing, place + ["missing"], bound), bound, f"find {alias!r}")
            finds.append(Find(alias, table, entry["where"], missing))
        return finds

    def _effects(self, raw: Any, finds: list) -> list:
        effects, self.effect_refs = [], []
        for j, entry in enumerate(items(raw, self.place + ["effects"], MAX_STEPS)):
            place = self.place + ["effects", j]
            kinds = [k for k in _EFFECT_FIELDS if isinstance(entry, dict) and k in entry]
            if len(kinds) != 1:
                raise Refusal(place, "an effect names its table under exactly one of read, insert, update, delete")
            k = kinds[0]
            entry = obj(entry, place, (k,), _EFFECT_FIELDS[k])
            table = self._table(entry[k], place + [k])
            key = self.tables[table].key
            refs = self._where(entry.get("where", {}), place + ["where"])
            if k == "insert":
                values = obj(entry.get("values"), place + ["values"], (key,), more=True)
                refs += self._fields(values, place + ["values"], ("arg", "ref", "world", "new_id"))
            if k == "update":
                changes = mapping(entry.get("set"), place + ["set"])
                if key in changes:
                    raise Refusal(place + ["set", key], f"{key!r} keys the table {table}: a key never changes")
                refs += self._fields(changes, place + ["set"], exprs.FORMS)
            if k in ("update", "delete") and "where" not in entry:
                raise Refusal(place, f"{k} needs where (an empty where: every row)")
            effects.append(Effect(k, table, where=entry.get("where", {}), values=entry.get("values", {}),
                                  set=entry.get("set", {}), alias=self._alias(entry, place, finds), **self._read(entry, place)))
            self.effect_refs.append((None, refs))
        return effects

    def _alias(self, entry: dict, place: list, finds: list) -> str | None:
        if "as" not in entry:
            return None
        alias = _name(entry["as"], place + ["as"], "an alias")
        if alias in self.lets or alias in {f.alias for f in finds}:
            raise Refusal(place + ["as"], f"the name {alias!r} is already bound in this tool")
        return alias

    def _read(self, entry: dict, place: list) -> dict:
        out: dict = {}
        if "fields" in entry:
            out["fields"] = tuple(_name(f, place + ["fields", i], "a field name")
                                  for i, f in enumerate(items(entry["fields"], place + ["fields"], 64, fewest=1)))
        if "order_by" in entry:
            order = text(entry["order_by"], place + ["order_by"], most=65)
            _name(order.removeprefix("-"), place + ["order_by"], 'a field name (after "-": descending)')
            out["order_by"] = order
        if "limit" in entry:
            out["limit"] = whole(entry["limit"], place + ["limit"], 1, 20_000)
        if "one" in entry:
            out["one"] = flag(entry["one"], place + ["one"])
        if "missing" in entry:
            out["missing"] = text(entry["missing"], place + ["missing"], most=MAX_TEMPLATE)
        return out

    def _fields(self, raw: dict, place: list, allow: tuple) -> list:
        refs: list = []
        for name, expr in raw.items():
            _name(name, place + [name], "a field name")
            refs += self._expr(expr, place + [name], allow)
        return refs

    def _where(self, raw: Any, place: list) -> list:
        where = mapping(raw, place)
        refs: list = []
        for name, spec in where.items():
            _name(name, place + [name], "a field name")
            inner = place + [name]
            if isinstance(spec, dict) and len(spec) == 1 and next(iter(spec)) in COMPARATORS:
                (comparator, spec), = spec.items()
                inner = inner + [comparator]
            refs += self._expr(spec, inner, _WITH_ROW)
        return refs

    def _table(self, raw: Any, place: list) -> str:
        if not isinstance(raw, str) or raw not in self.tables:
            known = ", ".join(self.tables) or "none"
            raise Refusal(place, f"no table {quoted(raw, 60)} in this world (its tables: {known})")
        return raw


def _default_alias(effect: Effect) -> str:
    return {"read": effect.table, "insert": "inserted", "update": "updated", "delete": "deleted"}[effect.kind]


def _name(raw: Any, place: list, what: str) -> str:
    return text(raw, place, most=64, pattern=NAME, what=f"{what} (letters, digits and _, not starting with a digit)")


def _template(raw: Any, place: list, bound: set) -> list:
    """A template's {names} as (place, name) refs ({arg.x} reads the arguments: always bound)."""
    template = text(raw, place, most=MAX_TEMPLATE)
    return [(place, name) for name in template_names(template) if not name.startswith("arg.")]

