"""Tool definition text (a file's content or a paste) to JSON, with limits a hostile file cannot
get past: a size cap, a nesting cap, and no NaN/Infinity (not JSON; they would reach a schema as
floats no provider accepts). Pure: takes text, returns data or raises ToolProofError.
"""
from __future__ import annotations

import json
from typing import Any

from toolproof.errors import ToolProofError, json_path

MAX_CHARS = 32 * 1024 * 1024      # 10,000 real tools are about 5 MB
MAX_DEPTH = 64                    # real tool schemas nest a dozen levels; this leaves room


def parse_tool_text(text: str, source: str | None = None) -> Any:
    if len(text) > MAX_CHARS:
        raise ToolProofError(f"too large: {len(text):,} characters (the limit is {MAX_CHARS:,})", source=source)
    try:
        doc = json.loads(text, parse_constant=_refuse_constant)
    except _Constant as exc:
        raise ToolProofError(f"not valid JSON: {exc.args[0]} is not a JSON value", source=source) from None
    except json.JSONDecodeError as exc:
        raise ToolProofError(f"not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})",
                             source=source) from None
    except RecursionError:
        raise ToolProofError(f"nested too deeply (the limit is {MAX_DEPTH} levels)", source=source) from None
    deep = too_deep(doc, MAX_DEPTH)
    if deep is not None:
        raise ToolProofError(f"nested too deeply (the limit is {MAX_DEPTH} levels)", source=source, path=deep)
    return doc


def too_deep(doc: Any, limit: int) -> str | None:
    """The JSON path of the first value nested deeper than `limit`, or None (no recursion)."""
    stack = [(doc, 0, ())]
    while stack:
        value, depth, parts = stack.pop()
        if isinstance(value, (dict, list)):
            if depth >= limit:
                return json_path(list(parts))
            children = value.items() if isinstance(value, dict) else enumerate(value)
            stack.extend((child, depth + 1, parts + (key,)) for key, child in children)
    return None


class _Constant(ValueError):
    pass


def _refuse_constant(name: str):
    raise _Constant(name)
