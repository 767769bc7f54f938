"""Scenarios in the page (issue 39), in real Chromium: the Scenarios scope of the run form, a live
scenario run against a routed provider answering turn after turn, each scenario's detail, the
fixture scenarios with no key, and the world-file loader.

The routed OpenAI answers each conversation from the bundled world's own paths (rendered by
providers/scripted.reply_body, the turn read from the request as tests/fakeagent.py reads it): a
gold path with parallel calls, one that first makes a call the world refuses (a tool error), a wrong
path that leaves the tables wrong, and one whose second request gets HTTP 500 on every attempt. The
page's verdicts are then checked against the terminal's grade of the page's own export. Waits are
on the page's state (`data-ready`, `data-run`, `data-state`), never on a clock.
"""
from __future__ import annotations

import json

import pytest

from browser import ARTIFACTS, READY_TIMEOUT_MS, REQUEST_TIMEOUT_S, ROOT, booted, is_local, show_fixtures
from fakeagent import conversation
from livepage import ENDED, assert_only_talked_to, export, live, page, start  # noqa: F401
from routed import OPENAI, RoutedProvider, origin_pattern
from scenariodocs import bank_ids, scenario_doc     # the board's scenario runs, as tests/scoring ranks them
from toolproof.datafiles import bundled_worlds, format_schema, load_bundle
from toolproof.grading.transcripts import parse_transcripts
from toolproof.plurals import counted
from toolproof.providers.scripted import reply_body
from toolproof.reports.scenarios import summary_lines
from toolproof.running.scenario_run import scenario_need
from toolproof.running.workplan import cap_most
from toolproof.running.settings import RunSettings
from toolproof.scoring.evaluate import evaluate

pytestmark = pytest.mark.browser
pytest.importorskip("playwright.sync_api")

WORLDS = bundled_worlds()
BUNDLE = load_bundle()


def _parallel(path) -> bool:
    return any(len(turn.calls) >= 2 for turn in path.turns)


def _writes(path) -> bool:
    return any(turn.calls for turn in path.turns)


def _pick():
    """The world the live test runs, and its scenarios' roles: (world, parallel, erring, wrong,
    failing): a gold path with parallel calls; a scenario whose gold path has room for one more
    turn (a refused call first); a wrong path failing on the end state; a scenario whose second
    request gets 500."""
    for world in WORLDS.values():
        firsts = [s.user.first for s in world.scenarios]
        if len(set(firsts)) != len(firsts):
            continue
        parallel = next((s for s in world.scenarios for p in s.gold_paths[:1] if _parallel(p)), None)
        wrong = next((s for s in world.scenarios if s is not parallel
                      for w in s.wrong_paths if "end state" in (w.fails_with or "")), None)
        erring = next((s for s in world.scenarios if s not in (parallel, wrong)
                       and len(s.gold_paths[0].turns) < s.turn_limit and _writes(s.gold_paths[0])), None)
        failing = next((s for s in world.scenarios if s not in (parallel, wrong, erring)
                        and len(s.gold_paths[0].turns) >= 2), None)
        if parallel and wrong and erring and failing:
            return world, parallel, erring, wrong, failing
    pytest.skip("no bundled world has the paths this test needs")


WORLD, PARALLEL, ERRING, WRONG, FAILING = _pick()
SCOPE = f"scenarios:{WORLD.id}"


def _refused_call(scenario) -> dict:
    """A call the world refuses with a tool error (its arguments break the tool's schema)."""
    return {"calls": [{"tool": scenario.tools[0] if scenario.tools else next(iter(WORLD.tools)),
                       "arguments": {"__not_a_parameter__": [1, 2, 3]}}]}


def _turns_of(scenario) -> list:
    if scenario is WRONG:
        return list(next(w for w in scenario.wrong_paths if "end state" in (w.fails_with or "")).turns)
    path = list(scenario.gold_paths[0].turns)
    return [_refused_call(scenario)] + path if scenario is ERRING else path


SCRIPTS = {s.user.first: (s, _turns_of(s)) for s in WORLD.scenarios}


def answer(case_id, turn, body) -> tuple[int, dict, str]:
    """The routed provider's answer: the next turn of this conversation's script (fakeagent reads
    which from the request); FAILING's second request is 500 on every attempt."""
    first, turns = conversation("openai", body)
    scenario, script = SCRIPTS[first]
    n = len(turns)
    if scenario is FAILING and n == 1:
        return 500, {}, json.dumps({"error": {"message": "scripted server error"}})
    step = script[n] if n < len(script) else {"say": "Done."}
    return 200, {}, json.dumps(reply_body("openai", step, number=n + 1))


def scenario_rows(page, where: str) -> dict:
    return dict(page.eval_on_selector_all(f'{where} .case-row[data-category="scenario"]',
                                          "rows => rows.map(r => [r.dataset.caseId, r.dataset.verdict])"))


def open_detail(page, where: str, scenario_id: str):
    row = page.locator(f'{where} .case-row[data-case-id="{scenario_id}"]')
    toggle = row.locator("button.toggle")
    if toggle.get_attribute("aria-expanded") != "true":
        toggle.click()
    return row.locator(".scenario-detail")


def terminal_verdicts(doc: dict) -> dict:
    """What `grade --transcripts` says of a results file: the scenario entries' verdicts."""
    transcripts = parse_transcripts(doc, format_schema("transcripts"), {c.id for c in BUNDLE.cases})
    card = evaluate(BUNDLE.cases, BUNDLE.tools, transcripts, worlds=WORLDS)
    return {c["id"]: c["verdict"] for c in card["cases"] if c["category"] == "scenario"}, card


# ---------------------------------------------------------------- the fixtures, no key

def test_the_fixture_scenarios_are_graded_with_no_key(page, server):
    """First in this module: the page has done nothing but start, with no key."""
    fixtures = json.loads((ROOT / "data" / "fixtures.json").read_text(encoding="utf-8"))
    ids = list(dict.fromkeys(t["case_id"] for t in fixtures["transcripts"] if "world" in t))
    if not ids:
        pytest.skip("data/fixtures.json holds no scenario transcript yet")
    show_fixtures(page)
    rows = scenario_rows(page, "#fixture-card")
    verdicts, card = terminal_verdicts(fixtures)
    assert rows == verdicts and list(rows) == ids
    assert {"PASS", "FAIL"} <= set(rows.values())          # gold and wrong paths, graded as such
    # the Scenarios section says what the block says, in every report's words
    lines = summary_lines(card["scenarios"])
    assert page.text_content("#fixture-scenarios .scenarios-headline") == lines[0]
    assert page.locator("#fixture-scenarios .scenarios-lines li").all_text_contents() == lines[1:]
    assert page.eval_on_selector_all("#fixture-scenarios tbody tr", "rs => rs.map(r => r.dataset.world)") == \
        list(card["scenarios"]["by_world"])
    detail = open_detail(page, "#fixture-card", ids[0])
    assert detail.locator(".scenario-turn").count() >= 1
    assert "illustrative" in detail.locator(".fixture-note").text_content().lower()
    assert [u for u in page.requests if not is_local(u, server)] == []


# ---------------------------------------------------------------- the scope

def test_the_scope_offers_every_world_and_says_the_runners_need(page):
    options = dict(page.eval_on_selector_all("#scope option", "os => os.map(o => [o.value, o.textContent])"))
    assert "scenarios" in options
    for world_id, world in WORLDS.items():
        need = scenario_need(WORLDS, f"scenarios:{world_id}", repeats=1)
        text = options[f"scenarios:{world_id}"]
        assert text.startswith(f"Scenarios: {world.title} ({counted(len(world.scenarios), 'scenario')})")
        assert text.endswith(f": {counted(need, 'request')}")
    assert options["scenarios"].endswith(f": {counted(scenario_need(WORLDS, 'scenarios', repeats=1), 'request')}")
    # chosen, the cap starts at the need (repeats counted) and the need line says it
    page.fill("#repeats", "2")
    page.select_option("#scope", SCOPE)
    need = scenario_need(WORLDS, SCOPE, repeats=2)
    assert page.input_value("#cap") == str(need)
    line = page.text_content("#need")
    assert line.startswith(f"This scope needs at most {counted(need, 'request')} for "
                           f"{counted(2 * len(WORLD.scenarios), 'conversation')}")
    assert "turn limit" in line
    page.fill("#repeats", "1")


# ---------------------------------------------------------------- a live scenario run

def test_a_scenario_run_turn_by_turn_graded_as_the_terminal_grades_it(page, live):
    openai = live(OPENAI, answer=answer)
    need = scenario_need(WORLDS, SCOPE, repeats=2)
    page.fill("#repeats", "2")                     # each scenario twice: the detail picks a repeat
    start(page, scope=SCOPE, cap=cap_most(need, RunSettings.retries))
    page.wait_for_function(ENDED, timeout=READY_TIMEOUT_MS * 2)
    page.fill("#repeats", "1")
    assert page.evaluate("document.body.dataset.run") == "done", page.text_content("#run-message")
    rows = scenario_rows(page, "#live-card")
    assert list(rows) == [s.id for s in WORLD.scenarios]
    assert rows[PARALLEL.id] == "PASS" and rows[FAILING.id] == "ERROR" and rows[WRONG.id] == "FAIL"
    # the page and the terminal agree on every scenario of the page's own export
    doc = json.loads(export(page, "#export-live-json"))
    verdicts, card = terminal_verdicts(doc)
    assert verdicts == rows
    # requests on the wire are exactly the attempts the results file records, turn by turn
    scenarios = [t for t in doc["transcripts"] if "world" in t]
    assert len(openai.posts) == sum(turn.get("attempts", 1) for t in scenarios for turn in t["turns"])
    assert all(p["url"] == OPENAI for p in openai.posts)
    assert_only_talked_to(page, live.server, OPENAI)

    # parallel calls: one turn, several calls, each with its result; the user's first message first
    detail = open_detail(page, "#live-card", PARALLEL.id)
    assert detail.locator(".msg-user").first.locator(".msg-text").text_content() == PARALLEL.user.first
    widest = max(detail.locator(".scenario-turn").nth(i).locator(".scenario-call").count()
                 for i in range(detail.locator(".scenario-turn").count()))
    assert widest >= 2
    assert detail.locator(".scenario-verdict .badge").text_content() == "PASS"
    assert detail.locator(".end-state-same").count() == 1
    # two repeats: a picker, and the other repeat's own conversation on demand
    row = page.locator(f'#live-card .case-row[data-case-id="{PARALLEL.id}"]')
    assert row.locator("select.conversation-picker option").all_text_contents() == \
        ["repeat 1 of 2 · PASS", "repeat 2 of 2 · PASS"]
    row.locator("select.conversation-picker").select_option("1")
    assert row.locator(".conversation-view").get_attribute("data-repeat") == "2"
    assert row.locator(".conversation-view .scenario-detail .scenario-turn").count() >= 2

    # a tool error is shown as the tool's error, and the turn after it goes on
    detail = open_detail(page, "#live-card", ERRING.id)
    refused = detail.locator('.scenario-call[data-error="true"]')
    assert refused.count() >= 1 and "invalid arguments" in refused.first.locator(".call-result").text_content()
    entry = next(c for c in card["cases"] if c["id"] == ERRING.id)
    assert detail.locator(".scenario-first-reason").text_content() == (entry["reasons"] or ["every check held"])[0]

    # the wrong path: the end state's difference as a table, the first reason beside the verdict
    detail = open_detail(page, "#live-card", WRONG.id)
    entry = next(c for c in card["cases"] if c["id"] == WRONG.id)
    assert detail.locator(".scenario-first-reason").text_content() == entry["reasons"][0]
    diff = detail.locator("table.end-state-diff tbody tr")
    assert diff.count() == len(entry["end_state_diff"]) >= 1
    assert diff.first.get_attribute("data-table") == entry["end_state_diff"][0]["table"]

    # the 500: the conversation stops there, ERROR, the provider's words in the turn
    detail = open_detail(page, "#live-card", FAILING.id)
    assert detail.locator(".scenario-verdict .badge").text_content() == "ERROR"
    assert "500" in detail.locator(".msg-error").first.text_content()
    assert detail.locator(".end-state h4").text_content() == "End state, when the conversation stopped"

    # kept as it went: reopened from Runs, graded again from the stored file, the same verdicts
    page.wait_for_function("document.getElementById('kept').dataset.settled === 'true'", timeout=READY_TIMEOUT_MS)
    page.locator("#runs .run-row").first.locator("button", has_text="Open").click()
    page.wait_for_function("['ready', 'error'].includes(document.getElementById('run-card').dataset.state)",
                           timeout=READY_TIMEOUT_MS)
    assert scenario_rows(page, "#run-card") == rows
    assert open_detail(page, "#run-card", PARALLEL.id).locator(".scenario-turn").count() >= 2
    # compared with itself (the kept run as A, the live result as B): graded against the worlds
    # there too, never refused as an unknown case
    run_id = page.locator("#runs .run-row").first.get_attribute("data-run-id")
    page.evaluate("document.getElementById('compare').dataset.compare = ''")
    page.select_option("#compare-a-run", run_id)
    page.click("#compare-use-live")
    page.wait_for_function("['ready', 'error'].includes(document.getElementById('compare').dataset.compare)",
                           timeout=READY_TIMEOUT_MS)
    assert "Compared." in page.text_content("#compare-message"), page.text_content("#compare-message")


# ---------------------------------------------------------------- the world-file loader

def _load_world(page, tmp_path, name: str, text: str) -> tuple[str, str, list]:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    page.evaluate("document.getElementById('own-world-box').dataset.state = 'idle'")
    page.set_input_files("#own-world", str(path))
    page.wait_for_function("['ok', 'error'].includes(document.getElementById('own-world-box').dataset.state)",
                           timeout=READY_TIMEOUT_MS)
    return (page.evaluate("document.getElementById('own-world-box').dataset.state"),
            page.text_content("#own-world-message"), page.locator("#own-world-lines li").all_text_contents())


def _path_lines(page) -> list[str]:
    return page.locator("#own-world-path-lines li").all_text_contents()


def _hostile_world(kind: str) -> dict:
    doc = json.loads((ROOT / "data" / "worlds" / f"{WORLD.id}.json").read_text(encoding="utf-8"))
    doc["id"] = "hostile"
    for s in doc["scenarios"]:
        s["id"] = "hostile." + s["id"].split(".", 1)[1]
    tool = doc["tools"][0]
    if kind == "deep":
        expr = {"arg": "x"}
        for _ in range(200):
            expr = {"op": "not", "args": [expr]}
        tool["checks"] = [{"if": expr, "error": "deep"}]
    elif kind == "self":
        tool["lets"] = {"a": {"op": "+", "args": [{"ref": "b"}, 1]}, "b": {"op": "+", "args": [{"ref": "a"}, 1]}}
    elif kind == "rows":
        name = next(iter(doc["tables"]))
        doc["tables"][name]["rows"] = [{doc["tables"][name]["key"]: f"R-{i}"} for i in range(25_000)]
    elif kind == "control":
        doc["scenarios"][0]["id"] = "hostile.bad\u0007id<img src=x onerror=alert(1)>"
    elif kind == "op":
        tool["checks"] = [{"if": {"op": "__import__", "args": ["os"]}, "error": "x"}]
    return doc


@pytest.mark.parametrize("kind", ["deep", "self", "rows", "control", "op"])
def test_a_hostile_world_file_is_refused_in_one_line(page, tmp_path, kind):
    before = page.eval_on_selector_all("#scope option", "os => os.map(o => o.value)")
    state, message, lines = _load_world(page, tmp_path, "hostile.json", json.dumps(_hostile_world(kind)))
    assert state == "error", message
    for line in [message] + lines:
        assert "\n" not in line and "Traceback" not in line
    assert "hostile.json" in message + " ".join(lines)
    assert page.eval_on_selector_all("#scope option", "os => os.map(o => o.value)") == before
    assert page.locator("#own-world-lines img").count() == 0


def test_a_malformed_world_file_is_one_line(page, tmp_path):
    state, message, lines = _load_world(page, tmp_path, "broken.json", '{"format": "toolproof.world", ')
    assert state == "error" and message.startswith("broken.json") and "\n" not in message
    # a world file is named after its world, as suite validate and --worlds require
    text = (ROOT / "data" / "worlds" / f"{WORLD.id}.json").read_text(encoding="utf-8")
    state, message, lines = _load_world(page, tmp_path, "renamed.json", text)
    assert (state, message, lines) == ("error", f"renamed.json: at $.id: the world's id is {WORLD.id!r}, so its "
                                                f"file is named {WORLD.id}.json", [])


def test_a_world_whose_paths_do_not_hold_is_one_line_per_path(page, tmp_path):
    doc = json.loads((ROOT / "data" / "worlds" / f"{WORLD.id}.json").read_text(encoding="utf-8"))
    broken = next(s for s in doc["scenarios"] if s.get("wrong_paths"))
    broken["gold_paths"][0]["turns"] = broken["wrong_paths"][0]["turns"]      # a gold path that fails
    state, message, lines = _load_world(page, tmp_path, f"{WORLD.id}.json", json.dumps(doc))
    assert state == "error" and message.startswith(f"{WORLD.id}.json: 1 of ")
    assert len(lines) == 1 and lines[0].startswith(f"FAIL {broken['id']} gold {broken['gold_paths'][0]['id']}: ")
    assert page.is_hidden("#own-world-paths")


def test_a_world_file_that_holds_is_replayed_and_offered(page, tmp_path):
    doc = json.loads((ROOT / "data" / "worlds" / f"{WORLD.id}.json").read_text(encoding="utf-8"))
    doc["id"] = "mine"
    for s in doc["scenarios"]:
        s["id"] = "mine." + s["id"].split(".", 1)[1]
    state, message, lines = _load_world(page, tmp_path, "mine.json", json.dumps(doc))
    assert state == "ok", message + " | " + " | ".join(lines)
    assert lines == [] and page.is_hidden("#own-world-lines")
    paths = sum(len(s["gold_paths"]) + len(s.get("wrong_paths", [])) for s in doc["scenarios"])
    assert len(_path_lines(page)) == paths          # one line per path replayed, folded
    assert all(line.startswith("ok ") for line in _path_lines(page))
    option = page.locator('#scope option[value="scenarios:mine"]')
    assert option.count() == 1 and "your file" in option.text_content()
    page.locator("#own-world-box").screenshot(path=str(ARTIFACTS / "scenarios-world-file-1280.png"))
    # a later file that fails withdraws it
    _load_world(page, tmp_path, "broken.json", "[")
    assert page.locator('#scope option[value="scenarios:mine"]').count() == 0


# ---------------------------------------------------------------- a fast user

def test_a_fast_user_runs_scenarios_right_after_load(browser, server):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True)
    fast = context.new_page()
    fast.requests = []
    fast.on("request", lambda r: fast.requests.append(r.url))
    routed = RoutedProvider(fast, origin_pattern(OPENAI), "openai", answer=answer)
    try:
        fast.goto(server + f"?timeout={REQUEST_TIMEOUT_S}")
        booted(fast)
        # no pause between the page being ready and the run: the scope chosen is the scope run
        fast.evaluate("""(scope) => {
            document.getElementById('model').value = 'gpt-test';
            document.getElementById('model').dispatchEvent(new Event('input', {bubbles: true}));
            document.getElementById('api-key').value = 'sk-test-key';
            document.getElementById('api-key').dispatchEvent(new Event('input', {bubbles: true}));
            const select = document.getElementById('scope');
            select.value = scope;
            select.dispatchEvent(new Event('change', {bubbles: true}));
            document.getElementById('run-live').click();
        }""", SCOPE)
        fast.wait_for_function(ENDED, timeout=READY_TIMEOUT_MS * 2)
        assert fast.evaluate("document.body.dataset.run") == "done", fast.text_content("#run-message")
        sent = {conversation("openai", p["body"])[0] for p in routed.posts}
        assert sent == {s.user.first for s in WORLD.scenarios}
        assert list(scenario_rows(fast, "#live-card")) == [s.id for s in WORLD.scenarios]
    finally:
        routed.close()
        context.close()



# ---------------------------------------------------------------- on a phone, and for a screen reader

@pytest.mark.parametrize("width", [390, 1280])
def test_a_scenario_detail_fits_a_phone_and_axe_finds_nothing(browser, server, tmp_path, width):
    from axe import axe_violations

    fixtures = json.loads((ROOT / "data" / "fixtures.json").read_text(encoding="utf-8"))
    card = terminal_verdicts(fixtures)[1]
    failed = next((c for c in card["cases"] if c["category"] == "scenario" and c["end_state_diff"]), None)
    if failed is None:
        pytest.skip("no fixture scenario ends with a wrong end state")
    context = browser.new_context(viewport={"width": width, "height": 900})
    phone = context.new_page()
    try:
        phone.goto(server)
        booted(phone)
        show_fixtures(phone)
        detail = open_detail(phone, "#fixture-card", failed["id"])
        assert detail.locator("table.end-state-diff tbody tr").count() == len(failed["end_state_diff"])
        # a world file that does not load, its line in view
        path = tmp_path / "broken.json"
        path.write_text("{", encoding="utf-8")
        phone.set_input_files("#own-world", str(path))
        phone.wait_for_function("document.getElementById('own-world-box').dataset.state === 'error'",
                                timeout=READY_TIMEOUT_MS)
        assert phone.evaluate("document.documentElement.scrollWidth") <= width
        row = phone.locator(f'#fixture-card .case-row[data-case-id="{failed["id"]}"]')
        row.screenshot(path=str(ARTIFACTS / f"scenario-detail-{width}.png"))
        phone.locator("#fixture-scenarios").screenshot(path=str(ARTIFACTS / f"scenarios-section-{width}.png"))
        for where in (f'#fixture-card .case-row[data-case-id="{failed["id"]}"]', "#fixture-scenarios", "#own-world-box"):
            found = axe_violations(phone, include=where)
            assert found == [], f"{where} at {width} px: {json.dumps(found, indent=1)}"
    finally:
        context.close()


def test_pad_levels_or_phrasings_with_a_scenarios_scope_are_refused_as_run_refuses_them(page, live):
    openai = live(OPENAI, answer=answer)
    page.fill("#pad", "0,8")
    start(page, scope=SCOPE, cap=scenario_need(WORLDS, SCOPE, repeats=1))
    says = f"Pad levels apply to cases, not to the scope {SCOPE}: clear Pad levels."
    page.wait_for_function("s => document.getElementById('run-message').textContent === s", arg=says)
    page.fill("#pad", "")
    page.select_option("#phrasings", "all")
    page.click("#run-live")
    says = f"Phrasings apply to cases, not to the scope {SCOPE}: set Phrasings to base."
    page.wait_for_function("s => document.getElementById('run-message').textContent === s", arg=says)
    page.select_option("#phrasings", "base")
    assert openai.posts == [] and page.evaluate("document.body.dataset.run") == "idle"


# ---------------------------------------------------------------- the Leaderboard on scenario runs

def test_the_leaderboard_ranks_two_scenarios_runs_as_the_terminal_does(page, tmp_path):
    paths = []
    for name, doc in (("good", scenario_doc("good")), ("bad", scenario_doc("bad", bank_ids()[:5]))):
        paths.append(tmp_path / f"{name}.json")
        paths[-1].write_text(json.dumps(doc), encoding="utf-8")
    page.click("#board-clear")
    page.wait_for_function("document.getElementById('board').dataset.board === 'empty'", timeout=READY_TIMEOUT_MS)
    page.set_input_files("#board-files", [str(p) for p in paths])
    page.wait_for_function("['ready', 'error'].includes(document.getElementById('board').dataset.board)",
                           timeout=READY_TIMEOUT_MS)
    assert page.evaluate("document.getElementById('board').dataset.board") == "ready", \
        page.text_content("#board-message")
    assert page.locator("#board .compare-summary li").first.text_content().endswith(", 8 scenarios (world bank)")
    assert page.eval_on_selector_all("#board .board-row .board-scenarios", "cells => cells.map(c => c.textContent)") \
        == ["100.0% (63.1–100.0%) 8 of 8", "37.5% (8.5–75.5%) 3 of 8"]
