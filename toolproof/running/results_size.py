"""How big a run's results file will be, planned before anything is sent, and when a run must
stop starting work so that its file still reads back.

Every reader refuses a file over the reading limit (limits.MAX_FILE_BYTES, 20 MB: `grade`,
`compare`, `board` and the page), so `run --out` plans its file against it:
- `planned(run)`: the file the plan writes (the items the cap lets start). What ToolProof
  sends is known before anything is sent: every first turn's request is built as the run builds
  it and written through the results file's own text (grading/results_text.py), so a part that
  repeats costs what it costs in the file, a reference. What the provider decides is allowed
  for: `TURN_ALLOWANCE` bytes per turn (its reply, the timings, and in a later turn the reply
  echoed back), plus each later turn's mock results as sent;
- `plan_problem(plan, limit)`: the one line `run` refuses a plan with (over the reading limit, or
  its references standing for more than the readers expand);
- `stop_line(...)`: while the run goes, the line that stops it from starting more work when the
  file, with room for the conversations that may still be in flight and the list of those not
  started, would pass the limit (replies much larger than allowed for).

Pure: no I/O.
"""
from __future__ import annotations

from typing import NamedTuple

from toolproof.grading.results_refs import MAX_REFERRED, compact
from toolproof.grading.results_text import ResultsText
from toolproof.providers.conversation import case_mocks
from toolproof.providers.dispatch import endpoint, public_headers, request_headers
from toolproof.suite.model import BASE

# Bytes allowed per turn for what the provider decides: its reply body, the attempt log and
# timings, and a later turn's echo of the reply. Measured: 0.3 KB a turn from the fake provider
# (benchmarks/results_write.py), 0.5-1 KB from real APIs with usage; a reasoning model's signed or
# encrypted reasoning takes more, and a run whose replies outgrow this stops (`stop_line`).
TURN_ALLOWANCE = 1_000
NOT_STARTED_BYTES = 400     # one `not_started` entry of a stopped run, with its reason


def started_items(run) -> list:
    """The plan items the cap lets start, in plan order (retries not counted)."""
    out, room = [], run.settings.cap
    for work in run.work:
        if work.requests > room:
            break
        out.append(work)
        room -= work.requests
    return out


class Planned(NamedTuple):
    """A plan's results file: its size in bytes, and the bytes its references stand for."""
    file_bytes: int
    referred: int


def planned(run) -> Planned:
    """The size the run's results file is planned at (see the module's docstring), and what its
    references stand for (the readers bound that too: grading/results_refs.py MAX_REFERRED)."""
    s = run.settings
    text = ResultsText(same_objects=True)     # every repeat hands the same request objects again
    total = len(text.head(run.document(created="2000-01-01T00:00:00+00:00")).encode("utf-8"))
    record = {"url": endpoint(s.provider, s.base_url, s.model),
              "headers": public_headers(request_headers(s.provider, s.api_key, s.headers), s.headers)}
    built: dict = {}                # (case, phrasing, pad) -> its request: every repeat sends the same
    for work in started_items(run):
        transcript, later = _planned_transcript(run, work, record, built)
        total += len(text.item(transcript).encode("utf-8")) + later
    closing = text.close(run.document(created="2000-01-01T00:00:00+00:00"))
    # the tail's counts grow a few digits
    return Planned(total + len(closing.encode("utf-8")) + 64, text.encoder.referred)


def _planned_transcript(run, work, record: dict, built: dict) -> tuple[dict, int]:
    """A transcript as the run will write it, the provider's part left out; with the bytes
    allowed for what the provider decides."""
    s, case = run.settings_for(work), work.case
    key = (case.id, work.phrasing, work.pad, work.arm)
    if key not in built:                # as the run builds it: its arm's tools, order and knobs
        names, offered = run.offer(work)
        built[key] = names, run.body(work, offered, first=None, mocks=case_mocks(case))
    names, body = built[key]
    first = _turn({**record, "body": body})
    raw = {"case_id": case.id, "repeat": work.repeat, "provider": s.provider, "model": s.model, "turns": [first]}
    if work.arm is not None:
        raw["arm"] = work.arm
    if work.phrasing != BASE:
        raw["phrasing"] = work.phrasing
    if work.pad is not None:
        raw.update(pad=work.pad, offered=names)
    if case.mock_results is None:
        return raw, TURN_ALLOWANCE
    # A later turn sends the first turn's parts again (references in the file), then the echo and
    # the mock results; each variant writes the first turn again (a reference, and its reply).
    later = _turn({**record, "body": body})
    raw["turns"].append(later)
    extra = 2 * TURN_ALLOWANCE + len(compact(case_mocks(case)))
    if case.variants:
        raw["variants"] = [{"id": v.id, "turns": [first, later]} for v in case.variants]
        extra += sum(2 * TURN_ALLOWANCE + len(compact(v.mock_results)) for v in case.variants)
    return raw, extra


def _turn(request: dict) -> dict:
    return {"request": request, "attempts": 1, "attempt_log": [], "elapsed_ms": 0, "status": 200, "response": None}


def plan_problem(plan: Planned, limit: int, max_referred: int = MAX_REFERRED) -> str | None:
    """The line a plan is refused with when its results file could not be read back: over the
    reading limit, or referring to more than the readers expand."""
    fix = ("send less in one run (fewer --repeats or --phrasings, a --scope) or split it into "
           "several runs")
    if plan.file_bytes > limit:
        return (f"--out: this plan's results file would take about {plan.file_bytes / 1e6:.1f} MB, over the "
                f"{limit / 1e6:g} MB every reader of results files accepts; {fix}")
    if plan.referred > max_referred:
        return (f"--out: this plan's results file would repeat about {plan.referred / 1e6:.0f} MB of requests, "
                f"over the {max_referred / 1e6:g} MB every reader expands; {fix}")
    return None


def stop_line(size: int, largest: int, in_flight: int, not_started: int, limit: int) -> str | None:
    """Whether to stop starting work: when the file (`size` bytes now), plus `in_flight`
    conversations as large as the `largest` written so far and the `not_started` entries a
    stopped run lists, would pass the limit; the line that says so, else None."""
    if size + in_flight * max(largest, TURN_ALLOWANCE) + not_started * NOT_STARTED_BYTES <= limit:
        return None
    return (f"the results file is at {size / 1e6:.1f} MB, near the {limit / 1e6:g} MB reading limit "
            "(the replies are larger than planned for): no further case starts, so the file still reads back")
