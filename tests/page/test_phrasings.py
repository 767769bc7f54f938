"""Phrasings in the real page, in Chromium: fixtures that carry phrasings (served in place of data/'s
files, as data/fixtures.json will carry them) give the fixture scorecard its wording section with
no key: consistency and the worst-phrasing score under the headline, each case's phrasings side by
side, the same figures as `grade` in the terminal. The live form's #phrasings select counts the
phrasings in the need. Waits are on the page's state attributes."""
from __future__ import annotations

import io
import json

import pytest

from browser import PAGE_FILES, booted, click_run, page_files_with, show_fixtures
from livepage import open_advanced
from phrasingdocs import data_with_phrasings
from toolproof.cli.main import run as cli_run

pytestmark = pytest.mark.browser
pytest.importorskip("playwright.sync_api")


def documents() -> dict:
    """Two cases with a phrasing; the one whose base fixture passes fails in its phrasing."""
    docs = data_with_phrasings()
    worded = [t for t in docs["transcripts"]["transcripts"] if "phrasing" in t]
    passing = next(t for t in worded if t["intended_verdict"] == "PASS")
    passing["turns"] = [{"response": {"choices": [{"index": 0, "finish_reason": "stop", "message": {
        "role": "assistant", "content": "<b>Which one?</b> \u202e"}}]}}]
    passing["intended_verdict"], passing["note"] = "FAIL", "asks instead of calling"
    return docs


@pytest.fixture(scope="module")
def worded(browser, server, tmp_path_factory):
    docs = documents()
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.route(PAGE_FILES, page_files_with({"data/suite.json": json.dumps(docs["suite"]),
                                            "data/fixtures.json": json.dumps(docs["transcripts"])}))
    page.goto(server)
    booted(page)
    show_fixtures(page)              # graded once in view, then the section redrawn with its intervals
    folder = tmp_path_factory.mktemp("worded")
    for key in ("suite", "transcripts"):
        (folder / f"{key}.json").write_text(json.dumps(docs[key]))
    yield page, folder, docs
    context.close()


def test_the_fixture_scorecard_shows_the_wording_section(worded):
    page, folder, docs = worded
    page.wait_for_selector("#fixture-robustness", state="visible")
    consistency = page.locator("#fixture-consistency")
    assert (consistency.get_attribute("data-consistent"), consistency.get_attribute("data-judged")) == ("1", "2")
    out = io.StringIO()
    assert cli_run(["grade", "--suite", str(folder / "suite.json"), "--transcripts", str(folder / "transcripts.json"),
                    "--format", "json"], stdout=out, stderr=io.StringIO(), environ={}) == 0
    card = json.loads(out.getvalue())["robustness"]
    assert page.get_attribute("#fixture-worst-score", "data-score") == str(card["worst"]["score"])
    assert page.text_content("#fixture-consistency").startswith("1 of 2 cases consistent across phrasings")
    test = page.locator("#fixture-wording-test")       # one repeat: no case can be told from chance
    assert (test.get_attribute("data-decidable"), test.get_attribute("data-dependent")) == ("false", "0")
    assert test.text_content().startswith("Against chance: wording cannot be told from chance: verdicts differ "
                                          "between phrasings in 1 case")
    assert card["wording_test"]["decidable"] is False and card["wording_dependent_cases"] == []


def test_each_case_shows_its_own_phrasings_side_by_side(worded):
    """One row per case with only the phrasings it was run in, each with its verdict and the prompt
    sent (the table had a column per phrasing id of the whole suite: 30 columns, ~90% empty)."""
    page, _, docs = worded
    rows = page.eval_on_selector_all(
        "#fixture-phrasings-table .phrasing-row",
        "rows => rows.map(r => [r.dataset.caseId, r.dataset.wording, [...r.querySelectorAll('.verdict-cell')].map("
        "c => [c.dataset.phrasing, c.dataset.verdict, c.querySelector('.phrasing-prompt').textContent])])")
    depends = [r for r in rows if r[1] == "differs"]     # phrasings differ; one repeat cannot say it is wording
    assert len(depends) == 1 and rows[0] == depends[0] and not [r for r in rows if r[1] == "depends"]
    case = next(c for c in docs["suite"]["cases"] if c["id"] == depends[0][0])
    assert depends[0][2] == [["base", "PASS", case["prompt"]], ["terse", "FAIL", case["phrasings"][0]["prompt"]]]
    single = [r for r in rows if r[1] == "single"]
    assert len(rows) == len(docs["suite"]["cases"]) and len(single) == len(rows) - 2
    assert all([c[0] for c in r[2]] == ["base"] for r in single)      # never a cell for another case's phrasing
    assert page.locator("#fixture-phrasings-table th, #fixture-phrasings-table td").count() == 0
    assert page.locator("#fixture-robustness script, #fixture-robustness b").count() == 0
    groups = page.locator("#fixture-phrasings-table details.phrasing-group")
    assert [g.get_attribute("open") for g in groups.all()] == [None, None]   # nothing named: both folded
    assert groups.nth(0).locator("summary").text_content() == "1 case whose phrasings differ, within chance"
    assert page.text_content("#fixture-phrasings-table").count("No case is shown to depend on the wording.") == 1


def test_the_wording_view_fits_a_phone(worded):
    page, _, _ = worded
    page.set_viewport_size({"width": 390, "height": 900})
    try:
        section = page.locator("#fixture-phrasings-table")
        section.scroll_into_view_if_needed()
        widths = section.evaluate("s => [s.scrollWidth, s.clientWidth, document.documentElement.scrollWidth]")
        assert widths[0] <= widths[1] and widths[2] <= 390
        cells = page.eval_on_selector_all("#fixture-phrasings-table .phrasing-row[data-wording=differs] .verdict-cell",
                                          "cs => cs.map(c => c.getBoundingClientRect().left)")
        assert len(cells) == 2 and cells[0] == cells[1]                 # stacked, one under the other
    finally:
        page.set_viewport_size({"width": 1280, "height": 900})


def test_a_case_detail_says_which_conversation_it_shows_and_picks_another(worded):
    """The detail opens on the conversation the row's reasons come from (the tie PASS/FAIL goes to
    FAIL: terse), says so, and a fast user switching phrasings with no pause gets the last one."""
    page, _, docs = worded
    case_id = page.get_attribute("#fixture-phrasings-table .phrasing-row[data-wording=differs]", "data-case-id")
    case = next(c for c in docs["suite"]["cases"] if c["id"] == case_id)
    row = page.locator(f'#fixture-card .case-row[data-case-id="{case_id}"]')
    row.locator("button.toggle").click()
    view = row.locator(".conversation-view")
    page.wait_for_selector(f'#fixture-card .case-row[data-case-id="{case_id}"] .conversation-view[data-phrasing]')
    picker = row.locator(".conversation-picker")
    assert picker.locator("option").all_text_contents() == ["base · PASS", "terse · FAIL"]
    assert (view.get_attribute("data-phrasing"), picker.input_value()) == ("terse", "1")
    assert row.locator(".conversation-shown").text_content() == \
        "Conversation 2 of 2: phrasing terse, FAIL (the one the case's reasons come from)."
    assert view.locator(".msg-user").text_content() == "User" + case["phrasings"][0]["prompt"]
    assert view.locator(".msg-call").count() == 0                # terse's answer called nothing
    assert view.locator("b, script").count() == 0
    picker.select_option("0")
    picker.select_option("1")
    picker.select_option("0")
    page.wait_for_function("document.body?.dataset.pending === '0'")
    page.wait_for_selector(f'#fixture-card .case-row[data-case-id="{case_id}"] .conversation-view[data-phrasing=base]')
    assert view.locator(".msg-user").text_content() == "User" + case["prompt"]
    assert row.locator(".conversation-shown").text_content() == "Conversation 1 of 2: phrasing base, PASS."
    assert row.locator(".conversation-reasons li").count() >= 1                 # base's own reasons, not the row's
    assert view.locator(".msg-call").count() >= 1                # base's answer called the tool


def test_the_phrasings_select_counts_each_phrasing_in_the_need(worded):
    page, _, docs = worded
    page.select_option("#scope", "all")
    base_cap = int(page.input_value("#cap"))
    open_advanced(page)                 # the Phrasings select is folded with the other advanced fields
    page.select_option("#phrasings", "all")
    worded_cases = [c for c in docs["suite"]["cases"] if c.get("phrasings")]
    from toolproof.datafiles import format_schema
    from toolproof.suite.load import parse_suite, parse_tools
    tools = parse_tools(docs["tools"], format_schema("tools"))
    extra = sum(c.requests for c in parse_suite(docs["suite"], tools, format_schema("suite")) if c.phrasings)
    assert len(worded_cases) == 2 and int(page.input_value("#cap")) == base_cap + extra
    page.select_option("#phrasings", "base")
    assert int(page.input_value("#cap")) == base_cap


def test_a_live_run_of_every_phrasing_shows_the_section_and_regrades_the_same(worded):
    """A routed OpenAI answers each phrasing as its case (the routed suite's phrasings are not
    data/'s); the live card has the wording section and its export re-grades byte for byte."""
    from fakeprovider import case_and_turn, fixture_answer
    from routed import OPENAI, RoutedProvider, origin_pattern

    page, folder, docs = worded
    prompts = {p["prompt"]: c["id"] for c in docs["suite"]["cases"] for p in c.get("phrasings", [])}
    worded_ids = set(prompts.values())

    def answer(case_id, turn, body):
        prompt = next(m["content"] for m in body["messages"] if m["role"] == "user")
        return fixture_answer(case_id or prompts[prompt], turn, "openai")

    scope = next(c["category"] for c in docs["suite"]["cases"] if c.get("phrasings"))
    provider = RoutedProvider(page, origin_pattern(OPENAI), answer=answer)
    try:
        page.evaluate("document.body.dataset.run = 'idle'")
        page.select_option("#provider", "openai")
        page.fill("#model", "gpt-test")
        page.fill("#api-key", "sk-test-key")
        page.select_option("#scope", scope)
        open_advanced(page)
        page.select_option("#phrasings", "all")
        click_run(page)
        page.wait_for_function("['done', 'aborted', 'error'].includes(document.body?.dataset.run)", timeout=60_000)
        assert page.evaluate("document.body.dataset.run") == "done"
        sent = {(p["case_id"] or prompts.get(next(m["content"] for m in p["body"]["messages"] if m["role"] == "user")))
                for p in provider.posts}
        assert worded_ids & sent
        page.wait_for_selector("#live-robustness", state="attached")
        worded_row = page.locator("#live-card .phrasing-row[data-wording]").first
        picked = worded_row.get_attribute("data-case-id")
        assert [c.get_attribute("data-phrasing") for c in worded_row.locator(".verdict-cell").all()] == ["base", "terse"]
        live_row = page.locator(f'#live-card .case-row[data-case-id="{picked}"]')
        live_row.locator("button.toggle").click()
        live_row.locator(".conversation-picker").wait_for()
        assert [o.split(" · ")[0] for o in live_row.locator(".conversation-picker option").all_text_contents()] == [
            "base", "terse"]
        with page.expect_download() as download:
            page.click("#export-live-json")
        exported = json.loads(open(download.value.path(), encoding="utf-8").read())
    finally:
        provider.close()
    results = {k: v for k, v in exported.items() if k != "scorecard"} if "scorecard" in exported else exported
    assert any(t.get("phrasing") == "terse" for t in results["transcripts"])
    path = folder / "live.json"
    path.write_text(json.dumps(results))
    out = io.StringIO()
    assert cli_run(["grade", "--suite", str(folder / "suite.json"), "--transcripts", str(path), "--format", "json"],
                   stdout=out, stderr=io.StringIO(), environ={}) == 0
    card = json.loads(out.getvalue())
    assert card["robustness"]["phrasings"] == ["base", "terse"]
    if "scorecard" in exported:
        assert exported["scorecard"]["robustness"] == card["robustness"]


def test_compare_of_two_worded_runs_shows_them_per_phrasing(worded, tmp_path):
    page, _, docs = worded
    worded_ids = {c["id"] for c in docs["suite"]["cases"] if c.get("phrasings")}
    mine = [t for t in docs["transcripts"]["transcripts"] if t["case_id"] in worded_ids]
    base = {t["case_id"]: t for t in mine if "phrasing" not in t}
    fixed = [{**t, "turns": base[t["case_id"]]["turns"]} for t in mine]
    for slot, items in (("a", mine), ("b", fixed)):
        path = tmp_path / f"{slot}.json"
        path.write_text(json.dumps({"format": "toolproof.transcripts", "version": 1, "kind": "live",
                                    "provider": "openai", "model": slot, "suite_sha256": "a" * 64,
                                    "transcripts": items}))
        page.set_input_files(f"#compare-{slot}", str(path))
    page.wait_for_selector('#compare[data-compare="ready"]', timeout=60_000)
    text = page.text_content("#compare-wording")
    assert "(worst)" in text and "terse" in text and "base" in text


def test_with_repeats_the_page_names_the_case_the_test_against_chance_names(browser, server):
    """Five repeats, each phrasing answered alike every time: the test names the case (exact p
    2/252), the page opens it as depending on the wording, and the case row says so."""
    docs = documents()
    items = docs["transcripts"]["transcripts"]
    docs["transcripts"]["transcripts"] = [{**t, "repeat": r} for t in items for r in range(5)]
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        page.route(PAGE_FILES, page_files_with({"data/suite.json": json.dumps(docs["suite"]),
                                                "data/fixtures.json": json.dumps(docs["transcripts"])}))
        page.goto(server)
        booted(page)
        show_fixtures(page)
        test = page.locator("#fixture-wording-test")
        assert (test.get_attribute("data-decidable"), test.get_attribute("data-dependent")) == ("true", "1")
        assert "wording matters for this model" in test.text_content()
        named = page.eval_on_selector_all("#fixture-phrasings-table .phrasing-row[data-wording=depends]",
                                          "rows => rows.map(r => r.dataset.caseId)")
        assert len(named) == 1
        groups = page.locator("#fixture-phrasings-table details.phrasing-group")
        assert groups.nth(0).get_attribute("open") == "" and \
            groups.nth(0).locator("summary").text_content() == "1 case whose verdict depends on the wording"
        row = page.locator(f'#fixture-card .case-row[data-case-id="{named[0]}"]')
        assert "(depends on the wording)" in row.text_content()
    finally:
        context.close()
