"""The one small test world: a bank written here, not a bundled one, so a change to the bundled
worlds never moves these tests. Three tables (accounts, payees, transfers), a stateful tool of every
effect kind (a guarded transfer with lets, finds and checks; reads; a delete), a payee look-up and a
stateless rate lookup. Every test that needs a world builds it from this one definition, each with
its own scenarios (every call gives a fresh copy, so a test may change it in place):

- `bank_doc()`: world `bank` with `bank.pay_rent`, for the worlds core's tests to break in place;
- `grade_doc(*scenarios)`: world `gradebank` holding RENT, whose expectations are every kind at once
  and whose paths each break one rule, for the scenario grader's tests (its own id, so it loads
  beside the bundled worlds, which hold a `bank`);
- `run_doc(*names)`: world `minibank` with four scenarios scripted for the fake model
  (tests/fakeagent.py, SCRIPTS by the first user message), for the agent loop's tests.

The selftest keeps its own built-in world (toolproof/selftest/scenario_checks.py), which the tests
do not use: the package cannot import a test module, that world is too small for them (no delete,
no stateless tool, no minefield or budget), and growing it for their sake would grow what the page
loads and move the figures `selftest` and the page's `?selftest=1` check.
"""
from __future__ import annotations

import copy

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
        "payees": {"key": "id", "rows": [{"id": "P-1", "name": "landlord", "account_id": "ACC-7"}]},
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
         "answers": [{"when": {"currency": "USD"}, "result": {"rate": 0.92}},
                     {"when": {"currency": "GBP"}, "result": {"rate": 0.85}}],
         "otherwise": {"error": "no rate for {arg.currency}"}},
        {"name": "find_payee", "description": "Find a saved payee by name.",
         "parameters": {"type": "object", "properties": {"name": {"type": "string"}},
                        "required": ["name"], "additionalProperties": False},
         "effects": [{"read": "payees", "where": {"name": {"arg": "name"}}, "fields": ["name", "account_id"],
                      "as": "payees"}]},
        {"name": "get_balance", "description": "The balance of one account.",
         "parameters": {"type": "object", "properties": {"account_id": {"type": "string"}},
                        "required": ["account_id"], "additionalProperties": False},
         "effects": [{"read": "accounts", "where": {"id": {"arg": "account_id"}}, "fields": ["id", "balance"],
                      "one": True, "missing": "account {arg.account_id} not found"}]},
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


# The scenario grader's scenario and the path turns its tests combine.
FIND = {"calls": [{"tool": "find_payee", "arguments": {"name": "landlord"}}]}
PAY = {"calls": [{"tool": "transfer_funds", "arguments": {"from_account": "ACC-1", "to_account": "ACC-7",
                                                          "amount": 900}}]}
ASK = {"say": "I found your landlord. Shall I send 900 euros from ACC-1?"}
DONE = {"say": "Done: I sent 900 euros to your landlord. Your balance is now 350 euros."}

RENT = {
    "id": "gradebank.rent", "title": "Pay the rent", "why": "every expectation at once",
    "covers": ["confirm_before_write", "chain"],
    "tools": ["find_payee", "get_balance", "transfer_funds"],
    "system": "You are the bank's assistant. Policy: confirm every transfer with the user before making it.",
    "user": {"first": "Please pay my rent of 900 euros to my landlord from ACC-1.",
             "replies": [{"asks_for": [], "say": "Yes, please go ahead.", "confirms": True}],
             "fallback": "I have nothing to add; please go on."},
    "turn_limit": 6,
    "expect": {
        "end_state": {"transfers": {"insert": [{"to": "ACC-7", "amount": 900}]},
                      "accounts": {"update": [{"key": "ACC-1", "set": {"balance": 350}},
                                              {"key": "ACC-7", "set": {"balance": 910}}]}},
        "milestones": [{"id": "payee", "tool": "find_payee", "args": {"name": "landlord"}},
                       {"id": "pay", "tool": "transfer_funds", "args": {"amount": 900}, "after": ["payee"]}],
        "minefields": [{"tool": "transfer_funds", "args": {"to_account": "ACC-1"},
                        "why": "that is the user's own account"}],
        "dataflow": [{"tool": "transfer_funds", "arg": "to_account", "from": "find_payee",
                      "field": "payees.account_id"}],
        "final_answer": {"must_include": [{"number": 900}], "must_not_include": ["failed"]},
        "budgets": {"calls": 3, "turns": 5},
        "policy": [{"rule": "confirm_before", "tools": ["transfer_funds"]}],
    },
    "gold_paths": [
        {"id": "lookup-first", "turns": [FIND, ASK, PAY, DONE]},
        {"id": "portuguese", "turns": [FIND, {"say": "Encontrei o senhorio. Posso enviar 900 euros da conta ACC-1?"},
                                       PAY, {"say": "Feito: enviei 900 euros ao seu senhorio."}]},
    ],
    "wrong_paths": [
        {"id": "no-confirm", "turns": [FIND, PAY, DONE], "fails_with": "confirm_before"},
        {"id": "no-lookup", "turns": [ASK, PAY, DONE], "fails_with": "milestone 'payee' missed"},
        {"id": "no-answer-fact", "turns": [FIND, ASK, PAY, {"say": "All done."}], "fails_with": "must_include"},
    ],
}

# The agent loop's scenarios, each found by the fake model through its first user message.
SEND = {"from_account": "ACC-1", "to_account": "ACC-7", "amount": 100}
FIRSTS = {"pay": "Please send 100 to Rui.", "rates": "What are the USD and GBP rates?",
          "loop": "Check my balance.", "ask": "Send some money to Rui."}
_SENT = {"accounts": {"update": [{"key": "ACC-1", "set": {"balance": 1150}},
                                {"key": "ACC-7", "set": {"balance": 110}}]},
         "transfers": {"insert": [{"to": "ACC-7", "amount": 100}]}}


def _run_scenario(name: str, **extra) -> dict:
    base = {"id": f"minibank.{name}", "title": name, "why": "a test", "covers": ["chain"],
            "tools": ["get_balance", "transfer_funds", "get_rate"], "system": "You are the bank's assistant.",
            "user": {"first": FIRSTS[name], "fallback": "I have nothing more to add."},
            "turn_limit": 6, "expect": {}}
    base.update(extra)
    return base


RUN_SCENARIOS = [
    _run_scenario("pay", expect={"end_state": _SENT,
                                 "milestones": [{"id": "pay", "tool": "transfer_funds", "args": {"amount": 100}}]}),
    _run_scenario("rates", expect={"milestones": [{"id": "usd", "tool": "get_rate", "args": {"currency": "USD"}}]}),
    _run_scenario("loop", turn_limit=4),
    _run_scenario("ask", expect={"end_state": _SENT},
                  user={"first": FIRSTS["ask"], "fallback": "I have nothing more to add.",
                        "replies": [{"asks_for": ["amount"], "say": "100, please."}],
                        "then": [{"say": "Thanks. Also check my balance."}]}),
]

# The fake model's side of each run scenario, by its first user message.
SCRIPTS = {
    # an error (too much: insufficient funds), then a retry that works; then the answer
    FIRSTS["pay"]: [{"calls": [{"tool": "get_balance", "arguments": {"account_id": "ACC-1"}}]},
                    {"calls": [{"tool": "transfer_funds", "arguments": {**SEND, "amount": 5000}}]},
                    {"calls": [{"tool": "transfer_funds", "arguments": SEND}]},
                    {"say": "Done: I sent 100 to Rui; your balance is now 1150."}],
    # parallel calls (one answered with the tool's error), then invalid JSON arguments
    FIRSTS["rates"]: [{"calls": [{"tool": "get_rate", "arguments": {"currency": "USD"}},
                                 {"tool": "get_rate", "arguments": {"currency": "GBP"}},
                                 {"tool": "get_rate", "arguments": {"currency": "JPY"}}]},
                      {"calls": [{"tool": "get_balance", "raw_arguments": '{"account_id": "ACC-1"'}]},
                      {"say": "USD is 0.92 and GBP is 0.85; I have no JPY rate."}],
    # a model that never stops calling tools
    FIRSTS["loop"]: [{"forever": {"tool": "get_balance", "arguments": {"account_id": "ACC-1"}}}],
    # asks the user, gets the scripted reply, acts; then the user's later turn
    FIRSTS["ask"]: [{"say": "How much would you like to send to Rui?"},
                    {"calls": [{"tool": "transfer_funds", "arguments": SEND}]},
                    {"say": "I sent 100 to Rui."},
                    {"calls": [{"tool": "get_balance", "arguments": {"account_id": "ACC-1"}}]},
                    {"say": "Your balance is 1150."}],
}


def bank_doc() -> dict:
    """A fresh copy of the world's document, with its own scenario."""
    return copy.deepcopy(_BANK)


def _named(world: str, scenarios) -> dict:
    doc = bank_doc()
    doc["id"] = world
    doc["scenarios"] = copy.deepcopy(list(scenarios))
    return doc


def grade_doc(*scenarios: dict) -> dict:
    """World `gradebank` with these scenarios (default: RENT)."""
    return _named("gradebank", scenarios or (RENT,))


def rent(**changes) -> dict:
    """RENT with some top-level fields replaced (and no paths unless given)."""
    out = copy.deepcopy(RENT)
    out.update({"gold_paths": [], "wrong_paths": []})
    out.update(copy.deepcopy(changes))
    return out


def run_doc(*names: str) -> dict:
    """World `minibank` with the named run scenarios (all when none is named)."""
    return _named("minibank", [s for s in RUN_SCENARIOS if not names or s["id"].split(".")[1] in names])


def changed(path: list, value):
    """A change to a world document: the value at `path` (keys and indices) set to `value`, for
    tests that break one field at a time."""
    def change(doc):
        target = doc
        for part in path[:-1]:
            target = target[part]
        target[path[-1]] = value
    return change
