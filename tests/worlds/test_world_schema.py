"""data/schemas/world.schema.json describes for editors the shape worlds/load.py checks: the
bundled worlds and the test world validate against it, its bounds and word lists are the code's,
and what the schema refuses the loader refuses too."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from toolproof.errors import ToolProofError
from toolproof.suite.model import DETAIL_NAMES
from toolproof.worlds import exprs, load, load_scenarios, load_tools, model
from toolproof.worlds.load import load_world
from worldkit import bank_doc
from worldkit import changed as _break

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "data" / "schemas" / "world.schema.json").read_text(encoding="utf-8"))
VALIDATOR = Draft202012Validator(SCHEMA)
BUNDLED = sorted((ROOT / "data" / "worlds").glob("*.json"))


def test_the_schema_is_a_valid_draft_2020_12_schema():
    Draft202012Validator.check_schema(SCHEMA)


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.name)
def test_each_bundled_world_matches_the_schema(path):
    errors = [f"{e.json_path}: {e.message[:200]}" for e in VALIDATOR.iter_errors(json.loads(path.read_text(encoding="utf-8")))]
    assert errors == []


def test_the_test_world_matches_the_schema():
    assert list(VALIDATOR.iter_errors(bank_doc())) == []


def test_the_schemas_bounds_and_words_are_the_codes():
    top, defs = SCHEMA["properties"], SCHEMA["$defs"]
    scenario = defs["scenario"]["properties"]
    assert top["format"]["const"] == model.FORMAT and top["version"]["const"] == model.VERSION
    assert top["id"]["pattern"] == f"^{model.WORLD_ID.pattern}$"
    assert top["tables"]["maxProperties"] == load.MAX_TABLES
    assert top["tools"]["maxItems"] == load_tools.MAX_TOOLS
    assert top["scenarios"]["maxItems"] == load_scenarios.MAX_SCENARIOS
    assert defs["table"]["properties"]["rows"]["maxItems"] == load.MAX_ROWS
    assert defs["table"]["properties"]["rows"]["items"]["maxProperties"] == load.MAX_FIELDS
    assert defs["tool"]["properties"]["lets"]["maxProperties"] == load_tools.MAX_LETS
    assert defs["form"]["oneOf"][-1]["properties"]["op"]["enum"] == list(exprs.OPS)
    assert [f["required"][0] for f in defs["form"]["oneOf"][:-1]] == list(exprs.FORMS)
    assert defs["template"]["maxLength"] == load_tools.MAX_TEMPLATE
    assert scenario["covers"]["items"]["enum"] == list(model.TAGS)
    assert defs["reply"]["properties"]["asks_for"]["items"]["enum"] == list(DETAIL_NAMES)
    assert scenario["turn_limit"]["maximum"] == load_scenarios.MAX_TURN_LIMIT
    assert scenario["turn_limit"]["default"] == load_scenarios.DEFAULT_TURN_LIMIT
    assert scenario["gold_paths"]["maxItems"] == load_scenarios.MAX_PATHS
    assert scenario["expect"]["properties"]["policy"]["items"]["properties"]["rule"]["enum"] == list(model.POLICY_RULES)
    where = defs["where"]["additionalProperties"]["anyOf"][1]["properties"]
    assert list(where) == list(load_tools.COMPARATORS)




@pytest.mark.parametrize("change", [
    _break(["tools", 0, "checks", 0, "if", "op"], "pow"),
    _break(["tools", 0, "effects", 0, "set", "balance"], {"regex": "a+"}),
    _break(["scenarios", 0, "turn_limit"], 31),
    _break(["scenarios", 0, "covers", 0], "ask"),
    _break(["id"], "Bank"),
    _break(["tools", 1, "effects", 0, "limit"], 0),
    _break(["scenarios", 0, "wrong_paths", 0], {"id": "x", "turns": [{"say": "hi"}]}),
], ids=["op", "form", "turn_limit", "tag", "id", "limit", "fails_with"])
def test_what_the_schema_refuses_the_loader_refuses(change):
    doc = bank_doc()
    change(doc)
    assert list(VALIDATOR.iter_errors(doc)) != []
    with pytest.raises(ToolProofError):
        load_world(doc, "bank.json")
