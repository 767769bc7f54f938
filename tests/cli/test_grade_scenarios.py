"""`grade --transcripts FILE --worlds FILE` on scenario transcripts (the same bytes every time, no
network), and `suite validate` on a world file (one line per path; exit 1 when one does not hold,
2 when the file is refused), with malformed and hostile inputs."""
from __future__ import annotations

import json

import pytest

from clirun import cli
from toolproof.grading.scenario_paths import path_transcript
from toolproof.worlds.load import load_world
from worldkit import RENT, grade_doc


def _world_file(tmp_path, doc=None, name="gradebank.json"):
    path = tmp_path / name
    path.write_text(json.dumps(doc or grade_doc()), encoding="utf-8")
    return path


def _results(tmp_path, world_path):
    world = load_world(json.loads(world_path.read_text()), "gradebank.json")
    s = world.scenarios[0]
    transcripts = [path_transcript(world, s, p, provider, repeat=i)
                   for i, (p, provider) in enumerate(zip((*s.gold_paths, *s.wrong_paths),
                                                         ("openai", "anthropic", "gemini", "openai-responses",
                                                          "openai-compatible")))]
    doc = {"format": "toolproof.transcripts", "version": 1, "kind": "live", "provider": "mixed", "model": "m",
           "scope": "scenarios", "settings": {"repeats": 5, "scope": "scenarios"}, "transcripts": transcripts}
    path = tmp_path / "results.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def test_grade_regrades_a_scenario_results_file_byte_for_byte(tmp_path):
    world = _world_file(tmp_path)
    results = _results(tmp_path, world)
    runs = [cli("grade", "--transcripts", str(results), "--worlds", str(world), "--format", "json") for _ in range(2)]
    assert runs[0][0] == 0, runs[0][2]
    assert runs[0][1] == runs[1][1]
    card = json.loads(runs[0][1])
    block = card["scenarios"]
    assert (block["planned"], block["graded"], block["passed"], block["partial"], block["failed"]) == (5, 5, 2, 1, 2)
    assert block["by_world"]["gradebank"]["success_rate"] == 0.4
    assert card["coverage"] == {"planned": 5, "graded": 5, "error": 0, "not_started": 0}
    text = cli("grade", "--transcripts", str(results), "--worlds", str(world))
    assert text[0] == 0 and "gradebank.rent" in text[1]


def test_a_scenario_whose_world_is_not_given_is_one_line(tmp_path):
    results = _results(tmp_path, _world_file(tmp_path))
    code, out, err = cli("grade", "--transcripts", str(results))
    assert code == 2 and out == ""
    assert err.strip().count("\n") == 0
    assert "scenario 'gradebank.rent' (world 'gradebank') is not in the worlds loaded" in err
    assert "pass its world file with --worlds" in err


@pytest.mark.parametrize("content, words", [
    ("{not json", "gradebank.json"),
    ("[" * 100_000 + "]" * 100_000, "gradebank.json"),
    (json.dumps({**grade_doc(), "id": "Gradebank\u202e"}), "$.id"),
])
def test_a_malformed_or_hostile_world_file_is_one_line(tmp_path, content, words):
    (tmp_path / "gradebank.json").write_text(content, encoding="utf-8")
    for argv in (("grade", "--worlds", str(tmp_path / "gradebank.json")),
                 ("suite", "validate", str(tmp_path / "gradebank.json"))):
        code, out, err = cli(*argv)
        assert code == 2, (argv, out, err)
        assert words in err and err.strip().count("\n") == 0 and "Traceback" not in err


def test_suite_validate_replays_every_path_of_a_world_file(tmp_path):
    code, out, err = cli("suite", "validate", str(_world_file(tmp_path)))
    assert code == 0, err
    lines = out.splitlines()
    assert lines[:2] == ["ok   gradebank.rent gold lookup-first: PASS", "ok   gradebank.rent gold portuguese: PASS"]
    assert lines[2].startswith("ok   gradebank.rent wrong no-confirm: FAIL (policy confirm_before broken in turn 2")
    assert lines[-1] == "suite validate: ok (world gradebank: 1 scenario, 5 paths replayed)"


def test_suite_validate_exits_1_when_a_path_does_not_hold(tmp_path):
    broken = json.loads(json.dumps(RENT))
    broken["wrong_paths"][0]["fails_with"] = "minefield"       # it breaks the policy, not a minefield
    broken["gold_paths"][1]["turns"] = broken["gold_paths"][1]["turns"][1:]   # no look-up: not gold
    code, out, _ = cli("suite", "validate", str(_world_file(tmp_path, grade_doc(broken))))
    assert code == 1
    assert "FAIL gradebank.rent gold portuguese: FAIL, expected PASS: milestone 'payee' missed" in out
    assert "FAIL gradebank.rent wrong no-confirm: FAIL, expected a failure with 'minefield': policy" in out
    assert out.splitlines()[-1] == "suite validate: 2 of 5 paths do not hold (1 scenario)"
