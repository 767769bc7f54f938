"""The MCP stdio client: start a server, list its tools, shut it down. An edge (it starts a
process and reads pipes), used only by `tools import --mcp-stdio`; a page cannot start
processes, so this module is not in the page's file list (web/pyscript_config.py) and not in the
purity test's core set (tests/test_purity.py). The protocol messages themselves are built and
read by the pure importers/mcp.py; this module only moves bytes and keeps time.

Guarantees: one overall deadline; a bounded number of bytes read; any way a server can go wrong
(cannot start, never answers, prints garbage, exits early, errors, loops its cursor) becomes a
ToolProofError with one line. The server's stderr is drained (a full pipe would block it) and
never echoed raw: only a short, escaped last line is quoted when the server dies.
"""
from __future__ import annotations

import queue
import shlex
import subprocess
import threading
import time

from toolproof._version import __version__
from toolproof.errors import ToolProofError
from toolproof.importers.mcp import (encode, initialize_request, initialized_notification, next_cursor,
                            parse_frame, reply_for, result_of, tools_list_request)

MAX_BYTES = 16 * 1024 * 1024      # everything a server may write to stdout
MAX_PAGES = 1000                  # tools/list pages: a cursor that never ends is a broken server
GRACE_S = 2.0                     # after closing stdin, then after SIGTERM
_EOF = object()


def list_tools_stdio(command: str, *, timeout_s: float = 30.0, max_bytes: int = MAX_BYTES) -> dict:
    """{"server": serverInfo, "tools": [...]}: every tool the server lists, pages joined."""
    argv = _argv(command)
    try:
        proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, bufsize=0)
    except OSError as exc:
        raise ToolProofError(f"cannot start {ascii(argv[0])}: {exc.strerror or exc}") from None
    session = _Session(proc, time.monotonic() + timeout_s, timeout_s, max_bytes)
    try:
        return session.list_tools()
    finally:
        session.close()


def _argv(command: str) -> list[str]:
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise ToolProofError(f"--mcp-stdio: cannot split the command: {exc}") from None
    if not argv:
        raise ToolProofError('--mcp-stdio needs a command, e.g. --mcp-stdio "mcp-server-time"')
    return argv


class _Session:
    def __init__(self, proc: subprocess.Popen, deadline: float, timeout_s: float, max_bytes: int):
        self.proc, self.deadline, self.timeout_s = proc, deadline, timeout_s
        self.lines: queue.Queue = queue.Queue()
        self.stderr_tail = bytearray()
        self.next_id = 1
        threading.Thread(target=self._read_stdout, args=(max_bytes,), daemon=True).start()
        self.stderr_reader = threading.Thread(target=self._drain_stderr, daemon=True)
        self.stderr_reader.start()

    def list_tools(self) -> dict:
        init = result_of(self.request(initialize_request(self._id(), __version__)), "initialize")
        self.send(initialized_notification())
        tools: list = []
        cursor, seen = None, set()
        for _ in range(MAX_PAGES):
            page = result_of(self.request(tools_list_request(self._id(), cursor)), "tools/list")
            if not isinstance(page.get("tools"), list):
                raise ToolProofError("tools/list: the server's result has no 'tools' array")
            tools.extend(page["tools"])
            cursor = next_cursor(page, seen)
            if cursor is None:
                server = init.get("serverInfo") if isinstance(init.get("serverInfo"), dict) else {}
                return {"server": server, "tools": tools}
        raise ToolProofError(f"tools/list: more than {MAX_PAGES} pages; stopping")

    def _id(self) -> int:
        self.next_id += 1
        return self.next_id - 1

    def send(self, message: dict) -> None:
        try:
            self.proc.stdin.write(encode(message))
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            # the same words as when the answer never comes: which one a dying server hits is a race
            step = message.get("method") or "a reply to the server"
            raise ToolProofError(self._exited(f"during {step}")) from None

    def request(self, message: dict) -> dict:
        """Send a request and wait for the response with its id, answering pings meanwhile."""
        self.send(message)
        while True:
            remaining = self.deadline - time.monotonic()
            try:
                line = self.lines.get(timeout=max(remaining, 0.001))
            except queue.Empty:
                raise ToolProofError(f"{message['method']}: no answer within {self.timeout_s:g} s "
                                     "(--timeout to wait longer)") from None
            if line is _EOF:
                raise ToolProofError(self._exited(f"during {message['method']}"))
            if isinstance(line, ToolProofError):
                raise line
            if not line.strip():
                continue
            frame = parse_frame(line)
            if frame.get("id") == message["id"] and "method" not in frame:
                return frame
            answer = reply_for(frame)
            if answer is not None:
                self.send(answer)

    def _read_stdout(self, max_bytes: int) -> None:
        total = 0
        try:
            while True:
                line = self.proc.stdout.readline(max_bytes - total + 1)
                if not line:
                    break
                total += len(line)
                if total > max_bytes:
                    self.lines.put(ToolProofError(f"the server wrote more than {max_bytes:,} bytes; stopping"))
                    return
                self.lines.put(line)
        except (OSError, ValueError):
            pass
        self.lines.put(_EOF)

    def _drain_stderr(self) -> None:
        try:
            for chunk in iter(lambda: self.proc.stderr.read(4096), b""):
                self.stderr_tail = (self.stderr_tail + chunk)[-2048:]
        except (OSError, ValueError):
            pass

    def _exited(self, when: str) -> str:
        try:
            code = self.proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            code = None
        self.stderr_reader.join(timeout=1.0)        # its last words may still be in the pipe
        lines = [ln for ln in bytes(self.stderr_tail).decode("utf-8", "replace").splitlines() if ln.strip()]
        said = f"; its last stderr line: {ascii(lines[-1].strip()[:160])}" if lines else ""
        status = f"exited with code {code}" if code is not None else "closed its output"
        return f"the server {status} {when}{said}"

    def close(self) -> None:
        """Close stdin (the MCP way to ask a stdio server to stop), then SIGTERM, then SIGKILL."""
        proc = self.proc
        try:
            proc.stdin.close()
        except OSError:
            pass
        for stop in (None, proc.terminate, proc.kill):
            if stop is not None:
                stop()
            try:
                proc.wait(timeout=GRACE_S)
                break
            except subprocess.TimeoutExpired:
                continue
        for pipe in (proc.stdout, proc.stderr):
            try:
                pipe.close()
            except OSError:
                pass
