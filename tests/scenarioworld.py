"""A small world for the agent loop's tests (written here, not a bundled one, so a change to the
bundled worlds never moves these tests): a bank with two accounts, a read, a write with a check
whose error says how to recover, and a stateless lookup; four scenarios, each scripted for the
fake model by its first user message (tests/fakeagent.py)."""
from __future__ import annotations

import copy

WORLD = {
    "format": "toolproof.world", "version": 1, "id": "minibank", "title": "Mini bank",
    "why": "the agent loop's tests", "today": "2026-03-14",
    "tables": {
        "accounts": {"key": "id", "rows": [
            {"id": "ACC-1", "owner": "Ana", "balance": 1000.0},
            {"id": "ACC-2", "owner": "Rui", "balance": 50.0}]},
        "transfers": {"key": "id", "rows": []},
    },
    "tools": [
        {"name": "get_balance", "description": "The balance of one account.",
         "parameters": {"type": "object", "properties": {"account_id": {"type": "string"}},
                        "required": ["account_id"], "additionalProperties": False},
         "effects": [{"read": "accounts", "where": {"id": {"arg": "account_id"}}, "fields": ["id", "balance"],
                      "one": True, "missing": "account {arg.account_id} not found; list the accounts first"}]},
        {"name": "transfer", "description": "Move money between two accounts.",
         "parameters": {"type": "object", "properties": {
             "from_account": {"type": "string"}, "to_account": {"type": "string"}, "amount": {"type": "number"}},
             "required": ["from_account", "to_account", "amount"], "additionalProperties": False},
         "find": [{"as": "src", "table": "accounts", "where": {"id": {"arg": "from_account"}},
                   "missing": "account {arg.from_account} not found"}],
         "checks": [{"if": {"op": "<", "args": [{"ref": "src.balance"}, {"arg": "amount"}]},
                     "error": "insufficient funds: the balance is {src.balance}; transfer less"}],
         "effects": [
             {"update": "accounts", "where": {"id": {"arg": "from_account"}},
              "set": {"balance": {"op": "-", "args": [{"row": "balance"}, {"arg": "amount"}]}}},
             {"insert": "transfers", "values": {"id": {"new_id": "TR-"}, "from": {"arg": "from_account"},
                                                "to": {"arg": "to_account"}, "amount": {"arg": "amount"}}}]},
        {"name": "get_rate", "description": "An exchange rate.",
         "parameters": {"type": "object", "properties": {"currency": {"type": "string"}},
                        "required": ["currency"]},
         "answers": [{"when": {"currency": "USD"}, "result": {"rate": 1.08}},
                     {"when": {"currency": "GBP"}, "result": {"rate": 0.85}}],
         "otherwise": {"error": "no rate for {arg.currency}"}},
    ],
    "scenarios": [],
}

SEND = {"from_account": "ACC-1", "to_account": "ACC-2", "amount": 100}
FIRSTS = {"pay": "Please send 100 to Rui.", "rates": "What are the USD and GBP rates?",
          "loop": "Check my balance.", "ask": "Send some money to Rui."}


def _scenario(name: str, **extra) -> dict:
    base = {"id": f"minibank.{name}", "title": name, "why": "a test", "covers": ["chain"],
            "tools": ["get_balance", "transfer", "get_rate"], "system": "You are the bank's assistant.",
            "user": {"first": FIRSTS[name], "fallback": "I have nothing more to add."},
            "turn_limit": 6, "expect": {}}
    base.update(extra)
    return base


SCENARIOS = [
    _scenario("pay", expect={"end_state": {"accounts": {"update": [{"key": "ACC-1", "set": {"balance": 900}}]},
                                           "transfers": {"insert": [{"to": "ACC-2", "amount": 100}]}},
                             "milestones": [{"id": "pay", "tool": "transfer", "args": {"amount": 100}}]}),
    _scenario("rates", expect={"milestones": [{"id": "usd", "tool": "get_rate", "args": {"currency": "USD"}}]}),
    _scenario("loop", turn_limit=4),
    _scenario("ask", expect={"end_state": {"accounts": {"update": [{"key": "ACC-1", "set": {"balance": 900}}]},
                                           "transfers": {"insert": [{"to": "ACC-2", "amount": 100}]}}},
              user={"first": FIRSTS["ask"], "fallback": "I have nothing more to add.",
                           "replies": [{"asks_for": ["amount"], "say": "100, please."}],
                           "then": [{"say": "Thanks. Also check my balance."}]}),
]

# The fake model's side of each scenario, by its first user message.
SCRIPTS = {
    # an error that tells how to recover (too much), then a retry that works; then the answer
    FIRSTS["pay"]: [{"calls": [{"tool": "get_balance", "arguments": {"account_id": "ACC-1"}}]},
                    {"calls": [{"tool": "transfer", "arguments": {**SEND, "amount": 5000}}]},
                    {"calls": [{"tool": "transfer", "arguments": SEND}]},
                    {"say": "Done: I sent 100 to Rui; your balance is now 900."}],
    # parallel calls (one answered with the tool's error), then invalid JSON arguments
    FIRSTS["rates"]: [{"calls": [{"tool": "get_rate", "arguments": {"currency": "USD"}},
                                 {"tool": "get_rate", "arguments": {"currency": "GBP"}},
                                 {"tool": "get_rate", "arguments": {"currency": "JPY"}}]},
                      {"calls": [{"tool": "get_balance", "raw_arguments": '{"account_id": "ACC-1"'}]},
                      {"say": "USD is 1.08 and GBP is 0.85; I have no JPY rate."}],
    # a model that never stops calling tools
    FIRSTS["loop"]: [{"forever": {"tool": "get_balance", "arguments": {"account_id": "ACC-1"}}}],
    # asks the user, gets the scripted reply, acts; then the user's later turn
    FIRSTS["ask"]: [{"say": "How much would you like to send to Rui?"},
                    {"calls": [{"tool": "transfer", "arguments": SEND}]},
                    {"say": "I sent 100 to Rui."},
                    {"calls": [{"tool": "get_balance", "arguments": {"account_id": "ACC-1"}}]},
                    {"say": "Your balance is 900."}],
}


def world_doc(*names: str) -> dict:
    """The world file holding the named scenarios (all when none is named)."""
    doc = copy.deepcopy(WORLD)
    doc["scenarios"] = [copy.deepcopy(s) for s in SCENARIOS if not names or s["id"].split(".")[1] in names]
    return doc
