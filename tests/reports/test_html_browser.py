"""The HTML reports opened from disk (file://) in real Chromium: the headline is there, nothing
is requested but the file itself, and a hostile model name runs no script."""
from __future__ import annotations

import io

import pytest

from boarddocs import HOSTILE, run_doc, write_runs
from suitefigures import CASES
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
    assert page.locator("details.case-row").count() == CASES
    assert page.evaluate("document.scripts.length") == 0
    assert requests == [board.as_uri(), card.as_uri()] and dialogs == []
    page.close()


@pytest.mark.parametrize("width", [390, 1280])
def test_reports_fit_the_screen_and_pass_axe(browser, tmp_path, width):
    # at 390 px the report never scrolls sideways: each wide table scrolls in its own box, which
    # the keyboard reaches (axe: scrollable-region-focusable), and axe finds nothing at all
    from axe import axe_violations
    from browser import ARTIFACTS

    paths = write_runs(tmp_path, {"a": run_doc("strong", label="baseline"), "b": run_doc(HOSTILE, 3)})
    reports = {"board": ["board", *paths], "card": ["grade", "--transcripts", paths[1]],
               "compare": ["compare", *paths], "fixtures": ["grade"]}
    page = browser.new_page(viewport={"width": width, "height": 900})
    ARTIFACTS.mkdir(exist_ok=True)
    for name, argv in reports.items():
        out = tmp_path / f"{name}.html"
        assert run([*argv, "--html", str(out)], stdout=io.StringIO(), stderr=io.StringIO()) == 0
        page.goto(out.as_uri())
        assert page.evaluate("document.documentElement.scrollWidth") <= width, name
        boxes = page.eval_on_selector_all(".table-scroll", """bs => bs.map(b => [b.tabIndex, b.getAttribute('aria-label'),
                                                                             b.scrollWidth > b.clientWidth])""")
        assert boxes and all(tab == 0 and label for tab, label, _ in boxes), name
        if width == 390:
            assert any(wide for _, _, wide in boxes), name        # something did need its own scroll
        assert page.locator("dl.legend dt").count() >= 5, name
        assert axe_violations(page) == [], name
        page.screenshot(path=str(ARTIFACTS / f"report-{name}-{width}.png"))
    page.close()
