"""The MCP stdio client against a fake server this test writes (every way a server goes wrong)
and against the real PyPI servers mcp-server-time and mcp-server-git (skipped, with the reason,
when they are not installed)."""
from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
import time

import pytest

from toolproof.errors import ToolProofError
from toolproof.cli.mcp_stdio import list_tools_stdio

FAKE = r'''
import json, sys, time
mode = sys.argv[1]
PAGES = {None: ("p2", 0), "p2": ("p3", 1), "p3": (None, 2)}
def tool(i):
    return {"name": f"tool_{i}", "description": f"Tool number {i}.", "annotations": {"readOnlyHint": i == 0},
            "inputSchema": {"type": "object", "properties": {"x": {"type": "string", "title": "X"}}, "required": []}}
def send(msg):
    sys.stdout.write(json.dumps(msg) + "\n"); sys.stdout.flush()
if mode == "garbage":
    print("Starting server on stdio..."); sys.stdout.flush()
if mode == "hang":
    time.sleep(60)
if mode == "exit":
    sys.stderr.write("Traceback (most recent call last):\n  boom\x1b[31m\nImportError: no module named fastmcp\n")
    sys.exit(3)
if mode == "huge":
    sys.stdout.write("[" * 300_000); sys.stdout.flush(); time.sleep(60)
if mode == "noisy":
    sys.stderr.write("x" * 1_000_000); sys.stderr.flush()
for line in sys.stdin:
    msg = json.loads(line)
    if "id" not in msg:
        assert msg["method"] == "notifications/initialized"
        continue
    if "method" not in msg:          # our answer to the server's ping
        assert msg["result"] == {}, msg
        continue
    if msg["method"] == "initialize":
        assert msg["params"]["protocolVersion"] and msg["params"]["clientInfo"]["name"] == "toolproof"
        send({"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": "hi"}})
        send({"jsonrpc": "2.0", "id": "srv-1", "method": "ping"})
        send({"jsonrpc": "2.0", "id": msg["id"], "result": {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}},
                                                           "serverInfo": {"name": "fake", "version": "1"}}})
    elif msg["method"] == "tools/list":
        cursor = msg["params"].get("cursor")
        if mode == "error":
            send({"jsonrpc": "2.0", "id": msg["id"], "error": {"code": -32603, "message": "db down"}}); continue
        if mode == "loop":
            send({"jsonrpc": "2.0", "id": msg["id"], "result": {"tools": [tool(0)], "nextCursor": "again"}}); continue
        if mode == "die-mid":
            sys.exit(0)
        nxt, i = PAGES[cursor]
        result = {"tools": [tool(i)]}
        if nxt:
            result["nextCursor"] = nxt
        send({"jsonrpc": "2.0", "id": msg["id"], "result": result})
'''


@pytest.fixture(scope="module")
def fake(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("mcp") / "fake_server.py"
    path.write_text(FAKE)
    return f"{shlex.quote(sys.executable)} {shlex.quote(str(path))}"


def test_pagination_pings_and_notifications(fake):
    listed = list_tools_stdio(f"{fake} ok", timeout_s=20)
    assert listed["server"] == {"name": "fake", "version": "1"}
    assert [t["name"] for t in listed["tools"]] == ["tool_0", "tool_1", "tool_2"]
    assert listed["tools"][0]["annotations"] == {"readOnlyHint": True}


@pytest.mark.parametrize("mode, message", [
    ("garbage", "the server wrote something that is not JSON-RPC on stdout: 'Starting server on stdio...'"),
    ("exit", "the server exited with code 3 during initialize; its last stderr line: "
             "'ImportError: no module named fastmcp'"),
    ("error", "tools/list failed: the server answered error -32603: 'db down'"),
    ("loop", "tools/list: the server repeated the cursor 'again'; stopping instead of looping forever"),
    ("die-mid", "the server exited with code 0 during tools/list"),
])
def test_a_broken_server_is_one_line(fake, mode, message):
    with pytest.raises(ToolProofError) as exc:
        list_tools_stdio(f"{fake} {mode}", timeout_s=20)
    assert exc.value.line() == message


def test_a_server_that_never_answers_hits_the_deadline(fake):
    start = time.monotonic()
    with pytest.raises(ToolProofError) as exc:
        list_tools_stdio(f"{fake} hang", timeout_s=1.5)
    assert exc.value.line() == "initialize: no answer within 1.5 s (--timeout to wait longer)"
    assert time.monotonic() - start < 1.5 + 2 * 2.0 + 2      # deadline + terminate grace + slack


def test_output_is_bounded(fake):
    with pytest.raises(ToolProofError) as exc:
        list_tools_stdio(f"{fake} huge", timeout_s=20, max_bytes=100_000)
    assert exc.value.line() == "the server wrote more than 100,000 bytes; stopping"


def test_a_noisy_stderr_neither_blocks_nor_leaks(fake):
    listed = list_tools_stdio(f"{fake} noisy", timeout_s=20)
    assert len(listed["tools"]) == 3


@pytest.mark.parametrize("command, message", [
    ("", '--mcp-stdio needs a command, e.g. --mcp-stdio "mcp-server-time"'),
    ('"unterminated', "--mcp-stdio: cannot split the command: No closing quotation"),
    ("/nonexistent/mcp-server", "cannot start '/nonexistent/mcp-server': No such file or directory"),
])
def test_commands_that_cannot_start(command, message):
    with pytest.raises(ToolProofError) as exc:
        list_tools_stdio(command, timeout_s=5)
    assert exc.value.line() == message


def test_no_server_process_is_left_behind(fake):
    before = _children()
    with pytest.raises(ToolProofError):
        list_tools_stdio(f"{fake} hang", timeout_s=0.5)
    list_tools_stdio(f"{fake} ok", timeout_s=20)
    assert _children() <= before


def _children() -> set:
    out = subprocess.run(["ps", "-o", "pid=,args=", "--ppid", str(os.getpid())],
                         capture_output=True, text=True).stdout
    return {line for line in out.splitlines() if "fake_server.py" in line}


# The real servers from PyPI (pip install mcp-server-time mcp-server-git).
def _real(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        pytest.skip(f"{name} is not installed (pip install {name}); the real-server import is untested here")
    return path


def _raw_tools_list(command: list[str]) -> list:
    """The server's own tools/list answer, read by a few lines of plain JSON-RPC, to compare with."""
    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "0"}}}
    proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            text=True)
    try:
        answers = []
        for message in (init, {"jsonrpc": "2.0", "method": "notifications/initialized"},
                        {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}}):
            proc.stdin.write(json.dumps(message) + "\n")
            proc.stdin.flush()
            if "id" in message:        # wait for this answer before the next message
                while not answers or answers[-1].get("id") != message["id"]:
                    answers.append(json.loads(proc.stdout.readline()))
        return answers[-1]["result"]["tools"]
    finally:
        proc.stdin.close()
        proc.wait(timeout=10)


@pytest.mark.parametrize("name, expected", [
    ("mcp-server-time", {"get_current_time", "convert_time"}),
    ("mcp-server-git", {"git_status", "git_diff", "git_commit", "git_log", "git_show"}),
])
def test_real_pypi_servers_list_their_tools_verbatim(name, expected, tmp_path):
    command = [_real(name)] + (["--repository", str(tmp_path)] if name == "mcp-server-git" else [])
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    listed = list_tools_stdio(shlex.join(command), timeout_s=60)
    assert expected <= {t["name"] for t in listed["tools"]}
    assert listed["tools"] == _raw_tools_list(command)
