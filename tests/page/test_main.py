"""The real page in real Chromium: boots offline, grades the fixtures, matches the terminal."""
from __future__ import annotations

import json
import re
import shutil

import pytest

from browser import ARTIFACTS, PAGE_FILES, READY_TIMEOUT_MS, ROOT, booted, is_local, page_files_with, settled, show_fixtures
from clirun import cli_output as cli
from toolproof.reports.four_way import summary as four_way_summary

pytestmark = pytest.mark.browser
pytest.importorskip("playwright.sync_api")


def open_page(browser, url: str):
    """A fresh page, every request and console line recorded, loaded until ready."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True)
    page = context.new_page()
    page.requests, page.console = [], []
    page.on("request", lambda r: page.requests.append(r.url))
    page.on("console", lambda m: page.console.append(m.text))
    page.goto(url)
    booted(page)
    show_fixtures(page)
    return page


@pytest.fixture(scope="module")
def page(browser, server):
    page = open_page(browser, server)
    yield page
    page.context.close()


def test_page_is_ready_and_graded(page):
    rows = page.locator(".case-row")
    card = json.loads(cli("grade", "--format", "json"))
    assert rows.count() == len(card["cases"])
    assert page.text_content("#fixture .score-value") == f"{card['score']:.2f}"
    verdicts = page.eval_on_selector_all(".case-row", "rows => rows.map(r => [r.dataset.caseId, r.dataset.verdict])")
    assert verdicts == [[c["id"], c["verdict"]] for c in card["cases"]]


def test_no_request_leaves_the_machine(page, server):
    assert page.requests, "no requests were recorded"
    outside = [u for u in page.requests if not is_local(u, server)]
    assert outside == []


def test_fixture_label_and_empty_live_area(page):
    assert page.text_content("#fixture .fixture-banner") == "FIXTURE: illustrative responses, not a benchmark result"
    assert page.text_content("#live-empty") == "No real-model result yet"
    fixture_colour = page.eval_on_selector("#fixture .score-value", "n => getComputedStyle(n).color")
    live_border = page.eval_on_selector("#live", "n => getComputedStyle(n).borderTopColor")
    fixture_border = page.eval_on_selector("#fixture", "n => getComputedStyle(n).borderTopColor")
    assert fixture_border != live_border and fixture_colour != "rgb(28, 36, 48)"


def test_exported_json_equals_the_cli(page):
    with page.expect_download() as download:
        page.click("#export-json")
    exported = open(download.value.path(), encoding="utf-8").read()
    assert exported == cli("grade", "--format", "json")


def test_markdown_export(page):
    with page.expect_download() as download:
        page.click("#export-md")
    text = open(download.value.path(), encoding="utf-8").read()
    assert text.startswith("# ToolProof scorecard") and "FIXTURE: illustrative responses" in text


def test_weight_change_recomputes_the_score(page):
    card = json.loads(cli("grade", "--format", "json"))
    page.fill('input.weight[data-category="multi_step"]', "55")
    weights = {**card["weights"], "multi_step": 55}
    cats = card["categories"]
    expected = round(100 * sum(weights[c] * cats[c]["score"] for c in cats) / sum(weights[c] for c in cats), 2)
    assert page.text_content("#fixture .score-value") == f"{expected:.2f}"
    assert expected != card["score"]
    with page.expect_download() as download:
        page.click("#export-json")
    exported = open(download.value.path(), encoding="utf-8").read()
    assert exported == cli("grade", "--format", "json", "--weight", "multi_step=55")
    page.fill('input.weight[data-category="multi_step"]', "20")
    assert page.text_content("#fixture .score-value") == f"{card['score']:.2f}"


@pytest.mark.parametrize("weight", ["1e308", "1e-320", "2000000"])
def test_a_weight_the_score_cannot_use_is_refused_as_the_terminal_refuses_it(page, weight):
    # the page's weight inputs check with scorecard.check_weights, as --weight does: two weights of
    # 1e308 summed past a float's range (a traceback in the terminal)
    card = json.loads(cli("grade", "--format", "json"))
    for category in ("multi_step", "injection"):
        page.fill(f'input.weight[data-category="{category}"]', weight)
        assert page.get_attribute("#fixture-card", "data-weights-error") == "true"
        assert page.text_content("#fixture .score-value") == "—"
    page.fill('input.weight[data-category="multi_step"]', "20")
    page.fill('input.weight[data-category="injection"]', "10")
    assert page.get_attribute("#fixture-card", "data-weights-error") == "false"
    assert page.text_content("#fixture .score-value") == f"{card['score']:.2f}"


def test_filters(page):
    page.select_option("#fixture-filter-verdict", "FAIL")
    visible = page.eval_on_selector_all(".case-row:not([hidden])", "rows => rows.map(r => r.dataset.verdict)")
    assert visible and set(visible) == {"FAIL"}
    page.select_option("#fixture-filter-category", "injection")
    visible = page.eval_on_selector_all(".case-row:not([hidden])", "rows => rows.map(r => r.dataset.category)")
    assert visible and set(visible) == {"injection"}
    page.select_option("#fixture-filter-verdict", "all")
    page.select_option("#fixture-filter-category", "all")
    assert page.locator(".case-row:not([hidden])").count() == page.locator(".case-row").count()


def test_expanding_a_case_shows_request_and_response(page):
    row = page.locator('.case-row[data-case-id="mst-refund-latest-order"]')
    row.locator("button.toggle").click()
    settled(page)
    text = row.locator(".case-detail").text_content()
    assert "Turn 1: request" in text and "Turn 2: response" in text
    assert '"parallel_tool_calls": false' in text and '"role": "tool"' in text


def test_hostile_html_stays_text(page):
    images_before = page.locator("img").count()
    scripts_before = page.locator("script").count()
    for cid in ("inj-invite-img", "inj-readme-script"):
        row = page.locator(f'.case-row[data-case-id="{cid}"]')
        row.locator("button.toggle").click()
        settled(page)
        assert re.search(r"<(img|script)", row.text_content())
    assert page.locator("img").count() == images_before == 0
    assert page.locator("script").count() == scripts_before
    assert page.evaluate("window.__toolproofPwned === undefined")


def test_screenshot_artifact(page):
    ARTIFACTS.mkdir(exist_ok=True)
    page.evaluate("window.scrollTo(0, 0)")
    path = ARTIFACTS / "page.png"
    page.screenshot(path=str(path), full_page=True)
    assert path.stat().st_size > 10_000


def test_in_page_selftest_matches_the_terminal(browser, server):
    terminal = cli("selftest").strip().splitlines()[-1]
    n = int(re.match(r"selftest: (\d+) passed, 0 failed$", terminal).group(1))
    page = open_page(browser, server + "?selftest=1")
    page.wait_for_function("document.getElementById('selftest-result').textContent !== ''",
                           timeout=READY_TIMEOUT_MS)
    assert json.loads(page.text_content("#selftest-result")) == {"passed": n, "failed": 0}
    assert f"selftest: {n} passed, 0 failed" in page.console
    page.context.close()


def test_pyscript_config_lists_exactly_the_package():
    import importlib.util

    spec = importlib.util.spec_from_file_location("pyscript_config", ROOT / "web" / "pyscript_config.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    committed = (ROOT / "web" / "pyscript.json").read_text()
    assert committed == module.text(), "run: python web/pyscript_config.py"
    config = json.loads(committed)
    assert config["files"] == {"./page-files.zip": "./*"}      # one archive, unpacked where Python runs
    listed = {rel for rel in config["page_files"] if rel.startswith("toolproof/")}
    package = {p.relative_to(ROOT).as_posix() for p in (ROOT / "toolproof").rglob("*.py")}
    assert listed == {rel for rel in package if module.in_page(rel)}
    # what stays out is only what the page cannot or does not yet use (see NOT_IN_PAGE)
    assert {rel for rel in package if not module.in_page(rel)} >= {"toolproof/cli/mcp_stdio.py", "toolproof/cli/tools.py", "toolproof/cli/main.py"}


def test_diagnosis_shows_the_cli_numbers(page):
    card = json.loads(cli("grade", "--format", "json"))
    d = card["diagnosis"]
    # shown right after the page is ready, off the start-up path
    page.wait_for_selector('#fixture-card[data-diagnosis="ready"]', timeout=READY_TIMEOUT_MS)
    section = page.locator("#fixture-diagnosis")
    text = section.text_content()
    decide = section.locator("table.grid2 tbody tr")
    assert decide.nth(0).locator("td").nth(0).text_content() == str(d["decide"]["should_call"]["called"])
    assert decide.nth(1).locator("td").nth(1).text_content() == str(d["decide"]["should_not_call"]["not_called"])
    heat = section.locator("table.heatmap")
    assert heat.locator("tbody tr").count() > 0
    cells = heat.locator("td.heat.off:not(.heat-0)")
    assert cells.count() > 0                      # the fixtures confuse at least one pair of tools
    for pair in d["select"]["confused_pairs"]:
        assert f"{pair['expected']} → {pair['called']} ({pair['count']})" in text
    assert f"{100 * d['use']['result_tracking_rate']:.1f}%" in text
    assert "What to fix" in text
    fw = d["decide"]["four_way"]                  # the four-way table: 4 label rows, observed, precision
    assert section.locator("table.four-way tbody tr").count() == 6
    assert f"over {fw['covers']} of {fw['of']} conversations" in text and fw["method"] in text
    assert four_way_summary(fw) in text                    # Pyodide's macro-F1 and bootstrap bounds are the terminal's
    assert "FIXTUREFAKE" not in page.content()      # credentials are redacted everywhere


def test_jsonschema_is_fetched_only_when_a_schema_needs_it(browser, server, page):
    # The committed data compiles, so the page never fetched the wheels...
    assert not [u for u in page.requests if "/vendor/wheels/" in u]
    # ...but a tool schema with a keyword the built-in checker does not know (anyOf) makes the
    # page fetch jsonschema from vendor/ and still grade everything.
    tools = json.loads((ROOT / "data" / "tools.json").read_text())
    tools["tools"].append({"name": "lookup_anything", "domain": "files", "description": "Test only.",
                           "parameters": {"type": "object", "properties": {
                               "key": {"anyOf": [{"type": "string"}, {"type": "integer"}]}}}})
    context = browser.new_context()
    other = context.new_page()
    requests = []
    other.on("request", lambda r: requests.append(r.url))
    other.route(PAGE_FILES, page_files_with({"data/tools.json": json.dumps(tools)}))
    other.goto(server)
    other.wait_for_function("(document.body?.dataset.ready ?? 'false') !== 'false'", timeout=READY_TIMEOUT_MS)
    assert other.evaluate("document.body.dataset.ready") == "true", other.text_content("#boot-error")
    assert [u for u in requests if u.endswith("jsonschema-4.26.0-py3-none-any.whl")]
    show_fixtures(other)
    assert other.locator(".case-row").count() == page.locator(".case-row").count()
    context.close()


def test_the_fixtures_are_graded_once_their_section_is_in_view_not_before(browser, server):
    """Grading the fixtures and their diagnosis were half of every start-up: the page is ready
    without them, and the header's Fixtures link (or a scroll) has them graded, then diagnosed."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(server)
    booted(page)
    assert page.evaluate("document.getElementById('fixture-card').dataset.state") is None
    assert page.locator("#fixture-card .case-row").count() == 0
    assert page.evaluate("Object.keys(window.__stages)").count("graded") == 0
    page.click("#nav-fixtures")
    page.wait_for_selector('#fixture-card[data-diagnosis="ready"]', state="attached", timeout=READY_TIMEOUT_MS)
    assert page.get_attribute("#fixture-card", "data-state") == "graded"
    assert page.locator("#fixture-card .case-row").count() == len(json.loads(cli("grade", "--format", "json"))["cases"])
    stages = page.evaluate("window.__stages")
    assert stages["panels"] < stages["graded"] < stages["rendered"] < stages["diagnosis"]
    context.close()


def test_a_missing_runtime_is_an_error_state_not_a_spinner(browser, server):
    context = browser.new_context()
    page = context.new_page()
    page.route("**/vendor/pyodide/**", lambda route: route.fulfill(status=404, body="missing"))
    page.goto(server)
    page.wait_for_function("document.body?.dataset.ready === 'error'", timeout=READY_TIMEOUT_MS)
    message = page.text_content("#boot-error")
    assert message.startswith("ToolProof could not start:") and "python serve.py" in message
    assert not page.is_visible("#boot")
    context.close()


def test_a_module_whose_source_changed_runs_its_new_source_not_its_old_bytecode(browser, server):
    """The archive may carry each module's .pyc beside it (serving/bytecode.py). It is a
    checked-hash pyc: a source that no longer matches it (here, repacked into the archive with
    the old .pyc kept) is compiled afresh, so a stale .pyc can only ever be slower, never wrong."""
    source = (ROOT / "toolproof" / "suite" / "categories.py").read_text(encoding="utf-8")
    assert source.count('Category("injection", "Injection", ') == 1      # the label's one record
    edited = source.replace('Category("injection", "Injection", ', 'Category("injection", "Injection (edited source)", ')
    context = browser.new_context()
    page = context.new_page()
    page.route(PAGE_FILES, page_files_with({"toolproof/suite/categories.py": edited}))
    page.goto(server)
    booted(page)
    show_fixtures(page)
    assert page.text_content('#fixture-card tr[data-category="injection"] th') == "Injection (edited source)"
    context.close()


def test_pyodide_is_restored_from_its_snapshot_and_a_spoiled_one_is_refused(browser, server, page):
    """serve.py serves Pyodide's memory after start-up (serving/snapshot.py, made by Node.js as
    the bytecode is) and the page restores it (web/runtime.mjs). A damaged copy is refused and
    Pyodide starts in full: the same card, only later."""
    if shutil.which("node") is None:
        pytest.skip("serve.py makes the snapshot with Node.js, which is not on PATH")
    assert page.evaluate("window.__runtime") == "restored from its snapshot"
    context = browser.new_context()
    other = context.new_page()
    damaged = b"\x1f\x8b\x08\x00" + bytes(range(256)) * 4          # a gzip header, then nonsense
    other.route("**/web/pyodide-snapshot.gz",
                lambda route: route.fulfill(status=200, body=damaged, content_type="application/gzip"))
    other.goto(server)
    booted(other)
    show_fixtures(other)
    assert other.evaluate("window.__runtime").startswith("started in full (no snapshot: it was refused: ")
    assert other.text_content("#fixture .score-value") == page.text_content("#fixture .score-value")
    assert other.locator(".case-row").count() == page.locator(".case-row").count()
    context.close()
    # redirected: to another origin (no CORS there, so no answer to read), and within the site to
    # a path that is not there
    for elsewhere, why in (("http://localhost:9/pyodide-snapshot.gz", "it could not be fetched ("),
                           (server + "web/no-such-snapshot.gz", "none is served here")):
        context = browser.new_context()
        other = context.new_page()
        other.route("**/web/pyodide-snapshot.gz",
                    lambda route, _request, to=elsewhere: route.fulfill(status=302, headers={"Location": to}))
        other.goto(server)
        booted(other)
        show_fixtures(other)
        assert other.evaluate("window.__runtime").startswith(f"started in full (no snapshot: {why}")
        assert other.text_content("#fixture .score-value") == page.text_content("#fixture .score-value")
        context.close()
