"""`grade` of an older results file says which errata apply to it: one line each in the text, and
`errata` on the JSON card (valid against data/schemas/scorecard.schema.json).

The results file is tests/fixtures/older_results.json, a fixture labelled as one (created
2026-11-20, three cases graded, a suite fingerprint that matches no suite); the errata are written
by each test, so data/errata.json, which others are filling, pins nothing here.
"""
from __future__ import annotations

import json
from pathlib import Path

import jsonschema

from clirun import cli
from toolproof.datafiles import DATA, format_schema, read_json
from toolproof.suite.errata import fingerprints
from toolproof.suite.fingerprint import suite_sha256

OLDER = Path(__file__).resolve().parents[1] / "fixtures" / "older_results.json"
SUITE = read_json(DATA / "suite.json")


def errata_file(tmp_path: Path) -> Path:
    path = tmp_path / "errata.json"
    entries = [("sc-transfer-to-savings", "2026-11-01", "before the run"),
               ("sc-reminder-prescription", "2026-11-20", "remind_at now accepts 17:30:00"),
               ("sc-email-venue-contract", "2026-12-01", "the email body must state the date"),
               ("ask-table-no-date", "2026-12-01", "a case the file did not grade")]
    sha = fingerprints(SUITE)
    path.write_text(json.dumps({
        "format": "toolproof.errata", "version": 1,
        "baseline": {"date": "2026-10-01", "suite_sha256": "1" * 64, "cases": sha},
        "entries": [{"case": c, "date": d, "changed": what, "why": "a test's entry", "expect_sha256": sha[c]}
                    for c, d, what in entries]}), encoding="utf-8")
    return path


def results_file(tmp_path: Path, **over) -> Path:
    path = tmp_path / "results.json"
    path.write_text(json.dumps({**read_json(OLDER), **over}), encoding="utf-8")
    return path


def test_grade_of_an_older_results_file_lists_the_errata_that_apply(tmp_path):
    code, out, err = cli("grade", "--transcripts", str(OLDER), "--errata", str(errata_file(tmp_path)))
    assert (code, err) == (0, "")
    lines = out.splitlines()
    start = lines.index("Errata: 2 changes to what these cases expect came after this results file was made; "
                        "their verdicts use the expectations as they are now:")
    assert lines[start + 1:start + 3] == [
        "  sc-reminder-prescription (2026-11-20): remind_at now accepts 17:30:00",
        "  sc-email-venue-contract (2026-12-01): the email body must state the date"]


def test_the_json_card_carries_them_and_matches_its_schema(tmp_path):
    code, out, err = cli("grade", "--format", "json", "--transcripts", str(OLDER),
                         "--errata", str(errata_file(tmp_path)))
    assert (code, err) == (0, "")
    card = json.loads(out)
    assert [(e["case"], e["date"]) for e in card["errata"]] == [
        ("sc-reminder-prescription", "2026-11-20"), ("sc-email-venue-contract", "2026-12-01")]
    assert list(card)[-1] == "errata" and card["errata"][0]["why"] == "a test's entry"
    jsonschema.validate(card, format_schema("scorecard"))


def test_a_run_of_the_suite_graded_now_gets_no_errata(tmp_path):
    same = results_file(tmp_path, suite_sha256=suite_sha256(SUITE))
    code, out, _ = cli("grade", "--format", "json", "--transcripts", str(same), "--errata", str(errata_file(tmp_path)))
    assert code == 0 and "errata" not in json.loads(out)


def test_the_committed_fixtures_get_none_and_a_scorecard_without_errata_stays_valid():
    code, out, _ = cli("grade", "--format", "json")
    card = json.loads(out)
    assert code == 0 and "errata" not in card
    jsonschema.validate(card, format_schema("scorecard"))


def test_a_suite_of_ones_own_reads_no_errata_unless_asked(tmp_path):
    suite = tmp_path / "suite.json"
    suite.write_text(json.dumps(SUITE), encoding="utf-8")
    broken = tmp_path / "broken.json"
    broken.write_text("{", encoding="utf-8")
    code, out, err = cli("grade", "--transcripts", str(OLDER), "--suite", str(suite))
    assert (code, err) == (0, "") and "Errata" not in out
    code, _, err = cli("grade", "--transcripts", str(OLDER), "--suite", str(suite), "--errata", str(broken))
    assert code == 2 and err == f"toolproof: {broken}: not valid JSON: Expecting property name enclosed in " \
                                "double quotes (line 1, column 2)\n"


def test_hostile_errata_are_refused_in_one_line(tmp_path):
    path = errata_file(tmp_path)
    doc = read_json(path)
    doc["entries"][1]["changed"] = "all fine\x1b]0;pwned\x07"
    path.write_text(json.dumps(doc), encoding="utf-8")
    code, out, err = cli("grade", "--transcripts", str(OLDER), "--errata", str(path))
    assert (code, out) == (2, "")
    assert err == (f"toolproof: {path}: at $.entries[1].changed: holds \\x1b at character 8: an erratum is one "
                   "line of plain text (no control or invisible character)\n")
