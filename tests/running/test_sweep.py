"""Tool-count sweep: the padding rules (sweep.py), the runner's hook, the per-level scorecard
(sweep_score.py via evaluate), the CLI's --pad and the comparison of two sweeps.

The per-level statistics are checked against each level graded alone, and the interval against
stats.bootstrap on hand-made credits, so the sweep cannot drift from the main score's formula.
"""
from __future__ import annotations

import asyncio
import copy
import json

import pytest

from conftest import SUITE_DOC, TOOLS_DOC, openai
from scripted import Transport
from clirun import cli_with
from toolproof.datafiles import format_schema, load_bundle
from toolproof.errors import ToolProofError
from toolproof.scoring.evaluate import evaluate
from toolproof.running.runner import Run, RunSettings
from toolproof.suite.model import requests_needed
from toolproof.scoring.comparison import compare_runs, graded_run, regression_gate
from toolproof.scoring.intervals import card_intervals
from toolproof.reports.comparison import render_comparison_text
from toolproof.suite.load import parse_suite, parse_tools
from toolproof.reports.sweep import sweep_geometry
from toolproof.running.sweep import check_levels, offered_tools, pad_pool, parse_levels, sweep_need
from toolproof.suite.toolnames import wire_name
from toolproof.grading.transcripts import parse_transcripts

BUNDLE = load_bundle()
CASES, TOOLS = BUNDLE.cases, BUNDLE.tools
KEY = "sk-sweep-secret-7"
PADDED = [c for c in CASES if c.category != "crowded"]      # the cases a sweep pads


def domains(names) -> set:
    return {TOOLS[n].domain for n in names}


# ---- padding rules ----------------------------------------------------------------------------

@pytest.mark.parametrize("pad", [0, 1, 8, 16])
def test_every_case_gets_its_own_tools_plus_exactly_n_from_other_domains(pad):
    for case in CASES:
        offered = offered_tools(case, TOOLS, pad, seed=3)
        extras = [n for n in offered if n not in case.tools]
        # a crowded case offers the whole catalogue and its servers already: offered as it is
        added = pad if case.category != "crowded" else 0
        assert len(offered) == len(set(offered)) == len(case.tools) + added, case.id
        assert set(case.tools) <= set(offered)
        assert not domains(extras) & domains(case.tools), case.id


def test_the_pool_is_every_catalogue_tool_of_the_other_domains():
    case = next(c for c in CASES if c.category == "should_not_call")
    pool = pad_pool(case, TOOLS)
    assert pool == [n for n, t in TOOLS.items() if t.domain not in domains(case.tools)]
    assert len(offered_tools(case, TOOLS, len(pool), 0)) == len(case.tools) + len(pool)


def test_same_seed_same_requests_other_seed_other_order():
    case = max(PADDED, key=lambda c: len(c.tools))
    assert offered_tools(case, TOOLS, 8, 11) == offered_tools(case, TOOLS, 8, 11)
    orders = {tuple(offered_tools(case, TOOLS, 8, seed)) for seed in range(20)}
    assert len(orders) > 15                 # the seed really moves the draw


def test_own_tools_are_shuffled_in_too_and_higher_levels_extend_lower_ones():
    case = max(PADDED, key=lambda c: len(c.tools))
    positions = {offered_tools(case, TOOLS, 16, seed).index(case.tools[0]) for seed in range(30)}
    assert len(positions) > 5               # the case's own first tool is not always first
    for seed in range(10):
        low = set(offered_tools(case, TOOLS, 8, seed)) - set(case.tools)
        high = set(offered_tools(case, TOOLS, 16, seed)) - set(case.tools)
        assert low < high


SYNTHETIC = {"format": "toolproof.tools", "version": 1, "tools": [
    {"name": f"{d}_{i}", "domain": d, "description": f"Tool {i} of {d}.",
     "parameters": {"type": "object", "properties": {}}} for d in ("aa", "bb", "cc") for i in range(4)]}

PINNED = [['bb_2', 'aa_1', 'aa_0', 'cc_2', 'cc_3'], ['cc_0', 'aa_0', 'bb_2', 'bb_3', 'aa_1']]


def test_pinned_draw():
    # Pins the generator path (sha256 key -> SplitMix64 -> Fisher-Yates) on a synthetic catalogue,
    # so a refactor cannot silently change which tools (and which order) a seed offers.
    tools = parse_tools(SYNTHETIC, format_schema("tools"))
    case = CASES[0].__class__(**{**{f: getattr(CASES[0], f) for f in CASES[0].__slots__},
                                 "id": "pinned", "tools": ("aa_0", "aa_1"), "no_pad": ()})
    assert offered_tools(case, tools, 3, 0) == PINNED[0]
    assert offered_tools(case, tools, 3, 1) == PINNED[1]


def test_a_level_beyond_the_pool_is_refused_naming_the_case():
    top = min(len(pad_pool(c, TOOLS)) for c in PADDED)
    check_levels(CASES, TOOLS, (0, top))
    with pytest.raises(ToolProofError) as exc:
        check_levels(CASES, TOOLS, (0, top + 1))
    narrow = next(c for c in PADDED if len(pad_pool(c, TOOLS)) == top)
    assert exc.value.line() == (f"--pad {top + 1} is more than case {narrow.id!r} can take: it has "
                                f"{top} tools from other domains to pad with; use at most {top}")
    with pytest.raises(ToolProofError):
        offered_tools(narrow, TOOLS, top + 1, 0)


def mini_suite(**case_extra):
    suite = copy.deepcopy(SUITE_DOC)
    suite["cases"] = [c for c in suite["cases"] if c["id"] == "call"]
    suite["cases"][0].update(tools=["place_order"], **case_extra)
    tools = parse_tools(TOOLS_DOC, format_schema("tools"))
    return parse_suite(suite, tools, format_schema("suite")), tools


def test_no_pad_tools_are_never_offered_and_shrink_the_pool():
    cases, tools = mini_suite()
    assert pad_pool(cases[0], tools) == ["send_mail"]     # commerce tools are the case's own domain
    cases, tools = mini_suite(no_pad=["send_mail"])
    assert pad_pool(cases[0], tools) == []
    with pytest.raises(ToolProofError, match="can take: it has 0 tools"):
        check_levels(cases, tools, (1,))


@pytest.mark.parametrize("bad, where", [(["nope"], "$.cases[0].no_pad[0]"), ("send_mail", "$.cases[0].no_pad")])
def test_a_bad_no_pad_is_refused_with_its_path(bad, where):
    with pytest.raises(ToolProofError) as exc:
        mini_suite(no_pad=bad)
    assert where in exc.value.line()


@pytest.mark.parametrize("text, levels", [("0,8,16", (0, 8, 16)), ("16, 0", (0, 16)), ("4", (4,))])
def test_levels_parse(text, levels):
    assert parse_levels(text) == levels


@pytest.mark.parametrize("text", ["", "a", "-1", "1e3", "NaN", "8,8", "501", "0,1,2,3,4,5,6,7,8",
                                  "9" * 100000, "1\x00", "٣", "0,,8", "3.5"])
def test_bad_or_hostile_levels_are_refused_in_one_line(text):
    with pytest.raises(ToolProofError) as exc:
        parse_levels(text)
    line = exc.value.line()
    assert "\n" not in line and len(line) < 200


def test_need_multiplies_by_levels_and_repeats():
    assert sweep_need(10, (0, 8, 16)) == 30
    assert sweep_need(10, (0, 8), repeats=3) == 60
    assert sweep_need(10, ()) == 10


# ---- the runner's hook --------------------------------------------------------------------------

def sweep_run(cases, levels=(0, 2), seed=5, cap=1000):
    settings = RunSettings("openai", "fake-model", KEY, "", "all", cap, pause_s=0, backoff_s=0.01,
                           pad_levels=levels, pad_seed=seed)
    transport = Transport()
    run = Run(cases, TOOLS, settings, transport)
    asyncio.run(run.run())
    return run, transport


def test_a_sweep_sends_every_case_at_every_level_with_the_recorded_tools_in_order():
    cases = [c for c in CASES if c.category in ("should_call", "multi_step")][:4]
    run, transport = sweep_run(cases)
    assert run.need == 2 * requests_needed(cases)
    assert [(t["case_id"], t["pad"]) for t in run.transcripts] == \
        [(c.id, 0) for c in cases] + [(c.id, 2) for c in cases]
    sent = {}
    for call in transport.calls:
        sent.setdefault(call["case_id"], []).append([t["function"]["name"] for t in call["body"]["tools"]])
    for raw in run.transcripts:
        assert raw["offered"] == offered_tools(next(c for c in cases if c.id == raw["case_id"]), TOOLS,
                                               raw["pad"], 5)
        assert [wire_name(TOOLS[i].name) for i in raw["offered"]] in sent[raw["case_id"]]   # ids, sent by name
    doc = run.document(created="2026-11-30T00:00:00+00:00")
    assert doc["sweep"] == {"seed": 5, "levels": [0, 2]}
    assert doc["settings"]["pad"] == [0, 2] and doc["settings"]["pad_seed"] == 5


def test_the_cap_cuts_a_sweep_between_cases_never_inside_one():
    cases = [c for c in CASES if c.category == "should_call"][:3]
    run, transport = sweep_run(cases, cap=4)
    assert len(transport.calls) <= 4 and run.skipped == 6 - len(run.transcripts)


# ---- per-level scorecard ------------------------------------------------------------------------

def mini_bundle():
    tools = parse_tools(TOOLS_DOC, format_schema("tools"))
    suite = copy.deepcopy(SUITE_DOC)
    for c in suite["cases"]:
        c["tools"] = ["place_order", "lookup", "refund"] if c["id"] != "accept" else ["send_mail"]
    suite["cases"] = [c for c in suite["cases"] if c["id"] in ("call", "nocall", "alt", "accept")]
    return parse_suite(suite, tools, format_schema("suite")), tools


RIGHT = {"call": openai(("place_order", {"order_id": "ORD-123456", "qty": 2, "ship_on": "2026-03-04"})),
         "nocall": openai(text="No."), "alt": openai(("lookup", {"order_id": "ORD-123456"})),
         "accept": openai(("send_mail", {"to": "ana@example.com"}))}


def sweep_doc(answers_by_level: dict, usage=None) -> dict:
    transcripts = []
    for pad, answers in answers_by_level.items():
        for cid, turn in answers.items():
            turn = copy.deepcopy(turn)
            if usage:
                turn["response"]["usage"] = {"prompt_tokens": usage[pad], "completion_tokens": 5}
            offered = ["send_mail"] if cid == "accept" else ["place_order", "lookup", "refund"]
            if pad and cid != "accept":
                offered = offered + ["send_mail"]
            transcripts.append({"case_id": cid, "turns": [turn], "pad": pad, "offered": offered})
    return {"format": "toolproof.transcripts", "version": 1, "kind": "live", "provider": "openai",
            "model": "m", "sweep": {"seed": 9, "levels": sorted(answers_by_level)}, "transcripts": transcripts}


def card_of_doc(doc, cases, tools):
    return evaluate(cases, tools, parse_transcripts(doc, format_schema("transcripts")))


def test_each_level_scores_as_it_would_alone_and_the_main_card_is_level_0():
    cases, tools = mini_bundle()
    worse = {**RIGHT, "alt": openai(("refund", {"customer": "C", "amount": 1})), "nocall": openai(("lookup", {"order_id": "x"}))}
    doc = sweep_doc({0: RIGHT, 1: worse}, usage={0: 100, 1: 180})
    card = card_of_doc(doc, cases, tools)
    alone = {pad: card_of_doc(sweep_doc({pad: a}), cases, tools) for pad, a in ((0, RIGHT), (1, worse))}
    rows = card["sweep"]["levels"]
    assert card["sweep"]["seed"] == 9 and [r["pad"] for r in rows] == [0, 1]
    for row in rows:
        single = alone[row["pad"]]
        assert (row["score"], row["low"], row["high"]) == \
            (single["score"], single["intervals"]["score"]["low"], single["intervals"]["score"]["high"])
        assert row["correct_tool_rate"] == single["metrics"]["correct_tool_rate"]
    assert rows[0]["score"] == 100.0 and rows[1]["score"] < rows[0]["score"]
    assert (rows[0]["tools_offered_mean"], rows[1]["tools_offered_mean"]) == (2.5, 3.25)
    assert (rows[0]["input_tokens_mean"], rows[1]["input_tokens_mean"]) == (100.0, 180.0)
    assert [c["verdict"] for c in card["cases"]] == [c["verdict"] for c in alone[0]["cases"]]


def test_the_level_interval_is_the_main_interval_on_hand_made_credits():
    cases, tools = mini_bundle()
    half = {**RIGHT, "alt": openai(text="?")}
    card = card_of_doc(sweep_doc({4: half}), cases, tools)
    expected = card_intervals([1.0, 1.0, 0.0, 1.0], ["should_call", "should_not_call", "distractor", "enum_format"],
                              card["weights"])["score"]
    row = card["sweep"]["levels"][0]
    assert (row["low"], row["high"]) == (expected["low"], expected["high"])
    assert "pad level 4" in " ".join(card["notes"])            # no level 0: said so


def test_a_padded_tool_called_is_a_wrong_tool_not_a_hallucinated_one():
    cases, tools = mini_bundle()
    called = {**RIGHT, "call": openai(("send_mail", {"to": "a@b.c"}))}
    card = card_of_doc(sweep_doc({0: called, 1: called}), cases, tools)
    row = next(c for c in card["cases"] if c["id"] == "call")
    assert "hallucinated" in " ".join(row["reasons"])          # level 0 did not offer send_mail
    doc = sweep_doc({1: called})
    card = card_of_doc(doc, cases, tools)
    row = next(c for c in card["cases"] if c["id"] == "call")
    assert row["reasons"][0].startswith("call 1: called send_mail, expected place_order")
    assert card["metrics"]["hallucinated_tool_rate"] == 0.0


def test_a_file_mixing_padded_and_plain_transcripts_is_refused():
    cases, tools = mini_bundle()
    doc = sweep_doc({0: RIGHT})
    del doc["transcripts"][0]["pad"]
    with pytest.raises(ToolProofError, match="some transcripts record a pad level"):
        card_of_doc(doc, cases, tools)


@pytest.mark.parametrize("offered", [["x" * 10000] * 3, [1, 2], "place_order", [], ["\x00", "send_mail"]])
def test_hostile_offered_lists_never_break_grading(offered):
    cases, tools = mini_bundle()
    doc = sweep_doc({0: RIGHT})
    for t in doc["transcripts"]:
        t["offered"] = offered
    try:
        card = card_of_doc(doc, cases, tools)
    except ToolProofError as exc:             # the format schema refuses non-lists
        assert "offered" in exc.line()
        return
    assert len(card["cases"]) == 4 and card["sweep"]["levels"][0]["pad"] == 0


def test_two_transcripts_for_one_case_at_one_level_are_refused():
    cases, tools = mini_bundle()
    doc = sweep_doc({0: RIGHT})
    doc["transcripts"].append(copy.deepcopy(doc["transcripts"][0]))
    with pytest.raises(ToolProofError, match="at pad level 0"):
        card_of_doc(doc, cases, tools)


# ---- comparing two sweeps ----------------------------------------------------------------------

def summary(doc, cases, tools):
    return graded_run(doc, cases, tools, format_schema("transcripts"), "x.json")


def test_compare_two_sweeps_level_by_level():
    cases, tools = mini_bundle()
    worse = {**RIGHT, "alt": openai(text="?")}
    a = summary({**sweep_doc({0: RIGHT, 2: RIGHT}), "suite_sha256": "a" * 64}, cases, tools)
    b = summary({**sweep_doc({0: RIGHT, 2: worse, 4: worse}), "suite_sha256": "a" * 64}, cases, tools)
    c = compare_runs(a, b)["comparison"]
    rows = c["sweep"]["levels"]
    assert [r["pad"] for r in rows] == [0, 2]
    assert rows[0]["score"]["delta"] == 0.0 and rows[1]["flips"]["regressed"] == ["alt"]
    assert rows[1]["score"]["delta"] < 0 and c["score"]["delta"] == 0.0
    plain = summary({**sweep_doc({0: RIGHT}), "suite_sha256": "a" * 64}, cases, tools)
    plain.pop("levels")
    with pytest.raises(ToolProofError, match="is a tool-count sweep and the other is not"):
        compare_runs(a, plain)
    # one case per category: nothing can be shown at any level (the bootstrap once read such a level's
    # drop as a certain regression), so the gate passes and the verdict says what was not ruled out
    assert regression_gate(compare_runs(a, b)) is None and not c["regression"]
    assert rows[1]["verdict"].startswith("no significant change; a drop of up to 100 points")
    # two levels: every interval at 97.5% (Bonferroni), so a false alarm somewhere stays within 2.5%
    assert c["intervals"]["level"] == 0.975
    assert "97.5% CI" in render_comparison_text({"comparison": c})


# ---- the CLI ----------------------------------------------------------------------------------

cli = cli_with({"TOOLPROOF_API_KEY": KEY})


def live(fake, *argv):
    return cli("run", "--provider", "openai-compatible", "--base-url", fake.base + "/v1", "--model", "fake",
               "--pause", "0", "--scope", "should_call", *argv)


def test_cli_sweep_runs_records_and_regrades_to_the_same_sweep(fake, tmp_path):
    fake.requests.clear()
    out = tmp_path / "sweep.json"
    code, stdout, stderr = live(fake, "--pad", "0,4", "--pad-seed", "7", "--cap", "500", "--format", "json",
                                "--out", str(out))
    assert code == 0, stderr
    scoped = [c for c in CASES if c.category == "should_call"]
    assert f"at pad levels 0,4 (seed 7), up to {2 * requests_needed(scoped)} requests" in stderr
    card = json.loads(stdout)
    assert [r["pad"] for r in card["sweep"]["levels"]] == [0, 4] and card["sweep"]["seed"] == 7
    assert card["sweep"]["levels"][1]["tools_offered_mean"] == \
        card["sweep"]["levels"][0]["tools_offered_mean"] + 4
    assert {len(r["body"]["tools"]) for r in fake.requests} == \
        {len(c.tools) + p for c in scoped for p in (0, 4)}
    code, regraded, err = cli("grade", "--transcripts", str(out), "--format", "json")
    assert (code, err) == (0, "") and regraded == stdout
    assert KEY not in out.read_text() + stdout + stderr


@pytest.mark.parametrize("argv, message", [
    (["--pad", "0,400"], "is more than case"),
    (["--pad", "x"], "--pad wants comma-separated whole numbers"),
    (["--pad", "0", "--pad-seed", "-1"], "--pad-seed must be between 0 and 9007199254740991, got -1"),
    (["--pad", "0", "--pad-seed", str(2 ** 53)], f"--pad-seed must be between 0 and 9007199254740991, got {2 ** 53}"),
    (["--pad", "0", "--pad-seed", "nan"], "usage error"),
])
def test_cli_refuses_bad_sweeps_before_any_request(fake, argv, message):
    fake.requests.clear()
    code, stdout, stderr = live(fake, *argv)
    assert code == 2 and message in stderr and stderr.count("\n") == 1 and not fake.requests


# ---- the chart's geometry -----------------------------------------------------------------------

def test_chart_puts_one_point_per_level_higher_scores_higher_and_whiskers_around_them():
    rows = [{"pad": 0, "score": 80.0, "low": 70.0, "high": 90.0, "correct_tool_rate": 0.9,
             "tools_offered_mean": 3, "input_tokens_mean": 1234.4},
            {"pad": 16, "score": 40.0, "low": None, "high": None, "correct_tool_rate": 0.5,
             "tools_offered_mean": 19, "input_tokens_mean": None},
            {"pad": 8, "score": None, "low": None, "high": None, "correct_tool_rate": None,
             "tools_offered_mean": 11, "input_tokens_mean": 2000.0}]
    g = sweep_geometry({"seed": 0, "levels": rows})
    a, b, c = g["points"]
    assert a["x"] < c["x"] < b["x"] and a["y"] < b["y"]              # x by pad, higher score = higher up
    assert a["whisker"]["y1"] < a["y"] < a["whisker"]["y2"] and b["whisker"] is None
    assert (a["cost"], b["cost"], c["cost"]) == ("3 tools · 1,234 input tok", "19 tools · tokens n/a",
                                                 "11 tools · 2,000 input tok")
    assert c["y"] is None and c["text"] == "n/a" and g["path"].count("L") == 1   # no score: no point
    assert sweep_geometry({"levels": []})["points"] == []


def test_terminal_and_markdown_show_every_level_with_its_interval():
    from toolproof.reports.scorecard import render_markdown, render_text

    cases, tools = mini_bundle()
    card = card_of_doc(sweep_doc({0: RIGHT, 2: {**RIGHT, "alt": openai(text="?")}}, usage={0: 100, 2: 1500}), cases, tools)
    text = render_text(card)
    assert "Tool-count sweep (pad seed 9; a difference between levels smaller than their intervals means nothing)" in text
    rows = {r["pad"]: r for r in card["sweep"]["levels"]}
    assert f"{rows[0]['low']:.0f}–100" in text and f"{rows[2]['low']:.0f}–{rows[2]['high']:.0f}" in text
    assert f"| 2 | 72.7 | {rows[2]['low']:.0f}–{rows[2]['high']:.0f} | 66.7% | 4/4 | 3.25 | 1,500 |" in render_markdown(card)
    doc = sweep_doc({0: RIGHT})
    del doc["sweep"]                       # transcripts with pad levels but no recorded seed
    plain = card_of_doc(doc, cases, tools)
    assert plain["sweep"]["seed"] is None and "pad seed n/a" in render_text(plain)


def test_a_file_with_more_levels_than_a_sweep_can_hold_is_refused_at_once():
    cases, tools = mini_bundle()
    doc = sweep_doc({pad: {"call": RIGHT["call"]} for pad in range(9)})
    with pytest.raises(ToolProofError, match=r"\$\.sweep\.levels.*too long"):
        card_of_doc(doc, cases, tools)                  # the recorded levels: by the format schema
    del doc["sweep"]
    with pytest.raises(ToolProofError) as exc:
        card_of_doc(doc, cases, tools)
    assert exc.value.line() == "at $.transcripts: a sweep holds at most 8 pad levels; this file has 9"


def test_a_rebuilt_request_shows_the_tools_the_transcript_says_were_offered():
    from toolproof.reports.page_view import turn_views

    cases, tools = mini_bundle()
    doc = sweep_doc({1: {"call": RIGHT["call"]}})
    transcript = parse_transcripts(doc, format_schema("transcripts")).transcripts["call"]
    request = json.loads(turn_views(next(c for c in cases if c.id == "call"), tools, transcript)[0]["request"])
    assert [t["function"]["name"] for t in request["tools"]] == ["place_order", "lookup", "refund", "send_mail"]
