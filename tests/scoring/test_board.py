"""The leaderboard's ranking and pairwise logic (scoring/board.py): pairs exactly as compare,
Holm over the pairs, shared ranks, suites, prices and repeats."""
from __future__ import annotations

import pytest

from boarddocs import IDS, partial_doc, phrased_doc, run_doc, scoped_doc
from suitefigures import CASES, CONVERSATIONS, in_category
from toolproof.datafiles import format_schema
from toolproof.errors import ToolProofError
from toolproof.scoring.board import build_board, holm, parse_run
from toolproof.scoring.evaluate import evaluate
from toolproof.scoring.comparison import compare_runs, graded_run

SCHEMA = format_schema("transcripts")
CALLS = in_category("should_call")


def board(bundle, docs, **kw):
    return build_board([(d, f"{i}.json") for i, d in enumerate(docs)], bundle.cases, bundle.tools, SCHEMA, **kw)


def test_holm_adjusts_step_down_and_keeps_order():
    # sorted p: 0.01 (x3), 0.02 (x2) -> 0.04, 0.03 (x1) -> max(0.04, 0.03) = 0.04; None is not a pair
    assert holm([0.03, 0.01, None, 0.02]) == [0.04, 0.03, None, 0.04]
    assert holm([0.6, 0.9]) == [1.0, 1.0]
    assert holm([]) == []


def test_each_pair_is_the_comparison_of_the_two_runs(bundle):
    docs = [run_doc("strong"), run_doc("mid", 3), run_doc("weak", 1)]
    b = board(bundle, docs)
    names = {r["id"]: docs[int(r["id"].split("-")[1]) - 1] for r in b["runs"]}
    assert [r["model"] for r in b["runs"]] == ["strong", "mid", "weak"]
    assert len(b["pairs"]) == 3 and b["method"]["pairs"] == 3
    for pair in b["pairs"]:
        runs = [graded_run(names[pair[k]], bundle.cases, bundle.tools, SCHEMA, k) for k in ("a", "b")]
        c = compare_runs(*runs)["comparison"]
        assert (pair["delta"], pair["low"], pair["high"]) == (c["score"]["delta"], c["score"]["low"], c["score"]["high"])
        assert pair["mcnemar_p"] == c["mcnemar"]["p_value"]
        # the p-value is the interval's own test: p < 0.05 exactly when the 95% interval excludes 0
        assert (pair["p_value"] < 0.05) == (c["score"]["high"] < 0 or c["score"]["low"] > 0)
    assert all(p["p_holm"] >= p["p_value"] for p in b["pairs"])


def test_holm_can_take_away_what_one_test_alone_would_call_significant(bundle):
    docs = [run_doc("a"), run_doc("b", 9), run_doc("c", 7), run_doc("d", 5)]
    b = board(bundle, docs)
    alone = sum(p["p_value"] < 0.05 for p in b["pairs"])
    held = sum(p["significant"] for p in b["pairs"])
    assert held <= alone
    assert all(p["significant"] == (p["p_holm"] < 0.05) for p in b["pairs"])


def test_runs_that_cannot_be_told_apart_share_a_rank(bundle):
    b = board(bundle, [run_doc("x"), run_doc("y"), run_doc("z", 1)])
    labels = {r["model"]: r["rank"]["label"] for r in b["runs"]}
    assert labels == {"x": "1–2", "y": "1–2", "z": "3"}
    same = next(p for p in b["pairs"] if {p["a"], p["b"]} == {"run-1", "run-2"})
    assert (same["delta"], same["p_value"], same["significant"]) == (0.0, 1.0, False)


def test_a_run_with_no_grade_is_listed_apart_unranked(bundle):
    dead = run_doc("dead")
    for t in dead["transcripts"]:
        t["turns"] = [{"error": {"status": 503, "message": "down"}}]
    b = board(bundle, [dead, run_doc("live")])
    assert [r["model"] for r in b["runs"]] == ["live"] and b["runs"][0]["rank"]["label"] == "1"
    (row,) = b["unranked"]
    assert (row["model"], row["score"], row["rank"]) == ("dead", None, None)
    assert row["cases"] == {"planned": CASES, "graded": 0, "error": CASES, "not_started": 0}
    assert row["no_score"] == f"nothing was graded (0 of {CASES} cases graded ({CASES} ERROR))"
    assert b["pairs"] == [] and b["method"]["pairs"] == 0


def test_different_suites_are_refused_naming_the_files(bundle):
    with pytest.raises(ToolProofError) as caught:
        board(bundle, [run_doc("a"), run_doc("b", sha="f" * 64), run_doc("c")])
    assert caught.value.line() == ("the runs used different suites (suite_sha256): 0.json, 2.json differ from 1.json; "
                                   "pass --allow-mixed to rank them on the case ids all runs share")
    with pytest.raises(ToolProofError, match="no suite_sha256 recorded in 1.json"):
        board(bundle, [run_doc("a"), run_doc("b", sha=None)])


def test_allow_mixed_ranks_on_the_cases_all_runs_share_and_says_so(bundle):
    docs = [run_doc("a"), run_doc("b", 2, sha="f" * 64, ids=IDS[:40])]
    b = board(bundle, docs, allow_mixed=True)
    assert b["suite"]["mixed"] and b["suite"]["cases"] == 40 and b["suite"]["suite_sha256"] is None
    assert "(its cost too) on the 40 case ids all 2 runs share" in b["suite"]["note"]
    assert all(r["cases"]["planned"] == 40 for r in b["runs"])


def test_a_scorecard_alone_is_refused(bundle):
    with pytest.raises(ToolProofError, match="this is a scorecard, not a results file"):
        board(bundle, [{"cases": [], "score": 1}])


def test_prices_recorded_in_the_file_give_dollars_per_request_and_per_pass(bundle):
    priced = run_doc("p", settings={"prices": {"input_per_mtok": 3.0, "output_per_mtok": 15.0}})
    junk = run_doc("j", settings={"prices": {"input_per_mtok": float("inf"), "output_per_mtok": 1}})
    b = board(bundle, [priced, junk])
    cost = {r["model"]: r["cost"] for r in b["runs"]}
    p = cost["p"]
    expected = round((p["input_tokens"] * 3 + p["output_tokens"] * 15) / 1e6, 6)
    assert p["usd"] == expected and p["usd_per_1000_requests"] == round(1000 * expected / p["requests"], 6)
    assert p["usd_per_pass"] is not None
    assert cost["j"]["usd"] is None and cost["j"]["usd_per_1000_requests"] is None


def test_repeats_give_pass_hat_k(bundle):
    b = board(bundle, [run_doc("r", 4, repeats=2), run_doc("one")])
    rows = {r["model"]: r for r in b["runs"]}
    assert set(rows["r"]["pass_hat_k"]) == {"1", "2"} and rows["one"]["pass_hat_k"] is None


def test_run_count_is_bounded(bundle):
    with pytest.raises(ToolProofError, match="at most 40 runs"):
        board(bundle, [run_doc("a")] * 41)
    with pytest.raises(ToolProofError, match="at least one"):
        board(bundle, [])


def test_a_huge_name_is_kept_whole_in_json_and_clipped_for_reading(bundle):
    from toolproof.reports.board import render_board_text

    b = board(bundle, [run_doc("m" * 100_000)])
    assert len(b["runs"][0]["model"]) == 100_000
    assert max(len(line) for line in render_board_text(b).splitlines()) < 400


def test_a_label_that_is_not_text_is_refused_naming_the_file(bundle):
    with pytest.raises(ToolProofError) as caught:
        board(bundle, [run_doc("a"), run_doc("b", label=["not", "text"])])
    assert caught.value.line() == "1.json: at $.label: ['not', 'text'] is not of type 'string'"


def test_a_run_below_half_of_its_plan_is_listed_apart_unranked_with_why(bundle):
    # a copy of a full results file keeping only its first 10 transcripts, every one passing:
    # scored on those 10 it would rank first, with an interval 80 points wide
    docs = [run_doc("a", 3, settings={"repeats": 1}), partial_doc("cut"), run_doc("b", 5, settings={"repeats": 1}),
            run_doc("c", 2, settings={"repeats": 1})]
    b = board(bundle, docs)
    assert [r["model"] for r in b["runs"]] == ["b", "a", "c"]          # ranked among themselves, 1..3
    assert all(r["rank"]["worst"] <= 3 and r["no_score"] is None for r in b["runs"])
    (cut,) = b["unranked"]
    assert (cut["model"], cut["id"], cut["score"], cut["interval"], cut["rank"]) == ("cut", "run-2", None, None, None)
    assert (cut["cases"]["graded"], cut["cases"]["planned"], cut["cases"]["not_started"]) == (10, CASES, CASES - 10)
    assert cut["no_score"] == f"only 10 of {CASES} cases graded ({CASES - 10} not started), below half of the plan"
    # no pair names it, and Holm counts only the pairs of ranked runs: 3, not 6
    assert len(b["pairs"]) == 3 and all("run-2" not in (p["a"], p["b"]) for p in b["pairs"])
    assert all(p["p_value"] is not None and p["note"] is None for p in b["pairs"])


def test_an_unranked_run_with_phrasings_says_why_in_conversations(bundle):
    # 10 of every conversation: below half of a plan counted in conversations, said in that unit
    cut = phrased_doc("cut")
    cut["transcripts"] = cut["transcripts"][:10]
    b = board(bundle, [phrased_doc("whole"), cut])
    (row,) = b["unranked"]
    assert row["no_score"] == (f"only 10 of {CONVERSATIONS} conversations graded ({CONVERSATIONS - 10} not started), "
                               "below half of the plan")
    assert (row["cases"]["graded"], row["cases"]["planned"]) == (10, CASES)


def test_a_pair_with_no_case_graded_in_both_is_not_tested(bundle):
    # each run planned the whole suite and graded exactly half of it (so each has a score), but not the same half
    # (the second answers every case with text, so no fixture's failed request leaves it below half)
    first, second = partial_doc("first", CASES // 2), run_doc("second", 1, settings={"repeats": 1})
    second["transcripts"] = second["transcripts"][CASES // 2:]
    b = board(bundle, [first, second])
    assert all(r["score"] is not None for r in b["runs"])
    pair = b["pairs"][0]
    assert pair["cases"] == 0
    assert (pair["p_value"], pair["mcnemar_p"], pair["delta"]) == (None, None, None)
    assert pair["note"] == "not tested: no case graded in both runs" and not pair["significant"]


def test_runs_of_different_scopes_are_ranked_on_the_cases_they_share(bundle):
    # one run of should_call alone, one of the whole suite: the same suite, not mixed
    docs = [run_doc("whole", 2, settings={"repeats": 1}), scoped_doc("calls", "should_call")]
    b = board(bundle, docs)
    s = b["suite"]
    assert (s["same"], s["mixed"], s["shared_only"], s["cases"]) == (True, False, True, CALLS)
    assert s["suite_sha256"] and f"every run graded (its cost too) on the {CALLS} of {CASES} cases all 2 runs share" in s["note"]
    assert all((r["cases"]["graded"], r["cases"]["planned"]) == (CALLS, CALLS) for r in b["runs"])
    whole = next(r for r in b["runs"] if r["model"] == "whole")
    calls = [c for c in bundle.cases if c.category == "should_call"]
    alone = evaluate(calls, bundle.tools, parse_run(docs[0], SCHEMA, bundle.cases, "0.json"))
    assert whole["score"] == alone["score"]               # the score is over the shared cases
    assert b["pairs"][0]["cases"] == CALLS
    # and so is its cost: the shared cases' requests and tokens, not the whole file's
    only = dict(docs[0], transcripts=[t for t in docs[0]["transcripts"] if t["case_id"] in {c.id for c in calls}])
    nine = evaluate(calls, bundle.tools, parse_run(only, SCHEMA, bundle.cases, "0.json"))["cost"]
    assert (whole["cost"]["requests"], whole["cost"]["input_tokens"]) == (nine["requests"], nine["input_tokens"])
    assert whole["coverage"]["planned"] == CALLS and "its cost too" in s["note"]


def test_runs_of_one_category_are_a_board_of_its_cases_not_of_the_suite(bundle):
    # issue 37's leftover: two should_call runs were headed with the suite's count of cases
    from toolproof.reports.board import headline

    b = board(bundle, [scoped_doc("a", "should_call"), scoped_doc("b", "should_call", 2)])
    s = b["suite"]
    assert (s["cases"], s["suite_cases"], s["shared_only"]) == (CALLS, CASES, False) and "note" not in s
    assert headline(b)[0].endswith(f"{CALLS} of its {CASES} cases")
    assert all(r["cases"]["planned"] == CALLS for r in b["runs"])


def test_each_unit_counts_one_thing_cases_and_conversations_apart(bundle):
    # two repeats: each case twice; the old "graded" column said 2N of 2N beside N of N
    b = board(bundle, [run_doc("twice", 5, repeats=2, settings={"repeats": 2}), run_doc("once", 5)])
    rows = {r["model"]: r for r in b["runs"]}
    assert (rows["twice"]["cases"]["planned"], rows["twice"]["coverage"]["planned"]) == (CASES, 2 * CASES)
    assert (rows["once"]["cases"]["planned"], rows["once"]["coverage"]["planned"]) == (CASES, CASES)
    assert "graded" not in rows["twice"] and "planned" not in rows["twice"]


def test_a_run_of_phrasings_against_a_base_run_is_ranked_and_tested_on_the_base_phrasing(bundle):
    phrased, base = phrased_doc("phrased"), run_doc("base", 3)
    b = board(bundle, [phrased, base])
    assert b["suite"]["phrasings_note"].startswith("run-1 holds several phrasings and run-2 the base phrasing alone")
    # the pair is compare's, which puts such runs on their base phrasing (comparison.on_base)
    runs = {r["model"]: r for r in b["runs"]}
    a, c = (graded_run(d, bundle.cases, bundle.tools, SCHEMA, n) for d, n in ((phrased, "a"), (base, "b")))
    first, second = (a, c) if b["runs"][0]["model"] == "phrased" else (c, a)
    found = compare_runs(first, second)["comparison"]
    assert "phrasings_note" in found
    (pair,) = b["pairs"]
    assert (pair["delta"], pair["low"], pair["high"], pair["mcnemar_p"]) == (
        found["score"]["delta"], found["score"]["low"], found["score"]["high"], found["mcnemar"]["p_value"])
    # and the rank rests on the same scores: the phrased run's base phrasing, not its mean over 8 phrasings
    only_base = dict(phrased, transcripts=[t for t in phrased["transcripts"] if "phrasing" not in t],
                     settings={"repeats": 1, "phrasings": "base"})
    alone = evaluate(bundle.cases, bundle.tools, parse_run(only_base, SCHEMA, bundle.cases, "x"))
    assert runs["phrased"]["score"] == alone["score"] != evaluate(
        bundle.cases, bundle.tools, parse_run(phrased, SCHEMA, bundle.cases, "x"))["score"]
    assert runs["phrased"]["coverage"] == {"planned": CASES, "graded": CASES - 1, "error": 1, "not_started": 0}
    assert runs["phrased"]["cost"]["requests"] == alone["cost"]["requests"]


def test_runs_that_all_hold_phrasings_are_ranked_on_every_phrasing(bundle):
    b = board(bundle, [phrased_doc("x"), phrased_doc("y")])
    assert "phrasings_note" not in b["suite"]
    assert all(r["coverage"]["planned"] == CONVERSATIONS for r in b["runs"])


def test_a_run_of_phrasings_stating_no_plan_is_still_put_on_its_base_phrasing(bundle):
    # hostile: no settings at all (so no plan to restate), a phrasing id no plan names
    phrased = phrased_doc("phrased")
    del phrased["settings"]
    b = board(bundle, [phrased, run_doc("base", 3)])
    assert "phrasings_note" in b["suite"]
    assert all(r["coverage"]["planned"] == CASES for r in b["runs"])


def test_one_scope_is_not_a_narrowed_board(bundle):
    s = board(bundle, [run_doc("a"), run_doc("b", 3)])["suite"]
    assert s["shared_only"] is False and "note" not in s and s["cases"] == CASES


def test_runs_that_share_no_case_are_refused_naming_the_files(bundle):
    with pytest.raises(ToolProofError) as caught:
        board(bundle, [scoped_doc("a", "should_call"), scoped_doc("b", "should_not_call")])
    assert caught.value.line() == ("the runs share no case to rank them on: 0.json, 1.json "
                                   "(different scopes, plans or suites)")


def test_a_run_of_phrasings_with_almost_no_base_one_is_unranked(bundle):
    # hostile: no plan, two phrasings of every case but the base one of one case only, and that one a
    # failed request: ranked on the base phrasing, nothing of it is graded
    odd = phrased_doc("nobase")
    del odd["settings"]
    first = next(t for t in odd["transcripts"] if "phrasing" not in t)
    odd["transcripts"] = [dict(first, turns=[{"error": {"status": 503, "message": "down"}}])] + [
        t for t in odd["transcripts"] if t.get("phrasing") in ("terse", "chatty")]
    b = board(bundle, [odd, run_doc("base", 3)])
    (row,) = b["unranked"]
    assert row["no_score"] == "nothing was graded (0 of 1 case graded (1 ERROR))"
    assert row["cases"]["not_started"] == b["suite"]["cases"] - 1 and b["pairs"] == []
