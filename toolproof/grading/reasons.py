"""How a grading reason shows values: JSON cut to a readable length, two values cut around their
first difference (each cut saying how much it left out: "… (N more)"), and one argument field's
verdict as a sentence.

Pure: no I/O.
"""
from __future__ import annotations

import json
from typing import Any

from toolproof.errors import clip, clip_window
from toolproof.safe_text import looks_same
from .values import EXTRA, MISSING, TEXT_RULES, FieldResult

MAX_SHOWN = 120     # characters of a value shown in a reason


def show(value: Any) -> str:
    """A value as a reason shows it: JSON, cut to a readable length."""
    return clip(json.dumps(value, ensure_ascii=False, sort_keys=True), MAX_SHOWN)


def show_pair(expected: Any, actual: Any) -> tuple[str, str]:
    """Both values shown; long texts are cut around their first difference so it stays visible.
    Two different values that would print the same (composed and decomposed accents, a
    zero-width space) are shown escaped, so the difference can be seen."""
    a = json.dumps(expected, ensure_ascii=False, sort_keys=True)
    b = json.dumps(actual, ensure_ascii=False, sort_keys=True)
    # ASCII JSON shows every difference already (controls are escaped), except DEL
    if not (a.isascii() and b.isascii() and "\x7f" not in a + b) and looks_same(a, b):
        a = json.dumps(expected, ensure_ascii=True, sort_keys=True)
        b = json.dumps(actual, ensure_ascii=True, sort_keys=True)
    if max(len(a), len(b)) <= MAX_SHOWN:
        return a, b
    at = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    start = max(0, at - 30)
    return clip_window(a, start, start + MAX_SHOWN), clip_window(b, start, start + MAX_SHOWN)


def field_reason(tool: str, r: FieldResult, schema: Any) -> str:
    label = f"{tool}.{r.field}" + ("" if r.critical else " (not critical)")
    if r.status == EXTRA:
        return f"{label}: {r.note}, got {show(r.actual)}"
    if r.status == MISSING:
        if r.expected is TEXT_RULES:
            return f"{label}: missing (its text rules judge it)"
        if isinstance(schema, dict) and "default" in schema:
            return f"{label}: omitted: default {show(schema['default'])} assumed; expected {show(r.expected)}"
        return f"{label}: missing, expected {show(r.expected)}"
    if r.expected is TEXT_RULES:
        return f"{label}: {r.note}; got {show(r.actual)}"
    expected, actual = show_pair(r.expected, r.actual)
    return f"{label}: expected {expected}, got {actual}" + (f" ({r.note})" if r.note else "")
