"""The importers: six shapes in, verbatim records out; refusals name the JSON path and the reason."""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings, strategies as st

from toolproof.datafiles import DATA, format_schema, read_json
from toolproof.errors import ToolProofError
from toolproof.importers import SHAPES, detect_shape, tools_from_any
from toolproof.importers.mcp import next_cursor, parse_frame, reply_for, result_of, tools_list_request
from toolproof.importers.toolproof import map_to_source, tools_document
from toolproof.suite.load import parse_tools
from toolshapes import REAL, TOOLS, WEATHER, as_shape

@pytest.mark.parametrize("shape", SHAPES)
def test_each_shape_is_detected_and_kept_verbatim(shape):
    doc = as_shape(shape)
    original = json.dumps(doc)
    found, records = tools_from_any(doc)
    assert found == shape
    got = [(r["name"], r["description"], r["parameters"]) for r in records]
    # verbatim: the same names, descriptions and schemas, key order included
    assert json.dumps(got) == json.dumps(TOOLS)
    assert json.dumps(doc) == original                      # the input is never modified


@pytest.mark.parametrize("shape", SHAPES)
def test_each_shape_round_trips_through_tools_json(shape):
    _, records = tools_from_any(as_shape(shape))
    document = tools_document(records, shape)
    loaded = parse_tools(document, format_schema("tools"))     # real-world schemas load for a run
    assert list(loaded) == ["get_weather", "search_issues"]
    assert not loaded["search_issues"].schema.compiled          # $ref/anyOf: jsonschema judges
    assert loaded["search_issues"].schema.is_valid({"repo": "a/b", "state": "open", "since": None})
    assert not loaded["search_issues"].schema.is_valid({"repo": "a/b", "state": "merged"})
    again = tools_document(tools_from_any(json.loads(json.dumps(document)))[1], shape)
    assert again["tools"] == document["tools"]


def test_mcp_annotations_are_kept_and_written():
    _, records = tools_from_any(as_shape("mcp"))
    assert records[0]["annotations"] == {"readOnlyHint": True, "destructiveHint": False}
    assert tools_document(records, "MCP")["tools"][0]["annotations"] == {"readOnlyHint": True,
                                                                         "destructiveHint": False}


def test_records_say_where_each_part_came_from():
    _, records = tools_from_any(as_shape("openai-chat"))
    assert records[1]["at"] == {"tool": "$[1].function", "name": "$[1].function.name",
                                "description": "$[1].function.description",
                                "parameters": "$[1].function.parameters"}
    _, records = tools_from_any(as_shape("gemini"))
    assert records[0]["at"]["parameters"] == "$.functionDeclarations[0].parametersJsonSchema"


@pytest.mark.parametrize("doc, shape", [
    ({"jsonrpc": "2.0", "id": 2, "result": as_shape("mcp")}, "mcp"),       # the whole JSON-RPC answer
    ({"model": "gpt-4.1", "tools": as_shape("openai-chat")}, "openai-chat"),  # a request body
    ({"model": "claude", "tools": as_shape("anthropic")}, "anthropic"),
    ([as_shape("gemini")], "gemini"),                                       # Gemini's tools array
    ({"contents": [], "tools": [as_shape("gemini")]}, "gemini"),            # a generateContent body
    ({"function_declarations": [{"name": "f", "description": "d", "parameters_json_schema": WEATHER}]}, "gemini"),
    (as_shape("mcp")["tools"], "mcp"),                                      # a bare array of MCP tools
])
def test_wrappers_people_paste_are_recognised(doc, shape):
    assert detect_shape(doc) == shape
    assert tools_from_any(doc)[1][0]["parameters"] in (WEATHER, REAL)


def test_gemini_openapi_type_names_become_json_schema_names():
    doc = {"functionDeclarations": [{"name": "f", "description": "d", "parameters": {
        "type": "OBJECT", "properties": {"n": {"type": "INTEGER", "description": "type"},
                                         "type": {"type": "STRING", "enum": ["STRING"]}}}}]}
    params = tools_from_any(doc)[1][0]["parameters"]
    assert params == {"type": "object", "properties": {"n": {"type": "integer", "description": "type"},
                                                        "type": {"type": "string", "enum": ["STRING"]}}}
    assert doc["functionDeclarations"][0]["parameters"]["type"] == "OBJECT"     # input untouched


def test_a_function_without_parameters_gets_the_empty_object_schema():
    _, records = tools_from_any([{"type": "function", "function": {"name": "now", "description": "Time."}}])
    assert records[0]["parameters"] == {"type": "object", "properties": {}}


# Each refusal: the JSON path and the reason, exactly.
REFUSED = [
    ("empty array", [], "at $: no tools: the list is empty"),
    ("a string", "tools", "at $: not a tool definition document: expected an object or an array, not str"),
    ("unknown object", {"functions": []},
     "at $: not a tool definition document: an object needs 'tools', 'functionDeclarations' or 'format' "
     "(keys seen: 'functions')"),
    ("unknown item", [{"tool": "x"}],
     "at $[0]: not a tool definition of a known shape (keys seen: 'tool'); expected inputSchema (MCP), "
     "type+function (OpenAI Chat), type+name (OpenAI Responses), input_schema (Anthropic) or "
     "functionDeclarations (Gemini)"),
    ("legacy functions", [{"name": "f", "description": "d", "parameters": WEATHER}],
     "at $[0]: ambiguous: {name, description, parameters} alone could be OpenAI functions or Gemini "
     "declarations; add \"type\": \"function\" to each (OpenAI Responses) or wrap the array as "
     "{\"functionDeclarations\": [...]} (Gemini)"),
    ("two shapes in one item", [{"name": "f", "input_schema": WEATHER, "inputSchema": WEATHER}],
     "at $[0]: ambiguous: this item fits Anthropic tools and MCP tools/list"),
    ("mixed items", {"tools": as_shape("anthropic") + as_shape("openai-chat")},
     "at $.tools[2]: ambiguous: this item is one of the OpenAI Chat Completions tools but item 0 is one "
     "of the Anthropic tools; use one shape per file"),
    ("built-in tool", [{"type": "web_search"}],
     "at $[0]: not importable: a built-in tool of type 'web_search' has no schema of its own"),
    ("other format", {"format": "toolproof.suite", "cases": []},
     "at $.format: format 'toolproof.suite' is not a tools file (expected 'toolproof.tools')"),
    ("name not a string", [{"name": 7, "input_schema": WEATHER}],
     "at $[0].name: a tool's 'name' must be a string, not a number"),
    ("schema not an object", [{"type": "function", "function": {"name": "f", "parameters": "{}"}}],
     "at $[0].function.parameters: tool 'f': 'parameters' must be a JSON object, not a string"),
    ("description not a string", [{"name": "f", "description": ["x"], "inputSchema": WEATHER}],
     "at $[0].description: tool 'f': 'description' must be a string, not an array"),
    ("anthropic without schema", {"tools": [{"name": "f", "input_schema": WEATHER}, {"name": "g", "input_schema": None}]},
     "at $.tools[1].input_schema: tool 'g': 'input_schema' must be a JSON object, not null"),
    # the other item decides the shape (issue 38: an item that fits none is the importer's to refuse)
    ("gemini built-in", [{"googleSearch": {}}, as_shape("gemini")],
     "at $[0]: only functionDeclarations can be imported (not built-in tools such as 'googleSearch')"),
    ("gemini both schemas", {"functionDeclarations": [{"name": "f", "parameters": WEATHER,
                                                       "parametersJsonSchema": WEATHER}]},
     "at $.functionDeclarations[0]: both 'parameters' and a JSON Schema: Gemini takes only one"),
    ("mcp rpc error", {"jsonrpc": "2.0", "id": 1, "error": {"code": -1}},
     "at $.result: the JSON-RPC 'result' must be a JSON object, not null"),
]


@pytest.mark.parametrize("doc, line", [r[1:] for r in REFUSED], ids=[r[0] for r in REFUSED])
def test_malformed_documents_are_refused_with_path_and_reason(doc, line):
    with pytest.raises(ToolProofError) as exc:
        tools_from_any(doc)
    assert exc.value.line() == line


def test_tools_document_refuses_a_tool_without_description_at_its_source_place():
    _, records = tools_from_any([{"name": "f", "inputSchema": WEATHER}])
    with pytest.raises(ToolProofError) as exc:
        tools_document(records, "MCP")
    assert exc.value.line() == ("at $[0].description: tool 'f' has no description; the tools format needs "
                                "one (add it; `tools lint` lists every such tool)")


def test_tools_document_refuses_lone_surrogates_with_their_place():
    _, records = tools_from_any([{"name": "f", "description": "d", "input_schema": {
        "type": "object", "properties": {"x": {"type": "string", "description": "bad \ud800"}}}}])
    with pytest.raises(ToolProofError) as exc:
        tools_document(records, "Anthropic")
    assert exc.value.path == "$[0].input_schema.properties.x.description"


def test_format_errors_are_mapped_back_to_the_source():
    _, records = tools_from_any(as_shape("anthropic"))
    assert map_to_source(records, "$.tools[1].parameters.properties") == "$[1].input_schema.properties"
    assert map_to_source(records, "$.tools[0].name") == "$[0].name"
    assert map_to_source(records, "$.tools[9].name") == "$.tools[9].name"
    assert map_to_source(records, "$.format") == "$.format"


def test_data_tools_import_verbatim():
    doc = read_json(DATA / "tools.json")
    shape, records = tools_from_any(doc)
    assert shape == "toolproof"
    assert tools_document(records, "x")["tools"] == doc["tools"]


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
                        st.sampled_from(["tools", "name", "type", "function", "input_schema", "inputSchema",
                                         "parameters", "description", "functionDeclarations", "jsonrpc",
                                         "result", "format", "annotations"]), inner, max_size=5),
                    max_leaves=20)


@settings(max_examples=400, deadline=None)
@given(JSON)
def test_any_json_is_imported_or_refused_never_crashes(doc):
    try:
        shape, records = tools_from_any(doc)
    except ToolProofError as exc:
        assert exc.path is not None and exc.path.startswith("$")
        return
    assert shape in SHAPES and records
    for record in records:
        assert isinstance(record["name"], str) and isinstance(record["parameters"], dict)


# The pure half of the MCP client.
def test_mcp_messages_and_replies():
    assert tools_list_request(3, None) == {"jsonrpc": "2.0", "id": 3, "method": "tools/list", "params": {}}
    assert tools_list_request(4, "c1")["params"] == {"cursor": "c1"}
    assert reply_for({"jsonrpc": "2.0", "id": 9, "method": "ping"}) == {"jsonrpc": "2.0", "id": 9, "result": {}}
    assert reply_for({"jsonrpc": "2.0", "id": 9, "method": "roots/list"})["error"]["code"] == -32601
    assert reply_for({"jsonrpc": "2.0", "method": "notifications/message"}) is None
    seen = set()
    assert next_cursor({"nextCursor": "a"}, seen) == "a" and next_cursor({}, seen) is None
    with pytest.raises(ToolProofError, match="repeated the cursor 'a'"):
        next_cursor({"nextCursor": "a"}, seen)
    with pytest.raises(ToolProofError) as exc:
        result_of({"jsonrpc": "2.0", "id": 1, "error": {"code": -32602, "message": "bad\x1b[31m"}}, "tools/list")
    assert exc.value.line() == "tools/list failed: the server answered error -32602: 'bad\\x1b[31m'"


@pytest.mark.parametrize("line, reason", [
    (b"Server started\n", "the server wrote something that is not JSON-RPC on stdout: 'Server started'"),
    (b'{"id": 1}\n', "the server wrote something that is not JSON-RPC 2.0 on stdout: '{\"id\": 1}'"),
    (b'{"jsonrpc": "2.0", "x": NaN}\n', "the server wrote something that is not JSON-RPC on stdout (NaN is not JSON): "
                                        "'{\"jsonrpc\": \"2.0\", \"x\": NaN}'"),
    # Through the one total reader, like every other input: a number out of range, a huge
    # integer, deep nesting are refused here, never written into tools.json.
    (b'{"jsonrpc": "2.0", "x": 1e999}\n', "the server wrote something that is not JSON-RPC on stdout (number 1e999 is out "
                                         "of range): '{\"jsonrpc\": \"2.0\", \"x\": 1e999}'"),
    (b'{"jsonrpc": "2.0", "x": ' + b"9" * 5000 + b"}\n", "the server wrote something that is not JSON-RPC on stdout "
                                                    "(integer with more than 300 digits): '{\"jsonrpc\": \"2.0\", \"x\": "
                                                    + "9" * 56 + "...'"),
    (b"[" * 200 + b"]" * 200 + b"\n", "the server wrote something that is not JSON-RPC on stdout (the server's message "
                                   "nested deeper than 64 levels): '" + "[" * 80 + "...'"),
    (b"\xff\xfe\n", "the server wrote something that is not JSON-RPC on stdout: '\\ufffd\\ufffd'"),
])
def test_mcp_frames_that_are_not_json_rpc(line, reason):
    with pytest.raises(ToolProofError) as exc:
        parse_frame(line)
    assert exc.value.line() == reason
