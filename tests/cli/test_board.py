"""`board RESULTS...` and `--html` on grade and compare, in-process, with malformed and hostile files."""
from __future__ import annotations

import json

import pytest

from boarddocs import HOSTILE, partial_doc, run_doc, scoped_doc, write_runs
from htmlcheck import assert_inert
from suitefigures import CASES, in_category
from clirun import cli


@pytest.fixture(scope="module")
def paths(tmp_path_factory):
    folder = tmp_path_factory.mktemp("runs")
    return write_runs(folder, {"strong": run_doc("strong"), "hostile": run_doc(HOSTILE, 5),
                               "weak": run_doc("weak", 1)})


@pytest.mark.parametrize("form", ["text", "json", "markdown", "html"])
def test_every_format_prints_the_same_ranking(paths, form):
    code, out, err = cli("board", *paths, "--format", form)
    assert (code, err) == (0, "")
    assert "\x1b" not in out and "\u202e" not in out
    if form == "json":
        board = json.loads(out)
        assert [r["model"] for r in board["runs"]] == ["strong", HOSTILE, "weak"]
        assert str(paths[0]) not in out                # labels, never file paths
    elif form == "html":
        text = "".join(assert_inert(out).text)
        assert "ToolProof leaderboard: 3 runs" in text and "<script>alert(1)</script>" in text
    else:
        assert "ToolProof leaderboard: 3 runs, same suite" in out
        assert "<script>" not in out or form == "text"


def test_out_and_html_files(paths, tmp_path):
    out, page = tmp_path / "board.md", tmp_path / "board.html"
    code, stdout, err = cli("board", *paths, "--format", "markdown", "--out", str(out), "--html", str(page))
    assert (code, stdout, err) == (0, "", "")
    assert out.read_text(encoding="utf-8").startswith("# ToolProof leaderboard\n")
    assert_inert(page.read_text(encoding="utf-8"))


def test_different_suites_are_one_line_naming_the_files(paths, tmp_path):
    other = write_runs(tmp_path, {"other": run_doc("o", sha="e" * 64)})[0]
    code, out, err = cli("board", paths[0], other)
    assert (code, out) == (2, "")
    assert err == (f"toolproof: the runs used different suites (suite_sha256): {paths[0]} differ from {other}; "
                   "pass --allow-mixed to rank them on the case ids all runs share\n")
    code, out, err = cli("board", paths[0], other, "--allow-mixed", "--format", "markdown")
    assert code == 0 and "MIXED SUITES" in out


@pytest.mark.parametrize("content, message", [
    (None, "no such file"),
    ("{not json", "not valid JSON"),
    (json.dumps({"format": "toolproof.tools", "tools": []}), "at $.format: 'toolproof.transcripts' was expected"),
    ("[1, 2]", "at $: [1, 2] is not of type 'object'"),
    ("[" * 5000 + "]" * 5000, "nested deeper than 64 levels"),
    (json.dumps({"cases": [], "score": 3}), "this is a scorecard, not a results file"),
])
def test_bad_files_are_one_line(paths, tmp_path, content, message):
    bad = tmp_path / "bad.json"
    if content is not None:
        bad.write_text(content, encoding="utf-8")
    code, out, err = cli("board", paths[0], str(bad))
    assert (code, out) == (2, "")
    assert err.startswith(f"toolproof: {bad}") and message in err and err.count("\n") == 1


def test_a_huge_file_is_refused_before_it_is_parsed(paths, tmp_path):
    huge = tmp_path / "huge.json"
    with huge.open("w", encoding="utf-8") as handle:
        handle.write('{"pad": "' + "x" * 21_000_000 + '"}')
    code, out, err = cli("board", paths[0], str(huge))
    assert code == 2 and out == "" and "20 MB" in err


def test_out_never_replaces_a_results_file(paths):
    before = open(paths[0], encoding="utf-8").read()
    for flag in ("--out", "--html"):
        code, out, err = cli("board", *paths, flag, paths[0])
        assert (code, out) == (2, "") and err == f"toolproof: {paths[0]}: {flag} names one of the results files this command reads; choose another path\n"
    assert open(paths[0], encoding="utf-8").read() == before


def test_too_many_files_and_unwritable_out(paths, tmp_path):
    code, _, err = cli("board", *([paths[0]] * 41))
    assert code == 2 and "at most 40 results files" in err
    code, _, err = cli("board", paths[0], "--out", str(tmp_path / "no" / "dir" / "b.txt"))
    assert code == 2 and err.startswith(f"toolproof: {tmp_path / 'no' / 'dir' / 'b.txt'}: --out: no such folder")


def test_grade_and_compare_write_html(paths, tmp_path):
    page = tmp_path / "g.html"
    code, _, err = cli("grade", "--transcripts", paths[1], "--html", str(page))
    assert (code, err) == (0, "")
    text = "".join(assert_inert(page.read_text(encoding="utf-8")).text)
    assert "ToolProof scorecard - anthropic / <script>alert(1)</script>" in text
    code, _, _ = cli("compare", paths[0], paths[1], "--html", str(tmp_path / "c.html"))
    assert code == 0
    assert "ToolProof comparison (B − A)" in "".join(assert_inert((tmp_path / "c.html").read_text(encoding="utf-8")).text)


@pytest.mark.parametrize("verb", ["grade", "compare"])
def test_format_html_prints_what_html_writes(paths, tmp_path, verb):
    # the page's Export HTML buttons promise "what grade/compare --format html prints": one report,
    # the same bytes on stdout as in the --html file, with the hostile model name inert
    files = ["--transcripts", paths[1]] if verb == "grade" else [paths[0], paths[1]]
    page = tmp_path / f"{verb}.html"
    code, out, err = cli(verb, *files, "--format", "html", "--html", str(page))
    assert code == 0 and "Traceback" not in err       # compare names the cases not graded in both
    assert out == page.read_text(encoding="utf-8")
    assert "<script>alert(1)</script>" in "".join(assert_inert(out).text)
    code, alone, _ = cli(verb, *files, "--format", "html")
    assert (code, alone) == (0, out)


def test_runs_of_different_scopes_rank_on_shared_cases_without_allow_mixed(paths, tmp_path):
    calls, other = write_runs(tmp_path, {"calls": scoped_doc("calls", "should_call"),
                                         "nocall": scoped_doc("nocall", "should_not_call")})
    code, out, err = cli("board", paths[0], calls, "--format", "json")
    assert (code, err) == (0, "")
    suite = json.loads(out)["suite"]
    shared = in_category("should_call")
    assert (suite["same"], suite["mixed"], suite["shared_only"], suite["cases"]) == (True, False, True, shared)
    assert f"{shared} of {CASES} cases all 2 runs share" in suite["note"]
    code, out, err = cli("board", paths[0], calls)
    assert code == 0 and "SHARED CASES ONLY" in out.splitlines()[0]
    code, out, err = cli("board", calls, other)
    assert (code, out) == (2, "")
    assert err == (f"toolproof: the runs share no case to rank them on: {calls}, {other} "
                   "(different scopes, plans or suites)\n")


def test_a_run_cut_short_is_listed_apart_unranked(paths, tmp_path):
    cut = write_runs(tmp_path, {"cut": partial_doc("cut")})[0]
    code, out, err = cli("board", cut, *paths, "--format", "json")
    assert (code, err) == (0, "")
    board = json.loads(out)
    (apart,) = board["unranked"]
    assert (apart["id"], apart["model"], apart["score"], apart["rank"]) == ("run-1", "cut", None, None)
    assert apart["no_score"] == f"only 10 of {CASES} cases graded ({CASES - 10} not started), below half of the plan"
    assert sorted(r["rank"]["worst"] for r in board["runs"]) <= [3, 3, 3] and len(board["runs"]) == 3
