"""Guarded grading: one case that cannot be graded fails alone, the run goes on.

`grade_safely` is `grade_case`, except that an unexpected error while grading one case (a bug
that a hostile reply found) fails that case with "internal error while grading (<type>)" and
its facts count it as unobserved; the runner grades each case as it arrives through it, and the
scorecard's assembly (scoring/evaluate.py) grades every transcript through it.

Pure: no I/O. Must not hide an error: the reason names the step and the exception's type, never
its message (which could echo model text).
"""
from __future__ import annotations

from dataclasses import replace

from .grade import grade_case
from .verdicts import FAIL, CaseResult, blank_facts
from .transcripts import Transcript, as_offered
from toolproof.errors import ToolProofError
from toolproof.suite.model import Case, Tool, phrased


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


def grade_phrased(case: Case, tools: dict[str, Tool], transcript: Transcript) -> CaseResult:
    """grade_safely with the case as its transcript's phrasing sent it (grading reads the prompt:
    a value copied from the user's message is judged against the message the model saw). A
    phrasing the suite does not have is the file's fault: ToolProofError."""
    try:
        sent = phrased(case, transcript.phrasing)
    except KeyError:
        raise ToolProofError(f"case {case.id!r} has no phrasing {transcript.phrasing!r} (the suite lists "
                             f"{', '.join(case.phrasing_ids)})") from None
    result = grade_safely(sent, tools, transcript)
    return replace(result, phrasing=transcript.phrasing)


def grade_safely(case: Case, tools: dict[str, Tool], transcript: Transcript | None) -> CaseResult:
    """grade_case, except that an unexpected error fails this case instead of the run."""
    try:
        if transcript is not None:      # a sweep: judge calls against the tools actually offered
            case = as_offered(case, transcript.raw.get("offered"))
        return grade_case(case, tools, transcript)
    except Exception as exc:                      # noqa: BLE001 - a bug must not lose the run
        return failed_case(case, tools, internal_error(exc))
