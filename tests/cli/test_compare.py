"""`grade --junit/--markdown/--price-*` and `compare`, in-process, with hostile files."""
from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

from repeatdocs import CALL_A, CALL_B, SUITE, document
from clirun import cli
from toolproof.suite.fingerprint import suite_sha256
from toolproof.reports.scorecard import results_json

SHA = suite_sha256(SUITE)


def write(tmp_path, name, doc) -> str:
    path = tmp_path / name
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc), encoding="utf-8")
    return str(path)


def test_grade_writes_junit_and_markdown_and_prices_the_run(tmp_path):
    hostile = document({CALL_A: ["fail", "fail"], CALL_B: ["error", "error"]})
    hostile["transcripts"][0]["turns"][0]["response"]["content"][0]["text"] = "bad \x01\x1b <x> & ]]> \ufffe"
    junit, md = tmp_path / "j.xml", tmp_path / "s.md"
    code, out, err = cli("grade", "--transcripts", write(tmp_path, "r.json", hostile), "--format", "json",
                         "--junit", str(junit), "--markdown", str(md), "--price-in", "3", "--price-out", "15")
    assert (code, err) == (0, "")
    card = json.loads(out)
    assert card["cost"]["prices"] == {"input_per_mtok": 3.0, "output_per_mtok": 15.0}
    assert card["cost"]["usd_per_passing_run"] is None          # no PASS anywhere
    root = ET.fromstring(junit.read_text(encoding="utf-8"))        # well-formed despite the reasons
    suite = root.find("testsuite")
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("2", "1", "1")
    assert suite.get("name") == "should_call"
    cases = {c.get("name"): c for c in suite.findall("testcase")}
    assert cases[CALL_A].find("failure").get("type") == "FAIL"
    assert cases[CALL_B].find("error").text == "turn 1: request failed (HTTP 503: overloaded)"
    assert md.read_text(encoding="utf-8").startswith("# ToolProof scorecard - anthropic / m\n")


@pytest.mark.parametrize("flags, message", [
    (["--price-in", "1"], "toolproof: give both --price-in and --price-out (USD per million tokens)\n"),
    (["--price-in", "nan", "--price-out", "1"],
     "toolproof: --price-in must be a finite number >= 0 (USD per million tokens), got nan\n"),
    (["--price-in", "x"], "toolproof: usage error: argument --price-in: invalid float value: 'x'\n"),
])
def test_bad_prices_are_one_line(flags, message):
    assert cli("grade", *flags) == (2, "", message)


def test_unwritable_report_is_one_line(tmp_path):
    code, out, err = cli("grade", "--junit", str(tmp_path / "no" / "such" / "dir.xml"))
    assert code == 2 and err.startswith(f"toolproof: {tmp_path / 'no' / 'such' / 'dir.xml'}: --junit: no such folder")


def test_compare_json_text_gate_and_reports(tmp_path):
    a = write(tmp_path, "a.json", document({CALL_A: ["pass"] * 3, CALL_B: ["pass"] * 3}, suite_sha256=SHA))
    b_doc = document({CALL_A: ["fail"] * 3, CALL_B: ["fail", "fail", "pass"]}, suite_sha256=SHA, model="new")
    b = write(tmp_path, "b.json", results_json(b_doc, {"score": 1}))      # a page export: results + scorecard
    code, out, err = cli("compare", a, b, "--format", "json")
    assert (code, err) == (0, "")
    c = json.loads(out)["comparison"]
    assert str(tmp_path) not in out                         # labels, never file paths
    assert c["flips"]["regressed"] == [CALL_A, CALL_B] and c["runs"]["b"]["model"] == "new"
    code, out, err = cli("compare", a, b, "--fail-on-regression", "--junit", str(tmp_path / "j.xml"),
                         "--markdown", str(tmp_path / "s.md"))
    # two cases cannot show a regression (a paired t with 1 degree of freedom): exit 0, and the
    # verdict says so instead of "no regression beyond noise"
    assert code == 0 and "Verdict: no significant change; a drop of up to 100 points cannot be ruled out" in out
    assert out.startswith("ToolProof comparison (B - A)\nA: anthropic / m / 2026-11-30T10:00:00+00:00 (3 repeats per case)\n")
    # the gate passes, so the JUnit file passes too (issue 38): the flips are noted, not failed
    root = ET.fromstring((tmp_path / "j.xml").read_text(encoding="utf-8"))
    assert root.get("failures") == "0" and [c.get("name") for c in root.iter("testcase") if c.find("system-out")
                                            is not None and "REGRESSED" in c.find("system-out").text] == [CALL_A, CALL_B]
    assert "| sc-hotels-lisbon | should_call | PASS (3/3) | FAIL (0/3) | regressed |" in (tmp_path / "s.md").read_text(encoding="utf-8")
    # the other way round is an improvement: the gate passes
    assert cli("compare", b, a, "--fail-on-regression")[0] == 0


def test_compare_refuses_other_suites_with_exit_2_unless_mixed(tmp_path):
    a = write(tmp_path, "a.json", document({CALL_A: ["pass"]}, suite_sha256="0" * 64))
    b = write(tmp_path, "b.json", document({CALL_A: ["pass"], CALL_B: ["pass"]}, suite_sha256=SHA))
    assert cli("compare", a, b) == (2, "", "toolproof: the two runs used different suites (suite_sha256 differs); "
                                           "pass --allow-mixed to compare the case ids they share\n")
    code, out, err = cli("compare", a, b, "--allow-mixed", "--format", "json")
    assert code == 0 and json.loads(out)["comparison"]["suite"]["shared_cases"] == 1


@pytest.mark.parametrize("content, reason", [
    ("{", "not valid JSON: Expecting property name enclosed in double quotes (line 1, column 2)"),
    ("[" * 100000 + "]" * 100000, "file nested deeper than 64 levels"),
    ('{"format": "toolproof.transcripts", "version": 1, "kind": "live", "transcripts": [{"case_id": "nope", "turns": []}]}',
     "at $.transcripts[0].case_id: case 'nope' is not in the suite"),
    ('{"toolproof": "0.1", "cases": []}', "this is a scorecard, not a results file: compare needs the transcripts "
                                          "(a results file, or the page's JSON export of a live run)"),
])
def test_compare_malformed_and_hostile_files_are_one_line(tmp_path, content, reason):
    good = write(tmp_path, "good.json", document({CALL_A: ["pass"]}, suite_sha256=SHA))
    bad = write(tmp_path, "bad.json", content)
    assert cli("compare", good, bad) == (2, "", f"toolproof: {bad}: {reason}\n")


def test_errored_cases_are_named_on_stderr(tmp_path):
    a = write(tmp_path, "a.json", document({CALL_A: ["pass"], CALL_B: ["pass"]}, suite_sha256=SHA))
    b = write(tmp_path, "b.json", document({CALL_A: ["error"], CALL_B: ["pass"]}, suite_sha256=SHA))
    code, out, err = cli("compare", a, b, "--fail-on-regression")
    assert code == 0 and err == (f"toolproof: 1 case not graded in both runs (ERROR), left out of the "
                                 f"comparison: {CALL_A}\n")


def test_compare_usage_errors():
    code, out, err = cli("compare", "only-one.json")
    assert code == 2 and err == "toolproof: usage error: the following arguments are required: B\n"


def test_compare_escapes_a_hostile_model_and_label_in_text_and_markdown(tmp_path):
    # Found by review: compare wrote a results file's model and label raw (NUL, ESC, backspace).
    hostile = "m\x00\x1b[31mRED\x08\u202e"
    a = write(tmp_path, "a.json", {**document({CALL_A: ["pass"]}, suite_sha256=SHA, model=hostile),
                                   "label": "l\x1b]0;title\x07", "provider": "anthropic\x1b[2J"})
    md = tmp_path / "s.md"
    code, out, err = cli("compare", a, a, "--markdown", str(md))
    assert (code, err) == (0, "")
    markdown = md.read_text(encoding="utf-8")
    assert "m\\x00\\x1b[31mRED\\x08\\u202e" in out and "anthropic\\x1b[2J" in out
    assert "m\\x00\\x1b\\[31mRED\\x08\\u202e" in markdown and "anthropic\\x1b\\[2J" in markdown  # [ inert too
    for text in (out, markdown):
        assert not any(ch in text for ch in "\x00\x1b\x08\x07\u202e")


def test_compare_cuts_a_huge_model_name(tmp_path):
    a = write(tmp_path, "a.json", document({CALL_A: ["pass"]}, suite_sha256=SHA, model="x" * 100_000))
    code, out, err = cli("compare", a, a)
    assert code == 0 and f"{'x' * 120}… (99,880 more)" in out and max(map(len, out.splitlines())) < 300


def test_a_2mb_value_in_a_refusal_is_cut_to_one_short_line(tmp_path):
    # Found by review: a 2 MB suite_sha256 list printed a 2,008,087-character line.
    good = write(tmp_path, "good.json", document({CALL_A: ["pass"]}, suite_sha256=SHA))
    bad = write(tmp_path, "bad.json", document({CALL_A: ["pass"]}, suite_sha256=list(range(300_000))))
    for argv in (("compare", good, bad), ("grade", "--transcripts", bad)):
        code, out, err = cli(*argv)
        assert code == 2 and out == ""
        assert err.startswith(f"toolproof: {bad}: at $.suite_sha256: [0, 1, 2, 3,")
        assert err.endswith(" more) is not of type 'string'\n") and len(err) < 400 and err.count("\n") == 1
