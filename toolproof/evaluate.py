"""Grade a set of transcripts and build the scorecard: the one path the CLI and the page share.

Every step is guarded so that nothing a model sends can lose a case or a run: an unexpected
error while grading one case fails that case with "internal error while grading (<type>)" and
the others are still graded; an error in the diagnosis or the scorecard yields a scorecard with
a note saying what was left out, never no scorecard. A `ToolProofError` (bad weights, a bad
file) is the user's to fix and still propagates.

Pure: no I/O. Must not hide an error: every guarded failure is visible in the scorecard.
"""
from __future__ import annotations

from dataclasses import replace

from .diagnose import diagnosis
from .errors import ToolProofError
from .grade import FAIL, CaseResult, blank_facts, grade_case
from .score import scorecard
from .suite import Case, Tool
from .transcripts import Transcript, TranscriptSet

def internal_error(exc: BaseException, step: str = "grading") -> str:
    """The reason shown for a guarded failure: the type only (a message could echo model text)."""
    return f"internal error while {step} ({exc.__class__.__name__})"


def failed_case(case: Case, tools: dict[str, Tool], reason: str) -> CaseResult:
    """A FAIL for a case that could not be graded, with facts that count it as unobserved."""
    try:
        base = grade_case(case, tools, None)      # the facts of a case with no transcript
    except Exception:                             # noqa: BLE001 - the fallback must not fail
        base = CaseResult(case.id, case.category, FAIL, 0.0, [], FAIL, 0.0, [], blank_facts())
    return replace(base, verdict=FAIL, credit=0.0, reasons=[reason], lenient_verdict=FAIL,
                   lenient_credit=0.0, calls=[], final_text="")


def grade_safely(case: Case, tools: dict[str, Tool], transcript: Transcript | None) -> CaseResult:
    """grade_case, except that an unexpected error fails this case instead of the run."""
    try:
        return grade_case(case, tools, transcript)
    except Exception as exc:                      # noqa: BLE001 - a bug must not lose the run
        return failed_case(case, tools, internal_error(exc))


def grade_all(cases: list[Case], tools: dict[str, Tool], transcripts: dict) -> list[CaseResult]:
    """Grade every case that has a transcript, in suite order, each one guarded."""
    return [grade_safely(case, tools, transcripts[case.id]) for case in cases if case.id in transcripts]


def diagnose_safely(results: list, cases: list[Case], tools: dict[str, Tool],
                    transcripts: dict) -> tuple[dict | None, str | None]:
    """(diagnosis, None), or (None, note) when building it failed: the verdicts still stand."""
    try:
        return diagnosis(results, cases, tools, transcripts), None
    except Exception as exc:                      # noqa: BLE001
        return None, internal_error(exc, "building the diagnosis") + \
            ": the diagnosis is left out; verdicts and scores are unaffected"


def card_safely(results: list, weights: dict | None = None, *, source: dict | None = None,
                diagnosis: dict | None = None, notes: list | None = None) -> dict:
    """The scorecard, with `notes` when a step had to be left out. Falls back to a card without
    the diagnosis, then to one where every case is an internal-error FAIL, so a scorecard exists
    whatever happened."""
    notes = [n for n in (notes or []) if n]
    try:
        card = scorecard(results, weights, source=source, diagnosis=diagnosis)
    except ToolProofError:
        raise
    except Exception as exc:                      # noqa: BLE001
        notes.append(internal_error(exc, "building the scorecard"))
        try:
            card = scorecard(results, weights, source=source)
        except Exception as again:                # noqa: BLE001
            reason = internal_error(again, "building the scorecard")
            card = scorecard([_as_failed(r, reason) for r in results], weights, source=source)
    if notes:
        card["notes"] = notes
    return card


def _as_failed(result: CaseResult, reason: str) -> CaseResult:
    return CaseResult(str(result.case_id), str(result.category), FAIL, 0.0, [reason], FAIL, 0.0,
                      [], blank_facts())


def source_of(transcripts: TranscriptSet) -> dict:
    """What the scorecard says about where its transcripts came from."""
    return {"kind": transcripts.kind, "label": transcripts.label,
            "provider": transcripts.provider, "model": transcripts.model,
            "created": transcripts.raw.get("created", ""),
            "scope": transcripts.raw.get("scope", "all")}


def evaluate(cases: list[Case], tools: dict[str, Tool], transcripts: TranscriptSet,
             weights: dict | None = None) -> dict:
    """Transcripts -> graded cases -> scorecard object (no model input can make this raise)."""
    results = grade_all(cases, tools, transcripts.transcripts)
    found, note = diagnose_safely(results, cases, tools, transcripts.transcripts)
    return card_safely(results, weights, source=source_of(transcripts), diagnosis=found, notes=[note])
