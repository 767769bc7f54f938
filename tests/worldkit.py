"""A small hand-made world (a bank with two tables, a stateful tool of every effect kind and a
stateless one, one scenario) for the worlds tests: `bank_doc()` gives a fresh copy each time, so
a test may break it in place to see the refusal."""
from __future__ import annotations

import copy

_OBJECT = {"type": "object"}

_BANK = {
    "format": "toolproof.world", "version": 1, "id": "bank", "title": "A small bank",
    "why": "tests of the worlds core", "today": "2026-03-14",
    "tables": {
        "accounts": {"key": "id", "rows": [
            {"id": "ACC-1", "owner": "Ana Costa", "balance": 1250.0, "currency": "EUR", "status": "open"},
            {"id": "ACC-7", "owner": "Rui Lopes", "balance": 10.0, "currency": "EUR", "status": "open"},
            {"id": "ACC-9", "owner": "Old Account", "balance": 0, "currency": "EUR", "status": "closed"}]},
        "transfers": {"key": "id", "rows": [
            {"id": "TR-0001", "from": "ACC-1", "to": "ACC-7", "amount": 20, "date": "2026-03-01"},
            {"id": "TR-0002", "from": "ACC-1", "to": "ACC-7", "amount": 35.5, "date": "2026-03-10"},
            {"id": "TR-0003", "from": "ACC-7", "to": "ACC-1", "amount": 5, "date": "2026-02-20"}]},
    },
    "tools": [
        {"name": "transfer_funds", "description": "Move money between two accounts.",
         "parameters": {"type": "object", "properties": {
             "from_account": {"type": "string"}, "to_account": {"type": "string"},
             "amount": {"type": "number", "exclusiveMinimum": 0}},
             "required": ["from_account", "to_account", "amount"]},
         "lets": {"total": {"op": "+", "args": [{"arg": "amount"}, {"ref": "fee"}]},
                  "fee": {"op": "if", "args": [{"op": ">", "args": [{"arg": "amount"}, 1000]}, 2.5, 0]}},
         "find": [{"as": "src", "table": "accounts", "where": {"id": {"arg": "from_account"}},
                   "missing": "account {arg.from_account} not found; look it up with find_account"},
                  {"as": "dst", "table": "accounts", "where": {"id": {"arg": "to_account"}},
                   "missing": "account {arg.to_account} not found"}],
         "checks": [{"if": {"op": "!=", "args": [{"ref": "dst.status"}, "open"]},
                     "error": "account {dst.id} is {dst.status}"},
                    {"if": {"op": "<", "args": [{"ref": "src.balance"}, {"ref": "total"}]},
                     "error": "insufficient funds: the balance is {src.balance} {src.currency}"}],
         "effects": [
             {"update": "accounts", "where": {"id": {"arg": "from_account"}},
              "set": {"balance": {"op": "-", "args": [{"row": "balance"}, {"ref": "total"}]}}},
             {"update": "accounts", "where": {"id": {"arg": "to_account"}},
              "set": {"balance": {"op": "+", "args": [{"row": "balance"}, {"arg": "amount"}]}}},
             {"insert": "transfers", "values": {"id": {"new_id": "TR-"}, "from": {"ref": "src.id"},
                                                "to": {"ref": "dst.id"}, "amount": {"arg": "amount"},
                                                "date": {"world": "today"}}}],
         "result": {"transfer_id": {"ref": "inserted.id"}, "new_balance": {"ref": "src_after.balance"},
                    "fee": {"ref": "fee"}}},
        {"name": "list_transfers", "description": "Transfers from an account, newest first.",
         "parameters": {"type": "object", "properties": {"account_id": {"type": "string"},
                                                         "since": {"type": "string"}},
                        "required": ["account_id"]},
         "effects": [{"read": "transfers", "where": {"from": {"arg": "account_id"},
                                                     "date": {"gte": {"arg": "since"}}},
                      "fields": ["id", "date", "amount"], "order_by": "-date", "as": "transfers"}]},
        {"name": "get_account", "description": "One account by id.",
         "parameters": {"type": "object", "properties": {"account_id": {"type": "string"}},
                        "required": ["account_id"]},
         "effects": [{"read": "accounts", "where": {"id": {"arg": "account_id"}}, "one": True,
                      "missing": "no account {arg.account_id}"}]},
        {"name": "close_account", "description": "Close an empty account (deletes it).",
         "parameters": {"type": "object", "properties": {"account_id": {"type": "string"}},
                        "required": ["account_id"]},
         "find": [{"as": "acc", "table": "accounts", "where": {"id": {"arg": "account_id"}}}],
         "checks": [{"if": {"op": "!=", "args": [{"ref": "acc.balance"}, 0]},
                     "error": "account {acc.id} still holds {acc.balance} {acc.currency}: move it first"}],
         "effects": [{"delete": "accounts", "where": {"id": {"arg": "account_id"}}}]},
        {"name": "get_rate", "description": "The exchange rate to EUR.",
         "parameters": {"type": "object", "properties": {"currency": {"type": "string"}},
                        "required": ["currency"]},
         "answers": [{"when": {"currency": "USD"}, "result": {"rate": 0.92}}],
         "otherwise": {"error": "no rate for {arg.currency}"}},
    ],
    "scenarios": [{
        "id": "bank.pay_rent", "title": "Pay the rent", "why": "asks for the amount, then pays it",
        "covers": ["ask_then_use", "confirm_before_write"],
        "tools": ["get_account", "transfer_funds"],
        "system": "You are the bank's assistant. Confirm before any transfer.",
        "user": {"first": "Please pay my rent to Rui (ACC-7) from ACC-1.",
                 "replies": [{"asks_for": ["amount"], "say": "It's 850 euros."},
                             {"asks_for": [], "say": "Yes, go ahead.", "confirms": True}],
                 "fallback": "Please go on with what you have.",
                 "then": [{"say": "Thanks."}]},
        "turn_limit": 8,
        "expect": {
            "end_state": {"transfers": {"insert": [{"to": "ACC-7", "amount": 850}]},
                          "accounts": {"update": [{"key": "ACC-1", "set": {"balance": 400}},
                                                  {"key": "ACC-7", "set": {"balance": 860}}]}},
            "milestones": [{"id": "look", "tool": "get_account", "args": {"account_id": "ACC-7"}},
                           {"id": "pay", "tool": "transfer_funds", "args": {"amount": 850}, "after": ["look"]}],
            "minefields": [{"tool": "transfer_funds", "args": {"amount": 800}, "why": "the rent is 850"}],
            "dataflow": [{"tool": "transfer_funds", "arg": "to_account", "from": "get_account", "field": "id"}],
            "final_answer": {"must_include": [{"number": 850}], "claims_done": True},
            "budgets": {"calls": 4, "turns": 6},
            "policy": [{"rule": "confirm_before", "tools": ["transfer_funds"]}]},
        "gold_paths": [{"id": "look-first", "turns": [
            {"say": "How much is the rent?"},
            {"calls": [{"tool": "get_account", "arguments": {"account_id": "ACC-7"}}]},
            {"say": "Shall I send 850 EUR to Rui Lopes?"},
            {"calls": [{"tool": "transfer_funds", "arguments": {"from_account": "ACC-1", "to_account": "ACC-7", "amount": 850}}]},
            {"say": "Done: 850 EUR sent to Rui Lopes."}]}],
        "wrong_paths": [{"id": "no-confirm", "turns": [
            {"calls": [{"tool": "transfer_funds", "arguments": {"from_account": "ACC-1", "to_account": "ACC-7", "amount": 850}}]},
            {"say": "Done."}], "fails_with": "confirm_before"}],
    }],
}


def bank_doc() -> dict:
    """A fresh copy of the small bank world's document."""
    return copy.deepcopy(_BANK)
