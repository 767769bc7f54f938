"""The MCP stdio client: start a server, list its tools, shut it down. An edge (it starts a
process and reads pipes), used only by `tools import --mcp-stdio`; a page cannot start
processes, so this module is not in the page's file list (web/pyscript_config.py) and not in the
purity test's core set (tests/test_purity.py). The protocol messages themselves are built and
read by the pure importers/mcp.py; this module only moves bytes and keeps time.

Guarantees: one overall deadline bounds every wait, reads and writes alike (the server's stdin is
non-blocking and written through select, so a server that floods requests and never reads its
input cannot block us); a bounded number of bytes read, in 64 KiB reads (not one byte a system
call); any way a server can go wrong (cannot start, never answers, prints garbage, exits early,
errors, loops its cursor) becomes a ToolProofError with one line, "the server exited (status N)"
apart from "no answer". A launcher (a script, npx) may exit while its child goes on serving on the
same pipes: they are read for as long as any process holds them open, up to the deadline, and only
when no answer has come by then does the line name the launcher's exit. The server runs in its
own process group, and the whole group is signalled on close, so a forking server or a launcher (npx, uvx)
whose child ignores EOF and SIGTERM leaves nothing running. The server's stderr is drained (a
full pipe would block it) and never echoed raw: only a short, escaped last line is quoted when
the server dies.
"""
from __future__ import annotations

import os
import queue
import select
import shlex
import signal
import subprocess
import threading
import time

from toolproof._version import __version__
from toolproof.errors import ToolProofError
from toolproof.importers.mcp import (encode, initialize_request, initialized_notification, next_cursor,
                            parse_frame, reply_for, result_of, tools_list_request)

MAX_BYTES = 16 * 1024 * 1024      # everything a server may write to stdout
MAX_PAGES = 1000                  # tools/list pages: a cursor that never ends is a broken server
GRACE_S = 2.0                     # after closing stdin, then after SIGTERM to the group
CHUNK = 64 * 1024                 # one read from the server's stdout
POLL_S = 0.1                      # how often a wait looks whether the server is still there
_EOF = object()
_read = os.read                   # one name for every read of stdout (a test counts them)


def list_tools_stdio(command: str, *, timeout_s: float = 30.0, max_bytes: int = MAX_BYTES) -> dict:
    """{"server": serverInfo, "tools": [...]}: every tool the server lists, pages joined."""
    argv = _argv(command)
    try:
        proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, bufsize=0, start_new_session=True)
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
        self.group = proc.pid             # start_new_session: the server leads its own group
        self.lines: queue.Queue = queue.Queue()
        self.stderr_tail = bytearray()
        self.next_id = 1
        self.stdin_fd = proc.stdin.fileno()
        os.set_blocking(self.stdin_fd, False)
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
        """Write one frame, waiting for room in the pipe at most until the deadline."""
        data = memoryview(encode(message))
        step = message.get("method") or "a reply to the server"
        while data:
            remaining = self.deadline - time.monotonic()
            if remaining <= 0:
                if self.proc.poll() is not None:
                    raise ToolProofError(self._exited(f"during {step}"))
                raise ToolProofError(f"{step}: the server does not read its input (no room in its pipe "
                                     f"within {self.timeout_s:g} s; --timeout to wait longer)")
            try:
                _, writable, _ = select.select([], [self.stdin_fd], [], min(remaining, POLL_S))
                if not writable:        # a launcher's child may still read: wait for room until the deadline
                    continue
                data = data[os.write(self.stdin_fd, data):]
            except BlockingIOError:
                continue
            except (BrokenPipeError, OSError, ValueError):
                # the same words as when the answer never comes: which one a dying server hits is a race
                raise ToolProofError(self._exited(f"during {step}")) from None

    def request(self, message: dict) -> dict:
        """Send a request and wait for the response with its id, answering pings meanwhile."""
        self.send(message)
        while True:
            remaining = self.deadline - time.monotonic()
            try:
                line = self.lines.get(timeout=max(min(remaining, POLL_S), 0.001))
            except queue.Empty:
                # No end of file yet, so some process still holds stdout open: a launcher's child may
                # still answer, however long a busy machine makes it take, until the deadline.
                if time.monotonic() >= self.deadline:
                    raise ToolProofError(self._no_answer(message["method"])) from None
                continue
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

    def _no_answer(self, method: str) -> str:
        """The line for a deadline passed without an answer: the server's exit when it had exited
        (a launcher whose child held the pipes and never answered), else "no answer"."""
        if self.proc.poll() is not None:
            return self._exited(f"during {method}")
        return f"{method}: no answer within {self.timeout_s:g} s (--timeout to wait longer)"

    def _read_stdout(self, max_bytes: int) -> None:
        """Lines from stdout in 64 KiB reads; a line is joined once, whatever its length."""
        total, parts = 0, []
        fd = self.proc.stdout.fileno()
        try:
            while True:
                chunk = _read(fd, CHUNK)
                if not chunk:
                    break
                total += len(chunk)
                if total > max_bytes:
                    self.lines.put(ToolProofError(f"the server wrote more than {max_bytes:,} bytes; stopping"))
                    return
                start = 0
                while (end := chunk.find(b"\n", start)) >= 0:
                    parts.append(chunk[start:end + 1])
                    self.lines.put(b"".join(parts))
                    parts, start = [], end + 1
                if start < len(chunk):
                    parts.append(chunk[start:])
        except (OSError, ValueError):
            pass
        if parts:
            self.lines.put(b"".join(parts))
        self.lines.put(_EOF)

    def _drain_stderr(self) -> None:
        try:
            for chunk in iter(lambda: self.proc.stderr.read(CHUNK), b""):
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
        if code is None:
            status = "closed its output"
        elif code < 0:
            status = f"was killed (signal {-code})"
        else:
            status = f"exited (status {code})"
        return f"the server {status} {when}{said}"

    def close(self) -> None:
        """Close stdin (the MCP way to ask a stdio server to stop), then SIGTERM to the server's
        whole process group, then SIGKILL to what is left of it: a forking server, or a
        launcher's child that ignores EOF and SIGTERM, is stopped with it."""
        proc = self.proc
        try:
            proc.stdin.close()
        except OSError:
            pass
        self._wait_group(GRACE_S)
        for sig in (signal.SIGTERM, signal.SIGKILL):
            if not self._signal_group(sig):
                break
            self._wait_group(GRACE_S if sig == signal.SIGTERM else 1.0)
        try:
            proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            pass
        for pipe in (proc.stdout, proc.stderr):
            try:
                pipe.close()
            except OSError:
                pass

    def _signal_group(self, sig: int) -> bool:
        """Signal every process of the server's group; False when none is left."""
        try:
            os.killpg(self.group, sig)
            return True
        except (ProcessLookupError, PermissionError):
            return False

    def _wait_group(self, seconds: float) -> None:
        """Wait until the server has exited and its group is empty, at most `seconds`."""
        until = time.monotonic() + seconds
        while time.monotonic() < until:
            self.proc.poll()              # reap the leader, or it stays in the group as a zombie
            if self.proc.returncode is not None and not self._signal_group(0):
                return
            time.sleep(0.02)
