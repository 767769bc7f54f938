"""Tool schemas are resolved offline from the document itself (issue 8, item 12) and their
patterns cannot hang grading (item 13): refused at load with file, JSON path and the reason."""
from __future__ import annotations

import builtins
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolproof.datafiles import format_schema
from toolproof.errors import ToolProofError
from toolproof.suite.schema import CompiledSchema
from toolproof.suite.load import parse_tools

FORMAT = format_schema("tools")


def tools_doc(parameters: dict) -> dict:
    return {"format": "toolproof.tools", "version": 1, "tools": [
        {"name": "ok", "domain": "d", "description": "fine", "parameters": {"type": "object"}},
        {"name": "t", "domain": "d", "description": "under test", "parameters": parameters}]}


def refusal(parameters: dict) -> str:
    with pytest.raises(ToolProofError) as exc:
        parse_tools(tools_doc(parameters), FORMAT, "my-tools.json")
    return exc.value.line()


def obj(**properties) -> dict:
    return {"type": "object", "properties": properties}


AT = "my-tools.json: at $.tools[1].parameters"
REFUSED_REFS = [
    (obj(x={"$ref": "http://127.0.0.1:9/s.json"}), f"{AT}.properties.x.$ref: $ref 'http://127.0.0.1:9/s.json' "
     "is not a same-document JSON pointer (#/...): ToolProof never fetches or reads a schema; copy it under "
     "$defs and point at '#/$defs/<name>'"),
    (obj(x={"$ref": "file:///etc/passwd"}), f"{AT}.properties.x.$ref: $ref 'file:///etc/passwd' is not a "
     "same-document JSON pointer"),
    (obj(x={"$ref": "other.json#/a"}), f"{AT}.properties.x.$ref: $ref 'other.json#/a' is not a same-document"),
    (obj(x={"$ref": "#anchor"}), f"{AT}.properties.x.$ref: $ref '#anchor' is not a same-document"),
    (obj(x={"$dynamicRef": "https://evil.example/s"}), f"{AT}.properties.x.$dynamicRef: $dynamicRef "
     "'https://evil.example/s' is not a same-document"),
    (obj(x={"$ref": "#/$defs/nope"}), f"{AT}.properties.x.$ref: $ref '#/$defs/nope' does not resolve in this schema"),
    (obj(x={"$ref": "#/type"}), f"{AT}.properties.x.$ref: $ref '#/type' points at a "
     "str, not a schema"),
    (obj(x={"$ref": 7}), f"{AT}.properties.x.$ref: $ref must be a string, not int"),
    ({**obj(x={"$ref": "#/$defs/a"}), "$defs": {"a": {"$id": "http://127.0.0.1:9/a", "type": "string"}}},
     f"{AT}.$defs.a.$id: $id 'http://127.0.0.1:9/a' below the top of a tool schema would move where $ref "
     "points; remove it"),
    # a $ref back to where it is applied from, on the same value: jsonschema would recurse forever
    ({"type": "object", "$ref": "#"}, f"{AT}.$ref: $ref '#' leads back to a schema it is applied from without "
     "going into a part of the value: validation would never end"),
    ({"type": "object", "anyOf": [{"type": "null"}, {"$ref": "#"}]}, f"{AT}.anyOf[1].$ref: $ref '#' leads back"),
    ({**obj(x={"$ref": "#/$defs/a"}), "$defs": {"a": {"allOf": [{"$ref": "#/$defs/b"}]}, "b": {"not": {"$ref": "#/$defs/a"}}}},
     f"{AT}.$defs.b.not.$ref: $ref '#/$defs/a' leads back"),
    # a $ref hidden in a keyword jsonschema does not apply is still reached through the pointer
    ({**obj(x={"$ref": "#/x-vendor/inner"}), "x-vendor": {"inner": {"$ref": "https://evil.example/s"}}},
     f"{AT}.x-vendor.inner.$ref: $ref 'https://evil.example/s' is not a same-document"),
    ({"type": "object", "anyOf": [{"not": {"items": {"$ref": "//evil.example/s"}}}]},
     f"{AT}.anyOf[0].not.items.$ref: $ref '//evil.example/s' is not a same-document"),
]


@pytest.mark.parametrize("parameters, line", REFUSED_REFS, ids=[str(i) for i in range(len(REFUSED_REFS))])
def test_refs_outside_the_document_are_refused_at_load(parameters, line):
    assert refusal(parameters).startswith(line)


SAME_DOCUMENT = {
    "type": "object",
    "$defs": {"address": {"type": "object", "properties": {"city": {"type": "string"}},
                          "required": ["city"], "additionalProperties": False},
              "a~b/c d": {"type": "integer"},
              "tree": {"type": "object", "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/tree"}}}}},
    "properties": {"ship_to": {"$ref": "#/$defs/address"}, "odd": {"$ref": "#/$defs/a~0b~1c%20d"},
                   "tree": {"$ref": "#/$defs/tree"}, "again": {"$ref": "#/properties/ship_to"},
                   "whole": {"anyOf": [{"type": "null"}, {"$ref": "#"}]}},
}


def test_same_document_refs_keep_working():
    # real-world tool definitions (zod, pydantic) use $defs and pointers; they must validate
    schema = parse_tools(tools_doc(SAME_DOCUMENT), FORMAT)["t"].schema
    assert schema.findings({"ship_to": {"city": "Lyon"}, "odd": 3, "tree": {"kids": [{"kids": []}]},
                            "whole": {"odd": 1}}) == []
    assert [(f.path, f.message) for f in schema.findings({"ship_to": {}, "odd": "x", "tree": {"kids": [{"kids": 1}]},
                                                          "whole": {"odd": "y"}})] == [
        ("$.odd", "'x' is not of type 'integer'"),
        ("$.ship_to", "'city' is a required property"),
        ("$.tree.kids[0].kids", "1 is not of type 'array'"),
        ("$.whole", "{'odd': 'y'} is not valid under any of the given schemas"),
    ]


def test_a_top_level_id_is_allowed_and_resolves_offline(recorder):
    schema = {"$id": f"{recorder.url}/root.json", **SAME_DOCUMENT}
    tool = parse_tools(tools_doc(schema), FORMAT)["t"].schema
    assert tool.findings({"ship_to": {"city": 1}})[0].message == "1 is not of type 'string'"
    assert recorder.requests == []


class _Recorder(BaseHTTPRequestHandler):
    def do_GET(self):  # noqa: N802 (http.server's naming)
        self.server.requests.append(self.path)
        body = json.dumps({"type": "integer"}).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def recorder():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Recorder)
    server.requests = []
    server.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def test_an_http_ref_never_reaches_the_server(recorder):
    # the load-time refusal is one wall; the validator's registry that cannot retrieve is the other
    ref = f"{recorder.url}/integer.json"
    assert "is not a same-document JSON pointer" in refusal(obj(n={"$ref": ref}))
    direct = CompiledSchema(obj(n={"$ref": ref}))       # bypassing the load check on purpose
    with pytest.raises(Exception) as exc:
        direct.findings({"n": "not an integer"})
    assert "Unresolvable" in type(exc.value).__name__ or "integer.json" in str(exc.value)
    assert recorder.requests == []


def test_a_file_ref_never_reads_the_file(tmp_path, monkeypatch):
    secret = tmp_path / "s.json"
    secret.write_text(json.dumps({"type": "integer"}), encoding="utf-8")
    assert "is not a same-document JSON pointer" in refusal(obj(n={"$ref": secret.as_uri()}))
    opened = []
    real_open = builtins.open
    monkeypatch.setattr(builtins, "open", lambda *a, **k: opened.append(a) or real_open(*a, **k))
    direct = CompiledSchema(obj(n={"$ref": secret.as_uri()}))
    with pytest.raises(Exception):
        direct.findings({"n": "x"})
    assert [a for a in opened if str(secret) in str(a[0])] == []


def test_hostile_schema_shapes_do_not_crash_the_load():
    deep: dict = {"type": "object"}
    for _ in range(3000):
        deep = {"type": "object", "properties": {"x": deep}}
    cycle = {"type": "object", "$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}},
             "properties": {"x": {"$ref": "#/$defs/a"}}}
    # deep nesting: the guard walks without recursion (jsonschema may still refuse the schema)
    for parameters in (deep, cycle):
        try:
            parse_tools(tools_doc(parameters), FORMAT)
        except ToolProofError as exc:
            assert exc.line().startswith("tools.json: at $.tools[1].parameters")


@pytest.mark.parametrize("where, parameters, line", [
    ("pattern", obj(code={"type": "string", "pattern": "^(a+)+$"}),
     f"{AT}.properties.code.pattern: pattern '^(a+)+$' nests a quantifier inside a repeated group (like (a+)+), "
     "which can take exponential time; ToolProof runs tool patterns on model output and refuses any that can "
     "backtrack without bound"),
    ("alternation", obj(code={"type": "string", "pattern": "(a|a)*"}),
     f"{AT}.properties.code.pattern: pattern '(a|a)*' repeats a group whose alternatives can match the same text"),
    ("in a row", obj(code={"type": "string", "pattern": "\\d+\\d+x"}),
     f"{AT}.properties.code.pattern: pattern '\\\\d+\\\\d+x' has quantifiers in a row that can match the same "
     "characters (like \\d+\\d+), which can take polynomial time"),
    ("patternProperties", {"type": "object", "patternProperties": {"^(x*)*$": {"type": "string"}}},
     f"{AT}.patternProperties.^(x*)*$: patternProperties key '^(x*)*$' nests a quantifier"),
    ("propertyNames", {"type": "object", "propertyNames": {"pattern": "(.*a){12}"}},
     f"{AT}.propertyNames.pattern: pattern '(.*a){{12}}' nests a quantifier"),
    ("invalid", obj(code={"type": "string", "pattern": "(unclosed"}),
     f"{AT}.properties.code.pattern: pattern '(unclosed' is not a valid regular expression (missing ), "
     "unterminated subpattern at position 0)"),
])
def test_unsafe_tool_patterns_are_refused_at_load(where, parameters, line):
    assert refusal(parameters).startswith(line.replace("{{", "{").replace("}}", "}"))


def test_the_committed_tools_load(bundle):
    # every pattern in data/tools.json is accepted: the rules must not refuse ordinary patterns
    assert len(bundle.tools) >= 30


# Property: whatever a tools file holds, the guard answers with None or a ToolProofError.
_keys = st.sampled_from(["$ref", "$dynamicRef", "$id", "$defs", "properties", "items", "anyOf", "not",
                         "pattern", "patternProperties", "type", "x", "", "~/%"])
_leaves = st.none() | st.booleans() | st.integers() | st.sampled_from(
    ["#", "#/", "#/$defs/a", "#/properties/x", "#/items/0", "#/%24defs/a", "#/a~1b", "http://127.0.0.1:9/x",
     "^(a+)+$", "^[a-z]+$", "(", "a{1,4294967295}"]) | st.text(max_size=6)
_schemas = st.recursive(_leaves, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_keys, inner, max_size=4),
                        max_leaves=25)


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(schema=st.dictionaries(_keys, _schemas, max_size=5))
def test_the_guard_never_raises_anything_but_a_refusal(schema):
    from toolproof.suite.schema_guard import check_tool_schema
    try:
        check_tool_schema(schema, "t.json", ["tools", 0, "parameters"])
    except ToolProofError as exc:
        assert exc.line().startswith("t.json: at $.tools[0].parameters")


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(schema=st.dictionaries(_keys, _schemas, max_size=5), instance=_schemas)
def test_a_schema_that_loads_judges_any_instance_without_raising(schema, instance):
    # what passes the guard and the metaschema never reaches for a resource jsonschema lacks
    try:
        tool = parse_tools(tools_doc(schema), FORMAT)["t"]
    except ToolProofError:
        return
    assert isinstance(tool.schema.findings(instance), list)
    assert isinstance(tool.schema.findings({"x": instance}), list)
