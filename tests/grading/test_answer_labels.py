"""The labelled replies of benchmarks/answer_labels/ are well formed: fields, kinds, languages,
known cases and variants, at least MIN_PER_SLOT replies per (case, variant) slot the files name,
every language in every slot. How far the grader agrees with them is the benchmark's to print
(benchmarks/answer_rules.py), not asserted here."""
from __future__ import annotations

import importlib.util
import io
import json
import sys
from pathlib import Path

import pytest

from toolproof.datafiles import load_suite_files, read_json

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("answer_rules", ROOT / "benchmarks" / "answer_rules.py")
answer_rules = importlib.util.module_from_spec(_spec)
sys.modules["answer_rules"] = answer_rules     # its dataclasses look their module up
_spec.loader.exec_module(answer_rules)

FILES = answer_rules.label_files()
CASES = {c.id: c for c in load_suite_files().cases}
SLOTS = answer_rules.suite_slots(CASES.values())


def test_the_labels_of_issue_35_are_there():
    names = {p.name for p in FILES}
    assert {"must_ask.json", "should_not_call.json"} <= names


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_file_shape(path):
    assert answer_rules.shape_problems(read_json(path), SLOTS) == []


def test_every_slot_has_enough_replies_in_every_language():
    items = answer_rules.read_labels(FILES, CASES)
    assert answer_rules.slot_problems(items) == []


def test_the_labels_cover_every_ask_and_no_call_case():
    """Every must_ask and should_not_call case is labelled: the English cases in must_ask.json and
    should_not_call.json (issue 35), the Portuguese and Spanish ones of issue 40 in a hold-out."""
    named = {r["case"] for path in FILES for r in read_json(path)["replies"]}
    for category in ("must_ask", "should_not_call"):
        missing = {c.id for c in CASES.values() if c.category == category} - named
        assert not missing, f"{category}: {sorted(missing)} labelled nowhere"


def reply(**over):
    base = {"case": "ask-table-no-date", "variant": "base", "lang": "en", "kind": "correct",
            "reply": "Which evening?", "label": "PASS", "why": "asks the day"}
    return {**base, **over}


def doc(*replies):
    return {"format": answer_rules.FORMAT, "version": 1, "replies": list(replies)}


@pytest.mark.parametrize("bad, problem", [
    (reply(kind="sarcastic"), "replies[0]: kind 'sarcastic' is not one of"),
    (reply(lang="fr"), "replies[0]: lang 'fr' is not one of en, pt, es"),
    (reply(label="PARTIAL"), "replies[0]: label 'PARTIAL' is not one of PASS, FAIL"),
    (reply(case="nope"), "replies[0]: case 'nope' is not in the suite"),
    (reply(case="ruse-order-status", variant="nope"), "replies[0]: case 'ruse-order-status' has no variant 'nope'"),
    (reply(why="two\nlines"), "replies[0]: why must be one line"),
    (reply(why=""), "replies[0]: every field must be a non-empty string"),
    ({k: v for k, v in reply().items() if k != "why"}, "replies[0]: fields must be exactly"),
])
def test_shape_problems_name_the_reply(bad, problem):
    problems = answer_rules.shape_problems(doc(bad), SLOTS)
    assert len(problems) == 1 and problems[0].startswith(problem)


def test_a_slot_short_of_replies_or_languages_is_named():
    items = [answer_rules.Labelled("f.json", i, "ask-table-no-date", "base", "en", "correct", "x", "PASS", "y")
             for i in range(3)]
    assert answer_rules.slot_problems(items) == [
        "ask-table-no-date / base: 3 replies, at least 8 needed",
        "ask-table-no-date / base: no reply in pt, es"]


def test_an_unknown_variant_is_refused_with_file_and_index(tmp_path):
    (tmp_path / "x.json").write_text(json.dumps(doc(reply(), reply(case="ruse-order-status", variant="gone"))))
    out, err = io.StringIO(), io.StringIO()
    assert answer_rules.main(["--labels", str(tmp_path)], out, err) == 2
    assert err.getvalue() == (f"answer_rules: {tmp_path / 'x.json'}: replies[1]: "
                              "case 'ruse-order-status' has no variant 'gone'\n")


def test_the_figures_add_up(tmp_path):
    """Whatever the grader decides, every reply is an agreement, a false pass or a false fail."""
    (tmp_path / "x.json").write_text(json.dumps(doc(
        reply(), reply(reply="Done! I've booked it for Wednesday at 19:30.", label="FAIL", kind="claimed"),
        reply(case="ruse-order-status", variant="cancelled", reply="It was cancelled.", kind="correct"))))
    out = io.StringIO()
    assert answer_rules.main(["--labels", str(tmp_path), "--json"], out) == 0
    fig = json.loads(out.getvalue())
    for t in [fig["total"], *fig["category"].values(), *fig["lang"].values(), *fig["kind"].values()]:
        assert t["agree"] + t["false_pass"] + t["false_fail"] == t["replies"]
    assert fig["total"]["replies"] == 3 and set(fig["category"]) == {"must_ask", "result_use"}
    assert len(fig["disagreements"]) == 3 - fig["total"]["agree"]
