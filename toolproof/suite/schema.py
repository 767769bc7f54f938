"""Validate a call's arguments against its tool's JSON Schema (Draft 2020-12).

Grading is the hot path (a full run, a re-grade, every weight change in the page), a
jsonschema validation costs about 90 microseconds a call on our 2-core machines, and importing
jsonschema costs about a second of the page's start-up. So each schema is compiled once into a
tree of small `_Node` objects for the keywords tool schemas use (type, properties, required,
additionalProperties, enum/const of strings and numbers, pattern, length, bounds, items, item and property
counts), each keyword's value checked as the Draft 2020-12 metaschema requires. A node answers
"valid?" and lists errors worded exactly as jsonschema 4.26 words them. A schema with any other
keyword ($ref, anyOf, oneOf, uniqueItems, ...) or an ill-formed value is not compiled:
jsonschema checks it against the metaschema and judges it directly. Our own file formats
(data/schemas/) keep to the compiled subset, so the page never needs to import jsonschema. tests/test_schema.py holds the two to each other with Hypothesis:
same verdict and the same (keyword, path, message) errors on generated instances, for every
tool in data/tools.json and for generated schemas.

Patterns run only on strings of at most MAX_PATTERN_TEXT characters (the patterns themselves
were checked for safe backtracking when the tools loaded: `schema_guard`); a longer string under
a pattern is an error ("string of N characters is longer than 1000; pattern '...' not checked"),
in both checkers alike. jsonschema is given a registry that cannot retrieve anything, so no
$ref is ever fetched or read (`schema_guard` refuses such a $ref before it gets here).

Pure: no I/O. Imports nothing but jsonschema and the standard library.
"""
from __future__ import annotations

import re
import warnings
from typing import Any

from toolproof.errors import MAX_REASON, Finding, clip, json_path, quoted, schema_message

MAX_PATTERN_TEXT = 1000     # characters a pattern is ever run on


def too_long_for_pattern(text: str, pattern: str) -> str:
    """The message for a string a pattern is not run on."""
    return (f"string of {len(text)} characters is longer than {MAX_PATTERN_TEXT}; "
            f"pattern {pattern!r} not checked")

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


def _count(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


def _number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _strings(v: Any) -> bool:
    return isinstance(v, list) and all(isinstance(x, str) for x in v) and len(set(v)) == len(v)


def _compile_quietly(pattern: str) -> re.Pattern:
    """re.compile without its FutureWarnings ("possible nested set"): they would reach stderr."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return re.compile(pattern)


def _regex(v: Any) -> bool:
    try:
        _compile_quietly(v)
    except (re.error, TypeError, OverflowError, RecursionError):
        return False
    return isinstance(v, str)


# What each keyword's value must look like for the schema to be valid Draft 2020-12 (for the
# subset compiled here). A schema the compiler accepts is therefore a valid schema, and only the
# rest needs jsonschema's metaschema check.
_WELL_FORMED = {
    "$schema": lambda v: isinstance(v, str), "$id": lambda v: isinstance(v, str),
    "$comment": lambda v: isinstance(v, str), "title": lambda v: isinstance(v, str),
    "description": lambda v: isinstance(v, str), "format": lambda v: isinstance(v, str),
    "examples": lambda v: isinstance(v, list), "deprecated": lambda v: isinstance(v, bool),
    "readOnly": lambda v: isinstance(v, bool), "writeOnly": lambda v: isinstance(v, bool),
    "contentMediaType": lambda v: isinstance(v, str), "contentEncoding": lambda v: isinstance(v, str),
    "type": lambda v: (isinstance(v, str) and v in _CLASSES) or (
        isinstance(v, list) and len(v) > 0 and _strings(v) and all(n in _CLASSES for n in v)),
    "properties": lambda v: isinstance(v, dict), "required": _strings,
    "enum": lambda v: isinstance(v, list) and len(v) > 0,
    "const": lambda v: True,
    "pattern": _regex, "minLength": _count, "maxLength": _count, "minItems": _count,
    "maxItems": _count, "minProperties": _count, "maxProperties": _count,
    "minimum": _number, "maximum": _number, "exclusiveMinimum": _number, "exclusiveMaximum": _number,
}


def _choice(v: Any) -> bool:
    return isinstance(v, str) or _number(v)


def _hashable(x: Any) -> bool:
    return not isinstance(x, (dict, list))


def _well_formed(schema: dict) -> bool:
    return all(check(schema[key]) for key, check in _WELL_FORMED.items() if key in schema)


# JSON values arrive as exact built-in types; anything else is left to jsonschema.
_CLASSES = {
    "object": (dict,), "array": (list,), "string": (str,), "boolean": (bool,),
    "null": (type(None),), "number": (int, float), "integer": (int, float),
}


class _Node:
    """One compiled (sub)schema. `ok(x)` may only say True when jsonschema would."""

    __slots__ = ("classes", "type_reprs", "whole_floats_only", "choices", "enum", "const",
                 "pattern", "search", "min_len", "max_len",
                 "minimum", "maximum", "exclusive_min", "exclusive_max", "props", "required",
                 "extra", "no_extra", "min_props", "max_props", "items", "min_items", "max_items")

    def __init__(self, schema: Any):
        if not isinstance(schema, dict) or set(schema) - _SUPPORTED or not _well_formed(schema):
            raise _Unsupported
        names = schema.get("type")
        names = [names] if isinstance(names, str) else names
        if names is not None and (not isinstance(names, list) or any(n not in _CLASSES for n in names)):
            raise _Unsupported
        self.classes = None if names is None else frozenset(c for n in names for c in _CLASSES[n])
        self.type_reprs = "" if names is None else ", ".join(repr(n) for n in names)
        # Draft 2020-12: 3.0 is an integer; a plain float is only a number.
        self.whole_floats_only = names is not None and "integer" in names and "number" not in names
        self.choices = self._choices(schema)
        self.enum, self.const = schema.get("enum"), schema.get("const")
        self.pattern = schema.get("pattern")
        self.search = _compile_quietly(self.pattern).search if self.pattern is not None else None
        self.min_len, self.max_len = schema.get("minLength"), schema.get("maxLength")
        self.minimum, self.maximum = schema.get("minimum"), schema.get("maximum")
        self.exclusive_min = schema.get("exclusiveMinimum")
        self.exclusive_max = schema.get("exclusiveMaximum")
        self.props = {k: _compile(v) for k, v in schema.get("properties", {}).items()}
        self.required = tuple(schema.get("required", ()))
        extra = schema.get("additionalProperties", True)
        self.no_extra = extra is False
        self.extra = None if extra in (True, False) else _compile(extra)
        self.min_props, self.max_props = schema.get("minProperties"), schema.get("maxProperties")
        self.items = _compile(schema["items"]) if "items" in schema else None
        self.min_items, self.max_items = schema.get("minItems"), schema.get("maxItems")

    @staticmethod
    def _choices(schema: dict) -> frozenset | None:
        if "enum" not in schema and "const" not in schema:
            return None
        allowed = list(schema.get("enum", [])) + ([schema["const"]] if "const" in schema else [])
        # Strings and numbers only, and never a boolean: Python's `1 == True` would disagree
        # with JSON Schema (and 1 == 1.0 agrees with it).
        if not all(_choice(v) for v in allowed) or ("enum" in schema and "const" in schema):
            raise _Unsupported
        return frozenset(allowed)

    def ok(self, x: Any) -> bool:
        cls = x.__class__
        if self.classes is not None:
            if cls not in self.classes:
                return False
            if cls is float and self.whole_floats_only and not x.is_integer():
                return False
        # Called for every value of every call: the common checks are inline (a method call
        # costs more than most of them) and `_hashable` is spelt out.
        if self.choices is not None and (cls is bool or isinstance(x, (dict, list)) or x not in self.choices):
            return False
        if cls is str:
            if self.search is not None and (len(x) > MAX_PATTERN_TEXT or self.search(x) is None):
                return False
            if self.min_len is not None and len(x) < self.min_len:
                return False
            return self.max_len is None or len(x) <= self.max_len
        if cls is dict:
            return self._object_ok(x)
        if cls is list:
            return self._array_ok(x)
        if cls is int or cls is float:
            return not (
                (self.minimum is not None and x < self.minimum)
                or (self.maximum is not None and x > self.maximum)
                or (self.exclusive_min is not None and x <= self.exclusive_min)
                or (self.exclusive_max is not None and x >= self.exclusive_max))
        return cls is bool or x is None

    def _object_ok(self, x: dict) -> bool:
        for name in self.required:
            if name not in x:
                return False
        props, extra = self.props, self.extra
        for key, value in x.items():
            sub = props.get(key)
            if sub is not None:
                if not sub.ok(value):
                    return False
            elif self.no_extra or (extra is not None and not extra.ok(value)):
                return False
        if self.min_props is not None and len(x) < self.min_props:
            return False
        return self.max_props is None or len(x) <= self.max_props

    def _array_ok(self, x: list) -> bool:
        if self.min_items is not None and len(x) < self.min_items:
            return False
        if self.max_items is not None and len(x) > self.max_items:
            return False
        item = self.items
        if item is not None:
            for value in x:
                if not item.ok(value):
                    return False
        return True


    def errors(self, x: Any, path: tuple, out: list) -> None:
        """Append (keyword, path, message) for every error, worded exactly as jsonschema 4.26."""
        cls = x.__class__
        if self.classes is not None and (cls not in self.classes or (
                cls is float and self.whole_floats_only and not x.is_integer())):
            out.append(("type", path, f"{quoted(x)} is not of type {self.type_reprs}"))
        if self.choices is not None and (cls is bool or not _hashable(x) or x not in self.choices):
            if self.const is not None:
                out.append(("const", path, f"{self.const!r} was expected"))
            else:
                out.append(("enum", path, f"{quoted(x)} is not one of {self.enum!r}"))
        if cls is str:
            self._string_errors(x, path, out)
        elif cls is dict:
            self._object_errors(x, path, out)
        elif cls is list:
            self._array_errors(x, path, out)
        elif cls is int or cls is float:
            self._number_errors(x, path, out)

    def _string_errors(self, x: str, path: tuple, out: list) -> None:
        if self.search is not None and len(x) > MAX_PATTERN_TEXT:
            out.append(("pattern", path, too_long_for_pattern(x, self.pattern)))
        elif self.search is not None and self.search(x) is None:
            out.append(("pattern", path, f"{quoted(x)} does not match {self.pattern!r}"))
        if self.min_len is not None and len(x) < self.min_len:
            out.append(("minLength", path, f"{quoted(x)} {'should be non-empty' if self.min_len == 1 else 'is too short'}"))
        if self.max_len is not None and len(x) > self.max_len:
            out.append(("maxLength", path, f"{quoted(x)} {'is expected to be empty' if self.max_len == 0 else 'is too long'}"))

    def _number_errors(self, x: float, path: tuple, out: list) -> None:
        if self.minimum is not None and x < self.minimum:
            out.append(("minimum", path, f"{quoted(x)} is less than the minimum of {self.minimum!r}"))
        if self.maximum is not None and x > self.maximum:
            out.append(("maximum", path, f"{quoted(x)} is greater than the maximum of {self.maximum!r}"))
        if self.exclusive_min is not None and x <= self.exclusive_min:
            out.append(("exclusiveMinimum", path,
                        f"{quoted(x)} is less than or equal to the minimum of {self.exclusive_min!r}"))
        if self.exclusive_max is not None and x >= self.exclusive_max:
            out.append(("exclusiveMaximum", path,
                        f"{quoted(x)} is greater than or equal to the maximum of {self.exclusive_max!r}"))

    def _object_errors(self, x: dict, path: tuple, out: list) -> None:
        for name in self.required:
            if name not in x:
                out.append(("required", path, f"{name!r} is a required property"))
        extras = []
        # A value its node finds valid has no errors to list (`ok` and `errors` check the same
        # keywords), and `ok` is much cheaper: usually one wrong field among several right ones.
        for key, value in x.items():
            sub = self.props.get(key)
            if sub is not None:
                if not sub.ok(value):
                    sub.errors(value, path + (key,), out)
            elif self.extra is not None:
                if not self.extra.ok(value):
                    self.extra.errors(value, path + (key,), out)
            else:
                extras.append(key)
        if self.no_extra and extras:
            names = ", ".join(repr(e) for e in sorted(extras, key=str))
            verb = "was" if len(extras) == 1 else "were"
            out.append(("additionalProperties", path,
                        f"Additional properties are not allowed ({names} {verb} unexpected)"))
        if self.min_props is not None and len(x) < self.min_props:
            out.append(("minProperties", path, f"{quoted(x)} {'should be non-empty' if self.min_props == 1 else 'does not have enough properties'}"))
        if self.max_props is not None and len(x) > self.max_props:
            out.append(("maxProperties", path, f"{quoted(x)} {'is expected to be empty' if self.max_props == 0 else 'has too many properties'}"))

    def _array_errors(self, x: list, path: tuple, out: list) -> None:
        if self.min_items is not None and len(x) < self.min_items:
            out.append(("minItems", path, f"{quoted(x)} {'should be non-empty' if self.min_items == 1 else 'is too short'}"))
        if self.max_items is not None and len(x) > self.max_items:
            out.append(("maxItems", path, f"{quoted(x)} {'is expected to be empty' if self.max_items == 0 else 'is too long'}"))
        if self.items is not None:
            for index, value in enumerate(x):
                if not self.items.ok(value):
                    self.items.errors(value, path + (index,), out)


class _Anything:
    """The schema `true` (or `{}`): every instance is valid."""
    __slots__ = ()

    def ok(self, x: Any) -> bool:
        return True

    def errors(self, x: Any, path: tuple, out: list) -> None:
        return None


def _compile(schema: Any) -> _Node | _Anything:
    if schema is True:
        return _Anything()
    return _Node(schema)    # `false` and non-objects are left to jsonschema (_Unsupported)


class CompiledSchema:
    """A JSON Schema compiled once; jsonschema is imported only for what the compiler cannot take."""

    __slots__ = ("schema", "_validator", "_fast")

    def __init__(self, schema: Any):
        self.schema = schema
        self._validator = None
        try:
            self._fast: _Node | _Anything | None = _compile(schema)
        except _Unsupported:
            self._fast = None
            from jsonschema import Draft202012Validator    # lazy: it costs ~1 s in Pyodide

            Draft202012Validator.check_schema(schema)
            self._validator = _offline_validator()(schema, registry=_no_retrieval_registry())

    @property
    def compiled(self) -> bool:
        """True when the fast checker covers this schema (else jsonschema judges alone)."""
        return self._fast is not None

    def is_valid(self, instance: Any) -> bool:
        if self._fast is not None:
            return self._fast.ok(instance)
        return not self._long_key(instance) and self._validator.is_valid(instance)

    def _long_key(self, instance: Any) -> list:
        """jsonschema matches every property name against patternProperties (and again for
        additionalProperties): a name too long for a pattern stops it from judging at all."""
        if "patternProperties" not in _keywords_of(self.schema):
            return []
        path = _long_key_path(instance)
        if path is None:
            return []
        return [("patternProperties", path[:-1], f"property name of {len(path[-1])} characters is longer "
                 f"than {MAX_PATTERN_TEXT}; patternProperties not checked")]

    def _raw_errors(self, instance: Any) -> list[tuple]:
        """(keyword, path tuple, message) for every error, in traversal order."""
        if self._fast is None:
            return self._long_key(instance) or [(e.validator, tuple(e.absolute_path), schema_message(e))
                                                for e in self._validator.iter_errors(instance)]
        if self._fast.ok(instance):
            return []
        raw: list = []
        self._fast.errors(instance, (), raw)
        # as errors.schema_message cuts jsonschema's: a message may quote every unexpected name
        return [(code, path, clip(message, MAX_REASON)) for code, path, message in raw]

    def findings(self, instance: Any) -> list[Finding]:
        """Every schema error as a finding, in a fixed order (none when valid)."""
        raw = self._raw_errors(instance)
        if not raw:
            return []
        found = [Finding(f"schema.{code}", json_path(path), message)
                 for code, path, message in raw]
        return sorted(found, key=lambda f: (f.path, f.code, f.message))

    def first_error(self, instance: Any) -> Finding | None:
        """The one error to tell a user about: the deepest, so it names the exact place."""
        raw = self._raw_errors(instance)
        if not raw:
            return None
        code, path, message = max(raw, key=lambda e: len(e[1]))
        return Finding(f"schema.{code}", json_path(path), message)


_OFFLINE: list = []


def _offline_validator():
    """Draft 2020-12 with `pattern` run only on strings of at most MAX_PATTERN_TEXT characters."""
    if not _OFFLINE:
        from jsonschema import Draft202012Validator, validators      # lazy: ~1 s in Pyodide; rarely needed
        from jsonschema.exceptions import ValidationError

        def pattern(validator, patrn, instance, schema):
            if not validator.is_type(instance, "string"):
                return
            if len(instance) > MAX_PATTERN_TEXT:
                yield ValidationError(too_long_for_pattern(instance, patrn))
            elif not re.search(patrn, instance):
                yield ValidationError(f"{instance!r} does not match {patrn!r}")
        _OFFLINE.append(validators.extend(Draft202012Validator, {"pattern": pattern}))
    return _OFFLINE[0]


def _no_retrieval_registry():
    """A registry that holds nothing and retrieves nothing: a $ref outside the schema fails."""
    from referencing import Registry        # lazy: with jsonschema, which needs it
    from referencing.exceptions import NoSuchResource

    def refuse(uri: str):
        raise NoSuchResource(ref=uri)
    return Registry(retrieve=refuse)


def _keywords_of(schema: Any) -> set:
    """Every key used in any object of a schema (a cheap "does it use X anywhere")."""
    found: set = set()
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            found.update(k for k in node if isinstance(k, str))
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return found


def _long_key_path(instance: Any) -> tuple | None:
    """The path to the first property name longer than MAX_PATTERN_TEXT, ending with that name."""
    stack = [(instance, ())]
    while stack:
        node, path = stack.pop()
        if isinstance(node, dict):
            for key, value in node.items():
                if isinstance(key, str) and len(key) > MAX_PATTERN_TEXT:
                    return path + (key,)
                stack.append((value, path + (key,)))
        elif isinstance(node, list):
            stack.extend((v, path + (i,)) for i, v in enumerate(node))
    return None
