"""Anthropic Messages tool definitions: `[{name, description, input_schema}]` (or a request body
with `tools`). Server tools (`web_search_...`, `bash_...`) have no schema and are refused.

Pure: no I/O.
"""
from __future__ import annotations

from typing import Any

from ._record import each_tool, need_dict, record, tool_list


def tools_from_anthropic(doc: Any, *, keep_unread: bool = False) -> list[dict]:
    items, parts = tool_list(doc)
    return each_tool(items, parts, lambda item, here: record(
        need_dict(item, here, "an Anthropic tool"), here, schema_key="input_schema"), keep_unread=keep_unread)
