"""The pass/fail gates a CI job reads from a scorecard (exit 1 when one fails).

Pure: returns the line to print, or None when the gate passes (check_fail_under raises, for the
terminal to show, before a run sends anything).
"""
from __future__ import annotations

from toolproof.errors import ToolProofError
from toolproof.plurals import counted
from toolproof.grading.verdicts import ERROR, CaseEntry


def check_fail_under(fail_under: float | None) -> None:
    """--fail-under must be a score a card can have, 0 to 100: with nan no score was ever below it
    (every run passed the gate), with inf or 1e308 every run failed it."""
    if fail_under is not None and not 0 <= fail_under <= 100:
        raise ToolProofError(f"--fail-under must be a score between 0 and 100, got {fail_under:g}")


def score_gate(card: dict, fail_under: float | None) -> str | None:
    """--fail-under: fails when the score is below the threshold, missing, or when any case or
    repeat ended in ERROR (a failed request proves nothing about the model either way)."""
    if fail_under is None:
        return None
    errors = sum(CaseEntry.of(c).tries.count(ERROR) for c in card["cases"])
    if errors:
        return (f"{counted(errors, 'conversation')} ended in ERROR (the request failed after its retries); "
                f"--fail-under {fail_under} needs every case graded: re-run, or check the endpoint")
    if card["score"] is None:       # the card's own reason (scoring/withhold.py): below half of the plan, …
        return f"no score ({card.get('no_score_reason') or 'n/a'}): --fail-under {fail_under} needs a score"
    if card["score"] < fail_under:
        return f"score {card['score']} is below --fail-under {fail_under}"
    return None
