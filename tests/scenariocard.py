"""A scorecard with a `scenarios` block and scenario case entries, for the report tests
(tests/reports/test_scenarios_views.py, tests/reports/test_markdown_fuzz.py).

`fixture_card()` is the committed fixtures graded by part G's code with the bundled worlds (what
`grade` prints); `built_card()` the same cases with a transcript per bundled scenario made from
its gold or wrong path by G's path builder, and one failed request (so every verdict occurs);
`hand_card()` the same shape written by hand from the brief's contract (issue 39), the fixed card
whose every figure a test can name.
"""
from __future__ import annotations

import copy
import json

from toolproof.datafiles import DATA, bundled_worlds, format_schema, load_bundle
from toolproof.grading.scenario_paths import path_transcript
from toolproof.grading.transcripts import known_ids, parse_transcripts
from toolproof.scoring.evaluate import evaluate

BUNDLE = load_bundle()


def _entry(sid: str, world: str, verdict: str, reasons: list[str], turns: list[dict], diff: list[dict],
           credit: float, turn_credit: float, repeats: list[str] | None = None) -> dict:
    repeats = repeats or [verdict]
    return {"id": sid, "category": "scenario", "world": world, "verdict": verdict, "credit": credit,
            "reasons": reasons, "turns": turns, "turn_credit": turn_credit, "end_state_diff": diff,
            "repeats": repeats, "passes": repeats.count("PASS"), "flaky": len(set(repeats)) > 1,
            "lenient": {"verdict": verdict}}


RENT_TURNS = [
    {"n": 1, "calls": [
        {"tool": "find_payee", "arguments": {"name": "landlord"},
         "result": {"payees": [{"name": "Landlord", "account_id": "ACC-7"}], "count": 1}, "error": False, "changes": []}],
     "text": "", "credit": 1.0, "notes": []},
    {"n": 2, "calls": [], "text": "I found your landlord. How much is the rent?", "credit": 1.0, "notes": [],
     "user": {"say": "It's 850 euros.", "confirms": False, "reply": 0}},
    {"n": 3, "calls": [
        {"tool": "transfer_funds", "arguments": {"from_account": "ACC-1", "to_account": "ACC-7", "amount": 850},
         "result": {"transfer_id": "TR-1001", "new_balance": 400.0}, "error": False,
         "changes": [{"table": "accounts", "op": "update", "key": "ACC-1", "fields": {"balance": [1250.0, 400.0]}},
                    {"table": "transfers", "op": "insert", "key": "TR-1001",
                     "row": {"id": "TR-1001", "to": "ACC-7", "amount": 850}}]}],
     "text": "", "credit": 0.0, "notes": ["no confirming user turn before transfer_funds"]},
    {"n": 4, "calls": [], "text": "Done: 850 euros sent to your landlord.", "credit": 0.5, "notes": []},
]
RENT_DIFF = [{"table": "accounts", "key": "ACC-1", "field": "balance", "expected": 350, "actual": 400.0},
             {"table": "transfers", "key": "TR-1001", "field": "amount", "expected": 900, "actual": 850}]
REFUND_TURNS = [
    {"n": 1, "calls": [
        {"tool": "get_order", "arguments": {"order_id": "77"}, "result": {"error": "order 77 not found; ids look like ORD-77"},
         "error": True, "changes": []},
        {"tool": "get_order", "arguments": {"order_id": "ORD-77"}, "result": {"id": "ORD-77", "status": "delivered"},
         "error": False, "changes": []}],
     "text": "", "credit": 1.0, "notes": []},
    {"n": 2, "calls": [{"tool": "refund_order", "arguments": {"order_id": "ORD-77"}, "result": {"refund_id": "RF-1001"},
                        "error": False, "changes": [{"table": "orders", "op": "update", "key": "ORD-77",
                                                    "fields": {"status": ["delivered", "refunded"]}}]}],
     "text": "", "credit": 1.0, "notes": []},
    {"n": 3, "calls": [], "text": "Order ORD-77 is refunded (RF-1001). Anything else?", "credit": 1.0, "notes": [],
     "user": {"say": "No, thanks.", "confirms": True, "then": 0}},
    {"n": 4, "calls": [], "text": "Glad to help.", "credit": 1.0, "notes": []},
]
BLOCK = {
    "planned": 4, "graded": 3, "passed": 1, "partial": 1, "failed": 1, "error": 1,
    "success_rate": 1 / 3, "interval": {"low": 0.0084, "high": 0.9057, "method": "clopper-pearson"},
    "turn_credit": 0.79,
    "by_world": {"bank": {"planned": 2, "graded": 2, "passed": 0, "success_rate": 0.0,
                          "interval": {"low": 0.0, "high": 0.8419}},
                 "shop": {"planned": 2, "graded": 1, "passed": 1, "success_rate": 1.0,
                          "interval": {"low": 0.025, "high": 1.0}}},
    "turns_used": {"mean": 3.33, "max": 4}, "calls_used": {"mean": 2.67, "max": 3},
    "recovery": {"errors_seen": 1, "recovered": 1, "rate": 1.0},
    "asks": {"asked": 1, "answered": 1, "used": 1},
    "pass_hat_k": {"1": 0.33},
}


def scenario_entries() -> list[dict]:
    return [
        _entry("bank.rent_with_confirm", "bank", "FAIL",
               ["end state differs: accounts ACC-1 balance expected 350, got 400.0",
                "confirm_before: transfer_funds called with no confirming user turn before it"],
               RENT_TURNS, RENT_DIFF, 0.0, 0.63),
        _entry("bank.statement", "bank", "PARTIAL", ["final answer misses the number 1250"],
               RENT_TURNS[:1] + [{"n": 2, "calls": [], "text": "Here is your statement.", "credit": 0.5, "notes": []}],
               [], 0.5, 0.75),
        _entry("shop.refund_broken", "shop", "PASS", [], REFUND_TURNS, [], 1.0, 1.0),
        _entry("shop.track", "shop", "ERROR", ["request 1 failed: 500 server error"],
               [{"n": 1, "calls": [], "text": "", "credit": None, "notes": ["request failed: 500 server error"]}],
               [], 0.0, None),
    ]


def results_doc(wrong_every: int = 2, error_last: bool = True) -> dict:
    """The bundled fixtures' results file with, for every bundled scenario, a transcript made by
    part G's path builder (grading/scenario_paths.py): its first wrong path for every
    `wrong_every`-th scenario (the second, fourth, ...), its first gold path for the rest, and
    for the last scenario a request that failed (ERROR) when `error_last`."""
    doc = json.loads((DATA / "fixtures.json").read_text(encoding="utf-8"))
    doc["transcripts"] = [t for t in doc["transcripts"] if "world" not in t]    # the fixtures' own scenarios
    every = [(w, s) for w in bundled_worlds().values() for s in w.scenarios]
    for i, (world, scenario) in enumerate(every):
        path = scenario.wrong_paths[0] if i % wrong_every == wrong_every - 1 else scenario.gold_paths[0]
        raw = path_transcript(world, scenario, path, "anthropic")
        if error_last and i == len(every) - 1:
            raw["turns"] = [{"request": {}, "error": {"status": 500, "message": "server error"}, "status": 500,
                             "attempts": 3}]
            raw["ended"] = "error"
        doc["transcripts"].append(raw)
    return doc


def fixture_card() -> dict:
    """The committed fixtures (cases and the bundled worlds' illustrative scenario transcripts)
    graded with the bundled worlds: what a plain `grade` prints."""
    return evaluate(BUNDLE.cases, BUNDLE.tools, BUNDLE.transcripts, worlds=bundled_worlds())


def built_card() -> dict:
    """`results_doc()` graded by `evaluate` with the bundled worlds: what `grade` makes of it."""
    transcripts = parse_transcripts(results_doc(), format_schema("transcripts"), known_ids(BUNDLE.cases))
    return evaluate(BUNDLE.cases, BUNDLE.tools, transcripts, worlds=bundled_worlds())


def hand_card() -> dict:
    """The bundled fixtures' card with four scenario entries (FAIL, PARTIAL, PASS, ERROR) and the
    block they make, by hand (numbers as scoring/scenarios.py would write them)."""
    card = copy.deepcopy(evaluate(BUNDLE.cases, BUNDLE.tools, BUNDLE.transcripts))
    card["cases"] = [c for c in card["cases"] if c["category"] != "scenario"] + scenario_entries()
    card["scenarios"] = copy.deepcopy(BLOCK)
    return card
