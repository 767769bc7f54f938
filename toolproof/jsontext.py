"""JSON text from a user's file, parsed only when it is safe to: Pyodide's C stack overflows on
deeply nested JSON long before Python's recursion limit (a RangeError that kills the handler, not
a RecursionError), so the page measures the nesting first and refuses what is too deep.

Pure: text in, data or a ToolProofError out.
"""
from __future__ import annotations

import json
import re

from .errors import ToolProofError

MAX_DEPTH = 200                 # results files nest about 15 deep
_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_NOT_BRACKETS = re.compile(r"[^\[\]{}]+")


def nesting_depth(text: str) -> int:
    """The deepest nesting of arrays and objects in JSON text (brackets inside strings ignored)."""
    depth = deepest = 0
    for ch in _NOT_BRACKETS.sub("", _STRINGS.sub("", text)):
        depth = depth + 1 if ch in "[{" else max(0, depth - 1)
        deepest = max(deepest, depth)
    return deepest


def parse_json_text(text: str, source: str) -> object:
    """json.loads, refusing invalid or too deeply nested text with one line naming `source`."""
    if nesting_depth(text) > MAX_DEPTH:
        raise ToolProofError("JSON nested too deeply to read", source=source)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ToolProofError(f"not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})",
                             source=source) from None
    except RecursionError:
        raise ToolProofError("JSON nested too deeply to read", source=source) from None
