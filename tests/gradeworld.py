"""A small world for the scenario grader's tests (written here, not a bundled one, so a change to
the bundled worlds never moves these tests): a bank with a payee look-up, a balance read and a
transfer guarded by a check and the policy confirm_before. One scenario holds every expectation,
and its paths each break one rule: the grader must name that rule first."""
from __future__ import annotations

import copy

WORLD = {
    "format": "toolproof.world", "version": 1, "id": "gradebank", "title": "Grading bank",
    "why": "the scenario grader's tests", "today": "2026-03-14",
    "tables": {
        "accounts": {"key": "id", "rows": [
            {"id": "ACC-1", "owner": "Ana Costa", "balance": 1250.0},
            {"id": "ACC-7", "owner": "Landlord Lda", "balance": 10.0}]},
        "payees": {"key": "id", "rows": [{"id": "P-1", "name": "landlord", "account_id": "ACC-7"}]},
        "transfers": {"key": "id", "rows": []},
    },
    "tools": [
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
        {"name": "transfer_funds", "description": "Send money from one account to another.",
         "parameters": {"type": "object", "properties": {
             "from_account": {"type": "string"}, "to_account": {"type": "string"}, "amount": {"type": "number"}},
             "required": ["from_account", "to_account", "amount"], "additionalProperties": False},
         "find": [{"as": "src", "table": "accounts", "where": {"id": {"arg": "from_account"}},
                   "missing": "account {arg.from_account} not found"}],
         "checks": [{"if": {"op": "<", "args": [{"ref": "src.balance"}, {"arg": "amount"}]},
                     "error": "insufficient funds: the balance is {src.balance}; send less"}],
         "effects": [
             {"update": "accounts", "where": {"id": {"arg": "from_account"}},
              "set": {"balance": {"op": "-", "args": [{"row": "balance"}, {"arg": "amount"}]}}},
             {"insert": "transfers", "values": {"id": {"new_id": "TR-"}, "from": {"arg": "from_account"},
                                                "to": {"arg": "to_account"}, "amount": {"arg": "amount"}}}]},
    ],
    "scenarios": [],
}

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
                      "accounts": {"update": [{"key": "ACC-1", "set": {"balance": 350}}]}},
        "milestones": [{"id": "payee", "tool": "find_payee", "args": {"name": "landlord"}},
                       {"id": "pay", "tool": "transfer_funds", "args": {"amount": 900}, "after": ["payee"]}],
        "minefields": [{"tool": "transfer_funds", "args": {"to_account": "ACC-1"}, "why": "that is the user's own account"}],
        "dataflow": [{"tool": "transfer_funds", "arg": "to_account", "from": "find_payee", "field": "payees.account_id"}],
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


def world_doc(*scenarios: dict) -> dict:
    """The world file with these scenarios (default: RENT)."""
    doc = copy.deepcopy(WORLD)
    doc["scenarios"] = [copy.deepcopy(s) for s in (scenarios or (RENT,))]
    return doc


def scenario(**changes) -> dict:
    """RENT with some top-level fields replaced (and no paths unless given)."""
    out = copy.deepcopy(RENT)
    out.update({"gold_paths": [], "wrong_paths": []})
    out.update(copy.deepcopy(changes))
    return out
