"""What a model said in one turn, in a provider-neutral shape.

Providers' response bodies (OpenAI, Anthropic) are parsed into these by the functions in
`toolproof.providers.dispatch`; the grader only ever sees these. A malformed tool call is data
(`Call.parse_error`), never an exception.

Pure: no I/O.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from toolproof.errors import kind_of
from toolproof.limits import ReadError, check_value, read_json


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
    blocked: str = ""               # a finish reason not known as a normal stop, with no content
    # why the reply is no finished answer yet (a Responses status `queued`, an Anthropic
    # `pause_turn`, a Gemini candidate with no finish reason): never graded as the model's answer
    unfinished: str = ""
    calls_not_read: int = 0         # calls past MAX_CALLS: counted, never parsed or graded
    text_not_read: int = 0          # characters of the text past MAX_TEXT: counted, never graded


# A reply's calls read (and kept by a run: providers/trimming.py); a 5 MB body can hold ~50,000.
# Twice the longest sequence a case may expect (64, the suite schema's maxItems): a reply with
# more calls than that fails on extra calls whatever they are, so no verdict depends on a call
# past this bound; and a run's file stays under 1 MB per case for a 50,000-call reply (with 256,
# the bundled suite's three-variant case wrote 1.24 MB: every turn and echo holds the kept calls).
MAX_CALLS = 128
# Characters of a reply's text read (and kept by a run: providers/trimming.py). At the default
# 1,024 output tokens a reply holds about 4,000; a final answer the rules must read past 20,000
# characters is no answer, and every copy of it (the results file, the turn-2 echo) stays small.
MAX_TEXT = 20_000


def bounded_calls(raw: list, read) -> tuple[tuple, int]:
    """(the first MAX_CALLS items of `raw` read by `read`, how many more were left unread).
    Every wire reader passes its call items through here, so no reply costs more than
    MAX_CALLS calls' worth of parsing, checking and grading."""
    return tuple(read(item) for item in raw[:MAX_CALLS]), max(0, len(raw) - MAX_CALLS)


def bounded_text(text: str) -> tuple[str, int]:
    """(the first MAX_TEXT characters of a reply's text, how many more were left unread). Every
    wire reader passes its joined text through here, so the answer rules read the same text
    from a body as from the trimmed body a run keeps of it."""
    return text[:MAX_TEXT], max(0, len(text) - MAX_TEXT)


def arguments_from_json(raw: Any) -> tuple[dict | None, str, str | None]:
    """Read OpenAI-style string arguments: (arguments, raw text, parse error or None).

    Read by the one total reader (toolproof.limits): too deep, a huge integer, NaN or
    Infinity is a parse error carrying the limit's reason, never an exception."""
    if isinstance(raw, dict):            # some compatible servers send an object already
        return arguments_from_object(raw)
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return {}, "" if raw is None else str(raw), None
    if not isinstance(raw, str):
        return None, _shown(raw), f"arguments are {kind_of(raw)}, not a JSON string"
    raw = str(raw)
    try:
        parsed = read_json(raw, what="arguments")
    except ReadError as exc:
        if exc.decode_error is not None:
            error = exc.decode_error
            return None, raw, f"arguments are not valid JSON ({error.msg} at char {error.pos})"
        return None, raw, exc.reason
    if not isinstance(parsed, dict):
        return None, raw, f"arguments are JSON but not an object ({kind_of(parsed)})"
    return parsed, raw, None


def arguments_from_object(value: Any) -> tuple[dict | None, str, str | None]:
    """Arguments that arrived as an already-parsed object (Anthropic `input`, some compatible
    servers): walked by the same limits; (arguments, raw text for display, error or None)."""
    try:
        plain = check_value(value, what="arguments")
    except ReadError as exc:
        return None, _shown(value), exc.reason
    text = json.dumps(plain, ensure_ascii=False)
    if not isinstance(plain, dict):
        return None, text, f"tool_use input is {kind_of(plain)}, not an object"
    return plain, text, None


def _shown(value: Any) -> str:
    """Something to display for a value that failed the limits (never raises, stays short)."""
    try:
        return json.dumps(check_value(value), ensure_ascii=False)
    except ReadError:
        return f"({kind_of(value)} beyond the reading limits)"


def readable_body(body: Any) -> tuple[dict, str | None]:
    """A response body as plain JSON within the limits, or the reason it is not a readable
    object. Bodies read from the wire or a file passed the limits already; this also holds for
    a body handed in by other code (a test, the page)."""
    if not isinstance(body, dict):
        return {}, "response body is not a JSON object"
    try:
        return check_value(body, what="response body"), None
    except ReadError as exc:
        return {}, exc.reason


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


def usage_split(usage: Any, **parts: str) -> dict:
    """The input-token parts a provider reports beside its main count ({"cache_read": n, ...}),
    each under our name, ignoring junk and zeros."""
    if not isinstance(usage, dict):
        return {}
    out = {}
    for mine, theirs in parts.items():
        value = usage.get(theirs)
        if isinstance(value, int) and not isinstance(value, bool) and value > 0:
            out[mine] = value
    return out
