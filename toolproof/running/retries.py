"""Retries and failed requests: which statuses are retried, how long to wait (Retry-After, else
1 s then 2 s), which stop the run, and how a failed turn is told to the user (what the status
means and how long it took, and the provider's own error message: its first 300 characters,
every configured secret redacted by value before the cut, control characters escaped).

Pure: no clock, no I/O. Must not sleep: the runner waits.
"""
from __future__ import annotations

import math

from toolproof.errors import clip
from toolproof.limits import ReadError, read_json
from toolproof.providers.dispatch import origin_of
from toolproof.safe_text import printable
from toolproof.secrets import redact_text
from .transport import HttpReply, TransportError

RETRY_STATUSES = frozenset({429, 500, 502, 503, 504, 529})
STOP_STATUSES = frozenset({401, 403})
MAX_RETRY_WAIT_S = 30.0          # a longer Retry-After stops the run instead of stalling it
NO_RETRY_KINDS = frozenset({"blocked", "redirect", "too-large"})
# What each status means, and nothing more: the cause (a context limit, a bad field, a crash)
# is not in the status, so the message does not guess it.
STATUS_MESSAGES = {
    400: "bad request", 401: "unauthorized (check the API key)", 403: "forbidden",
    404: "not found (check the model name and the base URL)", 405: "method not allowed",
    408: "request timeout", 409: "conflict", 413: "request too large", 422: "unprocessable request",
    429: "rate limited", 500: "server error", 501: "not implemented", 502: "bad gateway",
    503: "service unavailable", 504: "gateway timeout", 529: "overloaded",
}


def status_message(status: int | None) -> str:
    """What an HTTP status means, without guessing at its cause."""
    if status is None:
        return "no response"
    if 300 <= status < 400:
        return "redirect not followed"
    return STATUS_MESSAGES.get(status, "server error" if status >= 500 else "request refused")


def seconds(elapsed_ms: float) -> str:
    """95012.4 -> "95 s", 1234.0 -> "1.2 s", 5.0 -> "5 ms": how long a request took, for a reason."""
    ms = max(elapsed_ms, 0.0)
    if ms < 1000:
        return f"{ms:.0f} ms"
    return f"{ms / 1000:.1f} s" if ms < 10000 else f"{ms / 1000:.0f} s"


def retry_after(reply: HttpReply | None) -> float | None:
    """The Retry-After header in seconds (None when absent, a date, or not a finite number)."""
    if reply is None:
        return None
    value = str(reply.headers.get("retry-after", "")).strip()[:32]
    try:
        wait = float(value)
    except ValueError:
        return None
    return max(wait, 0.0) if math.isfinite(wait) else None


def retry_wait(reply: HttpReply | None, attempt: int, backoff_s: float) -> float:
    """Seconds to wait before retry number `attempt` (1-based): Retry-After if it says so."""
    wait = retry_after(reply)
    if wait is not None:
        return min(wait, MAX_RETRY_WAIT_S)
    return backoff_s * 2 ** (attempt - 1)


def attempt_entry(reply: HttpReply | None, failure: TransportError | None) -> dict:
    """One attempt as the transcript keeps it: {"status": 400, ...} or {"error": "timeout", ...}."""
    if failure is not None:
        return {"error": failure.kind, "elapsed_ms": round(failure.elapsed_ms, 1)}
    return {"status": reply.status, "elapsed_ms": round(reply.elapsed_ms, 1)}


def failure_message(url: str, reply: HttpReply | None, failure: TransportError | None) -> str:
    """The error message of a failed turn: what happened and after how long, never a body."""
    if failure is not None:
        return failure.message
    message = status_message(reply.status)
    if 300 <= reply.status < 400:
        from urllib.parse import urljoin       # lazy: only a redirect needs it, not the page's start-up

        location = str(reply.headers.get("location", "")).strip()
        target = origin_of(urljoin(url, location)) if location else "an unnamed location"
        message = f"redirect to {target} not followed"
    return f"{message}, after {seconds(reply.elapsed_ms)}"


MAX_PROVIDER_MESSAGE = 300       # characters of a provider's error message kept and shown


def provider_message(text: str, keys: tuple = ()) -> str:
    """The provider's own words from an error body ("model does not support tools", "context too
    long", "unknown model"): `error.message` (OpenAI, Anthropic, Gemini, DeepSeek), a string
    `error`, `message` or `detail` (vLLM, llama.cpp, Snowflake), else the body's text. A body
    may echo the key, so every secret is redacted by value before the cut (a key cut in half
    would no longer match), then the first 300 characters are kept ("… (N more)" says how many
    were not), control characters escaped.
    "" when there is nothing to say."""
    if not isinstance(text, str) or not text.strip():
        return ""
    try:
        body = read_json(text, what="error body")
    except ReadError:
        body = None
    found = text[:20_000] if body is None else ""     # JSON without a message says nothing
    for holder in (body.get("error") if isinstance(body, dict) else None, body):
        if isinstance(holder, str):
            found = holder
            break
        if isinstance(holder, dict):
            said = next((holder[k] for k in ("message", "detail", "error") if isinstance(holder.get(k), str)), None)
            if said is not None:
                found = said
                break
    clean = " ".join(redact_text(found[:20_000], keys).split())     # only the start is ever shown
    return printable(clip(clean, MAX_PROVIDER_MESSAGE))
