"""An opened results file older than some errata shows them on its card, in `grade`'s words, and
its card carries the same `errata` as `grade --format json` (real Chromium).

The page reads data/errata.json from its archive: here it is replaced (page_files_with) by errata
with one entry made after tests/fixtures/older_results.json (a fixture labelled as one, created
2026-11-20) and one for a case that file did not grade.
"""
from __future__ import annotations

import json
import re

import pytest

from browser import PAGE_FILES, REQUEST_TIMEOUT_S, ROOT, booted, page_files_with
from clirun import cli_output as cli
from toolproof.datafiles import DATA, read_json
from toolproof.suite.errata import fingerprints

pytestmark = pytest.mark.browser
pytest.importorskip("playwright.sync_api")

OLDER = ROOT / "tests" / "fixtures" / "older_results.json"


def errata_doc() -> dict:
    doc = read_json(DATA / "errata.json")
    sha = fingerprints(read_json(DATA / "suite.json"))
    doc["entries"] = doc["entries"] + [
        {"case": "sc-reminder-prescription", "date": "2099-01-01", "changed": "remind_at now accepts 17:30:00",
         "why": "a test's entry", "expect_sha256": sha["sc-reminder-prescription"]},
        {"case": "ask-table-no-date", "date": "2099-01-01", "changed": "a case the file did not grade",
         "why": "a test's entry", "expect_sha256": sha["ask-table-no-date"]}]
    return doc


def test_an_older_results_file_shows_the_errata_that_apply(browser, server, tmp_path):
    errata = tmp_path / "errata.json"
    errata.write_text(json.dumps(errata_doc()), encoding="utf-8")
    context = browser.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True)
    page = context.new_page()
    page.route(PAGE_FILES, page_files_with({"data/errata.json": errata.read_text(encoding="utf-8")}))
    page.goto(server + f"?timeout={REQUEST_TIMEOUT_S}")
    booted(page)
    page.wait_for_selector("#runs[data-count]")
    page.evaluate("document.getElementById('kept').dataset.open = ''")
    page.set_input_files("#open-results", files=[{"name": "older.json", "mimeType": "application/json",
                                                  "buffer": OLDER.read_bytes()}])
    page.wait_for_selector("#run-card[data-state=ready]", timeout=60_000)
    shown = page.eval_on_selector_all("#run-card .card-erratum", "ps => ps.map(p => p.textContent)")
    card = json.loads(cli("grade", "--format", "json", "--transcripts", str(OLDER), "--errata", str(errata)))
    text = cli("grade", "--transcripts", str(OLDER), "--errata", str(errata)).splitlines()
    start = next(i for i, line in enumerate(text) if line.startswith("Errata: "))
    count = int(re.match(r"Errata: (\d+) ", text[start]).group(1))   # the committed entries that apply too
    assert shown == [line.strip() for line in text[start:start + 1 + count]]
    assert shown[-1] == "sc-reminder-prescription (2099-01-01): remind_at now accepts 17:30:00"
    with page.expect_download() as download:
        page.click("#export-kept-json")
    exported = json.loads(open(download.value.path(), encoding="utf-8").read())
    assert exported["scorecard"]["errata"] == card["errata"]
    context.close()
