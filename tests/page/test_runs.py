"""The page around the user's journey (issue 23, items 1, 4 and 8) in real Chromium: the header and
section order, the folded form and fixtures, runs kept in IndexedDB and reopened, results files
opened (and refused in one line), Compare from the kept list, the form kept across a reload, the
progress clock and tally, feed tags, the key hint and a refused connection told from CORS.

Providers are routed (tests/routed.py); waits are on the page's state attributes.
"""
from __future__ import annotations

import json
import socket

import pytest

from browser import ARTIFACTS, READY_TIMEOUT_MS, REQUEST_TIMEOUT_S, ROOT, booted
from livepage import FIRST, ENDED, NEED, card_cases, live, open_page, reasons, run, start  # noqa: F401
from routed import OPENAI
from suitefigures import CASES as SUITE_CASES

pytestmark = pytest.mark.browser
pytest.importorskip("playwright.sync_api")

KEY = "sk-test-key"


@pytest.fixture(scope="module")
def page(browser, server):
    page = open_page(browser, server, height=1000)
    yield page
    page.context.close()


def fresh(browser, server, context=None):
    """A page in its own (or the given) browser context, loaded until ready, #advanced as it starts."""
    context = context or browser.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True)
    page = context.new_page()
    page.goto(server + f"?timeout={REQUEST_TIMEOUT_S}")
    booted(page)
    page.wait_for_selector("#runs[data-count]")
    return page


def kept_count(page) -> int:
    return int(page.get_attribute("#runs", "data-count") or 0)


def wait_kept(page, count: int) -> None:
    page.wait_for_function(f"document.getElementById('runs').dataset.count === '{count}'", timeout=30_000)


def open_file(page, name: str, text: str | bytes) -> str:
    """Choose a file in #open-results; returns the page's state after ("done" or "error")."""
    page.evaluate("document.getElementById('kept').dataset.open = ''")
    payload = text if isinstance(text, bytes) else text.encode("utf-8")
    page.set_input_files("#open-results", files=[{"name": name, "mimeType": "application/json", "buffer": payload}])
    page.wait_for_function("['done', 'error'].includes(document.getElementById('kept').dataset.open)",
                           timeout=60_000)
    return page.get_attribute("#kept", "data-open")


def stored(page) -> str:
    """Everything the page keeps in IndexedDB and localStorage, as one text."""
    return page.evaluate("""async () => {
        const db = await new Promise((ok, bad) => { const r = indexedDB.open('toolproof', 1);
                                                      r.onsuccess = () => ok(r.result); r.onerror = bad; });
        const all = async store => await new Promise(ok => {
            const r = db.transaction(store).objectStore(store).getAll(); r.onsuccess = () => ok(r.result); });
        const text = JSON.stringify([await all('rows'), await all('docs'), {...localStorage}]);
        db.close();
        return text;
    }""")


# ---------------------------------------------------------------- item 1: layout

def test_the_header_reaches_every_section_in_the_journeys_order(browser, server):
    page = fresh(browser, server)
    links = {"nav-run": "#live", "nav-own": "#own", "nav-runs": "#kept", "nav-compare": "#compare",
             "nav-fixtures": "#fixture"}
    for link, target in links.items():
        assert page.get_attribute(f"#{link}", "href") == target
        assert page.locator(target).count() == 1
    tops = [page.eval_on_selector(t, "n => n.getBoundingClientRect().top + window.scrollY") for t in links.values()]
    assert tops == sorted(tops)                      # run, your tools, runs, compare, then the fixtures
    page.click("#nav-own")
    page.wait_for_function("document.getElementById('own').getBoundingClientRect().top < 200")
    # the form shows the few fields most runs need; the rest is folded
    for field in ("#provider", "#model", "#api-key", "#scope", "#cap", "#run-live"):
        assert page.is_visible(field), field
    assert page.evaluate("document.getElementById('advanced').open") is False
    for field in ("#max-tokens", "#timeout", "#pad", "#repeats", "#concurrency", "#temperature", "#headers"):
        assert page.eval_on_selector(field, "n => n.closest('#advanced') !== null"), field
        assert not page.is_visible(field), field
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(ARTIFACTS / "journey-top-1280.png"))
    # the fixture scorecard folds, and stays folded after a reload
    assert page.evaluate("document.getElementById('fixture-details').open") is True
    page.click("#fixture-details > summary")
    assert page.evaluate("document.getElementById('fixture-details').open") is False
    # "toggle" is dispatched in a task after the click's, so it may reach the page's Python after
    # the click has settled: wait for the state it keeps, not for the click (CI reloaded too soon)
    page.wait_for_function("localStorage.getItem('toolproof.fixtures-open') === 'false'")
    page.reload()
    page.wait_for_function("document.body?.dataset.ready === 'true'", timeout=READY_TIMEOUT_MS)
    assert page.evaluate("document.getElementById('fixture-details').open") is False
    assert not page.is_visible("#fixture-card")
    page.context.close()


def test_a_problem_in_a_folded_field_unfolds_it(browser, server):
    page = fresh(browser, server)
    page.fill("#model", "m")
    page.fill("#api-key", KEY)
    page.evaluate("document.getElementById('timeout').value = '0'")
    page.click("#run-live")             # the handler runs as a task: wait for what it says
    page.wait_for_function("document.getElementById('run-message').textContent !== ''")
    assert page.text_content("#run-message") == "The timeout must be a number between 0.1 and 3600 seconds."
    assert page.evaluate("document.getElementById('advanced').open") is True and page.is_visible("#timeout")
    page.context.close()


# ---------------------------------------------------------------- item 4: runs kept

def test_a_finished_run_is_kept_without_the_key_and_reopens_as_its_scorecard(page, live):
    live(OPENAI)
    before = kept_count(page)
    assert run(page, scope="should_call", cap=NEED["should_call"]) == "done"
    wait_kept(page, before + 1)
    live_verdicts = card_cases(page)
    row = page.locator("#runs .run-row").first
    text = row.text_content()
    assert "openai" in text and "gpt-test" in text and f"{len(live_verdicts)} of {len(live_verdicts)} graded" in text
    score = page.text_content("#live-card .score-value").strip()
    assert row.locator(".run-score").text_content() == f"{float(score):.1f}"
    assert "run kept" in page.text_content("#runs-size") and " MB of " in page.text_content("#runs-size")
    assert KEY not in stored(page)
    row.locator(".run-open").click()
    page.wait_for_selector("#run-card[data-state=ready]")
    reopened = dict(page.eval_on_selector_all("#run-card .case-row",
                                              "rows => rows.map(r => [r.dataset.caseId, r.dataset.verdict])"))
    assert reopened == live_verdicts
    assert page.text_content("#run-card .score-value").strip() == score
    ids = page.evaluate("[...document.querySelectorAll('[id]')].map(n => n.id)")
    assert len(ids) == len(set(ids))                 # the reopened card's ids are its own
    page.locator("#kept").screenshot(path=str(ARTIFACTS / "runs-kept-1280.png"))


def test_an_aborted_run_is_kept_too(page, live):
    provider = live(OPENAI)
    provider.script = {FIRST: [("hold",)]}
    before = kept_count(page)
    start(page, scope="should_call", cap=9, timeout="60")      # the abort ends the hold, not a timeout
    page.wait_for_function("document.body?.dataset.run === 'running'")
    from routed import wait_until
    wait_until(page, lambda: provider.held, "the first request in flight")
    page.click("#abort")
    page.wait_for_function(ENDED, timeout=30_000)
    # nothing was graded before the abort: a run with no transcript is not kept (nothing to reopen)
    if page.locator("#live-card .case-row").count():
        wait_kept(page, before + 1)
        assert "aborted" in page.locator("#runs .run-row").first.text_content()
    else:
        assert kept_count(page) == before


def test_rename_and_delete(page, live):
    live(OPENAI)
    count = kept_count(page) + 1
    assert run(page, scope="should_call", cap=NEED["should_call"]) == "done"
    wait_kept(page, count)
    row = page.locator("#runs .run-row").first
    run_id = row.get_attribute("data-run-id")
    row.locator(".run-rename").click()
    page.fill(f'.run-row[data-run-id="{run_id}"] .run-name-input', "baseline \u202e<b>bold</b>\x07")
    page.click(f'.run-row[data-run-id="{run_id}"] .run-save')
    page.wait_for_function(f"""document.querySelector('.run-row[data-run-id="{run_id}"] .run-name')
                               ?.textContent === 'baseline <b>bold</b>'""")
    assert page.locator("#runs b").count() == 0       # text, never markup
    page.click(f'.run-row[data-run-id="{run_id}"] .run-delete')
    wait_kept(page, count - 1)
    assert page.locator(f'.run-row[data-run-id="{run_id}"]').count() == 0


def test_files_from_the_page_and_the_terminal_open_as_scorecards(page, tmp_path):
    from toolproof.cli.main import run as cli

    fixtures = (ROOT / "data" / "fixtures.json").read_text(encoding="utf-8")
    assert open_file(page, "fixtures.json", fixtures) == "done", page.text_content("#runs-message")
    page.wait_for_selector("#run-card[data-state=ready]")
    scenarios = len({t["case_id"] for t in json.loads(fixtures)["transcripts"] if "world" in t})     # issue 39
    assert page.locator("#run-card .case-row").count() == SUITE_CASES + scenarios
    card = tmp_path / "card.json"
    import io
    out, err = io.StringIO(), io.StringIO()
    assert cli(["grade", "--format", "json"], out, err) == 0
    card.write_text(out.getvalue(), encoding="utf-8")
    assert open_file(page, "card.json", card.read_text(encoding="utf-8")) == "done", page.text_content("#runs-message")
    page.wait_for_selector("#run-card[data-state=ready]")
    expected = json.loads(out.getvalue())
    assert page.locator("#run-card .case-row").count() == len(expected["cases"])
    first = page.locator("#runs .run-row").first.text_content()
    graded = f"{expected['coverage']['graded']} of {expected['coverage']['planned']} graded"     # all but one + scenarios
    assert f"{expected['score']:.1f}" in first and graded in first and "scorecard only" in first
    # the Leaderboard ranks the kept runs it can grade and says which it left out (found by review:
    # one scorecard-only file refused the whole ranking)
    page.click("#board-use-kept")
    page.wait_for_function("document.getElementById('board-message').textContent.includes('Left out')")
    line = page.text_content("#board-message")
    assert page.get_attribute("#board", "data-board") in ("ready", "empty"), line
    assert "1 scorecard-only file (no transcripts in it)" in line and "with no suite fingerprint, e.g. the fixtures" in line


@pytest.mark.parametrize("name,text,message", [
    ("broken.json", "{\"format\": ", "broken.json: not valid JSON"),
    ("list.json", "[1, 2]", "list.json: not a results file: the JSON is an array, not an object"),
    ("tools.json", json.dumps({"format": "toolproof.tools", "version": 1, "tools": []}),
     "tools.json: not a results file: its format is 'toolproof.tools', expected 'toolproof.transcripts'"),
    ("deep.json", "[" * 5000 + "]" * 5000, "deep.json:"),
    ("nan.json", '{"format": "toolproof.transcripts", "version": 1, "kind": "live", "transcripts": NaN}', "nan.json:"),
    ("other.json", json.dumps({"hello": "world"}), "other.json: not a results file: expected a results file"),
])
def test_a_bad_file_is_refused_in_one_line(page, name, text, message):
    before = kept_count(page)
    assert open_file(page, name, text) == "error"
    line = page.text_content("#runs-message")
    assert line.startswith(message) and "\n" not in line and "Traceback" not in line
    assert kept_count(page) == before


def test_a_results_file_cut_short_opens_with_its_whole_transcripts_and_says_so(page):
    from toolproof.grading.results_text import results_text

    fixtures = json.loads((ROOT / "data" / "fixtures.json").read_text(encoding="utf-8"))
    doc = {**fixtures, "kind": "live", "state": "running",
           "transcripts": [t for t in fixtures["transcripts"] if "phrasing" not in t][:10]}
    text = results_text(doc)
    cut = text[:text.rindex("\n{") + 40]                 # a kill in the middle of writing the tenth
    assert open_file(page, "killed.json", cut) == "done", page.text_content("#runs-message")
    page.wait_for_selector("#run-card[data-state=ready]")
    assert page.locator("#run-card .case-row").count() == 9
    assert "this results file was cut short while the run wrote it (killed, or the disk full): 9 whole " \
           "transcripts read" in page.text_content("#run-card")


def test_a_huge_file_is_refused_before_it_is_read(page):
    assert open_file(page, "huge.json", b" " * 21_000_001) == "error"
    assert page.text_content("#runs-message") == "huge.json: file is 21.0 MB, over the 20 MB limit"


def test_hostile_strings_in_an_opened_file_stay_text(page):
    doc = json.loads((ROOT / "data" / "fixtures.json").read_text(encoding="utf-8"))
    doc.update(label="<img src=x onerror=\"window.__pwned=1\">\u202e\x1b[31m", model="<script>window.__pwned=2</script>",
               provider="x" * 5000)
    assert open_file(page, "hostile.json", json.dumps(doc)) == "done", page.text_content("#runs-message")
    row = page.locator("#runs .run-row").first
    assert "<img src=x" in row.text_content() and "<script>" in row.text_content()
    assert page.evaluate("window.__pwned") is None
    assert page.locator("#runs img, #runs script, #run-card img").count() == 0
    assert "\u202e" not in row.text_content() and "\x1b" not in row.text_content()


def test_compare_picks_a_and_b_from_the_kept_runs(page, live):
    live(OPENAI)
    count = kept_count(page)
    for _ in range(2):
        assert run(page, scope="should_call", cap=NEED["should_call"]) == "done"
        count += 1
        wait_kept(page, count)
    page.wait_for_function(f"document.querySelectorAll('#compare-a-run option').length === {count + 1}")
    options = page.eval_on_selector_all("#compare-a-run option", "os => os.map(o => o.value)")[1:]
    page.evaluate("document.getElementById('compare').dataset.compare = ''")
    page.select_option("#compare-a-run", options[1])
    page.select_option("#compare-b-run", options[0])
    page.wait_for_function("document.getElementById('compare').dataset.compare === 'ready'", timeout=30_000)
    assert "Compared." in page.text_content("#compare-message")


def test_the_form_survives_a_reload_but_the_key_stays_in_the_tab(browser, server):
    page = fresh(browser, server)
    page.select_option("#provider", "anthropic")
    page.fill("#model", "claude-test")
    page.fill("#base-url", "http://localhost:8089")
    page.fill("#api-key", "sk-ant-secret-123")
    page.select_option("#scope", "injection")
    page.evaluate("document.getElementById('advanced').open = true")
    page.fill("#repeats", "3")
    page.dispatch_event("#repeats", "input")
    page.fill("#temperature", "0.5")
    page.fill("#cap", "5")
    page.dispatch_event("#cap", "input")
    assert "sk-ant-secret-123" not in page.evaluate("JSON.stringify({...localStorage})")
    other = fresh(browser, server, page.context)        # a new tab: sessionStorage (the key) is the tab's
    assert other.input_value("#provider") == "anthropic" and other.input_value("#model") == "claude-test"
    assert other.input_value("#base-url") == "http://localhost:8089"
    assert other.input_value("#scope") == "injection" and other.input_value("#cap") == "5"
    assert other.input_value("#repeats") == "3" and other.input_value("#temperature") == "0.5"
    assert other.evaluate("document.getElementById('advanced').open") is True   # kept settings in view
    assert other.input_value("#api-key") == ""
    # garbage in storage is ignored, never a broken form
    other.evaluate("localStorage.setItem('toolproof.form', '[' .repeat(100000))")
    third = fresh(browser, server, page.context)
    assert third.input_value("#provider") == "openai" and third.input_value("#model") == ""
    page.context.close()


# ---------------------------------------------------------------- item 8: progress and small things

def test_progress_shows_time_tally_and_each_repeat(page, live):
    provider = live(OPENAI)
    provider.script = {FIRST: [("hold",)]}
    page.fill("#repeats", "2")
    page.dispatch_event("#repeats", "input")
    try:
        start(page, scope="should_call", cap=18, timeout="60")     # the test releases the hold
        from routed import wait_until
        wait_until(page, lambda: provider.held, "the first request held")
        page.wait_for_selector("#run-elapsed")
        assert page.text_content("#run-elapsed").startswith("Elapsed 0:")
        assert page.text_content("#run-eta") == "· estimating the time left after the first conversation…"
        page.locator("#live").screenshot(path=str(ARTIFACTS / "live-progress-1280.png"))
        provider.release(provider.held.pop(), status=200, headers={"access-control-allow-origin": "*",
                                                                    "content-type": "application/json"},
                         body=provider.replay(FIRST, 1, {})[2])
        page.wait_for_function(ENDED, timeout=30_000)
    finally:
        page.fill("#repeats", "1")
        page.dispatch_event("#repeats", "input")
    tally = page.eval_on_selector("#run-tally", "n => ({...n.dataset})")
    done = sum(int(tally[v]) for v in ("pass", "partial", "fail", "error"))
    assert done == int(tally["done"]) == len(page.evaluate("window.__feed"))
    assert "PASS" in page.text_content("#run-tally")
    assert "repeat 1 of 2" in page.evaluate("window.__feedText") and "repeat 2 of 2" in page.evaluate("window.__feedText")


def test_a_key_of_another_provider_gets_a_hint_but_still_runs(page, live):
    page.select_option("#provider", "openai")
    page.fill("#api-key", "sk-ant-api03-abc")
    assert page.is_visible("#key-hint")
    assert "sk-ant-" in page.text_content("#key-hint") and "Anthropic" in page.text_content("#key-hint")
    assert "abc" not in page.text_content("#key-hint")
    page.fill("#api-key", KEY)
    assert not page.is_visible("#key-hint")
    live(OPENAI)
    assert run(page, key="sk-ant-api03-abc", scope="should_call", cap=9) == "done"   # a hint, never a block


def test_a_refused_connection_is_told_from_cors(page, live):
    with socket.socket() as probe:                  # a local port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    base = f"http://127.0.0.1:{port}/v1"
    assert run(page, provider="openai-compatible", model="m", key="", base_url=base, scope="should_call", cap=1) == "error"
    reason = reasons(page, FIRST)
    assert f"no HTTP answer from {base}/chat/completions: the connection was refused" in reason
    assert "CORS" not in reason


def test_a_run_of_your_suite_is_labelled_so_and_reopens_on_the_draft(page, live):
    from routed import openai_body

    tools = [{"type": "function", "function": {
        "name": "get_weather", "description": "Get the current weather for a city.",
        "parameters": {"type": "object", "properties": {"city": {"type": "string", "description": "the city"}},
                       "required": ["city"], "additionalProperties": False}}}]
    suite = {"format": "toolproof.suite", "version": 1, "cases": [
        {"id": "w1", "category": "should_call", "tools": ["get_weather"], "prompt": "Weather in Paris now?",
         "expect": {"action": "call", "calls": [{"tool": "get_weather", "args": {"city": "Paris"}}]}}]}
    for field, name, doc in (("#own-tools", "tools.json", tools), ("#own-suite", "suite.json", suite)):
        page.set_input_files(field, files=[{"name": name, "mimeType": "application/json",
                                            "buffer": json.dumps(doc).encode("utf-8")}])
        page.wait_for_selector("#scope option[value=own]", state="attached", timeout=60_000) \
            if field == "#own-suite" else page.wait_for_function(
                "document.querySelector('#own-message').textContent.length > 0 && "
                "!document.querySelector('#own-message').textContent.startsWith('Reading')", timeout=60_000)
    live(OPENAI, answer=lambda case_id, turn, body: (200, {}, openai_body(calls=[("get_weather", '{"city": "Paris"}')])))
    count = kept_count(page) + 1
    assert run(page, scope="own", cap=1) == "done", page.text_content("#run-message")
    label = page.text_content("#live-card .live-label")
    assert "Your suite (1 case)" in label and "scope all" not in label
    wait_kept(page, count)
    row = page.locator("#runs .run-row").first
    assert row.locator(".run-name").text_content() == "Your suite (1 case)"
    row.locator(".run-open").click()
    page.wait_for_selector("#run-card[data-state=ready]")
    assert page.eval_on_selector_all("#run-card .case-row", "rs => rs.map(r => [r.dataset.caseId, r.dataset.verdict])") \
        == [["w1", "PASS"]]
