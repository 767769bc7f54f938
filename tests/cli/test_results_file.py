"""The results file of `run --out` as the run writes it (cli/results_file.py): each save writes the
new line and the tail only, the last save writes plan order, a kill at any moment leaves a file
every reader opens, and the file is planned against the reading limit before anything is sent."""
from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from clirun import cli_with
from suitefigures import in_category
from toolproof.cli import live as live_module
from toolproof.cli.results_file import ResultsFile
from toolproof.datafiles import DATA, load_suite_files, read_json
from toolproof.errors import ToolProofError
from toolproof.grading.results_text import ResultsText, results_text
from toolproof.running.results_size import planned
from toolproof.running.runner import Run, RunSettings
from toolproof.suite.model import BASE

KEY = "sk-results-file-7"
ENV = {"TOOLPROOF_API_KEY": KEY}
ROOT = Path(__file__).resolve().parents[2]
BUNDLE = load_suite_files()
# the committed fixtures (real case ids, so a file of them grades), one per case
FIXTURES = [t for t in read_json(DATA / "fixtures.json")["transcripts"] if "phrasing" not in t]

cli = cli_with(ENV)


def live(fake, *argv: str):
    return cli("run", "--provider", "openai-compatible", "--base-url", fake.base + "/v1", "--model", "fake",
               "--pause", "0", *argv)


def document(transcripts: list, state: str = "running") -> dict:
    return {"format": "toolproof.transcripts", "version": 1, "kind": "live", "label": "", "provider": "openai",
            "model": "m", "created": "2026-12-06T00:00:00+00:00", "scope": "all", "cap": 999,
            "requests_used": len(transcripts), "state": state, "error": "", "settings": {"repeats": 1},
            "transcripts": list(transcripts)}


def test_each_save_writes_the_new_line_and_the_tail_only(tmp_path):
    path = tmp_path / "r.json"
    results = ResultsFile(str(path))
    results.save(document([]))
    first = results.bytes_written
    assert first == path.stat().st_size
    pieces = ResultsText()              # what each save must add: the new line and the tail
    pieces.head(document([]))
    for n in range(1, len(FIXTURES) + 1):
        before = results.bytes_written
        results.save(document(FIXTURES[:n]))
        line = pieces.item(FIXTURES[n - 1]).encode("utf-8")
        assert results.bytes_written - before == len(line) + len(pieces.close(document(FIXTURES[:n])).encode("utf-8"))
        assert path.stat().st_size == results.size
    final = document(FIXTURES, "done")
    before = results.bytes_written
    results.finish(final)               # already in plan order: only the tail again
    assert results.bytes_written - before == len(pieces.close(final).encode("utf-8"))
    assert path.read_text(encoding="utf-8") == results_text(final)
    # linear: every byte about once (rewriting the file per case wrote the sum of its sizes)
    assert results.bytes_written < 1.1 * path.stat().st_size + 120 * len(FIXTURES)
    assert results.bytes_written * 20 < sum(len(results_text(document(FIXTURES[:n]))) for n in range(len(FIXTURES)))


def test_the_last_save_writes_plan_order(tmp_path):
    path = tmp_path / "r.json"
    results = ResultsFile(str(path))
    a, b, c = FIXTURES[:3]
    results.save(document([]))
    results.save(document([b]))                     # b finished first, then c, then a
    results.save(document([b, c]))
    results.save(document([a, b, c]))
    d, e = FIXTURES[3:5]
    results.save(document([a, b, d, c, e]))         # two at once (a save skipped): looked up in full
    results.save(document([a, b, d, c, e]))         # nothing new: the tail only
    assert [t["case_id"] for t in read_json(path)["transcripts"]] == [t["case_id"] for t in (b, c, a, d, e)]
    written, left = results.finish(document([a, b, d, c, e], "done"))
    assert left == 0 and written["transcripts"] == [a, b, d, c, e]
    assert path.read_text(encoding="utf-8") == results_text(document([a, b, d, c, e], "done"))
    assert not list(tmp_path.glob(".toolproof-*"))                  # no temp file left behind


def test_a_file_cut_anywhere_in_its_last_write_reads_back_and_grades(tmp_path):
    path = tmp_path / "r.json"
    results = ResultsFile(str(path))
    results.save(document([]))
    for n in range(1, 8):
        results.save(document(FIXTURES[:n]))
    before_last = path.stat().st_size - len(ResultsText().close(document(FIXTURES[:7])).encode("utf-8"))
    before_last -= len(json.dumps(FIXTURES[6], ensure_ascii=False, separators=(",", ":")).encode("utf-8")) + 2
    data = path.read_bytes()
    cut_file = tmp_path / "cut.json"
    graded = 0
    for cut in range(before_last - 40, len(data)):        # every byte of the last write, and before it
        cut_file.write_bytes(data[:cut])
        doc = read_json(cut_file)
        kept = len(doc["transcripts"])
        whole = 5 + (cut >= before_last) + (cut >= before_last + 2 + len(json.dumps(
            FIXTURES[6], ensure_ascii=False, separators=(",", ":")).encode("utf-8")))
        assert kept == whole and (doc["state"] == "cut short") == (cut < len(data) - 1)
        if cut % 211 == 0 or cut == before_last:          # a sample through the whole grader (slow)
            code, stdout, stderr = cli("grade", "--transcripts", str(cut_file))
            assert (code, stderr) == (0, "")
            assert f"Note: this results file was cut short while the run wrote it (killed, or the disk full): {kept} " \
                   "whole transcripts read" in stdout
            graded += 1
    assert graded >= 2


def wait_for(path: Path, transcripts: int, process) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and process.poll() is None:
        if path.exists() and len(read_json(path)["transcripts"]) >= transcripts:
            return
        time.sleep(0.02)
    raise AssertionError(f"{transcripts} transcripts never reached {path}")


@pytest.mark.parametrize("kill_after", [1, 4])
def test_a_run_killed_with_sigkill_leaves_a_file_that_grades(fake, tmp_path, kill_after):
    for case in BUNDLE.cases:               # each case answers after a little while, so the run is mid-way
        fake.script[case.id] = [("sleep", 0.05)] * 40
    out = tmp_path / "r.json"
    command = [sys.executable, "-m", "toolproof", "run", "--provider", "openai-compatible", "--base-url",
               fake.base + "/v1", "--model", "m", "--cap", "600", "--repeats", "2", "--concurrency", "4",
               "--pause", "0", "--out", str(out)]
    env = {**os.environ, **ENV, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for(out, kill_after, process)
        process.kill()
    finally:
        process.wait(timeout=30)
    doc = read_json(out)
    assert doc["state"] in ("running", "cut short") and len(doc["transcripts"]) >= kill_after
    code, stdout, stderr = cli("grade", "--transcripts", str(out), "--format", "json")
    assert (code, stderr) == (0, "")
    assert json.loads(stdout)["coverage"]["graded"] + json.loads(stdout)["coverage"]["error"] == len(doc["transcripts"])


def test_a_plan_over_the_reading_limit_is_refused_before_anything_is_sent(fake, tmp_path):
    out = tmp_path / "r.json"
    # every case x 20 repeats x 4 pad levels (10,880 conversations at 136 cases), planned far over 20 MB
    code, stdout, stderr = live(fake, "--pad", "0,8,16,24", "--repeats", "20", "--cap", "50000", "--out", str(out))
    assert (code, stdout) == (2, "")
    line = stderr.splitlines()[-1]
    assert line.startswith("toolproof: --out: this plan's results file would take about ") and " MB, over the 20 MB" in line
    assert line.endswith(" MB, over the 20 MB every reader of results files accepts; send less in one run "
                         "(fewer --repeats or --phrasings, a --scope) or split it into several runs")
    assert not fake.requests and not out.exists()


def test_several_models_are_refused_before_any_is_sent(fake, tmp_path):
    code, _, stderr = cli("run", "--provider", "openai-compatible", "--base-url", fake.base + "/v1",
                          "--model", "a,b", "--cap", "50000", "--repeats", "20", "--pad", "0,8,16,24",
                          "--out-dir", str(tmp_path / "runs"))
    assert code == 2 and "this plan's results file would take about" in stderr
    assert not fake.requests and not (tmp_path / "runs").exists()


def planned_bytes(scope: str, cap: int, repeats: int = 1) -> int:
    settings = RunSettings("openai-compatible", "fake", KEY, "http://127.0.0.1:1/v1", scope, cap, repeats=repeats)
    return planned(Run(BUNDLE.cases, BUNDLE.tools, settings, None)).file_bytes


def test_replies_larger_than_planned_stop_the_run_and_the_file_still_reads(fake, tmp_path, monkeypatch):
    cases = [c for c in BUNDLE.cases if c.category == "should_not_call"]
    huge = json.dumps({"id": "x", "object": "chat.completion", "model": "fake", "choices": [
        {"index": 0, "message": {"role": "assistant", "content": "No tool needed. " * 2000}, "finish_reason": "stop"}]})
    for case in cases:
        fake.script[case.id] = [(200, {}, huge)] * 10
    limit = planned_bytes("should_not_call", 100, repeats=3) + 100_000       # room for about three such replies
    # the writer's limit lowered (the readers' 20 MB would take replies of megabytes to reach)
    monkeypatch.setattr(live_module, "ResultsFile", functools.partial(ResultsFile, limit=limit))
    out = tmp_path / "r.json"
    code, stdout, stderr = live(fake, "--scope", "should_not_call", "--repeats", "3", "--cap", "100",
                                "--out", str(out), "--format", "json")
    assert code == 2, stderr
    assert "toolproof: the results file is at " in stderr and "near the " in stderr
    doc = read_json(out)
    assert out.stat().st_size <= limit
    assert doc["state"] == "error" and doc["error"].startswith("the results file is at ")
    planned = 3 * in_category("should_not_call")
    assert 0 < len(doc["transcripts"]) < planned and len(doc["transcripts"]) + len(doc["not_started"]) == planned
    assert all(e["reason"].startswith("the run stopped: the results file is at ") for e in doc["not_started"])
    code, regraded, err = cli("grade", "--transcripts", str(out), "--format", "json")
    assert (code, err) == (0, "") and regraded == stdout


def test_what_still_does_not_fit_is_left_out_of_the_file_and_listed(tmp_path):
    path = tmp_path / "r.json"
    full = document(FIXTURES, "done")
    limit = len(results_text(full).encode("utf-8")) // 2
    results = ResultsFile(str(path), limit=limit)
    results.save(document([]))
    for n in range(1, len(FIXTURES) + 1):
        results.save(document(FIXTURES[:n]))
        assert path.stat().st_size <= limit                 # a line that would pass it is not appended
    assert results.full
    written, left = results.finish(full)
    assert left and path.stat().st_size <= limit
    back = read_json(path)
    assert back["state"] == "error" and len(back["transcripts"]) == len(FIXTURES) - left
    assert len(back["not_started"]) == left and back == json.loads(results_text(written))


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_an_unwritable_file_is_one_line(tmp_path):
    path = tmp_path / "r.json"
    results = ResultsFile(str(path))
    results.save(document([]))
    results._handle.close()
    results._handle = open("/dev/full", "r+b", buffering=0)       # a disk that refuses to write
    with pytest.raises(ToolProofError) as raised:
        results.save(document(FIXTURES[:1]))
    assert raised.value.line() == f"{path}: cannot write the results file (Invalid argument)"
    results.close()


def test_repeats_20_of_every_phrasing_write_a_file_every_reader_opens(fake, tmp_path):
    # the whole suite at --repeats 20 --phrasings all (4,460 conversations) is benchmarks/results_write.py's
    out = tmp_path / "r.json"
    code, stdout, stderr = live(fake, "--scope", "should_call", "--repeats", "20", "--phrasings", "all",
                                "--cap", "2000", "--concurrency", "8", "--out", str(out), "--format", "json",
                                "--allow-incomplete")
    assert code == 0, stderr
    doc = read_json(out)
    order = [(t["case_id"], t.get("phrasing", BASE), t["repeat"]) for t in doc["transcripts"]]
    plan = [(c.id, p, r) for c in BUNDLE.cases if c.category == "should_call"
            for p in [BASE] + [x.id for x in c.phrasings] for r in range(20)]
    assert order == plan and doc["version"] == 2 and doc["state"] == "done"
    assert out.stat().st_size < 4_000 * len(plan)                # references: 15.9 KB each as version 1
    code, regraded, err = cli("grade", "--transcripts", str(out), "--format", "json")
    assert (code, err) == (0, "") and regraded == stdout
    code, _, err = cli("board", str(out), "--format", "json")
    assert (code, err) == (0, "")
    code, _, err = cli("compare", str(out), str(out), "--format", "json")
    assert (code, err) == (0, "")


def test_the_first_save_never_replaces_a_file_that_appeared_after_the_check(tmp_path):
    """Two runs started with one --out both passed the command's check: the second to save is
    refused in one line (it never replaces the other's file); --force (replace=True) may."""
    path = tmp_path / "race.json"
    path.write_text('{"theirs": true}')
    with pytest.raises(ToolProofError) as refused:
        ResultsFile(str(path)).save(document([]))
    assert "appeared after the check" in refused.value.line()
    assert path.read_text() == '{"theirs": true}'
    forced = ResultsFile(str(path), replace=True)
    forced.save(document([]))
    forced.close()
    assert json.loads(path.read_text())["kind"] == "live"


def test_a_file_moved_away_mid_run_gets_the_rest_and_the_new_file_at_the_path_is_left(tmp_path):
    """A run's file moved away (and another run's file put at the path) while the run goes: the
    last save writes into the run's own file, wherever it is, and never over the other file."""
    path, moved = tmp_path / "res.json", tmp_path / "moved.json"
    results = ResultsFile(str(path))
    results.save(document(FIXTURES[:1]))
    os.replace(path, moved)
    path.write_text('{"other run": true}')
    written, left_out = results.finish(document(FIXTURES[:2], state="done"))
    assert results.moved and left_out == 0
    assert path.read_text() == '{"other run": true}'
    assert json.loads(moved.read_text())["state"] == "done"
