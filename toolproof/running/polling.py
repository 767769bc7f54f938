"""Waiting for a reply the provider has not finished: a Responses body with status `queued` or
`in_progress` (a gateway that answers in the background, a slow model) is fetched again by its id,
`GET {endpoint}/{id}`, until it is finished, within the run's timeout.

- Bounded: the waits between fetches (0.5 s, 1 s, 2 s, 4 s, then 8 s) and the fetches themselves
  draw on one budget, the run's timeout (`--timeout`, default 45 s), counted from the first
  answer; and at most MAX_POLLS fetches (about 5 minutes of waits), so a turn's log stays small.
- A fetch is no new request to the model: it is not counted against the cap nor as an attempt (the
  cost reads attempts); each is kept in the turn's `attempt_log` as `{"poll": true, "status": 200,
  "elapsed_ms": ...}`.
- A fetch that fails (a 404 from a server that kept nothing, `store: false`; a timeout) ends the
  polling and keeps the last unfinished reply: the reader says it is unfinished and the grader
  makes the case an ERROR with that reason, never an empty answer.
- A finished reply (`completed`, `incomplete`, `failed`, ...) replaces the unfinished one, and is
  graded and echoed in turn 2 like any reply.

Pure apart from awaiting: no clock (the time spent is the waits plus each reply's own
`elapsed_ms`), no I/O of its own; the runner hands in how to send (abortable) and how to sleep.
"""
from __future__ import annotations

from typing import Awaitable, Callable

from toolproof.limits import ReadError, read_json
from toolproof.providers.dispatch import poll_url
from .transport import HttpReply, TransportError

POLL_WAITS_S = (0.5, 1.0, 2.0, 4.0, 8.0)     # before each fetch; the last repeats
MAX_POLLS = 40


def poll_wait(done: int) -> float:
    """Seconds to wait before fetch number `done` + 1."""
    return POLL_WAITS_S[min(done, len(POLL_WAITS_S) - 1)]


def poll_target(provider: str, url: str, reply: HttpReply) -> str:
    """Where to fetch this reply's finished form (GET), or "" when it is finished, not a success,
    or not readable (the runner then reads it as it is)."""
    if not 200 <= reply.status < 300:
        return ""
    try:
        body = read_json(reply.text, what="body")
    except ReadError:
        return ""
    return poll_url(provider, url, body)


async def settle(reply: HttpReply, *, provider: str, url: str, headers: dict, timeout_s: float,
                 send: Callable[..., Awaitable[HttpReply]],
                 sleep: Callable[[float], Awaitable[None]]) -> tuple[HttpReply, list[dict]]:
    """(the reply to keep, one attempt_log entry per fetch): `reply` itself when it is finished;
    else the first finished one fetched within `timeout_s`, or the last unfinished one."""
    log: list[dict] = []
    budget = timeout_s
    while budget > 0 and len(log) < MAX_POLLS and (target := poll_target(provider, url, reply)):
        wait = min(poll_wait(len(log)), budget)
        await sleep(wait)
        budget -= wait
        if budget <= 0:
            break
        try:
            got = await send(target, headers, None, budget)
        except TransportError as exc:
            log.append({"poll": True, "error": exc.kind, "elapsed_ms": round(exc.elapsed_ms, 1)})
            break
        log.append({"poll": True, "status": got.status, "elapsed_ms": round(got.elapsed_ms, 1)})
        budget -= got.elapsed_ms / 1000
        if not 200 <= got.status < 300:
            break                       # nothing to fetch there (store: false kept nothing)
        reply = got
    return reply, log
