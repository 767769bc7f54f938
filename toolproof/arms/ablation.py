"""Ablations: a tools document with one part of what the model is shown taken away or made opaque.

An ablation answers "which part of my definitions carries the results?": run an arm that sees the
catalogue without descriptions, with opaque names, without enums ... and compare it with the
baseline. Operators (names fixed: arm files, the CLI and checks outside the test suite use them):
- `descriptions`: every tool's description becomes "";
- `param_descriptions`: every `description` keyword inside each tool's parameters schema goes, at
  every depth (a property *named* "description" stays; only its own description keyword goes);
- `names`: tool names become `tool_1`, `tool_2` ... in catalogue order (the file's, whatever `order`
  does, so the map back needs no seed); each entry keeps its id (set to the original name when it
  had none, placed first), so cases still reference it;
- `param_names`: each tool's top-level properties become `arg_0`, `arg_1` ... in their order in
  `properties`; every place naming them at the top (`required`, `dependentRequired`,
  `dependentSchemas`, `dependencies`, the same keywords in the root's allOf/anyOf/oneOf/not/
  if/then/else, a `$ref` into them) is renamed to match; nested properties stay;
- `enums`: every `enum` and `const` keyword goes, at every depth;
- `types`: every `type` keyword goes, at every depth, except the parameters root's (providers
  require `"type": "object"` there);
- `order`: the catalogue's tool order shuffled (Fisher-Yates on SeededDraws: the same seed gives
  the same bytes in the page and in the terminal); `offer_order` shuffles one case's offer.
Everything an operator does not name is copied unchanged, key order included, so the JSON text of
every untouched part is identical. Schemas are walked with an explicit stack (a schema nested
thousands of levels deep cannot exhaust the interpreter's recursion), and only through the
keywords that hold subschemas: a `default`, `examples` or `enum` value is data, never edited.

`unmask_map` (with grading/unmask.py's `unmask_call`) turns a model's call under opaque names back into the catalogue's
names before grading, so a verdict measures what was shown, not the rename.

Pure: no I/O, no `random` (SeededDraws only). Must not decide which tools a case offers, nor grade.
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from toolproof.errors import ToolProofError, clip
from toolproof.safe_text import printable
from toolproof.scoring.stats import SeededDraws, keyed_draws, shuffled

OPERATORS = ("descriptions", "param_descriptions", "names", "param_names", "enums", "types", "order")

# Keywords whose values are subschemas (as suite/schema_guard.py walks them). Any other keyword's
# value is data: `{"default": {"description": "x"}}` holds no description keyword.
_IN_PLACE_LISTS = ("allOf", "anyOf", "oneOf")          # applied to the same value as their parent
_IN_PLACE_ONE = ("not", "if", "then", "else")
_LISTS = _IN_PLACE_LISTS + ("prefixItems", "items")
_ONE = _IN_PLACE_ONE + ("additionalProperties", "items", "contains", "propertyNames", "unevaluatedItems",
                        "unevaluatedProperties", "contentSchema", "additionalItems")
_MAPS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
_REFS = ("$ref", "$dynamicRef", "$recursiveRef")
_ESCAPED = re.compile(r"(?:%[0-9A-Fa-f]{2})+")

# What a value is, for the walk: it decides which of its keys are keywords and what its children are.
DATA = "data"                  # copied as it is
SCHEMA = "schema"              # a subschema
ROOT = "root"                  # a tool's parameters (a schema whose properties param_names renames)
SCOPE = "scope"                # a subschema applied to the root's own value (its allOf, not, if ...)
SCHEMAS, SCOPES = "schemas", "scopes"                  # lists of those
MAP = "map"                    # {name: subschema}
RENAMED_MAP = "renamed map"    # the same, keyed by the root's property names (renamed)
DEPS, RENAMED_DEPS = "deps", "renamed deps"            # `dependencies`: {name: subschema or [names]}
RENAMED_REQUIRED = "renamed required"                  # `dependentRequired` at the root: {name: [names]}
NAMES = "names"                # a list of the root's property names (`required`)


@dataclass(frozen=True)
class _Plan:
    """What the walk does to one tool's parameters."""
    drop: frozenset = frozenset()        # keywords removed from every subschema
    rename: dict | None = None           # the root's property names -> arg_k (param_names)
    root: Any = None                     # the original parameters, for resolving a $ref
    scope: frozenset = frozenset()       # ids of the original root and its in-place subschemas


def parse_ablate(text: str) -> tuple[str, ...]:
    """Operators joined with "+" ("descriptions+order"), in OPERATORS order, once each; a
    ToolProofError naming an unknown or blank part and listing the valid ones."""
    valid = f"name one or more of {', '.join(OPERATORS)}, joined with \"+\""
    if not isinstance(text, str) or not text.strip():
        raise ToolProofError(f"no ablation given: {valid}")
    parts = [part.strip() for part in text.split("+")]
    for part in parts:
        if not part:
            raise ToolProofError(f"blank part in ablation '{clip(printable(text.strip()), 40)}': {valid}")
        if part not in OPERATORS:
            raise ToolProofError(f"unknown ablation '{clip(printable(part), 40)}': {valid}")
    return tuple(op for op in OPERATORS if op in parts)


def ablate_document(doc: dict, operators: tuple, seed: int = 0) -> dict:
    """A new tools document showing what is left after `operators` (the input is never changed);
    `seed` drives `order`."""
    tools = doc.get("tools") if isinstance(doc, dict) else None
    if not isinstance(tools, list):
        raise ToolProofError("a tools document is an object with a \"tools\" list")
    ops = _checked(operators)
    out = {}
    for key, value in doc.items():
        out[key] = [_ablated_tool(entry, i, ops) for i, entry in enumerate(tools)] if key == "tools" \
            else _rebuild(value, DATA, _Plan())
    if "order" in ops:
        out["tools"] = shuffled(out["tools"], SeededDraws(seed))
    return out


def unmask_map(doc: dict, operators: tuple) -> dict:
    """{shown name: {"name": original name, "params": {arg_k: original name}}} for every tool of
    the ORIGINAL `doc` whose name or parameter names `operators` change ({} when neither `names`
    nor `param_names` is given). Two entries that share a name and get different maps cannot be
    told apart by that name: a ToolProofError (build the map from one case's offer, where names
    never repeat, or use `names`)."""
    ops = _checked(operators)
    if "names" not in ops and "param_names" not in ops:
        return {}
    tools = doc.get("tools") if isinstance(doc, dict) else None
    out: dict = {}
    for i, entry in enumerate(tools if isinstance(tools, list) else []):
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
            continue
        name = entry["name"]
        shown = _opaque_name(i) if "names" in ops else name
        params = {new: old for old, new in _param_names(entry.get("parameters")).items()} \
            if "param_names" in ops else {}
        if shown == name and all(k == v for k, v in params.items()):
            continue                     # nothing this tool shows was renamed
        mapped = {"name": name, "params": params}
        if out.get(shown, mapped) != mapped:
            raise ToolProofError(f"tools named '{clip(printable(name), 40)}' have different parameters; "
                                 "param_names cannot map their calls back by name (add names, or build "
                                 "the map from one case's offer)")
        out[shown] = mapped
    return out


def offer_order(names: list[str], seed: int, salt: str) -> list[str]:
    """One case's offer shuffled as `order` shuffles the catalogue, drawn from the seed and the
    case id (`salt`) as a sweep draws its order (stats.keyed_draws: hashed, the same in CPython
    and Pyodide; Python's hash() of a text changes from process to process)."""
    return shuffled(list(names), keyed_draws(seed, "offer", salt))


def _checked(operators: tuple | str) -> frozenset:
    if isinstance(operators, str):
        return frozenset(parse_ablate(operators))
    unknown = [op for op in operators if op not in OPERATORS]
    if unknown:
        return frozenset(parse_ablate("+".join(str(op) for op in operators)))   # raises, naming it
    return frozenset(operators)


def _opaque_name(index: int) -> str:
    return f"tool_{index + 1}"


def _param_names(parameters: Any) -> dict:
    """The root's property names -> arg_k, in their order in `properties`."""
    properties = parameters.get("properties") if isinstance(parameters, dict) else None
    return {name: f"arg_{k}" for k, name in enumerate(properties)} if isinstance(properties, dict) else {}


def _ablated_tool(entry: Any, index: int, ops: frozenset) -> Any:
    """One catalogue entry as shown: its own keys in their order, parameters walked by the plan."""
    if not isinstance(entry, dict):
        return _rebuild(entry, DATA, _Plan())
    plan = _plan(entry.get("parameters"), ops)
    out = {}
    if "names" in ops and "id" not in entry and "name" in entry:
        out["id"] = entry["name"]        # cases reference the id, which defaulted to the name
    for key, value in entry.items():
        if key == "name" and "names" in ops:
            out[key] = _opaque_name(index)
        elif key == "description" and "descriptions" in ops:
            out[key] = ""
        elif key == "parameters":
            out[key] = _rebuild(value, ROOT, plan)
        else:
            out[key] = _rebuild(value, DATA, _Plan())
    return out


def _plan(parameters: Any, ops: frozenset) -> _Plan:
    drop = {"description"} if "param_descriptions" in ops else set()
    drop |= {"enum", "const"} if "enums" in ops else set()
    drop |= {"type"} if "types" in ops else set()
    rename = _param_names(parameters) if "param_names" in ops else {}
    if not rename:
        return _Plan(frozenset(drop))
    return _Plan(frozenset(drop), rename, parameters, frozenset(_scope_ids(parameters)))


def _scope_ids(root: Any) -> set[int]:
    """The root and every subschema applied to the root's own value through in-place keywords."""
    seen, stack = set(), [root]
    while stack:
        node = stack.pop()
        if not isinstance(node, dict) or id(node) in seen:
            continue
        seen.add(id(node))
        for keyword in _IN_PLACE_LISTS:
            if isinstance(node.get(keyword), list):
                stack.extend(node[keyword])
        stack.extend(node.get(keyword) for keyword in _IN_PLACE_ONE)
    return seen


def _rebuild(value: Any, ctx: str, plan: _Plan) -> Any:
    """A copy of `value` (a `ctx` value) with the plan applied, built with an explicit stack.
    Each container is inserted into its parent empty, in order, and filled later, so key order is
    kept. A container reached twice in one context is copied once (as copy.deepcopy does), so a
    structure built in memory with a cycle still ends."""
    if not isinstance(value, (dict, list)):
        return value
    top = {} if isinstance(value, dict) else []
    memo = {(id(value), ctx): top}
    stack = [(value, ctx, top)]
    while stack:
        src, kind, dst = stack.pop()
        for key, child, child_ctx in _children(src, kind, plan):
            if child_ctx is not None and isinstance(child, (dict, list)):
                made = memo.get((id(child), child_ctx))
                if made is None:
                    made = memo[(id(child), child_ctx)] = {} if isinstance(child, dict) else []
                    stack.append((child, child_ctx, made))
                child = made
            if isinstance(dst, dict):
                dst[key] = child
            else:
                dst.append(child)
    return top


Child = tuple  # (key or index, value, its context; None: insert the value as it is)


def _children(src: Any, ctx: str, plan: _Plan) -> Iterator[Child]:
    """What one value's copy holds, in order: (key, value, context)."""
    items = src.items() if isinstance(src, dict) else enumerate(src)
    if ctx in (SCHEMA, ROOT, SCOPE) and isinstance(src, dict):
        yield from _schema_children(src, ctx, plan)
    elif ctx == NAMES and isinstance(src, list):
        rename = plan.rename or {}
        yield from ((i, rename.get(v, v) if isinstance(v, str) else v, DATA) for i, v in items)
    elif ctx in (SCHEMAS, SCOPES) and isinstance(src, list):
        item_ctx = SCOPE if ctx == SCOPES else SCHEMA
        yield from ((i, v, item_ctx if isinstance(v, dict) else DATA) for i, v in items)
    elif ctx in (MAP, RENAMED_MAP, DEPS, RENAMED_DEPS, RENAMED_REQUIRED) and isinstance(src, dict):
        renamed = ctx in (RENAMED_MAP, RENAMED_DEPS, RENAMED_REQUIRED)
        rename = plan.rename or {}
        for key, v in items:
            new_key = rename.get(key, key) if renamed else key
            if isinstance(v, dict) and ctx != RENAMED_REQUIRED:
                yield new_key, v, SCHEMA
            elif isinstance(v, list) and ctx in (RENAMED_DEPS, RENAMED_REQUIRED):
                yield new_key, v, NAMES
            else:
                yield new_key, v, DATA
    else:
        yield from ((k, v, DATA) for k, v in items)


def _schema_children(node: dict, ctx: str, plan: _Plan) -> Iterator[Child]:
    in_scope = ctx in (ROOT, SCOPE) and plan.rename is not None
    for key, value in node.items():
        if key in plan.drop and not (key == "type" and ctx == ROOT):    # providers require it there
            continue
        if plan.rename and key in _REFS and isinstance(value, str):
            yield key, _renamed_ref(value, plan), None
        else:
            yield key, value, _keyword_ctx(key, value, in_scope)


def _keyword_ctx(key: str, value: Any, in_scope: bool) -> str:
    """The context of a schema keyword's value (in_scope: the schema applies to the root's value)."""
    if isinstance(value, dict):
        if key in _ONE:
            return SCOPE if in_scope and key in _IN_PLACE_ONE else SCHEMA
        if in_scope and key in ("properties", "dependentSchemas"):
            return RENAMED_MAP
        if key == "dependencies":
            return RENAMED_DEPS if in_scope else DEPS
        if in_scope and key == "dependentRequired":
            return RENAMED_REQUIRED
        return MAP if key in _MAPS else DATA
    if isinstance(value, list):
        if key in _LISTS:
            return SCOPES if in_scope and key in _IN_PLACE_LISTS else SCHEMAS
        return NAMES if in_scope and key == "required" else DATA
    return DATA


def _renamed_ref(ref: str, plan: _Plan) -> str:
    """A same-document pointer into a renamed property, pointing at its new name; any other text
    unchanged. Decoded as suite/schema_guard.py resolves it (percent, then ~1 and ~0)."""
    if not ref.startswith("#/"):
        return ref
    tokens = [t.replace("~1", "/").replace("~0", "~") for t in _unquote(ref[2:]).split("/")]
    node, changed, i = plan.root, False, 0
    while i < len(tokens):
        token = tokens[i]
        if (isinstance(node, dict) and id(node) in plan.scope and token == "properties"
                and i + 1 < len(tokens) and tokens[i + 1] in plan.rename):
            # read on in the original schema, under the original name, then write the new one
            node = node.get("properties", {}).get(tokens[i + 1])
            tokens[i + 1], changed, i = plan.rename[tokens[i + 1]], True, i + 2
            continue
        if isinstance(node, dict):
            node = node.get(token)
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            node = None
        i += 1
    if not changed:
        return ref
    return "#/" + "/".join(t.replace("~", "~0").replace("/", "~1") for t in tokens)


def _unquote(text: str) -> str:
    """Percent-decoding of a URI fragment (as suite/schema_guard.py decodes it)."""
    return _ESCAPED.sub(lambda m: bytes.fromhex(m.group().replace("%", "")).decode("utf-8", "replace"), text)
