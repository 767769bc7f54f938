"""The page's card shows the JSON's score or its absence and the same counts (issue 38), for the
documents of tests/viewsagree.py (repeats, phrasings, errors, caps below and above half of the
plan, sweeps, one cut after its first level, nothing graded): one page load, each results file
opened in Runs, its card and its row read as a user reads them and held to `grade --format json`.
Waits are on the page's state attributes (`#kept[data-open]`, `#run-card[data-state]`).
"""
from __future__ import annotations

import json

import pytest

from browser import ARTIFACTS
from clirun import cli
from livepage import open_page
from viewsagree import GRADED, HEADLINE, NO_SCORE, documents, expected

pytestmark = pytest.mark.browser
pytest.importorskip("playwright.sync_api")

DOCS = documents()          # the runner's asyncio.run cannot run inside Playwright's loop: built first


@pytest.fixture(scope="module")
def page(browser, server):
    page = open_page(browser, server, height=1000)
    page.wait_for_selector("#runs[data-count]")
    yield page
    page.context.close()


def opened(page, name: str, doc: dict) -> dict:
    """Open `doc` in Runs; what its card and its row say."""
    page.evaluate("document.getElementById('kept').dataset.open = ''; "
                  "document.getElementById('run-card').dataset.state = ''")
    page.set_input_files("#open-results", files=[{"name": f"{name}.json", "mimeType": "application/json",
                                                  "buffer": json.dumps(doc).encode("utf-8")}])
    page.wait_for_function("document.getElementById('kept').dataset.open === 'done'", timeout=60_000)
    page.wait_for_selector("#run-card[data-state=ready]", timeout=60_000)
    run_id = page.get_attribute("#run-card", "data-run-id")
    return {"score": page.text_content("#run-card .score-value").strip(),
            "ci": page.text_content("#kept-score-ci").strip(),
            "counts": page.text_content("#kept-counts").strip(),
            "coverage": page.text_content("#kept-coverage").strip(),
            "categories": page.eval_on_selector_all("#run-card table.categories tbody tr td:nth-child(2)",
                                                    "tds => tds.map(t => t.textContent)"),
            "row": page.text_content(f'#runs .run-row[data-run-id="{run_id}"] .run-score').strip()}


def test_the_page_card_and_its_runs_row_say_what_the_json_says(page, tmp_path):
    for name, doc in DOCS.items():
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(doc), encoding="utf-8")
        code, stdout, stderr = cli("grade", "--transcripts", str(path), "--format", "json")
        assert code == 0, stderr
        card = json.loads(stdout)
        want, shown = expected(card), opened(page, name, doc)
        if want.score is None:
            assert shown["score"] == "—" and shown["row"] == "no score", (name, shown)
            assert NO_SCORE.match(shown["ci"])[1] == want.reason, (name, shown["ci"])
            assert all(cell == "n/a" for cell in shown["categories"]), (name, shown["categories"])
        else:
            found = HEADLINE.match(shown["ci"])
            assert (shown["score"], found[1]) == (want.score, want.score), (name, shown)
            assert ((found[2], found[3]) if found[2] else None) == want.interval, (name, shown["ci"])
            assert shown["row"] == f"{card['score']:.1f}", (name, shown["row"])
            graded = GRADED.search(shown["coverage"])
            assert (None if graded is None else (int(graded[1]), int(graded[2]), graded[3])) == want.graded, name
        cases, passed, partial, failed, error = want.verdicts
        assert shown["counts"].startswith(f"{cases} case{'' if cases == 1 else 's'}: {passed} PASS, {partial} PARTIAL, "
                                          f"{failed} FAIL, {error} ERROR"), (name, shown["counts"])
        if name == "cap-below-half":
            for width in (1280, 390):
                page.set_viewport_size({"width": width, "height": 1000})
                page.locator("#run-card .summary").screenshot(path=str(ARTIFACTS / f"views-agree-no-score-{width}.png"))
            page.set_viewport_size({"width": 1280, "height": 1000})
