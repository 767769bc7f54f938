"""The HTML reports opened from disk (file://) in real Chromium: the headline is there, nothing
is requested but the file itself, and a hostile model name runs no script."""
from __future__ import annotations

import io

import pytest

from boarddocs import HOSTILE, run_doc, write_runs
from toolproof.cli.main import run

pytestmark = pytest.mark.browser


def test_reports_open_from_disk_and_request_nothing(browser, tmp_path):
    paths = write_runs(tmp_path, {"a": run_doc("strong"), "b": run_doc(HOSTILE, 3)})
    board, card = tmp_path / "board.html", tmp_path / "card.html"
    assert run(["board", *paths, "--html", str(board)], stdout=io.StringIO(), stderr=io.StringIO()) == 0
    assert run(["grade", "--transcripts", paths[1], "--html", str(card)], stdout=io.StringIO(),
               stderr=io.StringIO()) == 0
    page = browser.new_page()
    requests, dialogs = [], []
    page.on("request", lambda r: requests.append(r.url))
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.goto(board.as_uri())
    assert page.locator("h1").inner_text().startswith("ToolProof leaderboard: 2 runs")
    assert page.locator("tr[data-run-id]").count() == 2
    assert "<script>alert(1)</script>" in page.locator("table.board").inner_text()
    page.goto(card.as_uri())
    assert page.locator(".headline").inner_text().endswith("over cases")
    assert page.locator("details.case-row").count() == 72
    assert page.evaluate("document.scripts.length") == 0
    assert requests == [board.as_uri(), card.as_uri()] and dialogs == []
    page.close()
