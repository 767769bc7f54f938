"""What a model said in one turn, in a provider-neutral shape.

Providers' response bodies (OpenAI, Anthropic) are parsed into these by the functions in
`toolproof.providers`; the grader only ever sees these. A malformed tool call is data
(`Call.parse_error`), never an exception.

Pure: no I/O.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Call:
    name: str
    arguments: dict | None          # None when the arguments could not be read
    raw_arguments: str = ""         # exactly what the provider sent, for display
    parse_error: str | None = None
    id: str = ""

    def to_json(self) -> dict:
        out: dict[str, Any] = {"tool": self.name, "arguments": self.arguments}
        if self.parse_error is not None:
            out["raw_arguments"] = self.raw_arguments
            out["parse_error"] = self.parse_error
        return out


@dataclass(frozen=True, slots=True)
class Reply:
    calls: tuple = ()
    text: str = ""
    finish_reason: str = ""
    truncated: bool = False
    usage: dict = field(default_factory=dict)
    malformed: str | None = None    # why the body could not be read as a reply at all


def arguments_from_json(raw: Any) -> tuple[dict | None, str, str | None]:
    """Read OpenAI-style string arguments: (arguments, raw text, parse error or None)."""
    if isinstance(raw, dict):            # some compatible servers send an object already
        return raw, json.dumps(raw, ensure_ascii=False), None
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return {}, "" if raw is None else raw, None
    if not isinstance(raw, str):
        return None, repr(raw), f"arguments are {kind_of(raw)}, not a JSON string"
    try:
        parsed = json.loads(raw)
    except ValueError as exc:
        return None, raw, f"arguments are not valid JSON ({exc.msg} at char {exc.pos})"
    if not isinstance(parsed, dict):
        return None, raw, f"arguments are JSON but not an object ({kind_of(parsed)})"
    return parsed, raw, None


def kind_of(value: Any) -> str:
    """A JSON value's kind for messages: 'an array', 'a string', 'null', ..."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    return {str: "a string", list: "an array", dict: "an object"}.get(type(value), f"a {type(value).__name__}")


def usage_tokens(usage: Any, input_key: str, output_key: str) -> dict:
    """{"input": n, "output": m} from a provider's usage object, ignoring junk."""
    if not isinstance(usage, dict):
        return {}
    out = {}
    for mine, theirs in (("input", input_key), ("output", output_key)):
        value = usage.get(theirs)
        if isinstance(value, int) and not isinstance(value, bool):
            out[mine] = value
    return out
