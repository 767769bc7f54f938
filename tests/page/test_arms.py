"""Arms in the real page (issue 41), in Chromium with the provider routed (tests/routed.py), never a
real one: a run with arms sends the same plan once per arm, each arm probed with one request first,
and its card sets every arm against the first (the baseline) in the rows every report prints.

- a two-arm run (baseline + strict) completes; only the strict arm's requests carry
  `function.strict`; the requests are arms × items + one probe per arm, the cap and the need line
  count them; the Arms card has a row per arm; the export re-grades in the terminal to the same card;
- an arm the provider refuses (400 with its words) is marked refused with those words, and the
  baseline still completes;
- malformed and hostile text in #arms is named in #arms-problem and Run does not start; no traceback;
- a fast user types the arms and clicks Run with no pause, and closes the tab the moment the run
  ends: the run is in Runs on the next visit, whole.

One page for the module (the fast user's tabs are their own); waits are on the page's state
attributes (`data-ready`, `data-run`, `#arms-problem[data-state]`, `#kept[data-settled]`) and on
what the routed provider recorded, never on a clock.
"""
from __future__ import annotations

import io
import json
from collections import Counter

import pytest

from browser import ARTIFACTS, READY_TIMEOUT_MS, REQUEST_TIMEOUT_S, STORED, booted, busy_loops
from axe import axe_violations
from fakeprovider import replay
from livepage import ENDED, NEED, exports, live, open_advanced, start  # noqa: F401
from routed import OPENAI, RoutedProvider, origin_pattern
from toolproof.cli.main import run as cli

pytestmark = pytest.mark.browser
sync_api = pytest.importorskip("playwright.sync_api")

TWO = '[{"name": "baseline"}, {"name": "strict", "strict": true}]'
ITEMS = NEED["should_call"]                 # one request per should_call case, per arm
NEED_TWO = 2 * ITEMS + 2                    # both arms' items and one probe each
REFUSAL = "strict mode is not supported for this model"


@pytest.fixture(scope="module")
def context(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 1000}, accept_downloads=True)
    yield context
    context.close()


@pytest.fixture(scope="module")
def page(context, server):
    page = context.new_page()
    page.requests, page.console, page.failed = [], [], []
    page.on("request", lambda r: page.requests.append(r.url))
    page.on("console", lambda m: page.console.append(m.text))
    page.on("pageerror", lambda e: page.console.append(f"pageerror: {e}"))
    page.goto(server + f"?timeout={REQUEST_TIMEOUT_S}")
    booted(page)
    open_advanced(page)
    yield page


def set_arms(page, text: str, state: str) -> str:
    """Type `text` into #arms; #arms-problem's line once it says `state` (ok, bad or empty)."""
    page.fill("#arms", text)
    page.wait_for_selector(f"#arms-problem[data-state={state}]", state="attached", timeout=READY_TIMEOUT_MS)
    return page.text_content("#arms-problem")


def strict_flags(post: dict) -> tuple:
    """Each tool's function.strict in a request (None where absent), each value once."""
    return tuple(sorted({t.get("function", {}).get("strict") for t in post["body"].get("tools", [])}, key=repr))


def arm_rows(page, table: str = "#arms-table") -> list[dict]:
    return page.eval_on_selector_all(f"{table} tr.arm-row", """rows => rows.map(r => ({
        arm: r.dataset.arm, significant: r.dataset.significant, refused: r.dataset.refused,
        cells: [...r.children].map(c => c.textContent)}))""")


def no_traceback(page) -> None:
    said = [line for line in page.console if "Traceback" in line or "pageerror" in line or "PythonError" in line]
    assert said == [], said


def test_a_two_arm_run_sends_strict_only_in_its_arm_and_compares_it_with_the_baseline(page, live, tmp_path):
    openai = live(OPENAI)
    page.select_option("#scope", "should_call")
    line = set_arms(page, TWO, "ok")
    assert line == "Arms, the first the baseline: baseline (the plain run's settings); strict (strict=true).", line
    # the cap's default and the need line count every arm's conversations and one probe per arm
    assert page.input_value("#cap") == str(NEED_TWO)
    need = page.text_content("#need")
    assert f"at most {NEED_TWO} requests" in need and "2 arms" in need, need
    assert f": {NEED_TWO} requests" in page.eval_on_selector("#scope", "s => s.selectedOptions[0].textContent")
    page.locator("#run-form").screenshot(path=str(ARTIFACTS / "arms-form.png"))
    start(page, scope="should_call", cap=NEED_TWO)
    page.wait_for_function(ENDED, timeout=READY_TIMEOUT_MS)
    assert page.evaluate("document.body.dataset.run") == "done", page.text_content("#run-message")
    # what the provider saw: arms × items + one probe per arm; strict only, and always, in its arm
    assert len(openai.posts) == NEED_TWO
    flags = Counter(strict_flags(p) for p in openai.posts)
    assert flags == {(None,): ITEMS + 1, (True,): ITEMS + 1}, flags
    first = openai.posts[0]["case_id"]           # each arm's probe is its first item's first request
    assert [(p["case_id"], strict_flags(p)) for p in openai.posts[:2]] == [(first, (None,)), (first, (True,))]
    assert sum(p["case_id"] == first for p in openai.posts) == 4
    # one key for every arm, in the auth header only
    assert all(p["headers"]["authorization"] == "Bearer sk-test-key" and "sk-test-key" not in p["raw"]
               for p in openai.posts)
    # the feed said which arm each conversation ran under
    assert "arm baseline" in page.evaluate("window.__feedText") and "arm strict" in page.evaluate("window.__feedText")
    # the Arms card: one row per arm, in reports/arms.py's words
    rows = arm_rows(page)
    assert [(r["arm"], r["refused"]) for r in rows] == [("baseline", "false"), ("strict", "false")]
    assert rows[0]["cells"][3] == "baseline" and rows[1]["cells"][1] == "strict=true"
    assert [r["cells"][-1] for r in rows] == [f"{ITEMS} of {ITEMS}"] * 2
    assert rows[1]["significant"] in ("true", "false")
    assert page.text_content("#live-arms .arms-method").startswith("Method: each arm against the baseline")
    page.locator("#live-arms").screenshot(path=str(ARTIFACTS / "arms-card.png"))
    for where in ("#live-arms", "#run-form"):     # the Arms section and the form's Arms field: nothing for axe
        assert axe_violations(page, include=where) == [], where
    # the export holds the results document with its arms and the card with its arms block, and
    # re-grades in the terminal to that very card
    doc, markdown = exports(page)
    card = doc.pop("scorecard")
    assert [a["name"] for a in doc["arms"]] == ["baseline", "strict"] and doc["probes"] == 2
    assert sorted(t["arm"] for t in doc["transcripts"]) == ["baseline"] * ITEMS + ["strict"] * ITEMS
    assert [a["name"] for a in card["arms"]] == ["baseline", "strict"]
    assert "sk-test-key" not in json.dumps(doc) + json.dumps(card) + markdown
    path = tmp_path / "arms.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    assert cli(["grade", "--transcripts", str(path), "--format", "json"], stdout=out, stderr=err) == 0, err.getvalue()
    assert json.loads(out.getvalue()) == card
    # the Leaderboard ranks the live result as `board` ranks its file: one row per arm
    page.evaluate("document.getElementById('board').dataset.board = 'waiting'")
    page.click("#board-use-live")
    page.wait_for_function("['ready', 'error'].includes(document.getElementById('board').dataset.board)",
                           timeout=READY_TIMEOUT_MS)
    names = page.eval_on_selector_all("#board .board-row .board-name", "ns => ns.map(n => n.textContent)")
    assert sorted(n.rsplit(" (arm ", 1)[-1] for n in names) == ["baseline)", "strict)"], names
    no_traceback(page)


def refusing_strict(case_id, turn, body):
    """The routed provider refusing a request with strict tools, in its own words; the rest replayed."""
    if True in {t.get("function", {}).get("strict") for t in body.get("tools", [])}:
        return 400, {}, json.dumps({"error": {"message": REFUSAL, "type": "invalid_request_error"}})
    return replay(case_id, turn, "openai", body)


def test_an_arm_the_provider_refuses_is_marked_with_its_words_and_the_baseline_completes(page, live):
    openai = live(OPENAI, answer=refusing_strict)
    page.select_option("#scope", "should_call")
    set_arms(page, TWO, "ok")
    start(page, scope="should_call", cap=NEED_TWO)
    page.wait_for_function(ENDED, timeout=READY_TIMEOUT_MS)
    assert page.evaluate("document.body.dataset.run") == "done", page.text_content("#run-message")
    # the strict arm's probe, refused once (a 400 is not retried), then only the baseline's requests
    assert [strict_flags(p) for p in openai.posts].count((True,)) == 1
    assert len(openai.posts) == 1 + ITEMS + 1
    rows = arm_rows(page)
    assert [(r["arm"], r["refused"]) for r in rows] == [("baseline", "false"), ("strict", "true")]
    assert rows[0]["cells"][-1] == f"{ITEMS} of {ITEMS}" and rows[1]["cells"][2] == "refused"
    lines = page.eval_on_selector_all('#live-arms .arm-line[data-arm="strict"]', "ls => ls.map(l => l.textContent)")
    assert any(REFUSAL in line and "refused by the provider" in line for line in lines), lines
    assert page.locator("#live-card .case-row").count() == ITEMS      # the baseline's cases
    no_traceback(page)


HOSTILE = [
    ("not json", "Arms: not valid JSON"),
    ('{"name": "baseline"}', "Arms: an arms file is a JSON list of arms"),
    (json.dumps([{"name": f"arm{i}"} for i in range(17)]), "arms: at most 16"),
    ('[{"name": "baseline"}, {"name": "ev\\u0007il\\u202e"}]', "Arms[1]: name must be 1-40 letters"),
    ("[" + " " * 100_000 + "]", "Arms: 100,002 characters, more than a list of arms needs"),
    ('[{"name": "baseline"}, {"name": "x", "colour": "red"}]', "Arms[1] (x): unknown key 'colour'"),
    ('[{"name": "baseline"}]', "arms: give at least two"),
    ("[" * 5000 + "]" * 5000, "Arms: the list nested deeper than 64 levels"),
    ('[{"name": "baseline"}, {"name": "v2", "tools": "tools-v2.json"}]',
     "Arms[1] (v2): a tools-file variant is for the terminal (run --arm NAME:tools=FILE)"),
    ('[{"name": "baseline"}, {"name": "other", "provider": "anthropic"}]',
     "Arms[1] (other): an arm in the page uses the run's provider and key"),
    ('[{"name": "baseline"}, {"name": "hot", "temperature": "NaN"}]', "Arms[1] (hot): temperature must be"),
]


def test_malformed_or_hostile_arms_are_named_and_run_does_not_start(page, live):
    openai = live(OPENAI)
    page.select_option("#provider", "openai")
    page.fill("#model", "gpt-test")
    page.fill("#api-key", "sk-test-key")
    page.select_option("#scope", "should_call")
    for text, said in HOSTILE:
        line = set_arms(page, text, "bad")
        assert line.startswith(said), (text[:60], line)
        assert len(line) < 400 and line.isprintable(), line        # one line, nothing hidden in it
        page.evaluate("document.body.dataset.run = 'idle'; document.getElementById('run-message').textContent = ''")
        page.click("#run-live")
        # Run's task says why it does not start, in the field's words
        page.wait_for_function("t => document.getElementById('run-message').textContent === t", arg=line,
                               timeout=READY_TIMEOUT_MS)
        assert page.evaluate("document.body.dataset.run") == "idle"
    assert openai.posts == []
    assert page.input_value("#cap") == str(ITEMS)              # a wrong list counts no arm
    assert set_arms(page, "", "empty") == "" and page.is_hidden("#arms-problem")
    no_traceback(page)


def test_the_example_fills_only_an_empty_field(page):
    page.fill("#arms", "")
    page.click("#arms-example")
    page.wait_for_selector("#arms-problem[data-state=ok]", state="attached", timeout=READY_TIMEOUT_MS)
    assert json.loads(page.input_value("#arms")) == json.loads(TWO)
    page.fill("#arms", '[{"name": "mine"}, {"name": "other", "seed": 3}]')
    page.click("#arms-example")
    assert page.input_value("#arms") == '[{"name": "mine"}, {"name": "other", "seed": 3}]'


def raw(page, name: str):
    """A Page action that returns at once, as a fast user's next action follows (tests/browser.py
    makes every action wait for the page's Python, which would hide the race)."""
    action = getattr(sync_api.Page, name)
    action = action.__kwdefaults__["_action"] if getattr(action, "settles", False) else action
    return lambda *args, **kw: action(page, *args, **kw)


def test_a_fast_user_types_arms_runs_at_once_and_closes_the_tab_as_it_ends(page, context, server):
    # last in this file: the module's page is the fast user's tab, and is closed as the run ends
    fast = page
    openai = RoutedProvider(fast, origin_pattern(OPENAI))
    fast.select_option("#provider", "openai")
    fast.fill("#model", "gpt-fast")
    fast.fill("#api-key", "sk-test-key")
    fast.fill("#arms", "")
    fast.select_option("#scope", "should_call")
    assert fast.input_value("#cap") == str(ITEMS)      # the plain need, as the scope set it
    with busy_loops():
        fill, click = raw(fast, "fill"), raw(fast, "click")
        fast.evaluate("document.body.dataset.run = 'idle'")
        fill("#arms", TWO)
        click("#run-live")                         # no pause: the worker may not have answered the typing yet
        fast.wait_for_function(ENDED, timeout=READY_TIMEOUT_MS)
        assert fast.evaluate("document.body.dataset.run") == "done", fast.text_content("#run-message")
        fast.close()                               # at once: the run was kept before it said so
    assert len(openai.posts) == NEED_TWO           # the run ran the arms typed, with their need as its cap
    again = context.new_page()
    again.goto(server + f"?timeout={REQUEST_TIMEOUT_S}")
    booted(again)
    again.wait_for_selector("#kept[data-settled=true]", timeout=READY_TIMEOUT_MS)
    held = again.evaluate(STORED)
    [row] = [r for r in held["rows"] if r["model"] == "gpt-fast"]
    assert (row["state"], row["graded"], row["planned"]) == ("done", 2 * ITEMS, 2 * ITEMS), row
    [doc] = [json.loads(d["text"]) for d in held["docs"] if d["id"] == row["id"]]
    assert [a["name"] for a in doc["arms"]] == ["baseline", "strict"] and len(doc["transcripts"]) == 2 * ITEMS
    assert doc["cap"] == NEED_TWO               # the cap the scope had set gave way to the arms' need
    assert not [d for d in held["docs"] if d["id"].startswith(row["id"] + "/")]     # no batch left behind
    assert "sk-test-key" not in json.dumps(held)
    # reopened from Runs: the baseline's card with the Arms section
    again.click(f'.run-row[data-run-id="{row["id"]}"] .run-open')
    again.wait_for_selector("#run-card[data-state=ready]", timeout=READY_TIMEOUT_MS)
    assert [r["arm"] for r in arm_rows(again, "#kept-arms-table")] == ["baseline", "strict"]
    again.close()
