"""Gemini function declarations: `{"functionDeclarations": [...]}`, the `tools` array of such
objects, or a request body with `tools` (snake_case `function_declarations` too).

Each declaration's schema is `parametersJsonSchema` (full JSON Schema, kept verbatim) or
`parameters` (Gemini's OpenAPI-style Schema). The one conversion: in `parameters`, Gemini's
upper-case type names ("STRING", "OBJECT") become the JSON Schema names ("string", "object"),
which is what they mean; everything else is kept as given. Pure: no I/O.
"""
from __future__ import annotations

from typing import Any

from toolproof.errors import ToolProofError
from ._record import each_tool, need_dict, need_list, record, where

_KEYS = ("functionDeclarations", "function_declarations")
_JSON_SCHEMA_KEYS = ("parametersJsonSchema", "parameters_json_schema")
_TYPES = {"STRING": "string", "NUMBER": "number", "INTEGER": "integer", "BOOLEAN": "boolean",
          "ARRAY": "array", "OBJECT": "object", "NULL": "null"}


def tools_from_gemini(doc: Any, *, keep_unread: bool = False) -> list[dict]:
    out: list[dict] = []
    for declarations, parts in _declaration_lists(doc):
        out += each_tool(declarations, parts, lambda item, here: _declaration(
            need_dict(item, here, "a function declaration"), here), keep_unread=keep_unread)
    if not out:
        raise ToolProofError("no function declarations", path="$")
    return out


def _declaration_lists(doc: Any) -> list[tuple[list, list]]:
    """Every functionDeclarations array in the document, with its path."""
    if isinstance(doc, dict) and any(k in doc for k in _KEYS):
        holders, base = [(doc, [])], None
    else:
        if isinstance(doc, dict) and "tools" in doc:
            tools, base = need_list(doc["tools"], ["tools"], "'tools'"), ["tools"]
        else:
            tools, base = need_list(doc, [], "a Gemini tools document"), []
        holders = [(need_dict(t, base + [j], "a Gemini tool"), base + [j]) for j, t in enumerate(tools)]
    found = []
    for holder, parts in holders:
        key = next((k for k in _KEYS if k in holder), None)
        if key is None:
            raise ToolProofError("only functionDeclarations can be imported (not built-in tools "
                                 f"such as {', '.join(repr(k) for k in list(holder)[:3])})", path=where(parts))
        found.append((need_list(holder[key], parts + [key], repr(key)), parts + [key]))
    return found


def _declaration(item: dict, parts: list) -> dict:
    json_key = next((k for k in _JSON_SCHEMA_KEYS if k in item), None)
    if json_key is not None and "parameters" in item:
        raise ToolProofError("both 'parameters' and a JSON Schema: Gemini takes only one",
                             path=where(parts))
    if json_key is not None:
        return record(item, parts, schema_key=json_key)
    tool = record(item, parts, schema_key="parameters", schema_optional=True)
    tool["parameters"] = _json_schema_types(tool["parameters"])
    return tool


def _json_schema_types(schema: Any) -> Any:
    """Gemini's OpenAPI Schema with its enum type names as JSON Schema type names (iterative:
    a hostile, deep schema cannot exhaust the stack)."""
    root = {"v": schema}
    stack = [(root, "v")]
    while stack:
        holder, key = stack.pop()
        value = holder[key]
        if isinstance(value, dict):
            value = holder[key] = dict(value)
            for k in value:
                if k == "type" and isinstance(value[k], str) and value[k] in _TYPES:
                    value[k] = _TYPES[value[k]]
                else:
                    stack.append((value, k))
        elif isinstance(value, list):
            value = holder[key] = list(value)
            stack.extend((value, i) for i in range(len(value)))
    return root["v"]
