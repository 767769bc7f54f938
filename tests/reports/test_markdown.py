"""The one Markdown rule (reports/markdown.py): what it escapes, what it leaves as it was, and that
every Markdown report uses it, the "Most-confused pairs" line included (issue 36)."""
from __future__ import annotations

import copy

import pytest

from toolproof.reports.markdown import md_block, md_code, md_text
from toolproof.reports.scorecard import render_markdown
from toolproof.scoring.evaluate import evaluate


@pytest.mark.parametrize("text, shown", [
    # ordinary text comes out as it went in: the golden reports stay byte for byte
    ("should_call", "should_call"),
    ("83.6% (3 of 4), 95% CI 52–73", "83.6% (3 of 4), 95% CI 52–73"),
    ("gpt-4o-mini / 2026-03-04", "gpt-4o-mini / 2026-03-04"),
    ("issue #12: x + y = z", "issue #12: x + y = z"),
    ("Zürich é_ü", "Zürich é_ü"),
    # emphasis and strikethrough
    ("**bold** and *it*", "\\*\\*bold\\*\\* and \\*it\\*"),
    ("_it_ and __init__", "\\_it\\_ and \\_\\_init\\_\\_"),
    ("x_. and snake_case", "x\\_. and snake_case"),
    ("~~gone~~", "\\~\\~gone\\~\\~"),
    # links, images, autolinks, code, HTML, table cells
    ("![p](https://evil.example/p.png)", "!\\[p\\](https\\://evil.example/p.png)"),
    # GFM's bare-address autolinks: the backslash breaks the link and shows as nothing
    ("see www.evil.example", "see www\\.evil.example"),
    ("https://evil.example/p and ftp://x", "https\\://evil.example/p and ftp\\://x"),
    ("helpdesk@atlas-support.test, mailto:a@b.co", "helpdesk\\@atlas-support.test, mailto:a\\@b.co"),
    ("a time 10:30 // no address", "a time 10:30 // no address"),
    ("&lt; and &#x3c;", "&amp;lt; and &amp;#x3c;"),
    ("`code` a|b \\n", "\\`code\\` a\\|b \\\\n"),
    ("<img src=x> & co", "&lt;img src=x&gt; &amp; co"),
    # what would start a block where the text starts a line
    ("# heading", "\\# heading"),
    ("- item", "\\- item"),
    ("+ item", "\\+ item"),
    ("=====", "\\====="),
    ("1. first", "1\\. first"),
    ("12) twelfth", "12\\) twelfth"),
    ("3.14 is not a list", "3.14 is not a list"),
    # one line, controls shown
    ("two\nlines\r\nhere", "two lines here"),
    ("esc\x1b[2J\u202e", "esc\\x1b\\[2J\\u202e"),
    (None, "None"),
    ("x" * 2001, "x" * 2000 + "… (1 more)"),        # a 1 MB name stays a line, not a report
])
def test_md_text(text, shown):
    assert md_text(text) == shown


@pytest.mark.parametrize("text, shown", [
    ("place_order", "`place_order`"),
    ("a`b", "``a`b``"),
    ("``x", "``` ``x ```"),
    ("x` ![p](https://evil.example/p.png) `y", "``x` ![p](https://evil.example/p.png) `y``"),
    ("line\nbreak\x1b", "`line break\\x1b`"),
    ("", "` `"),                                   # two backticks alone could close a later span
    ("<img src=x>", "`<img src=x>`"),               # shown as written inside a code span
])
def test_md_code_cannot_be_closed_from_inside(text, shown):
    assert md_code(text) == shown


def test_md_block_fence_is_longer_than_any_run_inside():
    assert md_block(["a", "b"]) == ["```", "a", "b", "```"]
    assert md_block(["```", "x ```` y"]) == ["`````", "```", "x ```` y", "`````"]
    assert md_block(["\x1b"]) == ["```", "\\x1b", "```"]


HOSTILE_TOOL = "x` ![p](https://evil.example/p.png) `y"


@pytest.fixture(scope="module")
def fixtures_card(bundle):
    return evaluate(bundle.cases, bundle.tools, bundle.transcripts)


def test_the_most_confused_pairs_line_makes_no_markup_of_a_tool_name(fixtures_card):
    # Issue 36: a called name closed the code span and what followed was Markdown (an image here)
    card = copy.deepcopy(fixtures_card)
    select, safety = card["diagnosis"]["select"], card["diagnosis"]["safety"]
    select["confused_pairs"] = [{"expected": "get_booking", "called": HOSTILE_TOOL, "count": 2}]
    safety["forbidden_calls"] = [{"case": "c*1*", "tool": HOSTILE_TOOL}]
    safety["credentials"] = [{"case": "c_2_", "tool": HOSTILE_TOOL, "field": "f", "kind": "api key"}]
    safety["injection_claims"] = [{"case": HOSTILE_TOOL, "category": "injection"}]
    md = render_markdown(card)
    pairs = next(line for line in md.splitlines() if line.startswith("Most-confused pairs: "))
    assert pairs.startswith(f"Most-confused pairs: `get_booking` → ``{HOSTILE_TOOL}`` (2). *")
    safety_line = next(line for line in md.splitlines() if line.startswith("Credentials in arguments: "))
    assert f"; c_2\\_ ``{HOSTILE_TOOL}.f`` (api key)" in safety_line
    assert f"; c\\*1\\* ``{HOSTILE_TOOL}``." in safety_line
    assert safety_line.endswith(f". Injection obeyed in words: {md_text(HOSTILE_TOOL)}.")

