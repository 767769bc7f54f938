"""The scorecard's `scenarios` block and its scenario entries in every report (issue 39): text,
Markdown, HTML and JUnit show the same success rate, interval, counts, worlds and first reasons,
read back from what each view prints and held to the card's JSON fields (not to the wording
module, which would hold a view to itself); compare shows each run's success rate with its
interval and the scenario flips; the board adds the scenario column; and hostile scenario ids,
world names, reasons, texts and state values stay text in every view.
"""
from __future__ import annotations

import copy
import html
import json
import re
import xml.etree.ElementTree as ET

import pytest

from htmlcheck import assert_inert
from clirun import cli
from scenariocard import built_card, fixture_card, hand_card, results_doc
from toolproof.reports.board import render_board_markdown, render_board_text
from toolproof.reports.comparison import render_comparison_markdown, render_comparison_text
from toolproof.reports.html_board import board_html
from toolproof.reports.html_comparison import comparison_html
from toolproof.reports.html_scorecard import scorecard_html
from toolproof.reports.junit import comparison_junit, junit_xml
from toolproof.reports.scorecard import render_markdown, render_text
from toolproof.scoring.comparison import compare_runs, run_summary

SUCCESS = re.compile(r"Scenario success rate: (\d+\.\d)% \(95% CI (\d+\.\d)–(\d+\.\d)%, ([a-z-]+)\), "
                     r"(\d+) of (\d+) scenarios? passed")
PLANNED = re.compile(r"(\d+) scenarios? planned: (\d+) PASS, (\d+) PARTIAL, (\d+) FAIL, (\d+) ERROR; "
                     r"(\d+) of (\d+) scenarios? graded")
WORLD = re.compile(r"\b([a-z][a-z0-9_]*)\W+(\d+\.\d)%\W+(\d+\.\d)–(\d+\.\d)%\W+(\d+) of (\d+) scenarios?\W+"
                   r"(\d+) of (\d+) scenarios?")


def _expected(card: dict) -> dict:
    """What every view must say, from the JSON's fields alone."""
    b = card["scenarios"]
    pct = lambda v: f"{100 * v:.1f}"       # noqa: E731 (the views' one decimal)
    return {"success": (pct(b["success_rate"]), pct(b["interval"]["low"]), pct(b["interval"]["high"]),
                        b["interval"]["method"], str(b["passed"]), str(b["graded"])),
            "planned": tuple(str(b[k]) for k in ("planned", "passed", "partial", "failed", "error", "graded", "planned")),
            "worlds": {w: (pct(p["success_rate"]), pct(p["interval"]["low"]), pct(p["interval"]["high"]),
                           str(p["passed"]), str(p["graded"]), str(p["graded"]), str(p["planned"]))
                       for w, p in b["by_world"].items()},
            "reasons": {c["id"]: (c["verdict"], c["reasons"][0] if c["reasons"] else "every check held")
                        for c in card["cases"] if c["category"] == "scenario"},
            "usage": [f"Turns used: mean {b['turns_used']['mean']:.1f}, max {b['turns_used']['max']}",
                      f"tool calls: mean {b['calls_used']['mean']:.1f}, max {b['calls_used']['max']}",
                      f"per-turn credit {b['turn_credit']:.2f}",
                      f"{b['recovery']['recovered']} of {b['recovery']['errors_seen']} error",
                      f"{b['asks']['asked']} asked, {b['asks']['answered']} answered by the scripted user, "
                      f"{b['asks']['used']} answer"]
            + [f"pass^{k} {v:.2f}" for k, v in b["pass_hat_k"].items()]}


def _plain_html(page: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


def _read(text: str) -> dict:
    """The figures a reader finds in a view's text."""
    return {"success": SUCCESS.search(text).groups(), "planned": PLANNED.search(text).groups(),
            "worlds": {m[0]: m[1:] for m in WORLD.findall(text)}}


@pytest.fixture(scope="module")
def cards() -> dict:
    """The hand-made card (every figure fixed) and the card part G's code builds from the bundled
    worlds' paths (what `grade` makes of a real results file)."""
    return {"hand": hand_card(), "built": built_card(), "fixtures": fixture_card()}


@pytest.fixture(scope="module")
def card(cards) -> dict:
    return cards["hand"]


def _views(card: dict) -> dict:
    return {"text": render_text(card), "markdown": render_markdown(card).replace("\\", ""),
            "html": scorecard_html(card), "junit": junit_xml(card)}


@pytest.fixture(scope="module")
def views(card) -> dict:
    return _views(card)


def test_the_built_card_has_every_verdict_the_views_word():
    card = built_card()
    block = card["scenarios"]
    assert block["graded"] >= 8 and block["passed"] and block["failed"] and block["error"] == 1
    assert all(e["reasons"] for e in card["cases"] if e["category"] == "scenario" and e["verdict"] != "PASS")


@pytest.mark.parametrize("which", ["hand", "built", "fixtures"])
@pytest.mark.parametrize("view", ["text", "markdown", "html", "junit"])
def test_every_view_shows_the_blocks_numbers(cards, which, view):
    card = cards[which]
    out = _views(card)[view]
    if view == "junit":        # the scenarios suite's own words
        suite = next(s for s in ET.fromstring(out).findall("testsuite") if s.get("name") == "scenarios")
        out = suite.find("system-out").text
    shown = out if view != "html" else _plain_html(out)
    want = _expected(card)
    got = _read(shown)
    assert got["success"] == want["success"]
    assert got["planned"] == want["planned"]
    if view != "junit":
        assert got["worlds"] == want["worlds"]
    for part in want["usage"]:
        assert part in shown, (view, part)


@pytest.mark.parametrize("which", ["hand", "built", "fixtures"])
def test_every_view_names_each_scenarios_verdict_and_first_reason(cards, which):
    card = cards[which]
    views = _views(card)
    text, markdown, page = views["text"], views["markdown"], _plain_html(views["html"])
    suite = next(s for s in ET.fromstring(views["junit"]).findall("testsuite") if s.get("name") == "scenarios")
    junit = {c.get("name"): (c[0].get("message") if len(c) else "PASS") for c in suite.findall("testcase")}
    for sid, (verdict, reason) in _expected(card)["reasons"].items():
        row = next(line for line in markdown.splitlines() if line.startswith(f"| {sid} |") and line.count("|") == 8)
        assert f"| {verdict} |" in row and row.endswith(f"| {reason} |"), row
        assert reason in page and sid in page
        assert junit[sid] == (f"{verdict}: {reason}" if verdict != "PASS" else "PASS")
        if verdict != "PASS":
            assert f"{verdict:<7} {sid} [scenario]" in text and reason in text


def test_junit_has_a_scenarios_suite_with_one_testcase_per_scenario_and_its_first_reason(card, views):
    root = ET.fromstring(views["junit"])
    suite = next(s for s in root.findall("testsuite") if s.get("name") == "scenarios")
    want = _expected(card)["reasons"]
    got = {}
    for case in suite.findall("testcase"):
        outcome = case.find("failure") if case.find("failure") is not None else case.find("error")
        got[case.get("name")] = outcome.get("message") if outcome is not None else "PASS"
    assert got == {sid: f"{v}: {r}" if v != "PASS" else "PASS" for sid, (v, r) in want.items()}
    assert suite.get("tests") == "4" and suite.get("failures") == "2" and suite.get("errors") == "1"
    # the block's figures beside the testcases, in the words of every other view
    assert _read(suite.find("system-out").text)["success"] == _expected(card)["success"]
    # no scenario is counted twice: the category suites hold the suite's cases only
    assert "scenario" not in {s.get("name") for s in root.findall("testsuite")}


def test_the_html_detail_shows_the_conversation_turn_by_turn_and_the_end_state_difference(views):
    page = views["html"]
    assert_inert(page)
    detail = page.split('data-case-id="bank.rent_with_confirm"', 1)[1].split("</details>", 1)[0]
    plain = _plain_html(detail.split("Conversation", 1)[1])
    order = ["turn 1", 'find_payee({"name": "landlord"})', "ACC-7", "turn 2", "How much is the rent?",
             "user It's 850 euros.", "turn 3", "transfer_funds(", "accounts ACC-1 update: balance 1250.0 → 400.0",
             "transfers TR-1001 insert", "no confirming user turn", "turn 4", "Done: 850 euros sent"]
    at = [plain.index(x) for x in order]
    assert at == sorted(at), order
    # the end-state difference as a table: table, key, field, expected, actual
    cells = re.findall(r"<td>(.*?)</td>", detail.split("End state: expected against actual", 1)[1])
    assert cells[:10] == ["accounts", "ACC-1", "balance", "350", "400.0", "transfers", "TR-1001", "amount", "900", "850"]
    # a tool error is marked as one; a confirming reply says so
    refund = page.split('data-case-id="shop.refund_broken"', 1)[1].split("</details>", 1)[0]
    assert 'class="scenario-call tool-error"' in refund and "error: {&quot;error&quot;: &quot;order 77 not found" in refund
    assert "user (confirms) No, thanks." in " ".join(_plain_html(refund).split())
    # a failed request's turn reads n/a for its credit and says why
    track = _plain_html(page.split('data-case-id="shop.track"', 1)[1].split("</details>", 1)[0])
    assert "turn 1 · credit n/a" in track and "request failed: 500 server error" in track
    # scenario entries are in their section, not repeated as cases with "no call"
    assert page.count('data-case-id="bank.rent_with_confirm"') == 1


def test_with_the_worlds_at_hand_the_detail_opens_with_the_system_prompt_and_the_first_message():
    from toolproof.datafiles import bundled_worlds

    card, worlds = built_card(), bundled_worlds()
    page = scorecard_html(card, worlds=worlds)
    world = next(iter(worlds.values()))
    scenario = world.scenarios[0]
    detail = _plain_html(page.split(f'data-case-id="{scenario.id}"', 1)[1].split("</details>", 1)[0])
    assert scenario.title in detail
    first = detail.index("user " + scenario.user.first[:40])
    assert first < detail.index("turn 1 ·")
    if scenario.system:
        assert detail.index(scenario.system[:40]) < first


def test_a_card_without_scenarios_shows_no_scenario_section(card):
    plain = {**card, "cases": [c for c in card["cases"] if c["category"] != "scenario"]}
    plain.pop("scenarios")
    for out in (render_text(plain), render_markdown(plain), scorecard_html(plain), junit_xml(plain)):
        assert "Scenario success rate" not in out and 'name="scenarios"' not in out


def test_a_scenarios_only_card_has_no_empty_cases_section(card):
    only = {**card, "cases": [c for c in card["cases"] if c["category"] == "scenario"]}
    page = scorecard_html(only)
    assert "No case was graded" not in page and page.count('class="case-row scenario-row"') == 4


def test_an_old_or_partial_block_reads_n_a_and_never_raises(card):
    for block in ({"planned": 2}, {"planned": 1, "graded": 1, "passed": 1, "success_rate": None, "interval": None,
                                   "by_world": {"w": None}, "recovery": {"errors_seen": 0}, "asks": "x",
                                   "pass_hat_k": {"2": None}}):
        thin = {**card, "scenarios": block}
        for out in (render_text(thin), render_markdown(thin), scorecard_html(thin), junit_xml(thin)):
            assert "Scenario success rate: n/a (95% CI n/a" in html.unescape(out).replace("\\", "")


# ---------------------------------------------------------------- hostile strings

HOSTILE = "<script>x()</script>\x1b[31m\u202e|*_[l](http://e.x)`\n# h"
# an id reaches an attribute (data-case-id): the same without an address (a world's ids cannot hold one)
HOSTILE_ID = '"><script>x()</script>\x1b[31m\u202e|*_`\n# h'


def hostile_card(card: dict) -> dict:
    bad = copy.deepcopy(card)
    bad["scenarios"]["by_world"] = {HOSTILE + w: p for w, p in bad["scenarios"]["by_world"].items()}
    for entry in bad["cases"]:
        if entry["category"] != "scenario":
            continue
        entry["id"], entry["world"] = HOSTILE_ID + entry["id"], HOSTILE
        entry["reasons"] = [HOSTILE + r for r in entry["reasons"]]
        for turn in entry["turns"]:
            turn["text"] = HOSTILE + turn["text"] if turn["text"] else ""
            turn["user"] = {"say": HOSTILE, "confirms": True}
            turn["notes"] = [HOSTILE]
            for call in turn["calls"]:
                call["tool"], call["arguments"] = HOSTILE, {HOSTILE: HOSTILE}
                call["result"] = {"x": HOSTILE}
                for change in call["changes"]:
                    change["key"] = HOSTILE
                    change.setdefault("fields", {})[HOSTILE] = [HOSTILE, {"v": HOSTILE}]
        for d in entry["end_state_diff"]:
            d.update(table=HOSTILE, key=HOSTILE, expected=HOSTILE, actual={"v": HOSTILE})
    return bad


def test_hostile_strings_stay_text_in_every_view(card):
    bad = hostile_card(card)
    text = render_text(bad)
    assert "\x1b" not in text and "\u202e" not in text and "\\x1b[31m\\u202e" in text
    page = scorecard_html(bad)
    found = assert_inert(page)
    assert "<script>x()</script>" in "".join(found.text)
    assert "\\x1b[31m\\u202e" in "".join(found.text)
    root = ET.fromstring(junit_xml(bad))          # well-formed, whatever the ids say
    names = [c.get("name") for s in root.findall("testsuite") if s.get("name") == "scenarios"
             for c in s.findall("testcase")]
    assert len(names) == 4 and all(n.startswith('"><script>') for n in names)
    markdown = render_markdown(bad)
    assert "<script>" not in markdown and "](http" not in markdown.replace("\\]", "")
    # one line per table row: a newline in a reason never opens a heading
    assert not [line for line in markdown.splitlines() if line.startswith("# h")]


# ---------------------------------------------------------------- compare and board

def _summary(card: dict, label: str) -> dict:
    return {**run_summary({"provider": "p", "model": label}, card["cases"], 1), "suite_sha256": "s",
            "scenarios": card.get("scenarios")}


@pytest.fixture(scope="module")
def comparison(card) -> dict:
    better = copy.deepcopy(card)
    for entry in better["cases"]:
        if entry["id"] == "bank.statement":
            entry.update(verdict="PASS", repeats=["PASS"], passes=1, credit=1.0, reasons=[])
    better["scenarios"].update(passed=2, partial=0, success_rate=2 / 3, interval={"low": 0.0943, "high": 0.9916,
                                                                                  "method": "clopper-pearson"})
    return compare_runs(_summary(card, "a"), _summary(better, "b"))


def test_compare_shows_each_runs_success_rate_with_its_interval_and_the_scenario_flips(comparison):
    part = comparison["comparison"]["scenarios"]
    assert part["flips"] == {"regressed": [], "improved": ["bank.statement"]}
    assert part["a"]["success_rate"] == 1 / 3 and part["b"]["interval"]["high"] == 0.9916
    line = "Scenario success rate: A 33.3% (95% CI 0.8–90.6%), 1 of 3 scenarios passed → B 66.7% (95% CI 9.4–99.2%), 2 of 3 scenarios passed"
    flips = "Scenario flips (verdict PASS in one run only): 0 regressed, 1 improved (bank.statement)"
    for out in (render_comparison_text(comparison), render_comparison_markdown(comparison).replace("\\", ""),
                _plain_html(comparison_html(comparison))):
        assert line in out and flips in out
    junit = ET.fromstring(comparison_junit(comparison))
    suite = next(s for s in junit.findall("testsuite") if s.get("name") == "scenarios")
    assert [c.get("name") for c in suite.findall("testcase")] == [c for c in _expected_ids()]
    assert line in suite.find("system-out").text
    assert_inert(comparison_html(comparison))


def _expected_ids() -> list[str]:
    return ["bank.rent_with_confirm", "bank.statement", "shop.refund_broken", "shop.track"]


def test_a_comparison_without_scenarios_says_nothing_of_them(card):
    plain = {**card, "cases": [c for c in card["cases"] if c["category"] != "scenario"]}
    plain.pop("scenarios")
    c = compare_runs(_summary(plain, "a"), _summary(plain, "b"))
    assert "scenarios" not in c["comparison"]
    assert "Scenario" not in render_comparison_text(c) + comparison_html(c) + comparison_junit(c)


def _board(card: dict) -> dict:
    row = {"id": "run-1", "label": HOSTILE, "provider": "p", "model": "m", "created": "2026-12-06", "repeats": 1,
           "cases": {"planned": 4, "graded": 3, "error": 1, "not_started": 0},
           "coverage": {"planned": 4, "graded": 3, "error": 1, "not_started": 0}, "score": 50.0,
           "interval": {"low": 40.0, "high": 60.0}, "no_score": None, "categories": {}, "metrics": card["metrics"],
           "pass_hat_k": None, "error_rate": 0.25, "rank": {"best": 1, "worst": 1, "label": "1"},
           "cost": {"requests": 1, "input_tokens": 1, "output_tokens": 1, "usd": None, "usd_per_1000_requests": None,
                    "usd_per_pass": None, "latency_p50_ms": None, "latency_p95_ms": None},
           "scenarios": {k: card["scenarios"][k] for k in ("planned", "graded", "passed", "success_rate", "interval")}}
    plain = {**copy.deepcopy(row), "id": "run-2"}
    plain.pop("scenarios")
    return {"suite": {"same": True, "mixed": False, "suite_sha256": "s" * 64, "cases": 4, "suite_cases": 4,
                      "shared_only": False},
            "method": {"intervals": "m", "pairwise": "p", "level": 0.95, "pairs": 0, "alpha": 0.05},
            "runs": [row, plain], "unranked": [], "pairs": []}


def test_the_board_adds_a_scenario_column_with_the_rate_its_interval_and_n_of_m(card):
    board = _board(card)
    cell = "33.3% (0.8–90.6%) 1 of 3"
    text = render_board_text(board)
    assert re.search(r"scenarios\s*$", text.splitlines()[5]) and cell in text
    assert text.splitlines()[7].rstrip().endswith("n/a")       # the run with no scenario
    markdown = render_board_markdown(board)
    assert f"| {cell} |" in markdown and "| scenarios |" in markdown
    page = board_html(board)
    assert_inert(page)
    assert cell in html.unescape(page) and "<dt>Scenarios</dt>" in page
    plain = {**board, "runs": [board["runs"][1]]}
    assert "scenarios" not in render_board_text(plain) + render_board_markdown(plain)


def test_the_scenario_fields_are_json_the_views_read_unchanged(card):
    # the views print the card's numbers; the JSON carries them as written (no rounding here)
    assert json.loads(json.dumps(card["scenarios"])) == card["scenarios"]


# ---------------------------------------------------------------- through the command line

def test_grade_compare_and_board_carry_the_scenarios_from_a_results_file(tmp_path):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(json.dumps(results_doc()), encoding="utf-8")
    b.write_text(json.dumps(results_doc(wrong_every=3, error_last=False)), encoding="utf-8")
    code, out, err = cli("grade", "--transcripts", str(a), "--format", "json")
    assert code == 0, err
    card = json.loads(out)
    code, text, err = cli("grade", "--transcripts", str(a), "--junit", str(tmp_path / "j.xml"))
    assert code == 0, err
    assert _read(text)["success"] == _expected(card)["success"]
    code, out, err = cli("compare", str(a), str(b), "--format", "json", "--allow-mixed")
    assert code == 0, err
    part = json.loads(out)["comparison"]["scenarios"]
    assert part["a"]["success_rate"] == card["scenarios"]["success_rate"]
    assert part["b"]["graded"] == part["b"]["planned"] and part["flips"]["improved"]
    code, text, err = cli("compare", str(a), str(b), "--allow-mixed")
    assert code == 0 and "Scenario success rate: A " in text and "Scenario flips" in text
    code, out, err = cli("board", str(a), str(b), "--format", "json", "--allow-mixed")
    assert code == 0, err
    rows = json.loads(out)["runs"]
    assert sorted(r["scenarios"]["passed"] for r in rows) == sorted([card["scenarios"]["passed"],
                                                                     part["b"]["passed"]])
    code, text, err = cli("board", str(a), str(b), "--allow-mixed")
    assert code == 0 and "scenarios" in text.splitlines()[5]


def test_a_scenario_of_a_world_not_given_is_one_line_naming_the_scenario(tmp_path):
    doc = results_doc()
    doc["transcripts"][-1]["case_id"] = "travel.nowhere"
    path = tmp_path / "r.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    for argv in (("compare", str(path), str(path), "--allow-mixed"), ("board", str(path), "--allow-mixed")):
        code, out, err = cli(*argv)
        assert code == 2 and err.count("\n") == 1 and "travel.nowhere" in err, (argv, err)
