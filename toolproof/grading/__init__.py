"""Grading one case: transcripts in, a verdict (PASS / PARTIAL / FAIL / ERROR) with its reasons out.
Pure; it knows the suite and the providers' replies, never the scorecard above it.
"""
from __future__ import annotations

from .grade import grade_case, grade_run
from .transcripts import parse_transcripts

__all__ = ['grade_case', 'grade_run', 'parse_transcripts']
