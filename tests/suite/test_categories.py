"""The category records: complete and consistent, equal to what the docs and the suite's schema
state, and every table keyed by category derived from them."""
from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest

from recordscan import strings_naming
from toolproof.authoring.case_form import ACTION_OF, ACTIONS, EDITOR_CATEGORIES
from toolproof.reports.board import CATEGORY_SHORT
from toolproof.reports.page_view import CATEGORY_LABELS
from toolproof.scoring.scorecard import DEFAULT_WEIGHTS
from toolproof.suite import CATEGORIES as FROM_THE_PACKAGE
from toolproof.suite.categories import CASE_CATEGORIES, CATEGORIES, CATEGORY, RECORDS, Category
from toolproof.suite.model import SECOND_TURN_CATEGORIES

ROOT = Path(__file__).resolve().parents[2]


def test_records_are_frozen_data_with_unique_ids_and_labels():
    assert dataclasses.is_dataclass(Category) and Category.__dataclass_params__.frozen
    with pytest.raises(dataclasses.FrozenInstanceError):
        RECORDS[0].weight = 1               # type: ignore[misc]
    assert CATEGORIES == tuple(c.id for c in RECORDS) == tuple(CATEGORY) == FROM_THE_PACKAGE
    for field in ("id", "label", "short"):
        values = [getattr(c, field) for c in RECORDS]
        assert len(set(values)) == len(values) and all(values), field


@pytest.mark.parametrize("record", RECORDS, ids=lambda c: c.id)
def test_every_record_is_complete(record):
    assert re.fullmatch(r"[a-z]+(_[a-z]+)*", record.id)
    assert isinstance(record.weight, int) and record.weight > 0
    assert record.action in ACTIONS
    assert record.second_turn in (None, "calls", "answer")
    assert record.second_turn is None or record.action == "call"     # a second turn follows a call


def test_tables_keyed_by_category_are_the_records():
    assert DEFAULT_WEIGHTS == {c.id: c.weight for c in RECORDS} and tuple(DEFAULT_WEIGHTS) == CATEGORIES
    assert CATEGORY_LABELS == {c.id: c.label for c in RECORDS}
    assert CATEGORY_SHORT == {c.id: c.short for c in RECORDS}
    assert ACTION_OF == {c.id: c.action for c in RECORDS} and EDITOR_CATEGORIES == CASE_CATEGORIES
    assert SECOND_TURN_CATEGORIES == {"multi_step", "injection", "result_use", "injection_realistic"}


def test_the_suite_schema_lists_the_records_in_their_order():
    schema = json.loads((ROOT / "data" / "schemas" / "suite.schema.json").read_text(encoding="utf-8"))
    enums = [node["enum"] for node in _nodes(schema) if isinstance(node, dict)
             and isinstance(node.get("enum"), list) and "should_call" in node["enum"]]
    assert enums == [list(CASE_CATEGORIES)]       # a scenario is never a suite case


def _nodes(value):
    yield value
    children = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    for child in children:
        yield from _nodes(child)


def test_the_docs_state_the_records_weights_and_order():
    statistics = (ROOT / "docs" / "statistics.md").read_text(encoding="utf-8")
    stated = re.search(r"Default weights: (.*?)\. Any weight", statistics, re.S).group(1)
    assert " ".join(stated.split()) == ", ".join(f"{c.id} {c.weight}" for c in RECORDS)
    grading = (ROOT / "docs" / "grading.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `([a-z_]+)` \| ", grading.split("| category | the model should |")[1], re.M)
    assert tuple(rows[:len(CATEGORIES)]) == CATEGORIES


# Modules that once held a table keyed by category: no category id in a module-level value of
# theirs now (rules about one category, such as the premature-call rate's must_ask, stay in code).
DERIVED = ("toolproof/scoring/scorecard.py", "toolproof/reports/page_view.py", "toolproof/reports/board.py",
           "toolproof/suite/model.py", "toolproof/authoring/case_form.py")
ID = re.compile(f"^({'|'.join(CATEGORIES)})$")


@pytest.mark.parametrize("module", DERIVED)
def test_no_table_of_category_ids_is_left(module):
    assert strings_naming(ROOT / module, ID, tables_only=True) == []


def test_the_scan_sees_a_category_table(tmp_path):
    path = tmp_path / "probe.py"
    path.write_text('"""injection"""\nW = {"should_call": 20, "x": "the injection case"}\n'
                    'def f(r):\n    return r == "must_ask"\n', encoding="utf-8")
    assert strings_naming(path, ID, tables_only=True) == ["should_call"]


def test_scenario_is_a_category_of_the_scorecard_never_of_a_suite():
    record = CATEGORY["scenario"]
    assert (record.weight, record.in_suite, record.second_turn) == (20, False, None)
    assert CASE_CATEGORIES == tuple(c.id for c in RECORDS if c.id != "scenario") and "scenario" in DEFAULT_WEIGHTS
    assert "scenario" not in EDITOR_CATEGORIES
    from toolproof.suite.model import scoped
    with pytest.raises(ValueError, match="unknown scope 'scenario'; use all or one of should_call"):
        scoped([], "scenario")
    from clirun import cli
    code, _, err = cli("run", "--provider", "openai", "--model", "m", "--scope", "scenario")
    assert code == 2 and "invalid choice: 'scenario'" in err
    schema = json.loads((ROOT / "data" / "schemas" / "suite.schema.json").read_text(encoding="utf-8"))
    assert "scenario" not in json.dumps(schema)
