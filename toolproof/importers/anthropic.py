"""Anthropic Messages tool definitions: `[{name, description, input_schema}]` (or a request body
with `tools`). Server tools (`web_search_...`, `bash_...`) have no schema and are refused.

Pure: no I/O.
"""
from __future__ import annotations

from typing import Any

from ._record import need_dict, record, tool_list


def tools_from_anthropic(doc: Any) -> list[dict]:
    items, parts = tool_list(doc)
    return [record(need_dict(item, parts + [i], "an Anthropic tool"), parts + [i], schema_key="input_schema")
            for i, item in enumerate(items)]
