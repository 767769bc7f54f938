"""The transport protocol: what the runner hands a request to and gets back. The edges implement
it (cli/transport.py on urllib, page/transport.py on the browser's fetch); the runner and its
tests only see these types.

Pure: types only. Must not do I/O itself: that is each edge's implementation.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Awaitable, Callable


@dataclass(frozen=True)
class HttpReply:
    """What a transport hands back: status, headers (lower-case names), body text, time taken."""
    status: int
    headers: dict
    text: str
    elapsed_ms: float


class TransportError(Exception):
    """No usable HTTP answer: `kind` is "timeout" (the deadline passed), "network" (no answer),
    "blocked" (refused by the browser), "redirect" (a 3xx the browser hides), "too-large"
    (a body over the transport's limit) or "unreadable" (headers came, then the body could not be
    read: not decompressible, or cut off)."""

    def __init__(self, kind: str, message: str, elapsed_ms: float = 0.0):
        super().__init__(message)
        self.kind, self.message, self.elapsed_ms = kind, message, elapsed_ms


# (url, headers, body, timeout): a POST of the body as JSON; a GET when the body is None
Transport = Callable[[str, dict, "dict | None", float], Awaitable[HttpReply]]
