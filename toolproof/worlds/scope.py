"""The Scenarios scope of a run: `scenarios` (every world's scenarios, world order then scenario
order) or `scenarios:<world>` (one world's). The one reading of the scope word that the runner
(running/scenario_run.py), the terminal's `run --scope` and the page's run form share.

Pure: no I/O. Must not count requests (the runner's need does) nor word an option (reports do).
"""
from __future__ import annotations

from toolproof.errors import ToolProofError

SCOPE = "scenarios"


def is_scenarios(scope: str) -> bool:
    """Is this a Scenarios scope (`scenarios` or `scenarios:<world>`)?"""
    return isinstance(scope, str) and (scope == SCOPE or scope.startswith(SCOPE + ":"))


def scope_of(world_id: str | None) -> str:
    """The scope word for one world's scenarios (None: every world's)."""
    return SCOPE if world_id is None else f"{SCOPE}:{world_id}"


def scenarios_in(worlds: dict, scope: str) -> list:
    """The scenarios a Scenarios scope covers, world order then scenario order; a world not in
    `worlds` is ToolProofError in one line naming the worlds there are."""
    if scope == SCOPE:
        return [s for world in worlds.values() for s in world.scenarios]
    if not is_scenarios(scope):
        raise ToolProofError(f"scope {scope[:80]!r} is not a Scenarios scope (use {SCOPE} or {SCOPE}:<world>)")
    name = scope[len(SCOPE) + 1:]
    if name not in worlds:
        known = ", ".join(worlds) or "none"
        raise ToolProofError(f"unknown world {name[:80]!r} (scope {SCOPE}:<world>); the worlds are: {known}")
    return list(worlds[name].scenarios)


def misfit(scope: str, *, pad: bool, phrased: bool) -> str | None:
    """What a run setting a Scenarios scope cannot take: "pad" (a tool-count sweep) or "phrasings"
    (other wordings of a case's prompt), since a scenario is sent as its world file writes it; None
    when nothing is amiss. The one rule of `run` and the page's run form, each wording it its way."""
    if not is_scenarios(scope):
        return None
    return "pad" if pad else "phrasings" if phrased else None
