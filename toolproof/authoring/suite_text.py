"""What the case editor and the draft suite both read: JSON text typed, pasted or loaded, through
the one total reader, and a list of raw cases as the suite file (version 1, or 2 when a case uses a
v2 rule). Its own module so that case_form and draft_suite both import it and neither imports the
other back (draft_suite -> case_form -> suite_text, one way).

Pure: no I/O, no DOM. Must not check a case: parse_suite does (case_form.check_case).
"""
from __future__ import annotations

from typing import Any

from toolproof import limits
from toolproof.errors import ToolProofError

V2_CALL_KEYS = ("optional", "absent", "exact", "loose")
MAX_OFFERED = 128                 # OpenAI refuses a request offering more tools than this
SUITE_DESCRIPTION = "Written in the ToolProof page (Your tools and cases)."


def read_text(text: str, source: str | None) -> Any:
    """Text from a file, a paste or a text box as JSON, through the one total reader (size, depth
    without recursion, NaN refused): Pyodide's stack is smaller than CPython's, so deep nesting
    must never reach a recursive parser."""
    try:
        return limits.read_json(text, what="text", max_bytes=limits.MAX_FILE_BYTES)
    except limits.ReadError as exc:
        raise ToolProofError(exc.reason, source=source) from None


def suite_document(cases: list[dict]) -> dict:
    """The suite file of the draft's cases: version 2 when a case uses a v2 rule, else 1."""
    version = 2 if any(uses_v2(case) for case in cases) else 1
    return {"format": "toolproof.suite", "version": version, "description": SUITE_DESCRIPTION, "cases": list(cases)}


def uses_v2(case: Any) -> bool:
    """Does a raw case use a suite v2 rule (optional, absent, exact, loose, a dotted accept key,
    order)? Only marks the file's version: a reader of either version accepts both."""
    if not isinstance(case, dict) or not isinstance(case.get("expect"), dict):
        return False
    expect = case["expect"]
    sequences = [expect.get("calls")] + (expect["alternatives"] if isinstance(expect.get("alternatives"), list) else [])
    calls = [c for seq in sequences if isinstance(seq, list) for c in seq if isinstance(c, dict)]
    return "order" in expect or any(_call_uses_v2(call) for call in calls)


def _call_uses_v2(call: dict) -> bool:
    accept = call.get("accept")
    return any(key in call for key in V2_CALL_KEYS) or \
        isinstance(accept, dict) and any("." in key for key in accept)
