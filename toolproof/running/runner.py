"""Run the suite against a provider: the one loop the page and the terminal share.

The transport (how bytes reach the provider) is handed in: the page gives one built on the browser's
fetch, the CLI one built on urllib. Everything else is decided here, the same way in both places:
- the plan is every case of the scope `repeats` times (toolproof.running.workplan), each repeat an
  independent conversation; results are kept in plan order (suite order, then repeat) whatever
  order they finish in, so verdicts and the scorecard never depend on timing; a Scenarios scope's
  plan is scenarios (scenario_run.py: a conversation up to its turn limit, the item's need) under
  every rule below alike;
- `concurrency` workers take plan items (longest first when the cap covers them all), so up to that
  many requests are in flight; a case's turns stay in order inside its worker. With 1 worker, cases
  run one after another with a pause between them (150 ms); with more, the in-flight limit is the throttle;
- every request has a deadline (45 s) for the whole exchange, and counts against the cap, retries
  included; each asks for at most `max_tokens` output tokens (1024);
- a case is never started unless all of its requests fit under the cap (a second turn, and one
  more second turn per counterfactual variant, which reuses the first turn's answer): they are
  reserved when it starts, so concurrent cases never send more requests than the cap allows;
  the cap may go up to `most` (the plan's need with every retry allowed for), and a run at that
  cap never leaves an item unstarted; an item left out is listed in the results file
  (`not_started`, with why);
- 429, 5xx and network errors are retried at most twice, waiting as Retry-After says (else 1 s, then
  2 s); a 429 pauses every worker for that wait; other errors are not retried; a Retry-After above
  30 s is not slept: the run stops there ("rate limited: the provider asks to wait N s");
- redirects are never followed (the transport returns the 3xx): the key goes only to the origin
  the user named, and the case fails naming where the server pointed;
- a failed request fails that case with what its status means, how long it took and the provider's
  own error message (bounded, every secret redacted by value: the body may echo the key) and the
  run goes on; a 401 or 403 stops the run (no further case starts; those in flight finish);
- every attempt is kept in the turn (`attempt_log`: status or error kind, elapsed_ms); a reply the
  provider has not finished (Responses `queued`, `in_progress`) is fetched again within the timeout
  (polling.py: not counted against the cap, each fetch logged with `poll: true`);
- a run in which no request succeeded ends in the error state, never "done"; and if, before any
  request has had an answer, one fails with a network error (refused, DNS, TLS) after its
  retries, the run stops at once in the error state with that line (naming the endpoint);
- before any request has had an answer, SAME_STATUS_STOP (5) different conversations that have each
  failed for good (after their retries) with one HTTP status stop the run: no further request
  starts, nor any retry (an endpoint answering 500 or 404 to everything would only use up the cap).
  Conversations are counted, not attempts: with several in flight, a server that refuses the first
  requests of every conversation but answers their retries never stops it;
- abort stops at once: the request in flight is abandoned and every case already graded is kept.
Each turn keeps the exact request (credentials removed), the response body and timings, so the
results file re-grades offline to the same verdicts.

Pure apart from awaiting: no clock (the transport times requests), no I/O of its own.
"""
from __future__ import annotations

import asyncio
import bisect
from dataclasses import dataclass
from typing import Any, Callable

from toolproof.providers.conversation import case_mocks
from toolproof.grading.guarded import grade_safely       # a grading bug fails the case, not the run
from toolproof.grading.verdicts import CaseResult
from toolproof.limits import ReadError, read_json
from toolproof.providers.dispatch import endpoint, public_headers, reply_from_body, request_body, request_headers, trim_body
from toolproof.secrets import redact
from toolproof.suite.model import BASE, Case, Tool, scoped
from .sweep import offered_tools
from toolproof.grading.transcripts import make_transcript
from .workplan import Ledger, Work, cap_most, dispatch_order, plan_need, plan_work
from .scenario_run import grade_work, is_scenarios, run_scenario, scenario_need, scenario_plan
from .polling import settle
from .arm_plan import arm_offer, arm_work, run_secrets, unmasked
from .arm_send import arms_need, probe_arms
from .run_document import not_started, run_document
from toolproof.arms.knobs import apply_knobs
from .retries import (MAX_RETRY_WAIT_S, NO_RETRY_KINDS, RETRY_STATUSES, STOP_STATUSES, attempt_entry,
                      failure_message, provider_message, retry_after, retry_wait, status_message)
from .settings import RunSettings  # noqa: F401 - the runner's settings, imported from here too
from .transport import HttpReply, Transport, TransportError

class _Aborted(Exception):
    """Abort was pressed: unwinds a worker at once."""


def succeeded(raw: dict) -> bool:
    """Did any request of this transcript (variants included) get a readable answer?"""
    turns = [*raw.get("turns", []), *(t for variant in raw.get("variants", []) for t in variant.get("turns", []))]
    return any("response" in turn for turn in turns)


SAME_STATUS_STOP = 5    # conversations failed for good with one HTTP status, before any answer: stop


@dataclass
class Run:
    """One run: settings in, transcripts and graded results out, observable as it goes."""
    cases: list
    tools: dict
    settings: RunSettings
    transport: Transport
    on_case: Callable[[dict, CaseResult], None] | None = None
    on_request: Callable[[int, int], None] | None = None
    # (plan index, the transcript as the results file holds it: redacted) once a conversation is
    # over: what the page stores as the run goes, so a closed tab keeps every answer it had
    on_kept: Callable[[int, dict], None] | None = None
    suite_sha256: str = ""         # fingerprint.suite_sha256 of the suite document (the caller's)
    state: str = "idle"            # idle | running | done | aborted | error
    error: str = ""
    skipped: int = 0               # work items not started because the cap could not cover them
    stop: str = ""                 # why no further request may be sent (a long Retry-After)
    worlds: dict | None = None     # world id -> World: a Scenarios scope runs their scenarios (scenario_run.py)
    arms: list | None = None       # ArmRun (arm_plan.py): the plan runs once per arm, each probed first

    def __post_init__(self) -> None:
        s = self.settings
        if is_scenarios(s.scope):       # the plan is scenarios, not cases (ToolProofError: an unknown world)
            self.plan, self.work = [], scenario_plan(self.worlds or {}, s.scope, s.repeats)
        else:
            self.plan = scoped(self.cases, s.scope)
            self.work = plan_work(self.plan, s.repeats, s.pad_levels, s.phrasings)
        if self.arms:                   # every item once per arm (the arm's own settings and tools)
            self.work = arm_work(self.work, self.arms)
        self.ledger = Ledger(self.settings.cap)
        self._done: list[tuple[int, dict, CaseResult, dict]] = []   # plan order; the last is redacted
        self._queue = self.work        # the order work items are handed out in (see run)
        self._next = 0                 # the next item of the queue to hand out
        self._started: set[int] = set()  # plan indices handed to a worker
        self._in_flight = 0
        self._answered = False         # has any request had a readable answer?
        self._halt = ""                # a network error before any answer: stop everything now
        self._same: dict[int, set[int]] = {}   # HTTP status -> work items that failed for good with it
        self._abort = asyncio.Event()
        self._freed = asyncio.Event()  # set when an item finishes (its unused reservation is free)
        self._open = asyncio.Event()   # cleared while a 429 pauses every worker
        self._open.set()
        self._holds = 0

    @property
    def need(self) -> int:
        """Requests the plan needs at most (every repeat and pad level, no retries): the cap's start."""
        s = self.settings
        if self.arms:                   # every arm's items, and one probe for each arm that is sent
            return arms_need(self.work, self.arms)
        if is_scenarios(s.scope):
            return scenario_need(self.worlds or {}, s.scope, repeats=s.repeats)
        return plan_need(self.cases, s.scope, phrasings=s.phrasings, pad_levels=s.pad_levels, repeats=s.repeats)

    @property
    def most(self) -> int:
        """The largest cap: `need` plus every retry the runner may make (each request at most
        `retries` times more). At it no item is ever left unstarted: an item reserves its own
        requests, a retry draws only from what is unreserved, and started items use only their share."""
        return cap_most(self.need, self.settings.retries)

    used = property(lambda self: self.ledger.used)

    @property
    def transcripts(self) -> list[dict]:
        """Every finished conversation, in plan order (suite order, then repeat)."""
        return [done[1] for done in self._done]

    results = property(lambda self: [done[2] for done in self._done])      # CaseResults, in plan order

    any_success = property(lambda self: any(succeeded(raw) for raw in self.transcripts))

    def abort(self) -> None:
        """Stop at once; what is graded stays graded."""
        self._abort.set()

    async def run(self) -> None:
        self.state = "running"
        self.ledger = Ledger(self.settings.cap)     # the cap as it stands now (the CLI may lower it)
        if self.arms:                  # one request per arm first: refused arms are findings, not run
            await probe_arms(self)
        self._queue = dispatch_order(self.work, self.settings.cap) if self.settings.concurrency > 1 else self.work
        workers = [asyncio.ensure_future(self._worker()) for _ in range(max(1, self.settings.concurrency))]
        try:
            await asyncio.gather(*workers)
        finally:                       # a bug in one worker (or a cancelled run) stops the others
            for worker in workers:
                worker.cancel()
        if self._halt or self.error or self._abort.is_set():
            aborted = self._abort.is_set() and not self._halt        # a halt aborts the workers too
            self.state, self.error = ("aborted" if aborted else "error"), self._halt or self.error
        else:
            self.state = "done"
            if self.used and not self.any_success:
                self.state = "error"
                self.error = f"no request succeeded ({self.used} sent); each case's reason says why"

    async def _worker(self) -> None:
        """Take work items in dispatch order until none is left, the run stops, or abort."""
        try:
            while (work := await self._next_work()) is not None:
                try:
                    raw = await (self._run_case(work) if work.scenario is None else run_scenario(self, work))
                finally:
                    self.ledger.release(work)
                    self._in_flight -= 1
                    self._freed.set()
                self._record(work, raw)
                if self.settings.concurrency == 1 and self._next < len(self._queue) and not self.stopping:
                    await self._sleep(self.settings.pause_s)     # sequential runs keep their spacing
        except _Aborted:
            return

    @property
    def stopping(self) -> bool:
        return bool(self.error or self.stop or self._halt) or self._abort.is_set()

    async def _next_work(self) -> Work | None:
        """The next item whose requests can all be reserved; None when the run is over. An item
        that does not fit waits for in-flight items to give back what they did not use."""
        while True:
            if self.stopping or self._next >= len(self._queue):
                return None
            work = self._queue[self._next]
            if self.ledger.reserve(work):
                self._next, self._in_flight = self._next + 1, self._in_flight + 1
                self._started.add(work.index)
                return work
            if self._in_flight == 0:
                self.skipped, self._next = len(self._queue) - self._next, len(self._queue)
                return None
            self._freed.clear()
            await self._until(self._freed)

    def _record(self, work: Work, raw: dict) -> None:
        # redacted once, here: the results file is rewritten after every case, and redacting
        # every transcript again each time made long runs quadratic
        clean = redact(raw, keys=self.secrets())
        if self.on_kept:                # first, before grading: the page stores it the moment it is over
            self.on_kept(work.index, clean)
        s = self.settings_for(work)
        result = grade_safely(work.case, self.tools, unmasked(make_transcript(raw, s.provider, s.model), self.arm_of(work))) \
            if work.scenario is None else grade_work(self.worlds, work.scenario, raw)
        bisect.insort(self._done, (work.index, raw, result, clean), key=lambda done: done[0])
        self._same_status_stop(work, raw)
        if self.on_case:
            self.on_case(raw, result)
        refused = next((t["error"]["status"] for t in raw["turns"]
                        if "error" in t and t["error"].get("status") in STOP_STATUSES), None)
        if refused is not None and not self.error:
            self.error = f"HTTP {refused}, {status_message(refused)}"
        elif self.stop and not self.error:
            self.error = self.stop

    def _offered(self, case: Case, pad: int | None) -> list[str]:
        """The sweep hook: the tool names a (case, pad level) is offered, in the order sent."""
        return list(case.tools) if pad is None else offered_tools(case, self.tools, pad, self.settings.pad_seed)

    def settings_for(self, work) -> RunSettings:
        """What `work` is sent with: its arm's settings, else the run's."""
        return self.settings if work.arm is None else self.arm_of(work).settings

    def arm_of(self, work):
        return None if work.arm is None else next(a for a in self.arms if a.name == work.arm)

    def secrets(self) -> tuple:
        """Every value to redact: the run's key and secret headers, and every arm's key."""
        return run_secrets(self.settings, self.arms)

    def offer(self, work: Work) -> tuple[list[str], list[Tool]]:
        """The ids `work`'s case is offered, in the order sent, and the tools as shown (its arm's)."""
        return arm_offer(self.arm_of(work), work.case.id, self._offered(work.case, work.pad), self.tools)

    async def _run_case(self, work: Work) -> dict:
        case, s = work.case, self.settings_for(work)
        names, offered = self.offer(work)
        turns = [await self.exchange(work, self.body(work, offered, first=None, mocks=case_mocks(case)))]
        raw = {"case_id": case.id, "repeat": work.repeat, "provider": s.provider, "model": s.model, "turns": turns}
        if work.arm is not None:        # recorded, so a re-grade splits the file by arm
            raw["arm"] = work.arm
        if work.phrasing != BASE:       # recorded, so a re-grade sends the grader the same prompt
            raw["phrasing"] = work.phrasing
        if work.pad is not None:        # recorded, so a re-grade knows the level and what was offered
            raw.update(pad=work.pad, offered=names)
        first = turns[0].get("response")
        if self.stopping or case.mock_results is None or first is None \
                or not reply_from_body(s.provider, first).calls:
            return raw
        turns.append(await self.exchange(work, self.body(work, offered, first=first, mocks=case_mocks(case))))
        if self.stopping or turns[1].get("error", {}).get("status") in STOP_STATUSES:
            return raw                  # the key was refused (or we must wait): variants would fail too
        # Counterfactual variants: the same first answer, a different mock result in turn 2.
        variants = []
        for variant in case.variants:
            if self.stopping:
                break
            second = await self.exchange(work, self.body(work, offered, first=first, mocks=case_mocks(case, variant.id)))
            variants.append({"id": variant.id, "turns": [turns[0], second]})
        if variants:
            raw["variants"] = variants
        return raw

    def body(self, work, offered: list[Tool], *, first: Any, mocks: dict) -> dict:
        """One request body of `work`: its arm's knobs in the provider's fields (arms/knobs.py)."""
        s = self.settings_for(work)
        body = request_body(s.provider, work.case, offered, model=s.model, first=first, mocks=mocks,
                            max_tokens=s.max_tokens, temperature=s.temperature, seed=s.seed)
        arm = self.arm_of(work)
        return body if arm is None else apply_knobs(s.provider, body, arm.wire_knobs(first is None))

    async def exchange(self, work: Work, body: dict) -> dict:
        """Send one request body of `work` (retries, polling, the cap, abort) and record the turn:
        the request (credentials removed), the response as kept, or the error."""
        s = self.settings_for(work)
        url, headers = endpoint(s.provider, s.base_url, s.model), request_headers(s.provider, s.api_key, s.headers)
        record = {"url": url, "headers": public_headers(headers, s.headers), "body": body}
        log: list[dict] = []
        reply, failure, long_wait = None, None, ""
        while True:
            await self._until(self._open)          # a 429 elsewhere pauses this worker too
            if not self.ledger.take(work):
                return {"request": record, "error": {"status": None, "message": "request cap reached"},
                        "attempts": len(log), "attempt_log": log,
                        "elapsed_ms": round(sum(a["elapsed_ms"] for a in log), 1)}
            if self.on_request:
                self.on_request(self.used, s.cap)
            reply, failure = None, None
            try:
                reply = await self._send(url, headers, body)
            except TransportError as exc:
                failure = exc
            log.append(attempt_entry(reply, failure))
            if self.stop:
                break           # the run is stopping (see _same_status_stop): a retry would only spend the cap
            retryable = failure is not None and failure.kind not in NO_RETRY_KINDS or \
                reply is not None and reply.status in RETRY_STATUSES
            if not retryable:
                break
            wait = retry_after(reply)
            if wait is not None and wait > MAX_RETRY_WAIT_S:
                # Sleeping an hour per case helps nobody: stop, keeping what was graded.
                long_wait = self.stop = f"{status_message(reply.status)}: the provider asks to wait {wait:g} s"
                break
            if len(log) > s.retries or not self.ledger.can_take(work):
                break           # no retry left (or no budget for one): keep the real answer
            seconds_to_wait = retry_wait(reply, len(log), s.backoff_s)
            if reply is not None and reply.status == 429:
                await self._pause_all(seconds_to_wait)
            else:
                await self._sleep(seconds_to_wait)
        if reply is not None and failure is None:      # queued / in_progress: fetched until finished
            reply, polls = await settle(reply, provider=s.provider, url=url, headers=headers, timeout_s=s.timeout_s,
                                        send=self._send, sleep=self._sleep)
            log += polls
        return self._turn_record(record, url, reply, failure, log, long_wait)

    def _same_status_stop(self, work: Work, raw: dict) -> None:
        """Count the conversations that failed for good (their last turn an HTTP error after its
        retries) before any request had an answer, by status: at SAME_STATUS_STOP different ones
        with one status, an endpoint that answers 500 (or 404) to everything would only use up
        the cap, so no further request starts (one line says why). Conversations, not attempts:
        at --concurrency 8 the first attempts of eight conversations all fail together at a server
        that answers every retry, and counting those stopped a run that would have succeeded."""
        status = raw["turns"][-1].get("error", {}).get("status") if raw["turns"] else None
        if self._answered or not isinstance(status, int) or 200 <= status < 300:
            return                      # a network error or a timeout is not an HTTP status
        failed = self._same.setdefault(status, set())
        failed.add(work.index)
        if len(failed) >= SAME_STATUS_STOP and not self.stop:
            self.stop = (f"at least {SAME_STATUS_STOP} conversations failed with HTTP {status}: {status_message(status)}, "
                         "each after its retries; nothing succeeded, so no further request is sent")

    def _turn_record(self, record: dict, url: str, reply: HttpReply | None,
                     failure: TransportError | None, log: list[dict], long_wait: str = "") -> dict:
        elapsed = sum(a["elapsed_ms"] for a in log)
        # "attempts" stays the integer count older files and readers know; the log says what each was.
        out = {"request": record, "attempts": sum(not a.get("poll") for a in log), "attempt_log": log,
               "elapsed_ms": round(elapsed, 1)}
        if failure is not None or not 200 <= reply.status < 300:
            status = None if failure is not None else reply.status
            out["error"] = {"status": status, "message": long_wait or failure_message(url, reply, failure)}
            said = provider_message(reply.text, self.secrets()) if status and status >= 400 else ""
            if said:                    # the provider's own words, bounded and redacted by value
                out["error"]["provider_message"] = said
            if failure is not None and failure.kind == "network" and not self._answered:
                # Nothing has ever answered: the endpoint is wrong or down, and every other request
                # would fail the same way. Stop now (requests in flight are abandoned).
                self._halt = failure.message
                self._abort.set()
        else:
            try:                # the one total reader: limits exceeded are a failed turn, not a crash
                # Kept as the grader reads it (its first 128 calls, 20,000 characters of text), the
                # moment it is read: the whole body is never stored, echoed in turn 2 or redacted.
                out["response"], dropped = trim_body(self.settings.provider, read_json(reply.text, what="body"))
                if dropped:
                    out["dropped"] = dropped
                out["status"] = reply.status
                self._answered = True
            except ReadError as exc:
                out["error"] = {"status": reply.status, "message": "the response body is not valid JSON"
                                if exc.decode_error is not None else f"the response body is unreadable ({exc.reason})"}
        return out

    async def _send(self, url: str, headers: dict, body: dict | None, timeout: float | None = None) -> HttpReply:
        """The transport call (a GET when `body` is None), abandoned the moment abort is pressed."""
        request = asyncio.ensure_future(self._gated(url, headers, body, timeout or self.settings.timeout_s))
        stop = asyncio.ensure_future(self._abort.wait())
        done, _ = await asyncio.wait({request, stop}, return_when=asyncio.FIRST_COMPLETED)
        if request not in done:
            request.cancel()
            # a request that failed as abort was pressed: its error is moot, not "never retrieved"
            request.add_done_callback(lambda task: task.cancelled() or task.exception())
            raise _Aborted
        stop.cancel()
        return request.result()

    async def _gated(self, url: str, headers: dict, body: dict | None, timeout: float) -> HttpReply:
        # The task starts on the loop's next turn: a 429 that arrived in between holds it too.
        await self._open.wait()
        return await self.transport(url, headers, body, timeout)

    async def _sleep(self, seconds: float) -> None:
        """Wait, unless abort is pressed first."""
        if seconds <= 0:
            return
        try:
            await asyncio.wait_for(self._abort.wait(), timeout=seconds)
        except asyncio.TimeoutError:
            return
        raise _Aborted

    async def _until(self, event: asyncio.Event) -> None:
        """Wait until `event` is set, unless abort is pressed first."""
        if self._abort.is_set():
            raise _Aborted
        if event.is_set():
            return
        waits = {asyncio.ensure_future(event.wait()), asyncio.ensure_future(self._abort.wait())}
        try:
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for waiting in waits:
                waiting.cancel()
        if self._abort.is_set():
            raise _Aborted

    async def _pause_all(self, seconds: float) -> None:
        """A 429: every worker waits (before its next request) until this wait is over."""
        self._holds += 1
        self._open.clear()
        try:
            await self._sleep(seconds)
        finally:
            self._holds -= 1
            if self._holds == 0:
                self._open.set()

    def not_started(self) -> list[dict]:
        """Every plan item without a transcript, and why (run_document.not_started)."""
        return not_started(self)

    def document(self, *, created: str) -> dict:
        """The results file (run_document.run_document): written after every case while the run goes."""
        return run_document(self, created)
