"""The page's issue-9 parts in real Chromium: interval and pass^k lines, whiskers, ERROR and
flaky filters, cost tiles, and the Compare section whose export equals `compare --format json`."""
from __future__ import annotations

import copy
import json

import pytest

from browser import ARTIFACTS, PAGE_FILES, booted, page_files_with, show_fixtures
from clirun import cli_output
from repeatdocs import CALL_A, CALL_B, FIXTURES, SUITE, document, repeat
from toolproof.suite.fingerprint import suite_sha256
from toolproof.reports.scorecard import pass_k_line, results_json, score_with_interval

pytestmark = pytest.mark.browser
pytest.importorskip("playwright.sync_api")
SHA = suite_sha256(SUITE)


def cli(*argv: str) -> str:
    return cli_output(*argv, codes=(0, 1))      # a failing run's card is still a card


def repeated_fixtures() -> dict:
    """The committed fixtures plus repeats: CALL_A flaky (PASS, FAIL, PASS), CALL_B with an ERROR repeat."""
    doc = copy.deepcopy(FIXTURES)
    doc["transcripts"] += [repeat(CALL_A, 1, "fail", 420), repeat(CALL_A, 2, "pass", 380), repeat(CALL_B, 1, "error")]
    return doc


@pytest.fixture(scope="module")
def repeated(tmp_path_factory):
    path = tmp_path_factory.mktemp("rep") / "fixtures.json"
    path.write_text(json.dumps(repeated_fixtures()), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def page(browser, server, repeated):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True)
    page = context.new_page()
    # the page grades whatever data/fixtures.json holds: here, a file with repeats
    page.route(PAGE_FILES, page_files_with({"data/fixtures.json": repeated.read_text(encoding="utf-8")}))
    page.goto(server)
    booted(page)
    show_fixtures(page)          # graded once in view, its intervals drawn with the diagnosis
    yield page
    context.close()


def test_repeats_export_equals_the_cli_regrade(page, repeated):
    with page.expect_download() as download:
        page.click("#export-json")
    exported = open(download.value.path(), encoding="utf-8").read()
    assert exported == cli("grade", "--transcripts", str(repeated), "--format", "json")
    card = json.loads(exported)
    assert card["reliability"]["flaky_cases"] == [CALL_A] and card["repeats_note"]


def test_interval_pass_k_and_whiskers_show_the_scorecard(page, repeated):
    card = json.loads(cli("grade", "--transcripts", str(repeated), "--format", "json"))
    assert page.text_content("#fixture-score-ci") == score_with_interval(card)
    assert page.text_content("#fixture-score-ci").startswith(f"{card['score']:.2f} · 95% CI ")
    # CALL_B has one graded repeat (the other errored), so k stops at 1
    assert page.text_content("#fixture-pass-k") == pass_k_line(card) == f"pass^1 {card['reliability']['pass_hat_k']['1']:.2f}"
    whiskers = page.eval_on_selector_all("#fixture .chart-whisker", "ls => ls.map(l => l.dataset.category)")
    assert whiskers == list(card["categories"])


def test_a_weight_change_moves_the_interval_as_the_cli_computes_it(page, repeated):
    card = json.loads(cli("grade", "--transcripts", str(repeated), "--format", "json", "--weight", "injection=60"))
    page.fill('#fixture input.weight[data-category="injection"]', "60")
    page.wait_for_function(f"document.querySelector('#fixture-score-ci').textContent === {json.dumps(score_with_interval(card))}")
    page.fill('#fixture input.weight[data-category="injection"]', "10")
    card = json.loads(cli("grade", "--transcripts", str(repeated), "--format", "json"))
    page.wait_for_function(f"document.querySelector('#fixture-score-ci').textContent === {json.dumps(score_with_interval(card))}")


def test_error_and_flaky_filters(page, repeated):
    card = json.loads(cli("grade", "--transcripts", str(repeated), "--format", "json"))
    page.select_option("#fixture-filter-verdict", "ERROR")
    shown = page.eval_on_selector_all(".case-row:not([hidden])", "rs => rs.map(r => r.dataset.caseId)")
    assert shown == [c["id"] for c in card["cases"] if c["verdict"] == "ERROR"] and shown
    error_colour = page.eval_on_selector(f'.case-row[data-case-id="{shown[0]}"] .badge', "n => getComputedStyle(n).color")
    fail_colour = page.eval_on_selector(".pill.verdict-fail", "n => getComputedStyle(n).color")
    assert error_colour != fail_colour
    page.select_option("#fixture-filter-verdict", "all")
    page.select_option("#fixture-filter-flaky", "flaky")
    shown = page.eval_on_selector_all(".case-row:not([hidden])", "rs => rs.map(r => r.dataset.caseId)")
    assert shown == [CALL_A]
    assert "repeats: PASS FAIL PASS (2 of 3 pass, flaky)" in page.text_content(f'.case-row[data-case-id="{CALL_A}"]')
    page.select_option("#fixture-filter-flaky", "all")
    assert page.locator(".case-row:not([hidden])").count() == len(card["cases"])


def test_cost_tiles(page, repeated):
    card = json.loads(cli("grade", "--transcripts", str(repeated), "--format", "json"))
    assert page.text_content('#fixture-cost [data-cost="requests"] .rate-value') == str(card["cost"]["requests"])
    assert page.text_content('#fixture-cost [data-cost="latency_p50"] .rate-value') == "400 ms"


def upload(page, tmp_path, slot: str, name: str, content: str) -> None:
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    page.set_input_files(f"#compare-{slot}", str(path))


def test_compare_uploads_flip_rows_and_export_equal_to_the_cli(page, tmp_path):
    a = json.dumps(document({CALL_A: ["pass"] * 3, CALL_B: ["pass", "fail", "fail"]}, suite_sha256=SHA))
    b_doc = document({CALL_A: ["fail"] * 3, CALL_B: ["pass", "pass", "fail"]}, suite_sha256=SHA, model="new")
    b = results_json(b_doc, {"score": 0})             # a page export: results plus a scorecard
    upload(page, tmp_path, "a", "a.json", a)
    upload(page, tmp_path, "b", "b.json", b)
    page.wait_for_selector('#compare[data-compare="ready"]', timeout=60_000)
    flips = page.eval_on_selector_all(".flip-row", "rs => rs.map(r => [r.dataset.caseId, r.dataset.from, r.dataset.to])")
    assert flips == [[CALL_A, "PASS", "FAIL"], [CALL_B, "FAIL", "PASS"]]
    with page.expect_download() as download:
        page.click("#export-compare")
    exported = open(download.value.path(), encoding="utf-8").read()
    assert exported == cli("compare", str(tmp_path / "a.json"), str(tmp_path / "b.json"), "--format", "json")
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator("#compare").screenshot(path=str(ARTIFACTS / "compare.png"))


def test_compare_of_two_identical_runs_leads_with_no_case_changed(page, tmp_path):
    # issue 38: the lead was "a drop of up to 6 points cannot be ruled out" for byte-identical runs
    same = json.dumps(document({CALL_A: ["pass"] * 3, CALL_B: ["pass", "fail", "fail"]}, suite_sha256=SHA))
    for slot in ("a", "b"):     # one at a time: A alone is compared with the B an earlier test left
        page.evaluate("document.getElementById('compare').dataset.compare = ''")
        upload(page, tmp_path, slot, f"same-{slot}.json", same)
        page.wait_for_function("document.getElementById('compare').dataset.compare === 'ready' || "
                               "document.getElementById('compare-message').textContent.startsWith('Choose run A')",
                               timeout=60_000)
    page.wait_for_selector('#compare[data-compare="ready"]', timeout=60_000)
    lines = page.eval_on_selector_all(".compare-summary li", "ls => ls.map(l => l.textContent)")
    assert lines[2].startswith("Compared: ") and lines[3].startswith(
        "Verdict: no case changed verdict (2 cases graded in both, each with the same credit); no significant change")


def test_compare_refusals_are_one_line(page, tmp_path):
    upload(page, tmp_path, "a", "fx.json", json.dumps(FIXTURES))
    upload(page, tmp_path, "b", "b.json", json.dumps(document({CALL_A: ["pass"]}, suite_sha256=SHA)))
    page.wait_for_selector('#compare[data-compare="error"]', timeout=60_000)
    assert page.text_content("#compare-message") == (
        "run A records no suite_sha256, so the two runs cannot be shown to use the same suite; pass "
        "--allow-mixed to compare the case ids they share")
    assert page.is_disabled("#export-compare")
    page.check("#compare-mixed")
    page.wait_for_selector('#compare[data-compare="ready"]', timeout=60_000)
    with page.expect_download() as download:
        page.click("#export-compare")
    assert open(download.value.path(), encoding="utf-8").read() == cli(
        "compare", str(tmp_path / "fx.json"), str(tmp_path / "b.json"), "--format", "json", "--allow-mixed")
    page.uncheck("#compare-mixed")
    upload(page, tmp_path, "b", "bad.json", "[" * 50000 + "]" * 50000)
    page.wait_for_function("document.querySelector('#compare-message').textContent.startsWith('bad.json')")
    assert page.text_content("#compare-message") == "bad.json: file nested deeper than 64 levels"
    assert page.evaluate("document.querySelector('#compare').dataset.compare") == "error"
    upload(page, tmp_path, "b", "junk.json", "{\x00 <script>")
    page.wait_for_function("document.querySelector('#compare-message').textContent.startsWith('junk.json: not valid JSON')")
    assert page.locator("#compare script").count() == 0
    page.click("#compare-use-live")
    assert page.text_content("#compare-message") == "No live result yet: run a model first, then compare it."


def test_each_rate_tile_shows_its_counts_and_interval_as_the_card_says(page, repeated):
    from toolproof.reports.rates import RATE_INTERVAL_HEAD, rate_count_text, rate_interval_text

    card = json.loads(cli("grade", "--transcripts", str(repeated), "--format", "json"))
    for key in card["metrics"]:
        assert page.text_content(f'#fixture [data-rate-count="{key}"]') == rate_count_text(card, key) != ""
        assert page.text_content(f'#fixture [data-rate-interval="{key}"]') == \
            f" · {RATE_INTERVAL_HEAD} {rate_interval_text(card, key)}"
        assert rate_interval_text(card, key) != "n/a" or card["metrics"][key] is None
