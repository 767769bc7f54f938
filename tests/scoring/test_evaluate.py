"""The guarded path from transcripts to scorecard: a bug in grading fails one case, a bug in the
diagnosis or the scorecard leaves a note, and neither loses the run or the scorecard.

The bugs are simulated by replacing a step with one that raises, since the real steps are meant
never to raise (tests/test_fuzz.py throws hostile input at them to check that).
"""
from __future__ import annotations

import asyncio
import io
import json

import pytest

import toolproof.scoring.evaluate as evaluate_module
import toolproof.grading.guarded as guarded_module
from toolproof.cli.main import run as cli_run
from toolproof.grading.guarded import failed_case, grade_safely
from toolproof.datafiles import bundled_worlds
from toolproof.scoring.evaluate import card_of, evaluate, grade_transcripts
from toolproof.grading.grade import grade_case
from toolproof.reports.scorecard import render_markdown, render_text, to_json


def broken_for(case_id: str, error: type[Exception] = ZeroDivisionError):
    """grade_case, except that it raises for one case (as a grading bug would)."""
    def grade(case, tools, transcript):
        if case.id == case_id and transcript is not None:
            raise error("boom with model text \x1b[2J")
        return grade_case(case, tools, transcript)
    return grade


def test_a_grading_bug_fails_that_case_only(bundle, monkeypatch):
    victim = bundle.cases[3].id
    monkeypatch.setattr(guarded_module, "grade_case", broken_for(victim))
    # every case's one repeat, as the page and the terminal grade it
    results = [rs[0] for rs in grade_transcripts(bundle.cases, bundle.tools, bundle.transcripts).per_case]
    assert len(results) == len(bundle.transcripts.transcripts)
    bad = next(r for r in results if r.case_id == victim)
    assert (bad.verdict, bad.credit, bad.reasons) == ("FAIL", 0.0, ["internal error while grading (ZeroDivisionError)"])
    assert (bad.lenient_verdict, bad.calls, bad.facts["observed"]) == ("FAIL", [], False)
    others = [r for r in results if r.case_id != victim]
    assert others == [grade_case(c, bundle.tools, bundle.transcripts.transcripts[c.id])
                      for c in bundle.cases if c.id != victim and c.id in bundle.transcripts.transcripts]


@pytest.mark.parametrize("error", [RecursionError, OverflowError, KeyError, MemoryError])
def test_any_exception_type_is_named(bundle, monkeypatch, error):
    case = bundle.cases[0]
    monkeypatch.setattr(guarded_module, "grade_case", broken_for(case.id, error))
    result = grade_safely(case, bundle.tools, bundle.transcripts.transcripts[case.id])
    assert result.reasons == [f"internal error while grading ({error.__name__})"]


def test_the_fallback_holds_even_when_a_missing_transcript_cannot_be_graded(bundle, monkeypatch):
    def always(case, tools, transcript):
        raise ValueError("x")
    monkeypatch.setattr(guarded_module, "grade_case", always)
    result = failed_case(bundle.cases[0], bundle.tools, "internal error while grading (ValueError)")
    assert (result.case_id, result.verdict, result.facts["observed"]) == (bundle.cases[0].id, "FAIL", False)


def test_a_diagnosis_bug_leaves_a_scorecard_with_a_note(bundle, monkeypatch):
    def broken(*args):
        raise IndexError("no")
    monkeypatch.setattr(evaluate_module, "diagnosis", broken)
    card = evaluate(bundle.cases, bundle.tools, bundle.transcripts, worlds=bundled_worlds())
    held = len(bundle.transcripts.transcripts) + len(bundle.transcripts.scenarios or {})
    assert card["diagnosis"] == {} and card["counts"]["cases"] == held
    assert card["notes"] == ["internal error while building the diagnosis (IndexError): the diagnosis is "
                             "left out; verdicts and scores are unaffected"]
    assert "Note: internal error while building the diagnosis (IndexError)" in render_text(card)
    assert "> Note: internal error while building the diagnosis (IndexError)" in render_markdown(card)
    assert json.loads(to_json(card))["notes"] == card["notes"]


def test_a_scorecard_bug_still_gives_a_scorecard(bundle, monkeypatch):
    from toolproof.scoring.scorecard import scorecard

    calls = []

    def flaky(results, weights=None, *, source=None, diagnosis=None, **extra):
        calls.append(diagnosis is not None)
        if len(calls) == 1:
            raise TypeError("first try fails")
        return scorecard(results, weights, source=source, diagnosis=diagnosis, **extra)
    monkeypatch.setattr(evaluate_module, "scorecard", flaky)
    graded = grade_transcripts(bundle.cases, bundle.tools, bundle.transcripts)
    card = card_of(graded, source={"kind": "fixture"}, diagnosis={"x": 1})
    assert calls == [True, False]           # retried without the diagnosis and the statistics
    assert card["notes"] == ["internal error while building the scorecard (TypeError)"]
    assert card["counts"]["cases"] == len(graded.rows)


def test_a_scorecard_that_fails_twice_counts_every_case_as_an_internal_error(bundle, monkeypatch):
    from toolproof.scoring.scorecard import scorecard

    def picky(results, weights=None, *, source=None, diagnosis=None, **extra):
        if any(r.verdict == "PASS" for r in results):
            raise AttributeError("bad facts")
        return scorecard(results, weights, source=source, diagnosis=diagnosis, **extra)
    monkeypatch.setattr(evaluate_module, "scorecard", picky)
    graded = grade_transcripts(bundle.cases, bundle.tools, bundle.transcripts)
    card = card_of(graded)
    assert card["counts"]["FAIL"] == card["counts"]["cases"] == len(graded.rows)
    assert {tuple(c["reasons"]) for c in card["cases"]} == {("internal error while building the scorecard (AttributeError)",)}


def test_bad_weights_are_still_the_users_error(bundle):
    from toolproof.errors import ToolProofError

    graded = grade_transcripts(bundle.cases, bundle.tools, bundle.transcripts)
    with pytest.raises(ToolProofError):
        card_of(graded, {"injection": -1})


def test_the_cli_grades_on_past_a_grading_bug(bundle, monkeypatch):
    victim = bundle.cases[0].id
    monkeypatch.setattr(guarded_module, "grade_case", broken_for(victim))
    out, err = io.StringIO(), io.StringIO()
    assert cli_run(["grade", "--format", "json"], stdout=out, stderr=err) == 0
    card = json.loads(out.getvalue())
    assert next(c for c in card["cases"] if c["id"] == victim)["reasons"] == \
        ["internal error while grading (ZeroDivisionError)"]
    assert len(card["cases"]) == len(bundle.transcripts.transcripts) + len(bundle.transcripts.scenarios or {})


def test_a_live_run_grades_on_past_a_grading_bug(bundle, monkeypatch):
    from toolproof.running.runner import Run, RunSettings
    from toolproof.running.transport import HttpReply

    async def transport(url, headers, body, timeout):
        # the first case (Lisbon's airport code) passes on this answer, the third (a friendlier draft) does not
        return HttpReply(200, {}, json.dumps({"choices": [{"message": {"content": "Lisbon's airport code is LIS."},
                                                           "finish_reason": "stop"}]}), 1.0)

    cases = [c for c in bundle.cases if c.category == "should_not_call"][:3]
    monkeypatch.setattr(guarded_module, "grade_case", broken_for(cases[1].id))
    run = Run(cases, bundle.tools, RunSettings("openai", "m", "k", "", "all", 10, pause_s=0), transport)
    asyncio.run(run.run())
    assert run.state == "done"
    assert [r.reasons[0] for r in run.results][1] == "internal error while grading (ZeroDivisionError)"
    assert [r.id for r in cases] == ["snc-airport-code", "snc-thanks-after-transfer", "snc-draft-only"]
    assert [r.verdict for r in run.results] == ["PASS", "FAIL", "FAIL"]
    assert "friday" in " ".join(run.results[2].reasons).lower()
