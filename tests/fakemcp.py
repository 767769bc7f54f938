"""A fake MCP stdio server, as Python source written to a file and started per test.

Its first argument picks a behaviour: "ok" pages through three tools (pinging the client and
sending a notification on the way); "garbage", "hang", "exit", "huge", "noisy", "error", "loop"
and "die-mid" are the ways a real server goes wrong. Shared by the MCP client and CLI tests.
"""
from __future__ import annotations

import shlex
import sys
from pathlib import Path

SOURCE = r'''
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


def fake_server(folder: Path) -> str:
    """Write the server into `folder`; the command line that starts it (append the mode)."""
    path = folder / "fake_server.py"
    path.write_text(SOURCE)
    return f"{shlex.quote(sys.executable)} {shlex.quote(str(path))}"
