"""Kept runs are never dropped silently (issue 36 item 5), in real Chromium: with the store at its
bound, opening a results file drops the oldest run, and a notice names it (label, provider /
model, date, size); it stays beside the next one and after every later line, until its Dismiss
button is pressed, from the keyboard too.

The store is filled up to its bound directly in IndexedDB (rows as the page writes them,
reports/kept_runs.row_of), so no test needs 60 real runs. Waits are on `data-count` attributes.
"""
from __future__ import annotations

import json

import pytest

from axe import axe_violations, serious
from browser import ARTIFACTS, booted
from clirun import cli
from toolproof.reports.kept_runs import MAX_RUNS, row_of

pytestmark = pytest.mark.browser
pytest.importorskip("playwright.sync_api")

SEEDED = MAX_RUNS - 1           # one short of the bound: the first file fits, the next ones drop


def seeded_rows() -> list[dict]:
    """The oldest two labelled and dated (what the notice must name), the rest plain."""
    rows = []
    for i in range(SEEDED):
        doc = {"format": "toolproof.transcripts", "provider": "openai", "model": f"gpt-old-{i:02d}",
               "created": "2025-12-31T10:00:00Z" if i == 0 else ""}
        label = {0: "Baseline A", 1: "Baseline B"}.get(i, "")
        rows.append(row_of(doc, {"score": 50.0, "cases": []}, run_id=f"seed-{i:02d}",
                           kept=f"2026-01-01T00:{i:02d}:00Z", size=20_000, label=label))
    return rows


@pytest.fixture(scope="module")
def page(browser, server):
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    page = context.new_page()
    page.goto(server)
    booted(page)
    page.wait_for_selector("#runs[data-count]")
    page.evaluate("""async (rows) => {
        const db = await new Promise((ok, bad) => { const r = indexedDB.open('toolproof', 1);
                                                      r.onsuccess = () => ok(r.result); r.onerror = bad; });
        const tx = db.transaction(['rows', 'docs'], 'readwrite');
        for (const row of rows) {
            tx.objectStore('rows').put({id: row.id, json: JSON.stringify(row)});
            tx.objectStore('docs').put({id: row.id, text: '{}'});
        }
        await new Promise((ok, bad) => { tx.oncomplete = ok; tx.onerror = bad; });
        db.close();
    }""", seeded_rows())
    page.reload()
    booted(page)
    page.wait_for_function(f"document.getElementById('runs').dataset.count === '{SEEDED}'", timeout=60_000)
    yield page
    context.close()


CARD = cli("grade", "--format", "json")[1]        # a scorecard file: opens without grading again


def open_card(page, name: str) -> None:
    page.evaluate("document.getElementById('kept').dataset.open = ''")
    page.set_input_files("#open-results", files=[{"name": name, "mimeType": "application/json",
                                                  "buffer": CARD.encode("utf-8")}])
    page.wait_for_function("['done', 'error'].includes(document.getElementById('kept').dataset.open)",
                           timeout=60_000)
    assert page.get_attribute("#kept", "data-open") == "done", page.text_content("#runs-message")


def notices(page) -> list[list[str]]:
    return page.eval_on_selector_all("#runs-notices .notice", """ns => ns.map(n =>
        [n.querySelector('p').textContent, ...[...n.querySelectorAll('li')].map(li => li.textContent)])""")


def kept_ids(page) -> list[str]:
    return page.eval_on_selector_all("#runs .run-row", "rs => rs.map(r => r.dataset.runId)")


def test_a_file_that_fits_drops_nothing_and_says_nothing_more(page):
    open_card(page, "card1.json")
    assert page.get_attribute("#runs", "data-count") == str(MAX_RUNS)
    assert page.get_attribute("#runs-notices", "data-count") == "0" and notices(page) == []
    assert page.text_content("#runs-message") == "Opened card1.json and kept it in this browser."


def test_each_drop_is_named_in_a_notice_that_later_lines_do_not_replace(page):
    open_card(page, "card2.json")
    assert page.get_attribute("#runs", "data-count") == str(MAX_RUNS)
    assert "seed-00" not in kept_ids(page) and "seed-01" in kept_ids(page)
    first = [f"To keep card2.json, 1 older run was dropped from this browser (it keeps at most {MAX_RUNS} runs "
             "and 40 MB). Export a run before opening more if you need it again:",
             "Baseline A: openai / gpt-old-00, run 2025-12-31 10:00 UTC, 0.0 MB"]
    assert notices(page) == [first]
    # the line under the file input moved on; the notice did not
    assert page.text_content("#runs-message") == "Opened card2.json and kept it in this browser."
    open_card(page, "card3.json")
    second = [first[0].replace("card2", "card3"), "Baseline B: openai / gpt-old-01, kept 2026-01-01 00:01 UTC, 0.0 MB"]
    assert notices(page) == [first, second]                       # stacked, the first untouched
    assert page.get_attribute("#runs-notices", "data-count") == "2"
    assert page.text_content("#runs-message") == "Opened card3.json and kept it in this browser."
    page.locator("#runs-notices").scroll_into_view_if_needed()
    top, notes = page.locator("#kept").bounding_box(), page.locator("#runs-notices").bounding_box()
    page.screenshot(path=str(ARTIFACTS / "kept-drop-notices.png"), clip={
        "x": top["x"], "y": top["y"], "width": top["width"], "height": notes["y"] + notes["height"] + 80 - top["y"]})
    found = serious(axe_violations(page, include="#kept"))
    assert found == [], json.dumps(found, indent=1)


def test_a_notice_goes_only_when_dismissed_and_the_keyboard_reaches_it(page):
    assert page.get_attribute("#runs-notices", "data-count") == "2"
    page.focus("#open-results")
    page.keyboard.press("Tab")                                    # the first notice's Dismiss
    assert page.evaluate("document.activeElement.classList.contains('notice-dismiss')")
    page.keyboard.press("Enter")
    page.wait_for_function("document.getElementById('runs-notices').dataset.count === '1'", timeout=30_000)
    assert [n[1] for n in notices(page)] == ["Baseline B: openai / gpt-old-01, kept 2026-01-01 00:01 UTC, 0.0 MB"]
    # the focus went to the next notice's button, not lost with the removed one
    page.wait_for_function("document.activeElement.classList.contains('notice-dismiss')", timeout=30_000)
    page.keyboard.press("Space")
    page.wait_for_function("document.getElementById('runs-notices').dataset.count === '0'", timeout=30_000)
    assert notices(page) == []
    page.wait_for_function("document.activeElement.id === 'open-results'", timeout=30_000)
