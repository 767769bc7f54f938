"""`python -m toolproof suite errata`: the check, a case's fingerprint, and a helper's entries with
their fingerprints filled in. It only prints: no file is written, data/errata.json least of all.

Each test checks against errata it writes (a baseline of data/suite.json as it is now), so what
data/errata.json holds while others change cases pins nothing here; tests/suite/test_errata.py
holds the committed file to the suite."""
from __future__ import annotations

import json
from pathlib import Path

from clirun import cli
from toolproof.datafiles import DATA, read_json
from toolproof.suite.errata import fingerprints

SUITE = read_json(DATA / "suite.json")
FIRST = SUITE["cases"][0]["id"]


def changed_suite(tmp_path: Path) -> Path:
    """The suite with its first case's expected action changed (a copy in tmp_path)."""
    doc = read_json(DATA / "suite.json")
    doc["cases"][0]["expect"]["action"] = "no_call"
    doc["cases"][0]["expect"].pop("calls", None)
    path = tmp_path / "suite.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def baseline(tmp_path: Path) -> str:
    """Errata whose baseline is data/suite.json as it is now, with no entry: their path."""
    path = tmp_path / "errata.json"
    path.write_text(json.dumps({"format": "toolproof.errata", "version": 1,
                                "baseline": {"date": "2026-12-06", "suite_sha256": "a" * 64,
                                             "cases": fingerprints(SUITE)}, "entries": []}), encoding="utf-8")
    return str(path)


def test_the_check_passes_when_nothing_changed(tmp_path):
    code, out, err = cli("suite", "errata", "--errata", baseline(tmp_path))
    assert (code, err) == (0, "")
    assert out == f"suite errata: ok ({len(SUITE['cases'])} cases, 0 entries)\n"


def test_a_change_without_an_entry_fails_the_check_and_names_the_case(tmp_path):
    suite = changed_suite(tmp_path)
    code, out, err = cli("suite", "errata", "--suite", str(suite), "--errata", baseline(tmp_path))
    now = fingerprints(read_json(suite))[FIRST]
    assert (code, err) == (1, "")
    assert out.splitlines()[0] == f"{FIRST} {now}: changed since the baseline (2026-12-06) without an entry"
    assert len(out.splitlines()) == 2
    assert "python -m toolproof suite errata --entries FILE" in out.splitlines()[-1]


def test_case_ids_print_their_fingerprints():
    second = SUITE["cases"][1]["id"]
    code, out, _ = cli("suite", "errata", FIRST, second)
    sha = fingerprints(SUITE)
    assert (code, out) == (0, f"{FIRST} {sha[FIRST]}\n{second} {sha[second]}\n")
    code, out, err = cli("suite", "errata", "no-such-case")
    assert (code, out, err) == (2, "", "toolproof: the suite has no case 'no-such-case'\n")


def test_entries_get_their_fingerprints_and_what_is_still_missing_is_said(tmp_path):
    suite = changed_suite(tmp_path)
    helper = tmp_path / "helper.json"
    helper.write_text(json.dumps([{"case": FIRST, "date": "2026-12-06", "changed": "now asks", "why": "w"}]))
    before = helper.read_bytes(), (DATA / "errata.json").read_bytes()
    errata = baseline(tmp_path)
    code, out, err = cli("suite", "errata", "--entries", str(helper), "--suite", str(suite), "--errata", errata)
    assert (code, err) == (0, "")
    assert json.loads(out) == [{"case": FIRST, "date": "2026-12-06", "changed": "now asks", "why": "w",
                                "expect_sha256": fingerprints(read_json(suite))[FIRST]}]
    assert (helper.read_bytes(), (DATA / "errata.json").read_bytes()) == before     # printed, never written
    # against the unchanged suite the entry records the baseline's fingerprint, and nothing is left
    code, out, err = cli("suite", "errata", "--entries", str(helper), "--errata", errata)
    assert (code, err) == (0, "")
    # an entry for a case the suite lacks, and entries that are not a list, are refused by path
    helper.write_text(json.dumps([{"case": "nope", "date": "2026-12-06", "changed": "c", "why": "w"}]))
    code, out, err = cli("suite", "errata", "--entries", str(helper))
    assert (code, out, err) == (2, "", f"toolproof: {helper}: at $[0].case: the suite has no case 'nope'\n")
    helper.write_text(json.dumps({"entries": []}))
    code, out, err = cli("suite", "errata", "--entries", str(helper))
    assert (code, out) == (2, "") and err.startswith(f"toolproof: {helper}: at $: ")


def test_entries_that_leave_a_case_uncovered_say_so_on_stderr(tmp_path):
    suite = changed_suite(tmp_path)
    doc = read_json(suite)
    doc["cases"][1]["prompt"] += " Thanks!"
    suite.write_text(json.dumps(doc))
    helper = tmp_path / "helper.json"
    helper.write_text(json.dumps([{"case": FIRST, "date": "2026-12-06", "changed": "c", "why": "w"}]))
    code, out, err = cli("suite", "errata", "--entries", str(helper), "--suite", str(suite),
                         "--errata", baseline(tmp_path))
    assert code == 0 and len(json.loads(out)) == 1
    assert err == f"toolproof: still without an entry once these are added: {SUITE['cases'][1]['id']}\n"


def test_ids_and_entries_together_are_a_usage_error(tmp_path):
    code, out, err = cli("suite", "errata", FIRST, "--entries", str(tmp_path / "x.json"))
    assert (code, out, err) == (2, "", "toolproof: give case ids or --entries, not both\n")
