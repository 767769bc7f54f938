"""Refuse, when a tools file loads, a tool schema that could reach outside itself or hang grading.

A tool's `parameters` is input like any other. Grading must never fetch a URL, read a local
file or run a regular expression that backtracks without bound, so before a schema is compiled:
- every `$ref` (and `$dynamicRef`, `$recursiveRef`) must be a same-document JSON pointer ("#"
  or "#/..."; e.g. "#/$defs/address") that resolves to a schema inside the same `parameters`
  object; anything else (a URL, a file, a relative path, an anchor such as "#name") is refused;
- `$id` may appear only at the top: below it, it would move the base that "#/..." resolves
  against;
- no `$ref` may lead back to the schema it sits in without going into a part of the value
  (`{"$ref": "#"}` at the top, two $defs pointing at each other): jsonschema would recurse until
  the interpreter gives up;
- every `pattern` and `patternProperties` key must pass `regex_safety.unsafe_reason`.
Subschemas are visited through the keywords jsonschema applies, and through every pointer a
`$ref` follows, so nothing jsonschema will evaluate escapes the check. The validator in `schema`
is also given a registry that cannot retrieve anything: this check is the one that explains.

Pure: no I/O. Raises ToolProofError naming the file, the JSON path and the $ref or pattern.
"""
from __future__ import annotations

import re
from typing import Any

from toolproof.errors import ToolProofError, json_path
from .regex_safety import unsafe_reason

_MAPS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies")
_LISTS = ("allOf", "anyOf", "oneOf", "prefixItems", "items")
_ONE = ("additionalProperties", "items", "contains", "not", "if", "then", "else", "propertyNames",
        "unevaluatedItems", "unevaluatedProperties", "contentSchema", "additionalItems")
_REFS = ("$ref", "$dynamicRef", "$recursiveRef")
# Keywords that apply a subschema to the same value (not to a part of it): a cycle through
# these and $ref never ends.
_IN_PLACE_LISTS = ("allOf", "anyOf", "oneOf")
_IN_PLACE_ONE = ("not", "if", "then", "else")
_MISSING = object()
_ESCAPED = re.compile(r"(?:%[0-9A-Fa-f]{2})+")


def _unquote(text: str) -> str:
    """Percent-decoding of a URI fragment (as referencing does), without importing urllib."""
    return _ESCAPED.sub(lambda m: bytes.fromhex(m.group().replace("%", "")).decode("utf-8", "replace"), text)


def check_tool_schema(schema: Any, source: str, where: list) -> None:
    """Refuse (ToolProofError) a schema that is not self-contained or has an unsafe pattern;
    `where` is the JSON path of `schema` in its file, as parts."""
    seen: set[int] = set()
    in_place: dict[int, list] = {}       # node -> [(subschema applied to the same value, path of the edge)]
    stack = [(schema, list(where))]
    while stack:
        node, parts = stack.pop()
        if not isinstance(node, dict) or id(node) in seen:
            continue
        seen.add(id(node))
        if "$id" in node and node is not schema:
            _refuse(f"$id {node['$id']!r} below the top of a tool schema would move where $ref "
                    "points; remove it", source, parts + ["$id"])
        edges = in_place[id(node)] = _in_place(node, parts)
        for keyword in _REFS:
            if keyword in node:
                target, target_parts = _resolve(schema, node[keyword], keyword, source, parts, where)
                stack.append((target, target_parts))
                edges.append((target, parts + [keyword], node[keyword]))
        _check_patterns(node, source, parts)
        stack.extend(_children(node, parts))
    _refuse_endless(in_place, source)


def _in_place(node: dict, parts: list) -> list:
    """(subschema applied to the same value, the path of that edge, the $ref text or None)."""
    out = []
    for keyword in _IN_PLACE_LISTS:
        value = node.get(keyword)
        if isinstance(value, list):
            out += [(sub, parts + [keyword, i], None) for i, sub in enumerate(value)]
    return out + [(node[k], parts + [k], None) for k in _IN_PLACE_ONE if isinstance(node.get(k), dict)]


def _refuse_endless(in_place: dict, source: str) -> None:
    """Refuse a $ref that, through $ref and in-place keywords only, comes back to where it was."""
    done: set[int] = set()
    for start in list(in_place):
        if start in done:
            continue
        stack = [(start, iter(in_place[start]), None)]      # (node, edges left, edge that led here)
        on_path = {start: 0}
        while stack:
            node_id, edges, _ = stack[-1]
            step = next(edges, None)
            if step is None:
                stack.pop()
                del on_path[node_id]
                done.add(node_id)
                continue
            target, edge_parts, ref = step
            if not isinstance(target, dict) or id(target) in done:
                continue
            if id(target) in on_path:
                cycle = [entry[2] for entry in stack[on_path[id(target)] + 1:]] + [(edge_parts, ref)]
                parts, ref = next(edge for edge in cycle if edge[1] is not None)
                _refuse(f"{parts[-1]} {ref!r} leads back to a schema it is applied from without going "
                        "into a part of the value: validation would never end", source, parts)
            on_path[id(target)] = len(stack)
            stack.append((id(target), iter(in_place.get(id(target), ())), (edge_parts, ref)))


def _children(node: dict, parts: list) -> list:
    out = []
    for keyword in _MAPS:
        value = node.get(keyword)
        if isinstance(value, dict):
            out += [(sub, parts + [keyword, name]) for name, sub in value.items()]
    for keyword in _LISTS:
        value = node.get(keyword)
        if isinstance(value, list):
            out += [(sub, parts + [keyword, i]) for i, sub in enumerate(value)]
    out += [(node[k], parts + [k]) for k in _ONE if isinstance(node.get(k), dict)]
    return out


def _check_patterns(node: dict, source: str, parts: list) -> None:
    pattern = node.get("pattern")
    if isinstance(pattern, str):
        reason = unsafe_reason(pattern)
        if reason:
            _refuse(f"pattern {pattern!r} {reason}; ToolProof runs tool patterns on model output and "
                    "refuses any that can backtrack without bound", source, parts + ["pattern"])
    keyed = node.get("patternProperties")
    if isinstance(keyed, dict):
        for key in keyed:
            reason = unsafe_reason(key)
            if reason:
                _refuse(f"patternProperties key {key!r} {reason}; ToolProof refuses patterns that can "
                        "backtrack without bound", source, parts + ["patternProperties", key])


def _resolve(root: dict, ref: Any, keyword: str, source: str, parts: list, where: list) -> tuple[Any, list]:
    """The schema a same-document pointer names, and its JSON path; anything else is refused."""
    place = parts + [keyword]
    if not isinstance(ref, str):
        _refuse(f"{keyword} must be a string, not {type(ref).__name__}", source, place)
    if ref != "#" and not ref.startswith("#/"):
        _refuse(f"{keyword} {ref!r} is not a same-document JSON pointer (#/...): ToolProof never "
                "fetches or reads a schema; copy it under $defs and point at '#/$defs/<name>'",
                source, place)
    target, target_parts = root, list(where)
    for token in _unquote(ref[2:]).split("/") if ref != "#" else []:
        token = token.replace("~1", "/").replace("~0", "~")
        if isinstance(target, dict):
            target = target.get(token, _MISSING)
        elif isinstance(target, list) and token.isdigit() and int(token) < len(target):
            target, token = target[int(token)], int(token)
        else:
            target = _MISSING
        if target is _MISSING:
            _refuse(f"{keyword} {ref!r} does not resolve in this schema", source, place)
        target_parts.append(token)
    if not isinstance(target, (dict, bool)):
        _refuse(f"{keyword} {ref!r} points at a {type(target).__name__}, not a schema", source, place)
    return target, target_parts


def _refuse(reason: str, source: str, parts: list) -> None:
    raise ToolProofError(reason, source=source, path=json_path(parts))
