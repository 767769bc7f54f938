"""arms/ablation.py: each operator changes exactly what it names, and nothing else, byte for byte.

The oracle is a generic tree diff of the original and the ablated document: every changed path must
be of the operator's kind, every place of that kind must have changed, and removing exactly the
changed paths from the original must give the ablated document's JSON text (so key order holds).
"""
from __future__ import annotations

import copy
import json

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from toolproof.arms.ablation import (
    OPERATORS,
    ablate_document,
    offer_order,
    parse_ablate,
    unmask_map,
)
from toolproof.datafiles import DATA, format_schema, json_from_text, read_json
from toolproof.errors import ToolProofError
from toolproof.grading.unmask import unmask_call, unmask_reply
from toolproof.providers.reply import Call, Reply
from toolproof.suite.load import load_tools, parse_tools

TOOLS = read_json(DATA / "tools.json")
FORMAT = format_schema("tools")
SHAPE = ("descriptions", "param_descriptions", "names", "param_names", "enums", "types")   # all but order
VALID = 'name one or more of descriptions, param_descriptions, names, param_names, enums, types, order, joined with "+"'


def dumps(value) -> str:
    return json.dumps(value, ensure_ascii=False)


# --- the oracle: a tree diff, and where JSON Schema keywords sit --------------------------------------

def tree_diff(a, b) -> list[tuple[str, tuple]]:
    """(kind, path) for every difference: 'removed' / 'added' keys, 'changed' values (or types),
    'reordered' objects (same keys, another order), 'length' of lists. Walked with a stack."""
    found, stack = [], [(a, b, ())]
    while stack:
        x, y, path = stack.pop()
        if isinstance(x, dict) and isinstance(y, dict):
            found += [("removed", path + (k,)) for k in x if k not in y]
            found += [("added", path + (k,)) for k in y if k not in x]
            if [k for k in x if k in y] != [k for k in y if k in x]:
                found.append(("reordered", path))
            stack += [(x[k], y[k], path + (k,)) for k in x if k in y]
        elif isinstance(x, list) and isinstance(y, list):
            if len(x) != len(y):
                found.append(("length", path))
            stack += [(p, q, path + (i,)) for i, (p, q) in enumerate(zip(x, y))]
        elif type(x) is not type(y) or x != y:
            found.append(("changed", path))
    return sorted(found, key=repr)


SUB_MAPS = {"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"}
SUB_LISTS = {"allOf", "anyOf", "oneOf", "prefixItems", "items"}
SUB_ONE = {"not", "if", "then", "else", "additionalProperties", "items", "contains", "propertyNames",
           "unevaluatedItems", "unevaluatedProperties", "contentSchema", "additionalItems"}


def keyword_places(parameters, keywords: set) -> list[tuple]:
    """Paths (inside `parameters`) of every schema keyword in `keywords`, at every depth, found by
    an independent walk (a recursive one: test documents are shallow)."""
    out = []

    def schema(node, path):
        if not isinstance(node, dict):
            return
        for key, value in node.items():
            if key in keywords:
                out.append(path + (key,))
            if (key in SUB_MAPS or key == "dependencies") and isinstance(value, dict):
                for name, sub in value.items():
                    schema(sub, path + (key, name))
            elif key in SUB_LISTS and isinstance(value, list):
                for i, sub in enumerate(value):
                    schema(sub, path + (key, i))
            elif key in SUB_ONE and isinstance(value, dict):
                schema(value, path + (key,))

    schema(parameters, ())
    return out


def without(doc, paths) -> dict:
    """A copy of `doc` with the keys at `paths` deleted."""
    out = copy.deepcopy(doc)
    for path in sorted(paths, key=len, reverse=True):
        node = out
        for part in path[:-1]:
            node = node[part]
        del node[path[-1]]
    return out


def removed_keywords(doc, keywords: set, *, keep_root=()) -> list[tuple]:
    return sorted((("tools", i, "parameters") + p for i, t in enumerate(doc["tools"])
                   for p in keyword_places(t["parameters"], keywords) if p not in keep_root), key=repr)


def assert_only_removed(doc, operator: str, keywords: set, *, keep_root=()):
    ablated = ablate_document(doc, (operator,))
    diff = tree_diff(doc, ablated)
    places = removed_keywords(doc, keywords, keep_root=keep_root)
    assert diff == sorted((("removed", p) for p in places), key=repr)
    assert dumps(ablated) == dumps(without(doc, places))     # key order and every untouched byte kept
    return ablated


def loads(doc) -> dict:
    return parse_tools(doc, FORMAT, "ablated")


# --- each operator on the bundled catalogue -----------------------------------------------------

def test_descriptions_empties_every_tool_description_and_nothing_else():
    ablated = ablate_document(TOOLS, ("descriptions",))
    assert tree_diff(TOOLS, ablated) == sorted((("changed", ("tools", i, "description"))
                                                for i in range(len(TOOLS["tools"]))), key=repr)
    assert all(t["description"] == "" for t in ablated["tools"])
    assert ablated["tools"][0]["parameters"] == TOOLS["tools"][0]["parameters"]
    # The tools format asks for a non-empty description, so parse_tools refuses exactly that, and
    # only that: every entry still loads once the format check is set aside (what a provider gets).
    with pytest.raises(ToolProofError) as refused:
        loads(ablated)
    assert refused.value.line() == "ablated: at $.tools[0].description: '' should be non-empty"
    tools, problems = load_tools(ablated, FORMAT, "ablated", checked=True)
    assert problems == [] and len(tools) == len(TOOLS["tools"])
    assert {t.description for t in tools.values()} == {""}


def test_param_descriptions_removes_the_keyword_at_every_depth():
    ablated = assert_only_removed(TOOLS, "param_descriptions", {"description"})
    assert len(removed_keywords(TOOLS, {"description"})) > 100
    # a nested one too (create_event's attendees[].email)
    assert TOOLS["tools"][0]["parameters"]["properties"]["attendees"]["items"]["properties"]["email"]["description"]
    assert "description" not in ablated["tools"][0]["parameters"]["properties"]["attendees"]["items"]["properties"]["email"]
    assert loads(ablated).keys() == loads(TOOLS).keys()


def test_enums_removes_enum_and_const_at_every_depth():
    ablated = assert_only_removed(TOOLS, "enums", {"enum", "const"})
    assert len(removed_keywords(TOOLS, {"enum", "const"})) >= 30
    assert "enum" not in dumps(ablated["tools"]) and loads(ablated).keys() == loads(TOOLS).keys()


def test_types_removes_every_type_but_the_roots():
    ablated = assert_only_removed(TOOLS, "types", {"type"}, keep_root=[("type",)])
    assert all(t["parameters"]["type"] == "object" for t in ablated["tools"])
    assert dumps(ablated).count('"type"') == len(TOOLS["tools"])
    assert loads(ablated).keys() == loads(TOOLS).keys()


def test_names_become_opaque_in_catalogue_order_and_ids_keep_what_cases_reference():
    ablated = ablate_document(TOOLS, ("names",))
    expected = []
    for i, tool in enumerate(TOOLS["tools"]):
        expected.append(("changed", ("tools", i, "name")))
        if "id" not in tool:
            expected.append(("added", ("tools", i, "id")))
    assert tree_diff(TOOLS, ablated) == sorted(expected, key=repr)
    assert [t["name"] for t in ablated["tools"]] == [f"tool_{i}" for i in range(1, len(TOOLS["tools"]) + 1)]
    shown, original = loads(ablated), loads(TOOLS)
    assert list(shown) == list(original)                       # the same ids, in the same order
    at = next(i for i, t in enumerate(TOOLS["tools"]) if t.get("id") == "search@drive")
    assert shown["search@drive"].name == f"tool_{at + 1}" and original["search@drive"].name == "drive__search"
    # an added id goes first (as the bundled entries that have one write it), the rest in order
    assert list(ablated["tools"][0]) == ["id", *TOOLS["tools"][0]]


def test_param_names_renames_the_top_level_and_required_only():
    ablated = ablate_document(TOOLS, ("param_names",))
    for before, after in zip(TOOLS["tools"], ablated["tools"]):
        props = list(before["parameters"].get("properties", {}))
        renamed = {name: f"arg_{k}" for k, name in enumerate(props)}
        assert list(after["parameters"]["properties"]) == list(renamed.values())
        # undone by an independent walk, the shown schema is the original byte for byte: the
        # values and everything nested under them never changed, only the top-level names
        inverse = {new: old for old, new in renamed.items()}
        assert dumps(undo_param_names(after["parameters"], inverse)) == dumps(before["parameters"])
    changed = {(kind, path[2:4]) for kind, path in tree_diff(TOOLS, ablated)}
    assert changed == {("removed", ("parameters", "properties")), ("added", ("parameters", "properties")),
                       ("changed", ("parameters", "required"))}
    assert loads(ablated).keys() == loads(TOOLS).keys()


def test_order_shuffles_the_catalogue_and_changes_nothing_inside_an_entry():
    ablated = ablate_document(TOOLS, ("order",), seed=5)
    assert {k: v for k, v in ablated.items() if k != "tools"} == {k: v for k, v in TOOLS.items() if k != "tools"}
    assert sorted(map(dumps, ablated["tools"])) == sorted(map(dumps, TOOLS["tools"]))
    assert ablated["tools"] != TOOLS["tools"]
    assert list(loads(ablated)) != list(loads(TOOLS)) and loads(ablated).keys() == loads(TOOLS).keys()


@pytest.mark.parametrize("operator", OPERATORS)
def test_an_operator_never_changes_its_input(operator):
    before = dumps(TOOLS)
    ablated = ablate_document(TOOLS, (operator,), seed=3)
    assert dumps(TOOLS) == before
    ablated["tools"][0]["parameters"]["properties"].clear()  # nothing shared with the input either
    assert dumps(TOOLS) == before


def test_all_operators_together_still_load_but_for_the_empty_descriptions():
    everything = tuple(op for op in OPERATORS if op != "descriptions")
    ablated = ablate_document(TOOLS, everything, seed=9)
    assert set(loads(ablated)) == set(loads(TOOLS))
    mapping = unmask_map(TOOLS, everything)
    assert set(mapping) == {f"tool_{i}" for i in range(1, len(TOOLS["tools"]) + 1)}


# --- edge cases of the schema walk -------------------------------------------------------------

def tools_doc(*tools) -> dict:
    return {"format": "toolproof.tools", "version": 1, "tools": list(tools)}


def tool(name="t", parameters=None, **extra) -> dict:
    return {"name": name, "description": "does t", "parameters": parameters or {"type": "object"}, **extra}


def test_a_property_named_description_stays_and_loses_only_its_own_description():
    params = {"type": "object",
              "properties": {"description": {"type": "string", "description": "what the ticket says", "enum": ["a"]},
                             "type": {"const": "bug", "description": "kind"},
                             "enum": {"type": "array", "default": {"description": "data, not a keyword"}}},
              "required": ["description", "type"]}
    doc = tools_doc(tool(parameters=params))
    out = ablate_document(doc, ("param_descriptions",))["tools"][0]["parameters"]
    assert out == {"type": "object",
                   "properties": {"description": {"type": "string", "enum": ["a"]}, "type": {"const": "bug"},
                                  "enum": {"type": "array", "default": {"description": "data, not a keyword"}}},
                   "required": ["description", "type"]}
    out = ablate_document(doc, ("enums", "types"))["tools"][0]["parameters"]
    assert out["properties"] == {"description": {"description": "what the ticket says"},
                                 "type": {"description": "kind"},
                                 "enum": {"default": {"description": "data, not a keyword"}}}
    assert out["type"] == "object"


def test_param_names_follows_every_place_that_names_a_top_level_property():
    params = {"type": "object", "$defs": {"d": {"type": "string"}},
              "properties": {"a/b": {"$ref": "#/$defs/d"}, "c": {"type": "object", "properties": {"a/b": {}}},
                             "e": {"$ref": "#/properties/a~1b"}},
              "required": ["c", "missing"],
              "anyOf": [{"required": ["a/b"]}, {"properties": {"c": {"minProperties": 1}}, "required": ["c"]}],
              "dependentRequired": {"c": ["e"]}, "dependencies": {"e": ["c"]}}
    doc = tools_doc(tool(parameters=params))
    out = ablate_document(doc, ("param_names",))["tools"][0]["parameters"]
    assert out == {"type": "object", "$defs": {"d": {"type": "string"}},
                   "properties": {"arg_0": {"$ref": "#/$defs/d"}, "arg_1": {"type": "object", "properties": {"a/b": {}}},
                                  "arg_2": {"$ref": "#/properties/arg_0"}},
                   "required": ["arg_1", "missing"],
                   "anyOf": [{"required": ["arg_0"]}, {"properties": {"arg_1": {"minProperties": 1}}, "required": ["arg_1"]}],
                   "dependentRequired": {"arg_1": ["arg_2"]}, "dependencies": {"arg_2": ["arg_1"]}}
    assert loads(ablate_document(doc, ("param_names",)))["t"].parameters == out
    assert unmask_map(doc, ("param_names",)) == {"t": {"name": "t", "params": {"arg_0": "a/b", "arg_1": "c", "arg_2": "e"}}}


def test_a_pointer_that_names_no_renamed_property_is_left_as_written():
    params = {"type": "object", "$defs": {"x": {"type": "string"}},
              "properties": {"x": {"$ref": "#/%24defs/x"}, "y": {"$ref": "#/properties/nothing"}}}
    out = ablate_document(tools_doc(tool(parameters=params)), ("param_names",))["tools"][0]["parameters"]
    assert out["properties"] == {"arg_0": {"$ref": "#/%24defs/x"}, "arg_1": {"$ref": "#/properties/nothing"}}


def test_a_tools_document_is_required():
    for bad in (None, [], {"tools": {}}, {"format": "toolproof.tools"}):
        with pytest.raises(ToolProofError) as refused:
            ablate_document(bad, ("names",))
        assert str(refused.value) == 'a tools document is an object with a "tools" list'


def test_malformed_entries_are_copied_as_they_are():
    doc = tools_doc("not a tool", {"name": "x", "parameters": ["not", "a", "schema"]}, tool())
    out = ablate_document(doc, OPERATORS[:-1])
    assert out["tools"][:2] == ["not a tool", {"id": "x", "name": "tool_2", "parameters": ["not", "a", "schema"]}]
    assert out["tools"][2]["name"] == "tool_3"


# --- determinism of the shuffles ---------------------------------------------------------------

def test_the_same_seed_gives_the_same_bytes_and_another_seed_another_order():
    first = dumps(ablate_document(TOOLS, ("order", "names"), seed=11))
    assert dumps(ablate_document(copy.deepcopy(TOOLS), ("order", "names"), seed=11)) == first
    orders = {tuple(t["id"] for t in ablate_document(TOOLS, ("order", "names"), seed=s)["tools"]) for s in range(20)}
    assert len(orders) == 20


def test_offer_order_is_pinned_and_salted_by_the_case():
    # Pinned: SplitMix64 keyed by SHA-256 (stats.keyed_draws) gives these on CPython and Pyodide alike; a change here
    # reorders every recorded run's offers.
    assert offer_order(list("abcde"), 7, "case-1") == ["a", "e", "d", "b", "c"]
    assert offer_order(list("abcde"), 7, "case-2") == ["c", "b", "a", "d", "e"]
    assert offer_order(list("abcde"), 8, "case-1") == ["c", "e", "b", "d", "a"]
    names = [f"t{i}" for i in range(8)]
    assert offer_order(names, 1, "x") == offer_order(list(names), 1, "x")
    assert sorted(offer_order(names, 1, "x")) == names and names == [f"t{i}" for i in range(8)]
    assert len({tuple(offer_order(names, 1, f"case-{i}")) for i in range(20)}) >= 18
    assert offer_order([], 1, "x") == [] and offer_order(["only"], 1, "\ud800") == ["only"]


def test_every_order_of_three_is_drawn():
    seen = {tuple(offer_order(["a", "b", "c"], seed, "s")) for seed in range(200)}
    assert len(seen) == 6


# --- parse_ablate ------------------------------------------------------------------------------

@pytest.mark.parametrize("text, operators", [
    ("descriptions", ("descriptions",)),
    ("order+descriptions", ("descriptions", "order")),
    ("names + param_names+names", ("names", "param_names")),
    ("+".join(reversed(OPERATORS)), OPERATORS),
])
def test_parse_ablate_reads_operators_in_their_fixed_order(text, operators):
    assert parse_ablate(text) == operators


@pytest.mark.parametrize("text, message", [
    ("", f"no ablation given: {VALID}"),
    ("   ", f"no ablation given: {VALID}"),
    ("names++order", f"blank part in ablation 'names++order': {VALID}"),
    ("names+", f"blank part in ablation 'names+': {VALID}"),
    ("names+Order", f"unknown ablation 'Order': {VALID}"),
    ("description", f"unknown ablation 'description': {VALID}"),
    ("names+\x1b[31mred", f"unknown ablation '\\x1b[31mred': {VALID}"),
    ("x" * 100, f"unknown ablation '{'x' * 40}… (60 more)': {VALID}"),
])
def test_parse_ablate_refuses_with_one_clear_line(text, message):
    with pytest.raises(ToolProofError) as refused:
        parse_ablate(text)
    assert str(refused.value) == message


def test_unknown_operators_are_refused_by_every_entry_point():
    for call in (lambda: ablate_document(TOOLS, ("names", "colours")), lambda: unmask_map(TOOLS, ("colours",))):
        with pytest.raises(ToolProofError) as refused:
            call()
        assert str(refused.value) == f"unknown ablation 'colours': {VALID}"
    assert unmask_map(TOOLS, "names+order") == unmask_map(TOOLS, ("names",))


# --- unmasking ---------------------------------------------------------------------------------

def test_unmask_map_is_empty_without_a_rename():
    assert unmask_map(TOOLS, ("descriptions", "enums", "types", "order")) == {}


def test_unmask_call_turns_names_and_arguments_back():
    mapping = unmask_map(TOOLS, ("names", "param_names"))
    call = Call("tool_1", {"arg_1": "2026-03-04", "arg_0": "Sync", "extra": 1}, '{"arg_1": ...}', None, "c1")
    back = unmask_call(call, mapping)
    assert back == Call("create_event", {"date": "2026-03-04", "title": "Sync", "extra": 1}, '{"arg_1": ...}', None, "c1")
    assert list(back.arguments) == ["date", "title", "extra"]
    assert unmask_call(Call("tool_999", {"arg_0": 1}), mapping) == Call("tool_999", {"arg_0": 1})   # hallucinated
    assert unmask_call(Call("tool_1", None, "{", "bad json"), mapping) == Call("create_event", None, "{", "bad json")
    # an original name sent beside the renamed key it stands for: the shown key's value is kept
    assert unmask_call(Call("tool_1", {"title": "x", "arg_0": "y"}), mapping).arguments == {"title": "y"}


def test_unmask_call_reads_a_wire_name():
    doc = tools_doc(tool("git.status", {"type": "object", "properties": {"path": {"type": "string"}}}))
    mapping = unmask_map(doc, ("param_names",))
    assert mapping == {"git.status": {"name": "git.status", "params": {"arg_0": "path"}}}
    assert unmask_call(Call("git_status", {"arg_0": "."}), mapping) == Call("git.status", {"path": "."})


def test_unmask_reply_unmasks_every_call_and_keeps_the_rest():
    mapping = unmask_map(TOOLS, ("names",))
    reply = Reply(calls=(Call("tool_2", {}), Call("nope", {})), text="hi", finish_reason="tool_calls")
    assert unmask_reply(reply, mapping) == Reply(calls=(Call(TOOLS["tools"][1]["name"], {}), Call("nope", {})),
                                                 text="hi", finish_reason="tool_calls")
    assert unmask_reply(reply, {}) is reply


def test_entries_that_share_a_name_need_one_parameter_map():
    same = {"type": "object", "properties": {"q": {}}}
    doc = tools_doc(tool("search", same, id="a"), tool("search", same, id="b"))
    assert unmask_map(doc, ("param_names",)) == {"search": {"name": "search", "params": {"arg_0": "q"}}}
    doc["tools"][1]["parameters"] = {"type": "object", "properties": {"query": {}}}
    with pytest.raises(ToolProofError) as refused:
        unmask_map(doc, ("param_names",))
    assert str(refused.value) == ("tools named 'search' have different parameters; param_names cannot map their "
                                  "calls back by name (add names, or build the map from one case's offer)")
    assert set(unmask_map(doc, ("names", "param_names"))) == {"tool_1", "tool_2"}


# --- hostile input -----------------------------------------------------------------------------

def nested(depth: int) -> dict:
    """A parameters schema `depth` levels of items/properties deep, with keywords at every level."""
    node: dict = {"type": "string", "description": "leaf", "enum": ["x"]}
    for i in range(depth):
        node = {"type": "array", "description": f"level {i}", "items": {"type": "object", "properties": {"description": node}},
                "default": {"description": {"description": i}}}
    return {"type": "object", "properties": {"deep": node}}


def depth_of(value) -> int:
    deepest, stack = 0, [(value, 0)]
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        children = node.values() if isinstance(node, dict) else node if isinstance(node, list) else ()
        stack += [(child, depth + 1) for child in children]
    return deepest


# 200 levels as a hostile file might hold (the reading limits stop any file at 64: the next test);
# 3,000 levels (9,000 nested containers) is many times the interpreter's recursion limit, which a
# recursive walk would hit: the explicit stack never does.
@pytest.mark.parametrize("depth", [200, 3_000])
def test_deep_nesting_is_walked_without_recursion(depth):
    doc = tools_doc(tool(parameters=nested(depth)))
    for operators in (("param_descriptions",), ("enums", "types"), ("names", "param_names")):
        out = ablate_document(doc, operators)
        assert depth_of(out) >= depth_of(doc) - 1        # the leaf's enum list may go
    out = ablate_document(doc, ("param_descriptions", "enums", "types"))["tools"][0]["parameters"]["properties"]["deep"]
    for level in reversed(range(depth)):    # every level lost its keywords and kept its data
        assert list(out) == ["items", "default"] and out["default"] == {"description": {"description": level}}
        assert list(out["items"]) == ["properties"]
        out = out["items"]["properties"]["description"]
    assert out == {}


def test_a_file_that_deep_never_reaches_the_operators():
    text = json.dumps(tools_doc(tool(parameters=nested(40))))
    with pytest.raises(ToolProofError) as refused:
        json_from_text(text, "deep.json")
    assert str(refused.value) == "deep.json: file nested deeper than 64 levels"


def test_a_structure_built_with_a_cycle_still_ends():
    params: dict = {"type": "object", "properties": {}}
    params["properties"]["self"] = params
    out = ablate_document(tools_doc(tool(parameters=params)), ("types",))["tools"][0]["parameters"]
    assert out["type"] == "object" and "type" not in out["properties"]["self"]    # below the root: a subschema
    assert out["properties"]["self"]["properties"]["self"] is out["properties"]["self"]


def test_a_thousand_tools():
    doc = tools_doc(*(tool(f"t{i}", {"type": "object", "properties": {"a": {"type": "string", "enum": ["x"]}}})
                      for i in range(1000)))
    ops = ("names", "param_names", "enums", "order")
    out = ablate_document(doc, ops, seed=2)
    assert len(loads(out)) == 1000 and sorted(t["id"] for t in out["tools"]) == sorted(f"t{i}" for i in range(1000))
    mapping = unmask_map(doc, ops)
    assert len(mapping) == 1000 and mapping["tool_1000"] == {"name": "t999", "params": {"arg_0": "a"}}


def test_control_characters_in_names_are_kept_verbatim_unless_names():
    name = "a\x1b[2J\u202eb\x00"
    doc = tools_doc(tool(name, {"type": "object", "properties": {"\x07p": {"type": "string"}}}))
    for operators in (("descriptions",), ("param_descriptions", "enums", "types", "order")):
        assert ablate_document(doc, operators)["tools"][0]["name"] == name
    out = ablate_document(doc, ("names", "param_names"))["tools"][0]
    assert (out["id"], out["name"], list(out["parameters"]["properties"])) == (name, "tool_1", ["arg_0"])
    assert unmask_call(Call("tool_1", {"arg_0": 1}), unmask_map(doc, ("names", "param_names"))) == Call(name, {"\x07p": 1})


# --- properties over generated documents -------------------------------------------------------

NAMES = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=1, max_size=6) | \
    st.sampled_from(["description", "type", "enum", "const", "properties", "arg_0", "tool_1"])
SCALARS = st.none() | st.booleans() | st.integers(-5, 5) | st.text(max_size=4)


def schemas():
    data = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(NAMES, inner, max_size=3),
                        max_leaves=6)
    leaf = st.fixed_dictionaries({}, optional={"type": st.sampled_from(["string", "integer"]), "description": st.text(max_size=5),
                                               "enum": st.lists(data, max_size=2), "const": data, "default": data})

    def grow(inner):
        return st.fixed_dictionaries({}, optional={
            "type": st.just("object"), "description": st.text(max_size=5),
            "properties": st.dictionaries(NAMES, inner, max_size=3), "items": inner,
            "anyOf": st.lists(inner, max_size=2), "not": inner, "examples": st.lists(data, max_size=2),
            "required": st.lists(NAMES, max_size=2)})
    return st.recursive(leaf, grow, max_leaves=8)


def documents():
    entry = st.builds(lambda name, desc, schema, extra: {"name": name, "description": desc,
                                                         "parameters": {"type": "object", **schema}, **extra},
                      NAMES, st.text(max_size=5), schemas(),
                      st.fixed_dictionaries({}, optional={"id": NAMES, "domain": st.text(max_size=3)}))
    return st.lists(entry, min_size=1, max_size=4).map(lambda tools: tools_doc(*tools))


KEYWORDS = {"param_descriptions": {"description"}, "enums": {"enum", "const"}, "types": {"type"}}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents(), st.sampled_from(sorted(KEYWORDS)))
def test_only_the_named_keywords_go(doc, operator):
    before = dumps(doc)
    assert_only_removed(doc, operator, KEYWORDS[operator], keep_root=[("type",)] if operator == "types" else ())
    assert dumps(doc) == before


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents(), st.sets(st.sampled_from(SHAPE + ("order",)), min_size=1), st.integers(0, 2**70))
def test_the_rest_of_each_entry_is_untouched(doc, operators, seed):
    ops = tuple(op for op in OPERATORS if op in operators)
    out = ablate_document(doc, ops, seed)
    if "order" not in ops:
        assert len(out["tools"]) == len(doc["tools"])
        for i, (before, after) in enumerate(zip(doc["tools"], out["tools"])):
            assert after["name"] == (f"tool_{i + 1}" if "names" in ops else before["name"])
            assert after["description"] == ("" if "descriptions" in ops else before["description"])
            assert after.get("domain") == before.get("domain")
            assert after.get("id", after["name"]) == before.get("id", before["name"])
    assert dumps(ablate_document(doc, ops, seed)) == dumps(out)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents(), st.sampled_from([("names",), ("param_names",), ("names", "param_names")]), st.data())
def test_a_call_made_with_what_was_shown_unmasks_to_the_original(doc, ops, data):
    # names repeat in generated documents; a case never offers two entries of one name
    seen = set()
    doc["tools"] = [t for t in doc["tools"] if not (t["name"] in seen or seen.add(t["name"]))]
    shown = ablate_document(doc, ops)
    mapping = unmask_map(doc, ops)
    i = data.draw(st.integers(0, len(doc["tools"]) - 1))
    original, masked = doc["tools"][i], shown["tools"][i]
    values = [data.draw(SCALARS) for _ in masked["parameters"].get("properties", {})]
    call = Call(masked["name"], dict(zip(masked["parameters"].get("properties", {}), values)), "raw", None, "id")
    back = unmask_call(call, mapping)
    assert back.name == original["name"]
    assert back.arguments == dict(zip(original["parameters"].get("properties", {}), values))
    assert (back.raw_arguments, back.id) == ("raw", "id")



IN_PLACE_LISTS, IN_PLACE_ONE = {"allOf", "anyOf", "oneOf"}, {"not", "if", "then", "else"}
NAMING_MAPS = ("properties", "dependentSchemas", "dependencies", "dependentRequired")


def undo_param_names(node, inverse: dict):
    """param_names undone by an independent walk: in the root and its in-place subschemas, the
    keys of the maps keyed by property name and the names in `required` (and dependency lists)."""
    if not isinstance(node, dict):
        return node
    def back(names: list) -> list:
        return [inverse.get(n, n) if isinstance(n, str) else n for n in names]

    out = {}
    for key, value in node.items():
        if key in NAMING_MAPS and isinstance(value, dict):
            value = {inverse.get(k, k): back(v) if isinstance(v, list) and key != "properties" else v
                     for k, v in value.items()}
        elif key == "required" and isinstance(value, list):
            value = back(value)
        elif key in IN_PLACE_LISTS and isinstance(value, list):
            value = [undo_param_names(sub, inverse) for sub in value]
        elif key in IN_PLACE_ONE:
            value = undo_param_names(value, inverse)
        out[key] = value
    return out


def root_names_used(node) -> set:
    """Every property name the root and its in-place subschemas mention."""
    found = set()
    if isinstance(node, dict):
        for key, value in node.items():
            if key in NAMING_MAPS and isinstance(value, dict):
                found |= set(value) | {n for v in value.values() if isinstance(v, list) for n in v if isinstance(n, str)}
            elif key == "required" and isinstance(value, list):
                found |= {n for n in value if isinstance(n, str)}
            elif key in IN_PLACE_LISTS and isinstance(value, list):
                found = found.union(*(root_names_used(sub) for sub in value))
            elif key in IN_PLACE_ONE:
                found |= root_names_used(value)
    return found


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents())
def test_param_names_renames_only_the_root_names(doc):
    out = ablate_document(doc, ("param_names",))
    for before, after in zip(doc["tools"], out["tools"]):
        props = before["parameters"].get("properties")
        renamed = {name: f"arg_{k}" for k, name in enumerate(props)} if isinstance(props, dict) else {}
        # Known limit: a name the root's subschemas use that is no root property but reads like a
        # new one ("arg_0" in an anyOf's `required`) would then name a renamed property.
        assume(not (root_names_used(before["parameters"]) - set(renamed)) & set(renamed.values()))
        if renamed:
            assert list(after["parameters"]["properties"]) == list(renamed.values())
            assert list(map(dumps, after["parameters"]["properties"].values())) == list(map(dumps, props.values()))
        inverse = {new: old for old, new in renamed.items()}
        assert dumps(undo_param_names(after["parameters"], inverse)) == dumps(before["parameters"])
        assert {k: v for k, v in after.items() if k != "parameters"} == {k: v for k, v in before.items() if k != "parameters"}
