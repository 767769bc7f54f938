"""BFCL's own data files (the Berkeley Function Calling Leaderboard, `bfcl-eval`, Apache-2.0) as
our suite.json and tools.json.

Reads what the edge parsed: per category the entries of `BFCL_v4_<category>.json` (one JSON
object a line: `id`, `question`, `function`) and the ground truth of
`possible_answer/BFCL_v4_<category>.json` (`id`, `ground_truth`: a list of
`{function: {param: [possible values]}}`). Case ids are BFCL's; `irrelevance` becomes no_call;
the parallel categories expect their calls in any order and, with two or more calls, are our
`parallel` category (one call: `should_call`, or `distractor` for the multiple-function ones); `live_relevance` (no ground truth: BFCL passes any call)
expects one call to any offered function, arguments unchecked beyond the schema. Every case offers
exactly BFCL's names, descriptions and schemas: one catalogue entry per distinct definition, its id
the name (the first definition) or `name@<BFCL id>` (a later, different one), so names repeat
across the catalogue, never within a case; a list of possible values becomes `args` (the first
that validates) + `accept` (the others), `""` among them makes the field `optional` (alone:
`absent`); string fields are `loose` and every call `exact`, so our verdict follows BFCL's
checker except where JSON Schema decides (docs/bfcl.md). Gorilla types map to JSON
Schema: dict -> object, float -> number, tuple -> array, any -> no type.

Pure: no I/O; nothing of BFCL's data is committed or fetched.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from toolproof.suite.load import load_suite, load_tools
from toolproof.suite.model import Tool
from toolproof.suite.toolnames import wire_clash

# BFCL category -> our category (what the case probes in our terms)
CATEGORY_OF = {"simple_python": "should_call", "multiple": "distractor",
               "parallel": "should_call", "parallel_multiple": "distractor", "irrelevance": "should_not_call",
               "live_simple": "should_call", "live_multiple": "distractor", "live_parallel": "should_call",
               "live_parallel_multiple": "distractor", "live_irrelevance": "should_not_call",
               "live_relevance": "should_call"}
ANY_ORDER = frozenset({"parallel", "parallel_multiple", "live_parallel", "live_parallel_multiple"})
PARALLEL = "parallel"     # what an ANY_ORDER entry with two or more calls becomes (one call: CATEGORY_OF)
NO_CALL = frozenset({"irrelevance", "live_irrelevance"})
ANY_CALL = frozenset({"live_relevance"})
GORILLA_TYPES = {"dict": "object", "float": "number", "tuple": "array", "any": None,
                 "integer": "integer", "number": "number", "string": "string", "boolean": "boolean",
                 "array": "array", "object": "object", "null": "null"}
_ID = re.compile(r"^[a-z0-9][a-z0-9_-]*$")
_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,128}$")


class _Skip(Exception):
    """A BFCL entry this importer cannot express: skipped with its reason, never fatal."""


@dataclass
class BfclImport:
    tools: dict
    suite: dict
    skipped: list = field(default_factory=list)      # (BFCL id, reason)


def gorilla_schema(schema: Any) -> Any:
    """A gorilla parameter schema as JSON Schema, recursively (properties, items,
    additionalProperties); an unknown type is kept for the tools loader to refuse."""
    if not isinstance(schema, dict):
        return schema
    out = {}
    for key, value in schema.items():
        if key == "type" and isinstance(value, str) and value in GORILLA_TYPES:
            if GORILLA_TYPES[value] is not None:
                out["type"] = GORILLA_TYPES[value]
        elif key == "properties" and isinstance(value, dict):
            out[key] = {name: gorilla_schema(sub) for name, sub in value.items()}
        elif key in ("items", "additionalProperties") and isinstance(value, dict):
            out[key] = gorilla_schema(value)
        else:
            out[key] = value
    return out


def suite_from_bfcl(entries: dict[str, list], answers: dict[str, dict], schemas: dict, *,
                    limit: int | None = None) -> BfclImport:
    """entries: {category: [parsed lines]}; answers: {category: {id: ground_truth}};
    schemas: our "tools" and "suite" format schemas. Entries that cannot be expressed (or do not
    load) are skipped with their reason; the rest load as a suite."""
    names = _Catalogue()
    drafts, skipped = [], []
    for category, lines in entries.items():
        for entry in lines[:limit] if limit is not None else lines:
            try:
                drafts.append(_draft(category, entry, names))
            except _Skip as exc:
                skipped.append((_entry_id(entry), str(exc)))
    tools_doc = {"format": "toolproof.tools", "version": 1, "description": _SOURCE,
                 "tools": list(names.defined.values())}
    tools, problems = load_tools(tools_doc, schemas["tools"])
    broken = {}
    for path, reason in problems:
        match = re.match(r"^\$\.tools\[(\d+)\](.*)$", path or "")
        if match:
            entry = tools_doc["tools"][int(match.group(1))]
            broken.setdefault(entry.get("id", entry["name"]), f"${match.group(2)}: {reason}")
    cases = []
    for draft in drafts:
        try:
            cases.append(_case(draft, tools, answers, broken))
        except _Skip as exc:
            skipped.append((draft["id"], str(exc)))
    return _loadable(cases, tools_doc, tools, schemas, skipped)


_SOURCE = ("Imported from BFCL (bfcl-eval, Apache-2.0) by `python -m toolproof suite import-bfcl`; "
           "the data is the user's download, not part of ToolProof.")


def _entry_id(entry: Any) -> str:
    return str(entry.get("id")) if isinstance(entry, dict) else "(not an object)"


def _draft(category: str, entry: Any, names: "_Catalogue") -> dict:
    if category not in CATEGORY_OF:
        raise _Skip(f"category {category!r} is not supported (use {', '.join(CATEGORY_OF)})")
    if not isinstance(entry, dict) or not isinstance(entry.get("id"), str):
        raise _Skip("an entry needs a string 'id'")
    if not _ID.match(entry["id"]):
        raise _Skip(f"id {entry['id']!r} is not a case id (a-z 0-9 _ -)")
    system, prompt = _prompt(entry.get("question"))
    functions = entry.get("function")
    if not isinstance(functions, list) or not functions:
        raise _Skip("'function' must be a non-empty list")
    offered: dict[str, str] = {}          # BFCL's name -> our catalogue id
    for fn in functions:
        name, tool_id = names.register(fn, entry["id"])
        if name in offered:
            raise _Skip(f"offers two functions named {name!r}")
        offered[name] = tool_id
    clash = wire_clash((tool_id, name) for name, tool_id in offered.items())
    if clash:
        raise _Skip(f"offers {names.defined[clash[0]]['name']!r} and {names.defined[clash[1]]['name']!r}, "
                    f"which both reach providers as {clash[2]!r}: a reply could not tell them apart")
    return {"id": entry["id"], "bfcl": category, "system": system, "prompt": prompt,
            "offered": offered}


def _prompt(question: Any) -> tuple[str | None, str]:
    """(system prompt or None, the user's message) of a single-turn BFCL question."""
    if not isinstance(question, list) or len(question) != 1 or not isinstance(question[0], list):
        raise _Skip("only single-turn questions are imported")
    system, user = [], []
    for message in question[0]:
        if not isinstance(message, dict) or not isinstance(message.get("content"), str):
            raise _Skip("a question message needs string 'content'")
        (system if message.get("role") == "system" else user).append(message["content"])
    if not user or not "".join(user).strip():
        raise _Skip("the question has no user message")
    return ("\n\n".join(system) or None), "\n\n".join(user)


class _Catalogue:
    """Tool definitions across entries: one catalogue entry per distinct definition, under BFCL's
    own name. The first definition of a name gets the name as its id; a later, different one
    `name@<the BFCL id that brought it>`. Nothing is renamed: every case offers BFCL's names."""

    def __init__(self) -> None:
        self.defined: dict[str, dict] = {}      # id -> tools.json entry
        self.by_name: dict[str, list[str]] = {}  # name -> ids of its definitions

    def register(self, fn: Any, entry_id: str) -> tuple[str, str]:
        if not isinstance(fn, dict) or not isinstance(fn.get("name"), str) or not _NAME.match(fn["name"]):
            raise _Skip("a function needs a name of 1-128 of A-Z a-z 0-9 _ - .")
        if not isinstance(fn.get("description"), str) or not fn["description"].strip():
            raise _Skip(f"function {fn['name']!r} has no description")
        name = fn["name"]
        parameters = gorilla_schema(fn.get("parameters", {"type": "dict", "properties": {}}))
        tool = {"name": name, "description": fn["description"], "parameters": parameters}
        ids = self.by_name.setdefault(name, [])
        for tool_id in ids:
            if {k: v for k, v in self.defined[tool_id].items() if k != "id"} == tool:
                return name, tool_id
        tool_id = name if not ids else f"{name}@{entry_id}"
        if len(tool_id) > 200 or tool_id in self.defined:
            tool_id = f"{name[:180]}@{len(ids) + 1}"
        ids.append(tool_id)
        self.defined[tool_id] = tool if tool_id == name else {"id": tool_id, **tool}
        return name, tool_id


def _case(draft: dict, tools: dict[str, Tool], answers: dict, broken: dict) -> dict:
    for name in draft["offered"].values():
        if name not in tools:
            raise _Skip(f"function {name!r} does not load as a tool "
                        f"({broken.get(name, 'see tools.json')})")
    case = {"id": draft["id"], "category": CATEGORY_OF[draft["bfcl"]],
            "title": f"BFCL {draft['bfcl']} {draft['id']}", "why": f"BFCL category {draft['bfcl']}",
            "tools": list(dict.fromkeys(draft["offered"].values()))}
    if draft["system"]:
        case["system"] = draft["system"]
    case["prompt"] = draft["prompt"]
    if draft["bfcl"] in NO_CALL:
        case["expect"] = {"action": "no_call"}
        return case
    if draft["bfcl"] in ANY_CALL:       # BFCL: any call passes; here any offered tool, any valid arguments
        ids = case["tools"]
        case["expect"] = {"action": "call", "calls": [{"tool": ids[0], "args": {}}]}
        if len(ids) > 1:
            case["expect"]["alternatives"] = [[{"tool": i, "args": {}}] for i in ids[1:]]
        return case
    truth = answers.get(draft["bfcl"], {}).get(draft["id"])
    if not isinstance(truth, list) or not truth:
        raise _Skip("no ground truth in possible_answer/")
    calls = [_call(item, draft["offered"], tools) for item in truth]
    case["expect"] = {"action": "call", "calls": calls}
    if draft["bfcl"] in ANY_ORDER:
        case["expect"]["order"] = "any"
        if len(calls) >= 2:         # independent calls in one turn: our parallel category
            case["category"] = PARALLEL
    return case


def _call(item: Any, offered: dict, tools: dict[str, Tool]) -> dict:
    if not isinstance(item, dict) or len(item) != 1:
        raise _Skip("a ground-truth call must be one {function: {param: [values]}}")
    (function, params), = item.items()
    if function not in offered or not isinstance(params, dict):
        raise _Skip(f"ground truth calls {function!r}, which the entry does not define")
    tool = tools[offered[function]]
    rules = _Rules()
    for param, options in params.items():
        rules.param(param, options, tool)
    call = {"tool": tool.id, "args": rules.args}
    for key in ("accept", "optional", "absent", "loose"):
        if getattr(rules, key):
            call[key] = getattr(rules, key)
    call["exact"] = True
    return call


class _Rules:
    """One ground-truth call's possible values as args, accept, optional, absent and loose."""

    def __init__(self) -> None:
        self.args: dict = {}
        self.accept: dict = {}
        self.optional: list = []
        self.absent: list = []
        self.loose: list = []

    def param(self, name: str, options: Any, tool: Tool) -> None:
        if not isinstance(options, list):
            raise _Skip(f"possible values of {name!r} are not a list")
        blank = "" in options
        declared = tool.parameters.get("properties")
        if isinstance(declared, dict) and name not in declared:
            # BFCL's checker fails a call sending a parameter the function does not declare
            if not blank:
                raise _Skip(f"the ground truth needs {name!r}, which the function does not declare")
            self.absent.append(name)
            return
        real = [o for o in options if o != "" and _valid(tool, name, o)]
        if not real:
            if not blank:
                raise _Skip(f"no possible value of {name!r} validates against the tool's schema")
            self.absent.append(name)
            return
        values = [self._value(name, o) for o in real]
        self.args[name] = values[0]
        others = [v for v in values[1:] if v != values[0]]
        if others:
            self.accept[name] = others
        if blank:
            self.optional.append(name)
        if any(_has_string(o) for o in real):
            self.loose.append(name)

    def _value(self, path: str, option: Any) -> Any:
        """A possible value; inside an object each key holds its own list of possible values."""
        if _dict_items(option):
            return _resolved_items(option, path)
        if not isinstance(option, dict):
            return option
        out = {}
        for key, inner in option.items():
            where = f"{path}.{key}"
            if not isinstance(inner, list):
                out[key] = inner
                continue
            real = [o for o in inner if o != ""]
            if not real:
                continue        # only "": the key must be left out, which exact enforces
            out[key] = self._value(where, real[0])
            if len(real) > 1:
                self.accept.setdefault(where, [self._value(where, o) for o in real[1:]])
            if "" in inner and where not in self.optional:
                self.optional.append(where)
        return out


def _dict_items(option: Any) -> bool:
    """A list of objects whose keys each hold a list of possible values (BFCL's list of dicts)."""
    return (isinstance(option, list) and bool(option) and all(isinstance(x, dict) for x in option)
            and all(isinstance(v, list) for x in option for v in x.values()))


def _resolved_items(option: list, path: str) -> list:
    """Each object of a list with its one possible value per key (a key with only "" left out).
    Several possible values (or an optional key) inside a list cannot be expressed: no accept
    path reaches into an array element."""
    out = []
    for item in option:
        resolved = {}
        for key, inner in item.items():
            real = [o for o in inner if o != ""]
            if len(real) > 1 or (real and "" in inner):
                raise _Skip(f"several possible values for {path}[].{key} inside a list cannot be expressed")
            if real:
                resolved[key] = real[0]
        out.append(resolved)
    return out


def _valid(tool: Tool, name: str, value: Any) -> bool:
    """Would a call sending this value for the field pass the tool's schema (ignoring the other
    required fields)? A value that would not can never be the model's right answer."""
    if _dict_items(value):
        value = _resolved_items(value, name)
    if isinstance(value, dict):
        value = {k: (v[0] if isinstance(v, list) and v and v[0] != "" else v) for k, v in value.items()
                 if not (isinstance(v, list) and v and all(x == "" for x in v))}
    return not [f for f in tool.schema.findings({name: value})
                if not (f.code == "schema.required" and f.path == "$")]


def _has_string(value: Any) -> bool:
    if isinstance(value, str):
        return True
    if isinstance(value, list):
        return any(_has_string(v) for v in value)
    if isinstance(value, dict):
        return any(_has_string(v) for v in value.values())
    return False


def _loadable(cases: list, tools_doc: dict, tools: dict, schemas: dict, skipped: list) -> BfclImport:
    """Keep the cases that load as a suite (and the tools they use), skip the rest with reasons."""
    suite_doc = {"format": "toolproof.suite", "version": 2, "description": _SOURCE, "cases": cases}
    _, problems = load_suite(suite_doc, tools, schemas["suite"])
    bad: dict[int, str] = {}
    for path, reason in problems:
        match = re.match(r"^\$\.cases\[(\d+)\](.*)$", path or "")
        if match:
            bad.setdefault(int(match.group(1)), f"{match.group(2) or 'case'}: {reason}".lstrip("."))
    kept = [c for i, c in enumerate(cases) if i not in bad]
    skipped.extend((cases[i]["id"], reason) for i, reason in sorted(bad.items()))
    used = {name for c in kept for name in c["tools"]}
    tools_doc["tools"] = [t for t in tools_doc["tools"] if t.get("id", t["name"]) in used]
    suite_doc["cases"] = kept
    return BfclImport(tools_doc, suite_doc, skipped)
