"""Grade a set of transcripts and build the scorecard: the one path the CLI and the page share.

Pure: no I/O.
"""
from __future__ import annotations

from .diagnose import diagnosis
from .grade import grade_run
from .score import scorecard
from .suite import Case, Tool
from .transcripts import TranscriptSet


def source_of(transcripts: TranscriptSet) -> dict:
    """What the scorecard says about where its transcripts came from."""
    return {"kind": transcripts.kind, "label": transcripts.label,
            "provider": transcripts.provider, "model": transcripts.model,
            "created": transcripts.raw.get("created", ""),
            "scope": transcripts.raw.get("scope", "all")}


def evaluate(cases: list[Case], tools: dict[str, Tool], transcripts: TranscriptSet,
             weights: dict | None = None) -> dict:
    """Transcripts -> graded cases -> scorecard object."""
    results = grade_run(cases, tools, transcripts.transcripts)
    found = diagnosis(results, cases, tools, transcripts.transcripts)
    return scorecard(results, weights, source=source_of(transcripts), diagnosis=found)
