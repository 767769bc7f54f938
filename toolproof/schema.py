"""Validate a call's arguments against its tool's JSON Schema (Draft 2020-12).

jsonschema is the authority: every error message comes from it. Because grading is the hot
path (a full run, a re-grade, the page's weight sliders), each tool schema is compiled once into
a small checker of plain Python closures that answers "valid?" for the keywords our schemas
use. Only when that checker says "invalid" do we ask jsonschema for its errors; a schema with
any keyword the checker does not know is handed to jsonschema whole. tests/test_schema.py
checks with Hypothesis that the checker and jsonschema agree on every tool in data/tools.json
and on generated schemas.

Pure: no I/O. Must not import anything but jsonschema and the standard library.
"""
from __future__ import annotations

import re
from typing import Any, Callable

from jsonschema import Draft202012Validator

from .errors import Finding, json_path

Check = Callable[[Any], bool]

# Keywords that only annotate: they never make an instance invalid (format is annotation-only
# in Draft 2020-12 unless a format checker is asked for, and we do not ask for one).
_ANNOTATIONS = frozenset({
    "$schema", "$id", "$comment", "title", "description", "default", "examples", "format",
    "deprecated", "readOnly", "writeOnly", "contentMediaType", "contentEncoding",
})
_SUPPORTED = _ANNOTATIONS | frozenset({
    "type", "properties", "required", "additionalProperties", "enum", "const", "pattern",
    "minLength", "maxLength", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
    "items", "minItems", "maxItems", "minProperties", "maxProperties",
})


class _Unsupported(Exception):
    """The fast checker cannot express this schema; jsonschema alone will judge it."""


def _is_number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


_TYPE_CHECKS: dict[str, Check] = {
    "object": lambda x: isinstance(x, dict),
    "array": lambda x: isinstance(x, list),
    "string": lambda x: isinstance(x, str),
    "boolean": lambda x: isinstance(x, bool),
    "null": lambda x: x is None,
    "number": _is_number,
    # Draft 2020-12: 3.0 is an integer, True is not.
    "integer": lambda x: (isinstance(x, int) and not isinstance(x, bool))
    or (isinstance(x, float) and x.is_integer()),
}


def _compile(schema: Any) -> Check:
    if schema is True:
        return lambda x: True
    if schema is False:
        return lambda x: False
    if not isinstance(schema, dict) or set(schema) - _SUPPORTED:
        raise _Unsupported
    checks: list[Check] = []
    if "type" in schema:
        names = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if any(n not in _TYPE_CHECKS for n in names):
            raise _Unsupported
        type_checks = [_TYPE_CHECKS[n] for n in names]
        checks.append(lambda x: any(c(x) for c in type_checks))
    for keyword in ("enum", "const"):
        if keyword in schema:
            allowed = schema[keyword] if keyword == "enum" else [schema[keyword]]
            # Only string choices: Python's `1 == True` would disagree with JSON Schema.
            if not all(isinstance(v, str) for v in allowed):
                raise _Unsupported
            choices = frozenset(allowed)
            checks.append(lambda x, c=choices: isinstance(x, str) and x in c)
    checks.extend(_string_checks(schema))
    checks.extend(_number_checks(schema))
    checks.extend(_object_checks(schema))
    checks.extend(_array_checks(schema))
    if not checks:
        return lambda x: True
    if len(checks) == 1:
        return checks[0]
    return lambda x: all(c(x) for c in checks)


def _string_checks(schema: dict) -> list[Check]:
    out: list[Check] = []
    if "pattern" in schema:
        search = re.compile(schema["pattern"]).search
        out.append(lambda x: not isinstance(x, str) or search(x) is not None)
    lo, hi = schema.get("minLength"), schema.get("maxLength")
    if lo is not None:
        out.append(lambda x: not isinstance(x, str) or len(x) >= lo)
    if hi is not None:
        out.append(lambda x: not isinstance(x, str) or len(x) <= hi)
    return out


def _number_checks(schema: dict) -> list[Check]:
    out: list[Check] = []
    bounds = [
        ("minimum", lambda x, b: x >= b), ("maximum", lambda x, b: x <= b),
        ("exclusiveMinimum", lambda x, b: x > b), ("exclusiveMaximum", lambda x, b: x < b),
    ]
    for keyword, ok in bounds:
        if keyword in schema:
            bound = schema[keyword]
            out.append(lambda x, b=bound, ok=ok: not _is_number(x) or ok(x, b))
    return out


def _object_checks(schema: dict) -> list[Check]:
    out: list[Check] = []
    props = {k: _compile(v) for k, v in schema.get("properties", {}).items()}
    required = tuple(schema.get("required", ()))
    extra = schema.get("additionalProperties", True)
    extra_check = None if extra is True else _compile(extra)
    lo, hi = schema.get("minProperties"), schema.get("maxProperties")

    def check_object(x: Any) -> bool:
        if not isinstance(x, dict):
            return True
        for name in required:
            if name not in x:
                return False
        for key, value in x.items():
            sub = props.get(key)
            if sub is not None:
                if not sub(value):
                    return False
            elif extra_check is not None and not extra_check(value):
                return False
        if lo is not None and len(x) < lo:
            return False
        return hi is None or len(x) <= hi

    if props or required or extra_check is not None or lo is not None or hi is not None:
        out.append(check_object)
    return out


def _array_checks(schema: dict) -> list[Check]:
    out: list[Check] = []
    if "items" in schema:
        item = _compile(schema["items"])
        out.append(lambda x: not isinstance(x, list) or all(item(v) for v in x))
    lo, hi = schema.get("minItems"), schema.get("maxItems")
    if lo is not None:
        out.append(lambda x: not isinstance(x, list) or len(x) >= lo)
    if hi is not None:
        out.append(lambda x: not isinstance(x, list) or len(x) <= hi)
    return out


class ToolSchema:
    """A tool's parameters schema, checked once and compiled once."""

    __slots__ = ("schema", "_validator", "_fast")

    def __init__(self, schema: dict):
        Draft202012Validator.check_schema(schema)
        self.schema = schema
        self._validator = Draft202012Validator(schema)
        try:
            self._fast: Check | None = _compile(schema)
        except _Unsupported:
            self._fast = None

    @property
    def compiled(self) -> bool:
        """True when the fast checker covers this schema (else jsonschema judges alone)."""
        return self._fast is not None

    def is_valid(self, instance: Any) -> bool:
        if self._fast is not None:
            return self._fast(instance)
        return self._validator.is_valid(instance)

    def findings(self, instance: Any) -> list[Finding]:
        """jsonschema's errors as findings, deepest path first, in a fixed order."""
        if self.is_valid(instance):
            return []
        found = [
            Finding(f"schema.{e.validator}", json_path(list(e.absolute_path)), e.message)
            for e in self._validator.iter_errors(instance)
        ]
        return sorted(found, key=lambda f: (f.path, f.code, f.message))
