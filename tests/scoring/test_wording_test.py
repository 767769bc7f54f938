"""Wording against chance (scoring/wording_test.py, issue 38): the exact per-case permutation law,
the suite-level test, Holm behind its gate, one repeat undecidable, the worst-phrasing score
expected by chance, and the issue's own run: a server that refuses 20% of requests at random,
every phrasing, 2 repeats, must not report any wording-dependent case."""
from __future__ import annotations

import copy
import json
from fractions import Fraction
from itertools import permutations

import pytest

from toolproof.datafiles import DATA, format_schema, load_bundle, read_json
from toolproof.grading.transcripts import parse_transcripts
from toolproof.grading.verdicts import CREDIT, CaseResult, blank_facts
from toolproof.reports.robustness import consistency_text
from toolproof.reports.scorecard import render_markdown, render_text
from toolproof.scoring.evaluate import evaluate
from toolproof.scoring.robustness import consistency_bounds, robustness
from toolproof.scoring.scorecard import DEFAULT_WEIGHTS
from toolproof.scoring.stats import SeededDraws
from toolproof.scoring.wording_test import case_groups, case_p, expected_worst, null_law, suite_test


def tries(case_id: str, category: str, table: dict[str, str]) -> list[CaseResult]:
    """{phrasing: 'PPF'} -> one CaseResult per letter (P PASS, A PARTIAL, F FAIL, E ERROR)."""
    names = {"P": "PASS", "A": "PARTIAL", "F": "FAIL", "E": "ERROR"}
    return [CaseResult(case_id, category, names[v], CREDIT[names[v]], [], names[v], CREDIT[names[v]], [],
                       blank_facts(), phrasing=p) for p, vs in table.items() for v in vs]


def brute_p(groups) -> float:
    """The permutation p by listing every arrangement (what null_law must equal)."""
    flat = [v for g in groups for v in g]
    sizes = [len(g) for g in groups]

    def stat(seq):
        out, at = Fraction(0), 0
        for n in sizes:
            s = sum(Fraction(x).limit_denominator() for x in seq[at:at + n])
            out += s * s / n
            at += n
        return out
    seen = stat(flat)
    # each distinct arrangement stands for as many orderings as its equal values allow, the same
    # number for every one of them: the share over distinct arrangements is the share over all
    arrangements = set(permutations(flat))
    return sum(stat(a) >= seen for a in arrangements) / len(arrangements)


@pytest.mark.parametrize("groups", [((1.0, 1.0, 1.0), (0.0, 0.0, 0.0), (0.0, 0.0, 0.0)),
                                    ((1.0, 0.5), (0.0, 1.0), (0.5, 0.5)),
                                    ((1.0, 1.0), (1.0, 0.0, 0.0)),
                                    ((1.0,), (0.0,), (1.0,))])
def test_the_exact_law_matches_every_arrangement_listed(groups):
    assert case_p(groups)[0] == pytest.approx(brute_p(groups), abs=1e-12)
    assert sum(w for _, w in null_law(groups)[1]) == pytest.approx(1.0)


@pytest.mark.parametrize("groups", [((1.0, 1.0), (0.0, 0.0)), ((1.0, 0.5, 0.0), (1.0, 1.0, 0.0), (0.5, 0.0, 1.0)),
                                    ((1.0,), (0.0, 1.0, 1.0))])
def test_the_expected_worst_matches_every_arrangement_listed(groups):
    flat = [v for g in groups for v in g]
    sizes = [len(g) for g in groups]

    def worst(seq):
        at, out = 0, []
        for n in sizes:
            out.append(sum(seq[at:at + n]) / n)
            at += n
        return min(out)
    arrangements = list(permutations(flat))
    assert expected_worst(groups) == pytest.approx(sum(map(worst, arrangements)) / len(arrangements))


def test_the_smallest_p_at_three_by_three_is_beyond_any_correction_over_fifteen_cases():
    assert case_p(((1.0,) * 3, (0.0,) * 3, (0.0,) * 3)) == pytest.approx((3 / 84, 3 / 84))
    assert case_p(((1.0,) * 3, (0.5,) * 3, (0.0,) * 3))[1] == pytest.approx(6 / 1680)
    assert 6 / 1680 > 0.05 / 15


def test_one_repeat_is_not_decidable_and_names_nobody():
    tables = tuple(case_groups(tries(f"c{i}", "x", {"base": "P", "b": "F", "c": "F"})) for i in range(40))
    test = suite_test(tables)
    assert test["decidable"] is False and test["p"] is None and test["named"] == ()


def test_errors_are_left_out_of_the_table():
    assert case_groups(tries("c", "x", {"base": "PE", "b": "EE", "c": "F"})) == ((1.0,), (0.0,))


def test_a_strong_effect_is_found_and_named_and_the_test_is_seeded():
    per_case = [tries(f"c{i}", "should_call", {"base": "PPPPP", "b": "PPPPP", "c": "FFFFF"}) for i in range(4)]
    per_case += [tries(f"n{i}", "should_call", {"base": "PPPFP", "b": "PFPPP", "c": "PPPPF"}) for i in range(20)]
    found = robustness(per_case, DEFAULT_WEIGHTS, intervals=False)
    test = found["wording_test"]
    assert test["decidable"] and test["p"] < 0.01 and test["correction"] == "Holm"
    assert found["wording_dependent_cases"] == ["c0", "c1", "c2", "c3"]
    assert [r["wording_dependent"] for r in found["cases"]] == [True] * 4 + [False] * 20
    assert json.dumps(robustness(per_case, DEFAULT_WEIGHTS, intervals=False)) == json.dumps(found)


def test_without_the_suite_level_gate_no_case_is_named():
    """A lone strong case among many wording-free ones: its own p clears Holm but the suite test
    does not reject, so nobody is named (the gate keeps false alarms at the level)."""
    per_case = [tries("c0", "should_call", {"base": "PPPPP", "b": "PPPPP", "c": "FFFFF"})]
    draws = SeededDraws(3)
    for i in range(60):
        per_case.append(tries(f"n{i}", "should_call", {p: "".join("P" if draws.below(10) < 6 else "F" for _ in range(5))
                                                       for p in ("base", "b", "c")}))
    found = robustness(per_case, DEFAULT_WEIGHTS, intervals=False)
    if found["wording_test"]["p"] > 0.05:
        assert found["wording_dependent_cases"] == []


def test_the_worst_phrasing_score_expected_by_chance():
    """One try per phrasing: shuffling cannot change a case's worst, so chance explains all of it;
    all tries alike: the worst equals the case's rate."""
    once = [tries(f"c{i}", "should_call", {"base": "P", "b": "F", "c": "P"}) for i in range(6)]
    found = robustness(once, DEFAULT_WEIGHTS, intervals=False)
    assert found["worst_phrasing_expected_by_chance"] == found["worst"]["score"] == 0.0
    steady = [tries(f"c{i}", "should_call", {"base": "PP", "b": "PP"}) for i in range(6)]
    assert robustness(steady, DEFAULT_WEIGHTS, intervals=False)["worst_phrasing_expected_by_chance"] == 100.0


def test_consistency_interval_is_wilson_and_does_not_collapse_at_all_consistent():
    assert consistency_bounds(72, 72)["high"] == 1.0 and consistency_bounds(72, 72)["low"] < 0.96
    assert consistency_bounds(0, 10)["low"] == 0.0 and consistency_bounds(0, 10)["high"] > 0.2
    assert consistency_bounds(0, 0) is None
    steady = [tries(f"c{i}", "should_call", {"base": "P", "b": "P"}) for i in range(72)]
    text = consistency_text(robustness(steady, DEFAULT_WEIGHTS, intervals=False))
    assert text == "72 of 72 cases consistent across phrasings (100.0%, 95% CI 95%–100%)"


def refusing_run(share: float = 0.2, repeats: int = 2, seed: int = 38) -> dict:
    """The issue's run as a results document: every case in every phrasing, `repeats` times, each answered like the case's base fixture, except that a
    seeded `share` of requests get a refusal whatever the wording."""
    fixtures = {t["case_id"]: t for t in read_json(DATA / "fixtures.json")["transcripts"] if "phrasing" not in t}
    suite = read_json(DATA / "suite.json")["cases"]
    draws, items = SeededDraws(seed), []
    for case in suite:
        for phrasing in ["base"] + [p["id"] for p in case.get("phrasings", [])]:
            for r in range(repeats):
                item = copy.deepcopy(fixtures[case["id"]])
                item.pop("intended_verdict", None)
                item["repeat"] = r
                if phrasing != "base":
                    item["phrasing"] = phrasing
                if draws.below(1000) < share * 1000:
                    item["turns"] = [{"response": refusal(item["provider"])}]
                items.append(item)
    return {"format": "toolproof.transcripts", "version": 1, "kind": "live", "provider": "mixed",
            "model": "refuses-20pc", "transcripts": items}


def refusal(provider: str) -> dict:
    text = "I'm sorry, I can't help with that request."
    if provider == "anthropic":
        return {"id": "msg_refuse", "type": "message", "role": "assistant", "model": "fake",
                "content": [{"type": "text", "text": text}], "stop_reason": "end_turn",
                "usage": {"input_tokens": 10, "output_tokens": 9}}
    return {"id": "chatcmpl-refuse", "object": "chat.completion", "model": "fake",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 10, "completion_tokens": 9, "total_tokens": 19}}


@pytest.fixture(scope="module")
def refused():
    bundle = load_bundle()
    return evaluate(bundle.cases, bundle.tools, parse_transcripts(refusing_run(), format_schema("transcripts")))


def test_random_refusals_are_not_reported_as_wording(refused):
    """The issue measured "18 cases depend on the wording" here; 17 were in the run's flaky list.
    At 2 repeats no single case can reach a corrected level, and the views say so. (The suite-level
    p is a calibrated test: over 40 seeds of this run it fell at or below 0.05 in 3;
    benchmarks/phrasing_coverage.py measures the rate over thousands of runs.)"""
    found = refused["robustness"]
    assert found["judged_cases"] > 60 and found["consistent_cases"] < found["judged_cases"] - 10   # phrasings differ
    test = found["wording_test"]
    assert test["decidable"] and test["cases_reachable"] == 0 and test["smallest_possible_p"] > 0.05   # not even uncorrected
    assert found["wording_dependent_cases"] == [] and refused["diagnosis"]["wording"] == []
    text, md = render_text(refused), render_markdown(refused)
    assert "verdict depends on the wording: none" in text and "no single case can be named at this many repeats" in text
    assert "(depends on the wording)" not in md and "Cases whose verdict depends" not in md
    worst, chance = found["worst"]["score"], found["worst_phrasing_expected_by_chance"]
    assert abs(worst - chance) < 5 and worst < refused["score"]       # the gap to the score is chance's


def test_a_hostile_or_old_card_without_the_test_still_renders(refused):
    old = copy.deepcopy(refused)
    for key in ("wording_test", "wording_dependent_cases", "worst_phrasing_expected_by_chance"):
        old["robustness"].pop(key)
    for row in old["robustness"]["cases"]:
        row.pop("wording_dependent", None)
    text = render_text(old)
    assert "verdict depends on the wording: none" in text and "against chance" not in text


def test_a_table_too_big_to_count_uses_seeded_shuffles_and_stays_quick():
    """Ten phrasings x ten repeats took 18 s to count exactly; beyond 6 phrasings or 48 tries the
    law comes from seeded shuffles (p = (1 + at or above) / (1 + B)), and even 3 x 1000 tries is
    done at once (its time is measured in benchmarks/phrasing_coverage.py, not asserted here)."""
    from toolproof.scoring.wording_test import exact

    draws = SeededDraws(9)
    big = tuple(tuple(float(draws.below(2)) for _ in range(10)) for _ in range(10))
    huge = ((1.0,) * 500 + (0.0,) * 500, (1.0,) * 1000, (0.0,) * 1000)
    assert not exact(big) and not exact(huge) and exact(((1.0,) * 8,) * 6)
    p, smallest = case_p(big)
    assert 0 < smallest <= p <= 1 and smallest >= 1 / 501
    assert case_p(huge)[0] == pytest.approx(1 / 101)          # nothing shuffled comes near: 1 / (1 + B)
    assert 0.0 <= expected_worst(huge) < 0.5
    assert case_p(big) == (p, smallest)                        # seeded


def test_repeats_that_all_agree_decide_that_wording_does_not_matter():
    """Two repeats of every phrasing, every try alike (a deterministic model): the repeats show the
    cases do not vary, so the test is decided (p 1, nobody named) rather than "one repeat cannot tell"
    (docs/formats.md: not decidable only when no case has a phrasing with two graded tries)."""
    tables = tuple(case_groups(tries(f"c{i}", "x", {"base": "PP", "b": "PP", "c": "PP"})) for i in range(10))
    test = suite_test(tables)
    assert test["decidable"] is True and test["p"] == 1.0 and test["named"] == () and test["cases_tested"] == 0
    assert test["smallest_possible_p"] is None and test["cases_reachable"] == 0
