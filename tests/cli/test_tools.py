"""`python -m toolproof tools import | lint`, called in-process: files written, exit codes, one-line
refusals, and hostile files (huge, deep, NaN, control characters, 10,000 tools)."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from clirun import cli
from fakemcp import fake_server
from toolproof.datafiles import DATA, format_schema, load_bundle, read_json
from toolproof.importers import SHAPES
from toolshapes import REAL, TOOLS, as_shape

ROOT = Path(__file__).resolve().parents[2]


def write(tmp_path: Path, doc, name="in.json") -> str:
    path = tmp_path / name
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("shape", SHAPES)
def test_import_writes_tools_json_verbatim(shape, tmp_path):
    out = tmp_path / "tools.json"
    code, stdout, stderr = cli("tools", "import", write(tmp_path, as_shape(shape)), "--out", str(out))
    assert (code, stdout) == (0, "")
    assert stderr.startswith("toolproof: 2 tools from ") and stderr.endswith(f" written to {out}\n")
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert [(t["name"], t["description"], t["parameters"]) for t in doc["tools"]] == TOOLS
    assert json.dumps(doc["tools"][1]["parameters"]) == json.dumps(REAL)        # key order too
    # importing what import wrote gives the same tools (idempotent)
    code, again, _ = cli("tools", "import", str(out))
    assert code == 0 and json.loads(again)["tools"] == doc["tools"]


def test_import_without_out_prints_the_document():
    code, stdout, stderr = cli("tools", "import", str(DATA / "tools.json"))
    assert (code, stderr) == (0, "")
    assert json.loads(stdout)["tools"] == json.loads((DATA / "tools.json").read_text())["tools"]


def test_imported_file_is_usable_as_tools(tmp_path):
    out = tmp_path / "tools.json"
    assert cli("tools", "import", str(DATA / "tools.json"), "--out", str(out))[0] == 0
    assert len(load_bundle(tools=out).tools) == len(load_bundle().tools)


@pytest.mark.parametrize("doc, line", [
    ([{"name": "get weather", "description": "d", "input_schema": {"type": "object"}}],
     "at $[0].name: 'get weather' does not match '^[A-Za-z0-9_.-]{1,128}$'"),
    ([{"name": "f", "input_schema": {"type": "object"}}],
     "at $[0].description: tool 'f' has no description; the tools format needs one (add it; `tools lint` "
     "lists every such tool)"),
    ([{"type": "function", "function": {"name": "f", "description": "d", "parameters": {"type": "array"}}}],
     "at $[0].function.parameters.type: 'object' was expected"),
    ([{"name": "f", "description": "d", "inputSchema": {"type": "object", "properties": {"x": {"type": "text"}}}}],
     "at $[0].inputSchema: parameters is not a valid JSON Schema: 'text' is not valid under any of the given schemas"),
    ({"tools": []}, "at $.tools: no tools: the list is empty"),
    ([{"name": "f", "description": "d", "parameters": {"type": "object"}}],
     "at $[0]: ambiguous: {name, description, parameters} alone could be OpenAI functions or Gemini "
     "declarations; add \"type\": \"function\" to each (OpenAI Responses) or wrap the array as "
     "{\"functionDeclarations\": [...]} (Gemini)"),
])
def test_import_refuses_with_one_line(doc, line, tmp_path):
    source = write(tmp_path, doc)
    code, stdout, stderr = cli("tools", "import", source, "--out", str(tmp_path / "o.json"))
    assert (code, stdout, stderr) == (2, "", f"toolproof: {source}: {line}\n")
    assert not (tmp_path / "o.json").exists()


@pytest.mark.parametrize("argv, line", [
    ([], "toolproof: tools import needs SOURCE (a file) or --mcp-stdio \"COMMAND ARGS\" (several may be given)\n"),
    (["/nonexistent/x.json", "--mcp-stdio", "srv"], "toolproof: /nonexistent/x.json: no such file\n"),
    (["--mcp-stdio", "srv", "--timeout", "0"], "toolproof: --timeout must be between 0.1 and 3600 seconds, got 0\n"),
    (["/nonexistent/x.json"], "toolproof: /nonexistent/x.json: no such file\n"),
])
def test_import_usage_errors(argv, line):
    assert cli("tools", "import", *argv) == (2, "", line)


def test_tools_needs_a_verb():
    code, _, err = cli("tools")
    assert code == 2 and err.startswith("toolproof: usage error: ")


# Hostile files: the same one-line refusal, never a traceback.
@pytest.mark.parametrize("text, reason", [
    ('[{"name": "f", "description": "d", "input_schema": {"type": "object", "maximum": NaN}}]',
     "NaN is not JSON"),
    ("[" * 50_000 + "]" * 50_000, "file nested deeper than 64 levels"),
    ("\x00\x01garbage", "not valid JSON: Expecting value (line 1, column 1)"),
    # The findings: a 5,000-digit integer raised ValueError; 1e999 was written out as Infinity.
    ('[{"name": "f", "description": "d", "input_schema": {"type": "object", "maximum": ' + "9" * 5000 + "}}]",
     "integer with more than 300 digits"),
    ('[{"name": "f", "description": "d", "input_schema": {"type": "object", "maximum": 1e999}}]',
     "number 1e999 is out of range"),
    ('[{"name": "f", "description": "d", "input_schema": {"type": "object", "maximum": -1e999}}]',
     "number -1e999 is out of range"),
    ('[{"name": "f", "description": "bad \\ud800", "input_schema": {"type": "object"}}]',
     "string with a lone surrogate (not Unicode text)"),
])
@pytest.mark.parametrize("verb", ["import", "lint"])
def test_hostile_files_are_refused(verb, text, reason, tmp_path):
    source = write(tmp_path, text)
    assert cli("tools", verb, source) == (2, "", f"toolproof: {source}: {reason}\n")


@pytest.mark.parametrize("verb", ["import", "lint"])
def test_binary_and_oversized_files(verb, tmp_path):
    binary = tmp_path / "b.json"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    assert cli("tools", verb, str(binary)) == (2, "", f"toolproof: {binary}: not UTF-8 text (byte 0)\n")


def test_control_characters_in_names_are_refused_by_import_and_escaped_by_lint(tmp_path):
    source = write(tmp_path, [{"name": "get\x1b[2Jweather\u202e", "description": "d\u200b",
                               "input_schema": {"type": "object", "properties": {"a\x07": {"type": "string"}}}}])
    code, out, err = cli("tools", "import", source)
    assert (code, out) == (2, "")
    assert err == (f"toolproof: {source}: at $[0].name: 'get\\x1b[2Jweather\\u202e' does not match "
                   "'^[A-Za-z0-9_.-]{1,128}$'\n")
    code, out, _ = cli("tools", "lint", source)
    assert code == 1
    assert "\x1b" not in out and "\u202e" not in out and "\x07" not in out and "\u200b" not in out
    assert "get\\x1b[2Jweather\\u202e  $[0].name" in out
    code, out, _ = cli("tools", "lint", source, "--format", "json")
    codes = [(f["code"], f["path"]) for f in json.loads(out)["findings"]]
    assert ("hidden-characters", "$[0].name") in codes and ("hidden-characters", "$[0].input_schema.properties.a\x07") in codes
    assert out.isascii()


def test_ten_thousand_tools(tmp_path):
    tools = [{"type": "function", "function": {"name": f"tool_{i}", "description": f"Tool {i}: does job {i} well.",
                                               "parameters": {"type": "object", "properties": {
                                                   "x": {"type": "string", "description": "x"}}, "required": ["x"]}}}
             for i in range(10_000)]
    source = write(tmp_path, tools)
    out = tmp_path / "tools.json"
    code, _, err = cli("tools", "import", source, "--out", str(out))
    assert code == 0 and err == f"toolproof: 10000 tools from OpenAI Chat Completions tools written to {out}\n"
    code, out_text, _ = cli("tools", "lint", source, "--format", "json")
    assert (code, json.loads(out_text)) == (0, {"findings": []})


# lint
def test_lint_data_tools_exits_0_with_warnings_only():
    code, out, err = cli("tools", "lint", str(DATA / "tools.json"))
    assert (code, err) == (0, "")
    assert out.splitlines()[-1].startswith(f"lint: {len(read_json(DATA / 'tools.json')['tools'])} tools, 0 errors, ")


def test_lint_json_shape_and_exit_1_on_an_error(tmp_path):
    source = write(tmp_path, {"tools": [{"name": "f", "inputSchema": {"type": "object", "properties": {}}}]})
    code, out, err = cli("tools", "lint", source, "--format", "json")
    assert (code, err) == (1, "")
    assert json.loads(out) == {"findings": [{"code": "missing-description", "severity": "error", "tool": "f",
                                             "path": "$.tools[0].description",
                                             "message": "tool 'f' has no description"}]}


def test_lint_text_lists_each_finding_and_a_summary(tmp_path):
    source = write(tmp_path, [{"name": "f", "input_schema": {"type": "object", "properties": {}}}])
    assert cli("tools", "lint", source) == (1, "error   missing-description        f  $[0].description\n"
                                               "        tool 'f' has no description\n"
                                               "lint: 1 tool, 1 error, 0 warnings\n", "")


def test_lint_refuses_an_unknown_shape(tmp_path):
    source = write(tmp_path, {"openapi": "3.1.0"})
    assert cli("tools", "lint", source) == (
        2, "", f"toolproof: {source}: at $: not a tool definition document: an object needs 'tools', "
               "'functionDeclarations' or 'format' (keys seen: 'openapi')\n")


# --mcp-stdio through the CLI
@pytest.fixture()
def fake(tmp_path) -> str:
    return fake_server(tmp_path)


def test_mcp_stdio_import(fake, tmp_path):
    out = tmp_path / "tools.json"
    code, _, err = cli("tools", "import", "--mcp-stdio", f"{fake} ok", "--out", str(out), "--timeout", "600")
    assert (code, err) == (0, f"toolproof: 3 tools from MCP tools/list written to {out}\n")
    doc = json.loads(out.read_text())
    assert [t["name"] for t in doc["tools"]] == ["tool_0", "tool_1", "tool_2"]
    assert doc["tools"][0]["annotations"] == {"readOnlyHint": True} and "domain" not in doc["tools"][0]


@pytest.mark.parametrize("mode, line", [
    ("garbage", "toolproof: the server wrote something that is not JSON-RPC on stdout: 'Starting server on stdio...'\n"),
    ("exit", "toolproof: the server exited (status 3) during initialize; its last stderr line: "
             "'ImportError: no module named fastmcp'\n"),
])
def test_mcp_stdio_failures_are_one_line(fake, mode, line):
    assert cli("tools", "import", "--mcp-stdio", f"{fake} {mode}", "--timeout", "600") == (2, "", line)


def test_mcp_stdio_timeout_flag(fake):
    assert cli("tools", "import", "--mcp-stdio", f"{fake} hang", "--timeout", "0.5") == (
        2, "", "toolproof: initialize: no answer within 0.5 s (--timeout to wait longer)\n")


def test_mcp_stdio_real_time_server(tmp_path):
    if shutil.which("mcp-server-time") is None:
        pytest.skip("mcp-server-time is not installed (pip install mcp-server-time)")
    out = tmp_path / "tools.json"
    code, _, err = cli("tools", "import", "--mcp-stdio", "mcp-server-time", "--out", str(out), "--timeout", "600")
    assert code == 0, err
    tools = {t["name"]: t for t in json.loads(out.read_text())["tools"]}
    assert tools["get_current_time"]["annotations"]["readOnlyHint"] is True
    assert tools["convert_time"]["parameters"]["required"] == ["source_timezone", "time", "target_timezone"]
    assert cli("tools", "lint", str(out))[0] == 0


# Files that are not files, and what import writes (issue 19).
@pytest.mark.parametrize("verb", ["import", "lint"])
def test_a_fifo_is_refused_not_waited_on(verb, tmp_path):
    import os
    import subprocess
    import sys

    fifo = tmp_path / "tools.json"
    os.mkfifo(fifo)
    # in a child process, so a regression shows as a failed test, not a hung suite
    done = subprocess.run([sys.executable, "-m", "toolproof", "tools", verb, str(fifo)], capture_output=True,
                          text=True, timeout=120, cwd=ROOT)
    assert (done.returncode, done.stdout, done.stderr) == (2, "", f"toolproof: {fifo}: not a regular file (a FIFO)\n")


def _anthropic_nested(depth: int) -> list:
    """An Anthropic file whose schema is `depth` objects deep (each `items` one level more)."""
    schema: dict = {"type": "string"}
    for _ in range(depth - 2):
        schema = {"type": "array", "items": schema}
    return [{"name": "f", "description": "d", "input_schema": {"type": "object", "properties": {"a": schema}}}]


def test_a_source_within_the_limits_that_comes_out_too_deep_is_refused_at_import(tmp_path):
    # The finding: a deep schema was imported, then refused by grade/run/validate. tools.json
    # wraps a schema one level deeper than an Anthropic file does, so at some depth the source
    # reads and its tools.json would not: every depth is either written and read back by grade's
    # reader, or refused at import with one line and nothing written.
    from toolproof.datafiles import read_json

    outcomes = set()
    for depth in range(58, 66):
        source = write(tmp_path, _anthropic_nested(depth), f"d{depth}.json")
        out = tmp_path / f"d{depth}.out.json"
        code, stdout, stderr = cli("tools", "import", source, "--out", str(out))
        outcomes.add(code)
        assert stdout == "" and stderr.count("\n") == 1 and "Traceback" not in stderr
        if code == 0:
            assert read_json(out)["tools"]
        else:
            assert code == 2 and stderr.startswith(f"toolproof: {source}: ") and not out.exists()
    assert outcomes == {0, 2}
    assert cli("tools", "import", str(tmp_path / "d61.json"))[2] == (
        f"toolproof: {tmp_path / 'd61.json'}: its tools.json would not load (file nested deeper than 64 levels); "
        "simplify the schema\n")


def test_out_refuses_the_projects_data_folder(tmp_path):
    before = (DATA / "tools.json").read_bytes()
    for target in (DATA / "tools.json", DATA / "new.json", DATA / "schemas" / "x.json"):
        code, stdout, stderr = cli("tools", "import", str(DATA / "tools.json"), "--out", str(target), "--force")
        assert (code, stdout) == (2, "")
        why = ("--out names a SOURCE file this command reads; choose another path" if target.name == "tools.json"
               else "--out: refusing to write into ToolProof's own data folder (the committed suite); choose another folder")
        assert stderr == f"toolproof: {target}: {why}\n"
    assert (DATA / "tools.json").read_bytes() == before and not (DATA / "new.json").exists()


def test_out_never_replaces_a_file_without_force_and_writes_atomically(tmp_path):
    out = tmp_path / "mine.json"
    out.write_text("my notes")
    code, _, stderr = cli("tools", "import", str(DATA / "tools.json"), "--out", str(out))
    assert (code, stderr) == (2, f"toolproof: {out}: --out: the file exists; choose a new path, or add --force to "
                                 "replace it\n")
    assert out.read_text() == "my notes"
    assert cli("tools", "import", str(DATA / "tools.json"), "--out", str(out), "--force")[0] == 0
    assert json.loads(out.read_text())["tools"] and sorted(p.name for p in tmp_path.iterdir()) == ["mine.json"]
    (tmp_path / "folder").mkdir()
    code, _, stderr = cli("tools", "import", str(DATA / "tools.json"), "--out", str(tmp_path / "folder"), "--force")
    assert (code, stderr) == (2, f"toolproof: {tmp_path / 'folder'}: --out: exists and is not a regular file; "
                                 "choose another path\n")


# Issue 38: one unreadable tool lost the whole file; now every tool that loads is kept (the page's
# rule, authoring.tool_offer.kept_tools), the rest listed with why, and the exit is 1.
def mcp(*tools: dict) -> dict:
    return {"tools": [{"name": "t", "description": "Does t.", "inputSchema": {"type": "object"}, **t} for t in tools]}


def test_an_mcp_file_with_one_empty_description_keeps_the_others(tmp_path):
    source = write(tmp_path, mcp({"name": "search"}, {"name": "blank", "description": ""}, {"name": "fetch"}))
    out = tmp_path / "tools.json"
    code, stdout, stderr = cli("tools", "import", source, "--out", str(out))
    assert (code, stdout) == (1, "")
    assert stderr.splitlines() == [
        f"toolproof: {source}: at $.tools[1].description: tool 'blank' has no description; the tools format "
        "needs one (add it; `tools lint` lists every such tool)",
        f"toolproof: 2 of 3 tools from MCP tools/list written to {out}; 1 tool not imported (listed above); exit 1"]
    assert [t["name"] for t in json.loads(out.read_text(encoding="utf-8"))["tools"]] == ["search", "fetch"]
    from toolproof.suite.load import parse_tools

    assert len(parse_tools(json.loads(out.read_text(encoding="utf-8")), format_schema("tools"), "t")) == 2
    # the page imports the same tools from the same text: one rule
    from toolproof.authoring.draft_suite import import_tools

    page = import_tools(Path(source).read_text(encoding="utf-8"), format_schema("tools"), source)
    assert page.document["tools"] == json.loads(out.read_text(encoding="utf-8"))["tools"]
    assert [r.line for r in page.refused] == [stderr.splitlines()[0][len("toolproof: "):]]


def test_a_blank_description_is_no_description_for_import_as_for_lint(tmp_path):
    """A description of spaces was imported, then `tools lint` of the imported file called it an
    error ("has no description"): import and lint now read a description by one rule."""
    source = write(tmp_path, mcp({"name": "search"}, {"name": "spaces", "description": " \t\n "}))
    out = tmp_path / "tools.json"
    code, _, stderr = cli("tools", "import", source, "--out", str(out))
    assert code == 1 and "at $.tools[1].description: tool 'spaces' has no description" in stderr
    assert [t["name"] for t in json.loads(out.read_text(encoding="utf-8"))["tools"]] == ["search"]
    assert cli("tools", "lint", str(out))[0] == 0


def test_without_out_the_partial_file_goes_to_stdout_and_exit_is_1(tmp_path):
    source = write(tmp_path, mcp({"name": "ok"}, {"name": "bad", "inputSchema": {"type": "object", "properties": {
        "x": {"type": "objekt"}}}}))
    code, stdout, stderr = cli("tools", "import", source)
    assert code == 1 and [t["name"] for t in json.loads(stdout)["tools"]] == ["ok"]
    assert stderr.endswith("toolproof: printed 1 of 2 tools from MCP tools/list; 1 tool not imported "
                           "(listed above); exit 1\n")


def test_an_existing_out_is_never_replaced_by_a_partial_import(tmp_path):
    source = write(tmp_path, mcp({"name": "ok"}, {"name": "blank", "description": ""}))
    out = tmp_path / "tools.json"
    out.write_text("mine", encoding="utf-8")
    code, _, stderr = cli("tools", "import", source, "--out", str(out))
    assert code == 2 and out.read_text(encoding="utf-8") == "mine" and "--force" in stderr


def test_when_no_tool_loads_every_reason_is_listed_and_nothing_is_written(tmp_path):
    source = write(tmp_path, mcp({"name": "a", "description": ""}, {"name": "b\x1b[2J", "description": "   "}))
    out = tmp_path / "tools.json"
    code, stdout, stderr = cli("tools", "import", source, "--out", str(out))
    assert (code, stdout) == (2, "") and not out.exists()
    lines = stderr.splitlines()
    assert len(lines) == 3 and "'a' has no description" in lines[0] and "\x1b" not in stderr
    assert lines[2] == f"toolproof: {source}: no tool imported: all 2 tools were refused (listed above)"


def test_thousands_of_bad_tools_beside_one_good_are_listed_within_bounds(tmp_path):
    source = write(tmp_path, mcp({"name": "good"}, *({"name": f"b{i}", "description": ""} for i in range(3000))))
    code, stdout, stderr = cli("tools", "import", source)
    assert code == 1 and [t["name"] for t in json.loads(stdout)["tools"]] == ["good"]
    lines = stderr.splitlines()
    assert len(lines) == 52 and lines[50] == "toolproof: … (2950 more not imported)"
    assert lines[51] == ("toolproof: printed 1 of 3001 tools from MCP tools/list; 3000 tools not imported "
                         "(listed above); exit 1")


def test_mcp_stdio_keeps_the_tools_a_server_lists_well(fake, tmp_path):
    out = tmp_path / "tools.json"
    code, _, err = cli("tools", "import", "--mcp-stdio", f"{fake} blank", "--out", str(out), "--timeout", "600")
    assert code == 1 and err.splitlines()[0].startswith(
        "toolproof: --mcp-stdio: at $.tools[1].description: tool 'tool_1' has no description")
    assert [t["name"] for t in json.loads(out.read_text())["tools"]] == ["tool_0", "tool_2"]


def test_tools_that_cannot_be_read_are_listed_and_the_others_kept(tmp_path):
    # a schema that is not an object, a name that is not a string, no inputSchema at all: each is
    # refused alone (with the importer's reason and place), in the page and the terminal alike
    source = write(tmp_path, {"tools": [
        {"name": "ok", "description": "Does ok.", "inputSchema": {"type": "object"}},
        {"name": "arr", "description": "d", "inputSchema": []},
        {"name": 7, "description": "d", "inputSchema": {"type": "object"}},
        {"name": "bare", "description": "d"},
        {"name": "ok2", "description": "Does ok2.", "inputSchema": {"type": "object"}}]})
    code, stdout, stderr = cli("tools", "import", source)
    assert code == 1 and [t["name"] for t in json.loads(stdout)["tools"]] == ["ok", "ok2"]
    assert stderr.splitlines() == [
        f"toolproof: {source}: at $.tools[1].inputSchema: tool 'arr': 'inputSchema' must be a JSON object, not an array",
        f"toolproof: {source}: at $.tools[2].name: a tool's 'name' must be a string, not a number",
        f"toolproof: {source}: at $.tools[3]: tool 'bare' has no 'inputSchema'",
        "toolproof: printed 2 of 5 tools from MCP tools/list; 3 tools not imported (listed above); exit 1"]
    from toolproof.authoring.draft_suite import import_tools

    page = import_tools(Path(source).read_text(encoding="utf-8"), format_schema("tools"), source)
    assert page.document["tools"] == json.loads(stdout)["tools"]
    assert ["toolproof: " + r.line for r in page.refused] == stderr.splitlines()[:3]
    # lint still reads a file whole, or says why not
    assert cli("tools", "lint", source)[0] == 2


def test_a_request_body_with_a_built_in_tool_keeps_its_functions(tmp_path):
    source = write(tmp_path, {"model": "m", "tools": [
        {"type": "web_search"},
        {"type": "function", "name": "get_weather", "description": "Weather now.",
         "parameters": {"type": "object", "properties": {}, "required": []}}]})
    code, stdout, stderr = cli("tools", "import", source)
    assert code == 1 and [t["name"] for t in json.loads(stdout)["tools"]] == ["get_weather"]
    assert stderr.splitlines()[0] == (f"toolproof: {source}: at $.tools[0].type: only function tools can be "
                                      "imported, not type 'web_search'")
