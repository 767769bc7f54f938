"""Numbers as every report writes them: a rate as a percent, a score to two places, an interval
in whole points.

The floor of reports/: it imports nothing of ours, so the scorecard, its robustness section and
the page's views can all share one way of writing a number without importing each other.
Pure: returns strings.
"""
from __future__ import annotations


def percent(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.1f}%"


def score_text(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2f}"


def interval_span(bounds: dict, scale: float = 1, unit: str = "") -> str:
    """'52–73': bounds in whole points. The score's interval is about 20 points wide, so a tenth
    would claim a precision the cases do not support."""
    return f"{scale * bounds['low']:.0f}{unit}–{scale * bounds['high']:.0f}{unit}"
