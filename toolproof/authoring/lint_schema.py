"""The schema rules of lint: Draft 2020-12 metaschema validity, same-document `$ref`s that
resolve, and the walk over every subschema the other rules look at. Pure: no I/O; iterative, so
a deeply nested hostile schema cannot exhaust the stack.
"""
from __future__ import annotations

from typing import Any, Iterator

from toolproof.errors import json_path, schema_message
from toolproof.suite.schema import CompiledSchema

# Keywords whose value is one subschema, a list of them, or a map of name -> subschema.
_ONE = ("items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames",
        "unevaluatedItems", "unevaluatedProperties", "additionalItems")
_LIST = ("anyOf", "oneOf", "allOf", "prefixItems")
_MAP = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")

_META = None


def subschemas(schema: Any) -> Iterator[tuple[str, dict]]:
    """(path relative to the schema, e.g. ".properties.x.items", subschema) for every object
    subschema, the root first, in document order."""
    stack = [("", schema)]
    while stack:
        path, node = stack.pop()
        if not isinstance(node, dict):
            continue
        yield path, node
        children = []
        for key in _ONE:
            if key in node:
                children.append((f"{path}.{key}", node[key]))
        for key in _LIST:
            if isinstance(node.get(key), list):
                children += [(f"{path}.{key}[{i}]", sub) for i, sub in enumerate(node[key])]
        for key in _MAP:
            if isinstance(node.get(key), dict):
                children += [(f"{path}.{key}.{name}", sub) for name, sub in node[key].items()]
        stack.extend(reversed(children))


# Keywords whose subschemas describe the same instance as the schema holding them (so a property
# one of them names is described for a `required` in any of the others).
_SAME_ONE = ("not", "if", "then", "else")
_SAME_LIST = ("anyOf", "oneOf", "allOf")


class Place:
    """One instance location of a schema: what its schema and same-place branches describe."""

    def __init__(self) -> None:
        self.described: set[str] = set()
        self.open = False           # patternProperties or a $ref: a name may be described there
        self.closed = False         # additionalProperties / unevaluatedProperties false
        self.required: list[tuple[str, str]] = []      # (path of the entry, the name)


def undescribed_required(schema: Any) -> Iterator[tuple[str, str, bool]]:
    """(path of the `required` entry, the name, whether the place refuses undescribed properties)
    for every required name that no `properties` entry describes at its instance location: the
    schema and its allOf/anyOf/oneOf/not/if/then/else branches together (a branch's `required`
    may name a property the parent describes). A place with patternProperties or a $ref is left
    alone: the name may be described there. Iterative, like `subschemas`."""
    places: list[Place] = []
    stack: list[tuple[str, Any, Place | None]] = [("", schema, None)]
    while stack:
        path, node, place = stack.pop()
        if not isinstance(node, dict):
            continue
        if place is None:
            place = Place()
            places.append(place)
        props, patterns = node.get("properties"), node.get("patternProperties")
        if isinstance(props, dict):
            place.described.update(k for k in props if isinstance(k, str))
        place.open |= bool(patterns) or "$ref" in node or "$dynamicRef" in node
        place.closed |= node.get("additionalProperties") is False or node.get("unevaluatedProperties") is False
        required = node.get("required")
        if isinstance(required, list):
            place.required += [(f"{path}.required[{i}]", name) for i, name in enumerate(required) if isinstance(name, str)]
        children: list[tuple[str, Any, Place | None]] = []
        for key in _ONE:
            if key in node:
                children.append((f"{path}.{key}", node[key], place if key in _SAME_ONE else None))
        for key in _LIST:
            if isinstance(node.get(key), list):
                children += [(f"{path}.{key}[{i}]", sub, place if key in _SAME_LIST else None)
                             for i, sub in enumerate(node[key])]
        for key in _MAP:
            if isinstance(node.get(key), dict):
                same = place if key == "dependentSchemas" else None
                children += [(f"{path}.{key}.{name}", sub, same) for name, sub in node[key].items()]
        stack.extend(reversed(children))
    for place in places:
        if place.open:
            continue
        seen: set[str] = set()
        for path, name in place.required:
            if name not in place.described and name not in seen:
                seen.add(name)
                yield path, name, place.closed


def metaschema_error(schema: Any) -> tuple[str, str] | None:
    """(path inside the schema, message) of the most relevant Draft 2020-12 metaschema error.

    The grader's schema compiler accepts only well-formed schemas (schema.py), and checks the
    rest with jsonschema's metaschema: a schema it takes needs no second check, which keeps lint
    fast on large files (the metaschema walk costs ~4 ms a tool). Only a refused schema is walked
    again, for the most relevant error and its place."""
    global _META
    try:
        CompiledSchema(schema)
        return None
    except RecursionError:
        return "", "nested too deeply to check"
    except ImportError:
        raise
    except Exception:           # jsonschema's SchemaError (or a rule added to the compiler)
        pass
    # lazy: jsonschema is needed only for a schema our own compiler refused (in the page, a wheel fetched on demand)
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import best_match

    if _META is None:       # one metaschema validator for every tool: check_schema builds one per call
        _META = Draft202012Validator(Draft202012Validator.META_SCHEMA)
    try:
        error = best_match(_META.iter_errors(schema))
    except RecursionError:
        return "", "nested too deeply to check"
    if error is None:
        return None
    return json_path(list(error.absolute_path))[1:], schema_message(error)


def ref_problems(schema: Any) -> Iterator[tuple[str, str]]:
    """Every `$ref` that is not a same-document reference (`#` or `#/...`) resolving in `schema`:
    only those resolve offline, in the terminal and in the page alike."""
    for path, node in subschemas(schema):
        ref = node.get("$ref")
        if ref is None:
            continue
        if not isinstance(ref, str) or not (ref == "#" or ref.startswith("#/")):
            yield f"{path}.$ref", (f"$ref {ref!r} is not a same-document reference (#/...): "
                                   "only those resolve offline; inline the definition under $defs")
        elif not _resolves(schema, ref):
            yield f"{path}.$ref", f"$ref {ref!r} does not resolve in this schema"


def _resolves(schema: Any, ref: str) -> bool:
    node = schema
    for raw in ref[2:].split("/") if ref != "#" else []:
        part = raw.replace("~1", "/").replace("~0", "~")
        part = _unquote(part)
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return False
    return True


def _unquote(part: str) -> str:
    """Percent-decoding of a URI fragment, without urllib (kept out of the pure core)."""
    if "%" not in part:
        return part
    raw = part.encode("utf-8")
    out = bytearray()
    i = 0
    while i < len(raw):
        chunk = raw[i + 1:i + 3]
        if raw[i] == 0x25 and len(chunk) == 2 and all(c in b"0123456789abcdefABCDEF" for c in chunk):
            out.append(int(chunk, 16))
            i += 3
        else:
            out.append(raw[i])
            i += 1
    return out.decode("utf-8", "replace")
