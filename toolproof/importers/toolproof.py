"""Our own tools.json (`{"format": "toolproof.tools", "version": 1, "tools": [...]}`) as records,
so lint reads every shape the same way. The file's format is checked by suite.parse_tools when it
is loaded for a run; here only what a record needs is read. Pure: no I/O.
"""
from __future__ import annotations

import re
from typing import Any

from toolproof.errors import ToolProofError, json_path
from ._record import each_tool, need_dict, record, tool_list


def tools_from_toolproof(doc: Any, *, keep_unread: bool = False) -> list[dict]:
    items, parts = tool_list(doc)
    return each_tool(items, parts, _tool, keep_unread=keep_unread)


def _tool(item: Any, here: list) -> dict:
    tool = record(need_dict(item, here, "a tool"), here, schema_key="parameters", annotations=True)
    if isinstance(item.get("domain"), str):
        tool["domain"] = item["domain"]
    if "id" in item:        # kept as given: the tools format checks it when the file loads
        tool["id"] = item["id"]
        tool["at"]["id"] = json_path(here + ["id"])
    return tool


def described(text) -> bool:
    """Does a description say anything? One rule for import (which refuses a tool without one) and
    `tools lint` (which calls it an error): blank or spaces only is none."""
    return isinstance(text, str) and bool(text.strip())


def tools_document(records: list[dict], shape_label: str) -> dict:
    """Records as our tools.json: name, description and parameters verbatim; domain and MCP
    annotations when the source had them. A description is required by the format: a tool
    without one is refused with its place (tools lint lists them all)."""
    tools = []
    for tool in records:
        if not described(tool.get("description")):
            raise ToolProofError(f"tool {tool['name']!r} has no description; the tools format needs "
                                 "one (add it; `tools lint` lists every such tool)",
                                 path=tool["at"]["description"])
        out = {"id": tool["id"]} if "id" in tool else {}
        out["name"] = tool["name"]
        if tool.get("domain"):
            out["domain"] = tool["domain"]
        out["description"] = tool["description"]
        out["parameters"] = tool["parameters"]
        if "annotations" in tool:
            out["annotations"] = tool["annotations"]
        bad = lone_surrogate(out)
        if bad is not None:
            raise ToolProofError("contains a lone surrogate escape, which is not Unicode text and "
                                 "cannot be sent to a provider", path=source_path(tool, bad))
        tools.append(out)
    return {"format": "toolproof.tools", "version": 1,
            "description": f"Imported from {shape_label} by `python -m toolproof tools import`.",
            "tools": tools}


def lone_surrogate(value: Any) -> str | None:
    """The JSON path (from `$`) of the first string or key holding a lone surrogate, or None."""
    stack = [(value, ())]
    while stack:
        item, parts = stack.pop()
        if isinstance(item, str):
            if any("\ud800" <= ch <= "\udfff" for ch in item):
                return json_path(list(parts))
        elif isinstance(item, dict):
            for key, child in item.items():
                stack.append((key, parts + (key,)))
                stack.append((child, parts + (key,)))
        elif isinstance(item, list):
            stack.extend((child, parts + (i,)) for i, child in enumerate(item))
    return None


def source_path(tool: dict, path: str) -> str:
    """A path inside one written tool (`$.parameters.properties.x`) as a path in the source file."""
    match = re.match(r"^\$\.(id|name|description|parameters|annotations|domain)(.*)$", path)
    if match is None:
        return tool["at"]["tool"] + path[1:]
    field, rest = match.groups()
    base = tool["at"].get(field, tool["at"]["tool"] + "." + field)
    return base + rest


def map_to_source(records: list[dict], path: str | None) -> str | None:
    """A path in the written tools document (`$.tools[3].parameters...`) as a path in the source."""
    match = re.match(r"^\$\.tools\[(\d+)\](.*)$", path or "")
    if match is None or int(match.group(1)) >= len(records):
        return path
    return source_path(records[int(match.group(1))], "$" + match.group(2))
