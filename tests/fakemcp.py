"""A fake MCP stdio server, as Python source written to a file and started per test.

Its first argument picks a behaviour: "ok" pages through three tools (pinging the client and
sending a notification on the way); "garbage", "hang", "exit", "huge", "noisy", "error", "loop"
and "die-mid" are the ways a real server goes wrong. Processes that outlive a careless client:
"fork" (a child that ignores SIGTERM and holds stdout), "wrapper" (a launcher like npx whose
child, "stubborn", ignores EOF and SIGTERM), "exit-child" (exits at once while its child holds
stdout), "launcher" (exits at once, its child "late" answering on the same pipes only 2 s after
that, as a loaded machine may make it); their second argument is a file the child writes its pid
to. "big N" lists N MB of tools in one answer; "blank" is "ok" with the second tool's description
empty (issue 38: one such tool lost the whole import).
Shared by the MCP client and CLI tests and benchmarks/mcp_import.py.
"""
from __future__ import annotations

import shlex
import sys
from pathlib import Path

SOURCE = r'''
import json, os, signal, subprocess, sys, time
mode = sys.argv[1]
def stubborn():
    """Ignore SIGTERM, then say so: the pid file exists only once the signal is ignored."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    with open(sys.argv[2] + ".tmp", "w") as f:
        f.write(str(os.getpid()))
    os.replace(sys.argv[2] + ".tmp", sys.argv[2])
def linger():
    stubborn()
    time.sleep(300)
    sys.exit(0)
def wait_for_pid_file():
    while not os.path.exists(sys.argv[2]):
        time.sleep(0.01)
if mode == "fork":
    if os.fork() == 0:
        linger()
    wait_for_pid_file()
    mode = "ok"
if mode == "wrapper":
    sys.exit(subprocess.call([sys.executable, __file__, "stubborn", sys.argv[2]]))
if mode == "exit-child":
    subprocess.Popen([sys.executable, __file__, "linger", sys.argv[2]])
    wait_for_pid_file()
    sys.exit(4)
if mode == "launcher":
    subprocess.Popen([sys.executable, __file__, "late", sys.argv[2], str(os.getpid())])
    sys.exit(0)
if mode == "late":
    with open(sys.argv[2] + ".tmp", "w") as f:
        f.write(str(os.getpid()))
    os.replace(sys.argv[2] + ".tmp", sys.argv[2])
    while os.getppid() == int(sys.argv[3]):      # until the launcher has exited
        time.sleep(0.01)
    time.sleep(2)                                # then slow, as on a busy machine
if mode == "linger":
    linger()
if mode == "stubborn":
    stubborn()
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
        if mode == "big":
            size, text = int(sys.argv[2]) * 1_000_000, "Does one thing well. " * 300
            big = [dict(tool(i), description=f"{i}: {text}") for i in range(size // (len(text) + 200) + 1)]
            send({"jsonrpc": "2.0", "id": msg["id"], "result": {"tools": big}}); continue
        if mode == "error":
            send({"jsonrpc": "2.0", "id": msg["id"], "error": {"code": -32603, "message": "db down"}}); continue
        if mode == "loop":
            send({"jsonrpc": "2.0", "id": msg["id"], "result": {"tools": [tool(0)], "nextCursor": "again"}}); continue
        if mode == "die-mid":
            sys.exit(0)
        nxt, i = PAGES[cursor]
        result = {"tools": [dict(tool(i), description="") if mode == "blank" and i == 1 else tool(i)]}
        if nxt:
            result["nextCursor"] = nxt
        send({"jsonrpc": "2.0", "id": msg["id"], "result": result})
if mode == "stubborn":
    time.sleep(300)                  # ignores EOF too, as some launchers' children do
'''


def fake_server(folder: Path) -> str:
    """Write the server into `folder`; the command line that starts it (append the mode)."""
    path = folder / "fake_server.py"
    path.write_text(SOURCE)
    return f"{shlex.quote(sys.executable)} {shlex.quote(str(path))}"
