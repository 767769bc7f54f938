"""Never overwrite an input: every verb with an output flag refuses, in one line and before it
reads, sends or writes anything, an output that is one of its inputs (however it is spelt:
relative or absolute, `./x`, a symlink, a hard link), two outputs that are one file, and an
output inside ToolProof's own data/ (files.check_outputs).

Found by the third hostile-input round: `--html`, `--markdown` or `--junit` given the results
file's own path replaced it on grade, run and compare (6 of 6 tries, exit 0); board refused it.
"""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from clirun import cli, cli_with
from toolproof.cli.files import check_outputs, file_key
from toolproof.datafiles import DATA
from toolproof.errors import ToolProofError

ENV = {"TOOLPROOF_API_KEY": "sk-outputs-secret-7"}


@pytest.fixture()
def folder(tmp_path, monkeypatch):
    """A folder holding a results file (r.json, a second one b.json), the suite, tools and
    errata, with the test run from inside it (so bare names are relative)."""
    for name, source in (("r.json", "fixtures.json"), ("b.json", "fixtures.json"), ("s.json", "suite.json"),
                         ("t.json", "tools.json"), ("e.json", "errata.json")):
        shutil.copyfile(DATA / source, tmp_path / name)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def snapshot(folder: Path) -> dict:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def spellings(folder: Path, name: str) -> dict:
    """Other names of `folder/name`: relative, ./, absolute, through .., a symlink, a hard link,
    and a symlink to a symlink."""
    os.symlink(name, folder / "link.json")
    os.link(folder / name, folder / "hard.json")
    os.symlink("link.json", folder / "link2.json")
    return {"bare": name, "dot": f"./{name}", "absolute": str(folder / name),
            "dotdot": f"../{folder.name}/{name}", "symlink": "link.json", "hard-link": "hard.json",
            "symlink-chain": "link2.json"}


SPELLINGS = ["bare", "dot", "absolute", "dotdot", "symlink", "hard-link", "symlink-chain"]


@pytest.mark.parametrize("spelt", SPELLINGS)
@pytest.mark.parametrize("verb, argv, what", [
    ("grade", ["--transcripts", "r.json"], "the transcripts file"),
    ("compare", ["b.json", "r.json"], "results file B"),
    ("compare", ["r.json", "b.json"], "results file A"),
])
@pytest.mark.parametrize("flag", ["--html", "--markdown", "--junit"])
def test_a_report_never_replaces_the_results_it_reports_on(folder, verb, argv, what, flag, spelt):
    target = spellings(folder, "r.json")[spelt]
    before = snapshot(folder)
    code, out, err = cli(verb, *argv, flag, target)
    assert (code, out) == (2, "")
    assert err == f"toolproof: {target}: {flag} names {what} this command reads; choose another path\n"
    assert snapshot(folder) == before


@pytest.mark.parametrize("flag, read, what", [
    ("--html", ["--suite", "s.json", "--tools", "t.json"], "the suite file"),
    ("--junit", ["--suite", "s.json", "--tools", "t.json"], "the tools file"),
    ("--markdown", ["--errata", "e.json"], "the errata file"),
])
def test_grade_never_replaces_its_suite_tools_or_errata(folder, flag, read, what):
    target = {"the suite file": "s.json", "the tools file": "t.json", "the errata file": "./e.json"}[what]
    before = snapshot(folder)
    code, out, err = cli("grade", "--transcripts", "r.json", *read, flag, target)
    assert (code, out, err) == (2, "", f"toolproof: {target}: {flag} names {what} this command reads; "
                                       "choose another path\n")
    assert snapshot(folder) == before


def test_the_default_inputs_are_inputs_too(folder):
    # with no --transcripts, grade reads the packaged fixtures: an --html naming them is refused
    # (and so is any other output inside ToolProof's own data/, which no verb may write)
    fixtures, report = DATA / "fixtures.json", DATA / "new-report.md"
    before = fixtures.read_bytes()
    try:
        code, _, err = cli("grade", "--html", str(fixtures))
        assert code == 2 and err == (f"toolproof: {fixtures}: --html names the transcripts file this command "
                                     "reads; choose another path\n")
        code, _, err = cli("grade", "--markdown", str(report))
        assert code == 2 and "--markdown: refusing to write into ToolProof's own data folder" in err
    finally:                            # were the rule ever to break, the suite's data is put back
        changed, made = fixtures.read_bytes() != before, report.exists()
        if changed:
            fixtures.write_bytes(before)
        if made:
            report.unlink()
    assert not changed and not made


@pytest.mark.parametrize("argv, message", [
    (["grade", "--html", "x.html", "--markdown", "./x.html"], "x.html: --html and --markdown name the same file"),
    (["grade", "--junit", "x.xml", "--markdown", "x.xml"], "x.xml: --markdown and --junit name the same file"),
    (["compare", "r.json", "b.json", "--junit", "c", "--html", "link-to-c"], "link-to-c: --html and --junit name the same file"),
    (["board", "r.json", "b.json", "--out", "board.txt", "--html", "./board.txt"],
     "./board.txt: --html and --out name the same file"),
])
def test_two_outputs_naming_one_file_are_refused(folder, argv, message):
    os.symlink("c", folder / "link-to-c")          # dangling: the file it names is yet to be written
    before = snapshot(folder)
    code, out, err = cli(*argv)
    assert (code, out) == (2, "") and err == f"toolproof: {message}; choose a path for each\n"
    assert snapshot(folder) == before and not (folder / "c").exists()


def test_outputs_that_keep_both_texts_may_share_a_name(folder):
    # /dev/null (or a terminal, or a pipe) takes both reports: nothing is lost, nothing refused
    code, _, err = cli("grade", "--transcripts", "r.json", "--junit", os.devnull, "--markdown", os.devnull)
    assert (code, err) == (0, "")


@pytest.mark.parametrize("flag", ["--out", "--html"])
def test_board_names_one_of_its_results_files_however_spelt(folder, flag):
    target = spellings(folder, "b.json")["hard-link"]
    before = snapshot(folder)
    code, out, err = cli("board", "r.json", "b.json", flag, target)
    assert (code, out) == (2, "")
    assert err == f"toolproof: {target}: {flag} names one of the results files this command reads; choose another path\n"
    assert snapshot(folder) == before


@pytest.mark.parametrize("argv, target, message", [
    (["--suite", "s.json", "--tools", "t.json", "--out", "./s.json"], "./s.json", "--out names the suite file"),
    (["--suite", "s.json", "--tools", "t.json", "--html", "t.json"], "t.json", "--html names the tools file"),
    (["--out", "x.json", "--markdown", "x.json"], "x.json", "--markdown and --out name the same file"),
    (["--model", "a,b", "--out-dir", "runs", "--markdown", "runs/openai-compatible-b.json"],
     "runs/openai-compatible-b.json", "--markdown and --out-dir name the same file"),
    (["--model", "a,b", "--out-dir", ".", "--suite", "s.json", "--html", "s.json"], "s.json",
     "--html names the suite file"),
])
def test_run_refuses_before_any_request_is_sent(folder, fake, argv, target, message):
    fake.requests.clear()
    before = snapshot(folder)
    code, out, err = cli_with(ENV)("run", "--provider", "openai-compatible", "--base-url", fake.base + "/v1",
                                   "--pause", "0", "--scope", "must_ask", *(["--model", "m"] if "--model" not in argv
                                                                            else []), *argv)
    assert (code, out) == (2, "") and err.startswith(f"toolproof: {target}: {message}"), err
    assert fake.requests == [] and snapshot(folder) == before and not (folder / "runs").exists()


def test_run_out_dir_holding_the_suite_names_it(folder, fake):
    # a suite kept where a model's results file would go: refused as the suite, not as "exists"
    (folder / "runs").mkdir()
    shutil.copyfile(folder / "s.json", folder / "runs" / "openai-compatible-a.json")
    fake.requests.clear()
    code, _, err = cli_with(ENV)("run", "--provider", "openai-compatible", "--base-url", fake.base + "/v1",
                                 "--model", "a,b", "--out-dir", "runs", "--suite", "runs/openai-compatible-a.json",
                                 "--tools", "t.json")
    assert code == 2 and "--out-dir names the suite file this command reads" in err and fake.requests == []


def test_tools_import_never_replaces_its_source(folder):
    (folder / "src.json").write_text(json.dumps({"tools": [     # an MCP tools/list result
        {"name": "get_weather", "description": "weather", "inputSchema": {"type": "object"}}]}))
    before = snapshot(folder)
    for target in ("src.json", "./src.json", str(folder / "src.json")):
        code, out, err = cli("tools", "import", "t.json", "src.json", "--out", target, "--force")
        assert (code, out) == (2, "")
        assert err == f"toolproof: {target}: --out names a SOURCE file this command reads; choose another path\n"
    assert snapshot(folder) == before
    assert cli("tools", "import", "src.json", "--out", "new.json")[0] == 0      # another path is fine


def test_suite_import_bfcl_never_replaces_a_bfcl_file(folder):
    data = folder / "bfcl"
    data.mkdir()
    entry = {"id": "irrelevance_0", "question": [[{"role": "user", "content": "Capital of France?"}]],
             "function": [{"name": "area", "description": "area", "parameters": {"type": "dict", "properties": {
                 "base": {"type": "integer", "description": "base"}}, "required": ["base"]}}]}
    (data / "BFCL_v4_irrelevance.json").write_text(json.dumps(entry) + "\n")
    os.link(data / "BFCL_v4_irrelevance.json", data / "suite.json")     # the output's name, the input's inode
    before = (data / "BFCL_v4_irrelevance.json").read_bytes()
    code, _, err = cli("suite", "import-bfcl", str(data), "--category", "irrelevance", "--out", str(data), "--force")
    assert code == 2 and err == (f"toolproof: {data / 'suite.json'}: --out names a BFCL file this command reads; "
                                 "choose another path\n")
    assert (data / "BFCL_v4_irrelevance.json").read_bytes() == before and not (data / "tools.json").exists()


# ---- the rule itself ---------------------------------------------------------------------------

def test_file_key_is_one_file_however_spelt(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x").write_text("x")
    os.link("x", "hard")
    os.symlink("x", "soft")
    keys = {file_key(p) for p in ("x", "./x", str(tmp_path / "x"), "hard", "soft", f"../{tmp_path.name}/x")}
    assert len(keys) == 1
    assert file_key("new") == file_key("./new") != file_key("x")       # a file yet to be written: its real path
    assert file_key("a\x00b") == ("path", "a\x00b")                    # malformed: matches nothing on disk


def test_check_outputs_skips_flags_not_given_and_names_the_first_clash():
    check_outputs([("--html", None)], [("the suite file", None)])
    with pytest.raises(ToolProofError) as caught:
        check_outputs([("--junit", "same"), ("--html", "same"), ("--markdown", "same")])
    assert caught.value.line() == "same: --html and --junit name the same file; choose a path for each"


def test_run_out_never_replaces_an_earlier_file_without_force(folder):
    """`run --out FILE` over an existing file (an earlier run's results, typed again) is refused
    in one line before anything is sent, and the file is untouched; --force lets it replace it."""
    before = snapshot(folder)
    argv = ["run", "--provider", "openai-compatible", "--base-url", "http://127.0.0.1:9/v1",
            "--model", "m", "--cap", "1", "--out", "b.json"]
    code, out, err = cli(*argv, environ=ENV)
    assert code == 2 and out == ""
    assert err.strip() == "toolproof: b.json: --out: the file exists; choose a new path, or add --force to replace it"
    assert snapshot(folder) == before
    code, out, err = cli(*argv, "--force", environ=ENV)
    assert "the file exists" not in err
    assert json.loads((folder / "b.json").read_text())["kind"] == "live"


@pytest.mark.parametrize("argv", [
    ["grade", "--markdown", ""], ["grade", "--junit", "no-such-folder/x.xml"],
    ["run", "--provider", "openai-compatible", "--base-url", "http://127.0.0.1:9/v1", "--model", "m", "--out", ""],
    ["run", "--provider", "openai-compatible", "--base-url", "http://127.0.0.1:9/v1", "--model", "m", "--out-dir", ""],
    ["run", "--provider", "openai-compatible", "--base-url", "http://127.0.0.1:9/v1", "--model", "m",
     "--markdown", "no-such-folder/x.md"],
])
def test_an_output_that_could_not_be_written_is_refused_before_anything_runs(folder, argv):
    """An empty path, or a report in a folder that does not exist, was found only after the whole
    run (every request sent, then "cannot write report"), or silently ignored (--out '')."""
    before = snapshot(folder)
    code, out, err = cli(*argv, environ=ENV)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1, err
    assert "empty path" in err or "no such folder" in err
    assert snapshot(folder) == before


def test_a_hard_link_to_a_file_of_data_is_refused_as_an_output(folder):
    """Another name (a hard link) for data/fixtures.json: a report written to it replaced the
    packaged fixtures (selftest then failed)."""
    try:
        os.link(DATA / "fixtures.json", folder / "linked.json")
    except OSError:
        pytest.skip("data/ is on another file system here")
    before = (DATA / "fixtures.json").read_bytes()
    code, _, err = cli("grade", "--transcripts", "r.json", "--markdown", "linked.json", environ=ENV)
    assert code == 2 and "data folder" in err, err
    assert (DATA / "fixtures.json").read_bytes() == before


@pytest.mark.parametrize("out", ["/", ""])
def test_import_bfcl_never_writes_into_the_root_or_an_empty_path(folder, out):
    """suite import-bfcl --out / wrote /suite.json and /tools.json (exit 0); --out-dir already
    refused the root and the home folder, by the same check now."""
    code, _, err = cli("suite", "import-bfcl", str(folder), "--category", "live_simple", "--out", out, environ=ENV)
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert not os.path.exists("/suite.json") or out != "/"
