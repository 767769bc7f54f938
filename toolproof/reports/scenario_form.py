"""The run form's Scenarios scope in words: the `#scope` options (`scenarios`, every world; then
`scenarios:<world>`, one world) and the need line under the form when a Scenarios scope is chosen.

The number each option says is the runner's own need for that scope (running/scenario_run.py:
each scenario's turn limit, times the repeats), handed in as `need(scope)`: nothing here counts a
request; the scope words are worlds/scope.py's, the ones `run --scope` takes.

Pure: strings and tuples out.
"""
from __future__ import annotations

from typing import Callable

from toolproof.plurals import counted
from toolproof.worlds.scope import SCOPE, scope_of


def scenario_options(worlds: dict, need: Callable[[str], int], mine: frozenset = frozenset()) -> list[tuple[str, str, int]]:
    """(value, label, requests needed) for each Scenarios scope: every world, then each world; a
    world the user loaded (its id in `mine`) is labelled so. None when there is no world."""
    if not worlds:
        return []
    total = sum(len(w.scenarios) for w in worlds.values())
    options = [(SCOPE, f"Scenarios, every world ({counted(total, 'scenario')})", need(SCOPE))]
    for world_id, world in worlds.items():
        whose = ", your file" if world_id in mine else ""
        options.append((scope_of(world_id), f"Scenarios: {world.title} ({counted(len(world.scenarios), 'scenario')}{whose})",
                        need(scope_of(world_id))))
    return options


def scenario_need_text(need: int, most: int, scenarios: int, repeats: int) -> str:
    """The need line for a Scenarios scope: the requests, the conversations they serve, the rule."""
    conversations = scenarios * repeats
    parts = counted(scenarios, "scenario") + (f" × {counted(repeats, 'repeat')}" if repeats > 1 else "")
    return (f"This scope needs at most {counted(need, 'request')} for {counted(conversations, 'conversation')} "
            f"({parts}): one request per model turn, up to each scenario's turn limit; the user's replies are "
            f"scripted and the tools answer from the world's tables, in this page (no other request). The cap "
            f"starts there and can be 1 to {most}: retries count against it, and a conversation is only started "
            "if its turn limit fits.")
