"""`run --model a,b,c` and repeated --provider/--model pairs, against the local fake provider and
the misbehaving server: one results file per model in --out-dir, the need of every model said
before anything is sent, the cap per model, one model failing entirely while the others finish,
and nothing written over a file the command did not write."""
from __future__ import annotations

import io
import json

import pytest

from htmlcheck import assert_inert
from misbehaving import MisbehavingServer
from clirun import cli_with
from toolproof.cli.main import run

KEY = "sk-models-secret-7"
ENV = {"TOOLPROOF_API_KEY": KEY}


@pytest.fixture(scope="module")
def broken():
    server = MisbehavingServer()
    yield server
    server.close()


cli = cli_with(ENV)


def models(fake, *argv: str):
    return cli("run", "--provider", "openai-compatible", "--base-url", fake.base + "/v1", "--pause", "0",
               "--scope", "should_call", "--allow-incomplete", *argv)


def test_each_model_gets_its_file_and_the_board_ranks_them(fake, tmp_path):
    fake.requests.clear()
    code, out, err = models(fake, "--model", "alpha,beta", "--out-dir", str(tmp_path / "runs"), "--cap", "12",
                            "--format", "json", "--html", str(tmp_path / "board.html"))
    assert code == 0, err
    files = sorted(p.name for p in (tmp_path / "runs").iterdir())
    assert files == ["openai-compatible-alpha.json", "openai-compatible-beta.json"]
    for name, model in zip(files, ("alpha", "beta")):
        doc = json.loads((tmp_path / "runs" / name).read_text(encoding="utf-8"))
        assert doc["model"] == model and doc["requests_used"] <= 12 and doc["settings"]["cap"] <= 12
    board = json.loads(out)
    assert board["format"] == "toolproof.board" and [r["model"] for r in board["runs"]] == ["alpha", "beta"]
    assert [r["rank"]["label"] for r in board["runs"]] == ["1–2", "1–2"]      # the same answers: not separable
    sent = [r["body"]["model"] for r in fake.requests]
    assert set(sent) == {"alpha", "beta"} and sent == sorted(sent)            # one model after the other
    assert sent.count("alpha") <= 12 and sent.count("beta") <= 12             # the cap is per model
    # every model's need is said before the first request of any is sent
    lines = err.splitlines()
    first_progress = next(i for i, line in enumerate(lines) if line.startswith("[1/"))
    assert sum("up to" in line and "requests; cap" in line for line in lines[:first_progress]) == 2
    assert KEY not in out + err
    assert_inert((tmp_path / "board.html").read_text(encoding="utf-8"))


def test_one_model_failing_entirely_does_not_stop_the_others(fake, broken, tmp_path):
    code, out, err = cli("run", "--provider", "openai-compatible", "--model", "good",
                         "--provider", "openai-compatible", "--model", "dead",
                         "--base-url", fake.base + "/v1", "--base-url", broken.url("broken"),
                         "--pause", "0", "--scope", "should_call", "--allow-incomplete",
                         "--out-dir", str(tmp_path))
    assert code == 2                       # the dead model's run stopped: the worst exit code wins
    assert "toolproof: openai-compatible / good: score" in err
    assert "toolproof: openai-compatible / dead: no score, 0 of 9 graded, exit 2" in err
    assert out.startswith("ToolProof leaderboard: 2 run(s), same suite")
    rows = [line for line in out.splitlines() if "openai-compatible / " in line]
    assert "good" in rows[0] and "dead" in rows[1] and "0 of 9" in rows[1]
    assert json.loads((tmp_path / "openai-compatible-good.json").read_text(encoding="utf-8"))["state"] == "done"


def test_an_existing_target_is_refused_before_anything_is_sent(fake, tmp_path):
    fake.requests.clear()
    mine = tmp_path / "openai-compatible-beta.json"
    mine.write_text("not mine to replace", encoding="utf-8")
    code, out, err = models(fake, "--model", "alpha,beta", "--out-dir", str(tmp_path))
    assert (code, out) == (2, "")
    assert err == (f"toolproof: {mine}: --out-dir: the file exists; choose a new path (run has no --force: a results file is never replaced)\n")
    assert fake.requests == [] and mine.read_text(encoding="utf-8") == "not mine to replace"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["openai-compatible-beta.json"]


@pytest.mark.parametrize("where", ["home", "parent", "root"])
def test_the_home_folder_its_parents_and_the_root_are_refused(fake, tmp_path, where):
    home = tmp_path / "home"
    home.mkdir()
    (home / "notes.txt").write_text("mine", encoding="utf-8")
    folder = {"home": home, "parent": tmp_path, "root": tmp_path.anchor}[where]
    fake.requests.clear()
    stdout, stderr = io.StringIO(), io.StringIO()
    argv = ["run", "--provider", "openai-compatible", "--base-url", fake.base + "/v1", "--scope", "should_call",
            "--model", "a,b", "--out-dir", str(folder)]
    code = run(argv, stdout=stdout, stderr=stderr, environ={**ENV, "HOME": str(home)})
    assert code == 2 and "is the home folder, one of its parents or the file-system root" in stderr.getvalue()
    assert fake.requests == [] and sorted(p.name for p in home.iterdir()) == ["notes.txt"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["home"]


@pytest.mark.parametrize("argv, message", [
    (["--model", "a,b"], "several models need --out-dir DIR (one results file per model)"),
    (["--model", "a,,b", "--out-dir", "x"], "--model 'a,,b': an empty model name (write --model a,b,c)"),
    (["--model", "a,a", "--out-dir", "x"], "openai-compatible / a is named twice"),
    (["--model", "a,b", "--out-dir", "x", "--out", "f.json"], "--out is for one model"),
    (["--model", "a", "--provider", "anthropic"], "2 --provider flags and 1 --model flags"),
    (["--model", ",".join(f"m{i}" for i in range(21)), "--out-dir", "x"], "at most 20 models in one run command, got 21"),
])
def test_bad_model_lists_are_one_line(fake, tmp_path, argv, message):
    code, out, err = models(fake, *argv)
    assert (code, out) == (2, "") and err.startswith("toolproof: ") and message in err and err.count("\n") == 1


def test_a_hostile_model_name_is_a_safe_file_name_and_inert_text(fake, tmp_path):
    hostile = "<script>alert(1)</script>/../../x\u202e`|"
    code, out, err = models(fake, "--model", f"{hostile},plain", "--out-dir", str(tmp_path), "--cap", "3",
                            "--html", str(tmp_path / "b.html"))
    assert code == 0, err
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["b.html", "openai-compatible-_script_alert_1_script_.._.._x.json", "openai-compatible-plain.json"]
    assert "\u202e" not in out + err and "\\u202e" in err      # (the board clips the long name before it)
    assert "<script>alert(1)</script>" in "".join(assert_inert((tmp_path / "b.html").read_text(encoding="utf-8")).text)


def test_one_model_run_writes_its_scorecard_as_html(fake, tmp_path):
    page = tmp_path / "run.html"
    code, out, err = models(fake, "--model", "<b>solo</b>", "--cap", "4", "--html", str(page))
    assert code == 0 and out.startswith("ToolProof scorecard - openai-compatible / <b>solo</b>")
    found = assert_inert(page.read_text(encoding="utf-8"))
    assert "ToolProof scorecard - openai-compatible / <b>solo</b>" in "".join(found.text) and "b" not in found.tags
    assert KEY not in page.read_text(encoding="utf-8")
