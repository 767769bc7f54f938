"""The leaderboard's renderings (reports/board.py, reports/html_board.py): every format from the
same JSON, and a hostile run label or model name inert in each."""
from __future__ import annotations

import json

import pytest

from boarddocs import HOSTILE, run_doc
from htmlcheck import assert_inert
from toolproof.datafiles import format_schema
from toolproof.reports.board import board_json, md_text, render_board_markdown, render_board_text
from toolproof.reports.html_board import board_html
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
    assert json.loads(text)["format"] == "toolproof.board" and json.loads(text)["version"] == 1


def test_text_has_every_table_and_no_raw_control(hostile_board):
    text = render_board_text(hostile_board)
    assert "\x1b" not in text and "\u202e" not in text and "\u2066" not in text
    for title in ("Runs", "Category scores (%)", "Rates (%)", "Cost and latency", "Pairs (B - A, B ranked lower)"):
        assert f"\n{title}\n" in text
    assert "\\u202e" in text and "\\u2066" in text      # (the name is clipped before its ESC)
    assert text.startswith("ToolProof leaderboard: 3 run(s), same suite")
    assert all("\n# heading" not in line for line in text.splitlines())


def test_markdown_makes_no_markup_of_a_name(hostile_board):
    md = render_board_markdown(hostile_board)
    assert "<script>" not in md and "<img" not in md and "](javascript" not in md
    assert "\\`x\\`" in md and "\\|" in md and "\x1b" not in md
    for line in md.splitlines():
        if line.startswith("| 1") or line.startswith("| 2") or line.startswith("| 3"):
            # every row of the runs table keeps its 9 cells: no | from a name splits one
            assert len([c for c in line.replace("\\|", "").split("|")]) - 2 in (9, 10)
    assert md_text("a_b*[c](d)") == "a\\_b\\*\\[c\\]\\(d\\)"


def test_html_is_inert_and_shows_the_name_as_text(hostile_board):
    page = board_html(hostile_board)
    found = assert_inert(page)
    text = "".join(found.text)
    assert "<script>alert(1)</script>" in text            # shown as text, never as a tag
    assert "\\u202e" in text and "\u202e" not in page
    assert "svg" in found.tags and "line" in found.tags     # interval whiskers
    cells = [(a, v) for t, a, v in found.attributes if a == "data-significant"]
    assert len(cells) == 3 * 2
