"""OpenAI tool definitions: Chat Completions (`{type: "function", function: {...}}`) and the
Responses API (flat `{type: "function", name, description, parameters}`).

Both accept a bare array or a request body with `tools`. `parameters` may be omitted (a
function with no arguments): the record then gets the empty object schema. Pure: no I/O.
"""
from __future__ import annotations

from typing import Any

from toolproof.errors import ToolProofError
from ._record import each_tool, need_dict, record, tool_list, where


def tools_from_openai_chat(doc: Any, *, keep_unread: bool = False) -> list[dict]:
    items, parts = tool_list(doc)
    return each_tool(items, parts, _chat_tool, keep_unread=keep_unread)


def _function_item(item: Any, here: list, what: str) -> dict:
    """An OpenAI tool entry of type "function" (both APIs mark it so), or why not."""
    item = need_dict(item, here, what)
    if item.get("type") != "function":
        raise ToolProofError(f"only function tools can be imported, not type {item.get('type')!r}",
                             path=where(here, "type"))
    return item


def _chat_tool(item: Any, here: list) -> dict:
    item = _function_item(item, here, "a Chat Completions tool")
    function = need_dict(item.get("function"), here + ["function"], "'function'")
    return record(function, here + ["function"], schema_key="parameters", schema_optional=True)


def tools_from_openai_responses(doc: Any, *, keep_unread: bool = False) -> list[dict]:
    items, parts = tool_list(doc)
    return each_tool(items, parts, _responses_tool, keep_unread=keep_unread)


def _responses_tool(item: Any, here: list) -> dict:
    item = _function_item(item, here, "a Responses tool")
    return record(item, here, schema_key="parameters", schema_optional=True)
