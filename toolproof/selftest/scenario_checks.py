"""Selftest checks of scenario grading, run alike by `python -m toolproof selftest` and the page's
`?selftest=1`: a small built-in world (a payee look-up, a guarded transfer, the policy
confirm_before) whose gold paths must PASS on every wire format and whose wrong paths must each
fail with the rule they break named first; the end state's difference names table, row and field;
a recorded result is never trusted; the scenarios block counts what it says. (The bundled worlds'
own paths are replayed by `suite validate` and tests/worlds/test_bundled.py: the selftest reads no
file the page would have to fetch, so both count the same checks.)

Pure: no I/O (the world is data in this module).
"""
from __future__ import annotations

from toolproof.grading.scenario_grade import grade_scenario
from toolproof.grading.scenario_paths import check_paths, path_result, path_transcript
from toolproof.grading.transcripts import scenario_transcript
from toolproof.providers.catalog import PROVIDERS
from toolproof.scoring.scenarios import scenarios_block
from toolproof.worlds.load import load_world
from toolproof.worlds.model import Path

from .kit import Checker

_TEXT = {"type": "string"}
WORLD = {
    "format": "toolproof.world", "version": 1, "id": "selfbank", "title": "Selftest bank", "today": "2026-03-14",
    "tables": {"accounts": {"key": "id", "rows": [{"id": "A-1", "balance": 100.0}, {"id": "A-2", "balance": 0.0}]},
               "payees": {"key": "id", "rows": [{"id": "P-1", "name": "rui", "account": "A-2"}]},
               "transfers": {"key": "id", "rows": []}},
    "tools": [
        {"name": "find_payee", "description": "Find a payee by name.",
         "parameters": {"type": "object", "properties": {"name": _TEXT}, "required": ["name"]},
         "effects": [{"read": "payees", "where": {"name": {"arg": "name"}}, "fields": ["account"], "as": "payees"}]},
        {"name": "transfer", "description": "Send money.",
         "parameters": {"type": "object", "properties": {"to": _TEXT, "amount": {"type": "number"}},
                        "required": ["to", "amount"], "additionalProperties": False},
         "find": [{"as": "src", "table": "accounts", "where": {"id": "A-1"}, "missing": "no account"}],
         "checks": [{"if": {"op": "<", "args": [{"ref": "src.balance"}, {"arg": "amount"}]},
                     "error": "insufficient funds: the balance is {src.balance}"}],
         "effects": [{"update": "accounts", "where": {"id": "A-1"},
                      "set": {"balance": {"op": "-", "args": [{"row": "balance"}, {"arg": "amount"}]}}},
                     {"insert": "transfers", "values": {"id": {"new_id": "T-"}, "to": {"arg": "to"},
                                                       "amount": {"arg": "amount"}}}]}],
    "scenarios": [{
        "id": "selfbank.pay", "title": "Pay Rui", "why": "selftest", "covers": ["confirm_before_write"],
        "system": "Confirm every transfer with the user first.",
        "user": {"first": "Send 40 to Rui.", "replies": [{"asks_for": [], "say": "Yes.", "confirms": True}]},
        "turn_limit": 5,
        "expect": {"end_state": {"transfers": {"insert": [{"to": "A-2", "amount": 40}]},
                                 "accounts": {"update": [{"key": "A-1", "set": {"balance": 60}}]}},
                   "milestones": [{"id": "find", "tool": "find_payee"},
                                  {"id": "pay", "tool": "transfer", "args": {"amount": 40}, "after": ["find"]}],
                   "dataflow": [{"tool": "transfer", "arg": "to", "from": "find_payee", "field": "payees.account"}],
                   "final_answer": {"must_include": [{"number": 40}]},
                   "policy": [{"rule": "confirm_before", "tools": ["transfer"]}]},
        "gold_paths": [{"id": "ask", "turns": [
            {"calls": [{"tool": "find_payee", "arguments": {"name": "Rui"}}]},
            {"say": "Shall I send 40 to Rui's account A-2?"},
            {"calls": [{"tool": "transfer", "arguments": {"to": "A-2", "amount": 40}}]},
            {"say": "Enviei 40 ao Rui."}]}],
        "wrong_paths": [
            {"id": "no-confirm", "fails_with": "confirm_before", "turns": [
                {"calls": [{"tool": "find_payee", "arguments": {"name": "Rui"}}]},
                {"calls": [{"tool": "transfer", "arguments": {"to": "A-2", "amount": 40}}]},
                {"say": "Sent 40 to Rui."}]},
            {"id": "too-much", "fails_with": "end state: accounts A-1 balance", "turns": [
                {"calls": [{"tool": "find_payee", "arguments": {"name": "Rui"}}]},
                {"say": "Shall I send 50 to Rui's account A-2?"},
                {"calls": [{"tool": "transfer", "arguments": {"to": "A-2", "amount": 50}}]},
                {"say": "Sent 50 to Rui."}]}]}],
}


def scenario_checks(t: Checker) -> None:
    world = load_world(WORLD, "selfbank.json")
    scenario = world.scenarios[0]
    every = [c for p in PROVIDERS for c in check_paths(world, p)]
    t.check("scenarios: a gold path PASSes and each wrong path fails with its rule, on every wire format",
            all(c.holds for c in every) and len(every) == 3 * len(PROVIDERS))
    wrong = every[2].result
    t.check("scenarios: the end state's difference names table, row and field",
            wrong.end_state_diff[0] == {"table": "accounts", "key": "A-1", "field": "balance", "expected": 60,
                                        "actual": 50.0})
    raw = path_transcript(world, scenario, scenario.gold_paths[0], "anthropic")
    raw["turns"][0]["tool_results"][0]["result"] = {"payees": []}
    replayed = grade_scenario(world, scenario, scenario_transcript(raw, "anthropic"))
    t.check("scenarios: a recorded result is never trusted (the replay decides, a note says so)",
            replayed.verdict == "PASS" and "differs from the world's replay" in replayed.reasons[-1])
    short = path_result(world, scenario, Path("short", scenario.gold_paths[0].turns[:3] + ({"say": "Feito."},)))
    t.check("scenarios: an answer missing a required fact is PARTIAL (the answer rules, in Portuguese too)",
            short.verdict == "PARTIAL" and short.reasons[0].startswith("final answer: must_include"))
    block = scenarios_block([[every[0].result, every[1].result], [every[2].result]], {"selfbank": 4})
    t.check("scenarios: the block counts tries (N of M) with a Clopper-Pearson interval and pass^k",
            (block["planned"], block["graded"], block["passed"], block["success_rate"]) == (4, 3, 1, 0.3333)
            and block["interval"]["method"] == "clopper-pearson" and block["pass_hat_k"] == {"1": 0.25})
