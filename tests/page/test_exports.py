"""The page's exports (issue 37 item 5) in real Chromium: a run's HTML (the fixtures, a live run, a
kept run) is what `grade --format html` prints for the same file, a comparison's what `compare
--format html` prints, and every download is named by its run's name, model and date
(reports/file_names.py), the board's and a comparison's too."""
from __future__ import annotations

import json
import re

import pytest

from boarddocs import run_doc, write_runs
from browser import ARTIFACTS, show_fixtures
from clirun import cli_output as cli
from livepage import NEED, live, page, run  # noqa: F401  (fixtures)
from routed import OPENAI
from toolproof.reports.file_names import comparison_file_name, run_file_name

pytestmark = pytest.mark.browser
pytest.importorskip("playwright.sync_api")


def downloaded(page, button: str) -> tuple[str, str]:
    """(the file name the page suggested, the text) of the download a click starts."""
    with page.expect_download() as download:
        page.click(button)
    return download.value.suggested_filename, open(download.value.path(), encoding="utf-8").read()


def test_the_fixtures_export_html_as_grade_prints_it(page):
    show_fixtures(page)                  # graded once in view
    name, text = downloaded(page, "#export-html")
    assert (name, text) == ("toolproof-fixtures.html", cli("grade", "--format", "html"))
    assert downloaded(page, "#export-json")[0] == "toolproof-fixtures.json"
    assert downloaded(page, "#export-md")[0] == "toolproof-fixtures.md"


def test_a_live_and_a_kept_run_export_html_as_grade_prints_it_named_by_model_and_date(page, live, tmp_path):
    live(OPENAI)
    before = int(page.get_attribute("#runs", "data-count") or 0)
    assert run(page, scope="should_call", cap=NEED["should_call"], model="gpt-test/v1.2") == "done"
    name, text = downloaded(page, "#export-live-json")
    doc = json.loads(text)
    date = doc["created"][:10]
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", date)
    assert name == f"toolproof-openai-gpt-test-v1.2-{date}.json" == run_file_name(doc, "json")
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    name, html = downloaded(page, "#export-live-html")
    assert name == f"toolproof-openai-gpt-test-v1.2-{date}.html"
    assert html == cli("grade", "--transcripts", str(path), "--format", "html")
    assert downloaded(page, "#export-live-md")[0] == f"toolproof-openai-gpt-test-v1.2-{date}.md"
    # kept, renamed in Runs, reopened: its exports carry the name the user gave
    page.wait_for_function(f"document.getElementById('runs').dataset.count === '{before + 1}'", timeout=30_000)
    row = page.locator("#runs .run-row").first
    run_id = row.get_attribute("data-run-id")
    row.locator(".run-rename").click()
    page.fill(f'.run-row[data-run-id="{run_id}"] .run-name-input', "night\u202ely/../../x")
    page.click(f'.run-row[data-run-id="{run_id}"] .run-save')
    page.wait_for_function(f"""document.querySelector('.run-row[data-run-id="{run_id}"] .run-name')
                               ?.textContent === 'nightly/../../x'""")
    page.locator(f'.run-row[data-run-id="{run_id}"] .run-open').click()
    page.wait_for_selector("#run-card[data-state=ready]")
    name, kept_html = downloaded(page, "#export-kept-html")
    assert name == f"toolproof-nightly-x-gpt-test-v1.2-{date}.html"
    assert kept_html == html


def test_a_comparison_exports_html_as_compare_prints_it_named_by_both_runs(page, tmp_path):
    a, b = run_doc("model-a", label="before"), run_doc("model-b", 3)
    paths = write_runs(tmp_path, {"a": a, "b": b})
    for slot, path in zip("ab", paths):
        page.set_input_files(f"#compare-{slot}", path)
    page.wait_for_selector('#compare[data-compare="ready"]', timeout=60_000)
    name, html = downloaded(page, "#export-compare-html")
    assert html == cli("compare", *paths, "--format", "html")
    assert name == comparison_file_name(a, b, "html") == \
        f"toolproof-compare-before-model-a-{a['created'][:10]}-vs-anthropic-model-b-{b['created'][:10]}.html"
    name, text = downloaded(page, "#export-compare")
    assert (name, text) == (comparison_file_name(a, b, "json"), cli("compare", *paths, "--format", "json"))
    # a slot emptied: the old comparison can no longer be exported under the new names
    page.set_input_files("#compare-b", [])
    page.wait_for_function("document.getElementById('export-compare-html').disabled")
    assert page.is_disabled("#export-compare")
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator("#compare").screenshot(path=str(ARTIFACTS / "compare-exports.png"))


def test_the_board_exports_are_named_by_their_size_and_newest_run(page, tmp_path):
    paths = write_runs(tmp_path, {"x": run_doc("x"), "y": run_doc("y", 2)})
    page.set_input_files("#board-files", paths)
    page.wait_for_function("document.getElementById('board').dataset.board === 'ready'", timeout=60_000)
    date = run_doc("x")["created"][:10]
    for button, ext in (("#export-board-json", "json"), ("#export-board-md", "md"), ("#export-board-html", "html")):
        assert downloaded(page, button)[0] == f"toolproof-board-2-runs-{date}.{ext}"
