"""Lint tool definitions: what will confuse, mislead or be refused before any model sees them.

Takes the records the importers return (any of the six shapes) and yields findings, each with a
stable code, a severity, the tool, the JSON path in the source file and a message. `CODES` is
the documented table (docs/own-tools.md "Lint"). Findings are data: lint never
raises on a record, however hostile its content.

Pure: no I/O. jsonschema is imported only when a schema is checked against the metaschema.
"""
from __future__ import annotations

import json
import math
import re
from typing import Iterator, NamedTuple

from .lint_schema import metaschema_error, ref_problems, subschemas, undescribed_required
from .lint_similar import similar_pairs
from .lint_text import instruction_phrase, name_key, word_set
from toolproof.importers.toolproof import described
from toolproof.safe_text import hidden_characters

# code: (severity, rule). Severity `error` makes `tools lint` exit 1.
CODES = {
    "missing-description": ("error", "a tool has no description (error); a parameter has none (warning)"),
    "duplicate-name": ("error", "two tools share a name and no id tells them apart: cases could not reference one"),
    "similar-tools": ("warning", "two tools a model will confuse: descriptions sharing at least "
                                 "85% of their words, or names equal up to case, separators and plural"),
    "no-required": ("warning", "an object schema with properties and no `required` (say "
                               "`\"required\": []` when every field is optional)"),
    "undescribed-required": ("warning", "a required property that no 'properties' entry describes: a "
                                        "model has only its name to go on (error when additionalProperties "
                                        "is false: no call can be valid)"),
    "unconstrained-date": ("warning", "a date- or time-like string parameter with no format, "
                                      "pattern, enum or const"),
    "hidden-characters": ("error", "zero-width, bidi control, tag (U+E0000-E007F), variation selector, "
                                   "control or lone surrogate characters in a name, description or schema"),
    "instruction-in-description": ("error", "text aimed at the model instead of describing the tool "
                                            "(tool poisoning): see lint_text.INSTRUCTION_PHRASES"),
    "invalid-schema": ("error", "parameters is not a valid Draft 2020-12 schema, not an object schema, "
                                "or uses a $ref that does not resolve in the same document"),
    "name-not-portable": ("error", "a name OpenAI (^[a-zA-Z0-9_-]{1,64}$) or Anthropic "
                                   "(^[a-zA-Z0-9_-]{1,128}$) would reject"),
    "large-definition": ("warning", "a definition over 1,000 tokens, estimated as characters / 4 "
                                    "of its compact JSON"),
}
LARGE_TOKENS = 1000
SIMILAR_AT = 0.85
MAX_CANDIDATES = 500       # per tool, in similar-tools: bounds the work on pathological files
_OPENAI_NAME = re.compile(r"[a-zA-Z0-9_-]{1,64}")
_ANTHROPIC_NAME = re.compile(r"[a-zA-Z0-9_-]{1,128}")
_DATE_WORDS = frozenset({"date", "dates", "day", "dob", "birthday", "birthdate", "deadline", "timestamp",
                         "datetime", "time", "due", "until", "since", "when"})


class LintFinding(NamedTuple):
    code: str
    severity: str
    tool: str
    path: str
    message: str

    def to_json(self) -> dict:
        return self._asdict()


def lint_tools(tools: list[dict]) -> list[LintFinding]:
    """Every finding for these records: per tool in order, then across tools."""
    found: list[LintFinding] = []
    for tool in tools:
        found.extend(lint_tool(tool))
    found.extend(_duplicate_names(tools))
    found.extend(_similar_tools(tools))
    return found


def has_errors(findings: list[LintFinding]) -> bool:
    return any(f.severity == "error" for f in findings)


def _finding(code: str, tool: dict, path: str, message: str, severity: str | None = None) -> LintFinding:
    shown = tool["name"]
    if isinstance(tool.get("id"), str) and tool["id"] != tool["name"]:
        shown = f"{tool['name']} [{tool['id']}]"     # entries may share a name: the id tells them apart
    return LintFinding(code, severity or CODES[code][0], shown, path, message)


def lint_tool(tool: dict) -> Iterator[LintFinding]:
    """The findings one tool earns on its own."""
    at, name = tool["at"], tool["name"]
    if not described(tool.get("description")):
        yield _finding("missing-description", tool, at["description"], f"tool {name!r} has no description")
    if not _OPENAI_NAME.fullmatch(name):
        rejecters = "OpenAI" if _ANTHROPIC_NAME.fullmatch(name) else "OpenAI and Anthropic"
        yield _finding("name-not-portable", tool, at["name"],
                       f"{ascii(name)} would be rejected by {rejecters}: use 1-64 of A-Z a-z 0-9 _ -")
    yield from _text_findings(tool)
    yield from _schema_validity(tool)
    yield from _schema_walk(tool)
    yield from _undescribed_required(tool)
    tokens = math.ceil(len(json.dumps(_definition(tool), ensure_ascii=False, separators=(",", ":"))) / 4)
    if tokens > LARGE_TOKENS:
        yield _finding("large-definition", tool, at["tool"],
                       f"about {tokens:,} tokens (characters / 4), over {LARGE_TOKENS:,}: every request "
                       f"that offers {name!r} pays for it; trim descriptions, enums and nesting")


def _definition(tool: dict) -> dict:
    return {"name": tool["name"], "description": tool.get("description") or "", "parameters": tool["parameters"]}


def _strings(tool: dict) -> Iterator[tuple[str, str, bool]]:
    """(path, text, is_model_facing_prose) for every string a model reads in this definition:
    the name, the description, and every key and string value inside the parameters."""
    at = tool["at"]
    yield at["name"], tool["name"], False
    if isinstance(tool.get("description"), str):
        yield at["description"], tool["description"], True
    stack = [(tool["parameters"], at["parameters"])]
    while stack:
        value, path = stack.pop()
        if isinstance(value, dict):
            for key, child in reversed(list(value.items())):
                here = f"{path}.{key}"
                if isinstance(key, str):
                    yield here, key, False
                stack.append((child, here))
        elif isinstance(value, list):
            stack.extend((child, f"{path}[{i}]") for i, child in reversed(list(enumerate(value))))
        elif isinstance(value, str):
            yield path, value, True


def _text_findings(tool: dict) -> Iterator[LintFinding]:
    for path, text, prose in _strings(tool):
        hidden = hidden_characters(text)
        if hidden:
            offset, label = hidden[0]
            more = f" (and {len(hidden) - 1} more)" if len(hidden) > 1 else ""
            yield _finding("hidden-characters", tool, path,
                           f"{label} at offset {offset}{more}: invisible to a reviewer, read by the model")
        if prose:
            phrase = instruction_phrase(text)
            if phrase:
                yield _finding("instruction-in-description", tool, path,
                               f"{phrase}: text aimed at the model, not a description of the tool")


def _schema_validity(tool: dict) -> Iterator[LintFinding]:
    at, params = tool["at"]["parameters"], tool["parameters"]
    if params.get("type") != "object":
        yield _finding("invalid-schema", tool, at,
                       f"parameters must be an object schema (\"type\": \"object\"), as OpenAI and "
                       f"Anthropic require; got type {params.get('type')!r}")
    error = metaschema_error(params)
    if error is not None:
        yield _finding("invalid-schema", tool, at + error[0], f"not a valid Draft 2020-12 schema: {error[1]}")
    for path, message in ref_problems(params):
        yield _finding("invalid-schema", tool, at + path, message)


def _schema_walk(tool: dict) -> Iterator[LintFinding]:
    for path, schema in subschemas(tool["parameters"]):
        props = schema.get("properties")
        if not isinstance(props, dict):
            continue
        where = tool["at"]["parameters"] + path
        if props and "required" not in schema:
            yield _finding("no-required", tool, where,
                           f"properties {_names(props)} and no 'required': a model cannot tell what it must "
                           "supply (write \"required\": [] if every field is optional)")
        for key, sub in props.items():
            if not isinstance(sub, dict) or "$ref" in sub:
                continue
            here = f"{where}.properties.{key}"
            if not (isinstance(sub.get("description"), str) and sub["description"].strip()):
                yield _finding("missing-description", tool, here, f"parameter {key!r} has no description",
                               severity="warning")
            if _date_like(key, sub) and _unconstrained_string(sub):
                yield _finding("unconstrained-date", tool, here,
                               f"parameter {key!r} looks like a date or time but has no format or pattern: "
                               "models will write it in whatever form they like")


def _undescribed_required(tool: dict) -> Iterator[LintFinding]:
    """A name in `required` that the schema never describes: a model cannot know its type or
    meaning, and a schema that also refuses undescribed properties accepts no call at all."""
    for path, name, closed in undescribed_required(tool["parameters"]):
        here = tool["at"]["parameters"] + path
        if closed:
            yield _finding("undescribed-required", tool, here,
                           f"{ascii(name)} is required but no 'properties' entry describes it, and "
                           "additionalProperties false refuses it: no call can be valid", severity="error")
        else:
            yield _finding("undescribed-required", tool, here,
                           f"{ascii(name)} is required but no 'properties' entry describes it: a model has "
                           "only its name to go on (describe it under 'properties')")


def _names(props: dict) -> str:
    keys = [repr(k) for k in list(props)[:3]]
    return ", ".join(keys) + (", ..." if len(props) > 3 else "")


def _date_like(key: str, sub: dict) -> bool:
    words = set(name_key(key).split("_"))
    if words & _DATE_WORDS or key.lower().endswith(("_at", "_on")):
        return True
    description = sub.get("description")
    return isinstance(description, str) and bool(re.search(r"\bdate\b|YYYY", description, re.IGNORECASE))


def _unconstrained_string(sub: dict) -> bool:
    """A string (or nullable string) with nothing saying how to write it."""
    if any(k in sub for k in ("format", "pattern", "enum", "const")):
        return False
    # any JSON value may stand where a keyword expects a list ("anyOf": null): only lists are walked
    branches = [sub] + [b for key in ("anyOf", "oneOf") if isinstance(sub.get(key), list)
                        for b in sub[key] if isinstance(b, dict)]
    strings = [b for b in branches if b.get("type") == "string"
               or (isinstance(b.get("type"), list) and "string" in b["type"])]
    return bool(strings) and all(not any(k in b for k in ("format", "pattern", "enum", "const")) for b in strings)


def _duplicate_names(tools: list[dict]) -> Iterator[LintFinding]:
    """Two entries with one id (the name, unless the entry gives an id): cases could not tell
    them apart. Entries that share a name under different ids are fine (issue 22)."""
    first: dict[str, int] = {}
    for i, tool in enumerate(tools):
        key = tool["id"] if isinstance(tool.get("id"), str) else tool["name"]
        if key in first:
            other = tools[first[key]]
            what = "id" if isinstance(tool.get("id"), str) else "name"
            yield _finding("duplicate-name", tool, tool["at"].get(what, tool["at"]["name"]),
                           f"{ascii(key)} is also the {what} of the tool at {other['at']['tool']}")
        else:
            first[key] = i


def _similar_tools(tools: list[dict]) -> Iterator[LintFinding]:
    for i, j, reason in similar_pairs([t["name"] for t in tools],
                                      [word_set(t.get("description") or "") for t in tools],
                                      SIMILAR_AT, MAX_CANDIDATES):
        a, b = tools[i], tools[j]
        yield _finding("similar-tools", b, b["at"]["tool"],
                       f"{ascii(a['name'])} and {ascii(b['name'])}: {reason}; a model will confuse them: "
                       "say in each description when to use it and not the other")
