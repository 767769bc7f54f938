"""One vocabulary in the page (issue 37 item 3): the scope option and the need line say one number,
the progress counts conversations, and the live card's counts are the results file's by the
stated definitions (tests/cardcounts.py), for a run with phrasings, repeats, retries and errors.

A fast user: the form is changed with no pause, right after each change that makes the worker
write; waits are on the page's state, never on a clock. Screenshots at 1280 and 390 px go to
test-artifacts/.
"""
from __future__ import annotations

import pytest

from browser import ARTIFACTS, READY_TIMEOUT_MS
from cardcounts import recompute
from fakeprovider import fixture_answer
from livepage import ENDED, exports, live, open_page, start  # noqa: F401
from routed import CORS, OPENAI, wait_until
from toolproof.datafiles import load_bundle
from toolproof.suite.model import chosen_phrasings, requests_needed, scoped

pytestmark = pytest.mark.browser
pytest.importorskip("playwright.sync_api")

BUNDLE = load_bundle()
SCOPE = scoped(BUNDLE.cases, "should_call")
NOW = {"retry-after": "0"}
BUSY = (503, NOW, '{"error": {"message": "busy"}}')
REFUSED = (400, {}, '{"error": {"message": "bad request"}}')


@pytest.fixture(scope="module")
def page(browser, server):
    page = open_page(browser, server, height=1000)
    yield page
    page.context.close()


@pytest.fixture
def openai(live):
    return live(OPENAI)


def agreed_need(page) -> int:
    """The need line's number once the scope option of the chosen scope says the same (the worker
    writes both after a change); the number itself."""
    page.wait_for_function("""() => {
        const scope = document.getElementById('scope');
        const option = scope.options[scope.selectedIndex].textContent;
        const need = document.getElementById('need').textContent;
        const n = option.match(/: (\\d+) requests?$/);
        return n && need.includes(`needs at most ${n[1]} request`);
    }""", timeout=READY_TIMEOUT_MS)
    return int(page.text_content("#need").split("needs at most ")[1].split(" ")[0])


def test_the_scope_option_and_the_need_line_say_one_number_as_the_form_changes(page):
    page.select_option("#scope", "should_call")
    page.select_option("#phrasings", "2")
    page.fill("#repeats", "3")
    page.dispatch_event("#repeats", "input")
    need = 3 * requests_needed(SCOPE, 2)
    page.wait_for_function(f"document.getElementById('need').textContent.includes('at most {need} requests')",
                           timeout=READY_TIMEOUT_MS)
    assert agreed_need(page) == need
    conversations = 3 * sum(len(chosen_phrasings(c, 2)) for c in SCOPE)
    assert f"for {conversations} conversations ({len(SCOPE)} cases in their chosen phrasings × 3 repeats)" \
        in page.text_content("#need")
    # every other option moved with it: the whole suite's option says its own need
    whole = page.eval_on_selector("#scope option[value=all]", "o => o.textContent")
    assert whole == f"All categories ({len(BUNDLE.cases)} cases): {3 * requests_needed(BUNDLE.cases, 2)} requests"
    # back to one phrasing, one repeat: the option says the base need again
    page.select_option("#phrasings", "base")
    page.fill("#repeats", "1")
    page.dispatch_event("#repeats", "input")
    page.wait_for_function(f"document.getElementById('need').textContent.includes("
                           f"'at most {requests_needed(SCOPE)} requests for {len(SCOPE)} conversations')",
                           timeout=READY_TIMEOUT_MS)
    assert agreed_need(page) == requests_needed(SCOPE)


def test_a_run_with_phrasings_repeats_and_errors_shows_the_counts_of_its_file(page, openai):
    first, second, third, fourth = (c.id for c in SCOPE[:4])
    # first: one conversation refused (400, never retried: a conversation ERROR, the case graded
    # on the others); second: every conversation fails after its retries (an ERROR case); third:
    # one request held until the progress has been looked at mid-run; fourth: one retry
    openai.script = {first: [REFUSED], second: [BUSY] * 12, third: [("hold",)], fourth: [BUSY]}
    page.select_option("#scope", "should_call")
    page.select_option("#phrasings", "2")
    page.fill("#repeats", "2")
    page.dispatch_event("#repeats", "input")
    page.fill("#concurrency", "3")
    need = agreed_need(page)
    assert need == 2 * requests_needed(SCOPE, 2)
    most = int(page.get_attribute("#cap", "max"))            # every retry allowed for
    conversations = 2 * sum(len(chosen_phrasings(c, 2)) for c in SCOPE)
    start(page, scope="should_call", cap=most)
    wait_until(page, lambda: openai.held, "the third case's request held")
    page.wait_for_function("Number(document.getElementById('run-tally').dataset.done || 0) >= 6",
                           timeout=READY_TIMEOUT_MS)
    assert page.text_content("#cases-text").endswith(f" / {conversations}")
    eta = page.text_content("#run-eta")
    assert eta.startswith("· about ") and "requests to go, at the pace so far)" in eta, eta
    page.locator("#live").screenshot(path=str(ARTIFACTS / "vocab-progress-1280.png"))
    page.set_viewport_size({"width": 390, "height": 1000})
    try:   # mid-run on a phone: the meters fit, and "Running … at <endpoint URL>" wraps
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        page.locator("#run-progress").screenshot(path=str(ARTIFACTS / "vocab-progress-390.png"))
    finally:
        page.set_viewport_size({"width": 1280, "height": 1000})
    route = openai.held.pop()
    post = next(p for p in openai.posts if p["case_id"] == third)
    status, headers, text = fixture_answer(third, post["turn"], "openai")
    openai.release(route, status=status, headers=CORS, body=text)
    page.wait_for_function(ENDED, timeout=READY_TIMEOUT_MS)
    assert page.text_content("#cases-text") == f"{conversations} / {conversations}"
    assert page.text_content("#run-tally").startswith(f"{conversations} conversations so far:")
    doc, _ = exports(page)
    card = doc.pop("scorecard")
    want = recompute(doc, BUNDLE.cases, BUNDLE.tools)
    assert (want["error"], want["conversation_errors"]) == (1, 5)
    assert want["requests"] == len(openai.posts) > conversations        # the retries are requests
    assert page.text_content("#live-counts") == (
        f"{want['cases']} cases: {want['PASS']} PASS, {want['PARTIAL']} PARTIAL, {want['FAIL']} FAIL, "
        f"{want['error']} ERROR ({card['counts']['truncated']} truncated)")
    line = page.locator("#live-conversations")
    assert [line.get_attribute(f"data-{k}") for k in ("planned", "graded", "error", "not-started")] == \
        [str(want[k]) for k in ("planned", "graded", "conversation_errors", "not_started")]
    assert line.text_content() == (f"{want['planned']} conversations (case × phrasing × repeat): "
                                   f"{want['graded']} graded, {want['conversation_errors']} ERROR, "
                                   f"{want['not_started']} not started")
    assert page.text_content("#live-card .pill.verdict-error") == f"{want['error']} ERROR"
    requests = page.text_content("#live-cost [data-cost=requests] .rate-value")
    assert requests == str(want["requests"]) == str(card["cost"]["requests"])
    assert "request errors" not in page.text_content("#live-card")
    page.locator("#live-card .summary").screenshot(path=str(ARTIFACTS / "vocab-card-1280.png"))
    page.set_viewport_size({"width": 390, "height": 1000})
    try:
        page.locator("#live-card .summary").screenshot(path=str(ARTIFACTS / "vocab-card-390.png"))
        page.locator("#run-form").screenshot(path=str(ARTIFACTS / "vocab-form-390.png"))
    finally:
        page.set_viewport_size({"width": 1280, "height": 1000})
