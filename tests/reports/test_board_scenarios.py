"""The board and compare views of scenarios runs, on results files the real runner wrote against
the fake model (tests/scenariodocs.live_doc): `board` says what it ranked on (scenarios of which
world) and shows the success-rate column; `compare` says it compared scenarios, lists the
flips, and its JUnit gate fails on the regression; a world played in two versions is said in
every view; a scenarios file of no world loaded is one line, exit 2."""
from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

from boarddocs import SHA
from clirun import cli
from scenariodocs import WORLDS, bank_ids, live_doc, scenario_doc
from toolproof.datafiles import DATA, format_schema, load_bundle
from toolproof.reports.board import render_board_markdown, render_board_text
from toolproof.scoring.board import build_board

BUNDLE = load_bundle()


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("scenario-runs")
    out = {}
    for name, doc in {"good": live_doc("good"), "bad": live_doc("bad", bank_ids()[:5])}.items():
        out[name] = folder / f"{name}.json"
        out[name].write_text(json.dumps(doc), encoding="utf-8")
    return out


def test_board_of_two_scenarios_runs_names_what_it_ranked(files):
    code, out, err = cli("board", str(files["bad"]), str(files["good"]))
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == f"ToolProof leaderboard: 2 runs, same suite (sha256 {SHA[:12]}), 8 scenarios (world bank)"
    runs = lines[lines.index("Runs") + 1:lines.index("Runs") + 4]
    assert "scenarios" in runs[0]
    assert "good" in runs[1] and "100.0% (63.1–100.0%) 8 of 8" in runs[1]
    assert "bad" in runs[2] and "37.5% (8.5–75.5%) 3 of 8" in runs[2]


def test_compare_two_scenarios_runs_flips_and_the_junit_gate(files, tmp_path):
    junit = tmp_path / "gate.xml"
    code, out, err = cli("compare", str(files["good"]), str(files["bad"]), "--junit", str(junit),
                         "--fail-on-regression")
    assert code == 1 and err.startswith("toolproof: regression: score 100.0 -> 37.5")
    assert "Compared: 8 scenarios, same suite" in out
    assert "Scenario success rate: A 100.0% (95% CI 63.1–100.0%), 8 of 8 scenarios passed → B 37.5%" in out
    root = ET.fromstring(junit.read_text(encoding="utf-8"))
    suites = {s.get("name"): s for s in root.findall("testsuite")}
    failed = [c.get("name") for c in suites["scenarios"].findall("testcase") if c.find("failure") is not None]
    assert failed == bank_ids()[:5] and suites["gate"].get("failures") == "1"


def test_a_world_in_two_versions_is_said_in_every_view_of_the_board(tmp_path):
    docs = [scenario_doc("a"), scenario_doc("b", world_sha="e" * 64)]
    board = build_board([(d, f"{i}.json") for i, d in enumerate(docs)], BUNDLE.cases, BUNDLE.tools,
                        format_schema("transcripts"), allow_mixed=True, worlds=WORLDS)
    note = board["suite"]["worlds_note"]
    assert note in render_board_text(board) and "0.json" not in render_board_text(board)
    assert "- the runs played different versions of world 'bank' (world_sha256): run-1 differs" in render_board_markdown(board)
    paths = [tmp_path / "a.json", tmp_path / "b.json"]
    for path, doc in zip(paths, docs):
        path.write_text(json.dumps(doc), encoding="utf-8")
    code, out, err = cli("compare", "--allow-mixed", *map(str, paths))
    assert code == 0 and "Worlds: the runs played different versions of world 'bank'" in out


def test_a_scenarios_file_of_no_world_loaded_is_one_line(files, tmp_path):
    # malformed for this command: the run's world (bank) is not among the world files passed
    other = tmp_path / "travel.json"
    world = json.loads((DATA / "worlds" / "travel.json").read_text(encoding="utf-8"))
    other.write_text(json.dumps(world), encoding="utf-8")
    for verb in (("board",), ("compare",)):
        code, out, err = cli(*verb, str(files["good"]), str(files["bad"]), "--worlds", str(other))
        assert (code, out) == (2, "")
        assert err.count("\n") == 1 and err.startswith(f"toolproof: {files['good']}: scenario 'bank.") and "is not in the worlds loaded (travel); pass its world file with --worlds" in err

