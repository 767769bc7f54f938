"""The probes of a run with arms: before any item is sent, one request per arm (the first turn of
the arm's first item, exactly as the item will send it) finds out whether the provider takes the
arm's settings.

- answered (2xx): "accepted"; the answer is not graded (the item sends its own request);
- a 4xx other than 401, 403, 408, 409 and 429: "refused", with the provider's own words (bounded,
  redacted by value): the arm is a finding in the report, none of its items is sent, the other
  arms go on;
- 401 or 403: the run stops, as any request refused for its key does;
- anything else (5xx or a network error after the retries, a timeout): "unanswered": the arm runs
  (its items fail or not on their own);
- not sent when the arm was refused before sending (a knob with no field), when the run stops,
  or when the cap has no room left for it.
The need counts one probe for every arm that may send one; `probes` in the results file says how
many were sent: requests_used = the items' requests (retries included) + the probes'.

Pure apart from awaiting the runner's exchange (the transport is the runner's).
"""
from __future__ import annotations

from dataclasses import dataclass

from toolproof.providers.conversation import case_mocks
from .retries import STOP_STATUSES, status_message

NOT_REFUSING = frozenset({401, 403, 408, 409, 429})     # the key, a timeout, a conflict, a rate limit


@dataclass(frozen=True)
class Probe:
    """A probe as the ledger and the exchange see a work item: one request, under its arm."""
    index: int
    arm: str
    requests: int = 1


def arms_need(work: list, arms: list) -> int:
    """Requests a run with arms needs at most: every item's, plus one probe per arm that may send."""
    return sum(w.requests for w in work) + sum(1 for arm in arms if _probed(arm, work))


def _probed(arm, work: list) -> bool:
    return arm.refused is None and any(w.arm == arm.name for w in work)


def probes_sent(arms: list) -> int:
    return sum(1 for arm in arms if arm.probe is not None and arm.probe.get("state") != "not_sent")


def outcome(turn: dict) -> dict:
    """A probe's turn record as the arms block keeps it: state, status, the provider's words."""
    elapsed = {"elapsed_ms": turn.get("elapsed_ms", 0)}
    if "response" in turn:
        return {"state": "accepted", "status": turn.get("status"), **elapsed}
    error = turn.get("error", {})
    status = error.get("status")
    message = error.get("provider_message") or error.get("message", "")
    refusing = isinstance(status, int) and 400 <= status < 500 and status not in NOT_REFUSING
    return {"state": "refused" if refusing else "unanswered", "status": status, "message": message, **elapsed}


async def probe_arms(run) -> None:
    """Send each arm's probe, one after another, and drop the items of every refused arm."""
    for i, arm in enumerate(run.arms):
        if not _probed(arm, run.work):
            continue
        if run.stopping:
            arm.probe = {"state": "not_sent", "message": "the run stopped before this arm's probe"}
            continue
        item = next(w for w in run.work if w.arm == arm.name)
        probe = Probe(-1 - i, arm.name)
        if not run.ledger.reserve(probe):
            arm.probe = {"state": "not_sent", "message": f"the request cap ({run.ledger.cap}) had no room for it"}
            continue
        try:
            _, offered = run.offer(item)
            body = run.body(item, offered, first=None, mocks=case_mocks(item.case))
            turn = await run.exchange(probe, body)
        finally:
            run.ledger.release(probe)
        arm.probe = outcome(turn)
        if arm.probe["state"] == "refused":
            arm.refused = arm.probe["message"] or f"HTTP {arm.probe['status']}"
        if arm.probe["status"] in STOP_STATUSES and not run.error:
            run.error = f"HTTP {arm.probe['status']}, {status_message(arm.probe['status'])}"
    refused = {arm.name for arm in run.arms if arm.refused is not None}
    run.work = [w for w in run.work if w.arm not in refused]
