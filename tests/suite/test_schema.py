"""The compiled checker must agree with jsonschema: same verdict, same errors, word for word."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from toolproof.errors import json_path
from toolproof.errors import schema_message
from toolproof.suite.schema import CompiledSchema

TOOLS = json.loads((Path(__file__).resolve().parents[2] / "data" / "tools.json").read_text())["tools"]

json_scalars = st.none() | st.booleans() | st.integers(-1000, 1000) | \
    st.floats(-1e6, 1e6, allow_nan=False) | st.text(max_size=12)
json_values = st.recursive(json_scalars, lambda inner: st.lists(inner, max_size=3)
                           | st.dictionaries(st.text(max_size=6), inner, max_size=3), max_leaves=8)


def near(schema: dict) -> st.SearchStrategy:
    """Values that are often valid for `schema` and often wrong in one small way."""
    options = [json_values]
    if not isinstance(schema, dict):
        return json_values
    kind = schema.get("type")
    if "enum" in schema:
        options.append(st.sampled_from(schema["enum"]).map(lambda v: v.upper() if isinstance(v, str) else v))
        options.append(st.sampled_from(schema["enum"]))
    if kind == "string":
        if "pattern" in schema:
            options.append(st.from_regex(schema["pattern"], fullmatch=True))
        options.append(st.text(max_size=20))
    if kind in ("integer", "number"):
        lo, hi = sorted((schema.get("minimum", -50), schema.get("maximum", 500)))
        options += [st.integers(int(lo) - 1, int(hi) + 1), st.floats(lo - 1, hi + 1, allow_nan=False),
                    st.integers(int(lo), int(hi)).map(str), st.just(2.0), st.booleans()]
    if kind == "boolean":
        options += [st.booleans(), st.sampled_from(["true", "false", 1, 0])]
    if kind == "array":
        options.append(st.lists(near(schema.get("items", {})), max_size=3))
    if kind == "object":
        options.append(objects(schema))
    return st.one_of(options)


def objects(schema: dict) -> st.SearchStrategy:
    props = schema.get("properties", {})

    @st.composite
    def build(draw):
        out = {}
        for name, sub in props.items():
            if name in schema.get("required", []) or draw(st.booleans()):
                out[name] = draw(near(sub))
        if draw(st.integers(0, 4)) == 0:
            out[draw(st.sampled_from(["extra", "zz", "note2"]))] = draw(json_scalars)
        if props and draw(st.integers(0, 4)) == 0:
            out.pop(draw(st.sampled_from(sorted(props))), None)
        return out
    return build()


def jsonschema_errors(schema: dict, instance) -> list[tuple]:
    # jsonschema's own messages, with a quoted value cut exactly as every message of ours is
    return sorted((f"schema.{e.validator}", json_path(list(e.absolute_path)), schema_message(e))
                  for e in Draft202012Validator(schema).iter_errors(instance))


def ours(schema: CompiledSchema, instance) -> list[tuple]:
    return sorted(tuple(f) for f in schema.findings(instance))


@pytest.mark.parametrize("tool", TOOLS, ids=[t["name"] for t in TOOLS])
def test_every_committed_tool_is_compiled(tool):
    # If this fails, a tool uses a keyword the fast checker does not know: fine for
    # correctness (jsonschema judges it), but slower, so decide on purpose.
    assert CompiledSchema(tool["parameters"]).compiled


@pytest.mark.parametrize("tool", TOOLS, ids=[t["name"] for t in TOOLS])
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_checker_agrees_with_jsonschema_on_tool(tool, data):
    schema = tool["parameters"]
    instance = data.draw(objects(schema))
    compiled = CompiledSchema(schema)
    assert compiled.is_valid(instance) == Draft202012Validator(schema).is_valid(instance)
    assert ours(compiled, instance) == jsonschema_errors(schema, instance)


leaf_schemas = st.fixed_dictionaries({}, optional={
    "type": st.sampled_from(["string", "integer", "number", "boolean", "null",
                             ["string", "null"], ["integer", "string"]]),
    "enum": st.lists(st.text(max_size=4) | st.integers(-3, 3) | st.sampled_from([1.5, 2.0]),
                     min_size=1, max_size=3, unique=True),
    "const": st.text(max_size=3) | st.integers(-2, 2),
    "pattern": st.sampled_from(["^a", "[0-9]$", "^x{2,3}$", ""]),
    "minLength": st.integers(0, 3), "maxLength": st.integers(0, 5),
    "minimum": st.integers(-5, 5), "maximum": st.integers(-5, 10),
    "exclusiveMinimum": st.floats(-5, 5, allow_nan=False), "exclusiveMaximum": st.integers(-5, 10),
    "description": st.text(max_size=5), "default": json_scalars,
})
generated_schemas = st.recursive(
    leaf_schemas,
    lambda inner: st.fixed_dictionaries(
        {"type": st.just("object"),
         "properties": st.dictionaries(st.sampled_from(["a", "b", "c"]), inner, max_size=3)},
        optional={"required": st.lists(st.sampled_from(["a", "b", "d"]), unique=True, max_size=2),
                  "additionalProperties": st.one_of(st.booleans(), inner),
                  "minProperties": st.integers(0, 2), "maxProperties": st.integers(0, 3)})
    | st.fixed_dictionaries({"type": st.just("array"), "items": inner},
                            optional={"minItems": st.integers(0, 2), "maxItems": st.integers(0, 3)}),
    max_leaves=5)


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(schema=generated_schemas, data=st.data())
def test_checker_agrees_with_jsonschema_on_generated_schemas(schema, data):
    instance = data.draw(st.one_of(near(schema), json_values))
    compiled = CompiledSchema(schema)
    assert compiled.is_valid(instance) == Draft202012Validator(schema).is_valid(instance)
    assert ours(compiled, instance) == jsonschema_errors(schema, instance)


@pytest.mark.parametrize("schema", [
    {"type": "object", "properties": {"a": {"anyOf": [{"type": "string"}, {"type": "integer"}]}}},
    {"type": "array", "items": {"type": "string"}, "uniqueItems": True},
    {"type": "object", "additionalProperties": False, "patternProperties": {"^x": {}}},
    {"type": "object", "properties": {"a": False}},
    {"enum": [1, True]},
    {"const": [1]},
])
def test_other_keywords_fall_back_to_jsonschema(schema):
    # Why: these keywords have subtle semantics (1 == True in Python); jsonschema must judge them.
    compiled = CompiledSchema(schema)
    assert not compiled.compiled
    for instance in [{"a": 1.5}, ["a", "a"], {"y": 1}, {"a": 1}, True, 1]:
        assert ours(compiled, instance) == jsonschema_errors(schema, instance)


@pytest.mark.parametrize("instance, expected", [
    ({"qty": "2"}, ("schema.type", "$.qty", "'2' is not of type 'integer'")),
    ({"qty": True}, ("schema.type", "$.qty", "True is not of type 'integer'")),
    ({"qty": 0}, ("schema.minimum", "$.qty", "0 is less than the minimum of 1")),
    ({"qty": 2, "x": 1}, ("schema.additionalProperties", "$",
                          "Additional properties are not allowed ('x' was unexpected)")),
    ({}, ("schema.required", "$", "'qty' is a required property")),
])
def test_exact_messages(instance, expected):
    schema = CompiledSchema({"type": "object", "properties": {"qty": {"type": "integer", "minimum": 1}},
                         "required": ["qty"], "additionalProperties": False})
    assert ours(schema, instance) == [expected]


def test_integral_float_is_an_integer_in_draft_2020_12():
    schema = {"type": "integer"}
    assert CompiledSchema(schema).is_valid(3.0) and Draft202012Validator(schema).is_valid(3.0)
    assert not CompiledSchema(schema).is_valid(3.5)


def test_invalid_schema_is_refused():
    with pytest.raises(Exception):
        CompiledSchema({"type": "no-such-type"})


@pytest.mark.parametrize("schema", [
    {"type": "object", "properties": {"code": {"type": "string", "pattern": "^[a-z]+$"}}},             # compiled
    {"type": "object", "properties": {"code": {"type": "string", "pattern": "^[a-z]+$"}}, "anyOf": [{}]},  # jsonschema
])
def test_patterns_run_only_on_strings_of_at_most_1000_characters(schema):
    # issue 8 item 13: a longer string is a finding, never a slow regex; both checkers agree
    checked = CompiledSchema(schema)
    assert checked.compiled == ("anyOf" not in schema)
    assert checked.findings({"code": "a" * 1000}) == []
    long = checked.findings({"code": "a" * 1001})
    assert [(f.code, f.path, f.message) for f in long] == [
        ("schema.pattern", "$.code", "string of 1001 characters is longer than 1000; pattern '^[a-z]+$' not checked")]
    assert not checked.is_valid({"code": "a" * 5_000_000})


def test_long_property_names_are_not_matched_against_pattern_properties():
    checked = CompiledSchema({"type": "object", "patternProperties": {"^x": {"type": "integer"}},
                              "additionalProperties": False})
    assert checked.findings({"x1": 1}) == []
    name = "x" * 1001
    assert [(f.code, f.path, f.message) for f in checked.findings({"inner": 1, name: 1})][-1] == (
        "schema.patternProperties", "$", "property name of 1001 characters is longer than 1000; "
        "patternProperties not checked")
    assert not checked.is_valid({name: 1})


def test_a_message_naming_huge_or_many_unexpected_properties_is_cut_and_says_so():
    """An argument object with a 50,000-character key (or thousands of keys) made a 50,000-character
    grading reason: "Additional properties are not allowed ('qqqq…' was unexpected)" quotes names,
    not the instance, so the quoted-value cut never applied. Both checkers cut it alike."""
    schema = {"type": "object", "properties": {"qty": {"type": "integer"}}, "additionalProperties": False}
    for instance in ({"qty": 1, "q" * 50_000: 1}, {"qty": 1, **{f"k{i}": i for i in range(5_000)}}):
        (found,) = ours(CompiledSchema(schema), instance)
        assert found == jsonschema_errors(schema, instance)[0]
        assert len(found[2]) < 700 and found[2].startswith("Additional properties are not allowed (")
        assert found[2].endswith(" more)")
