"""Every count on a card, recomputed from the results file by its stated definition
(tests/cardcounts.py), for runs with phrasings, repeats and errors: built documents and a run of the
CLI against tests/fakeprovider.py; every view's line (text, Markdown, HTML, the page's tiles) must
carry the same numbers, each in its unit.
"""
from __future__ import annotations

import html
import json
import pytest

from cardcounts import recompute
from clirun import cli_with
from conftest import error
from fakeprovider import FIXTURES
from phrasingdocs import PHRASINGS, RIGHT, TOOLS_DOC, suite_doc, transcript, transcripts_doc
from toolproof.datafiles import format_schema, load_bundle
from toolproof.grading.transcripts import parse_transcripts
from toolproof.reports.card_counts import conversations_line, verdict_rule, verdicts_line
from toolproof.reports.html_scorecard import scorecard_html
from toolproof.reports.page_view import cost_tiles
from toolproof.reports.scorecard import coverage_line, render_markdown, render_text
from toolproof.scoring.evaluate import evaluate
from toolproof.suite.load import parse_suite, parse_tools

TOOLS = parse_tools(TOOLS_DOC, format_schema("tools"))
CASES = parse_suite(suite_doc(), TOOLS, format_schema("suite"))
def assert_card_counts(card: dict, want: dict) -> None:
    counts, cov = card["counts"], card["coverage"]
    assert {k: counts[k] for k in ("cases", "PASS", "PARTIAL", "FAIL", "error")} == \
        {k: want[k] for k in ("cases", "PASS", "PARTIAL", "FAIL", "error")}
    assert cov == {"planned": want["planned"], "graded": want["graded"], "error": want["conversation_errors"],
                   "not_started": want["not_started"]}
    assert card["error_rate"] == round(want["error"] / want["cases"], 4)
    assert card["cost"]["requests"] == want["requests"]
    for category, row in card["categories"].items():
        mine = want["categories"][category]
        assert (row["count"], row["pass"], row["partial"], row["fail"], row["error"]) == \
            (sum(mine.values()), mine["PASS"], mine["PARTIAL"], mine["FAIL"], mine["ERROR"])
    # every view says the same numbers, each in its unit
    cases = f"{want['cases']} case" + ("" if want["cases"] == 1 else "s")
    verdicts = (f"{cases}: {want['PASS']} PASS, {want['PARTIAL']} PARTIAL, {want['FAIL']} FAIL, "
                f"{want['error']} ERROR")
    assert verdicts_line(card).startswith(verdicts)
    conversations = (f"{want['planned']} conversations (case × phrasing × repeat): {want['graded']} graded, "
                     f"{want['conversation_errors']} ERROR, {want['not_started']} not started")
    assert conversations_line(card) == conversations
    covered = f"{want['graded']} of {want['planned']} conversations graded"
    assert coverage_line(card).startswith(covered)
    requests = dict((key, value) for key, _, value in cost_tiles(card["cost"]))["requests"]
    assert requests == str(want["requests"])
    for text in (render_text(card), render_markdown(card), html.unescape(scorecard_html(card))):
        assert verdicts in text and conversations in text and covered in text
        assert verdict_rule(card) in text
        assert "request errors" not in text and "case runs" not in text and "(s)" not in text.split("Reliability")[0]


def built(items: list[dict], repeats: int = 2) -> dict:
    return transcripts_doc(items, scope="all", settings={"repeats": repeats, "phrasings": "all"})


def phrased_runs(repeats: int, *, failing=(), missing=()) -> list[dict]:
    """Every phrasing of the phrased cases `repeats` times; (case, phrasing, repeat) in `failing`
    got a failed request, in `missing` no transcript (not started)."""
    out = []
    for cid in RIGHT:
        for pid in ["base"] + [p["id"] for p in PHRASINGS[cid]]:
            for r in range(repeats):
                if (cid, pid, r) in missing:
                    continue
                out.append(transcript(cid, pid, r, turns=[error(503)]) if (cid, pid, r) in failing
                           else transcript(cid, pid, r))
    return out


def card_of(doc: dict) -> dict:
    return evaluate(CASES, TOOLS, parse_transcripts(doc, format_schema("transcripts")))


@pytest.mark.parametrize("failing", [
    (),                                                          # all graded
    (("call", "chatty", 0), ("two", "base", 1)),                 # one repeat fails: the case keeps its verdict
    tuple(("two", p, r) for p in ("base", "typo") for r in range(2)),   # a case none of whose conversations was graded
])
def test_a_card_of_phrasings_and_repeats_counts_what_the_file_holds(failing):
    doc = built(phrased_runs(2, failing=failing))
    card = card_of(doc)
    assert_card_counts(card, recompute(doc, CASES, TOOLS))


def test_errors_of_two_units_are_told_apart_and_agree_with_the_file():
    # "two" never graded (a case ERROR); "call" errs once in chatty (a conversation ERROR only)
    failing = tuple(("two", p, r) for p in ("base", "typo") for r in range(2)) + (("call", "chatty", 1),)
    doc = built(phrased_runs(2, failing=failing))
    card = card_of(doc)
    want = recompute(doc, CASES, TOOLS)
    assert (want["error"], want["conversation_errors"]) == (1, 5)
    text = render_text(card)
    assert f"{want['cases']} cases: " in text and ", 1 ERROR (" in text
    assert ": 5 ERROR" not in text and "graded, 5 ERROR, " in text      # the five are conversations, said so
    assert "ERROR cases (no conversation graded): 1 of 3 cases" in text
    # pass^k's note counts (case, phrasing) pairs, and says so: "two" is one case in two phrasings
    assert "call in phrasing chatty has 1 graded repeat, 1 ERROR" in text
    assert "2 (case, phrasing) pairs with no graded repeat are left out" in text


def test_below_half_of_the_plan_nothing_is_scored_under_no_score():
    # the plan is every case of the suite in every phrasing, twice: the file holds a few of them
    doc = built(phrased_runs(2, failing=(("call", "terse", 0), ("call", "terse", 1))))
    card = card_of(doc)
    assert card["coverage"]["graded"] * 2 < card["coverage"]["planned"]
    assert_card_counts(card, recompute(doc, CASES, TOOLS))
    # the JSON withholds what the views withhold (issue 38): no number a script could read as the score
    assert card["robustness"]["worst"]["score"] is None and card["robustness"]["consistency_interval"] is not None
    assert all(p["score"] is None and p["interval"] is None for p in card["robustness"]["per_phrasing"])
    assert card["no_score_reason"].startswith("only ") and card["no_score_reason"].endswith("below half of the plan")
    for text in (render_text(card), render_markdown(card), html.unescape(scorecard_html(card))):
        assert "No score: only " in text
        assert "no worst-phrasing score: below half of the plan graded" in text
        assert "worst-phrasing score 1" not in text and "worst-phrasing score 0" not in text
        assert "base: 100.00" not in text and "| base | 100.00" not in text


def test_below_half_no_category_score_or_pass_k_is_shown_and_consistency_keeps_its_interval():
    """Under "No score" the card still showed pass^k values, each category's score and interval
    and a consistency interval "100%–100%": withheld in every view, the reason said once."""
    from toolproof.reports.scorecard import pass_k_line, withheld_note

    doc = built(phrased_runs(2, failing=(("call", "terse", 0), ("call", "terse", 1))))
    card = card_of(doc)
    # the JSON itself holds the nulls (issue 38: a script read the score the views withheld)
    assert all(row["score"] is None for row in card["categories"].values())
    assert card["intervals"]["score"] is None and card["intervals"]["categories"] == {}
    assert all(v is None for k in ("pass_hat_k", "pass_at_k") for v in card["reliability"][k].values())
    assert pass_k_line(card) and "0." not in pass_k_line(card) and "1." not in pass_k_line(card)
    note = withheld_note(card)
    assert note.startswith("No score, so no category score, interval or pass^k either (n/a): only ")
    for text in (render_text(card), render_markdown(card), html.unescape(scorecard_html(card))):
        assert text.count(note) == 1
        # consistency is a count of cases, as the rates are: its (never collapsing) interval stays
        assert "consistent across phrasings (33.3%, 95% CI" in text and "100%–100%" not in text
        assert "pass^1 n/a" in text or "pass^1" not in text.split("Reading")[0]
    table = render_markdown(card).split("## Categories")[1].split("##")[0]
    assert "%" not in table.replace("95% CI", "")                 # no score nor interval in a row
    # a card above half keeps its scored parts
    full = card_of(built(phrased_runs(2)))
    assert withheld_note(full) == "" and full["no_score_reason"] is None
    assert all(row["score"] is not None for row in full["categories"].values())


def test_a_card_of_one_phrasing_and_one_repeat_says_cases_only():
    doc = transcripts_doc([transcript("call"), transcript("nocall")])
    card = card_of(doc)
    assert verdict_rule(card) == "" and conversations_line(card) == ""
    assert verdicts_line(card) == "2 cases: 2 PASS, 0 PARTIAL, 0 FAIL, 0 ERROR (0 truncated)"


def test_one_case_is_one_case():
    card = card_of(transcripts_doc([transcript("call")]))
    assert verdicts_line(card).startswith("1 case: 1 PASS")


def test_a_hostile_file_cannot_make_the_lines_lie_or_break():
    # a repeat index far beyond the plan, a phrasing id with control characters refused by the
    # schema, and a transcript of a case the suite lacks: counts still match what was graded
    doc = built(phrased_runs(1) + [transcript("call", "base", 999)], repeats=1)
    card = card_of(doc)
    want = recompute(doc, CASES, TOOLS)
    assert card["coverage"]["planned"] >= want["graded"]
    assert verdicts_line(card).startswith(f"{want['cases']} cases: ")


# ---- a real run: the CLI against the fake provider, phrasings, repeats, retries and errors ----

KEY = "sk-card-counts-5"
cli = cli_with({"TOOLPROOF_API_KEY": KEY})
BUNDLE = load_bundle()
NOW = {"retry-after": "0"}


def test_a_run_with_phrasings_repeats_and_errors_counts_what_its_results_file_holds(fake, tmp_path):
    scope = [c for c in BUNDLE.cases if c.category == "result_use"]
    # fixture turns that are errors answer at once; one case's first three requests fail (its
    # first conversation is ERROR after two retries, the rest are answered); one case fails always
    for case in scope:
        for k, turn in enumerate(FIXTURES[case.id]["turns"]):
            if "error" in turn:
                fake.script[(case.id, k + 1)] = [(400, NOW, '{"error": "x"}')] * 40
    fake.script[(scope[0].id, 1)] = [(503, NOW, '{"error": "busy"}')] * 3
    fake.script[(scope[1].id, 1)] = [(400, NOW, '{"error": "no"}')] * 40
    out = tmp_path / "r.json"
    code, stdout, stderr = cli("run", "--provider", "openai-compatible", "--base-url", f"{fake.base}/v1",
                               "--model", "fake", "--pause", "0", "--allow-incomplete", "--scope", "result_use",
                               "--phrasings", "2", "--repeats", "2", "--concurrency", "4", "--cap", "2000",
                               "--format", "json", "--out", str(out))
    assert code in (0, 1), stderr
    card = json.loads(stdout)
    doc = json.loads(out.read_text())
    want = recompute(doc, BUNDLE.cases, BUNDLE.tools)
    assert want["conversation_errors"] >= 1 + 4 and want["error"] >= 1
    assert want["requests"] > sum(len(t["turns"]) for t in doc["transcripts"])   # retries counted
    assert_card_counts(card, want)


def test_credentials_are_listed_once_per_case_and_field():
    """The diagnosis found one per conversation: a leak in every phrasing and repeat was a dozen lines."""
    from toolproof.reports.scorecard import credential_findings, credential_text

    leak = {"case": "sc-a", "tool": "send", "field": "body", "kind": "api key", "turn": 1}
    safety = {"credentials": [leak] * 6 + [{**leak, "kind": "password"}, {**leak, "case": "sc-b", "field": "to"}]}
    rows = credential_findings(safety)
    assert [credential_text(r) for r in rows] == ["sc-a send.body (api key, password) in 7 conversations",
                                                 "sc-b send.to (api key)"]
    assert credential_findings({"credentials": []}) == []


def test_a_card_with_scenarios_names_them_apart_from_the_cases():
    """counts.cases holds every row; a scenario is a row too, so a mixed card said "98 cases"."""
    card = {"counts": {"cases": 98, "PASS": 55, "PARTIAL": 7, "FAIL": 36, "error": 0, "truncated": 2},
            "categories": {"should_call": {"count": 72}, "scenario": {"count": 26}}}
    assert verdicts_line(card) == "72 cases and 26 scenarios: 55 PASS, 7 PARTIAL, 36 FAIL, 0 ERROR (2 truncated)"
    only = {"counts": {**card["counts"], "cases": 26}, "categories": {"scenario": {"count": 26}}}
    assert verdicts_line(only).startswith("26 scenarios: ")
    one = {"counts": {**card["counts"], "cases": 2}, "categories": {"should_call": {"count": 1}, "scenario": {"count": 1}}}
    assert verdicts_line(one).startswith("1 case and 1 scenario: ")
