"""A misbehaving OpenAI-compatible server on 127.0.0.1: every hostile answer issue 8 found.

The base URL picks the behaviour: `<base>/<mode>/v1`, optionally `<base>/after<N>-<mode>/v1`
to answer the first N requests normally (from the committed fixtures, as tests/fakeprovider.py
does) and misbehave from then on, so a test can show graded cases surviving what comes next.

Modes:
  redirect  302 to <base>/stolen (a request arriving there is recorded in `stolen`)
  drip      a 200 whose body arrives one byte every DRIP_EVERY_S (bounded by DRIP_FOR_S)
  echo      a 200 whose assistant text repeats the Authorization header it received
  deep      a 200 nested DEEP levels
  huge      a 200 of HUGE_BYTES
  nan       a 200 with NaN in the body and in the arguments
  bigint    a 200 with a 5,000-digit integer in the body and in the arguments
  calls     a 200 holding MANY_CALLS calls of the first tool offered (about 4.3 MB: inside the 5 MB
            body limit), to every request, turn 2 and counterfactual variants included
  retry     429 with Retry-After: 3600
  broken    500 to everything (Retry-After: 0, so retries cost no time)
  bomb      a 200 with Content-Encoding: gzip, about 1 MB on the wire unpacking to BOMB_BYTES
  badgzip   a 200 with Content-Encoding: gzip whose body is not gzip at all

Every answer carries permissive CORS headers so the page (tests/page/test_live.py) meets the
same misbehaviour as the terminal. Bounded: every drip stops after DRIP_FOR_S, and the server shuts itself down after
LIFETIME_S even if a test forgets to close it. Listens on 127.0.0.1 only.
"""
from __future__ import annotations

import functools
import json
import re
import struct
import threading
import time
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from fakeprovider import case_and_turn, fixture_answer

DRIP_EVERY_S = 0.2
DRIP_FOR_S = 20.0
LIFETIME_S = 300.0
DEEP = 10_000
HUGE_BYTES = 6 * 1024 * 1024
MANY_CALLS = 50_000
BOMB_BYTES = 1024 * 1024 * 1024          # unpacked: past any JS string, let alone the 5 MB limit
CORS = {"access-control-allow-origin": "*", "access-control-expose-headers": "retry-after, location"}
MODES = ("redirect", "drip", "echo", "deep", "huge", "nan", "bigint", "calls", "retry", "broken", "bomb", "badgzip")


def chat(content: str | None = None, arguments: str | None = None, extra: str = "") -> bytes:
    """A chat completion as text (so NaN and huge integers survive), with one call or a text."""
    if arguments is not None:
        message = ('{"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function", '
                   f'"function": {{"name": "search_hotels", "arguments": {json.dumps(arguments)}}}}}]}}')
        finish = "tool_calls"
    else:
        message, finish = json.dumps({"role": "assistant", "content": content}), "stop"
    return (f'{{"id": "x", "object": "chat.completion"{extra}, "choices": [{{"index": 0, '
            f'"message": {message}, "finish_reason": "{finish}"}}]}}').encode()


@functools.cache
def gzip_bomb() -> bytes:
    """BOMB_BYTES of spaces as one valid gzip stream of about 1 MB, made in well under a second:
    each 1 MiB of spaces is compressed once, ending on a full flush (which resets the compressor),
    so every later MiB packs to the same bytes and is repeated as such; then an empty final block
    and the trailer (CRC-32 and size of the whole)."""
    piece, count = b" " * (1 << 20), BOMB_BYTES >> 20
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)          # wbits 31: a gzip stream
    first = packer.compress(piece) + packer.flush(zlib.Z_FULL_FLUSH)
    again = packer.compress(piece) + packer.flush(zlib.Z_FULL_FLUSH)
    crc = 0
    for _ in range(count):
        crc = zlib.crc32(piece, crc)
    return first + again * (count - 1) + b"\x03\x00" + struct.pack("<II", crc, BOMB_BYTES & 0xFFFFFFFF)


def many_calls(name: str = "search_hotels", n: int = MANY_CALLS) -> bytes:
    """A chat completion with `n` calls of `name`, written compactly (50,000 fit in 4.3 MB)."""
    calls = [{"id": f"c{i}", "type": "function", "function": {"name": name, "arguments": "{}"}}
             for i in range(n)]
    return json.dumps({"id": "x", "object": "chat.completion", "choices": [{"index": 0, "message": {
        "role": "assistant", "content": None, "tool_calls": calls}, "finish_reason": "tool_calls"}]},
        separators=(",", ":")).encode()


def offered_tool(body: dict) -> str:
    """The first tool a Chat Completions request offers (its mock result is the one answered)."""
    tools = body.get("tools") if isinstance(body, dict) else None
    first = tools[0] if isinstance(tools, list) and tools and isinstance(tools[0], dict) else {}
    name = first.get("function", {}).get("name") if isinstance(first.get("function"), dict) else None
    return name if isinstance(name, str) and name else "search_hotels"


def hostile_body(mode: str, authorization: str, request: dict | None = None) -> bytes:
    if mode == "echo":
        return chat(content=f"I received the header Authorization: {authorization}")
    if mode == "deep":
        return b'{"choices": ' + b"[" * DEEP + b"]" * DEEP + b"}"
    if mode == "huge":
        return chat(content="x" * HUGE_BYTES)
    if mode == "nan":
        return chat(arguments='{"city": "Lisbon", "guests": NaN}', extra=', "score": NaN')
    if mode == "calls":
        return many_calls(offered_tool(request or {}))
    if mode == "bigint":
        digits = "9" * 5000
        return chat(arguments=f'{{"city": "Lisbon", "guests": {digits}}}', extra=f', "seed": {digits}')
    raise ValueError(mode)


class MisbehavingServer:
    def __init__(self) -> None:
        self.requests: list[dict] = []
        self.stolen: list[dict] = []
        self.lock = threading.Lock()
        self.closed = threading.Event()
        # how each drip ended: "client hung up" (it gave up, as it must) or "served out" (it
        # waited for the whole DRIP_FOR_S): what a test asserts instead of a wall-clock bound
        self.drips: list[str] = []
        self.drip_ended = threading.Condition()
        owner = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_OPTIONS(self):          # the page's CORS preflight: allowed, so the page sees the misbehaviour
                if self.path.startswith("/stolen"):
                    with owner.lock:
                        owner.stolen.append({"path": self.path, "preflight": True})
                owner.send(self, 204, {"access-control-allow-methods": "POST",
                                       "access-control-allow-headers": "*"}, b"")

            def do_POST(self):
                length = min(int(self.headers.get("content-length", 0) or 0), 10_000_000)
                raw = self.rfile.read(length)
                owner.handle(self, raw)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.port = self.server.server_address[1]
        self.base = f"http://127.0.0.1:{self.port}"
        self.timer = threading.Timer(LIFETIME_S, self.close)
        self.timer.daemon = True
        self.timer.start()

    def url(self, mode: str, after: int = 0) -> str:
        return f"{self.base}/{f'after{after}-' if after else ''}{mode}/v1"

    def handle(self, handler: BaseHTTPRequestHandler, raw: bytes) -> None:
        headers = {k.lower(): v for k, v in handler.headers.items()}
        if handler.path.startswith("/stolen"):
            with self.lock:
                self.stolen.append({"path": handler.path, "headers": headers})
            return self.send(handler, 200, {}, b"{}")
        match = re.match(r"^/(?:after(\d+)-)?([a-z]+)/v1/", handler.path)
        after, mode = (int(match.group(1) or 0), match.group(2)) if match else (0, "")
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            body = {}
        with self.lock:
            self.requests.append({"path": handler.path, "headers": headers, "body": body})
            count = len([r for r in self.requests if r["path"] == handler.path])
        if mode not in MODES or count <= after:
            case_id, turn = case_and_turn(handler.path, body)
            if case_id is None:
                return self.send(handler, 400, {}, b'{"error": "unknown prompt"}')
            status, extra, text = fixture_answer(case_id, turn, "openai")
            return self.send(handler, status, extra, text.encode())
        if mode == "redirect":
            return self.send(handler, 302, {"location": f"{self.base}/stolen/v1/chat/completions"}, b"")
        if mode == "retry":
            return self.send(handler, 429, {"retry-after": "3600"}, b'{"error": "slow down"}')
        if mode == "drip":
            return self.drip(handler)
        if mode == "broken":
            return self.send(handler, 500, {"retry-after": "0"}, b'{"error": "internal"}')
        if mode in ("bomb", "badgzip"):
            data = gzip_bomb() if mode == "bomb" else b"this is not gzip " * 64
            return self.send(handler, 200, {"content-encoding": "gzip"}, data)
        return self.send(handler, 200, {}, hostile_body(mode, headers.get("authorization", ""), body))

    def send(self, handler, status: int, headers: dict, data: bytes) -> None:
        try:
            handler.send_response(status)
            for k, v in {"content-type": "application/json", **CORS, **headers}.items():
                handler.send_header(k, v)
            handler.send_header("content-length", str(len(data)))
            handler.end_headers()
            handler.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def drip(self, handler) -> None:
        """Headers at once, then one byte at a time: never a timeout per read, never an end."""
        try:
            handler.send_response(200)
            handler.send_header("content-type", "application/json")
            for k, v in CORS.items():
                handler.send_header(k, v)
            handler.send_header("content-length", "1000000")
            handler.end_headers()
            handler.wfile.flush()
            stop = time.monotonic() + DRIP_FOR_S
            while time.monotonic() < stop and not self.closed.is_set():
                handler.wfile.write(b" ")
                handler.wfile.flush()
                time.sleep(DRIP_EVERY_S)
            ended = "served out"
        except (BrokenPipeError, ConnectionResetError, OSError):
            ended = "client hung up"
        handler.close_connection = True
        with self.drip_ended:
            self.drips.append(ended)
            self.drip_ended.notify_all()

    def drip_end(self, index: int) -> str:
        """How drip number `index` (0 = the server's first) ended, once it has: its own bound,
        DRIP_FOR_S, ends it at worst, so this waits on an event, never guesses a time."""
        with self.drip_ended:
            self.drip_ended.wait_for(lambda: len(self.drips) > index, DRIP_FOR_S + 30)
            return self.drips[index] if len(self.drips) > index else "not ended"

    def close(self) -> None:
        if not self.closed.is_set():
            self.closed.set()
            self.timer.cancel()
            self.server.shutdown()
            self.server.server_close()
