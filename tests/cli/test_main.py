"""The terminal edge, called in-process: output shapes, exit codes and one-line refusals.

data/fixtures.json is being edited by others, so nothing here pins its figures: the score is
checked against the scorecard's own category scores instead.
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from clirun import cli
from toolproof.scoring.scorecard import METRIC_KEYS
from toolproof.suite.model import CATEGORIES

ROOT = Path(__file__).resolve().parents[2]


def grade_json(*argv: str) -> dict:
    code, out, err = cli("grade", "--format", "json", *argv)
    assert (code, err) == (0, ""), err
    return json.loads(out)


def recomputed(card: dict) -> float:
    """100 * sum(w*s) / sum(w) from the figures the scorecard itself shows."""
    cats = card["categories"]
    total = sum(row["weight"] for row in cats.values())
    return round(100 * sum(row["weight"] * row["score"] for row in cats.values()) / total, 2)


def test_grade_json_prints_the_scorecard():
    card = grade_json()
    for key in ("score", "metrics", "categories", "cases", "strict", "lenient", "counts", "weights", "source"):
        assert key in card, key
    assert list(card["metrics"]) == list(METRIC_KEYS) and len(METRIC_KEYS) == 9
    assert list(card["weights"]) == list(CATEGORIES)
    assert card["counts"]["cases"] == len(card["cases"]) > 0
    assert card["score"] == card["strict"]["score"] == recomputed(card)


def test_grade_json_is_exactly_what_to_json_prints():
    # the terminal and the page must emit the same bytes for the same run
    code, first, _ = cli("grade", "--format", "json")
    _, second, _ = cli("grade", "--format", "json")
    assert code == 0 and first == second and first.endswith("}\n")


def test_grade_text_shows_the_score_and_every_metric():
    code, out, err = cli("grade")
    assert (code, err) == (0, "")
    assert "Score:" in out
    for key in METRIC_KEYS:
        assert key in out, key


def test_weight_override_changes_the_score_by_the_formula():
    default, tuned = grade_json(), grade_json("--weight", "multi_step=0")
    assert tuned["weights"] == {**default["weights"], "multi_step": 0}
    assert tuned["categories"]["multi_step"]["weight"] == 0
    assert tuned["score"] == recomputed(tuned)
    # the category scores do not move, only how much each counts
    assert {c: r["score"] for c, r in tuned["categories"].items()} == \
        {c: r["score"] for c, r in default["categories"].items()}


def test_repeated_weights_all_apply():
    card = grade_json("--weight", "multi_step=30", "--weight", "injection=2.5")
    assert (card["weights"]["multi_step"], card["weights"]["injection"]) == (30, 2.5)
    assert card["score"] == recomputed(card)


def test_all_weights_zero_gives_no_score():
    zeros = [arg for c in CATEGORIES for arg in ("--weight", f"{c}=0")]
    card = grade_json(*zeros)
    assert (card["score"], card["no_score_reason"]) == (None, "no category with a graded case has a weight above 0")
    assert all(row["score"] is not None for row in card["categories"].values())    # nothing else withheld
    code, out, _ = cli("grade", *zeros)
    assert code == 0 and "\nNo score: no category with a graded case has a weight above 0\n" in out


def refusal(*argv: str) -> str:
    """Run, expect exit 2, nothing on stdout and exactly one line on stderr; return that line."""
    code, out, err = cli(*argv)
    assert (code, out) == (2, "")
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert err.startswith("toolproof:"), err
    return err.rstrip("\n")


KNOWN = ", ".join(CATEGORIES)


@pytest.mark.parametrize("argv, line", [
    (["--weight", "bogus=1"], f"toolproof: --weight wants CATEGORY=W with CATEGORY one of {KNOWN}; got 'bogus=1'"),
    (["--weight", "multi_step=x"], "toolproof: --weight 'multi_step=x': 'x' is not a number"),
    (["--weight", "multi_step"], f"toolproof: --weight wants CATEGORY=W with CATEGORY one of {KNOWN}; got 'multi_step'"),
    (["--weight", "multi_step=-1"], "toolproof: weight for multi_step must be a finite number >= 0, got -1.0"),
    # "nan" and "inf" parse as floats; the scorer must still refuse them
    (["--weight", "multi_step=nan"], "toolproof: weight for multi_step must be a finite number >= 0, got nan"),
    (["--weight", "multi_step=inf"], "toolproof: weight for multi_step must be a finite number >= 0, got inf"),
    (["--format", "xml"], "toolproof: usage error: argument --format: invalid choice: 'xml' (choose from 'text', 'json', 'html')"),
    (["--nope"], "toolproof: usage error: unrecognized arguments: --nope"),
])
def test_bad_grade_flags(argv, line):
    assert refusal("grade", *argv) == line


@pytest.mark.parametrize("argv, line", [
    (["bogus"], "toolproof: usage error: argument command: invalid choice: 'bogus' (choose from 'selftest', 'grade', 'compare', 'board', 'run', 'tools', 'suite')"),
    ([], "toolproof: usage error: the following arguments are required: command"),
    (["selftest", "--verbose"], "toolproof: usage error: unrecognized arguments: --verbose"),
])
def test_bad_commands(argv, line):
    assert refusal(*argv) == line


def test_missing_transcripts_file(tmp_path):
    missing = tmp_path / "missing.json"
    assert refusal("grade", "--transcripts", str(missing)) == f"toolproof: {missing}: no such file"


def test_transcripts_in_the_wrong_format(tmp_path):
    # valid JSON, wrong shape: the line names the file and the JSON path to fix
    path = tmp_path / "t.json"
    path.write_text(json.dumps({"format": "toolproof.transcripts", "version": 1, "kind": "live",
                                "transcripts": [{"case_id": "x"}]}), encoding="utf-8")
    assert refusal("grade", "--transcripts", str(path)) == \
        f"toolproof: {path}: at $.transcripts[0]: 'turns' is a required property"


def test_transcripts_for_unknown_cases(tmp_path):
    path = tmp_path / "t.json"
    path.write_text(json.dumps({"format": "toolproof.transcripts", "version": 1, "kind": "live",
                                "transcripts": [{"case_id": "no-such-case", "turns": []}]}), encoding="utf-8")
    assert refusal("grade", "--transcripts", str(path)) == \
        f"toolproof: {path}: at $.transcripts[0].case_id: case 'no-such-case' is not in the suite"


def test_a_partial_transcripts_file_grades_only_its_cases(tmp_path):
    suite = json.loads((ROOT / "data" / "suite.json").read_text(encoding="utf-8"))
    first = suite["cases"][0]
    path = tmp_path / "t.json"
    path.write_text(json.dumps({"format": "toolproof.transcripts", "version": 1, "kind": "live",
                                "transcripts": [{"case_id": first["id"], "turns": [{"error": {
                                    "status": 500, "message": "boom"}}]}]}), encoding="utf-8")
    card = grade_json("--transcripts", str(path))
    assert [c["id"] for c in card["cases"]] == [first["id"]]
    # the only case errored: nothing was graded, so there is no score (not a score of 0)
    assert card["counts"]["request_errors"] == card["counts"]["error"] == 1 and card["score"] is None
    assert card["error_rate"] == 1.0 and card["categories"]["should_call"]["score"] is None


SELFTEST_LINE = re.compile(r"^selftest: (\d+) passed, 0 failed$")


def test_selftest_passes():
    code, out, err = cli("selftest")
    assert (code, err) == (0, "")
    match = SELFTEST_LINE.match(out.splitlines()[-1])
    assert match, out
    assert int(match.group(1)) >= 60


def test_module_entry_point():
    # `python -m toolproof` must reach the same CLI and pass its exit code through
    done = subprocess.run([sys.executable, "-m", "toolproof", "selftest"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert SELFTEST_LINE.match(done.stdout.splitlines()[-1]), done.stdout


def test_transcripts_with_an_unknown_variant(tmp_path):
    suite = json.loads((ROOT / "data" / "suite.json").read_text(encoding="utf-8"))
    case = next(c for c in suite["cases"] if c.get("variants"))
    path = tmp_path / "t.json"
    path.write_text(json.dumps({"format": "toolproof.transcripts", "version": 1, "kind": "live",
                                "transcripts": [{"case_id": case["id"], "turns": [],
                                                 "variants": [{"id": "no-such-variant", "turns": []}]}]}),
                    encoding="utf-8")
    assert refusal("grade", "--transcripts", str(path)) == \
        f"toolproof: {path}: at $.transcripts[0].variants[0].id: case {case['id']!r} has no variant 'no-such-variant'"


def test_a_tools_file_with_a_remote_ref_is_refused_before_anything_is_fetched(tmp_path):
    tools = json.loads((ROOT / "data" / "tools.json").read_text(encoding="utf-8"))
    tools["tools"][2]["parameters"]["properties"]["x"] = {"$ref": "http://127.0.0.1:9/evil.json"}
    path = tmp_path / "tools.json"
    path.write_text(json.dumps(tools), encoding="utf-8")
    assert refusal("grade", "--tools", str(path)) == (
        f"toolproof: {path}: at $.tools[2].parameters.properties.x.$ref: $ref 'http://127.0.0.1:9/evil.json' "
        "is not a same-document JSON pointer (#/...): ToolProof never fetches or reads a schema; copy it under "
        "$defs and point at '#/$defs/<name>'")


def test_a_tools_file_with_a_catastrophic_pattern_is_refused(tmp_path):
    tools = json.loads((ROOT / "data" / "tools.json").read_text(encoding="utf-8"))
    tools["tools"][0]["parameters"]["properties"]["x"] = {"type": "string", "pattern": "^(a+)+$"}
    path = tmp_path / "tools.json"
    path.write_text(json.dumps(tools), encoding="utf-8")
    code, out, err = cli("grade", "--tools", str(path))
    assert (code, out) == (2, "")
    assert err == (f"toolproof: {path}: at $.tools[0].parameters.properties.x.pattern: pattern '^(a+)+$' nests a "
                   "quantifier inside a repeated group (like (a+)+), which can take exponential time; ToolProof "
                   "runs tool patterns on model output and refuses any that can backtrack without bound\n")
