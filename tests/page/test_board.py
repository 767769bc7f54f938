"""The page's Leaderboard (#board) in real Chromium: uploaded results files ranked as the terminal
ranks them, the three exports equal byte for byte to `board --format json|markdown|html` for the
same files, sorting, the pairwise grid, a hostile model name inert, bad files one line, and the
page's own live result added."""
from __future__ import annotations

import json

import pytest

from browser import ARTIFACTS
from boarddocs import HOSTILE, partial_doc, phrased_doc, run_doc, write_runs
from livepage import NEED, export, live, page, run  # noqa: F401  (fixtures)
from suitefigures import CASES
from clirun import cli_output as cli

pytestmark = pytest.mark.browser
OPENAI = "https://api.openai.com/v1/chat/completions"
READY = "['ready', 'error'].includes(document.getElementById('board').dataset.board)"


def upload(page, paths: list[str]) -> str:
    page.click("#board-clear")            # the same files chosen again must fire a change
    page.wait_for_function("document.getElementById('board').dataset.board === 'empty'")
    page.evaluate("document.getElementById('board').dataset.board = 'waiting'")
    page.set_input_files("#board-files", paths)
    page.wait_for_function(READY, timeout=60_000)
    return page.evaluate("document.getElementById('board').dataset.board")


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("board")
    return write_runs(folder, {"mid": run_doc("mid", 3), "strong": run_doc("strong"), "hostile": run_doc(HOSTILE, 4),
                               "weak": run_doc("weak", 1)})


def test_the_exports_equal_the_terminal_byte_for_byte(page, files):
    assert upload(page, files) == "ready"
    ids = page.eval_on_selector_all("#board .board-row", "rows => rows.map(r => r.dataset.runId)")
    board = json.loads(cli("board", *files, "--format", "json"))
    assert ids == [r["id"] for r in board["runs"]]                     # ranked as the terminal ranks them
    assert export(page, "#export-board-json") == cli("board", *files, "--format", "json")
    assert export(page, "#export-board-md") == cli("board", *files, "--format", "markdown")
    assert export(page, "#export-board-html") == cli("board", *files, "--format", "html")
    pairs = page.eval_on_selector_all(".board-pair", "cells => cells.map(c => [c.dataset.a, c.dataset.b, c.dataset.significant])")
    assert len(pairs) == 4 * 3
    expected = {(p["a"], p["b"]): p["significant"] for p in board["pairs"]}
    for a, b, significant in pairs:
        assert (significant == "true") == expected.get((a, b), expected.get((b, a)))
    assert page.locator("#board .board-whisker .board-interval").count() == 4


def test_a_run_with_no_score_is_listed_apart_and_the_exports_still_equal_the_terminal(page, files, tmp_path):
    # a run cut short (10 of the suite's cases) and a run of every phrasing beside base-only runs: one page load
    extra = write_runs(tmp_path, {"cut": partial_doc("cut"), "phrased": phrased_doc("phrased")})
    chosen = files[:2] + extra
    assert upload(page, chosen) == "ready"
    board = json.loads(cli("board", *chosen, "--format", "json"))
    ranked = page.eval_on_selector_all("#board .board-row:not(.unranked)", "rows => rows.map(r => r.dataset.runId)")
    apart = page.eval_on_selector_all("#board .board-row.unranked", "rows => rows.map(r => r.dataset.runId)")
    assert ranked == [r["id"] for r in board["runs"]] and apart == ["run-3"] == [r["id"] for r in board["unranked"]]
    why = page.text_content("#board .board-row.unranked .board-why")
    assert why == f"only 10 of {CASES} cases graded ({CASES - 10} not started), below half of the plan"
    text = page.text_content("#board-result")
    assert board["suite"]["phrasings_note"] in text and "Not ranked" in text
    assert "(1 not ranked: no score)" in page.text_content("#board-message")
    assert page.locator("#board .board-row.unranked .board-rank").count() == 0     # no rank cell
    assert len(page.eval_on_selector_all(".board-pair", "cells => cells")) == 3 * 2   # no pair names it
    assert text.count(board["suite"]["phrasings_note"]) == 1 and "-0.0" not in text
    for button, form in (("#export-board-json", "json"), ("#export-board-md", "markdown"), ("#export-board-html", "html")):
        assert export(page, button) == cli("board", *chosen, "--format", form)
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        page.locator("#board").scroll_into_view_if_needed()
        page.locator("#board").screenshot(path=str(ARTIFACTS / f"board-unranked-{width}.png"))
    page.set_viewport_size({"width": 1280, "height": 900})


def test_a_hostile_name_is_text_and_columns_sort(page, files):
    assert upload(page, files) == "ready"
    names = page.eval_on_selector_all("#board .board-name span", "cells => cells.map(c => c.textContent)")
    # shown, never obeyed: the bidi override and ESC written as escapes, the tags as text
    assert "anthropic / " + HOSTILE.replace("\u202e", "\\u202e").replace("\x1b", "\\x1b") in names
    assert page.evaluate("document.querySelectorAll('#board script, #board img').length") == 0
    page.click("#board .board-sort[data-key='name']")
    page.wait_for_function("document.getElementById('board').dataset.sort === 'name'")
    sorted_names = page.eval_on_selector_all("#board .board-name span", "cells => cells.map(c => c.textContent)")
    assert sorted_names == sorted(names, key=str.lower)
    aria = "Array.from(document.querySelectorAll('#board th[aria-sort]'), th => [th.querySelector('button').dataset.key, th.getAttribute('aria-sort')])"
    assert page.evaluate(aria) == [["name", "ascending"]]
    page.click("#board .board-sort[data-key='name']")          # again: the other way round
    page.wait_for_function("document.getElementById('board').dataset.order === 'descending'")
    assert page.eval_on_selector_all("#board .board-name span", "cells => cells.map(c => c.textContent)") == \
        sorted(names, key=str.lower, reverse=True)
    assert page.evaluate(aria) == [["name", "descending"]]
    page.locator("#board").screenshot(path=str(ARTIFACTS / "board-sorted-1280.png"))
    page.click("#board .board-sort[data-key='score']")         # a new column starts its own way: best first
    page.wait_for_function("document.getElementById('board').dataset.sort === 'score'")
    assert page.evaluate(aria) == [["score", "descending"]]
    page.click("#board .board-sort[data-key='rank']")
    page.wait_for_function("document.getElementById('board').dataset.sort === 'rank'")
    assert page.evaluate(aria) == [["rank", "ascending"]]


def test_bad_and_mixed_files_are_one_line(page, files, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{nope", encoding="utf-8")
    assert upload(page, [files[0], str(bad)]) == "error"
    assert page.text_content("#board-message").startswith("bad.json: not valid JSON")
    assert page.locator("#export-board-json").is_disabled()
    other = write_runs(tmp_path, {"other": run_doc("o", sha="e" * 64)})[0]
    assert upload(page, [files[0], other]) == "error"
    assert "the runs used different suites (suite_sha256): mid.json differ from other.json" in page.text_content("#board-message")
    page.check("#board-mixed")
    page.wait_for_function(READY)
    assert page.evaluate("document.getElementById('board').dataset.board") == "ready"
    assert "mixed suites (--allow-mixed)" in page.text_content("#board-result")
    page.uncheck("#board-mixed")


def test_the_live_result_joins_the_board(page, live, files):  # noqa: F811
    live(OPENAI)
    assert run(page, scope="should_call", cap=NEED["should_call"], model="gpt-board") == "done"
    page.click("#board-clear")
    page.evaluate("document.getElementById('board').dataset.board = 'waiting'")
    page.click("#board-use-live")
    page.wait_for_function(READY, timeout=60_000)
    assert page.text_content("#board .board-name span") == "openai / gpt-board"
