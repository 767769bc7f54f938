"""Results documents with several repeats per case, built by hand from the committed fixtures.

A repeat is one of: "pass" (the fixture's own turns, for a fixture whose intended verdict is
PASS), "fail" (a text-only answer, which fails a case that needs a call and passes one that must
not call...), "error" (the first request failed after its retries). Shared by the evaluation,
comparison, CLI and page tests so they pin the same numbers.
"""
from __future__ import annotations

import copy
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The base phrasing's fixtures only: these documents are about repeats, and a phrasing's fixture
# answers the same case in other words (scoring/robustness.py has its own tests); the cases' only,
# not the scenarios' (a scenario transcript has a `world`; tests/scenariocard.py builds those).
FIXTURES = json.loads((ROOT / "data" / "fixtures.json").read_text(encoding="utf-8"))
FIXTURES["transcripts"] = [t for t in FIXTURES["transcripts"] if "phrasing" not in t and "world" not in t]
BY_ID = {t["case_id"]: t for t in FIXTURES["transcripts"]}
SUITE = json.loads((ROOT / "data" / "suite.json").read_text(encoding="utf-8"))

# Two should_call cases whose fixture PASSes, answered by Anthropic; a text reply fails them.
CALL_A, CALL_B = "sc-hotels-lisbon", "sc-reply-sender-only"
TEXT_FAIL = {"response": {"content": [{"type": "text", "text": "I would rather not."}],
                          "stop_reason": "end_turn", "usage": {"input_tokens": 100, "output_tokens": 10}}}
FAILED_REQUEST = {"error": {"status": 503, "message": "overloaded"}}


def repeat(case_id: str, index: int, kind: str, elapsed_ms: float | None = None) -> dict:
    """One transcript of `case_id` for repeat `index`: "pass", "fail" or "error"."""
    base = copy.deepcopy(BY_ID[case_id])
    base.pop("intended_verdict", None)
    base.pop("note", None)
    base["turns"] = {"pass": base["turns"], "fail": [copy.deepcopy(TEXT_FAIL)],
                     "error": [copy.deepcopy(FAILED_REQUEST)]}[kind]
    if elapsed_ms is not None:
        for turn in base["turns"]:
            turn["elapsed_ms"] = elapsed_ms
    return {**base, "repeat": index}


def document(plan: dict, *, suite_sha256: str | None = None, model: str = "m", created: str = "2026-11-30T10:00:00+00:00",
             elapsed_ms: float | None = None) -> dict:
    """{case_id: ["pass", "fail", ...]} -> a live results document with those repeats."""
    doc = {"format": "toolproof.transcripts", "version": 1, "kind": "live", "label": "",
           "provider": "anthropic", "model": model, "created": created, "scope": "all",
           "transcripts": [repeat(cid, i, kind, elapsed_ms) for cid, kinds in plan.items()
                           for i, kind in enumerate(kinds)]}
    if suite_sha256 is not None:
        doc["suite_sha256"] = suite_sha256
    return doc
