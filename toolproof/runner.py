"""Run the suite against a provider: the one loop the page and the terminal share.

The transport (how bytes reach the provider) is handed in: the page gives one built on the
browser's fetch, the CLI one built on urllib. Everything else is decided here, the same way in
both places:
- cases run one after another, with a pause between them (150 ms);
- every request has a timeout (45 s) and counts against the cap, retries included;
- a case is never started unless all of its requests fit under the cap (a second turn, and one
  more second turn per counterfactual variant, which reuses the first turn's answer), so a run
  never sends more requests than the cap allows;
- 429, 5xx and network errors are retried at most twice, waiting as Retry-After says (else
  1 s, then 2 s); other errors are not retried;
- a failed request fails that case with its status and a generic message (never the provider's
  error body, which may echo the key) and the run goes on; a 401 or 403 stops the run, since
  every later request would fail the same way;
- abort stops at once: the request in flight is abandoned and every case already graded is kept.
Each turn keeps the exact request (credentials removed), the response body and timings, so the
results file re-grades offline to the same verdicts.

Pure apart from awaiting: no clock (the transport times requests), no I/O of its own.
"""
from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable

from .conversation import case_mocks
from .evaluate import grade_safely       # a grading bug fails the case, not the run
from .grade import CaseResult
from .limits import ReadError, read_json
from .providers import endpoint, public_headers, reply_from_body, request_body, request_headers
from .secrets import redact
from .suite import Case, Tool, requests_needed, scoped
from .transcripts import make_transcript

RETRY_STATUSES = frozenset({429, 500, 502, 503, 504, 529})
STOP_STATUSES = frozenset({401, 403})
MAX_RETRY_WAIT_S = 60.0
STATUS_MESSAGES = {
    400: "bad request (the provider refused the request body)",
    401: "unauthorized: check the API key",
    403: "forbidden: the key may not use this model",
    404: "not found: check the model name and the base URL",
    408: "request timeout", 413: "request too large",
    422: "unprocessable request", 429: "rate limited",
    500: "provider server error", 502: "bad gateway", 503: "provider unavailable",
    504: "gateway timeout", 529: "provider overloaded",
}


@dataclass(frozen=True)
class HttpReply:
    """What a transport hands back: status, headers (lower-case names), body text, time taken."""
    status: int
    headers: dict
    text: str
    elapsed_ms: float


class TransportError(Exception):
    """No HTTP answer: `kind` is "timeout", "network" or "blocked" (refused by the browser)."""

    def __init__(self, kind: str, message: str, elapsed_ms: float = 0.0):
        super().__init__(message)
        self.kind, self.message, self.elapsed_ms = kind, message, elapsed_ms


Transport = Callable[[str, dict, dict, float], Awaitable[HttpReply]]


@dataclass
class RunSettings:
    provider: str                  # one of providers.PROVIDERS
    model: str
    api_key: str = ""
    base_url: str = ""
    scope: str = "all"             # "all" or one category id
    cap: int = 10
    pause_s: float = 0.15
    timeout_s: float = 45.0
    retries: int = 2
    backoff_s: float = 1.0


def status_message(status: int | None) -> str:
    if status is None:
        return "no response"
    return STATUS_MESSAGES.get(status, "server error" if status >= 500 else "request refused")


def retry_wait(reply: HttpReply | None, attempt: int, backoff_s: float) -> float:
    """Seconds to wait before retry number `attempt` (1-based): Retry-After if it says so."""
    if reply is not None:
        value = str(reply.headers.get("retry-after", "")).strip()
        try:
            return min(max(float(value), 0.0), MAX_RETRY_WAIT_S)
        except ValueError:
            pass
    return backoff_s * 2 ** (attempt - 1)


class _Aborted(Exception):
    pass


@dataclass
class Run:
    """One run: settings in, transcripts and graded results out, observable as it goes."""
    cases: list
    tools: dict
    settings: RunSettings
    transport: Transport
    on_case: Callable[[dict, CaseResult], None] | None = None
    on_request: Callable[[int, int], None] | None = None
    used: int = 0
    state: str = "idle"            # idle | running | done | aborted | error
    error: str = ""
    transcripts: list = field(default_factory=list)
    results: list = field(default_factory=list)
    skipped: int = 0               # cases not started because the cap could not cover them

    def __post_init__(self) -> None:
        self.plan = scoped(self.cases, self.settings.scope)
        self._abort = asyncio.Event()

    @property
    def need(self) -> int:
        return requests_needed(self.plan)

    def abort(self) -> None:
        """Stop at once; what is graded stays graded."""
        self._abort.set()

    async def run(self) -> None:
        self.state = "running"
        try:
            for index, case in enumerate(self.plan):
                if self._abort.is_set():
                    raise _Aborted
                if self.used + case.requests > self.settings.cap:
                    self.skipped = len(self.plan) - index
                    break
                raw = await self._run_case(case)
                result = grade_safely(case, self.tools, make_transcript(raw, self.settings.provider,
                                                                         self.settings.model))
                self.transcripts.append(raw)
                self.results.append(result)
                if self.on_case:
                    self.on_case(raw, result)
                stop = next((t["error"]["status"] for t in raw["turns"]
                             if "error" in t and t["error"].get("status") in STOP_STATUSES), None)
                if stop is not None:
                    self.state, self.error = "error", f"HTTP {stop}, {status_message(stop)}"
                    return
                if index + 1 < len(self.plan):
                    await self._sleep(self.settings.pause_s)
            self.state = "done"
        except _Aborted:
            self.state = "aborted"

    async def _run_case(self, case: Case) -> dict:
        offered = [self.tools[name] for name in case.tools]
        turns = [await self._turn(case, offered, first=None, mocks=case_mocks(case))]
        raw = {"case_id": case.id, "provider": self.settings.provider, "model": self.settings.model,
               "turns": turns}
        first = turns[0].get("response")
        if case.mock_results is None or first is None \
                or not reply_from_body(self.settings.provider, first).calls:
            return raw
        turns.append(await self._turn(case, offered, first=first, mocks=case_mocks(case)))
        if turns[1].get("error", {}).get("status") in STOP_STATUSES:
            return raw                  # the key was refused: sending the variants would fail too
        # Counterfactual variants: the same first answer, a different mock result in turn 2.
        variants = []
        for variant in case.variants:
            second = await self._turn(case, offered, first=first, mocks=case_mocks(case, variant.id))
            variants.append({"id": variant.id, "turns": [turns[0], second]})
        if variants:
            raw["variants"] = variants
        return raw

    async def _turn(self, case: Case, offered: list[Tool], *, first: Any, mocks: dict) -> dict:
        s = self.settings
        body = request_body(s.provider, case, offered, model=s.model, first=first, mocks=mocks)
        url, headers = endpoint(s.provider, s.base_url, s.model), request_headers(s.provider, s.api_key)
        record = {"url": url, "headers": public_headers(headers), "body": body}
        attempts, elapsed, reply, failure = 0, 0.0, None, None
        while True:
            if self._abort.is_set():
                raise _Aborted
            if self.used >= s.cap:
                return {"request": record, "error": {"status": None, "message": "request cap reached"},
                        "attempts": attempts, "elapsed_ms": elapsed}
            attempts += 1
            self.used += 1
            if self.on_request:
                self.on_request(self.used, s.cap)
            reply, failure = None, None
            try:
                reply = await self._send(url, headers, body)
                elapsed += reply.elapsed_ms
            except TransportError as exc:
                failure, elapsed = exc, elapsed + exc.elapsed_ms
            retryable = failure is not None and failure.kind != "blocked" or \
                reply is not None and reply.status in RETRY_STATUSES
            if not retryable or attempts > s.retries or self.used >= s.cap:
                break           # no retry left (or no budget for one): keep the real answer
            await self._sleep(retry_wait(reply, attempts, s.backoff_s))
        return self._turn_record(record, reply, failure, attempts, elapsed)

    @staticmethod
    def _turn_record(record: dict, reply: HttpReply | None, failure: TransportError | None,
                     attempts: int, elapsed: float) -> dict:
        out = {"request": record, "attempts": attempts, "elapsed_ms": round(elapsed, 1)}
        if failure is not None:
            out["error"] = {"status": None, "message": failure.message}
        elif not 200 <= reply.status < 300:
            out["error"] = {"status": reply.status, "message": status_message(reply.status)}
        else:
            try:                # the one total reader: limits exceeded are a failed turn, not a crash
                out["response"] = read_json(reply.text, what="body")
                out["status"] = reply.status
            except ReadError as exc:
                out["error"] = {"status": reply.status, "message": "the response body is not valid JSON"
                                if exc.decode_error is not None else f"the response body is unreadable ({exc.reason})"}
        return out

    async def _send(self, url: str, headers: dict, body: dict) -> HttpReply:
        """The transport call, abandoned the moment abort is pressed."""
        request = asyncio.ensure_future(self.transport(url, headers, body, self.settings.timeout_s))
        stop = asyncio.ensure_future(self._abort.wait())
        done, _ = await asyncio.wait({request, stop}, return_when=asyncio.FIRST_COMPLETED)
        if request not in done:
            request.cancel()
            raise _Aborted
        stop.cancel()
        return request.result()

    async def _sleep(self, seconds: float) -> None:
        """Wait, unless abort is pressed first."""
        if seconds <= 0:
            return
        try:
            await asyncio.wait_for(self._abort.wait(), timeout=seconds)
        except asyncio.TimeoutError:
            return
        raise _Aborted

    def document(self, *, created: str) -> dict:
        """The results file: the transcripts format, kind "live" (re-grades offline)."""
        s = self.settings
        return {
            "format": "toolproof.transcripts", "version": 1, "kind": "live", "label": "",
            "provider": s.provider, "model": s.model, "created": created, "scope": s.scope,
            "base_url": s.base_url if s.provider != "openai" else "",     # openai's own is fixed
            "cap": s.cap, "requests_used": self.used, "state": self.state,
            # Redacted like every output: a key the model copied into an argument stays out.
            "transcripts": redact(list(self.transcripts)),
        }
