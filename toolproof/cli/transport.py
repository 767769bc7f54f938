"""The terminal's transport: one JSON POST (or, with no body, a GET) with urllib. An edge module: it does network I/O.

What it guarantees, whatever the server does:
- `timeout` is a deadline for the whole exchange (connect, headers, body). urllib's own timeout
  is per socket read, so a server that drips one byte a second would hold a request forever;
  here the body is read in chunks against the deadline, and the caller stops waiting at the
  deadline even if a read is stuck.
- Redirects are never followed: a 3xx comes back as an answer (status and Location), so the
  key goes only to the origin the user named.
- A body over MAX_BODY_BYTES is not read further (TransportError "too-large").
- The blocking request runs in its own daemon thread, not the event loop's executor: an
  abandoned request (abort, Ctrl-C, deadline) never holds up the loop's shutdown, so Ctrl-C
  returns at once instead of after the slowest read.
"""
from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
import urllib.error
import urllib.request

from toolproof.running.transport import HttpReply, TransportError

MAX_BODY_BYTES = 5 * 1024 * 1024 + 1   # one byte over the readers' 5 MB limit tells "too big"
CHUNK = 64 * 1024


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """Hand every 3xx back as an HTTPError (an answer) instead of following it."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None


_OPENER = urllib.request.build_opener(_NoRedirect)


def _timeout(timeout: float, started: float) -> TransportError:
    return TransportError("timeout", f"no complete answer within {timeout:g} s",
                          (time.monotonic() - started) * 1000)


def _read(response, deadline: float, timeout: float, started: float) -> bytes:
    """The body, read against the deadline and the size limit."""
    chunks, size = [], 0
    while True:
        if time.monotonic() > deadline:
            raise _timeout(timeout, started)
        chunk = response.read1(CHUNK) if hasattr(response, "read1") else response.read(CHUNK)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        size += len(chunk)
        if size >= MAX_BODY_BYTES:
            raise TransportError("too-large", "response body larger than 5 MB (not read further)",
                                 (time.monotonic() - started) * 1000)


def post(url: str, headers: dict, body: dict | None, timeout: float) -> HttpReply:
    """The blocking request (in a worker thread): an HttpReply for any status, else TransportError.
    A POST of `body`; a GET when it is None (fetching an unfinished reply again: running/polling.py)."""
    data = None if body is None else json.dumps(body).encode("utf-8")
    request = urllib.request.Request(url, data=data, headers=headers, method="GET" if body is None else "POST")
    started = time.monotonic()
    deadline = started + timeout
    try:
        try:
            response = _OPENER.open(request, timeout=timeout)
        except urllib.error.HTTPError as exc:      # a status >= 300 is still an answer
            response = exc
        with response:
            text = _read(response, deadline, timeout, started).decode("utf-8", errors="replace")
            status, raw_headers = response.status if hasattr(response, "status") else response.code, response.headers
    except TransportError:
        raise
    except (TimeoutError, socket.timeout):
        raise _timeout(timeout, started) from None
    except (urllib.error.URLError, OSError, ValueError) as exc:
        # ValueError: http.client refuses a malformed status line or header
        reason = getattr(exc, "reason", exc)
        if isinstance(reason, (TimeoutError, socket.timeout)):
            raise _timeout(timeout, started) from None
        raise TransportError("network", f"network error: no HTTP answer from {url} ({reason})"[:400],
                             (time.monotonic() - started) * 1000) from None
    except Exception as exc:                      # http.client's own errors (BadStatusLine, ...)
        raise TransportError("network", f"network error: no HTTP answer from {url} ({exc.__class__.__name__})",
                             (time.monotonic() - started) * 1000) from None
    headers_out = {k.lower(): v for k, v in (raw_headers or {}).items()}
    return HttpReply(status, headers_out, text, (time.monotonic() - started) * 1000)


def _settle(future: asyncio.Future, result, error) -> None:
    if future.done():                 # the caller stopped waiting (deadline, abort)
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)


async def urllib_transport(url: str, headers: dict, body: dict | None, timeout: float) -> HttpReply:
    loop = asyncio.get_running_loop()
    future = loop.create_future()
    started = time.monotonic()

    def work() -> None:
        result, error = None, None
        try:
            result = post(url, headers, body, timeout)
        except Exception as exc:          # TransportError, or a bug: hand it to the awaiting side
            error = exc
        try:
            loop.call_soon_threadsafe(_settle, future, result, error)
        except RuntimeError:              # the loop is gone (Ctrl-C): nobody is waiting any more
            pass

    threading.Thread(target=work, name="toolproof-request", daemon=True).start()
    try:
        # a little slack so the worker's own deadline check reports first when it can
        return await asyncio.wait_for(asyncio.shield(future), timeout + 0.25)
    except asyncio.TimeoutError:
        raise _timeout(timeout, started) from None
