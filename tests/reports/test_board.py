"""The leaderboard's renderings (reports/board.py, reports/html_board.py): every format from the
same JSON, and a hostile run label or model name inert in each."""
from __future__ import annotations

import json

import pytest

from boarddocs import HOSTILE, partial_doc, phrased_doc, run_doc, scoped_doc
from suitefigures import CASES, in_category
from htmlcheck import assert_inert, inventory
from toolproof.datafiles import format_schema
from toolproof.suite.categories import CATEGORIES
from toolproof.reports.board import (COST_TITLE, PAIRS_TITLE, RATES_TITLE, UNRANKED_TITLE, board_json,
                                     render_board_markdown, render_board_text, tables)
from toolproof.reports.html_board import board_html
from toolproof.reports.markdown import md_text
from toolproof.scoring.board import build_board


@pytest.fixture(scope="module")
def hostile_board(bundle):
    docs = [run_doc(HOSTILE), run_doc("plain", 3, label="lab|el\u2066\n# heading"), run_doc("weak", 1)]
    return build_board([(d, f"{i}.json") for i, d in enumerate(docs)], bundle.cases, bundle.tools,
                       format_schema("transcripts"))


def test_json_round_trips_and_hides_no_character(hostile_board):
    text = board_json(hostile_board)
    assert json.loads(text) == hostile_board
    assert "\u202e" not in text and "\x1b" not in text and "\u2066" not in text
    assert "\\u202e" in text and "\\u001b" in text
    assert json.loads(text)["format"] == "toolproof.board" and json.loads(text)["version"] == 2


def test_text_has_every_table_and_no_raw_control(hostile_board):
    text = render_board_text(hostile_board)
    assert "\x1b" not in text and "\u202e" not in text and "\u2066" not in text
    for title in ("Runs", "Category scores (%)", RATES_TITLE, "Cost and latency", "Pairs (B - A, B ranked lower)"):
        assert f"\n{title}\n" in text
    assert "\\u202e" in text and "\\u2066" in text      # (the name is clipped before its ESC)
    assert text.startswith("ToolProof leaderboard: 3 runs, same suite")
    assert all("\n# heading" not in line for line in text.splitlines())


def test_the_rates_table_says_which_way_each_rate_is_better(hostile_board):
    # issue 35: utility under attack (better high) sits beside injection compliance (better low)
    text = render_board_text(hostile_board)
    head = text.split(f"\n{RATES_TITLE}\n", 1)[1].splitlines()[0].split()
    assert head == ["run", "schema", "↑", "tool", "↑", "args", "↑", "halluc", "↓", "over", "↓", "under", "↓",
                    "premat", "↓", "inject", "↓", "utility", "↑"]
    assert "| run | schema ↑ |" in render_board_markdown(hostile_board)
    assert all(set(run["metrics"]) >= {"injection_compliance_rate", "utility_under_attack"}
               for run in hostile_board["runs"])


def test_markdown_makes_no_markup_of_a_name(hostile_board):
    md = render_board_markdown(hostile_board)
    assert "<script>" not in md and "<img" not in md and "](javascript" not in md
    assert "\\`x\\`" in md and "\\|" in md and "\x1b" not in md
    for line in md.splitlines():
        if line.startswith("| 1") or line.startswith("| 2") or line.startswith("| 3"):
            # every row of the runs table keeps its 9 cells: no | from a name splits one
            assert len([c for c in line.replace("\\|", "").split("|")]) - 2 in (9, 10)
    assert md_text("a_b*[c](d)") == "a_b\\*\\[c\\](d)"      # the one rule (reports/markdown.py)


def test_html_is_inert_and_shows_the_name_as_text(hostile_board):
    page = board_html(hostile_board)
    found = assert_inert(page)
    text = "".join(found.text)
    assert "<script>alert(1)</script>" in text            # shown as text, never as a tag
    assert "\\u202e" in text and "\u202e" not in page
    assert "svg" in found.tags and "line" in found.tags     # interval whiskers
    cells = [(a, v) for t, a, v in found.attributes if a == "data-significant"]
    assert len(cells) == 3 * 2


@pytest.fixture(scope="module")
def partial_board(bundle):
    docs = [run_doc("a", 3, settings={"repeats": 1}), partial_doc("cut"), run_doc("b", 5, settings={"repeats": 1})]
    return build_board([(d, f"{i}.json") for i, d in enumerate(docs)], bundle.cases, bundle.tools,
                       format_schema("transcripts"))


@pytest.fixture(scope="module")
def scoped_board(bundle):
    docs = [run_doc("whole", 2), scoped_doc("calls", "should_call")]
    return build_board([(d, f"{i}.json") for i, d in enumerate(docs)], bundle.cases, bundle.tools,
                       format_schema("transcripts"))


def test_a_run_below_half_is_listed_apart_in_every_format_with_why(partial_board):
    why = f"only 10 of {CASES} cases graded ({CASES - 10} not started), below half of the plan"
    text, md = render_board_text(partial_board), render_board_markdown(partial_board)
    html = "".join(assert_inert(board_html(partial_board)).text)
    for out in (text, md, html):
        assert why in out and UNRANKED_TITLE in out
    assert text.splitlines()[0].endswith(f"{CASES} cases; 1 not ranked (no score)")
    ranked = text.split("\nRuns\n", 1)[1].split("\n\n", 1)[0].splitlines()[1:]
    assert [line.split()[1] for line in ranked] == ["run-3", "run-1"] and "62.96" not in text
    apart = text.split(f"\n{UNRANKED_TITLE}\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert apart[0].split() == ["run", "name", "date", "cases", "graded", "why"]
    assert apart[1].split()[0] == "run-2" and apart[1].endswith(why)     # no rank cell: it is not ranked
    pairs = text.split(f"\n{PAIRS_TITLE}\n", 1)[1].splitlines()[1:]
    assert len(pairs) == 1 and "run-2" not in pairs[0]                  # tested against no run
    categories = next(line for line in text.splitlines()[text.splitlines().index("Category scores (%)"):]
                      if line.split()[:1] == ["run-2"])
    assert categories.split()[1:] == ["n/a"] * len(CATEGORIES)   # no score, not even a category's
    assert json.loads(board_json(partial_board))["unranked"][0]["no_score"] == why
    table = board_html(partial_board).split('class="board unranked"', 1)[1].split("</table>", 1)[0]
    cells = inventory(table.split("<tbody>", 1)[1]).text
    assert cells == ["run-2", "anthropic / cut", "2026-11-30", f"10 of {CASES}", why]


def test_the_runs_table_counts_cases_and_the_cost_table_conversations(bundle):
    docs = [run_doc("twice", 5, repeats=2, settings={"repeats": 2}), run_doc("once", 5)]
    b = build_board([(d, f"{i}.json") for i, d in enumerate(docs)], bundle.cases, bundle.tools,
                    format_schema("transcripts"))
    rows = tables(b)
    # one fixture's request failed (ERROR): every case but one graded, in each repeat
    once, twice = f"{CASES - 1} of {CASES}", f"{2 * (CASES - 1)} of {2 * CASES}"
    assert rows["Runs"][0][4] == "cases graded" and {r[4] for r in rows["Runs"][1:]} == {once}
    assert rows[COST_TITLE][0][1] == "conversations"
    assert sorted(r[1] for r in rows[COST_TITLE][1:]) == sorted([twice, once])
    html = "".join(assert_inert(board_html(b)).text)
    assert "Cases graded" in html and twice in html


def test_a_board_of_one_category_is_headed_with_its_cases(bundle):
    docs = [scoped_doc("a", "should_call"), scoped_doc("b", "should_call", 2)]
    b = build_board([(d, f"{i}.json") for i, d in enumerate(docs)], bundle.cases, bundle.tools,
                    format_schema("transcripts"))
    for out in (render_board_text(b), render_board_markdown(b), "".join(assert_inert(board_html(b)).text)):
        assert f"{in_category('should_call')} of its {CASES} cases" in out and f", {CASES} cases" not in out


def test_the_base_phrasing_note_is_in_every_format(bundle):
    docs = [phrased_doc("phrased"), run_doc("base", 3)]
    b = build_board([(d, f"{i}.json") for i, d in enumerate(docs)], bundle.cases, bundle.tools,
                    format_schema("transcripts"))
    note = b["suite"]["phrasings_note"]
    assert note in render_board_text(b) and md_text(note) in render_board_markdown(b)
    assert "".join(assert_inert(board_html(b)).text).count(note) == 1


def test_a_board_on_shared_cases_says_so_in_every_format(scoped_board):
    note = (f"different scopes or plans: every run graded (its cost too) on the {in_category('should_call')} of "
            f"{CASES} cases all 2 runs share, not on its own plan")
    assert scoped_board["suite"]["note"] == note
    text, md = render_board_text(scoped_board), render_board_markdown(scoped_board)
    html = "".join(assert_inert(board_html(scoped_board)).text)
    assert text.splitlines()[0].endswith(f"SHARED CASES ONLY: {note}") and f"{CASES} cases" not in text.splitlines()[0].split(":")[1]
    assert note in md and note in html
    assert json.loads(board_json(scoped_board))["suite"]["note"] == note


def test_a_grid_cell_of_no_difference_reads_plus_zero_never_minus_zero():
    from toolproof.reports.board import grid_delta

    assert [grid_delta(-1, 0.0), grid_delta(-1, 0.04), grid_delta(1, -0.04)] == ["+0.0"] * 3
    assert (grid_delta(-1, 19.83), grid_delta(1, 19.83)) == ("-19.8", "+19.8")
