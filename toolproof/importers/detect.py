"""Which of the six tool-definition shapes a document is, decided from its structure alone.

The shapes: MCP `tools/list`, OpenAI Chat Completions, OpenAI Responses, Anthropic, Gemini and
our tools.json. Every item of a tool array that fits a shape must fit the same one; an item that fits
several is refused with its JSON path and what was seen, never guessed; an item that fits none is
left to the shape's importer (refused alone, with its reason), unless no item fits any. Pure: no I/O.
"""
from __future__ import annotations

from typing import Any

from toolproof.errors import ToolProofError, json_path

SHAPES = ("mcp", "openai-chat", "openai-responses", "anthropic", "gemini", "toolproof")
LABELS = {"mcp": "MCP tools/list", "openai-chat": "OpenAI Chat Completions tools",
          "openai-responses": "OpenAI Responses tools", "anthropic": "Anthropic tools",
          "gemini": "Gemini function declarations", "toolproof": "ToolProof tools.json"}
_GEMINI_KEYS = ("functionDeclarations", "function_declarations")


def detect_shape(doc: Any) -> str:
    """One of SHAPES, or a ToolProofError naming the place and why."""
    if isinstance(doc, dict):
        if "format" in doc:
            if doc["format"] == "toolproof.tools":
                return "toolproof"
            raise ToolProofError(f"format {doc['format']!r} is not a tools file (expected 'toolproof.tools')",
                                 path="$.format")
        if "jsonrpc" in doc:
            return "mcp"
        if any(k in doc for k in _GEMINI_KEYS):
            return "gemini"
        if not isinstance(doc.get("tools"), list):
            keys = ", ".join(repr(k) for k in list(doc)[:6]) or "none"
            raise ToolProofError(f"not a tool definition document: an object needs 'tools', "
                                 f"'functionDeclarations' or 'format' (keys seen: {keys})", path="$")
        items, parts = doc["tools"], ["tools"]
    elif isinstance(doc, list):
        items, parts = doc, []
    else:
        raise ToolProofError(f"not a tool definition document: expected an object or an array, "
                             f"not {type(doc).__name__}", path="$")
    return _shape_of_items(items, parts)


def _shape_of_items(items: list, parts: list) -> str:
    """The one shape of the items that fit one. An item that fits none is left to that shape's
    importer (which refuses it alone, with its reason, and keeps the others when an import asks
    for that); an item fitting several, or another shape than the rest, refuses the file."""
    if not items:
        raise ToolProofError("no tools: the list is empty", path=json_path(parts))
    first = unknown = None
    for i, item in enumerate(items):
        place = json_path(parts + [i])
        kinds = item_shapes(item)
        if not kinds:
            unknown = unknown or (item, place)
            continue
        if len(kinds) > 1:
            raise ToolProofError("ambiguous: this item fits " + " and ".join(LABELS[k] for k in sorted(kinds)),
                                 path=place)
        kind = kinds.pop()
        if first is None:
            first = (kind, i)
        elif kind != first[0]:
            raise ToolProofError(f"ambiguous: this item is one of the {LABELS[kind]} but item "
                                 f"{first[1]} is one of the {LABELS[first[0]]}; use one shape per file",
                                 path=place)
    if first is None:
        raise ToolProofError(_unknown(unknown[0]), path=unknown[1])
    return first[0]


def item_shapes(item: Any) -> set[str]:
    """The shapes one array item fits (an empty set: none; two or more: ambiguous)."""
    if not isinstance(item, dict):
        return set()
    kinds = set()
    if item.get("type") == "function" and isinstance(item.get("function"), dict):
        kinds.add("openai-chat")
    if item.get("type") == "function" and "name" in item and "function" not in item:
        kinds.add("openai-responses")
    if "input_schema" in item:
        kinds.add("anthropic")
    if "inputSchema" in item:
        kinds.add("mcp")
    if any(k in item for k in _GEMINI_KEYS):
        kinds.add("gemini")
    return kinds


def _unknown(item: Any) -> str:
    if not isinstance(item, dict):
        return f"not a tool definition: expected an object, not {type(item).__name__}"
    keys = ", ".join(repr(k) for k in list(item)[:6]) or "none"
    if "name" in item and "parameters" in item:
        # {name, description, parameters} with nothing else is both OpenAI's legacy `functions`
        # entry and a Gemini declaration: say how to make it one of them rather than guess.
        return ("ambiguous: {name, description, parameters} alone could be OpenAI functions or "
                "Gemini declarations; add \"type\": \"function\" to each (OpenAI Responses) or wrap "
                "the array as {\"functionDeclarations\": [...]} (Gemini)")
    if "type" in item and item.get("type") != "function":
        return f"not importable: a built-in tool of type {item['type']!r} has no schema of its own"
    return (f"not a tool definition of a known shape (keys seen: {keys}); expected inputSchema (MCP), "
            f"type+function (OpenAI Chat), type+name (OpenAI Responses), input_schema (Anthropic) "
            f"or functionDeclarations (Gemini)")
