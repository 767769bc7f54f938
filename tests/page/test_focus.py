"""Issue 37 item 6, in real Chromium: focus goes where the user went, and axe-core finds nothing.

Enter on a header link moves focus to its section (a tabindex="-1" target), so the next Tab is
inside it, not 56 stops away; at the end of a run focus moves to the run's outcome line without
scrolling, unless the user was typing in another panel meanwhile. Every region that scrolls is
focusable (Tab, then the arrow keys) and says what it holds. axe-core (tests/axe.py) reports no
violation of any impact at 1280 and 390 px on the ready page, with a run, a comparison and the
board open. Screenshots of each state go to test-artifacts/focus-*.png.
"""
from __future__ import annotations

import json

import pytest

from axe import axe_violations
from boarddocs import partial_doc, run_doc, write_runs
from browser import ARTIFACTS, pages_per_width
from repeatdocs import BY_ID
from routed import OPENAI, RoutedProvider, origin_pattern, wait_until

pytestmark = pytest.mark.browser
pytest.importorskip("playwright.sync_api")

WIDTHS = (1280, 390)
SECTIONS = {"nav-run": "live", "nav-own": "own", "nav-runs": "kept", "nav-compare": "compare",
            "nav-board": "board", "nav-fixtures": "fixture"}
ENDED = "['done', 'aborted', 'error'].includes(document.body.dataset.run)"
# every element that scrolls (its content overflows a box that scrolls): how it is reached and named
SCROLLERS = """() => [...document.querySelectorAll('body *')].filter(e => {
        const s = getComputedStyle(e);
        const x = ['auto', 'scroll'].includes(s.overflowX) && e.scrollWidth > e.clientWidth + 1;
        const y = ['auto', 'scroll'].includes(s.overflowY) && e.scrollHeight > e.clientHeight + 1;
        return (x || y) && e.offsetParent !== null;
    }).map(e => ({what: e.tagName.toLowerCase() + '.' + e.className, tabindex: e.getAttribute('tabindex'),
                  role: e.getAttribute('role'), label: e.getAttribute('aria-label') || ''}))"""


@pytest.fixture(scope="module")
def pages(browser, server):
    """One booted page per width, its draft cleared."""
    out = pages_per_width(browser, server, WIDTHS)
    yield out
    for page in out.values():
        page.context.close()


def no_violations(page, what: str) -> None:
    found = axe_violations(page)
    assert found == [], f"{what} at {page.viewport_size['width']} px: " + json.dumps(found, indent=1)


def scrollers_are_reachable(page, what: str) -> None:
    found = page.evaluate(SCROLLERS)
    bad = [s for s in found if s["tabindex"] != "0" or s["role"] != "region" or not s["label"].strip()]
    assert bad == [], (what, page.viewport_size["width"], bad[:5])


def active(page) -> str:
    return page.evaluate("document.activeElement.id || document.activeElement.tagName")


def test_a_header_link_moves_focus_to_its_section(pages):
    for page in pages.values():
        for link, section in SECTIONS.items():
            page.focus(f"#{link}")
            page.keyboard.press("Enter")
            page.wait_for_function(f"document.activeElement.id === '{section}'")
            # the next Tab lands inside the section, not back in the header
            page.keyboard.press("Tab")
            assert page.evaluate(f"document.getElementById('{section}').contains(document.activeElement)"), \
                (link, active(page))
        page.evaluate("window.scrollTo(0, 0)")


def test_the_ready_page(pages):
    for width, page in pages.items():
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(ARTIFACTS / f"focus-ready-{width}.png"))
        page.click('#fixture-card .case-row[data-case-id="mst-refund-latest-order"] button.toggle')
        page.click('#fixture-card .case-row[data-case-id="mst-refund-latest-order"] details.raw-json summary')
        scrollers_are_reachable(page, "the ready page, a case detail open")
        no_violations(page, "the ready page")


def run_to_the_end(page, provider) -> None:
    page.select_option("#provider", "openai")
    page.fill("#model", "gpt-test")
    page.fill("#api-key", "sk-focus-test")
    page.select_option("#scope", "should_call")
    page.fill("#cap", "9")
    page.click("#run-live")


def test_a_run_ends_with_focus_on_its_outcome_and_no_scroll(pages):
    for width, page in pages.items():
        provider = RoutedProvider(page, origin_pattern(OPENAI))
        provider.script = {case_id: [("hold",)] for case_id in BY_ID}
        run_to_the_end(page, provider)
        wait_until(page, lambda: provider.held, "the first request held")
        provider.script = {}
        before = page.evaluate("window.scrollY")
        provider.release(provider.held.pop(0), status=200, headers={"access-control-allow-origin": "*",
                                                                   "content-type": "application/json"},
                         body=json.dumps({"choices": [{"message": {"role": "assistant", "content": "no"},
                                                       "finish_reason": "stop"}]}))
        page.wait_for_function(ENDED, timeout=60_000)
        assert page.evaluate("document.body.dataset.run") == "done", page.text_content("#run-message")
        assert active(page) == "run-message"
        assert page.evaluate("window.scrollY") == before          # focus moved, the page did not
        page.keyboard.press("Tab")                                 # and Tab goes on into the result
        assert page.evaluate("document.getElementById('live').contains(document.activeElement)"), active(page)
        page.locator("#live-card").scroll_into_view_if_needed()
        page.screenshot(path=str(ARTIFACTS / f"focus-run-{width}.png"))
        scrollers_are_reachable(page, "after a run")
        no_violations(page, "after a run")
        provider.close()


def test_a_run_that_ends_while_the_user_types_elsewhere_leaves_focus_there(pages):
    page = pages[1280]
    provider = RoutedProvider(page, origin_pattern(OPENAI))
    provider.script = {case_id: [("hold",)] for case_id in BY_ID}
    run_to_the_end(page, provider)
    wait_until(page, lambda: provider.held, "the first request held")
    provider.script = {}
    page.focus("#own-paste")
    page.keyboard.type("[")
    provider.release(provider.held.pop(0), status=200, headers={"access-control-allow-origin": "*",
                                                               "content-type": "application/json"},
                     body=json.dumps({"choices": [{"message": {"role": "assistant", "content": "no"},
                                                   "finish_reason": "stop"}]}))
    page.wait_for_function(ENDED, timeout=60_000)
    assert active(page) == "own-paste"
    provider.close()


def test_a_comparison_and_the_board(pages, tmp_path_factory):
    folder = tmp_path_factory.mktemp("focus")
    # a run cut short among them: the board's table of unranked runs is checked too
    paths = write_runs(folder, {"strong": run_doc("strong"), "mid": run_doc("mid", 3), "weak": run_doc("weak", 2),
                                "cut": partial_doc("cut")})
    for width, page in pages.items():
        page.set_input_files("#compare-a", paths[0])
        page.set_input_files("#compare-b", paths[1])
        page.wait_for_selector('#compare[data-compare="ready"]', timeout=60_000)
        page.locator("#compare").scroll_into_view_if_needed()
        page.screenshot(path=str(ARTIFACTS / f"focus-compare-{width}.png"))
        page.set_input_files("#board-files", paths)
        page.wait_for_selector('#board[data-board="ready"]', timeout=60_000)
        assert "`" not in page.text_content("#board-result")          # no Markdown shown raw
        assert page.locator("#board .board-row.unranked").count() == 1
        page.locator("#board").scroll_into_view_if_needed()
        page.screenshot(path=str(ARTIFACTS / f"focus-board-{width}.png"))
        scrollers_are_reachable(page, "a comparison and the board open")
        no_violations(page, "a comparison and the board open")
    assert all(page.errors == [] for page in pages.values())
