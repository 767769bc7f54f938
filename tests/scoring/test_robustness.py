"""The robustness section: per case the verdict per phrasing, consistency, the score per phrasing
and at each case's worst phrasing, seeded intervals; the main score as the mean over phrasings;
absent (and the card unchanged byte for byte) when a run holds one phrasing."""
from __future__ import annotations

import json

import pytest

from phrasingdocs import PHRASINGS, TOOLS_DOC, WRONG, every_phrasing, suite_doc, transcript, transcripts_doc
from toolproof.datafiles import format_schema
from toolproof.errors import ToolProofError
from toolproof.grading.transcripts import parse_transcripts
from toolproof.reports.scorecard import to_json
from toolproof.scoring.evaluate import evaluate
from toolproof.suite.load import parse_suite, parse_tools

TOOLS = parse_tools(TOOLS_DOC, format_schema("tools"))
CASES = parse_suite(suite_doc(), TOOLS, format_schema("suite"))
PLAIN = parse_suite(suite_doc({}), TOOLS, format_schema("suite"))


def card(items, cases=CASES, **head):
    tset = parse_transcripts(transcripts_doc(items, **head), format_schema("transcripts"), {c.id for c in cases})
    return evaluate(cases, TOOLS, tset)


def test_a_base_only_run_gives_the_card_it_gave_before_phrasings_existed():
    base = [transcript(cid) for cid in ("call", "nocall", "two")]
    with_phrasings, without = card(base), card(base, PLAIN)
    assert "robustness" not in with_phrasings and "wording" not in with_phrasings["diagnosis"]
    assert to_json(with_phrasings) == to_json(without)


def test_the_section_lists_each_case_verdict_per_phrasing():
    found = card(every_phrasing())["robustness"]
    assert found["phrasings"] == ["base", "terse", "chatty", "polite", "typo"]
    rows = {c["id"]: c for c in found["cases"]}
    assert rows["call"]["verdicts"] == {"base": "PASS", "terse": "PASS", "chatty": "FAIL", "polite": None,
                                        "typo": None}
    assert rows["call"]["consistent"] is False and rows["call"]["worse_in"] == ["chatty"]
    assert rows["nocall"]["consistent"] is True and rows["nocall"]["worse_in"] == []
    assert rows["two"]["worse_in"] == ["typo"]
    assert (found["consistent_cases"], found["judged_cases"], found["consistency_rate"]) == (1, 3, 0.3333)


def test_scores_per_phrasing_and_at_the_worst_phrasing():
    c = card(every_phrasing())
    found = c["robustness"]
    per = {p["phrasing"]: p for p in found["per_phrasing"]}
    assert per["base"]["cases"] == 3 and per["base"]["score"] == 100.0
    assert per["chatty"]["cases"] == 1 and per["chatty"]["score"] == 0.0
    assert found["worst"]["cases"] == 3
    # worst: call FAIL (0), nocall PASS (1), two FAIL in typo: should_call 0, should_not_call 1, multi_step 0
    assert found["worst"]["score"] == round(100 * 10 / (20 + 10 + 20), 2)
    assert found["worst"]["interval"] is None and "too few cases" in found["worst"]["interval_note"]   # 3 cases
    assert "as the score's" in found["interval_method"]["method"] and "Clopper-Pearson" in found["interval_method"]["consistency"]


def test_the_main_score_is_the_mean_over_each_cases_phrasings():
    c = card(every_phrasing())
    rows = {r["id"]: r for r in c["cases"]}
    assert rows["call"]["credit"] == round(2 / 3, 4)        # PASS, PASS, FAIL
    assert rows["call"]["verdict"] == "PASS" and rows["call"]["repeats"] == ["PASS"]  # a phrasing is no repeat
    assert rows["two"]["credit"] == 0.5
    assert c["robustness"]["main_score"].startswith("the mean over each case's phrasings")


def test_repeats_and_phrasings_together():
    c = card(every_phrasing(repeats=2), settings={"repeats": 2, "phrasings": "all", "scope": "all"})
    assert c["repeats"] == 2 and c["reliability"]["flaky_cases"] == []
    assert c["robustness"]["consistent_cases"] == 1
    assert c["coverage"]["graded"] == 14


def test_the_diagnosis_names_the_cases_that_depend_on_the_wording():
    """Only the cases the test against chance names: with five repeats both disagreeing cases, with
    one repeat none (their phrasings differ, but nothing shows that repeats would not)."""
    wording = card(every_phrasing(repeats=5))["diagnosis"]["wording"]
    assert [(w["case"], w["worse_in"]) for w in wording] == [("call", ["chatty"]), ("two", ["typo"])]
    assert card(every_phrasing())["diagnosis"]["wording"] == []


def test_the_intervals_are_seeded_and_reproducible():
    one, two = card(every_phrasing()), card(every_phrasing())
    assert json.dumps(one["robustness"]) == json.dumps(two["robustness"])


def test_an_unknown_phrasing_is_refused_naming_the_case():
    with pytest.raises(ToolProofError, match="case 'call' has no phrasing 'shouty'"):
        card([transcript("call"), {**transcript("call"), "phrasing": "shouty"}])


def test_a_second_transcript_of_one_phrasing_and_repeat_is_refused():
    with pytest.raises(ToolProofError, match="second transcript for case 'call' repeat 0 in phrasing 'terse'"):
        card([transcript("call", "terse"), transcript("call", "terse")])


@pytest.mark.parametrize("bad", ["Base!", "", "x" * 41, "a\u202eb", 7, None])
def test_a_malformed_or_hostile_phrasing_key_is_refused_by_the_format(bad):
    with pytest.raises(ToolProofError, match=r"phrasing"):
        card([{**transcript("call"), "phrasing": bad}])


def test_a_phrasing_that_errored_is_left_out_of_its_case():
    items = [transcript("call"), transcript("call", "terse"),
             transcript("call", "chatty", turns=[{"error": {"status": 500, "message": "server error"}}])]
    found = card(items)["robustness"]
    row = found["cases"][0]
    assert row["verdicts"]["chatty"] == "ERROR" and row["consistent"] is True
    assert found["worst"]["score"] == 100.0


def summary(items, **head):
    from toolproof.scoring.comparison import graded_run

    doc = transcripts_doc(items, suite_sha256="a" * 64, **head)
    return graded_run(doc, CASES, TOOLS, format_schema("transcripts"), "run.json")


def test_compare_works_per_phrasing_and_on_the_worst_phrasing_score():
    from toolproof.reports.comparison import render_comparison_markdown, render_comparison_text
    from toolproof.scoring.comparison import compare_runs

    fixed = [transcript(t["case_id"], t.get("phrasing", "base"),
                        turns=transcript(t["case_id"])["turns"]) for t in every_phrasing()]
    out = compare_runs(summary(every_phrasing()), summary(fixed))["comparison"]
    found = out["robustness"]
    assert found["phrasings"] == ["base", "terse", "chatty", "polite", "typo"]
    per = {p["phrasing"]: p for p in found["per_phrasing"]}
    assert (per["base"]["a"], per["base"]["b"], per["base"]["delta"]) == (100.0, 100.0, 0.0)
    assert (per["chatty"]["cases"], per["chatty"]["delta"]) == (1, 100.0)
    assert found["worst"]["a"] == 20.0 and found["worst"]["b"] == 100.0 and found["worst"]["delta"] == 80.0
    assert found["worst"]["low"] <= 80.0 <= found["worst"]["high"] and found["worst"]["regression"] is False
    text = render_comparison_text({"comparison": out})
    assert "Per phrasing (the phrasings both runs used)" in text and "(worst)" in text
    assert "(worst)" in render_comparison_markdown({"comparison": out})
    from toolproof.reports.junit import comparison_junit

    xml = comparison_junit({"comparison": out})
    assert '<testcase name="worst-phrasing" classname="toolproof.wording"/>' in xml
    # one case a category: the paired interval is the widest a delta can have, so -80 is no regression
    reverse = compare_runs(summary(fixed), summary(every_phrasing()))["comparison"]
    assert reverse["robustness"]["worst"] == {"cases": 3, "a": 100.0, "b": 20.0, "delta": -80.0,
                                              "low": -100.0, "high": 100.0, "regression": False}
    reverse["robustness"]["worst"].update(high=-10.0, regression=True)
    assert ('message="REGRESSED: worst-phrasing score 100.0 -&gt; 20.0 (delta -80.0, 95% CI -100.0 to -10.0)"'
            in comparison_junit({"comparison": reverse}))


def test_compare_of_base_runs_has_no_robustness():
    from toolproof.scoring.comparison import compare_runs

    base = [transcript(cid) for cid in ("call", "nocall", "two")]
    assert "robustness" not in compare_runs(summary(base), summary(base))["comparison"]


@pytest.mark.parametrize("choice, items", [("all", 3 + 2 + 2 + 7), (2, 2 + 2 + 2 + 7), ("base", 10), (1, 10)])
def test_the_plan_counts_each_chosen_phrasing(choice, items):
    from toolproof.scoring.coverage import plan_of

    raw = {"kind": "live", "scope": "all", "settings": {"repeats": 1, "phrasings": choice}}
    assert plan_of(raw, CASES).items == items


@pytest.mark.parametrize("bad", ["some", 0, 18, -1, True, 1.5, ["all"], {"n": 2}, "9" * 400, None])
def test_a_plan_with_a_bad_phrasings_setting_is_not_trusted(bad):
    from toolproof.scoring.coverage import plan_of

    assert plan_of({"kind": "live", "scope": "all", "settings": {"phrasings": bad}}, CASES) is None


def test_the_committed_fixtures_base_transcripts_grade_as_before_phrasings():
    """data/'s suite once it carries phrasings, graded on the fixtures' base transcripts alone, gives
    the byte-identical card the same suite without phrasings gives (what main printed before)."""
    from phrasingdocs import data_with_phrasings

    docs = data_with_phrasings()
    tools = parse_tools(docs["tools"], format_schema("tools"))
    base_only = {**docs["transcripts"], "transcripts": [t for t in docs["transcripts"]["transcripts"]
                                                         if "phrasing" not in t]}
    plain_suite = json.loads(json.dumps(docs["suite"]))
    for case in plain_suite["cases"]:
        case.pop("phrasings", None)
    cards = []
    for suite in (docs["suite"], plain_suite):
        cases = parse_suite(suite, tools, format_schema("suite"))
        cards.append(to_json(evaluate(cases, tools, parse_transcripts(base_only, format_schema("transcripts")))))
    assert cards[0] == cards[1] and '"robustness"' not in cards[0]


def test_the_score_per_language_and_the_language_gap_by_hand():
    """call: base and terse English, chatty Portuguese; nocall: polite Spanish; two: typo Spanish.
    terse and chatty answered wrong (FAIL, 0), typo FAIL: English call 0.5 (mean of its two English
    phrasings), nocall 1, two 1 -> (20*.5 + 10*1 + 20*1) / 50 = 80; Portuguese call 0 -> 0; Spanish
    nocall 1, two 0 -> 10 / 30; the gap over the 3 cases: 80 - (20*0 + 10*1 + 20*0) / 50 * 100 = 60."""
    from toolproof.reports.robustness import robustness_text  # lazy: only this test reads the text

    langs = {("call", "chatty"): "pt", ("nocall", "polite"): "es", ("two", "typo"): "es"}
    doc = {cid: [{**p, **({"lang": langs[cid, p["id"]]} if (cid, p["id"]) in langs else {})} for p in ps]
           for cid, ps in PHRASINGS.items()}
    cases = parse_suite(suite_doc(doc), TOOLS, format_schema("suite"))
    items = [transcript(cid, pid, turns=WRONG[("call", "chatty")] if pid == "terse" else None)
             for cid in ("call", "nocall", "two") for pid in ["base"] + [p["id"] for p in PHRASINGS[cid]]]
    c = card(items, cases)
    rows = {p["lang"]: p for p in c["robustness"]["per_language"]}
    assert list(rows) == ["en", "pt", "es"]
    assert {k: (r["cases"], r["planned"], r["score"], r["conversations"]) for k, r in rows.items()} == {
        "en": (3, 3, 80.0, 4), "pt": (1, 1, 0.0, 1), "es": (2, 2, round(100 / 3, 2), 2)}
    assert all(r["interval"] is None and "too few cases" in r["interval_note"] for r in rows.values())
    gap = c["robustness"]["language_gap"]
    assert (gap["langs"], gap["cases"], gap["of"], gap["english"], gap["other"], gap["delta"], gap["interval"]) == (
        ["pt", "es"], 3, 3, 80.0, 20.0, 60.0, None)
    text = "\n".join(robustness_text(c))
    assert "per language: English 80.00 (too few cases for an interval), 3 of 3 cases, 4 conversations" in text
    assert "language gap: English minus Portuguese, Spanish: +60.00 points (too few cases for an interval)" in text
