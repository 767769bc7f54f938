"""The terminal's transport: one JSON POST with urllib, run in a worker thread so the runner's
event loop stays free (and abort stays immediate). An edge module: it does network I/O."""
from __future__ import annotations

import asyncio
import json
import socket
import time
import urllib.error
import urllib.request

from .runner import HttpReply, TransportError


def _post(url: str, headers: dict, body: dict, timeout: float) -> HttpReply:
    data = json.dumps(body).encode("utf-8")
    request = urllib.request.Request(url, data=data, headers=headers, method="POST")
    started = time.monotonic()
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            text = response.read().decode("utf-8", errors="replace")
            status, raw_headers = response.status, response.headers
    except urllib.error.HTTPError as exc:      # a status >= 400 is still an answer
        text = exc.read().decode("utf-8", errors="replace")
        status, raw_headers = exc.code, exc.headers
    except (TimeoutError, socket.timeout):
        raise TransportError("timeout", f"timed out after {timeout:g} s",
                             (time.monotonic() - started) * 1000) from None
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        if isinstance(reason, (TimeoutError, socket.timeout)):
            raise TransportError("timeout", f"timed out after {timeout:g} s",
                                 (time.monotonic() - started) * 1000) from None
        raise TransportError("network", f"network error ({reason})",
                             (time.monotonic() - started) * 1000) from None
    headers_out = {k.lower(): v for k, v in (raw_headers or {}).items()}
    return HttpReply(status, headers_out, text, (time.monotonic() - started) * 1000)


async def urllib_transport(url: str, headers: dict, body: dict, timeout: float) -> HttpReply:
    return await asyncio.to_thread(_post, url, headers, body, timeout)
