"""The board and compare over runs that hold scenarios (scoring/board.py, scoring/comparison.py):
two scenarios runs of the same world rank on the scenario score, with compare's pairwise test;
runs of different scopes rank on the scenarios they share; a cases run beside a scenarios run
shares nothing; a scenario of no world loaded, a hostile scenario id and a world played in two
versions are refused in one line naming the file."""
from __future__ import annotations

import pytest

from boarddocs import HOSTILE, run_doc
from scenariodocs import WORLDS, bank_ids, scenario_doc
from toolproof.datafiles import format_schema
from toolproof.errors import ToolProofError
from toolproof.scoring.board import build_board
from toolproof.scoring.comparison import compare_runs, graded_run, regression_gate

SCHEMA = format_schema("transcripts")


def board(bundle, docs, **kw):
    kw.setdefault("worlds", WORLDS)
    return build_board([(d, f"{i}.json") for i, d in enumerate(docs)], bundle.cases, bundle.tools, SCHEMA, **kw)


def graded(bundle, doc, name="a.json"):
    return graded_run(doc, bundle.cases, bundle.tools, SCHEMA, name, WORLDS)


def test_two_scenarios_runs_rank_on_the_scenario_score_with_compares_test(bundle):
    good, bad = scenario_doc("good"), scenario_doc("bad", bank_ids()[:5])
    b = board(bundle, [bad, good])
    assert [r["model"] for r in b["runs"]] == ["good", "bad"] and b["unranked"] == []
    assert (b["suite"]["cases"], b["suite"]["scenarios"], b["suite"]["shared_only"]) == (0, 8, False)
    assert b["suite"]["worlds"] == {"bank": WORLDS["bank"].sha256}
    for row, passed in zip(b["runs"], (8, 3)):
        # the score of a scenarios-only run is its scenario category's score
        assert row["score"] == round(100 * row["categories"]["scenario"]["score"], 2)
        assert row["scenarios"]["passed"] == passed and row["scenarios"]["planned"] == 8
        assert row["cases"] == {"planned": 8, "graded": 8, "error": 0, "not_started": 0}
    (pair,) = b["pairs"]
    c = compare_runs(graded(bundle, good), graded(bundle, bad))["comparison"]
    assert (pair["delta"], pair["low"], pair["high"], pair["cases"]) == (c["score"]["delta"], c["score"]["low"],
                                                                       c["score"]["high"], 8)
    assert pair["mcnemar_p"] == c["mcnemar"]["p_value"] and pair["significant"]
    assert [r["rank"]["label"] for r in b["runs"]] == ["1", "2"]


def test_runs_of_different_scenario_scopes_rank_on_the_scenarios_they_share(bundle):
    b = board(bundle, [scenario_doc("all", scope="scenarios"), scenario_doc("bank", bank_ids()[:1])])
    assert b["suite"]["shared_only"] and b["suite"]["scenarios"] == 8 and list(b["suite"]["worlds"]) == ["bank"]
    assert b["suite"]["note"] == ("different scopes or plans: every run graded (its cost too) on the 8 scenarios "
                                  "all 2 runs share, not on its own plan")
    everyone = {r["model"]: r for r in b["runs"]}
    # the run of every world is graded (its plan and its cost too) on the bank's scenarios alone
    assert everyone["all"]["coverage"]["planned"] == 8 and everyone["all"]["scenarios"]["planned"] == 8
    assert everyone["all"]["cost"]["requests"] == sum(
        len(t["turns"]) for t in scenario_doc("x")["transcripts"])


def test_a_cases_run_and_a_scenarios_run_share_nothing(bundle):
    with pytest.raises(ToolProofError) as caught:
        board(bundle, [run_doc("cases"), scenario_doc("scenarios")])
    assert caught.value.line() == ("the runs share no case to rank them on: 0.json, 1.json "
                                   "(different scopes, plans or suites)")


def test_a_scenario_of_no_world_loaded_is_refused_naming_the_file(bundle):
    # malformed: the file's world is not among those loaded (a world file not passed with --worlds)
    lost = scenario_doc("lost")
    for t in lost["transcripts"]:
        t["world"], t["case_id"] = "atlantis", t["case_id"].replace("bank.", "atlantis.")
    with pytest.raises(ToolProofError) as caught:
        board(bundle, [scenario_doc("good"), lost])
    assert caught.value.line() == ("1.json: scenario 'atlantis.rent_confirm' (world 'atlantis') is not in the worlds "
                                   "loaded (bank, shop, travel); pass its world file with --worlds")
    with pytest.raises(ToolProofError, match="^b.json: scenario 'atlantis.rent_confirm'"):
        graded_run(lost, bundle.cases, bundle.tools, SCHEMA, "b.json", WORLDS)


def test_a_hostile_scenario_id_is_refused_in_one_bounded_line(bundle):
    # hostile: markup, bidi and escape codes, 100,000 characters, in the id of a bank transcript
    evil = scenario_doc("evil")
    evil["transcripts"][0]["case_id"] = "bank." + HOSTILE + "x" * 100_000
    with pytest.raises(ToolProofError) as caught:
        board(bundle, [scenario_doc("good"), evil])
    line = caught.value.line()
    assert line.startswith("1.json: scenario 'bank.<script>") and "not in the worlds loaded" in line
    assert "\n" not in line and "\x1b" not in line and "\u202e" not in line and len(line) < 2_000


def test_a_world_played_in_two_versions_is_refused_like_two_suites(bundle):
    docs = [scenario_doc("a"), scenario_doc("b", world_sha="e" * 64), scenario_doc("c")]
    with pytest.raises(ToolProofError) as caught:
        board(bundle, docs)
    assert caught.value.line() == ("the runs played different versions of world 'bank' (world_sha256): 0.json, "
                                   "2.json differ from 1.json; pass --allow-mixed to rank them, each graded "
                                   "against the world files loaded now")
    b = board(bundle, docs, allow_mixed=True)       # said, with run ids, never file names
    assert b["suite"]["worlds_note"] == ("the runs played different versions of world 'bank' (world_sha256): run-1, "
                                         "run-3 differ from run-2: every run graded against the world files loaded "
                                         "now (--allow-mixed)")
    unrecorded = scenario_doc("d", world_sha="")
    with pytest.raises(ToolProofError, match="^no world_sha256 recorded for world 'bank' in 1.json"):
        board(bundle, [docs[0], unrecorded])


def test_compare_two_scenarios_runs_flips_rates_and_the_gate(bundle):
    good, bad = graded(bundle, scenario_doc("good")), graded(bundle, scenario_doc("bad", bank_ids()[:5]))
    c = compare_runs(good, bad)
    part = c["comparison"]["scenarios"]
    assert part["flips"] == {"regressed": bank_ids()[:5], "improved": []} == c["comparison"]["flips"]
    assert (part["a"]["passed"], part["b"]["passed"], part["b"]["graded"]) == (8, 3, 8)
    assert part["b"]["interval"]["method"] == "clopper-pearson"
    assert c["comparison"]["suite"]["shared_scenarios"] == c["comparison"]["suite"]["shared_cases"] == 8
    assert regression_gate(c).startswith("regression: score 100.0 -> ")
    assert regression_gate(compare_runs(good, good)) is None


def test_compare_refuses_a_world_played_in_two_versions_unless_mixed(bundle):
    a, b = graded(bundle, scenario_doc("a")), graded(bundle, scenario_doc("b", world_sha="e" * 64))
    with pytest.raises(ToolProofError) as caught:
        compare_runs(a, b)
    assert caught.value.line() == ("the runs played different versions of world 'bank' (world_sha256): run A "
                                   "differs from run B; pass --allow-mixed to compare them, both graded against "
                                   "the world files loaded now")
    assert compare_runs(a, b, allow_mixed=True)["comparison"]["worlds_note"].endswith(
        "both graded against the world files loaded now (--allow-mixed)")
