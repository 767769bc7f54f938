"""What a live run will send, and the request budget that keeps it under the cap.

A run is a plan of work items, one per (case, phrasing, repeat), in suite order, then phrasing
order ("base" first, then the case's phrasings in suite order), then repeat order; or, for a
Scenarios scope, one per (scenario, repeat), whose requests are the scenario's turn limit. The
order of the plan is the order of the results file and of every result, whatever order the
items finish in (several may be in flight at once). Other dimensions of a run (e.g. a tool-count
padding level) extend `Work` and `plan_work`, not the runner's loop.

Items start longest first when the cap covers them all (see dispatch_order). The ledger is the cap, made safe for concurrent cases: an item is started only when all the
requests it may need (its case's `requests`, retries not counted) can be reserved, so in-flight
items never crowd each other out and the cap is never exceeded. A request draws from its own
item's reservation first; a retry beyond that draws from what nobody has reserved.

Retries and the cap: an item sends at most requests × (1 + retries). With the cap at the plan's
need × (1 + retries) (the runner's `most`), every started item's used + reserved stays within its
own worst case, so what is free is always at least the worst case of the items not yet started:
no item is ever refused for want of budget, and every retry finds one. Below that, a retry takes
budget a later item needed, and that item is left unstarted (and listed as such).

Pure: no I/O, no clock.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from toolproof.suite.model import BASE, Case, chosen_phrasings, phrased, requests_needed, scoped
from .sweep import sweep_need


@dataclass(frozen=True)
class Work:
    """One conversation to run: a case, sent for the `repeat`-th time (0-based), at a tool-count
    padding level (`pad`, None when the run is not a sweep), in one `phrasing` (`case` is then the
    case as that phrasing sends it: its prompt replaced)."""
    index: int                  # position in the plan: the order results are kept in
    case: Case | None           # None for a scenario
    repeat: int = 0
    pad: int | None = None
    phrasing: str = BASE
    scenario: Any = None        # a worlds.model.Scenario: a conversation up to its turn limit
    arm: str | None = None      # the arm it is sent under (arm_plan.py), None in a run without arms

    @property
    def requests(self) -> int:
        """A case's requests (its turns and variants); a scenario's turn limit (one request per
        model turn, the most it may send)."""
        return self.scenario.turn_limit if self.scenario is not None else self.case.requests

    @property
    def item_id(self) -> str:
        """The case's or the scenario's id."""
        return self.scenario.id if self.scenario is not None else self.case.id


def plan_work(cases: list[Case], repeats: int, pad_levels: tuple = (),
              phrasings: str | int = BASE) -> list[Work]:
    """Every case in each chosen phrasing `repeats` times, each an independent conversation, case
    by case; for a sweep, level by level (so a run the cap cuts short keeps whole levels)."""
    items = [(phrased(case, p), repeat, pad, p) for pad in (pad_levels or (None,))
             for case in cases for p in chosen_phrasings(case, phrasings) for repeat in range(repeats)]
    return [Work(index, case, repeat, pad, p) for index, (case, repeat, pad, p) in enumerate(items)]


def plan_need(cases: list[Case], scope: str = "all", *, phrasings: str | int = BASE,
              pad_levels: tuple = (), repeats: int = 1) -> int:
    """Requests a run of `scope` needs at most: each chosen phrasing of a case its own
    conversation, times the repeats and pad levels, no retries. The one rule for the cap a run
    starts at when none is given: the page's #cap default and `run` without --cap alike."""
    return sweep_need(requests_needed(scoped(cases, scope), phrasings), pad_levels, repeats)


def plan_scenarios(scenarios: list, repeats: int) -> list[Work]:
    """Every scenario `repeats` times, scenario by scenario (world order, then scenario order: the
    order worlds.scope.scenarios_in gives), each repeat an independent conversation."""
    return [Work(index, None, repeat, scenario=scenario)
            for index, (scenario, repeat) in enumerate((s, r) for s in scenarios for r in range(repeats))]


def unstarted(work: list[Work], done: set, started: set, why: str) -> list[dict]:
    """Every plan item without a transcript, and why: [{case_id, repeat, pad?, phrasing?, arm?, reason}]
    in plan order; an item that was handed out says it stopped while in flight."""
    out = []
    for item in work:
        if item.index in done:
            continue
        reason = f"{why} while it was in flight" if item.index in started else why
        out.append({"case_id": item.item_id, "repeat": item.repeat,
                    **({"pad": item.pad} if item.pad is not None else {}),
                    **({"phrasing": item.phrasing} if item.phrasing != BASE else {}),
                    **({"arm": item.arm} if item.arm is not None else {}), "reason": reason})
    return out


def cap_most(need: int, retries: int) -> int:
    """The largest cap a run may be given: its need with every retry allowed for (each request
    at most `retries` times more). At this cap no item is ever left unstarted (see above)."""
    return need * (1 + max(0, retries))


def dispatch_order(work: list[Work], cap: int) -> list[Work]:
    """The order items are started in. When the cap covers the whole plan, the longest items
    (most requests, so most time) go first: with several in flight the run then ends with short
    items instead of one long straggler. Otherwise plan order, so a capped run covers the same
    items whatever the concurrency. Results are kept in plan order either way."""
    if sum(w.requests for w in work) > cap:
        return list(work)
    return sorted(work, key=lambda w: -w.requests)       # stable: plan order among equals


class Ledger:
    """Requests sent and reserved against the cap; `used + reserved <= cap` always holds."""

    def __init__(self, cap: int):
        self.cap, self.used = cap, 0
        self._held: dict[int, int] = {}        # work index -> requests still reserved for it

    @property
    def reserved(self) -> int:
        return sum(self._held.values())

    @property
    def free(self) -> int:
        return self.cap - self.used - self.reserved

    def reserve(self, work: Work) -> bool:
        """Hold every request `work` may need, or hold nothing and say no."""
        if work.requests > self.free:
            return False
        self._held[work.index] = work.requests
        return True

    def can_take(self, work: Work) -> bool:
        return self._held.get(work.index, 0) > 0 or self.free > 0

    def take(self, work: Work) -> bool:
        """Count one request of `work`: its own reservation first, else an unreserved one."""
        if not self.can_take(work):
            return False
        if self._held.get(work.index, 0) > 0:
            self._held[work.index] -= 1
        self.used += 1
        return True

    def release(self, work: Work) -> None:
        """`work` is finished: what it did not use goes back to everyone."""
        self._held.pop(work.index, None)
