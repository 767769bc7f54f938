"""The live-run page under test: one booted page per module, routed providers per test, and the
helpers that fill the run form, read the live scorecard and check where the page talked.

Import the fixtures into a test module (`from livepage import live, page  # noqa: F401`); a
module that needs another viewport defines its own `page` with `open_page`, and `live` uses it.
The page boots with `?timeout=60` (REQUEST_TIMEOUT_S: what a busy machine needs) and every test
sets the form itself; a test of the timeout gives a request that is never answered `timeout="1"`. Waits are on the page's state (`data-ready`, `data-run`), never on a clock.
"""
from __future__ import annotations

import json

import pytest

from browser import READY_TIMEOUT_MS, REQUEST_TIMEOUT_S, ROOT, booted, is_local
from routed import RoutedProvider, origin_pattern
from toolproof.datafiles import load_bundle
from toolproof.suite.model import requests_needed, scoped

SUITE = {c["id"]: c for c in json.loads((ROOT / "data" / "suite.json").read_text())["cases"]}
CASES = load_bundle().cases
NEED = {scope: requests_needed(scoped(CASES, scope))
        for scope in ("should_call", "should_not_call", "injection", "multi_step")}
FIRST = "sc-reminder-prescription"            # the first should_call case: scripted errors go here
ENDED = "['done', 'aborted', 'error'].includes(document.body.dataset.run)"


def open_page(browser, server: str, *, height: int = 900):
    """A page at `server?timeout=60`, loaded until ready, recording requests, failures and console."""
    context = browser.new_context(viewport={"width": 1280, "height": height}, accept_downloads=True)
    page = context.new_page()
    page.requests, page.console, page.failed = [], [], []
    page.on("request", lambda r: page.requests.append(r.url))
    page.on("requestfailed", lambda r: page.failed.append((r.url, r.failure)))
    page.on("console", lambda m: page.console.append(m.text))
    page.goto(server + f"?timeout={REQUEST_TIMEOUT_S}")
    booted(page)
    open_advanced(page)
    return page


def open_advanced(page) -> None:
    """Unfold the run form's `#advanced` fields (closed on a fresh page) so a test can fill them."""
    page.evaluate("document.getElementById('advanced').open = true")


@pytest.fixture(scope="module")
def page(browser, server):
    page = open_page(browser, server)
    yield page
    page.context.close()


@pytest.fixture
def live(page, server):
    """A fresh request log, and `live(where, wire="openai", **kw)` routing a provider for this test:
    `where` is a URL glob, or a provider URL whose whole origin is routed. Unrouted afterwards."""
    page.requests.clear()
    page.console.clear()
    page.failed.clear()
    made: list[RoutedProvider] = []

    def provider(where: str, wire: str = "openai", **kw) -> RoutedProvider:
        pattern = where if "*" in where else origin_pattern(where)
        made.append(RoutedProvider(page, pattern, wire, **kw))
        return made[-1]
    provider.server = server
    yield provider
    for p in made:
        p.close()


# ---------------------------------------------------------------- the run form

def start(page, *, provider="openai", model="gpt-test", key="sk-test-key", scope="should_call", cap=NEED["should_call"],
          base_url=None, timeout=str(REQUEST_TIMEOUT_S), max_tokens="1024"):
    page.fill("#timeout", timeout)
    page.fill("#max-tokens", max_tokens)
    page.select_option("#provider", provider)
    page.fill("#model", model)
    if base_url is not None:
        page.fill("#base-url", base_url)
    page.fill("#api-key", key)
    page.select_option("#scope", scope)
    page.fill("#cap", str(cap))
    page.evaluate("""() => {
        document.body.dataset.run = 'idle';
        window.__feed = [];
        window.__feedText = '';
        const feed = document.getElementById('live-feed');
        if (window.__feedObserver) window.__feedObserver.disconnect();
        window.__feedObserver = new MutationObserver(records => {
            for (const record of records)
                for (const node of record.addedNodes)
                    if (node.classList && node.classList.contains('case-row')) {
                        window.__feed.push(node.dataset.caseId);
                        window.__feedText = (window.__feedText || '') + node.textContent;
                    }
        });
        window.__feedObserver.observe(feed, {childList: true});
    }""")
    page.click("#run-live")


def run(page, **kw) -> str:
    start(page, **kw)
    page.wait_for_function(ENDED, timeout=READY_TIMEOUT_MS)
    return page.evaluate("document.body.dataset.run")


# ---------------------------------------------------------------- reading the live card

def card_cases(page) -> dict:
    return dict(page.eval_on_selector_all("#live-card .case-row",
                                          "rows => rows.map(r => [r.dataset.caseId, r.dataset.verdict])"))


def reasons(page, case_id: str) -> str:
    return page.text_content(f'#live-card .case-row[data-case-id="{case_id}"] .reasons')


def export(page, button: str) -> str:
    with page.expect_download() as download:
        page.click(button)
    return open(download.value.path(), encoding="utf-8").read()


def exports(page) -> tuple[dict, str]:
    return json.loads(export(page, "#export-live-json")), export(page, "#export-live-md")


# ---------------------------------------------------------------- where the page talked

def assert_only_talked_to(page, server: str, *allowed: str) -> None:
    outside = [u for u in page.requests if not is_local(u, server) and u not in allowed]
    assert outside == []


def assert_not_shown(page, *texts: str) -> None:
    """Not in the page, not in either export."""
    html = page.evaluate("document.documentElement.outerHTML")
    doc, md = exports(page)
    for text in texts:
        assert text not in html and text not in json.dumps(doc) and text not in md, text
