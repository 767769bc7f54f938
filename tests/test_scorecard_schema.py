"""data/schemas/scorecard.schema.json: a valid Draft 2020-12 schema that the cards the CLI prints
match, that refuses a card departing from it, and that tests/conftest.py checks every scorecard
a test builds against (tests/scorecard_check.py)."""
from __future__ import annotations

import copy
import io
import json

import jsonschema
import pytest

import scorecard_check
from scorecard_check import checked, problems
from toolproof.cli.main import run as cli
from toolproof.datafiles import format_schema
from toolproof.scoring import evaluate


def grade_json(*argv: str) -> dict:
    out, err = io.StringIO(), io.StringIO()
    assert cli(["grade", "--format", "json", *argv], out, err) == 0, err.getvalue()
    return json.loads(out.getvalue())


CARD = grade_json("--price-in", "2.5", "--price-out", "10")


def test_the_schema_is_draft_2020_12_and_names_itself():
    schema = format_schema("scorecard")
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"] == "toolproof.scorecard.v1"


def test_the_fixtures_card_matches_with_its_optional_parts():
    assert problems(CARD) == []
    assert {"coverage", "repeats", "reliability", "intervals", "cost", "robustness"} <= set(CARD)
    bare = {k: v for k, v in CARD.items() if k in format_schema("scorecard")["required"]}
    assert problems(bare) == []                   # a bare scoring.scorecard card has none of them


def broken(change) -> list[str]:
    card = copy.deepcopy(CARD)
    change(card)
    return problems(card)


@pytest.mark.parametrize("change, found", [
    (lambda c: c.pop("score"), "$: 'score' is a required property"),
    (lambda c: c.update(scroe=1), "$: Additional properties are not allowed ('scroe' was unexpected)"),
    (lambda c: c.update(score="58"), "$.score: '58' is not of type 'number', 'null'"),
    (lambda c: c["metrics"].update(correct_tool_rate=1.5), "$.metrics.correct_tool_rate: 1.5 is greater than the maximum of 1"),
    (lambda c: c["cases"][0].update(verdict="OK"), "$.cases[0].verdict: 'OK' is not one of ['PASS', 'PARTIAL', 'FAIL', 'ERROR']"),
    (lambda c: c["cases"][0].pop("id"), "$.cases[0]: 'id' is a required property"),
    (lambda c: c["weights"].update(typo=1), "$.weights: 'typo' is not one of"),
    (lambda c: c["coverage"].update(graded=-1), "$.coverage.graded: -1 is less than the minimum of 0"),
    (lambda c: c["robustness"]["per_phrasing"][0].pop("planned"), "$.robustness.per_phrasing[0]: 'planned' is a required property"),
    (lambda c: c.update(sweep={"seed": 1, "levels": [{"pad": 0}]}), "$.sweep.levels[0]: 'score' is a required property"),
])
def test_a_card_that_departs_is_named_by_path(change, found):
    assert any(p.startswith(found) for p in broken(change)), broken(change)


def test_every_builder_is_wrapped_for_the_test():
    from toolproof.cli import grade

    for function in (evaluate.card_of, evaluate.finish_sweep, evaluate.scorecard, scorecard_check.scorecard.scorecard):
        assert hasattr(function, "__wrapped__"), function
    assert grade.evaluate is evaluate.evaluate           # not a builder: it calls card_of, which is wrapped


def test_a_mismatch_is_recorded_and_the_outer_builder_alone_is_checked():
    seen: list[str] = []
    depth: list = []
    bad = checked(lambda: {"score": 1}, seen, depth)
    assert bad() == {"score": 1} and seen and seen[0].startswith("<lambda>: $: ")
    seen.clear()
    outer = checked(lambda: (bad(), CARD)[1], seen, depth)       # a bad card built inside a good one
    assert outer() is CARD and seen == []
