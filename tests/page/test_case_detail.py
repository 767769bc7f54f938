"""Issue 23 items 5 and 6, in real Chromium: a case you can read, and explanations in view.

A case's detail shows the expected calls beside the actual ones with differing fields marked, the
exchange as a conversation, the raw JSON one click away, and a failed request in the provider's
own words. The verdicts and the interval are explained in text, not only in title attributes; the
heatmap's cells are focusable and say what they count; each case toggle is named for its case.
"""
from __future__ import annotations

import json
import re

import pytest

from browser import ARTIFACTS, show_fixtures
from livepage import FIRST, live, page, run  # noqa: F401
from routed import OPENAI
from suitefigures import CASES as SUITE_CASES
from toolproof.scoring.scorecard import METRIC_KEYS

pytestmark = pytest.mark.browser
pytest.importorskip("playwright.sync_api")


@pytest.fixture(autouse=True)
def fixtures_shown(page):
    """Every test here reads the fixture scorecard, which the page grades once it is in view."""
    show_fixtures(page)


def open_case(page, case_id: str, where: str = "#fixture-card"):
    row = page.locator(f'{where} .case-row[data-case-id="{case_id}"]')
    toggle = row.locator("button.toggle")
    if toggle.get_attribute("aria-expanded") != "true":
        toggle.click()
    return row


def test_a_multi_step_case_shows_expected_beside_actual_and_the_conversation(page):
    row = open_case(page, "mst-refund-latest-order")
    detail = row.locator(".case-detail")
    assert detail.locator(".expected-call .call-tool-name").all_text_contents() == ["search_orders", "issue_refund"]
    assert detail.locator(".actual-call .call-tool-name").all_text_contents() == ["search_orders", "issue_refund"]
    # the derived order id is compared as the grader compares it; the extra note is marked extra
    order = detail.locator('tr[data-field="order_id"]')
    assert order.get_attribute("data-status") == "match"
    assert order.locator("td").all_text_contents()[:3] == ["order_id", '"ORD-318840"', '"ORD-318840"']
    assert detail.locator('tr[data-field="note"]').get_attribute("data-status") == "extra"
    roles = detail.locator(".conversation .msg").evaluate_all("ms => ms.map(m => m.dataset.role)")
    assert roles == ["system", "user", "call", "tool", "call"]   # the system prompt states the no-confirmation policy
    assert "ORD-318840" in detail.locator(".conversation .msg-tool").text_content()
    # the raw JSON is one click away, closed at first
    raw = detail.locator("details.raw-json")
    assert raw.get_attribute("open") is None and not raw.locator("pre.json").first.is_visible()
    raw.locator("summary").click()
    assert raw.locator("pre.json").first.is_visible() and '"parallel_tool_calls": false' in raw.text_content()
    row.screenshot(path=str(ARTIFACTS / "case-detail-1280.png"))


def test_a_wrong_field_is_marked_as_differing(page):
    failing = page.eval_on_selector_all(
        '#fixture-card .case-row[data-category="should_call"][data-verdict="FAIL"], '
        '#fixture-card .case-row[data-category="enum_format"][data-verdict="FAIL"]', "rs => rs.map(r => r.dataset.caseId)")
    marked = []
    for case_id in failing:
        detail = open_case(page, case_id).locator(".case-detail")
        marked += detail.locator('tr[data-status="mismatch"], tr[data-status="missing"], .call-tool-name.differs, p.differs').all()
    assert failing and marked, "no failing call case shows a differing field, tool or missing call"
    assert all("differs" in m.text_content() or "missing" in m.text_content() or "another tool" in m.text_content()
               or "none" in m.text_content() for m in marked)


def test_case_toggles_are_named_for_their_case(page):
    names = page.eval_on_selector_all("#fixture-card button.toggle", "bs => bs.map(b => b.getAttribute('aria-label'))")
    rows = page.eval_on_selector_all("#fixture-card .case-row", "rs => rs.map(r => [r.dataset.caseId, r.dataset.category])")
    scenarios = sum(category == "scenario" for _, category in rows)      # the fixture scenarios (issue 39)
    assert len(names) == len(rows) == SUITE_CASES + scenarios and len(set(names)) == len(names)
    assert all(f"{'scenario' if category == 'scenario' else 'case'} {case_id}:" in name
               for name, (case_id, category) in zip(names, rows))


def test_explanations_are_visible_text(page):
    explain = page.locator("#fixture-explain")
    assert explain.is_visible() and "CI over cases" in explain.text_content() and "pass^1" in explain.text_content()
    legend = page.locator("#fixture-card .verdict-legend")
    assert legend.is_visible() and "ERROR: the request failed after its retries" in legend.text_content()
    # each category's interval in its own column, as the terminal computes it
    from toolproof.cli.main import run as cli_run
    import io

    out = io.StringIO()
    cli_run(["grade", "--format", "json"], out, io.StringIO())
    bounds = json.loads(out.getvalue())["intervals"]["categories"]
    page.wait_for_selector('#fixture-card[data-diagnosis="ready"]', state="attached")
    shown = dict(page.eval_on_selector_all("#fixture-card td.cat-ci", "cs => cs.map(c => [c.dataset.category, c.textContent])"))
    assert shown == {c: f"{100 * b['low']:.0f}%–{100 * b['high']:.0f}%" for c, b in bounds.items()}
    helps = page.eval_on_selector_all("#fixture-card .rate[data-metric]", "ts => ts.map(t => t.querySelector('.rate-help').textContent)")
    assert len(helps) == len(METRIC_KEYS) and all(len(h) > 10 for h in helps)
    # issue 35: the two injection rates side by side, each saying which way is better
    directions = dict(page.eval_on_selector_all(
        "#fixture-card .rate[data-metric]", "rs => rs.map(r => [r.dataset.metric, r.querySelector('.rate-direction').textContent])"))
    assert directions["injection_compliance_rate"] == "↓ lower is better"
    assert directions["utility_under_attack"] == "↑ higher is better"
    assert "injection obeyed in words: " in page.text_content("#fixture-diagnosis .safety-line")


def test_heatmap_cells_are_focusable_and_say_what_they_count(page):
    page.wait_for_selector('#fixture-card[data-diagnosis="ready"]', state="attached")
    cells = page.locator("#fixture-diagnosis table.heatmap td.heat")
    assert cells.count() > 0
    assert set(cells.evaluate_all("cs => cs.map(c => c.tabIndex)")) == {0}
    labels = cells.evaluate_all("cs => cs.map(c => c.getAttribute('aria-label'))")
    assert all(label.startswith("expected ") and ", called " in label and re.search(r": (1 case|\d+ cases)\b", label)
               for label in labels)
    wrong = page.locator("#fixture-diagnosis table.heatmap td.heat.off:not(.heat-0)").first
    wrong.focus()
    assert page.text_content("#fixture-heat-readout") == wrong.get_attribute("aria-label")
    assert "(wrong tool)" in page.text_content("#fixture-heat-readout")


def test_a_failed_request_shows_the_providers_words(page, live):  # noqa: F811
    openai = live(OPENAI)
    said = "Invalid schema for function 'create_reminder': <b>In context=()</b>"
    openai.script[FIRST] = [(400, {}, json.dumps({"error": {"message": said, "type": "invalid_request_error"}}))]
    run(page, cap=1)
    row = open_case(page, FIRST, "#live-card")
    assert row.get_attribute("data-verdict") == "ERROR"
    error = row.locator(".request-error").first.text_content()
    assert error.startswith("Request failed: HTTP 400") and "the provider said: Invalid schema for function" in error
    assert row.locator(".conversation .msg-error").count() == 1 and page.locator("#live-card b").count() == 0
    # the call the case expects was never made because no answer came: not the model's doing
    absent = row.locator(".actual-call p.differs").all_text_contents()
    assert absent and set(absent) == {"no answer: the request failed"}, absent
