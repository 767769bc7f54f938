"""`run --scope scenarios[:<world>]` in-process against the fake multi-turn model on 127.0.0.1
(tests/fakeagent.py): the user's own world file (--worlds), the results file re-graded offline to
the same scorecard, requests on the wire == model turns in the file; and the bad inputs (an unknown
world, --worlds without a scenarios scope, a malformed or hostile world file) refused in one line
before anything is sent."""
from __future__ import annotations

import json

import pytest

from clirun import cli_with
from fakeagent import FakeAgent
from worldkit import SCRIPTS, run_doc

KEY = "sk-cli-scenario-secret-42"
cli = cli_with({"TOOLPROOF_API_KEY": KEY})


@pytest.fixture
def world_file(tmp_path):
    path = tmp_path / "minibank.json"
    path.write_text(json.dumps(run_doc()))
    return path


def run_scenarios(fake, world_file, *argv, provider="anthropic", scope="scenarios:minibank"):
    return cli("run", "--provider", provider, "--base-url", fake.base + "/v1", "--model", "fake", "--pause", "0",
               "--scope", scope, "--worlds", str(world_file), "--allow-incomplete", *argv)


@pytest.mark.parametrize("provider", ["anthropic", "openai-compatible"])
def test_a_scenarios_run_writes_a_file_that_regrades_to_the_same_card(tmp_path, world_file, provider):
    out = tmp_path / "results.json"
    with FakeAgent(SCRIPTS) as fake:
        code, stdout, stderr = run_scenarios(fake, world_file, "--out", str(out), "--format", "json",
                                             provider=provider)
    assert code in (0, 1), stderr           # 1: a scenario FAILs (the looping model) and the gate says so
    assert "4 scenarios, up to 22 requests" in stderr
    assert KEY not in stdout + stderr + out.read_text()
    card = json.loads(stdout)
    doc = json.loads(out.read_text())
    turns = sum(len(t["turns"]) for t in doc["transcripts"])
    assert len(fake.requests) == turns == doc["requests_used"] == 4 + 3 + 4 + 5
    assert card["scenarios"]["planned"] == 4 and card["scenarios"]["graded"] == 4
    assert {c["id"]: c["verdict"] for c in card["cases"] if c["category"] == "scenario"}["minibank.loop"] == "FAIL"
    code, regraded, stderr = cli("grade", "--transcripts", str(out), "--worlds", str(world_file), "--format", "json")
    assert code == 0, stderr
    assert json.loads(regraded)["cases"] == card["cases"]
    assert json.loads(regraded)["scenarios"] == card["scenarios"]


def test_an_unknown_world_is_one_line_naming_the_known_ones(world_file):
    with FakeAgent(SCRIPTS) as fake:
        code, stdout, stderr = run_scenarios(fake, world_file, scope="scenarios:nope")
        assert fake.requests == []
    assert code == 2 and stdout == ""
    assert stderr.strip().splitlines()[-1].endswith("unknown world 'nope' (scope scenarios:<world>); the worlds are: minibank")


@pytest.mark.parametrize("verb", ["run", "grade", "compare", "board"])
def test_no_output_may_replace_the_world_file_read(world_file, verb):
    # `run --worlds w.json --out w.json --force` overwrote the world it ran with its results
    before = world_file.read_bytes()
    with FakeAgent(SCRIPTS) as fake:
        if verb == "run":
            code, _, stderr = run_scenarios(fake, world_file, "--out", str(world_file), "--force")
        else:
            args = {"grade": ["--html"], "compare": ["a.json", "b.json", "--html"], "board": ["a.json", "--html"]}[verb]
            code, _, stderr = cli(verb, *args[:-1], "--worlds", str(world_file), args[-1], str(world_file))
        assert fake.requests == []
    assert code == 2 and "names the world file this command reads" in stderr
    assert world_file.read_bytes() == before


@pytest.mark.parametrize("argv, said", [
    (["--scope", "all"], "--worlds names the worlds of a scenarios run"),
    (["--scope", "scenarios", "--pad", "0,4"], "--pad applies to cases, not to --scope scenarios"),
    (["--scope", "scenarios", "--phrasings", "all"], "--phrasings applies to cases, not to --scope scenarios"),
])
def test_flags_that_do_not_apply_are_refused_before_anything_is_sent(world_file, argv, said):
    with FakeAgent(SCRIPTS) as fake:
        code, _, stderr = cli("run", "--provider", "anthropic", "--base-url", fake.base, "--model", "m",
                              "--worlds", str(world_file), *argv)
        assert fake.requests == []
    assert code == 2 and said in stderr and "Traceback" not in stderr


def test_a_scope_word_of_neither_kind_is_refused_by_the_flag():
    code, _, stderr = cli("run", "--provider", "anthropic", "--model", "m", "--scope", "scenario")
    assert code == 2 and "invalid choice: 'scenario'" in stderr and "scenarios:<world>" in stderr


@pytest.mark.parametrize("text, said", [
    ("{", "minibank.json"),                                               # malformed JSON
    (json.dumps({**run_doc(), "tables": {"t": {"key": "id", "rows": [{"id": 1}] * 30_000}}}), "minibank.json"),
    ("[" * 100_000 + "]" * 100_000, "minibank.json"),                      # hostile depth
])
def test_a_bad_world_file_is_one_line(tmp_path, text, said):
    path = tmp_path / "minibank.json"
    path.write_text(text)
    with FakeAgent(SCRIPTS) as fake:
        code, stdout, stderr = run_scenarios(fake, path, scope="scenarios")
        assert fake.requests == []
    assert code == 2 and said in stderr and "Traceback" not in stderr
    assert len([line for line in stderr.splitlines() if line.startswith("toolproof: error") or said in line]) >= 1
