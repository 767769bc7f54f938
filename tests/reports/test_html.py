"""The self-contained HTML reports of a scorecard and a comparison (reports/html*.py): inert
whatever the model or the file said, and showing what the page shows."""
from __future__ import annotations

from boarddocs import HOSTILE, run_doc
from htmlcheck import assert_inert, inventory
from repeatdocs import BY_ID
from toolproof.datafiles import format_schema
from toolproof.grading.transcripts import known_ids, parse_transcripts
from toolproof.reports.html import esc, whisker
from toolproof.reports.html_comparison import comparison_html
from toolproof.reports.html_scorecard import scorecard_html
from toolproof.scoring.comparison import compare_runs, graded_run
from toolproof.scoring.evaluate import evaluate

SCHEMA = format_schema("transcripts")


def hostile_doc():
    doc = run_doc(HOSTILE, 4, label=HOSTILE)
    first = doc["transcripts"][0]["turns"][0]["response"]
    first["content"] = [{"type": "text", "text": HOSTILE + "</pre></details><script>x()</script>"}]
    return doc


def test_esc_is_the_one_escape():
    assert esc('<a href="x">\u202e\x00') == "&lt;a href=&quot;x&quot;&gt;\\u202e\\x00"
    assert esc("it's") == "it&#x27;s"


def test_whisker_clamps_to_its_scale():
    svg = whisker(150, -20, 120)
    assert svg.startswith("<svg") and 'cx="156.0"' in svg and 'x1="4.0"' in svg


def test_scorecard_page_is_inert_and_shows_cases_with_expected_and_actual_calls(bundle):
    doc = hostile_doc()
    card = evaluate(bundle.cases, bundle.tools, parse_transcripts(doc, SCHEMA, known_ids(bundle.cases)))
    page = scorecard_html(card, bundle.cases)
    found = assert_inert(page)
    text = "".join(found.text)
    assert HOSTILE.replace("\u202e", "\\u202e").replace("\x1b", "\\x1b") in text
    assert "</pre></details><script>x()</script>" in text
    rows = [v for t, a, v in found.attributes if a == "data-case-id"]
    assert rows == [c["id"] for c in card["cases"]] and len(rows) == len(BY_ID)
    classes = [v for t, a, v in found.attributes if a == "class"]
    assert classes.count("expected-call") == len(rows) == classes.count("actual-call")
    assert "95% CI" in text and "Diagnosis" in text and "Schema-valid calls" in text


def test_comparison_page_is_inert(bundle):
    runs = [graded_run(d, bundle.cases, bundle.tools, SCHEMA, "x") for d in (run_doc("a"), hostile_doc())]
    page = comparison_html(compare_runs(*runs))
    found = assert_inert(page)
    text = "".join(found.text)
    assert "ToolProof comparison (B − A)" in text and "<script>alert(1)</script>" in text
    assert "Flipped cases" in text


def _board_page(bundle):
    from toolproof.reports.html_board import board_html
    from toolproof.scoring.board import build_board

    runs = [(run_doc("strong"), "a.json"), (run_doc(HOSTILE, 3), "b.json")]
    return board_html(build_board(runs, bundle.cases, bundle.tools, SCHEMA))


def _pages(bundle) -> dict:
    doc = hostile_doc()
    card = evaluate(bundle.cases, bundle.tools, parse_transcripts(doc, SCHEMA, known_ids(bundle.cases)))
    runs = [graded_run(d, bundle.cases, bundle.tools, SCHEMA, "x") for d in (run_doc("a"), doc)]
    return {"scorecard": scorecard_html(card, bundle.cases), "comparison": comparison_html(compare_runs(*runs)),
            "board": _board_page(bundle)}


def _boxes(text: str) -> list[tuple[str, dict]]:
    """Every <table> and chart <svg>, with the attributes of the element just around it."""
    from html.parser import HTMLParser

    found, stack = [], []

    class Walk(HTMLParser):
        def handle_starttag(self, tag, attrs):
            attrs = dict(attrs)
            if tag == "table" or (tag == "svg" and attrs.get("class") == "chart"):
                found.append((tag, stack[-1][1] if stack else {}))
            stack.append((tag, attrs))

        def handle_endtag(self, tag):
            while stack and stack.pop()[0] != tag:
                pass

    Walk().feed(text)
    return found


def test_every_table_and_chart_scrolls_in_its_own_named_focusable_box(bundle):
    # at 390 px a wide table scrolls inside its box, never the report (tests/reports/test_html_browser.py
    # measures it); a box that scrolls must take the keyboard's focus and have a name (axe)
    for name, text in _pages(bundle).items():
        boxes = _boxes(text)
        assert len(boxes) >= 2, name
        for tag, around in boxes:
            assert around.get("class") == "table-scroll", (name, tag, around)
            assert around.get("role") == "region" and around.get("tabindex") == "0", (name, tag)
            assert around.get("aria-label", "").strip(), (name, tag)


def _legend(text: str) -> dict:
    found = inventory(text.split('<dl class="legend">', 1)[1].split("</dl>", 1)[0])
    terms = found.text[0::2]
    return dict(zip(terms, found.text[1::2]))


def test_every_short_head_is_in_the_legend(bundle):
    from toolproof.reports.board import RATE_SHORT
    from toolproof.reports.scorecard import better
    from toolproof.suite.categories import CATEGORY

    pages = _pages(bundle)
    board = _legend(pages["board"])
    for c in CATEGORY.values():
        assert board[c.short] == c.label
    for key, short in RATE_SHORT.items():
        assert board[f"{short} {better(key)[0]}"].endswith(better(key)[2:])
    for head in ("Rank", "Cases graded", "Conversations", "95% CI", "pass^k", "Error", "USD/1k req", "USD/pass",
                 "p (Holm)", "McNemar p", "p"):
        assert board[head], head
    card = _legend(pages["scorecard"])
    for head in ("PASS", "PARTIAL", "FAIL", "ERROR", "95% CI", "Weight", "Cases"):
        assert card[head], head
    assert card["PARTIAL"].endswith("half credit")
    comparison = _legend(pages["comparison"])
    assert set(comparison) >= {"A, B", "Δ", "95% CI over cases", "Flip", "ERROR"}
    assert "paired t" in comparison["95% CI over cases"]


def test_a_hostile_label_in_a_legend_or_a_box_name_stays_text():
    from toolproof.reports.html import legend, scroll_box

    assert legend([("<b>", '"x" onload=y')]) == '<dl class="legend"><dt>&lt;b&gt;</dt><dd>&quot;x&quot; onload=y</dd></dl>'
    box = scroll_box("<table></table>", '"><script>x</script>')
    assert_inert("<!doctype html>" + box)
    assert 'aria-label="&quot;&gt;&lt;script&gt;x&lt;/script&gt;"' in box
