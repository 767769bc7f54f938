"""What a case's conversation holds at each turn, before it is dressed in a provider's shape.

Turn 1 is the system prompt and the user's message. For cases with mock results, every call the
model made in turn 1 gets a tool result: the mock for that tool, or a fixed error for a tool the
case has no mock for, or for arguments that could not be read. The provider modules turn this
into request bodies; the grader reads the same mocks, so what the model was shown and what it is
graded against cannot drift apart.

Pure: no I/O.
"""
from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from .reply import Call
from toolproof.suite.model import NOT_OFFERED, Case
from toolproof.suite.toolnames import name_from_wire

UNREADABLE = {"error": "the tool call's arguments were not valid JSON; nothing was done"}


def read_arguments(call: Call) -> Call:
    """The call as graded and answered: arguments that were not sent at all read as {} for every
    provider (then the schema judges them); anything else unreadable stays unreadable."""
    if call.arguments is None and not call.raw_arguments and call.parse_error is None:
        return replace(call, arguments={}, parse_error=None)
    if call.arguments is not None and not isinstance(call.arguments, dict):
        return replace(call, arguments=None, parse_error=call.parse_error or "arguments are not an object")
    return call


def mocks_by_name(mocks: dict | None, offered: list) -> dict:
    """A case's mock results (keyed by catalogue id) keyed by what the model was shown: each
    offered entry's name. Entries whose id is their name, and mocks for entries not in `offered`,
    keep their key. Names never repeat within one offer (suite.load), so none is lost."""
    renamed = {t.id: t.name for t in offered if getattr(t, "id", "") and t.id != t.name and t.id in (mocks or {})}
    if not renamed:
        return mocks or {}
    out = {key: value for key, value in mocks.items() if key not in renamed}
    out.update({name: mocks[tool_id] for tool_id, name in renamed.items()})
    return out


def tool_result_for(call: Call, mocks: dict) -> Any:
    """The result the model receives for one of its calls (`mocks` keyed by the names the model
    was shown: mocks_by_name)."""
    call = read_arguments(call)
    if call.arguments is None:
        return UNREADABLE
    return mocks.get(name_from_wire(call.name, mocks), NOT_OFFERED)


def result_text(result: Any) -> str:
    """Tool results travel as JSON text (what both providers expect as content)."""
    return json.dumps(result, ensure_ascii=False)


def call_ids(calls: tuple) -> list[str]:
    """Each call's id, made up when a server sent none (some OpenAI-compatible ones don't)."""
    return [c.id or f"call_{i + 1}" for i, c in enumerate(calls)]


def case_mocks(case: Case, variant: str | None = None) -> dict:
    """The mock results for the case itself or for one of its counterfactual variants."""
    if variant is None:
        return case.mock_results or {}
    for v in case.variants:
        if v.id == variant:
            return v.mock_results
    raise KeyError(f"case {case.id!r} has no variant {variant!r}")
