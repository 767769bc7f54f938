"""The arms block read from a results file: Holm across arms, the migration of failure kinds,
the veto, the per-tool attribution; and a hostile or malformed arms file refused naming the place."""
from __future__ import annotations

import asyncio
import copy
import json

import pytest

from scripted import Transport
from toolproof.arms.analysis import arm_document, arms_card, holm_arms, split_arms, tool_effects
from toolproof.arms.kinds import KINDS, failure_kind
from toolproof.datafiles import format_schema
from toolproof.errors import ToolProofError
from toolproof.running.arm_plan import arm_run
from toolproof.running.arm_spec import parse_arm
from toolproof.running.runner import Run, RunSettings
from toolproof.running.transport import HttpReply

SCHEMA = format_schema("transcripts")


class Silent(Transport):
    """The replay, except that the arm whose bodies carry `temperature` answers in text only."""

    async def __call__(self, url, headers, body, timeout):
        if "temperature" in body:
            self.calls.append({"body": body})
            text = json.dumps({"choices": [{"message": {"role": "assistant", "content": "I cannot help."},
                                            "finish_reason": "stop"}]})
            return HttpReply(200, {}, text, 5.0)
        return await super().__call__(url, headers, body, timeout)


def results(bundle, *texts, scope="parallel", repeats=1, transport=None):
    base = RunSettings("openai", "m", "sk-test-KEY-1234567890", "", scope, 10_000, pause_s=0, repeats=repeats)
    arms = [arm_run(parse_arm(t), base, bundle.documents["tools"], bundle.tools, format_schema("tools")) for t in texts]
    run = Run(bundle.cases, bundle.tools, base, transport or Transport(), suite_sha256="cd" * 32, arms=arms)
    asyncio.run(run.run())
    return json.loads(json.dumps(run.document(created="2026-12-06T00:00:00+00:00")))


@pytest.fixture(scope="module")
def doc(bundle):
    return results(bundle, "base", "same:seed=1", "mute:temperature=0.5", "also:seed=2", repeats=2, transport=Silent())


def test_holm_runs_across_the_arms_compared(bundle, doc):
    card = arms_card(doc, bundle.cases, bundle.tools, SCHEMA)
    rows = card["arms"]
    assert [r["name"] for r in rows] == ["base", "same", "mute", "also"] and rows[0]["baseline"]
    mute = rows[2]
    assert mute["delta"]["delta"] < 0 and mute["delta"]["high"] < 0 and mute["mcnemar_p"] < 0.01
    assert mute["holm_p"] == round(min(1.0, 3 * mute["mcnemar_p"]), 6) and mute["significant"]
    assert not rows[1]["significant"] and rows[1]["delta"]["delta"] == 0
    # a text answer where calls were due: pass -> no_call, and the veto (broken in both repeats)
    assert {m["to"] for m in mute["migration"]} == {"no_call"}
    assert mute["veto"]["vetoed"] and mute["veto"]["regression"] and mute["veto"]["broken"]
    assert "tool_effects" not in mute                      # it shows the same tools


def test_holm_arms_by_hand():
    rows = [{"baseline": True}, {"baseline": False, "mcnemar_p": 0.01}, {"baseline": False, "mcnemar_p": 0.04},
            {"baseline": False, "mcnemar_p": None}]
    holm_arms(rows)
    assert [r.get("holm_p") for r in rows] == [None, 0.02, 0.04, None]
    assert [r.get("significant") for r in rows] == [None, True, True, None]


def test_tool_effects_attribute_flips_to_the_tools_a_case_expects(bundle):
    by_id = {c.id: c for c in bundle.cases}
    shared = [c.id for c in bundle.cases if c.category == "parallel"]
    down = [cid for cid in shared if "create_reminder" in {x.tool for x in by_id[cid].expect.calls}]
    effects = tool_effects({"regressed": down, "improved": []}, shared, by_id)
    top = effects[0]
    assert top["tool"] == "create_reminder" and top["regressed"] == down and top["improved"] == []
    assert top["cases"] == len(down) and 0 < top["mcnemar_p"] <= 1 and top["holm_p"] >= top["mcnemar_p"]


def test_every_kind_is_reachable_by_name():
    assert KINDS[0] == "pass" and "schema" in KINDS and "wrong_tool" in KINDS and len(set(KINDS)) == len(KINDS)


def test_the_card_renders_in_every_view(bundle, doc):
    from toolproof.reports.html_scorecard import scorecard_html
    from toolproof.reports.scorecard import render_markdown, render_text
    card = arms_card(doc, bundle.cases, bundle.tools, SCHEMA)
    text, md, html = render_text(card), render_markdown(card), scorecard_html(card, bundle.cases)
    for view in (text, md, html):
        assert "Arms" in view and "mute" in view and "VETO" in view
    assert "| mute | temperature=0.5 |" in md


def test_compare_reads_one_arm_and_names_it(bundle, doc):
    own = arm_document(doc, "mute", "r.json")
    assert own["arm"] == "mute" and all(t["arm"] == "mute" for t in own["transcripts"])
    assert arm_document(doc, None, "r.json")["arm"] == "base"
    with pytest.raises(ToolProofError, match="no arm named 'nope'"):
        arm_document(doc, "nope", "r.json")


@pytest.mark.parametrize("change, message", [
    (lambda d: d.update(arms="x"), "arms must be a list of 2 to 16"),
    (lambda d: d.update(arms=d["arms"][:1]), "arms must be a list of 2 to 16"),
    (lambda d: d["arms"].__setitem__(1, 5), r"arms\[1\] must be an object with a name"),
    (lambda d: d["arms"][1].update(name=d["arms"][0]["name"]), "used twice"),
    (lambda d: d["transcripts"][0].update(arm="ghost"), r"transcripts\[0\] names no arm of the file \(arm 'ghost'\)"),
    (lambda d: d["transcripts"][0].pop("arm"), r"transcripts\[0\] names no arm"),
    (lambda d: d["arms"][1].update(unmask={"tool_1": {"name": 5}}),
     r"r.json \(arm same\): at \$.unmask.tool_1.name: 5 is not of type 'string'"),
    (lambda d: d["arms"][1].update(settings=[]), r"arms\[1\].settings must be an object"),
    (lambda d: d["arms"][1].update(refused=7), r"arms\[1\].refused must be null"),
])
def test_a_malformed_arms_file_is_refused_naming_the_place(bundle, doc, change, message):
    bad = copy.deepcopy(doc)
    change(bad)
    with pytest.raises(ToolProofError, match=message):
        arms_card(bad, bundle.cases, bundle.tools, SCHEMA, source="r.json")


def test_a_hostile_unmask_cannot_rename_into_a_crash(bundle):
    doc = results(bundle, "base", "opaque:ablate=names+param_names")
    bad = copy.deepcopy(doc)
    bad["arms"][1]["unmask"] = {"tool_1": {"name": "\x00" * 10_000, "params": {"arg_0": "\u202e" * 100}}}
    card = arms_card(bad, bundle.cases, bundle.tools, SCHEMA)
    assert card["arms"][1]["coverage"]["graded"] == card["arms"][1]["coverage"]["planned"]


def test_a_version_2_file_is_resolved_before_it_is_split(bundle, tmp_path):
    from toolproof.cli.results_file import ResultsFile
    doc = results(bundle, "base", "same:seed=3")
    path = tmp_path / "r.json"
    ResultsFile(str(path)).save(doc)
    from toolproof.datafiles import read_json
    written = read_json(path)
    assert written["version"] == 2
    assert arms_card(written, bundle.cases, bundle.tools, SCHEMA) == arms_card(doc, bundle.cases, bundle.tools, SCHEMA)
    assert [e["name"] for e, _ in split_arms(written, "r.json")] == ["base", "same"]


def test_failure_kind_reads_the_result(bundle, doc):
    from toolproof.scoring.evaluate import grade_transcripts
    from toolproof.grading.transcripts import parse_transcripts
    own = arm_document(doc, "mute", "r.json")
    graded = grade_transcripts(bundle.cases, bundle.tools, parse_transcripts(own, SCHEMA))
    by_id = {c.id: c for c in bundle.cases}
    assert {failure_kind(r, by_id[r.case_id], bundle.tools) for r in graded.rows} == {"no_call"}


def test_a_kept_runs_row_counts_every_arm_that_ran(bundle, doc):
    from toolproof.reports.kept_runs import row_of, run_coverage, settled_state
    card = arms_card(doc, bundle.cases, bundle.tools, SCHEMA)
    arms = card["arms"]
    assert run_coverage(card)["planned"] == sum(a["coverage"]["planned"] for a in arms) > card["coverage"]["planned"]
    refused = copy.deepcopy(card)
    refused["arms"][2]["refused"] = "no"
    assert run_coverage(refused)["planned"] == run_coverage(card)["planned"] - arms[2]["coverage"]["planned"]
    assert settled_state(card) == "done"
    row = row_of(doc, card, run_id="r1", kept="2026-12-06T00:00:00Z", size=10)
    assert json.dumps(row)           # plain data, as the kept runs list stores it
    assert run_coverage({"coverage": {"planned": 3, "graded": 3, "error": 0, "not_started": 0}})["planned"] == 3
