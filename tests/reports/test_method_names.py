"""One method name per section (issue 37 item 6): what a section's intro says its statistics are
is what its result says it used, and nothing the board shows as text carries Markdown."""
from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

from boarddocs import run_doc
from toolproof.datafiles import format_schema
from toolproof.reports.board import headline
from toolproof.scoring.board import build_board
from toolproof.scoring.intervals import DELTA_METHOD

INDEX = Path(__file__).resolve().parents[2] / "index.html"


class _SectionText(HTMLParser):
    """The text of one <section id=...> of index.html, tags dropped."""

    def __init__(self, section: str):
        super().__init__()
        self.section, self.depth, self.text = section, 0, []

    def handle_starttag(self, tag, attrs):
        if self.depth or (tag == "section" and dict(attrs).get("id") == self.section):
            self.depth += tag == "section"

    def handle_endtag(self, tag):
        if self.depth and tag == "section":
            self.depth -= 1

    def handle_data(self, data):
        if self.depth:
            self.text.append(data)


def section_text(section: str) -> str:
    parser = _SectionText(section)
    parser.feed(INDEX.read_text(encoding="utf-8"))
    return re.sub(r"\s+", " ", "".join(parser.text))


def test_compare_names_the_interval_its_result_uses():
    intro = section_text("compare")
    assert DELTA_METHOD.startswith("over cases: paired t")       # what compare's result prints as its method
    assert "paired t interval" in intro and "McNemar" in intro
    assert "bootstrap" not in intro.lower()                       # it said "paired bootstrap" before


def test_the_board_names_its_test_in_plain_words(bundle):
    docs = [run_doc("strong"), run_doc("mid", 3), run_doc("weak", 2)]
    board = build_board([(d, f"{i}.json") for i, d in enumerate(docs)], bundle.cases, bundle.tools,
                        format_schema("transcripts"))
    lines = headline(board)
    assert not [line for line in lines if "`" in line], lines     # the page shows these lines as text
    assert "paired t interval" in board["method"]["pairwise"] and "compare" in section_text("board").lower()


def test_section_text_reads_one_section_only():
    assert section_text("compare").startswith(" Compare two runs") and "Leaderboard" not in section_text("compare")
    assert section_text("nowhere") == ""
