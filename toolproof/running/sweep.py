"""Tool-count sweep: which tools a case is offered at a padding level, and in what order.

Rules (docs/sweeps.md "Padding rules" says the same for users):
- at level N a case is offered its own tools plus exactly N extra tools from the catalogue;
- the extra tools come only from domains none of the case's own tools belongs to (so padding
  never offers a tool that could answer a should_not_call case or fill a must_ask case), and
  never from the case's `no_pad` list;
- the extras are the first N of the case's pool in an order drawn once per (seed, case), so a
  higher level offers a superset of a lower one and the curve is not re-drawn at every level;
- the whole list (own tools included) is then shuffled per (seed, case, level): at every level,
  level 0 too, so levels differ only in how many tools are offered;
- a level needing more tools than some case's pool holds is refused before the run;
- a case of a category that is not padded (`crowded`: it offers the whole catalogue and its
  servers already) is offered its own tools, shuffled the same way, at every level.
Randomness comes only from stats.SeededDraws: the same seed gives the same requests in the
terminal and in the page.

Pure: no I/O, no clock, no `random`. Must not decide anything about grading.
"""
from __future__ import annotations

from toolproof.plurals import counted
from toolproof.errors import ToolProofError, clip
from toolproof.scoring.stats import keyed_draws, shuffled
from toolproof.scoring.sweep import MAX_LEVELS
from toolproof.suite.categories import CATEGORY
from toolproof.suite.model import Case, Tool
from toolproof.suite.toolnames import wire_name

MAX_PAD = 500          # the seed's bound is running.settings.BOUNDS["pad_seed"]


def parse_levels(text: str, *, flag: str = "--pad") -> tuple[int, ...]:
    """"0,8,16" -> (0, 8, 16): distinct whole numbers, 0..MAX_PAD, at most MAX_LEVELS, ascending."""
    parts = [p.strip() for p in str(text).split(",")]
    if len(parts) > MAX_LEVELS:
        raise ToolProofError(f"{flag} takes at most {MAX_LEVELS} levels, got {len(parts)}")
    levels = []
    for part in parts:
        if not (part.isascii() and part.isdigit() and len(part) <= 4 and int(part) <= MAX_PAD):
            shown = clip(part, 20)
            raise ToolProofError(f"{flag} wants comma-separated whole numbers from 0 to {MAX_PAD} "
                                 f"(e.g. 0,8,16); got {shown!r}")
        if int(part) in levels:
            raise ToolProofError(f"{flag} lists level {int(part)} twice")
        levels.append(int(part))
    return tuple(sorted(levels))


def pad_pool(case: Case, tools: dict[str, Tool]) -> list[str]:
    """The catalogue tools that may pad this case, in catalogue order."""
    own = {tools[name].domain for name in case.tools if name in tools}
    barred = set(case.tools) | set(case.no_pad)
    # A padded offer must stay readable: no two offered entries whose names reach providers alike.
    wires = {wire_name(tools[name].name) for name in case.tools if name in tools}
    pool = []
    for name, tool in tools.items():
        if tool.domain not in own and name not in barred and wire_name(tool.name) not in wires:
            wires.add(wire_name(tool.name))
            pool.append(name)
    return pool


def padded(case: Case) -> bool:
    """Does a sweep pad this case? Not one whose category says its offer is full already."""
    record = CATEGORY.get(case.category)
    return record is None or record.padded


def offered_tools(case: Case, tools: dict[str, Tool], pad: int, seed: int) -> list[str]:
    """The tool names a case is offered at level `pad`, in the order they are sent."""
    if not padded(case):
        return shuffled(list(case.tools), keyed_draws(seed, "order", case.id, pad))
    pool = pad_pool(case, tools)
    if pad > len(pool):
        raise ToolProofError(f"case {case.id!r} can be padded with at most {counted(len(pool), 'tool')} from "
                             f"other domains, not {pad}; use a lower --pad level")
    extras = shuffled(pool, keyed_draws(seed, "pool", case.id))[:pad]
    return shuffled(list(case.tools) + extras, keyed_draws(seed, "order", case.id, pad))


def check_levels(cases: list[Case], tools: dict[str, Tool], levels: tuple[int, ...], *,
                 flag: str = "--pad") -> None:
    """Refuse, before any request, a level some case's pool cannot fill (naming the case)."""
    if not levels:
        return
    top = max(levels)
    for case in filter(padded, cases):
        room = len(pad_pool(case, tools))
        if top > room:
            raise ToolProofError(f"{flag} {top} is more than case {case.id!r} can take: it has "
                                 f"{counted(room, 'tool')} from other domains to pad with; use at most {room}")


def sweep_need(per_level: int, levels: tuple[int, ...], repeats: int = 1) -> int:
    """Requests a sweep needs at most: one level's need x levels x repeats."""
    return per_level * max(len(levels), 1) * max(repeats, 1)
