"""The bundled suite's phrasings (issue 26) and their fixture answers keep to their contract (raw JSON).

Every case carries at least two hand-written alternative user messages, each with an id (lowercase
letters, digits and hyphens, unique in the case, never "base": that is the case's own prompt), a
prompt and a `why`. A phrasing must never change the right answer; the guard below catches the
commonest slip: an identifier or quoted value that the expected call needs and the base prompt
states (an account id, an email, a path, a memo) dropped or retyped in a phrasing.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
CASES = json.loads((ROOT / "data" / "suite.json").read_text(encoding="utf-8"))["cases"]
PHRASING_ID = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
ISO_DAY_OR_MONTH = re.compile(r"^\d{4}-\d{2}(-\d{2})?$")

# Values a phrasing deliberately writes another way, with the same right answer: a role named by
# what it allows, airport codes named by their cities (one main airport each).
REWRITTEN = {
    ("mst-share-moved-nda", "read-only"): {"viewer"},
    ("ruse-cheapest-nonstop", "city-names"): {"OPO", "BCN"},
    # issue 40: enum values a phrasing leaves to inference (a 1Z number is UPS's; "a link anyone can
    # open to look at" is view access; a "sheet" is a spreadsheet; a person is a contact record)
    ("par-track-two-parcels", "terse"): {"ups", "ctt"},
    ("par-share-and-public-link", "indirect"): {"view"},
    ("crw-drive-create-sheet", "terse"): {"spreadsheet"},
    ("crw-crm-search-contact", "indirect"): {"contact"},
}
CLOCK = re.compile(r"\d{1,2}:\d{2}")      # a time: "4 pm", "nueve y media de la noche" say it too


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_every_case_has_two_or_more_phrasings_with_an_id_a_prompt_and_a_why(case):
    phrasings = case.get("phrasings", [])
    assert len(phrasings) >= 2
    ids = [p["id"] for p in phrasings]
    assert len(set(ids)) == len(ids)
    prompts = [case["prompt"]] + [p["prompt"] for p in phrasings]
    assert len(set(prompts)) == len(prompts)          # no phrasing repeats the base or another
    for p in phrasings:
        assert set(p) - {"lang"} == {"id", "prompt", "why"} and p.get("lang", "pt") in ("pt", "es")
        assert PHRASING_ID.match(p["id"]) and p["id"] != "base"
        assert p["prompt"].strip() and p["why"].strip()


def test_the_phrasing_ids_vary_across_cases():
    pairs = {tuple(sorted(p["id"] for p in c["phrasings"])) for c in CASES}
    assert len(pairs) > len(CASES) // 3


# What a phrasing in another language keeps as the user would type it: ids and addresses (letters
# with digits, or an @); times, amounts, enum words and names are written the local way.
ID_LIKE = re.compile(r"@|[A-Za-z].*\d|\d.*[A-Za-z]")


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_a_phrasing_keeps_every_value_the_base_prompt_spells_out(case):
    base = case["prompt"].casefold()
    for call in case["expect"].get("calls", []):
        accepted = [a.casefold() for a in _strings(call.get("accept", {}))]
        for value in _strings(call["args"]):
            if len(value) < 3 or ISO_DAY_OR_MONTH.match(value) or CLOCK.fullmatch(value) or value.casefold() not in base:
                continue        # ISO dates and clock times are meant to be written other ways, and checked by hand
            for p in case["phrasings"]:
                if value in REWRITTEN.get((case["id"], p["id"]), ()):
                    continue
                if p.get("lang", "en") != case.get("lang", "en") and not ID_LIKE.search(value):
                    continue    # in another language only ids and addresses keep their form (docs/formats.md)
                text = p["prompt"].casefold()
                assert value.casefold() in text or any(a in text for a in accepted), (p["id"], value)


FIXTURES = json.loads((ROOT / "data" / "fixtures.json").read_text(encoding="utf-8"))


def test_every_phrasing_has_one_illustrative_fixture_answer_with_a_verdict_and_a_note():
    assert FIXTURES["kind"] == "fixture" and FIXTURES["label"].startswith("FIXTURE: illustrative")
    answered = [(t["case_id"], t["phrasing"]) for t in FIXTURES["transcripts"] if "phrasing" in t]
    assert len(answered) == len(set(answered))
    assert set(answered) == {(c["id"], p["id"]) for c in CASES for p in c["phrasings"]}
    for t in FIXTURES["transcripts"]:
        if "phrasing" in t:
            assert t["intended_verdict"] in ("PASS", "PARTIAL", "FAIL", "ERROR") and t["note"].strip()


def test_fixture_response_and_call_ids_are_unique_across_the_file():
    ids = []

    def walk(value):
        if isinstance(value, dict):
            ids.extend(v for k, v in value.items() if k == "id" and isinstance(v, str))
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)

    for t in FIXTURES["transcripts"]:
        if "world" in t:        # a scenario's fixture: scripted bodies and the world's rows, not answers by hand
            continue
        walk(t["turns"])
        for v in t.get("variants", []):
            walk(v["turns"])
    assert len(ids) > 400 and len(ids) == len(set(ids))
