"""data/fixtures.json's scenario transcripts: exactly what tests/worlds/make_fixtures.py makes from
the bundled worlds, each labelled illustrative and graded as it says, and `grade` (no flags)
grades them beside the cases."""
from __future__ import annotations

import json

from clirun import cli
from toolproof.datafiles import DATA, bundled_worlds, format_schema, load_bundle
from toolproof.grading.transcripts import parse_transcripts
from toolproof.scoring.evaluate import evaluate
from worlds.make_fixtures import fixtures_doc, fixtures_text

COMMITTED = (DATA / "fixtures.json").read_text(encoding="utf-8")


def test_the_committed_fixtures_are_what_the_script_makes():
    made = fixtures_text(fixtures_doc(json.loads(COMMITTED), bundled_worlds()))
    assert made == COMMITTED, "run: python tests/worlds/make_fixtures.py"


def test_every_scenario_fixture_is_illustrative_and_gets_its_intended_verdict():
    bundle = load_bundle()
    worlds = bundled_worlds()
    card = evaluate(bundle.cases, bundle.tools, bundle.transcripts, worlds=worlds)
    raw = [t for t in json.loads(COMMITTED)["transcripts"] if "world" in t]
    assert len(raw) == sum(len(w.scenarios) for w in worlds.values())
    by_id = {c["id"]: c for c in card["cases"] if c["category"] == "scenario"}
    for t in raw:
        assert t["note"].startswith("illustrative: ") and t["model"] == "fixture"
        assert by_id[t["case_id"]]["verdict"] == t["intended_verdict"], t["case_id"]
    if raw:
        assert card["scenarios"]["graded"] == len(raw)


def test_grade_grades_the_scenario_fixtures_beside_the_cases():
    code, out, err = cli("grade", "--format", "json")
    assert code == 0, err
    card = json.loads(out)
    scenarios = [c for c in card["cases"] if c["category"] == "scenario"]
    assert len(scenarios) == sum("world" in t for t in json.loads(COMMITTED)["transcripts"])
    assert ("scenarios" in card) == bool(scenarios)


def test_the_fixtures_without_worlds_leave_the_scenarios_out_and_say_so():
    doc = json.loads(COMMITTED)
    tset = parse_transcripts(doc, format_schema("transcripts"))
    bundle = load_bundle()
    card = evaluate(bundle.cases, bundle.tools, tset)
    held = sum("world" in t for t in doc["transcripts"])
    assert not any(c["category"] == "scenario" for c in card["cases"])
    assert (f"{held} scenario transcript" in " ".join(card.get("notes", []))) == bool(held)
