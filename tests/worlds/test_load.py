"""Loading a world file (toolproof/worlds/load.py and its helpers): what it builds, and one line
naming the JSON path for every malformed or hostile world, from a wrong field to 10^6 rows, a
100,000-deep value, a let cycle, NaN and control characters. Nothing else is ever raised."""
from __future__ import annotations

import json
import random

import pytest

from toolproof.errors import ToolProofError
from toolproof.worlds.load import MAX_ROWS, load_world, load_worlds, world_from_text, world_sha256
from worldkit import bank_doc
from worldkit import changed as _set


def refusal(doc, source="bank.json") -> str:
    with pytest.raises(ToolProofError) as caught:
        load_world(doc, source)
    line = caught.value.line()
    assert "\n" not in line and len(line) < 1000
    return line


def test_the_bank_loads_into_its_records():
    world = load_world(bank_doc(), "bank.json")
    assert (world.id, world.today, list(world.tables)) == ("bank", "2026-03-14",
                                                            ["accounts", "transfers", "payees"])
    assert list(world.tools) == ["transfer_funds", "list_transfers", "get_account", "close_account", "get_rate",
                                 "find_payee", "get_balance"]
    assert world.tools["get_rate"].stateless and not world.tools["transfer_funds"].stateless
    scenario, = world.scenarios
    assert scenario.id == "bank.pay_rent" and scenario.tools == ("get_account", "transfer_funds")
    assert scenario.user.replies[1].confirms and scenario.user.then[0].say == "Thanks."
    assert [m.id for m in scenario.expect.milestones] == ["look", "pay"]
    assert scenario.expect.milestones[1].call.args == {"amount": 850}
    assert scenario.expect.milestones[1].after == ("look",)
    assert scenario.expect.minefields[0].call.args == {"amount": 800}
    assert scenario.expect.final_answer.claims_done is True
    assert (scenario.expect.budgets.calls, scenario.expect.budgets.turns) == (4, 6)
    assert scenario.expect.end_state[1].update == (("ACC-1", {"balance": 400}), ("ACC-7", {"balance": 860}))
    assert [p.id for p in scenario.gold_paths] == ["look-first"] and scenario.wrong_paths[0].fails_with == "confirm_before"
    assert scenario.gold_paths[0].turns[0].say == "How much is the rent?"
    assert world.sha256 == world_sha256(bank_doc())


def test_defaults_offer_every_tool_and_a_turn_limit_of_ten():
    doc = bank_doc()
    for key in ("tools", "turn_limit", "covers", "gold_paths", "wrong_paths", "why", "system"):
        del doc["scenarios"][0][key]
    doc["scenarios"][0]["expect"] = {}
    scenario, = load_world(doc, "bank.json").scenarios
    assert scenario.tools == tuple(t["name"] for t in doc["tools"]) and scenario.turn_limit == 10
    assert scenario.system is None and scenario.gold_paths == ()


def test_the_fingerprint_ignores_key_order_and_whitespace_but_not_values():
    doc = bank_doc()
    reordered = json.loads(json.dumps(doc, sort_keys=True, indent=3))
    assert world_sha256(reordered) == world_sha256(doc)
    doc["today"] = "2026-03-15"
    assert world_sha256(doc) != world_sha256(reordered)




def _deep(depth: int):
    value: list = []
    for _ in range(depth):
        value = [value]
    return value


def _deep_expr(depth: int, leaf: object = 1):
    value: object = leaf
    for _ in range(depth):
        value = {"op": "abs", "args": [value]}
    return value


T0 = ["tools", 0]
S0 = ["scenarios", 0]
CASES = [
    # the top
    ("not an object", lambda d: d.clear() or d.update({"x": 1}), "at $: 'format' is required"),
    ("unknown field", _set(["extra"], 1), "at $.extra: unknown field 'extra'"),
    ("format", _set(["format"], "toolproof.suite"), "at $.format: a world file says \"format\": 'toolproof.world'"),
    ("version", _set(["version"], 2), "at $.version: this ToolProof reads world files of version 1"),
    ("version true", _set(["version"], True), "at $.version: this ToolProof reads world files of version 1"),
    ("bad id", _set(["id"], "Bank"), "at $.id: 'Bank' is not a world id"),
    ("long id", _set(["id"], "b" * 40), "at $.id: text of 40 characters; at most 32"),
    ("today", _set(["today"], "2026-02-30"), "at $.today: '2026-02-30' is not a date written YYYY-MM-DD"),
    ("title", _set(["title"], "t" * 201), "at $.title: text of 201 characters; at most 200"),
    ("blank title", _set(["title"], "  "), "at $.title: is empty"),
    # tables and rows
    ("table name", lambda d: d["tables"].update({"bad name": {"key": "id", "rows": []}}),
     "at $.tables.bad name: 'bad name' is not a table name"),
    ("row without key", lambda d: d["tables"]["accounts"]["rows"].append({"owner": "x"}),
     "at $.tables.accounts.rows[3]: 'id' is required"),
    ("row key kind", lambda d: d["tables"]["accounts"]["rows"].append({"id": [1]}),
     "at $.tables.accounts.rows[3].id: a row's key 'id' is a text or a number"),
    ("duplicate row key", lambda d: d["tables"]["accounts"]["rows"].append({"id": " acc-7"}),
     "at $.tables.accounts.rows[3].id: key ' acc-7' is also the key of row 1 (keys are compared trimmed and case-folded)"),
    ("field name", lambda d: d["tables"]["accounts"]["rows"][0].update({"a-b": 1}),
     "at $.tables.accounts.rows[0].a-b: 'a-b' is not a field name"),
    ("rows not a list", _set(["tables", "accounts", "rows"], {}), "at $.tables.accounts.rows: expected a list, not an object"),
    # tools
    ("no tools", _set(["tools"], []), "at $.tools: needs at least 1 item"),
    ("tool name", _set(T0 + ["name"], "transfer funds"), "at $.tools[0].name: 'transfer funds' is not a tool name"),
    ("tool twice", lambda d: d["tools"].append(dict(d["tools"][2])), "at $.tools[7].name: tool 'get_account' is defined twice"),
    ("parameters type", _set(T0 + ["parameters"], {"type": "array"}),
     "at $.tools[0].parameters.type: a tool's parameters are a JSON Schema of \"type\": \"object\""),
    ("remote $ref", _set(T0 + ["parameters", "properties", "amount"], {"$ref": "https://example.com/s.json"}),
     "at $.tools[0].parameters.properties.amount.$ref"),
    ("regex bomb", _set(T0 + ["parameters", "properties", "from_account"], {"type": "string", "pattern": "(a+)+$"}),
     "at $.tools[0].parameters.properties.from_account.pattern"),
    ("both kinds", _set(T0 + ["answers"], []), "at $.tools[0].answers: a tool answers from answers or from its tables (lets), not both"),
    ("unknown op", _set(T0 + ["checks", 1, "if", "op"], "pow"), "at $.tools[0].checks[1].if.op: unknown op 'pow'"),
    ("arity", _set(T0 + ["checks", 1, "if", "args"], [1]), "at $.tools[0].checks[1].if.args: < takes 2 args, not 1"),
    ("regex form", _set(T0 + ["checks", 1, "if"], {"regex": "(a+)+"}), "at $.tools[0].checks[1].if: not an expression"),
    # an operator is two JSON levels (its object, its args), so in a file JSON's own bound (64 levels)
    # stops an expression before exprs.MAX_DEPTH (32) does: either way one line naming the place
    ("deep expression", _set(T0 + ["lets", "fee"], _deep_expr(33)), "at $.tools[0].lets.fee.args[0].args[0]"),
    ("very deep expression", _set(T0 + ["lets", "fee"], _deep_expr(10_000)), "nested deeper than 64 levels"),
    ("too many nodes", _set(T0 + ["lets", "fee"], {"op": "max", "args": list(range(2001))}),
     "at $.tools[0]: the tool's expressions hold more than 2,000 nodes"),
    ("lets too deep together", lambda d: d["tools"][0]["lets"].update(
        {"fee": {"ref": "l0"}, **{f"l{i}": _deep_expr(28, {"ref": f"l{i + 1}"}) for i in range(5)}, "l5": 0}),
     "at $.tools[0].lets.total: computing let 'total' goes 149 levels deep through other lets; at most 128"),
    ("let cycle", lambda d: d["tools"][0]["lets"].update({"fee": {"ref": "total"}}),
     "let 'total' refers to itself (total -> fee -> total)"),
    ("let refers to itself", lambda d: d["tools"][0]["lets"].update({"fee": {"op": "+", "args": [{"ref": "fee"}, 1]}}),
     "at $.tools[0].lets.fee.args[0].ref: let 'fee' refers to itself (fee -> fee)"),
    ("find refers to itself", _set(T0 + ["find", 0, "where", "id"], {"ref": "src.id"}),
     "at $.tools[0].find[0].where.id.ref: find 'src' reads 'src.id', but nothing named 'src' is bound there (bound: fee, total)"),
    ("find reads a later find", _set(T0 + ["find", 0, "where", "id"], {"ref": "dst.id"}),
     "find 'src' reads 'dst.id', but nothing named 'dst' is bound there"),
    ("let reaching a later find", lambda d: (d["tools"][0]["lets"].update({"fee": {"ref": "dst.balance"}}),
                                             _set(T0 + ["find", 0, "where", "id"], {"ref": "total"})(d)),
     "at $.tools[0].lets.fee.ref: find 'src' reads 'dst.balance', but nothing named 'dst' is bound there"),
    ("let reads an effect", lambda d: d["tools"][0]["lets"].update({"later": {"ref": "inserted.id"}}),
     "at $.tools[0].lets.later.ref: let 'later' reads 'inserted.id', but nothing named 'inserted' is bound there"),
    ("check reads a check", _set(T0 + ["checks", 1, "if", "args", 0], {"ref": "checks.0"}),
     "at $.tools[0].checks[1].if.args[0].ref: a check reads 'checks.0', but nothing named 'checks' is bound there"),
    ("check reads an effect", _set(T0 + ["checks", 1, "if", "args", 0], {"ref": "inserted.id"}),
     "a check reads 'inserted.id', but nothing named 'inserted' is bound there"),
    ("template reads nothing bound", _set(T0 + ["checks", 0, "error"], "account {nobody.id}"),
     "at $.tools[0].checks[0].error: a check reads 'nobody.id'"),
    ("row in a let", _set(T0 + ["lets", "fee"], {"row": "balance"}), "at $.tools[0].lets.fee: row reads the row being filtered or updated: only in a where or an update's set"),
    ("new_id in a check", _set(T0 + ["checks", 1, "if", "args", 0], {"new_id": "X-"}), "new_id makes a new key: only in an insert's values or an update's set"),
    ("effect table", _set(T0 + ["effects", 0, "update"], "acounts"),
     "at $.tools[0].effects[0].update: no table 'acounts' in this world (its tables: accounts, transfers, payees)"),
    ("find table", _set(T0 + ["find", 1, "table"], "payments"), "at $.tools[0].find[1].table: no table 'payments' in this world"),
    ("two kinds of effect", _set(T0 + ["effects", 0, "delete"], "accounts"),
     "at $.tools[0].effects[0]: an effect names its table under exactly one of read, insert, update, delete"),
    ("key set", _set(T0 + ["effects", 0, "set", "id"], "X"), "at $.tools[0].effects[0].set.id: 'id' keys the table accounts: a key never changes"),
    ("insert without key", lambda d: d["tools"][0]["effects"][2]["values"].pop("id"), "at $.tools[0].effects[2].values: 'id' is required"),
    ("update without where", lambda d: d["tools"][0]["effects"][0].pop("where"), "at $.tools[0].effects[0]: update needs where"),
    ("read limit", _set(["tools", 1, "effects", 0, "limit"], 0), "at $.tools[1].effects[0].limit: expected a whole number from 1 to 20000"),
    ("order_by", _set(["tools", 1, "effects", 0, "order_by"], "--date"), "at $.tools[1].effects[0].order_by"),
    ("otherwise", _set(["tools", 4, "otherwise"], {"error": "x", "result": 1}), "at $.tools[4].otherwise: otherwise holds either error"),
    ("alias clash", _set(T0 + ["find", 1, "as"], "src"), "at $.tools[0].find[1].as: the name 'src' is already bound in this tool"),
    # scenarios
    ("scenario id", _set(S0 + ["id"], "shop.pay_rent"), "at $.scenarios[0].id: 'shop.pay_rent' is not \"bank.<name>\""),
    ("scenario twice", lambda d: d["scenarios"].append(json.loads(json.dumps(d["scenarios"][0]))),
     "at $.scenarios[1].id: scenario id 'bank.pay_rent' is used twice"),
    ("missing tool", _set(S0 + ["tools", 1], "pay"), "at $.scenarios[0].tools[1]: no tool 'pay' in this world"),
    ("tool offered twice", _set(S0 + ["tools", 1], "get_account"), "at $.scenarios[0].tools[1]: tool 'get_account' is offered twice"),
    ("path calls a tool not offered", _set(S0 + ["gold_paths", 0, "turns", 1, "calls", 0, "tool"], "close_account"),
     "at $.scenarios[0].gold_paths[0].turns[1].calls[0].tool: no tool 'close_account' in the scenario's offer"),
    ("path arguments", _set(S0 + ["gold_paths", 0, "turns", 1, "calls", 0, "arguments"], "{}"),
     "at $.scenarios[0].gold_paths[0].turns[1].calls[0].arguments: expected an object, not a text"),
    ("wrong path without reason", lambda d: d["scenarios"][0]["wrong_paths"][0].pop("fails_with"),
     "at $.scenarios[0].wrong_paths[0]: 'fails_with' is required"),
    ("path id twice", _set(S0 + ["wrong_paths", 0, "id"], "look-first"), "at $.scenarios[0]: path id 'look-first' is used twice"),
    ("tag", _set(S0 + ["covers", 0], "ask"), "at $.scenarios[0].covers[0]: unknown tag 'ask'"),
    ("detail", _set(S0 + ["user", "replies", 0, "asks_for", 0], "money"), "at $.scenarios[0].user.replies[0].asks_for[0]: unknown detail 'money'"),
    ("turn limit", _set(S0 + ["turn_limit"], 31), "at $.scenarios[0].turn_limit: expected a whole number from 1 to 30, not 31"),
    ("end state table", _set(S0 + ["expect", "end_state", "payments"], {}), "at $.scenarios[0].expect.end_state.payments: no table 'payments'"),
    ("end state row", _set(S0 + ["expect", "end_state", "accounts", "update", 0, "key"], "ACC-404"),
     "at $.scenarios[0].expect.end_state.accounts.update[0].key: no row 'ACC-404' in the table accounts"),
    ("milestone after", _set(S0 + ["expect", "milestones", 0, "after"], ["pay"]),
     "at $.scenarios[0].expect.milestones[0].after[0]: after names 'pay', which is not a milestone listed before this one"),
    ("milestone args", _set(S0 + ["expect", "milestones", 1, "args"], {"amount": "850"}),
     "at $.scenarios[0].expect.milestones[1].args: expected args do not validate against transfer_funds: $.amount: '850' is not of type 'number'"),
    ("minefield tool", _set(S0 + ["expect", "minefields", 0, "tool"], "close_account"),
     "at $.scenarios[0].expect.minefields[0].tool: no tool 'close_account' in the scenario's offer"),
    ("dataflow argument", _set(S0 + ["expect", "dataflow", 0, "arg"], "to_acount"),
     "at $.scenarios[0].expect.dataflow[0].arg: transfer_funds takes no argument 'to_acount' (it takes: from_account, to_account, amount)"),
    ("policy rule", _set(S0 + ["expect", "policy", 0, "rule"], "never"), "at $.scenarios[0].expect.policy[0].rule: unknown rule 'never'"),
    ("answer rule", _set(S0 + ["expect", "final_answer", "must_include", 0], {"number": "850"}),
     "at $.scenarios[0].expect.final_answer.must_include[0]: number item: '850' is not a number"),
    ("answer field", _set(S0 + ["expect", "final_answer", "mentions"], []), "at $.scenarios[0].expect.final_answer.mentions: unknown field"),
    ("budget", _set(S0 + ["expect", "budgets", "calls"], 0), "at $.scenarios[0].expect.budgets.calls"),
    # hostile values anywhere
    ("NaN", _set(["tables", "accounts", "rows", 0, "balance"], float("nan")), "at $.tables.accounts.rows[0].balance: nan is not a JSON number"),
    ("infinity", _set(T0 + ["lets", "fee"], float("inf")), "at $.tools[0].lets.fee: inf is not a JSON number"),
    ("control character in an id", _set(["id"], "ba\x00nk"), "at $.id: a text holds a control character U+0000 at character 2"),
    ("control character in a key", lambda d: d["tables"].update({"t\x1b": {"key": "id", "rows": []}}),
     "a key holds a control character U+001B at character 1"),
    ("lone surrogate", _set(["title"], "a\ud800"), "at $.title: a text holds a lone surrogate U+D800"),
    ("key not a text", lambda d: d["tables"]["accounts"]["rows"][0].update({1: "x"}), "at $.tables.accounts.rows[0]: a key is a number, not a text"),
    ("huge integer", _set(["tables", "accounts", "rows", 0, "balance"], 10 ** 400), "integer of more than 300 digits"),
    ("not JSON", _set(["tables", "accounts", "rows", 0, "balance"], {1, 2}), "at $.tables.accounts.rows[0].balance: a set is not JSON"),
    ("deep value", _set(["tables", "accounts", "rows", 0, "notes"], _deep(100_000)), "nested deeper than 64 levels"),
    ("huge list", _set(S0 + ["covers"], ["chain"] * 1_000_000),
     "at $.scenarios[0].covers: holds 1,000,000 items; a world holds lists of at most 20,000"),
    ("huge object", _set(["tables", "transfers", "rows"], {str(i): {} for i in range(1_000_000)}),
     "at $.tables.transfers.rows: holds 1,000,000 keys; a world holds objects of at most 20,000"),
    ("10^6 rows", _set(["tables", "transfers", "rows"], [{"id": 1}] * 1_000_000),
     "at $.tables.transfers.rows: the world's tables hold more than 20,000 rows (this one 1,000,000); at most 20,000 in all"),
    ("rows over the bound in all", lambda d: d["tables"].update({"more": {"key": "id", "rows": [{"id": i} for i in range(MAX_ROWS - 2)]}}),
     "at $.tables.more.rows: the world's tables hold more than 20,000 rows"),
]


@pytest.mark.parametrize("change, expected", [(c, e) for _, c, e in CASES], ids=[name for name, _, _ in CASES])
def test_a_bad_world_is_refused_in_one_line_naming_the_place(change, expected):
    doc = bank_doc()
    change(doc)
    line = refusal(doc)
    assert line.startswith("bank.json: at $") and expected in line, line


@pytest.mark.parametrize("doc", [None, [], "world", 3, {"format": "toolproof.world"}])
def test_a_document_that_is_no_world_is_refused(doc):
    assert refusal(doc).startswith("bank.json: at $: ")


def test_a_duplicate_key_in_the_text_is_refused_by_its_place():
    text = json.dumps(bank_doc()).replace('"owner": "Rui Lopes"', '"owner": "Rui Lopes", "owner": "R. Lopes"')
    with pytest.raises(ToolProofError) as caught:
        world_from_text(text, "bank.json")
    assert caught.value.line() == ("bank.json: at $.tables.accounts.rows[1].owner: the key 'owner' appears twice in "
                                   "one object (the first value would be lost)")


@pytest.mark.parametrize("text, said", [
    ('{"a": NaN}', "NaN is not JSON"), ("[" * 5000, "nested deeper than 64 levels"),
    ('{"a": 1e999}', "number 1e999 is out of range"), ("{", "not valid JSON"),
])
def test_hostile_text_is_refused_by_the_reader(text, said):
    with pytest.raises(ToolProofError) as caught:
        world_from_text(text, "w.json")
    assert caught.value.line().startswith("w.json: ") and said in caught.value.line()


def test_world_and_scenario_ids_are_unique_across_worlds():
    other = bank_doc()
    other["id"] = "bank2"
    other["scenarios"][0]["id"] = "bank2.pay_rent"
    worlds = load_worlds({"bank.json": bank_doc(), "bank2.json": other})
    assert list(worlds) == ["bank", "bank2"]
    with pytest.raises(ToolProofError) as caught:
        load_worlds({"bank.json": bank_doc(), "copy.json": bank_doc()})
    assert caught.value.line() == "copy.json: at $.id: world id 'bank' is also the id of another world file"


def _mutants(seed: int, count: int):
    """Documents with one node replaced by something a careless or hostile author might write."""
    rng = random.Random(seed)
    odd = [None, True, 0, -1, 1.5, "", " ", "x", [], {}, [None], {"op": "?"}, {"ref": "nowhere"},
           {"arg": 3}, {"row": "id"}, {"new_id": "N-"}, "\x07", 10 ** 12, ["a", {"b": None}]]
    for _ in range(count):
        doc = bank_doc()
        spots = []
        stack = [(doc, None, None)]
        while stack:
            value, parent, key = stack.pop()
            if parent is not None:
                spots.append((parent, key))
            if isinstance(value, dict):
                stack.extend((v, value, k) for k, v in value.items())
            elif isinstance(value, list):
                stack.extend((v, value, i) for i, v in enumerate(value))
        parent, key = rng.choice(spots)
        if isinstance(parent, dict) and rng.random() < 0.2:
            del parent[key]
        else:
            parent[key] = rng.choice(odd)
        yield doc


def test_any_mutated_world_loads_or_is_refused_in_one_line():
    refused = 0
    for doc in _mutants(39, 1500):
        try:
            load_world(doc, "m.json")
        except ToolProofError as exc:
            refused += 1
            assert "\n" not in exc.line()
    assert refused > 500        # most single changes break something, and every one was a line


# The work a world may ask for (worlds/cost.py): a table of thousands of rows scanned by every
# call of long paths, and a per-row expression of 1,900 nodes, each within every other bound,
# made `suite validate` run for many minutes; now each is refused in one line naming the place.
SEARCH = {"name": "search_transfers", "description": "Transfers whose payee holds a text.",
          "parameters": {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]},
          "effects": [{"read": "transfers", "where": {"to": {"contains": {"arg": "q"}}}}]}


def _grown(rows: int, *tools: dict) -> dict:
    doc = bank_doc()
    doc["tables"]["transfers"]["rows"] = [{"id": f"TR-{i:05d}", "from": "ACC-1", "to": f"ACC-{i % 9}",
                                           "amount": 1.5, "date": "2026-03-01"} for i in range(rows)]
    doc["tools"] += list(tools)
    return doc


def _long_paths(doc: dict, paths: int) -> dict:
    scenario = doc["scenarios"][0]
    scenario["tools"] = scenario["tools"] + ["search_transfers"]
    turn = {"calls": [{"tool": "search_transfers", "arguments": {"q": "ACC"}}] * 32}
    scenario["gold_paths"] += [{"id": f"scan-{n}", "turns": [turn] * 30} for n in range(paths)]
    return doc


def test_paths_whose_replay_would_scan_too_many_rows_are_refused_at_the_path():
    from toolproof.worlds.cost import MAX_REPLAY_WORK
    # 960 calls of 2,001 steps each fit once (1.92 million), not twice
    doc = _long_paths(_grown(2000, SEARCH), 2)
    line = refusal(doc)
    first = len(bank_doc()["scenarios"][0]["gold_paths"])
    assert line.startswith(f"bank.json: at $.scenarios[0].gold_paths[{first + 1}]: the paths' calls up to here "
                           "would take about ") and f"at most {MAX_REPLAY_WORK:,} for all the world's paths" in line
    load_world(_long_paths(_grown(2000, SEARCH), 1), "bank.json")      # one such path is fine


def _row_expr(nodes: int, rows: int, kind: str = "effects") -> dict:
    per_row = {"op": "concat", "args": [{"row": "to"}] * (nodes - 1)}
    part = [{"read": "transfers", "where": {"from": {"contains": per_row}}}]
    tool = {**SEARCH, "name": "slow_search", kind: part} if kind == "effects" else \
        {**SEARCH, "name": "slow_search", "find": [{"as": "t", "table": "transfers", "where": {"from": per_row},
                                                    "missing": "none"}]}
    return _grown(rows, tool)


@pytest.mark.parametrize("kind, place", [("effects", "effects[0]"), ("find", "find[0]")])
def test_a_per_row_expression_over_too_many_rows_is_refused_at_its_place(kind, place):
    from toolproof.worlds.cost import MAX_CALL_WORK
    line = refusal(_row_expr(1900, 600, kind))      # 600 rows x (1 + 1,900 nodes) > 1,000,000
    tool = len(bank_doc()["tools"])
    assert line == (f"bank.json: at $.tools[{tool}].{place}: would take about {600 * 1901:,} steps a call (rows of "
                    f"its table x (1 + expression nodes per row)); at most {MAX_CALL_WORK:,}")
    load_world(_row_expr(1900, 500, kind), "bank.json")     # 950,500 steps: within the bound


def test_a_tool_whose_parts_together_would_take_too_long_is_refused():
    per_row = {"op": "concat", "args": [{"row": "to"}] * 999}
    read = {"read": "transfers", "where": {"from": {"contains": per_row}}}
    doc = _grown(600, {**SEARCH, "name": "twice", "effects": [read, read]})   # 600,601 steps each
    assert refusal(doc) == (f"bank.json: at $.tools[{len(bank_doc()['tools'])}]: a call would take about 1,201,201 "
                            "steps (its finds and effects together); at most 1,000,000")


def test_the_bundled_worlds_stay_well_within_the_work_bounds():
    from toolproof.datafiles import bundled_worlds
    from toolproof.worlds.cost import MAX_CALL_WORK, MAX_REPLAY_WORK, call_work
    worlds = bundled_worlds()
    assert set(worlds) >= {"bank", "shop", "travel"}
    for world in worlds.values():
        rows = {name: len(table.rows) for name, table in world.tables.items()}
        work = {name: call_work(tool, rows) for name, tool in world.tools.items()}
        replay = sum(work[call.tool] for s in world.scenarios for path in s.gold_paths + s.wrong_paths
                     for turn in path.turns for call in turn.calls)
        assert max(work.values()) * 20 < MAX_CALL_WORK and replay * 5 < MAX_REPLAY_WORK, world.id
