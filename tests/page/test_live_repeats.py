"""Repeats, concurrency and prices in the real page (Chromium, routed provider, never a real one).

One page for the module. The page's live scorecard must be the one `grade --transcripts` gives
for the results file the page exports (same repeats statistics, same cost), concurrency must
hold requests in flight without exceeding it, and a provider that never answers stops the run.
"""
from __future__ import annotations

import io
import json

import pytest

from browser import ARTIFACTS
from fakeprovider import FIXTURES, fixture_answer
from livepage import ENDED, assert_only_talked_to, exports, live, open_page, start  # noqa: F401
from routed import CORS, OPENAI, wait_until
from toolproof.cli.main import run as cli
from toolproof.datafiles import load_bundle
from toolproof.suite.fingerprint import suite_sha256
from toolproof.suite.model import requests_needed, scoped

pytestmark = pytest.mark.browser
pytest.importorskip("playwright.sync_api")

BUNDLE = load_bundle()
SHOULD_CALL = [c.id for c in BUNDLE.cases if c.category == "should_call"]
TWICE = 2 * requests_needed(scoped(BUNDLE.cases, "should_call"))     # the scope's requests, repeated twice


@pytest.fixture(scope="module")
def page(browser, server):
    page = open_page(browser, server, height=1000)      # room for the form and the card in one shot
    yield page
    page.context.close()


@pytest.fixture
def openai(live):
    provider = live(OPENAI)
    provider.server = live.server
    return provider


def form(page, *, repeats="1", concurrency="1", price_in="", price_out="") -> None:
    page.select_option("#scope", "should_call")
    page.fill("#repeats", repeats)
    page.dispatch_event("#repeats", "input")
    page.fill("#concurrency", concurrency)
    page.fill("#price-in", price_in)
    page.fill("#price-out", price_out)
    page.fill("#pad-seed", "0")


def test_repeats_and_concurrency_regrade_as_the_cli(page, openai, tmp_path):
    # the first three work items (case 0 twice, case 1 once) are held: with 3 in flight at most,
    # nothing else may be sent until one of them is answered
    openai.script = {SHOULD_CALL[0]: [("hold",), ("hold",)], SHOULD_CALL[1]: [("hold",)]}
    form(page, repeats="2", concurrency="3", price_in="0.4", price_out="1.6")
    assert page.get_attribute("#cap", "max") == str(3 * TWICE) and f"at most {TWICE} requests" in page.text_content("#need")
    # held until the test answers them: a timeout long enough that a busy machine never beats it
    start(page, scope="should_call", cap=TWICE, timeout="60")
    wait_until(page, lambda: len(openai.held) == 3, "three requests in flight")
    assert page.evaluate("document.body.dataset.run") == "running"
    held = list(openai.held)
    openai.held.clear()
    for route, post in zip(held, openai.posts[:3]):
        status, headers, text = fixture_answer(post["case_id"], post["turn"], "openai")
        openai.release(route, status=status, headers=CORS, body=text)
    page.wait_for_function(ENDED, timeout=60_000)
    # the limit, from what the provider saw: never a fourth request while three were unanswered
    assert openai.peak_in_flight == 3
    assert page.evaluate("document.body.dataset.run") == "done"
    assert page.text_content("#cases-text") == f"{2 * len(SHOULD_CALL)} / {2 * len(SHOULD_CALL)}"
    assert page.text_content("#requests-text") == f"{TWICE} / {TWICE}"
    assert len(openai.posts) == TWICE
    doc, _ = exports(page)
    card = doc.pop("scorecard")
    assert doc["suite_sha256"] == suite_sha256(BUNDLE.documents["suite"])
    assert (doc["settings"]["repeats"], doc["settings"]["concurrency"]) == (2, 3)
    assert [(t["case_id"], t["repeat"]) for t in doc["transcripts"]] == [(c, r) for c in SHOULD_CALL for r in (0, 1)]
    assert card["repeats"] == 2
    assert all(c["repeats"] == [FIXTURES[c["id"]]["intended_verdict"]] * 2 for c in card["cases"])
    assert card["cost"]["usd"] is not None and card["cost"]["requests"] == TWICE
    # the terminal re-grades the exported results file to the very same scorecard
    path = tmp_path / "live.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    code = cli(["grade", "--transcripts", str(path), "--format", "json", "--price-in", "0.4", "--price-out", "1.6"],
               stdout=out, stderr=err)
    assert (code, err.getvalue()) == (0, "")
    assert json.loads(out.getvalue()) == card
    pass_k = page.text_content("#live-card")
    assert "pass^2" in pass_k
    page.locator("#run-form").screenshot(path=str(ARTIFACTS / "live-repeats-form.png"))
    page.locator("#live-card").screenshot(path=str(ARTIFACTS / "live-repeats.png"))
    assert_only_talked_to(page, openai.server, OPENAI)


def test_a_provider_that_never_answers_stops_the_run(page, openai):
    openai.script = {SHOULD_CALL[0]: [("fail",)] * 3}
    form(page, concurrency="1")
    start(page, scope="should_call", cap=9)
    page.wait_for_function(ENDED, timeout=30_000)
    assert page.evaluate("document.body.dataset.run") == "error"
    message = page.text_content("#run-message")
    assert message.startswith(f"Run stopped: network error: no HTTP answer from {OPENAI}: the connection was refused")
    assert len(openai.posts) == 3            # one case, its retries; nothing after the stop


@pytest.mark.parametrize("field, value, line", [
    ("repeats", "0", "Repeats must be a whole number between 1 and 20."),
    ("repeats", "2.5", "Repeats must be a whole number between 1 and 20."),
    ("repeats", "1e309", "Repeats must be a whole number between 1 and 20."),
    ("concurrency", "17", "Concurrency must be a whole number between 1 and 16."),
    # the bound JavaScript reads exactly; the terminal's --pad-seed has the same (running/settings.py)
    ("pad-seed", str(2 ** 53), "The pad seed must be a whole number between 0 and 9007199254740991."),
    ("price-in", "0.5", "Give both prices as numbers from 0 to 1000000 (USD per million tokens), or leave both empty."),
    ("price-out", "-1", "Give both prices as numbers from 0 to 1000000 (USD per million tokens), or leave both empty."),
])
def test_bad_form_values_are_refused_before_any_request(page, openai, field, value, line):
    form(page)
    page.fill(f"#{field}", value)
    start(page, scope="should_call", cap=9)
    page.wait_for_function("s => document.getElementById('run-message').textContent === s", arg=line)
    assert openai.posts == [] and page.evaluate("document.body.dataset.run") == "idle"
    form(page)
