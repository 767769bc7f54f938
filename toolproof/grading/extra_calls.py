"""Reasons about calls beyond what a case expects, bounded in number.

A reply can hold far more calls than any case expects (a 5 MB body, ~50,000): the readers keep
the first `MAX_CALLS` (providers/reply.py) and this module keeps the reasons about the rest to a
few lines, so a hostile reply costs no more than a plausible one to grade and to read.

Pure: no I/O.
"""
from __future__ import annotations

from toolproof.errors import clip_list
from toolproof.providers.reply import MAX_CALLS
from toolproof.plurals import counted
from toolproof.suite.model import Tool, tool_label
from .verdicts import CheckedCall

MAX_EXTRA_REASONS = 10  # "extra call" reasons written out; the rest are counted in one line
MAX_NAMES = 10          # tool names listed in an over-call or premature-call reason


def shown_name(c: CheckedCall, tools: dict[str, Tool]) -> str:
    """A called tool as reasons show it: an offered entry by its name (and its id where another
    entry shares the name), anything else exactly as the model sent it."""
    return (tool_label(c.call.name, tools) if c.offered else c.call.name) or "(no name)"


def extra_reason(extra: CheckedCall, expected: int, tools: dict[str, Tool]) -> str:
    name = shown_name(extra, tools)
    reason = f"extra call {name} in turn {extra.turn}: expected {counted(expected, 'call')}"
    if not extra.offered:
        reason += f"; {name} is not offered by this case (hallucinated tool)"
    return reason


def extra_reasons(extras: list[CheckedCall], expected: int, notes: dict,
                  tools: dict[str, Tool]) -> list[str]:
    """One reason per extra call, up to MAX_EXTRA_REASONS, then one line counting the others."""
    reasons = [extra_reason(c, expected, tools) + notes.get(id(c), "") for c in extras[:MAX_EXTRA_REASONS]]
    if len(extras) > MAX_EXTRA_REASONS:
        reasons.append(f"… and {counted(len(extras) - MAX_EXTRA_REASONS, 'more extra call')}")
    return reasons


def called_names(checked: list[CheckedCall], tools: dict[str, Tool]) -> str:
    """The tools called, comma-separated, the first MAX_NAMES of them."""
    return clip_list([shown_name(c, tools) for c in checked[:MAX_NAMES]], MAX_NAMES, total=len(checked))


def misuse_reasons(checked: list[CheckedCall], tools: dict[str, Tool]) -> list[str]:
    """A cannot_do case's calls: no offered tool can do what was asked, so a call to a near tool
    is misuse (asked to move a meeting, it cancelled it), and one to a tool the case does not
    offer is a hallucinated tool."""
    offered = [c for c in checked if c.offered]
    made_up = [c for c in checked if not c.offered]
    reasons = []
    if offered:
        reasons.append(f"misuse: called {called_names(offered, tools)}, but no offered tool can do what was asked")
    if made_up:
        reasons.append(f"called {called_names(made_up, tools)}, which this case does not offer (hallucinated "
                       "tool); no offered tool can do what was asked")
    return reasons


def not_read_reason(turn: int, count: int) -> str:
    return (f"turn {turn}: {counted(count, 'more call')} not read (a reply's first {MAX_CALLS} calls are "
            f"graded; more than any case expects)")
