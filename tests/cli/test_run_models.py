"""`run --model a,b,c` and repeated --provider/--model pairs, against the local fake provider and
the misbehaving server: one results file per model in --out-dir, the need of every model said
before anything is sent, the cap per model, one model failing entirely while the others finish,
and nothing written over a file the command did not write."""
from __future__ import annotations

import io
import json
import os
import threading
import types
from pathlib import Path

import pytest

from fakeprovider import SUITE
from htmlcheck import assert_inert
from misbehaving import MisbehavingServer
from suitefigures import CASES, in_category
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
    calls = in_category("should_call")
    assert f"toolproof: openai-compatible / dead: no score, 0 of {calls} graded, exit 2" in err
    assert out.startswith("ToolProof leaderboard: 2 runs, same suite")
    assert out.splitlines()[0].endswith(f"{calls} of its {CASES} cases; 1 not ranked (no score)")
    rows = [line for line in out.splitlines() if "openai-compatible / " in line]
    assert "good" in rows[0] and "dead" in rows[1] and f"0 of {calls}" in rows[1]
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


# ---- the folder is held by a handle: a swap mid-run writes nothing outside it -----------------

def test_a_folder_swapped_for_a_symlink_mid_run_gets_every_file_and_nothing_lands_outside(fake, tmp_path):
    # Found by the third hostile-input round: --out-dir followed a folder swapped for a symlink
    # mid-run and replaced a file outside the target.
    runs, moved, elsewhere = tmp_path / "runs", tmp_path / "runs-moved", tmp_path / "elsewhere"
    elsewhere.mkdir()
    planted = {name: f"not mine to replace: {name}" for name in
               ("openai-compatible-a.json", "openai-compatible-b.json", "board.json")}
    for name, text in planted.items():
        (elsewhere / name).write_text(text, encoding="utf-8")
    reached, go = threading.Event(), threading.Event()
    first = next(c["id"] for c in SUITE if c["category"] == "must_ask")
    fake.script[first] = [("wait", reached, go)]          # model a's first request waits for the swap
    outcome = {}
    command = threading.Thread(target=lambda: outcome.update(result=cli(
        "run", "--provider", "openai-compatible", "--base-url", fake.base + "/v1", "--pause", "0",
        "--scope", "must_ask", "--model", "a,b", "--out-dir", str(runs), "--format", "json")))
    command.start()
    try:
        assert reached.wait(60)
        os.rename(runs, moved)                             # the folder moves away, a link takes its place
        os.symlink(elsewhere, runs)
    finally:
        go.set()
        command.join(120)
    code, out, err = outcome["result"]
    assert code == 0, err
    assert {p.name: p.read_text(encoding="utf-8") for p in elsewhere.iterdir()} == planted
    assert sorted(p.name for p in moved.iterdir()) == ["openai-compatible-a.json", "openai-compatible-b.json"]
    for name, model in (("openai-compatible-a.json", "a"), ("openai-compatible-b.json", "b")):
        doc = json.loads((moved / name).read_text(encoding="utf-8"))
        assert doc["model"] == model and doc["state"] == "done" and len(doc["transcripts"]) == in_category("should_call")
    board = json.loads(out)                                # read back through the handle, not the link
    assert [r["model"] for r in board["runs"]] == ["a", "b"]


def test_a_folder_that_is_a_symlink_is_refused_up_front(fake, tmp_path):
    (tmp_path / "real").mkdir()
    os.symlink(tmp_path / "real", tmp_path / "link")
    code, out, err = models(fake, "--model", "a,b", "--out-dir", str(tmp_path / "link"))
    assert (code, out) == (2, "")
    assert err == f"toolproof: {tmp_path / 'link'}: --out-dir: is a symbolic link; name the folder it points to\n"
    assert fake.requests == [] and list((tmp_path / "real").iterdir()) == []


def test_a_file_appearing_after_the_check_is_not_replaced(fake, tmp_path, monkeypatch):
    # the first write of each file makes it only if it is absent (O_EXCL through the handle)
    from toolproof.cli import models as models_module

    real_held = models_module._held

    def held_then_planted(folder, environ):
        held = real_held(folder, environ)
        (folder / "openai-compatible-b.json").write_text("planted after the check", encoding="utf-8")
        return held

    monkeypatch.setattr(models_module, "_held", held_then_planted)
    code, out, err = models(fake, "--model", "a,b", "--out-dir", str(tmp_path / "runs"), "--cap", "3")
    assert code == 2 and "openai-compatible-b.json: a file with this name appeared after the check" in err
    assert (tmp_path / "runs" / "openai-compatible-b.json").read_text(encoding="utf-8") == "planted after the check"


@pytest.mark.parametrize("home", ["", "relative/home", None])
@pytest.mark.parametrize("target", ["home", "parent"])
def test_an_empty_or_relative_home_is_unknown_and_the_password_databases_home_is_refused(fake, tmp_path, monkeypatch,
                                                                                          home, target):
    # Found by the third hostile-input round: with HOME empty, a parent of the home folder was
    # accepted. The password database is the test's (a home under tmp_path): were the rule to
    # break, the files would land there, not in the real home folder.
    from toolproof.cli import folder as folder_module

    own = tmp_path / "users" / "me"
    own.mkdir(parents=True)
    (own / "notes.txt").write_text("mine", encoding="utf-8")
    monkeypatch.setattr(folder_module, "pwd", types.SimpleNamespace(
        getpwuid=lambda uid: types.SimpleNamespace(pw_dir=str(own))))
    folder = own if target == "home" else own.parent
    environ = {**ENV, **({"HOME": home} if home is not None else {})}
    code, out, err = cli("run", "--provider", "openai-compatible", "--base-url", fake.base + "/v1",
                         "--model", "a,b", "--out-dir", str(folder), environ=environ)
    assert (code, out) == (2, "")
    assert err == (f"toolproof: {folder}: --out-dir: is the home folder, one of its parents or the file-system "
                   "root; choose a folder of its own, e.g. runs/\n")
    assert fake.requests == [] and [p.name for p in own.iterdir()] == ["notes.txt"]
    assert [p.name for p in own.parent.iterdir()] == ["me"]


def test_the_home_folders_known(monkeypatch, tmp_path):
    from toolproof.cli import folder

    pwd = pytest.importorskip("pwd")
    own = Path(pwd.getpwuid(os.getuid()).pw_dir)
    assert folder.home_folders({"HOME": ""}) == [own]
    assert folder.home_folders({"HOME": "rel"}) == [own]
    assert folder.home_folders({"HOME": str(tmp_path)}) == [tmp_path, own]
    monkeypatch.setattr(folder, "pwd", None)              # a platform without a password database
    assert folder.home_folders({}) == [] and folder.home_folders({"HOME": str(tmp_path)}) == [tmp_path]
    root = os.stat(os.path.abspath(os.sep))
    assert folder.broad_keys({"HOME": ""}) == {(root.st_dev, root.st_ino)}   # the root is always refused


def test_without_handles_the_folder_is_written_by_path(fake, tmp_path, monkeypatch):
    # a platform whose os calls take no dir_fd (Windows) writes as before, by path
    from toolproof.cli import models as models_module

    monkeypatch.setattr(models_module, "HELD", False)
    code, out, err = models(fake, "--model", "a,b", "--out-dir", str(tmp_path / "runs"), "--cap", "3")
    assert code == 0, err
    assert sorted(p.name for p in (tmp_path / "runs").iterdir()) == ["openai-compatible-a.json",
                                                                      "openai-compatible-b.json"]


@pytest.mark.parametrize("name, message", [
    ("afile", "--out-dir: exists and is not a folder"),
    ("afile/sub", "--out-dir: exists and is not a folder (afile on its path)"),
    ("x" * 300, "--out-dir: cannot use this path (File name too long)"),
    ("a\0b", "--out-dir: a file name cannot hold a NUL character"),
    (os.devnull, "--out-dir: exists and is not a folder"),
])
def test_a_malformed_folder_is_one_line(fake, tmp_path, monkeypatch, name, message):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "afile").write_text("mine", encoding="utf-8")
    code, out, err = models(fake, "--model", "a,b", "--out-dir", name)
    assert (code, out) == (2, "") and err.count("\n") == 1 and err.rstrip().endswith(message), err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["afile"] and (tmp_path / "afile").read_text() == "mine"
    assert fake.requests == []


def test_a_folder_that_cannot_be_made_is_one_line(fake, tmp_path, monkeypatch):
    def refuse(self, *args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "mkdir", refuse)
    code, out, err = models(fake, "--model", "a,b", "--out-dir", str(tmp_path / "runs"))
    assert (code, out) == (2, "") and fake.requests == []
    assert err.splitlines()[-1] == f"toolproof: {tmp_path / 'runs'}: --out-dir: cannot make the folder (Permission denied)"
