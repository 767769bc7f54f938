"""A tool-count sweep in the real page, in Chromium, against a routed (never real) OpenAI.

The routed provider (tests/routed.py) answers from the committed fixtures, except that when a request offers
padding tools it calls the first padding tool for every other case (a model distracted by a
longer list), and it reports input tokens growing with the number of tools sent. The test runs a
two-level sweep, reads the chart's points, whiskers and cost labels, and checks that the page's
export re-grades in the terminal to the very same scorecard (the sweep included).
"""
from __future__ import annotations

import io
import json

import pytest

from browser import ARTIFACTS, READY_TIMEOUT_MS, REQUEST_TIMEOUT_S, booted, click_run, is_local
from fakeprovider import fixture_answer
from livepage import open_advanced
from routed import OPENAI, RoutedProvider, origin_pattern
from toolproof.cli.main import run as cli_run
from toolproof.datafiles import load_bundle
from toolproof.suite.model import requests_needed, scoped
from toolproof.running.sweep import offered_tools

pytestmark = pytest.mark.browser
pytest.importorskip("playwright.sync_api")

BUNDLE = load_bundle()
CASES, TOOLS = scoped(BUNDLE.cases, "should_call"), BUNDLE.tools
OWN = {c.id: set(c.tools) for c in CASES}
DISTRACTED = {c.id for c in CASES[::2]}


def distracted(case_id: str | None, turn: int, body: dict) -> tuple[int, dict, str]:
    """The fixture's answer, but a padding tool called when one is offered to a DISTRACTED case,
    and input tokens that grow with the number of tools sent."""
    sent = [t["function"]["name"] for t in body.get("tools", [])]
    padding = [name for name in sent if name not in OWN.get(case_id, set())]
    if padding and case_id in DISTRACTED and turn == 1:
        message = {"role": "assistant", "content": None, "tool_calls": [
            {"id": "call_0", "type": "function", "function": {"name": padding[0], "arguments": "{}"}}]}
        reply = {"choices": [{"index": 0, "message": message, "finish_reason": "tool_calls"}]}
    else:
        status, headers, text = fixture_answer(case_id, turn, "openai")
        if status != 200:
            return status, headers, text
        reply = json.loads(text)
    reply["usage"] = {"prompt_tokens": 40 * len(sent) + 25, "completion_tokens": 12}
    return 200, {}, json.dumps(reply)


@pytest.fixture(scope="module")
def page(browser, server):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True)
    page = context.new_page()
    page.requests = []
    page.on("request", lambda r: page.requests.append(r.url))
    page.goto(server + f"?timeout={REQUEST_TIMEOUT_S}")
    booted(page)
    open_advanced(page)
    openai = RoutedProvider(page, origin_pattern(OPENAI), answer=distracted)
    yield page
    openai.close()
    context.close()


def test_a_two_level_sweep_draws_its_curve_and_regrades_in_the_terminal(page, server, tmp_path):
    need = 2 * requests_needed(CASES)
    page.select_option("#provider", "openai")
    page.fill("#model", "gpt-sweep")
    page.fill("#api-key", "sk-sweep-page-1")
    page.select_option("#scope", "should_call")
    page.fill("#pad", "0,6")
    page.fill("#pad-seed", "3")
    need_line = page.text_content("#need")
    assert f"needs at most {need} requests for " in need_line and " × 2 pad levels)" in need_line
    # the option of the scope chosen says the need line's number
    assert page.eval_on_selector("#scope option[value=should_call]", "o => o.textContent").endswith(f": {need} requests")
    page.fill("#cap", str(need))
    click_run(page)
    page.wait_for_function("['done', 'aborted', 'error'].includes(document.body?.dataset.run)", timeout=60_000)
    assert page.evaluate("document.body.dataset.run") == "done", page.text_content("#run-message")
    page.wait_for_function("document.querySelector('#live-card [data-diagnosis=ready]') !== null", timeout=30_000)

    points = page.eval_on_selector_all("#sweep-chart circle[data-pad]", """nodes => nodes.map(n => ({
        pad: +n.dataset.pad, score: +n.dataset.score, cy: +n.getAttribute('cy')}))""")
    assert [p["pad"] for p in points] == [0, 6]
    assert points[1]["score"] < points[0]["score"] and points[1]["cy"] > points[0]["cy"]   # lower on screen
    whiskers = page.eval_on_selector_all("#sweep-chart line.sweep-whisker", "ns => ns.map(n => +n.dataset.pad)")
    assert whiskers == [0, 6]
    costs = page.eval_on_selector_all("#sweep-chart text.sweep-cost", "ns => ns.map(n => n.textContent)")
    assert len(costs) == 2 and all("tok" in c for c in costs) and costs[0] != costs[1]
    # issue 20: each level says how many cases it rests on (all of them here: no hollow point),
    # and the correct-tool rate is drawn beside the score
    axis = page.eval_on_selector_all("#sweep-chart text.sweep-axis", "ns => ns.map(n => n.textContent)")
    assert axis == [f"pad 0 · {len(CASES)} cases", f"pad 6 · {len(CASES)} cases"]
    assert page.eval_on_selector_all("#sweep-chart circle.hollow", "ns => ns.length") == 0
    assert page.query_selector("#sweep-chart path.sweep-tool-line") is not None

    with page.expect_download() as download:
        page.click("#export-live-json")
    exported = json.loads(open(download.value.path(), encoding="utf-8").read())
    card = exported.pop("scorecard")
    sweep = card["sweep"]
    assert sweep["seed"] == 3 and [row["pad"] for row in sweep["levels"]] == [0, 6]
    assert [row["score"] for row in sweep["levels"]] == [p["score"] for p in points]
    level6 = sweep["levels"][1]
    assert (level6["cases"], level6["cases_planned"]) == (len(CASES), len(CASES))
    assert card["coverage"] == {"planned": 2 * len(CASES), "graded": 2 * len(CASES), "error": 0, "not_started": 0}
    # the overall card's cost counts both levels (it counted level 0 only)
    assert card["cost"]["requests"] == exported["requests_used"]
    assert level6["low"] <= level6["score"] <= level6["high"]
    assert level6["tools_offered_mean"] == sweep["levels"][0]["tools_offered_mean"] + 6
    assert level6["input_tokens_mean"] == sweep["levels"][0]["input_tokens_mean"] + 240
    assert {t["pad"] for t in exported["transcripts"]} == {0, 6}
    # the page drew the same padding and order as the terminal does for seed 3
    by_id = {c.id: c for c in CASES}
    assert all(t["offered"] == offered_tools(by_id[t["case_id"]], TOOLS, t["pad"], 3) for t in exported["transcripts"])

    path = tmp_path / "sweep-export.json"
    path.write_text(json.dumps(exported), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    assert cli_run(["grade", "--transcripts", str(path), "--format", "json"], stdout=out, stderr=err) == 0, err.getvalue()
    assert json.loads(out.getvalue()) == card            # page and terminal: the same scorecard, sweep included
    assert [u for u in page.requests if not is_local(u, server) and not u.startswith(OPENAI)] == []
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator("#live-sweep").screenshot(path=str(ARTIFACTS / "sweep-chart.png"))
    page.locator("#live").screenshot(path=str(ARTIFACTS / "sweep-live.png"))


@pytest.mark.parametrize("levels, message", [
    ("0,{room}", "Pad level {room} is more than case"),
    ("4,x\x07" + "9" * 5000, "Pad levels wants comma-separated whole numbers from 0 to 500"),
])
def test_a_bad_or_hostile_pad_is_refused_before_any_request(page, levels, message):
    from toolproof.running.sweep import pad_pool

    room = max(len(pad_pool(c, TOOLS)) for c in CASES) + 1
    before = len([u for u in page.requests if u.startswith(OPENAI)])
    page.evaluate("document.body.dataset.run = 'idle'; document.getElementById('run-message').textContent = ''")
    page.fill("#model", "gpt-sweep")
    page.fill("#api-key", "sk-sweep-page-1")
    page.select_option("#scope", "should_call")
    page.fill("#pad", levels.format(room=room))
    page.click("#run-live")
    page.wait_for_function("document.getElementById('run-message').textContent !== ''", timeout=READY_TIMEOUT_MS)
    assert message.format(room=room) in page.text_content("#run-message")
    assert page.evaluate("document.body.dataset.run") == "idle"
    assert len([u for u in page.requests if u.startswith(OPENAI)]) == before
    page.fill("#pad", "")
