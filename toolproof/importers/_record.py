"""The record every importer returns, and the type checks they share.

A record keeps a tool's name, description and parameters (JSON Schema) exactly as the source
gave them, plus MCP annotations when present, and `at`: the JSON path in the source document of
each of those parts, so lint findings and refusals point into the file the user wrote.
`description` is None when the source has none (lint reports it; the tools format refuses it).

An item that cannot be read as a tool (a schema that is not an object, a name that is not a
string) is, with `keep_unread`, an entry `{"unread": the error, "name": ...}` in its place, so one
bad tool does not hide the others (importers.readable_tools sets them apart; without it the first
such error is raised, as before).

Pure: no I/O. Raises ToolProofError for a document we cannot read as tools at all.
"""
from __future__ import annotations

from typing import Any, Callable

from toolproof.errors import ToolProofError, json_path

# What a tool with no parameters gets: the empty object schema providers themselves assume.
NO_PARAMETERS = {"type": "object", "properties": {}}


def where(parts: list, *more) -> str:
    return json_path(list(parts) + list(more))


def need_dict(value: Any, parts: list, what: str) -> dict:
    if not isinstance(value, dict):
        raise ToolProofError(f"{what} must be a JSON object, not {_kind(value)}", path=json_path(parts))
    return value


def need_list(value: Any, parts: list, what: str) -> list:
    if not isinstance(value, list):
        raise ToolProofError(f"{what} must be a JSON array, not {_kind(value)}", path=json_path(parts))
    return value


def record(item: dict, parts: list, *, name_key: str = "name", description_key: str = "description",
           schema_key: str, schema_optional: bool = False, annotations: bool = False) -> dict:
    """One tool from `item` (found at `parts`), its fields read under the given keys."""
    name = item.get(name_key)
    if not isinstance(name, str):
        raise ToolProofError(f"a tool's {name_key!r} must be a string, not {_kind(name)}",
                             path=where(parts, name_key))
    description = item.get(description_key)
    if description is not None and not isinstance(description, str):
        raise ToolProofError(f"tool {name!r}: {description_key!r} must be a string, not {_kind(description)}",
                             path=where(parts, description_key))
    if schema_key in item:
        parameters = need_dict(item[schema_key], parts + [schema_key], f"tool {name!r}: {schema_key!r}")
    elif schema_optional:
        parameters = dict(NO_PARAMETERS)
    else:
        raise ToolProofError(f"tool {name!r} has no {schema_key!r}", path=where(parts))
    out = {"name": name, "description": description, "parameters": parameters}
    if annotations and "annotations" in item:
        out["annotations"] = need_dict(item["annotations"], parts + ["annotations"],
                                       f"tool {name!r}: 'annotations'")
    out["at"] = {"tool": where(parts), "name": where(parts, name_key),
                 "description": where(parts, description_key), "parameters": where(parts, schema_key)}
    return out


def tool_list(doc: Any, *, wrapper: str = "tools") -> tuple[list, list]:
    """A bare array of tools, or an object holding one under `wrapper`: (items, path parts)."""
    if isinstance(doc, list):
        items, parts = doc, []
    elif isinstance(doc, dict) and wrapper in doc:
        items, parts = need_list(doc[wrapper], [wrapper], f"{wrapper!r}"), [wrapper]
    else:
        raise ToolProofError(f"expected an array of tools or an object with {wrapper!r}, "
                             f"not {_kind(doc)}", path="$")
    if not items:
        raise ToolProofError("no tools: the list is empty", path=json_path(parts))
    return items, parts


def _kind(value: Any) -> str:
    if isinstance(value, dict):
        keys = ", ".join(repr(k) for k in list(value)[:6])
        return f"an object with keys {keys}" if value else "an empty object"
    return {list: "an array", str: "a string", bool: "a boolean", int: "a number", float: "a number",
            type(None): "null"}.get(type(value), type(value).__name__)


def each_tool(items: list, parts: list, read: Callable[[Any, list], dict], *, keep_unread: bool) -> list[dict]:
    """read(item, its path parts) for every item, in order. With `keep_unread`, an item whose read
    raises becomes {"unread": the error, "name": its name, else "item N"}; without, it raises."""
    out = []
    for i, item in enumerate(items):
        try:
            out.append(read(item, parts + [i]))
        except ToolProofError as exc:
            if not keep_unread:
                raise
            inner = item.get("function") if isinstance(item, dict) and isinstance(item.get("function"), dict) else item
            name = inner.get("name") if isinstance(inner, dict) else None
            out.append({"unread": exc, "name": name if isinstance(name, str) else f"item {i}"})
    return out
