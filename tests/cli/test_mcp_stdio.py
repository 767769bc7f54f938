"""The MCP stdio client against a fake server (tests/fakemcp.py: every way a server goes wrong)
and against the real PyPI servers mcp-server-time and mcp-server-git (skipped, with the reason,
when they are not installed)."""
from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from fakemcp import fake_server
from toolproof.errors import ToolProofError
from toolproof.cli.mcp_stdio import list_tools_stdio

# A server that answers gets all a busy machine needs (a Python process starting at load 10 took
# over 30 s): only the tests of the deadline itself use a short one.
BUSY = 600


@pytest.fixture(scope="module")
def fake(tmp_path_factory) -> str:
    return fake_server(tmp_path_factory.mktemp("mcp"))


def test_pagination_pings_and_notifications(fake):
    listed = list_tools_stdio(f"{fake} ok", timeout_s=BUSY)
    assert listed["server"] == {"name": "fake", "version": "1"}
    assert [t["name"] for t in listed["tools"]] == ["tool_0", "tool_1", "tool_2"]
    assert listed["tools"][0]["annotations"] == {"readOnlyHint": True}


@pytest.mark.parametrize("mode, message", [
    ("garbage", "the server wrote something that is not JSON-RPC on stdout: 'Starting server on stdio...'"),
    ("exit", "the server exited (status 3) during initialize; its last stderr line: "
             "'ImportError: no module named fastmcp'"),
    ("error", "tools/list failed: the server answered error -32603: 'db down'"),
    ("loop", "tools/list: the server repeated the cursor 'again'; stopping instead of looping forever"),
    ("die-mid", "the server exited (status 0) during tools/list"),
])
def test_a_broken_server_is_one_line(fake, mode, message):
    with pytest.raises(ToolProofError) as exc:
        list_tools_stdio(f"{fake} {mode}", timeout_s=BUSY)
    assert exc.value.line() == message


def test_a_server_that_never_answers_hits_the_deadline(fake):
    with pytest.raises(ToolProofError) as exc:
        list_tools_stdio(f"{fake} hang", timeout_s=1.5)
    assert exc.value.line() == "initialize: no answer within 1.5 s (--timeout to wait longer)"


def test_a_server_flooding_pings_and_never_reading_hits_the_deadline():
    # The finding: our answer to its pings blocked on a full pipe, past --timeout, for good. `yes`
    # is such a server and starts in milliseconds on a busy machine too (a Python one could take
    # longer than the deadline to start, which then passed on "no answer" instead).
    ping = json.dumps({"jsonrpc": "2.0", "id": "p", "method": "ping"})
    with pytest.raises(ToolProofError) as exc:
        list_tools_stdio(shlex.join(["yes", ping]), timeout_s=3)
    assert exc.value.line() == ("a reply to the server: the server does not read its input (no room in its pipe "
                                "within 3 s; --timeout to wait longer)")


def _gone(pid: int) -> bool:
    """Not running: no such process, or a zombie nobody reaped (PID 1 here may not reap)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except (FileNotFoundError, ProcessLookupError):
        return True


@pytest.mark.parametrize("mode", ["fork", "wrapper"])
def test_no_process_of_the_server_survives_the_import(fake, mode, tmp_path):
    # The finding: a forking server, or a launcher (npx, uvx) whose child ignores EOF and
    # SIGTERM, left processes running after the import.
    pid_file = tmp_path / "child.pid"
    listed = list_tools_stdio(f"{fake} {mode} {pid_file}", timeout_s=60)      # the deadline is not the point
    assert [t["name"] for t in listed["tools"]] == ["tool_0", "tool_1", "tool_2"]
    pid = int(pid_file.read_text())
    assert _gone(pid)


def test_a_server_that_exits_while_its_child_holds_stdout_is_told_as_exited(fake, tmp_path):
    # The finding: reported as "no answer within 5 s", since no end of file ever came. The child
    # never answers, so the deadline is the subject here and its length races with no work.
    pid_file = tmp_path / "child.pid"
    with pytest.raises(ToolProofError) as exc:
        list_tools_stdio(f"{fake} exit-child {pid_file}", timeout_s=2)
    assert exc.value.line() == "the server exited (status 4) during initialize"
    assert _gone(int(pid_file.read_text()))


@pytest.fixture
def busy_loop():
    """A process that keeps one core busy for the length of a test (a loaded machine)."""
    loop = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    yield
    loop.kill()
    loop.wait()


def test_a_launcher_whose_child_answers_late_is_read_to_the_end(fake, tmp_path, busy_loop):
    # Issue 36: a launcher that exits while its child goes on serving on the same pipes was told
    # as "exited" half a second after the launcher's exit, before a busy machine let the child
    # answer. This child answers 2 s after the launcher exits; the pipes are read till then.
    pid_file = tmp_path / "child.pid"
    listed = list_tools_stdio(f"{fake} launcher {pid_file}", timeout_s=BUSY)
    assert [t["name"] for t in listed["tools"]] == ["tool_0", "tool_1", "tool_2"]
    assert _gone(int(pid_file.read_text()))


def test_stdout_is_read_in_large_chunks(fake, monkeypatch):
    # The finding: one byte per system call (0.3-0.5 MB/s). Counted, not timed: 3 MB of tools in
    # 64 KiB reads take about 50 reads, not three million.
    from toolproof.cli import mcp_stdio

    reads = []
    real = mcp_stdio._read
    monkeypatch.setattr(mcp_stdio, "_read", lambda fd, n: reads.append(n) or real(fd, n))
    listed = list_tools_stdio(f"{fake} big 3", timeout_s=60)
    size = len(json.dumps(listed["tools"]))
    assert size > 2_900_000
    assert len(reads) < size // 10_000


def test_output_is_bounded(fake):
    with pytest.raises(ToolProofError) as exc:
        list_tools_stdio(f"{fake} huge", timeout_s=BUSY, max_bytes=100_000)
    assert exc.value.line() == "the server wrote more than 100,000 bytes; stopping"


def test_a_noisy_stderr_neither_blocks_nor_leaks(fake):
    listed = list_tools_stdio(f"{fake} noisy", timeout_s=BUSY)
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
    list_tools_stdio(f"{fake} ok", timeout_s=BUSY)
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
        proc.wait(timeout=BUSY)


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
