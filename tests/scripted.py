"""The runner's in-memory transport: answers from a script, else replays the committed fixtures.

An async function as the runner expects one (no sockets): each call gets the next scripted step
of its case, or the fixture's answer for that turn (the same replay tests/fakeprovider.py serves
over HTTP), and every call is recorded for assertions. Shared by the runner and sweep tests.
"""
from __future__ import annotations

import asyncio

from fakeprovider import case_and_turn, fixture_answer
from toolproof.running.transport import HttpReply

BLOCK = object()        # a transport step that never answers


class Transport:
    """Answers each call with the next scripted step of its case, else the case's fixture.

    A step is an HttpReply (returned), an exception (raised) or BLOCK (sets `blocked`, then waits
    forever, as a request in flight does)."""

    def __init__(self, script: dict | None = None):
        self.script = {k: list(v) for k, v in (script or {}).items()}
        self.calls: list[dict] = []
        self.blocked = asyncio.Event()
        self.never = asyncio.Event()

    async def __call__(self, url: str, headers: dict, body: dict, timeout: float) -> HttpReply:
        case_id, turn = case_and_turn(url, body)
        self.calls.append({"url": url, "headers": headers, "body": body, "timeout": timeout,
                           "case_id": case_id, "turn": turn})
        queue = self.script.get(case_id)
        step = queue.pop(0) if queue else None
        if step is BLOCK:
            self.blocked.set()
            await self.never.wait()
        if isinstance(step, Exception):
            raise step
        if step is not None:
            return step
        wire = "anthropic" if url.endswith("/messages") else "openai"
        status, headers_out, text = fixture_answer(case_id, turn, wire)
        return HttpReply(status, headers_out, text, 5.0)
