"""From graded cases to a scorecard: weighted score, rates, statistics, cost, diagnosis, run
comparison and sweep scores. Pure; it never reads files or the clock.
"""
from __future__ import annotations

from .scorecard import DEFAULT_WEIGHTS, scorecard

__all__ = ['DEFAULT_WEIGHTS', 'scorecard']
