"""The wire-format fixtures (tests/fixtures/responses.json, gemini.json) and the four-format check.

Each fixture file is an ordinary transcripts document for the committed suite, written in one
new wire format to cover its traps: truncation, text plus call, invalid arguments, reasoning
items and thought signatures to echo, and Gemini's MALFORMED_FUNCTION_CALL / UNEXPECTED_TOOL_CALL
/ SAFETY / RECITATION endings. The committed data/fixtures.json stays as it is; instead every one
of its base transcripts (one a case) is served in all four wire formats and must grade to the same verdicts.
"""
from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from fakeprovider import FIXTURES, WIRES, in_wire
from toolproof.cli.main import run
from toolproof.providers.conversation import case_mocks
from toolproof.datafiles import format_schema, load_bundle
from toolproof.scoring.evaluate import evaluate
from toolproof.providers.dispatch import request_body
from toolproof.grading.transcripts import parse_transcripts

HERE = Path(__file__).resolve().parents[1]      # tests/, where the shared fixtures live
BUNDLE = load_bundle()
CASES = {c.id: c for c in BUNDLE.cases}


def load(name: str) -> dict:
    return json.loads((HERE / "fixtures" / f"{name}.json").read_text(encoding="utf-8"))


def graded(doc: dict) -> dict:
    tset = parse_transcripts(doc, format_schema("transcripts"), set(CASES))
    return evaluate(BUNDLE.cases, BUNDLE.tools, tset, {})


@pytest.mark.parametrize("name", ["responses", "gemini"])
def test_every_wire_fixture_gets_its_intended_verdict(name):
    doc = load(name)
    card = graded(doc)
    intended = {t["case_id"]: t["intended_verdict"] for t in doc["transcripts"]}
    assert {c["id"]: c["verdict"] for c in card["cases"]} == intended


# The reason a trap must produce, word for word (the first reason of the case).
TRAPS = [
    ("responses", "snc-weather-porto", "turn 1: response truncated (max_output_tokens): the model ran out of tokens"),
    ("responses", "dis-carrier-scans", "turn 1: response truncated (max_output_tokens): the model ran out of tokens"),
    ("responses", "sc-cancel-vendor-sync",
     "cancel_event: arguments are not valid JSON (Expecting property name enclosed in double quotes at char 1)"),
    ("responses", "snc-airport-code", 'answered in text without calling a tool; final answer: claims no action done; must_include "LIS" stated ("Lisbon Humberto Delgado Airport is LIS.")'),
    ("responses", "sc-hotels-lisbon", "called search_hotels with the expected arguments"),
    ("gemini", "snc-weather-porto", "turn 1: response truncated (MAX_TOKENS): the model ran out of tokens"),
    ("gemini", "dis-carrier-scans", "turn 1: response truncated (MAX_TOKENS): the model ran out of tokens"),
    # the BFCL trap: a failed call attempt where no call was needed is not a correct abstention
    ("gemini", "snc-airport-code", "turn 1: unreadable response (malformed tool call: finishReason "
                                   "MALFORMED_FUNCTION_CALL, the model tried to call a tool but the call was malformed)"),
    ("gemini", "sc-cancel-vendor-sync", "turn 1: unreadable response (malformed tool call: finishReason "
                                        "MALFORMED_FUNCTION_CALL, the model tried to call a tool but the call was malformed)"),
    ("gemini", "ask-table-no-date", "turn 1: unreadable response (malformed tool call: finishReason "
                                    "UNEXPECTED_TOOL_CALL, the model tried to call a tool in a way the request did not allow)"),
    ("gemini", "snc-timezone-math", "turn 1: unreadable response (finishReason SAFETY: the reply was blocked for safety)"),
    ("gemini", "snc-refund-vs-return", "turn 1: unreadable response (finishReason RECITATION: the reply was "
                                       "stopped for recitation (it would repeat source material))"),
]


@pytest.mark.parametrize("name, case_id, reason", TRAPS)
def test_traps_give_their_reason(name, case_id, reason):
    card = graded(load(name))
    case = next(c for c in card["cases"] if c["id"] == case_id)
    assert case["reasons"][0] == reason


def test_a_malformed_call_is_never_counted_as_no_call():
    card = graded(load("gemini"))
    # neither an abstention (should_not_call would PASS) nor an under-call in the decision rates
    assert {c["id"]: c["verdict"] for c in card["cases"]}["snc-airport-code"] == "FAIL"
    assert all("no tool call" not in r for c in card["cases"] for r in c["reasons"])


def test_the_gemini_second_turn_echoes_every_thought_signature():
    raw = next(t for t in load("gemini")["transcripts"] if t["case_id"] == "mst-refund-latest-order")
    first = raw["turns"][0]["response"]
    case = CASES[raw["case_id"]]
    sent = request_body("gemini", case, [BUNDLE.tools[n] for n in case.tools], model="m", first=first,
                        mocks=case_mocks(case))
    signed = [p["thoughtSignature"] for p in sent["contents"][1]["parts"] if "thoughtSignature" in p]
    assert signed == [p["thoughtSignature"] for p in first["candidates"][0]["content"]["parts"]
                      if "thoughtSignature" in p] and len(signed) == 2
    assert json.dumps(sent["contents"][1], sort_keys=False) == json.dumps(first["candidates"][0]["content"])


def test_the_responses_second_turn_echoes_encrypted_reasoning_with_its_call():
    raw = next(t for t in load("responses")["transcripts"] if t["case_id"] == "mst-refund-latest-order")
    first = raw["turns"][0]["response"]
    case = CASES[raw["case_id"]]
    sent = request_body("openai-responses", case, [], model="m", first=first, mocks=case_mocks(case))["input"]
    assert [i.get("type") for i in sent] == ["message", "reasoning", "function_call", "function_call_output"]
    assert sent[1]["encrypted_content"] == "gAAAAABfixture-opaque=="
    # the call after an echoed reasoning item keeps its id: the API pairs the two by id
    assert sent[2]["id"] == "fc_call_fx0370" and sent[2]["call_id"] == sent[3]["call_id"]


def in_all_wires() -> dict:
    """data/fixtures.json with every response body converted to each wire format."""
    docs = {}
    for wire in WIRES:
        transcripts = []
        for case_id, fixture in FIXTURES.items():
            def turns(raw_turns):
                return [{"response": in_wire(t["response"], wire)} if "response" in t else t for t in raw_turns]
            out = {"case_id": case_id, "provider": wire, "turns": turns(fixture["turns"])}
            if fixture.get("variants"):
                out["variants"] = [{"id": v["id"], "turns": turns(v["turns"])} for v in fixture["variants"]]
            transcripts.append(out)
        docs[wire] = {"format": "toolproof.transcripts", "version": 1, "kind": "live", "transcripts": transcripts}
    return docs


def test_the_same_answers_in_four_wire_formats_give_the_same_verdicts():
    cards = {wire: graded(doc) for wire, doc in in_all_wires().items()}
    verdicts = {wire: [(c["id"], c["verdict"], c["lenient"]["verdict"]) for c in card["cases"]]
                for wire, card in cards.items()}
    intended = [(c.id, FIXTURES[c.id]["intended_verdict"]) for c in BUNDLE.cases if c.id in FIXTURES]  # card order
    for wire in WIRES:
        assert [(cid, v) for cid, v, _ in verdicts[wire]] == intended, wire
        assert verdicts[wire] == verdicts["openai"], wire
        assert cards[wire]["score"] == cards["openai"]["score"], wire
    # Reasons differ only where a wire names things its own way: the truncation finish reason,
    # and invalid JSON arguments, which Anthropic can only carry as a string `input` and Gemini not
    # at all (it ends MALFORMED_FUNCTION_CALL instead).
    def same(reasons: list) -> list:
        return [re.sub(r"truncated \((length|max_tokens|max_output_tokens|MAX_TOKENS)\)", "truncated", r)
                for r in reasons]
    differing = {(wire, c["id"]) for wire in WIRES for c, o in zip(cards[wire]["cases"], cards["openai"]["cases"])
                 if same(c["reasons"]) != same(o["reasons"])}
    assert differing == {("anthropic", "sc-cancel-vendor-sync"), ("gemini", "sc-cancel-vendor-sync")}


def test_the_cli_grades_a_wire_fixture_file():
    path, out = HERE / "fixtures" / "gemini.json", io.StringIO()
    assert run(["grade", "--transcripts", str(path), "--format", "json"], stdout=out) == 0
    card = json.loads(out.getvalue())
    assert [c["verdict"] for c in card["cases"]].count("PASS") == 3
