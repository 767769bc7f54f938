"""ToolProof: grade an LLM's tool calls against a hand-written suite, in code.

This module only re-exports the public names; each idea lives in its own module.
"""
from __future__ import annotations

from ._version import __version__
from .errors import ToolProofError
from toolproof.grading.grade import grade_case, grade_run
from toolproof.scoring.scorecard import DEFAULT_WEIGHTS, scorecard
from toolproof.suite.model import CATEGORIES
from toolproof.suite.load import parse_suite, parse_tools
from toolproof.grading.transcripts import parse_transcripts


__all__ = [
    "CATEGORIES",
    "DEFAULT_WEIGHTS",
    "ToolProofError",
    "__version__",
    "grade_case",
    "grade_run",
    "parse_suite",
    "parse_tools",
    "parse_transcripts",
    "scorecard",
]
