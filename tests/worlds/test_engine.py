"""One tool call against a world's state (toolproof/worlds/engine.py): the order of a call
(arguments, find, checks, effects, result), errors that change nothing, new ids, reads with
optional filters, copy on write, stateless answers, determinism."""
from __future__ import annotations

import pytest

from toolproof.worlds.engine import initial_state, run_call
from toolproof.worlds.load import load_world
from worldkit import bank_doc

PAY = {"from_account": "ACC-1", "to_account": "ACC-7", "amount": 850}


def world_with(*tools, rows=None):
    doc = bank_doc()
    doc["tools"] += list(tools)
    if rows is not None:
        doc["tables"]["accounts"]["rows"] = rows
    return load_world(doc, "bank.json")


@pytest.fixture(scope="module")
def bank():
    return load_world(bank_doc(), "bank.json")


def test_a_transfer_runs_find_checks_effects_and_result(bank):
    start = initial_state(bank)
    out = run_call(bank, start, "transfer_funds", PAY)
    assert out.error is False
    assert out.result == {"transfer_id": "TR-1001", "new_balance": 400.0, "fee": 0}
    assert out.changes == (
        {"table": "accounts", "op": "update", "key": "ACC-1", "fields": {"balance": [1250.0, 400.0]}},
        {"table": "accounts", "op": "update", "key": "ACC-7", "fields": {"balance": [10.0, 860.0]}},
        {"table": "transfers", "op": "insert", "key": "TR-1001",
         "row": {"id": "TR-1001", "from": "ACC-1", "to": "ACC-7", "amount": 850, "date": "2026-03-14"}})
    assert out.state.tables["accounts"]["ACC-1"]["balance"] == 400.0
    # the state it started from is untouched (never changed in place)
    assert start.tables["accounts"]["ACC-1"]["balance"] == 1250.0 and "TR-1001" not in start.tables["transfers"]
    assert start == initial_state(bank)


def test_lets_compute_on_use(bank):
    out = run_call(bank, initial_state(bank), "transfer_funds", {**PAY, "amount": 1100})
    assert out.result == {"transfer_id": "TR-1001", "new_balance": 147.5, "fee": 2.5}


@pytest.mark.parametrize("arguments, error", [
    ({**PAY, "amount": 5000}, "insufficient funds: the balance is 1250 EUR"),
    ({**PAY, "to_account": "ACC-9"}, "account ACC-9 is closed"),
    ({**PAY, "from_account": "ACC-404"}, "account ACC-404 not found; look it up with find_account"),
    ({"from_account": "ACC-1", "to_account": "ACC-7"}, "invalid arguments: $: 'amount' is a required property"),
    ({**PAY, "amount": -3}, "invalid arguments: $.amount: -3 is less than or equal to the minimum of 0"),
    ({**PAY, "amount": "850"}, "invalid arguments: $.amount: '850' is not of type 'number'"),
    ([1, 2], "invalid arguments: the arguments are not an object"),
    (None, "invalid arguments: the arguments are not an object"),
])
def test_an_error_is_the_tools_answer_and_changes_nothing(bank, arguments, error):
    start = initial_state(bank)
    out = run_call(bank, start, "transfer_funds", arguments)
    assert (out.result, out.error, out.changes) == ({"error": error}, True, ())
    assert out.state is start


@pytest.mark.parametrize("name", ["transfer", "", None, 7, "get_rate "])
def test_an_unknown_tool_is_an_error_not_an_exception(bank, name):
    out = run_call(bank, initial_state(bank), name, {})
    assert out.error and out.result == {"error": f"unknown tool {name!r}"}


def test_the_first_failing_check_wins_and_keys_compare_case_folded(bank):
    out = run_call(bank, initial_state(bank), "transfer_funds", {**PAY, "from_account": " acc-1", "to_account": "acc-9"})
    assert out.result == {"error": "account ACC-9 is closed"}
    out = run_call(bank, initial_state(bank), "transfer_funds", {**PAY, "from_account": " acc-1"})
    assert out.changes[0]["key"] == "ACC-1"      # the row's own key, however the model wrote it


def test_new_ids_count_per_table_and_skip_taken_keys(bank):
    rows = bank_doc()["tables"]["transfers"]["rows"] + [{"id": "TR-1002", "amount": 1}]
    doc = bank_doc()
    doc["tables"]["transfers"]["rows"] = rows
    world = load_world(doc, "bank.json")
    state = initial_state(world)
    ids = []
    for _ in range(3):
        out = run_call(world, state, "transfer_funds", {**PAY, "amount": 1})
        ids.append(out.result["transfer_id"])
        state = out.state
    assert ids == ["TR-1001", "TR-1003", "TR-1004"]
    again = initial_state(world)
    for _ in range(3):
        again = run_call(world, again, "transfer_funds", {**PAY, "amount": 1}).state
    assert again == state                      # deterministic: the same calls, the same state


def test_a_read_sorts_projects_counts_and_skips_an_absent_filter(bank):
    state = initial_state(bank)
    out = run_call(bank, state, "list_transfers", {"account_id": "acc-1"})
    assert out.result == {"transfers": [{"id": "TR-0002", "date": "2026-03-10", "amount": 35.5},
                                        {"id": "TR-0001", "date": "2026-03-01", "amount": 20}], "count": 2}
    assert out.state is state and out.changes == ()
    out = run_call(bank, state, "list_transfers", {"account_id": "ACC-1", "since": "2026-03-05"})
    assert [r["id"] for r in out.result["transfers"]] == ["TR-0002"]


def test_a_read_of_one_row_or_its_missing_text(bank):
    state = initial_state(bank)
    assert run_call(bank, state, "get_account", {"account_id": "ACC-7"}).result["owner"] == "Rui Lopes"
    assert run_call(bank, state, "get_account", {"account_id": "X"}).result == {"error": "no account X"}


def test_a_delete_and_its_check(bank):
    state = initial_state(bank)
    out = run_call(bank, state, "close_account", {"account_id": "ACC-9"})
    assert out.changes[0]["op"] == "delete" and out.changes[0]["key"] == "ACC-9"
    assert "ACC-9" not in out.state.tables["accounts"] and "ACC-9" in state.tables["accounts"]
    assert out.result["count"] == 1
    refused = run_call(bank, state, "close_account", {"account_id": "ACC-1"})
    assert refused.result == {"error": "account ACC-1 still holds 1250 EUR: move it first"}


def test_a_write_copies_only_the_table_it_touches(bank):
    state = initial_state(bank)
    out = run_call(bank, state, "close_account", {"account_id": "ACC-9"})
    assert out.state.tables["transfers"] is state.tables["transfers"]
    assert out.state.tables["accounts"] is not state.tables["accounts"]
    assert out.state.tables["accounts"]["ACC-1"] is state.tables["accounts"]["ACC-1"]   # rows shared too


def test_a_stateless_tool_answers_by_arguments(bank):
    state = initial_state(bank)
    assert run_call(bank, state, "get_rate", {"currency": " usd"}).result == {"rate": 0.92}
    out = run_call(bank, state, "get_rate", {"currency": "JPY"})
    assert out.error and out.result == {"error": "no rate for JPY"} and out.state is state


OPEN = {"name": "open_account", "description": "Open an account with a chosen id.",
        "parameters": {"type": "object", "properties": {"id": {"type": "string"}, "owner": {"type": "string"}}},
        "effects": [{"insert": "accounts", "values": {"id": {"arg": "id"}, "owner": {"arg": "owner"},
                                                      "balance": 0, "status": "open"}}]}
RENAME = {"name": "rename", "description": "Set an account's owner.",
          "parameters": {"type": "object", "properties": {"id": {"type": "string"}, "owner": {"type": "string"}}},
          "effects": [{"update": "accounts", "where": {"id": {"arg": "id"}}, "set": {"owner": {"arg": "owner"}}, "as": "acc"}],
          "result": {"owner": {"ref": "acc_after.owner"}, "rows": {"op": "len", "args": [{"ref": "acc"}]}}}
SPLIT = {"name": "split", "description": "Divide a balance.",
         "parameters": {"type": "object", "properties": {"id": {"type": "string"}, "parts": {"type": "integer"}}},
         "find": [{"as": "acc", "table": "accounts", "where": {"id": {"arg": "id"}}}],
         "result": {"each": {"op": "/", "args": [{"ref": "acc.balance"}, {"arg": "parts"}]}}}
RICH = {"name": "rich", "description": "Accounts whose owner holds a text, richest first.",
        "parameters": {"type": "object", "properties": {"name": {"type": "string"}, "at_least": {"type": "number"}}},
        "effects": [{"read": "accounts", "where": {"owner": {"contains": {"arg": "name"}},
                                                   "balance": {"gte": {"arg": "at_least"}},
                                                   "status": {"in": ["open", "frozen"]}},
                     "order_by": "-balance", "limit": 1, "fields": ["id", "balance"]}]}


def test_an_insert_needs_a_free_key_and_its_row_is_the_result():
    world = world_with(OPEN)
    state = initial_state(world)
    out = run_call(world, state, "open_account", {"id": "ACC-2", "owner": "Eva"})
    assert out.result == {"id": "ACC-2", "owner": "Eva", "balance": 0, "status": "open"}
    assert run_call(world, state, "open_account", {"id": "acc-1 ", "owner": "Eva"}).result == \
        {"error": "cannot add to accounts: 'acc-1 ' already exists"}
    assert run_call(world, state, "open_account", {"owner": "Eva"}).result == \
        {"error": "cannot add to accounts: its key 'id' needs a text or a number"}


def test_an_update_that_changes_nothing_records_no_change():
    world = world_with(RENAME)
    state = initial_state(world)
    same = run_call(world, state, "rename", {"id": "ACC-1", "owner": "Ana Costa"})
    assert same.changes == () and same.state is state and same.result == {"owner": "Ana Costa", "rows": 1}
    moved = run_call(world, state, "rename", {"id": "ACC-1", "owner": "Ana C."})
    assert moved.changes == ({"table": "accounts", "op": "update", "key": "ACC-1",
                              "fields": {"owner": ["Ana Costa", "Ana C."]}},)
    none = run_call(world, state, "rename", {"id": "ACC-404", "owner": "X"})
    assert none.result == {"owner": None, "rows": 0} and none.changes == ()


def test_a_value_that_cannot_be_computed_is_the_tools_error():
    world = world_with(SPLIT)
    out = run_call(world, initial_state(world), "split", {"id": "ACC-1", "parts": 0})
    assert out.result == {"error": "the tool could not compute its answer: division by zero"}
    assert run_call(world, initial_state(world), "split", {"id": "ACC-1"}).result == \
        {"error": "the tool could not compute its answer: / needs numbers, not null"}


def test_filters_with_comparators_and_rows_without_the_field():
    rows = bank_doc()["tables"]["accounts"]["rows"] + [{"id": "ACC-3", "owner": "Ana Lima", "status": "open"},
                                                       {"id": "ACC-4", "owner": "ANA", "balance": "lots", "status": "open"}]
    world = world_with(RICH, rows=rows)
    state = initial_state(world)
    assert run_call(world, state, "rich", {"name": "ana"}).result == {"accounts": [{"id": "ACC-1", "balance": 1250.0}], "count": 3}
    assert run_call(world, state, "rich", {"name": "ana", "at_least": 2000}).result == {"accounts": [], "count": 0}


def test_the_deepest_computation_the_loader_allows_runs():
    """Lets chained to exprs.MAX_CHAIN levels, read by a check 3 levels deep: within the stack."""
    def deep(depth, leaf):
        for _ in range(depth):
            leaf = {"op": "abs", "args": [leaf]}
        return leaf
    doc = bank_doc()
    doc["tools"][0]["lets"].update({"fee": {"op": "-", "args": [{"ref": "l0"}, 1]},
                                    **{f"l{i}": deep(29, {"ref": f"l{i + 1}"}) for i in range(4)}, "l4": 1})
    world = load_world(doc, "bank.json")      # total 2 + fee 2 + 4 x 30 + l4 1 = 125 levels
    out = run_call(world, initial_state(world), "transfer_funds", PAY)
    assert out.result["fee"] == 0 and not out.error


def test_the_key_index_follows_each_state_and_never_leaks_into_the_one_before():
    world = world_with(OPEN)
    start = initial_state(world)
    run_call(world, start, "get_account", {"account_id": "acc-1"})            # builds start's index
    opened = run_call(world, start, "open_account", {"id": "ACC-2", "owner": "Eva"}).state
    assert run_call(world, opened, "get_account", {"account_id": " acc-2 "}).result["owner"] == "Eva"
    assert run_call(world, start, "get_account", {"account_id": "ACC-2"}).error          # not in the state before
    assert not run_call(world, start, "open_account", {"id": "acc-2", "owner": "Bo"}).error
    closed = run_call(world, opened, "close_account", {"account_id": "acc-2"}).state
    assert run_call(world, closed, "get_account", {"account_id": "ACC-2"}).error
    assert not run_call(world, closed, "open_account", {"id": "Acc-2", "owner": "Bo"}).error
    assert run_call(world, opened, "open_account", {"id": "acc-2", "owner": "Bo"}).result == \
        {"error": "cannot add to accounts: 'acc-2' already exists"}
    # ids made from one state are the same whatever was run from it before
    assert run_call(world, start, "transfer_funds", PAY).result["transfer_id"] == "TR-1001"
    assert run_call(world, start, "transfer_funds", PAY).result["transfer_id"] == "TR-1001"


class _CountingRows(dict):
    """A table that counts whole-table walks (what a look-up by key must never do)."""
    walks = 0

    def values(self):
        _CountingRows.walks += 1
        return super().values()

    def __iter__(self):
        _CountingRows.walks += 1
        return super().__iter__()


def test_a_call_by_key_never_walks_a_table_once_its_index_is_built(bank):
    from toolproof.worlds.model import State
    big = {f"TR-{i}": {"id": f"TR-{i}", "from": "ACC-1", "amount": i, "date": "2026-01-01"} for i in range(5000)}
    start = initial_state(bank)
    state = State({**start.tables, "transfers": _CountingRows(big)}, start.counters)
    small = {**PAY, "amount": 1}
    run_call(bank, state, "transfer_funds", small)          # builds the index: one walk of each table
    _CountingRows.walks = 0
    out = run_call(bank, state, "transfer_funds", small)
    assert not out.error and _CountingRows.walks == 0     # finds by key, a free new id, an insert
    after = run_call(bank, out.state, "transfer_funds", small)
    # TR-1001 to TR-4999 are taken: the counter skips them, by the index
    assert out.result["transfer_id"] == "TR-5000" and after.result["transfer_id"] == "TR-5001"
    assert "transfers" in out.state.index
    _CountingRows.walks = 0
    assert run_call(bank, state, "list_transfers", {"account_id": "ACC-1"}).result["count"] == 5000
    assert _CountingRows.walks == 1                       # a read with filters walks once


def test_a_runaway_call_is_the_tools_error_and_changes_nothing():
    # within every load bound (a scan of 2,000 rows), but the model's list for `in` is walked per
    # row: 2,000 x 2,000 steps, past cost.MAX_CALL_STEPS, so the call stops before it scans
    from toolproof.worlds.cost import MAX_CALL_STEPS
    pick = {"name": "pick", "description": "Transfers to any of these accounts.",
            "parameters": {"type": "object", "properties": {"to": {"type": "array", "items": {"type": "string"}}},
                           "required": ["to"]},
            "effects": [{"read": "transfers", "where": {"to": {"in": {"arg": "to"}}}}]}
    doc = bank_doc()
    doc["tables"]["transfers"]["rows"] = [{"id": f"TR-{i}", "to": f"ACC-{i}"} for i in range(2000)]
    doc["tools"].append(pick)
    world = load_world(doc, "bank.json")
    state = initial_state(world)
    outcome = run_call(world, state, "pick", {"to": [f"ACC-{i}" for i in range(2000)]})
    assert outcome.error and outcome.state is state and outcome.changes == ()
    assert outcome.result == {"error": f"the tool could not compute its answer: the call would take more than "
                                       f"{MAX_CALL_STEPS:,} steps (rows looked at and expression nodes evaluated "
                                       "per row)"}
    few = run_call(world, state, "pick", {"to": ["ACC-3", "ACC-9"]})
    assert not few.error and few.result["count"] == 2
