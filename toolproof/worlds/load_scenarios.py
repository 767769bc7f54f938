"""A world file's scenarios checked and built (Scenario and its parts in model.py): the offer
(tools of the world, each once), the scripted user, the turn limit, the expectations and the
gold and wrong paths. Besides shape it refuses what would make a scenario meaningless: a tool
the world lacks, a path calling a tool the scenario does not offer, a milestone ordered after
one that does not exist (or in a cycle), an end state naming a table or a row the world lacks,
an expected call's arguments that do not validate against the tool.

Milestone and minefield `args` are the suite's expected-call arguments (suite/load.py reads
them into ExpectedCall); `final_answer` is the suite's text rules (suite/text_rules.py).

Pure: no I/O. Must not replay a path (grading does; `suite validate` reports it).
"""
from __future__ import annotations

from typing import Any

from toolproof.errors import quoted
from toolproof.suite import text_rules
from toolproof.suite.load import _expected_call
from toolproof.suite.model import DETAIL_NAMES
from .exprs import same
from .model import (PATH_ID, POLICY_RULES, SCENARIO_NAME, TAGS, Budget, Dataflow, Expectations,
                    Milestone, Minefield, Path, PathCall, PathTurn, PolicyRule, Reply, Scenario,
                    TableEnd, UserScript)
from .shape import MAX_TEXT, Refusal, flag, items, mapping, obj, text, whole

MAX_SCENARIOS = 100
MAX_TURN_LIMIT = 30
DEFAULT_TURN_LIMIT = 10
MAX_PATHS = 16
MAX_CALLS_PER_TURN = 32
MAX_LIST = 64               # replies, milestones, minefields, ... of one scenario, each
_SCENARIO = ("id", "title", "user", "expect")
_SCENARIO_OPTIONAL = ("why", "covers", "tools", "system", "turn_limit", "gold_paths", "wrong_paths")
_EXPECT = ("end_state", "milestones", "minefields", "dataflow", "final_answer", "budgets", "policy")
_ANSWER_RULES = ("must_include", "must_not_include", "asks_for", "claims_done", "declines", "grounded",
                 "warns_if_mentions")


def load_scenarios(raw: Any, world_id: str, tables: dict, tools: dict) -> tuple:
    scenarios, seen = [], set()
    for i, entry in enumerate(items(raw, ["scenarios"], MAX_SCENARIOS)):
        scenario = _Scenario(["scenarios", i], world_id, tables, tools).build(entry)
        if scenario.id in seen:
            raise Refusal(["scenarios", i, "id"], f"scenario id {scenario.id!r} is used twice")
        seen.add(scenario.id)
        scenarios.append(scenario)
    return tuple(scenarios)


class _Scenario:
    def __init__(self, place: list, world_id: str, tables: dict, tools: dict):
        self.place, self.world_id, self.tables, self.tools = place, world_id, tables, tools
        self.offered: tuple = ()

    def build(self, entry: Any) -> Scenario:
        p = self.place
        entry = obj(entry, p, _SCENARIO, _SCENARIO_OPTIONAL)
        scenario_id = text(entry["id"], p + ["id"], most=81)
        world, dot, name = scenario_id.partition(".")
        if world != self.world_id or not dot or not SCENARIO_NAME.fullmatch(name):
            raise Refusal(p + ["id"], f"{quoted(scenario_id, 60)} is not \"{self.world_id}.<name>\" "
                                      "(a name of a-z, 0-9, _ and -, starting with a letter)")
        covers = tuple(self._choice(t, p + ["covers", j], TAGS, "tag")
                       for j, t in enumerate(items(entry.get("covers", []), p + ["covers"], len(TAGS))))
        self.offered = self._offer(entry.get("tools"))
        system = entry.get("system")
        if system is not None:
            text(system, p + ["system"])
        paths = [self._path(raw, p + [key, j], key == "wrong_paths")
                 for key in ("gold_paths", "wrong_paths")
                 for j, raw in enumerate(items(entry.get(key, []), p + [key], MAX_PATHS))]
        ids = [path.id for path in paths]
        for j, path_id in enumerate(ids):
            if path_id in ids[:j]:
                raise Refusal(p, f"path id {path_id!r} is used twice")
        return Scenario(scenario_id, self.world_id, text(entry["title"], p + ["title"], most=200),
                        text(entry.get("why", ""), p + ["why"], most=2000, blank=True), covers,
                        self.offered, system, self._user(entry["user"]),
                        whole(entry.get("turn_limit", DEFAULT_TURN_LIMIT), p + ["turn_limit"], 1, MAX_TURN_LIMIT),
                        self._expect(entry["expect"]), tuple(x for x in paths if x.fails_with is None),
                        tuple(x for x in paths if x.fails_with is not None))

    def _choice(self, raw: Any, place: list, choices: tuple, what: str) -> str:
        if not isinstance(raw, str) or raw not in choices:
            raise Refusal(place, f"unknown {what} {quoted(raw, 60)}; use one of {', '.join(choices)}")
        return raw

    def _offer(self, raw: Any) -> tuple:
        if raw is None:
            return tuple(self.tools)
        names = items(raw, self.place + ["tools"], len(self.tools), fewest=1)
        for j, name in enumerate(names):
            self._tool(name, self.place + ["tools", j], self.tools, "this world")
            if name in names[:j]:
                raise Refusal(self.place + ["tools", j], f"tool {name!r} is offered twice")
        return tuple(names)

    def _tool(self, raw: Any, place: list, among: Any, what: str) -> str:
        if not isinstance(raw, str) or raw not in among:
            raise Refusal(place, f"no tool {quoted(raw, 60)} in {what} (it has: {', '.join(among)})")
        return raw

    def _offered(self, raw: Any, place: list) -> str:
        return self._tool(raw, place, self.offered, "the scenario's offer")

    def _user(self, raw: Any) -> UserScript:
        p = self.place + ["user"]
        raw = obj(raw, p, ("first",), ("replies", "fallback", "then"))
        replies = []
        for j, reply in enumerate(items(raw.get("replies", []), p + ["replies"], MAX_LIST)):
            reply = obj(reply, p + ["replies", j], ("asks_for", "say"), ("confirms",))
            asks = tuple(self._choice(d, p + ["replies", j, "asks_for", k], DETAIL_NAMES, "detail")
                         for k, d in enumerate(items(reply["asks_for"], p + ["replies", j, "asks_for"], len(DETAIL_NAMES))))
            replies.append(Reply(text(reply["say"], p + ["replies", j, "say"]), asks,
                                 flag(reply.get("confirms", False), p + ["replies", j, "confirms"])))
        then = []
        for j, later in enumerate(items(raw.get("then", []), p + ["then"], MAX_LIST)):
            later = obj(later, p + ["then", j], ("say",), ("confirms",))
            then.append(Reply(text(later["say"], p + ["then", j, "say"]), (),
                              flag(later.get("confirms", False), p + ["then", j, "confirms"])))
        fallback = text(raw.get("fallback", "Please go on with what you have."), p + ["fallback"])
        return UserScript(text(raw["first"], p + ["first"]), tuple(replies), fallback, tuple(then))

    def _expect(self, raw: Any) -> Expectations:
        p = self.place + ["expect"]
        raw = obj(raw, p, (), _EXPECT)
        milestones = self._milestones(raw.get("milestones", []), p + ["milestones"])
        minefields = []
        for j, mine in enumerate(items(raw.get("minefields", []), p + ["minefields"], MAX_LIST)):
            mine = obj(mine, p + ["minefields", j], ("tool",), ("args", "why"))
            tool = self._offered(mine["tool"], p + ["minefields", j, "tool"])
            call = self._call(mine, p + ["minefields", j]) if "args" in mine else None
            minefields.append(Minefield(tool, call, text(mine.get("why", ""), p + ["minefields", j, "why"], most=2000, blank=True)))
        dataflow = []
        for j, flow in enumerate(items(raw.get("dataflow", []), p + ["dataflow"], MAX_LIST)):
            where = p + ["dataflow", j]
            flow = obj(flow, where, ("tool", "arg", "from", "field"))
            self._argument(flow["tool"], flow["arg"], where)
            dataflow.append(Dataflow(self._offered(flow["tool"], where + ["tool"]), text(flow["arg"], where + ["arg"], most=200),
                                     self._offered(flow["from"], where + ["from"]), text(flow["field"], where + ["field"], most=200)))
        budgets = obj(raw.get("budgets", {}), p + ["budgets"], (), ("calls", "turns"))
        policy = []
        for j, rule in enumerate(items(raw.get("policy", []), p + ["policy"], MAX_LIST)):
            rule = obj(rule, p + ["policy", j], ("rule", "tools"))
            policy.append(PolicyRule(self._choice(rule["rule"], p + ["policy", j, "rule"], POLICY_RULES, "rule"),
                                     tuple(self._offered(t, p + ["policy", j, "tools", k]) for k, t in
                                           enumerate(items(rule["tools"], p + ["policy", j, "tools"], MAX_LIST, fewest=1)))))
        return Expectations(self._end_state(raw.get("end_state", {}), p + ["end_state"]), milestones,
                            tuple(minefields), tuple(dataflow), self._answer(raw.get("final_answer"), p + ["final_answer"]),
                            Budget(*(whole(budgets[k], p + ["budgets", k], 1, 1000) if k in budgets else None
                                     for k in ("calls", "turns"))), tuple(policy))

    def _argument(self, tool: Any, arg: Any, where: list) -> None:
        """A dataflow's argument must be one the tool takes (a typo would never be checked)."""
        self._offered(tool, where + ["tool"])
        text(arg, where + ["arg"], most=200)
        declared = self.tools[tool].parameters.get("properties")
        if isinstance(declared, dict) and arg.split(".")[0] not in declared:
            raise Refusal(where + ["arg"], f"{tool} takes no argument {quoted(arg.split('.')[0], 60)} "
                                           f"(it takes: {', '.join(declared) or 'none'})")

    def _call(self, raw: dict, place: list):
        args = mapping(raw["args"], place + ["args"])
        tool = self.tools[raw["tool"]]
        bad = [f for f in tool.schema.findings(args) if not (f.code == "schema.required" and f.path == "$")]
        if bad:
            raise Refusal(place + ["args"], f"expected args do not validate against {raw['tool']}: "
                                            f"{bad[0].path}: {bad[0].message}")
        return _expected_call({"tool": raw["tool"], "args": args}, {})

    def _milestones(self, raw: Any, p: list) -> tuple:
        out: list = []
        for j, entry in enumerate(items(raw, p, MAX_LIST)):
            entry = obj(entry, p + [j], ("id", "tool"), ("args", "after"))
            ident = text(entry["id"], p + [j, "id"], most=40, pattern=PATH_ID, what="an id (a-z, 0-9, _ and -)")
            if ident in [m.id for m in out]:
                raise Refusal(p + [j, "id"], f"milestone id {ident!r} is used twice")
            self._offered(entry["tool"], p + [j, "tool"])
            after = items(entry.get("after", []), p + [j, "after"], MAX_LIST)
            for k, earlier in enumerate(after):
                # only an earlier milestone may be named: the partial order cannot hold a cycle
                if earlier not in [m.id for m in out]:
                    raise Refusal(p + [j, "after", k], f"after names {quoted(earlier, 60)}, which is not a "
                                                       "milestone listed before this one")
            out.append(Milestone(ident, self._call({"tool": entry["tool"], "args": entry.get("args", {})}, p + [j]),
                                 tuple(after)))
        return tuple(out)

    def _end_state(self, raw: Any, p: list) -> tuple:
        out = []
        for name, spec in mapping(raw, p).items():
            if name not in self.tables:
                raise Refusal(p + [name], f"no table {quoted(name, 60)} in this world (its tables: {', '.join(self.tables)})")
            spec = obj(spec, p + [name], (), ("insert", "update", "delete"))
            table = self.tables[name]
            keys = [row[table.key] for row in table.rows]
            inserts = tuple(mapping(r, p + [name, "insert", j])
                            for j, r in enumerate(items(spec.get("insert", []), p + [name, "insert"], 1000)))
            updates = []
            for j, u in enumerate(items(spec.get("update", []), p + [name, "update"], 1000)):
                u = obj(u, p + [name, "update", j], ("key", "set"))
                self._known_key(u["key"], keys, p + [name, "update", j, "key"], name)
                changes = mapping(u["set"], p + [name, "update", j, "set"])
                updates.append((u["key"], changes))
            deletes = tuple(self._known_key(k, keys, p + [name, "delete", j], name)
                            for j, k in enumerate(items(spec.get("delete", []), p + [name, "delete"], 1000)))
            out.append(TableEnd(name, inserts, tuple(updates), deletes))
        return tuple(out)

    def _known_key(self, key: Any, keys: list, place: list, table: str) -> Any:
        if not any(same(key, k) for k in keys):
            raise Refusal(place, f"no row {quoted(key, 60)} in the table {table}")
        return key

    def _answer(self, raw: Any, p: list):
        if raw is None:
            return None
        raw = obj(raw, p, (), _ANSWER_RULES)
        for key in ("claims_done", "declines", "grounded"):
            if key in raw:
                flag(raw[key], p + [key])
        for key in ("must_include", "must_not_include", "asks_for", "warns_if_mentions"):
            items(raw.get(key, []), p + [key], MAX_LIST)
        for path, reason in text_rules.rule_problems(raw, {}):
            raise Refusal(p + list(path), reason)
        return text_rules.rules(raw, {})

    def _path(self, raw: Any, p: list, wrong: bool) -> Path:
        raw = obj(raw, p, ("id", "turns") + (("fails_with",) if wrong else ()))
        ident = text(raw["id"], p + ["id"], most=40, pattern=PATH_ID, what="an id (a-z, 0-9, _ and -)")
        turns = []
        for j, turn in enumerate(items(raw["turns"], p + ["turns"], MAX_TURN_LIMIT, fewest=1)):
            where = p + ["turns", j]
            if isinstance(turn, dict) and "say" in turn:
                turns.append(PathTurn((), text(obj(turn, where, ("say",))["say"], where + ["say"], most=MAX_TEXT)))
                continue
            turn = obj(turn, where, ("calls",))
            calls = []
            for k, call in enumerate(items(turn["calls"], where + ["calls"], MAX_CALLS_PER_TURN, fewest=1)):
                call = obj(call, where + ["calls", k], ("tool", "arguments"))
                self._offered(call["tool"], where + ["calls", k, "tool"])
                mapping(call["arguments"], where + ["calls", k, "arguments"])
                calls.append(PathCall(call["tool"], call["arguments"]))
            turns.append(PathTurn(tuple(calls)))
        fails_with = text(raw["fails_with"], p + ["fails_with"], most=200) if wrong else None
        return Path(ident, tuple(turns), fails_with)
