"""Tool definition text (a file's content or a paste) to JSON, through the one total reader
(toolproof.limits) with a file's size bound: depth, integer digits, no NaN/Infinity and no number
out of range (1e999), so what an importer sees is what `grade` and `run` would read back. Pure:
takes text, returns data or raises ToolProofError.
"""
from __future__ import annotations

from typing import Any

from toolproof import limits
from toolproof.errors import ToolProofError

MAX_CHARS = limits.MAX_FILE_BYTES
MAX_DEPTH = limits.MAX_DEPTH


def parse_tool_text(text: str, source: str | None = None) -> Any:
    try:
        return limits.read_json(text, what="file", max_bytes=limits.MAX_FILE_BYTES)
    except limits.ReadError as exc:
        error = exc.decode_error
        reason = exc.reason if error is None else \
            f"not valid JSON: {error.msg} (line {error.lineno}, column {error.colno})"
        raise ToolProofError(reason, source=source) from None
