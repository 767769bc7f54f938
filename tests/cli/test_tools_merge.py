"""`tools import` of several sources into one file (issue 22 item 3): same-named tools from
different sources are kept apart by an id derived from the source, never refused or renamed;
distinct names import exactly as before; a bad source is refused naming its file."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from fakemcp import fake_server
from clirun import cli
from toolproof.datafiles import format_schema
from toolproof.importers.merge import source_label, unique_labels
from toolproof.suite.load import parse_tools


def mcp_list(*tools: tuple) -> dict:
    return {"tools": [{"name": n, "description": d, "inputSchema": {"type": "object", "properties": {}}}
                      for n, d in tools]}


def write(folder: Path, name: str, doc) -> str:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc), encoding="utf-8")
    return str(path)


def test_two_servers_exposing_search_keep_both_apart_by_id(tmp_path):
    github = write(tmp_path, "github.json", mcp_list(("search", "Search code on GitHub."), ("get_issue", "An issue.")))
    jira = write(tmp_path, "jira.json", mcp_list(("search", "Search Jira tickets."), ("create_ticket", "A ticket.")))
    out = tmp_path / "tools.json"
    code, _, err = cli("tools", "import", github, jira, "--out", str(out))
    assert code == 0, err
    assert err == (f"toolproof: 4 tools from 2 sources (github, jira); 2 share a name with another source's "
                   f"tool, kept apart by id written to {out}\n")
    doc = json.loads(out.read_text())
    assert [(t.get("id"), t["name"], t["description"]) for t in doc["tools"]] == [
        ("search@github", "search", "Search code on GitHub."), (None, "get_issue", "An issue."),
        ("search@jira", "search", "Search Jira tickets."), (None, "create_ticket", "A ticket.")]
    tools = parse_tools(doc, format_schema("tools"))
    assert [t.label for t in tools.values()] == ["search [search@github]", "get_issue", "search [search@jira]",
                                                 "create_ticket"]
    assert cli("tools", "lint", str(out))[0] == 0


def test_sources_with_distinct_names_import_as_before(tmp_path):
    a = write(tmp_path, "a.json", mcp_list(("one", "One.")))
    b = write(tmp_path, "b.json", mcp_list(("two", "Two.")))
    code, out, _ = cli("tools", "import", a, b)
    assert code == 0 and [set(t) for t in json.loads(out)["tools"]] == [{"name", "description", "parameters"}] * 2


def test_sources_of_one_stem_get_distinct_labels(tmp_path):
    first = write(tmp_path / "x", "tools.json", mcp_list(("search", "A.")))
    second = write(tmp_path / "y", "tools.json", mcp_list(("search", "B.")))
    code, out, _ = cli("tools", "import", first, second)
    assert code == 0 and [t["id"] for t in json.loads(out)["tools"]] == ["search@tools", "search@tools-2"]


def test_two_mcp_servers_over_stdio(tmp_path):
    fake = fake_server(tmp_path)
    code, out, err = cli("tools", "import", "--mcp-stdio", f"{fake} ok", "--mcp-stdio", f"{fake} ok",
                         "--timeout", "600")      # two Python servers starting on a busy machine
    assert code == 0, err
    assert [(t["id"], t["name"]) for t in json.loads(out)["tools"]] == [
        ("tool_0@fake_server", "tool_0"), ("tool_1@fake_server", "tool_1"), ("tool_2@fake_server", "tool_2"),
        ("tool_0@fake_server-2", "tool_0"), ("tool_1@fake_server-2", "tool_1"), ("tool_2@fake_server-2", "tool_2")]


def test_a_malformed_source_is_refused_naming_its_file(tmp_path):
    good = write(tmp_path, "good.json", mcp_list(("search", "S.")))
    bad = write(tmp_path, "bad.json", {"tools": [{"name": "search", "inputSchema": []}]})
    assert cli("tools", "import", good, bad) == (
        2, "", f"toolproof: {bad}: at $.tools[0].inputSchema: tool 'search': 'inputSchema' must be a JSON object, "
               "not an array\n")
    # a name twice inside one source: the first is kept, the second listed (the page's rule)
    dup = write(tmp_path, "dup.json", mcp_list(("search", "S."), ("search", "T.")))
    code, out, err = cli("tools", "import", good, dup)
    assert code == 1 and err.splitlines() == [
        f"toolproof: {dup}: at $.tools[1].name: a second tool named 'search': only the first is kept",
        "toolproof: printed 2 of 3 tools from 2 sources (good, dup); 2 share a name with another source's tool, "
        "kept apart by id; 1 tool not imported (listed above); exit 1"]
    assert [(t["id"], t["description"]) for t in json.loads(out)["tools"]] == [("search@good", "S."), ("search@dup", "S.")]


def test_hostile_sources_thousands_of_shared_names_and_control_characters_in_the_path(tmp_path):
    many = [(f"t{i}", "d") for i in range(3000)]
    a = write(tmp_path, "a\x1b[31m\u202e.json", mcp_list(*many))
    b = write(tmp_path, "b.json", mcp_list(*many))
    code, out, err = cli("tools", "import", a, b, "--out", str(tmp_path / "o.json"))
    assert code == 0, err
    assert "\x1b" not in err and "\u202e" not in err
    doc = json.loads((tmp_path / "o.json").read_text())
    assert len(doc["tools"]) == 6000 and doc["tools"][0]["id"] == "t0@a__31m_"


@pytest.mark.parametrize("source, label", [
    ("servers/github.json", "github"), ("npx -y @modelcontextprotocol/server-github", "server-github"),
    ("python -m mcp_server_time --local-timezone UTC", "mcp_server_time"),
    ("mcp-server-git --repository .", "mcp-server-git"), ("/usr/bin/python3.11 /srv/fake.py ok", "fake"),
    ("", "source"), ("C:\\tools\\jira.JSON", "jira"), ("x" * 500, "x" * 60),
])
def test_source_labels(source, label):
    assert source_label(source) == label


def test_unique_labels():
    assert unique_labels(["a.json", "b/a.json", "c.json", "d/a.json"]) == ["a", "a-2", "c", "a-3"]
