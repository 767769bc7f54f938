"""Self-checks of what is built on verdicts: the diagnosis, the weighted score and rates, and the
statistics (pass^k, bootstrap, McNemar).

Pure: no I/O.
"""
from __future__ import annotations

from toolproof.grading.grade import grade_case
from toolproof.scoring.scorecard import DEFAULT_WEIGHTS, check_weights, rate, weighted_score
from toolproof.suite.load import parse_suite, parse_tools
from toolproof.suite.model import CATEGORIES
from toolproof.grading.transcripts import make_transcript, parse_transcripts
from .kit import Checker, TOOLS_DOC, SUITE_DOC, FORMAT_OK, openai_answer
from toolproof.scoring.diagnose import decide, select
from toolproof.scoring.grounding import is_sourced, source_text
from toolproof.secrets import find_secrets, redact_text
from toolproof.scoring.trace import edit_distance
from toolproof.scoring.gates import score_gate
from toolproof.scoring.repeats import majority
from toolproof.scoring.stats import bootstrap, mcnemar, pass_at_k, pass_hat_k, quantile, reliability
from toolproof.grading.verdicts import ERROR, FAIL, PASS, CaseResult, blank_facts
from toolproof.scoring.cost import cost
from toolproof.scoring.coverage import coverage, plan_of
from toolproof.scoring.comparison import compare_runs, verdict_line
from toolproof.scoring.intervals import card_intervals, clopper_pearson, paired_intervals, t_value, wilson, z_value


def diagnosis_checks(t: Checker) -> None:
    tools = parse_tools(TOOLS_DOC, FORMAT_OK)
    cases = {c.id: c for c in parse_suite(SUITE_DOC, tools, FORMAT_OK)}

    def grade(cid: str, *turns: dict):
        doc = {"format": "toolproof.transcripts", "version": 1, "kind": "fixture",
               "transcripts": [{"case_id": cid, "provider": "openai", "turns": list(turns)}]}
        return grade_case(cases[cid], tools, parse_transcripts(doc, FORMAT_OK).transcripts[cid])

    good = '{"order_id": "ORD-123456", "qty": 2, "ship_on": "2026-03-04"}'
    results = [grade("call", openai_answer(("place_order", good))), grade("call", openai_answer(text="Done.", finish="stop")),
               grade("nocall", openai_answer(("lookup", '{"order_id": "ORD-123456"}')))]
    d = decide(results)
    t.check("diagnosis: 2x2 counts missing and unnecessary calls apart",
            (d["missing_call"], d["unnecessary_call"], d["should_call"]["called"]) == (1, 1, 1))
    sel = select(results)
    t.check("diagnosis: confusion matrix has a (no call) row and column",
            sel["rows"][-1] == sel["columns"][-1] == "(no call)" and sel["per_tool"]["place_order"]["recall"] == 0.5)
    t.check("diagnosis: edit distance over tool names", edit_distance(["a", "b"], ["b"]) == 1)
    t.check("diagnosis: 'March 4' sources 2026-03-04",
            is_sourced("2026-03-04", None, source_text(None, "Ship it March 4, please", [])) is True)
    t.check("diagnosis: an invented value is unsourced",
            is_sourced("ORD-999999", None, source_text(None, "Ship ORD-123456", [])) is False)
    fake = "sk-proj-" + "SELFTESTFAKE" * 3
    t.check("diagnosis: a pasted key is found and redacted",
            find_secrets(f"key {fake}") == ["openai-key"] and fake not in redact_text(f"key {fake}"))


def score_checks(t: Checker) -> None:
    t.check("score: rate with no denominator is None", rate(0, 0) is None)
    t.check("score: rate rounds to 4 places", rate(1, 3) == 0.3333)
    t.check("score: weighted mean", weighted_score({"should_call": 1.0, "multi_step": 0.5},
                                                   DEFAULT_WEIGHTS) == 75.0)
    t.check("score: renormalised over present categories",
            weighted_score({"injection": 0.5}, DEFAULT_WEIGHTS) == 50.0)
    t.check("score: all-zero weights give None", weighted_score({"injection": 1.0}, {"injection": 0}) is None)
    t.check("score: custom weight changes the score",
            weighted_score({"should_call": 1.0, "multi_step": 0.0}, check_weights({"multi_step": 0})) == 100.0)
    try:
        check_weights({"nonsense": 1})
        refused = False
    except Exception:
        refused = True
    t.check("score: unknown weight category refused", refused)
    t.check("score: default weights sum to 180 over 13 categories (12 of cases, scenario)",
            sum(DEFAULT_WEIGHTS.values()) == 180 and tuple(DEFAULT_WEIGHTS) == CATEGORIES)


def stats_checks(t: Checker) -> None:
    t.check("stats: pass^k = C(c,k)/C(n,k) (2 of 3 pass, k=2 -> 1/3)", abs(pass_hat_k(2, 3, 2) - 1 / 3) < 1e-12)
    t.check("stats: pass^k is 1 when every repeat passes, k = n", pass_hat_k(4, 4, 4) == 1.0)
    t.check("stats: pass@k is 0 with no pass, 1 when n - c < k",
            pass_at_k(0, 3, 2) == 0.0 and pass_at_k(2, 3, 2) == 1.0)
    t.check("stats: reliability averages over cases, k up to the fewest repeats",
            reliability([(1, 2), (3, 3)]) == {"pass_hat_k": {"1": 0.75, "2": 0.5}, "pass_at_k": {"1": 0.75, "2": 1.0}})
    t.check("stats: McNemar exact two-sided p (0 vs 5 flips -> 0.0625; 1 vs 1 -> 1)",
            mcnemar(0, 5)["p_value"] == 0.0625 and mcnemar(1, 1)["p_value"] == 1.0)
    t.check("stats: quantile interpolates between order statistics", quantile([1, 2, 3, 4], 0.5) == 2.5)
    boot = bootstrap([1.0, 0.0, 1.0, 1.0], ["a", "a", "b", "b"], {"a": 1, "b": 1}, resamples=300)
    t.check("stats: bootstrap is seeded (same inputs, same bounds) and stratified (b never varies)",
            boot == bootstrap([1.0, 0.0, 1.0, 1.0], ["a", "a", "b", "b"], {"a": 1, "b": 1}, resamples=300)
            and boot["categories"]["b"] == {"low": 1.0, "high": 1.0})
    t.check("repeats: the most common verdict wins, a tie goes to the worse, ERROR only when nothing graded",
            (majority(["PASS", "FAIL", "PASS"]), majority(["PASS", "PARTIAL"]), majority(["ERROR", "FAIL"]),
             majority(["ERROR"])) == ("PASS", "PARTIAL", "FAIL", "ERROR"))
    t.check("score: a category whose cases all errored drops out of the score",
            weighted_score({"should_call": 1.0, "injection": None}, DEFAULT_WEIGHTS) == 100.0)
    t.check("gate: --fail-under fails a run with any ERROR", score_gate(
        {"score": 99.0, "counts": {}, "cases": [{"id": "c", "category": "should_call", "verdict": "PASS", "credit": 1.0,
                                                 "repeats": ["PASS", "ERROR"], "passes": 1}]}, 1) is not None)
    interval_checks(t)


def coverage_checks(t: Checker) -> None:
    """Issue 20: the plan's coverage, and cost counting each request once."""
    def result(verdict: str) -> CaseResult:
        credit = {PASS: 1.0, FAIL: 0.0}.get(verdict)
        return CaseResult("c", "should_call", verdict, credit, [], verdict, credit, [], blank_facts())

    t.check("coverage: planned = graded + error + not_started (cases x repeats x pad levels)",
            coverage([[result(PASS), result(ERROR)], [result(FAIL)]], 2 * 3 * 2)
            == {"planned": 12, "graded": 2, "error": 1, "not_started": 9})
    cases = parse_suite(SUITE_DOC, parse_tools(TOOLS_DOC, FORMAT_OK), FORMAT_OK)
    plan = plan_of({"kind": "live", "scope": "all", "settings": {"repeats": 3}, "sweep": {"levels": [0, 8]}},
                   cases)
    t.check("coverage: a results file's plan is its scope x settings.repeats x sweep levels",
            plan is not None and plan.items == len(cases) * 3 * 2)
    t.check("coverage: a plan stated badly is not trusted (the file planned what it holds)",
            plan_of({"kind": "live", "settings": {"repeats": "3"}}, []) is None
            and coverage([[result(PASS)]], None)["planned"] == 1)
    first, second = openai_answer(text="a", finish="stop"), openai_answer(text="b", finish="stop")
    first["response"]["usage"] = {"prompt_tokens": 100, "completion_tokens": 5}
    second["response"]["usage"] = {"prompt_tokens": 150, "completion_tokens": 5}
    raw = {"case_id": "c", "turns": [first, second], "variants": [{"id": "v", "turns": [first, second]}]}
    found = cost([make_transcript(raw, "openai")], 0)
    t.check("cost: a variant's reused first turn is counted once (3 requests, 400 input tokens)",
            (found["requests"], found["input_tokens"]) == (3, 400))


def interval_checks(t: Checker) -> None:
    z = z_value(0.95)
    t.check("intervals: z(0.95) = 1.95996; t(0.95, 8 df) = 2.306 within 0.001",
            abs(z - 1.959964) < 1e-6 and abs(t_value(0.95, 8) - 2.306004) < 1e-3)
    low, high = wilson(1.0, 9, z)
    t.check("intervals: Wilson for 9 of 9 is 70.1%-100%, never zero width", (round(low, 4), high) == (0.7009, 1.0))
    low, high = clopper_pearson(8 / 9, 9, 0.95)
    t.check("intervals: Clopper-Pearson for 8 of 9 is 51.75%-99.72% (the published exact bounds)",
            (round(low, 4), round(high, 4)) == (0.5175, 0.9972))
    cats = ["a"] * 9 + ["b"] * 9
    card = card_intervals([1.0] * 9 + [1, 0, 1, 0, 1, 0, 1, 0, 0.5], cats, {"a": 1, "b": 1})
    t.check("intervals: the score's interval (smoothed variance, Welch t) by hand: 75 +- 19.68, categories by Clopper-Pearson",
            card["score"] == {"low": 55.32, "high": 94.68} and card["categories"]["a"] == {"low": 0.6637, "high": 1.0})
    same = paired_intervals([1.0, 0.0] * 9, [1.0, 0.0] * 9, cats, {"a": 1, "b": 1})
    t.check("intervals: one run against itself: delta interval symmetric about 0, not a regression",
            same["score"]["low"] == -same["score"]["high"] < 0)
    t.check("compare: the verdict says what the interval could not rule out",
            verdict_line({"low": -6.4, "high": 3.2}) ==
            "no significant change; a drop of up to 6 points cannot be ruled out (nor a rise of up to 3)")

    def run(graded: int, verdict: str) -> dict:
        case = {"category": "should_call", "passes": int(verdict == "PASS"), "graded": graded, "repeats": graded,
                "verdict": verdict, "credit": float(verdict == "PASS")}
        return {"label": {"repeats": graded}, "suite_sha256": "s", "cases": {"c1": case}}
    c = compare_runs(run(1, "PASS"), run(2, "FAIL"))["comparison"]
    t.check("compare: 1 repeat against 2 is no flip and refuses McNemar (a 1-1 tie is never PASS)",
            c["flips"] == {"regressed": [], "improved": []} and c["mcnemar"]["p_value"] is None
            and c["mcnemar"]["left_out"] == 1)
