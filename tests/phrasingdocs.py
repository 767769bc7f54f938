"""Documents with phrasings: conftest's small suite where some cases carry other wordings of their
prompt, and transcript sets that answer each (case, phrasing), for the phrasing tests of every layer
(suite, running, scoring, reports, CLI)."""
from __future__ import annotations

import json

from conftest import LOOKUP, ORDER_CALL, SUITE_DOC, TOOLS_DOC, error, openai

PHRASINGS = {
    "call": [{"id": "terse", "prompt": "2x ORD-123456, ship 2026-03-04. cust C-1 before.",
              "why": "terse, with the date already in ISO form"},
             {"id": "chatty", "prompt": "Hi! So my customer id used to be C-1, and I'd love two of "
              "ORD-123456 shipped on the 4th of March 2026, thanks so much!",
              "why": "chatty register, values in another order"}],
    "nocall": [{"id": "polite", "prompt": "Could you tell me, without doing anything, about ORD-123456?",
                "why": "indirect"}],
    "two": [{"id": "typo", "prompt": "Refnd the customr of ORD-123456 five, memo sorry.",
             "why": "typos the model must read past"}],
}


def suite_doc(phrasings: dict | None = None) -> dict:
    """SUITE_DOC with `phrasings` (case id -> list) added to its cases (a fresh copy)."""
    doc = json.loads(json.dumps(SUITE_DOC))
    for case in doc["cases"]:
        if case["id"] in (PHRASINGS if phrasings is None else phrasings):
            case["phrasings"] = (PHRASINGS if phrasings is None else phrasings)[case["id"]]
    return doc


# Answers per (case id, phrasing): the base answers are right; "chatty" gets the quantity wrong,
# "typo" never looks the order up, "polite" stays right, so "call" and "two" depend on wording.
RIGHT = {
    "call": [openai(("place_order", ORDER_CALL["args"]))],
    "nocall": [openai(text="ORD-123456 is an order id; I did nothing.")],
    "two": [openai(("lookup", LOOKUP["args"])),
            openai(("refund", {"customer": "C-9", "amount": 5, "memo": "sorry"}))],
}
WRONG = {
    ("call", "chatty"): [openai(("place_order", {**ORDER_CALL["args"], "qty": 3}))],
    ("two", "typo"): [openai(text="Sorry, what would you like?")],
}


def transcript(case_id: str, phrasing: str = "base", repeat: int = 0, turns=None) -> dict:
    raw = {"case_id": case_id, "provider": "openai", "repeat": repeat,
           "turns": turns if turns is not None else WRONG.get((case_id, phrasing), RIGHT[case_id])}
    if phrasing != "base":
        raw["phrasing"] = phrasing
    return raw


def transcripts_doc(items: list[dict], **head) -> dict:
    return {"format": "toolproof.transcripts", "version": 1, "kind": "live", "provider": "openai",
            "model": "m", **head, "transcripts": items}


def every_phrasing(repeats: int = 1) -> list[dict]:
    """A transcript for each (case, phrasing, repeat) of the phrased cases, suite order."""
    return [transcript(cid, pid, r) for cid in RIGHT
            for pid in ["base"] + [p["id"] for p in PHRASINGS[cid]] for r in range(repeats)]


def data_with_phrasings(wrong: bool = False) -> dict:
    """data/'s tools, suite and fixtures with two cases (the first whose fixture passes, the first whose
    fixture fails) given a phrasing ("terse") each, answered
    like their base fixture (intended verdict PARTIAL, which they will not get, when `wrong`)."""
    from toolproof.datafiles import DATA, read_json

    suite, fixtures = read_json(DATA / "suite.json"), read_json(DATA / "fixtures.json")
    for case in suite["cases"]:
        case.pop("phrasings", None)
    fixtures["transcripts"] = [t for t in fixtures["transcripts"] if "phrasing" not in t]
    base = {t["case_id"]: t for t in fixtures["transcripts"]}
    picked = [next(c for c in suite["cases"] if base[c["id"]].get("intended_verdict") == v) for v in ("PASS", "FAIL")]
    for case in picked:
        case["phrasings"] = [{"id": "terse", "prompt": case["prompt"] + " (short)", "why": "terse"}]
        answer = json.loads(json.dumps(base[case["id"]]))
        answer.update(phrasing="terse", note="answered as the base fixture")
        if wrong:
            answer["intended_verdict"] = "PARTIAL"
        fixtures["transcripts"].append(answer)
    return {"tools": read_json(DATA / "tools.json"), "suite": suite, "transcripts": fixtures}


__all__ = ["TOOLS_DOC", "PHRASINGS", "suite_doc", "transcript", "transcripts_doc", "every_phrasing", "error", "data_with_phrasings"]
