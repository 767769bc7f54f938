"""The parallel category's own rules (docs/grading.md "Parallel calls").

A parallel case expects two or more independent calls in one request, matched one-to-one in any
order. Two rules differ from every other case:
- a duplicated call (the same tool with the same arguments as an earlier call of the reply)
  fails as `duplicated call ...`; it is kept out of the pairing, so a second copy can never pass
  for another expected call that differs from it in one argument;
- a sequential reply, one that makes only SOME of the expected calls, each of them right, and
  nothing wrong, extra or duplicated, is PARTIAL (0.5): the model meant to make the rest one per
  turn, which works but costs a round trip per call.

Pure: no I/O.
"""
from __future__ import annotations

import json
from typing import Callable

from toolproof.plurals import counted
from toolproof.suite.model import Tool
from .extra_calls import MAX_EXTRA_REASONS, shown_name
from .reasons import show
from .verdicts import CheckedCall


def _key(c: CheckedCall) -> str | None:
    """What makes two calls the same: the tool and the arguments, keys in any order (None for a
    call whose arguments could not be read or whose tool is not offered: never a duplicate)."""
    if not c.offered or c.arguments is None:
        return None
    return c.call.name + "\0" + json.dumps(c.arguments, sort_keys=True, ensure_ascii=False, default=str)


def duplicated(calls: list[CheckedCall], tools: dict[str, Tool],
               copies: Callable[[CheckedCall], int] = lambda c: 1) -> tuple[list[CheckedCall], list[str]]:
    """(the calls without repeats, one reason per repeat): a call equal to an earlier call of the
    reply beyond the `copies` the case expects of it (a case may expect the same call twice: two
    draws from one distribution, BFCL's parallel_158; `copies` is asked once per distinct call),
    up to MAX_EXTRA_REASONS reasons and one line counting the rest."""
    first: dict[str, int] = {}
    seen: dict[str, int] = {}
    allowed: dict[str, int] = {}
    kept, repeats = [], []
    for n, c in enumerate(calls):
        key = _key(c)
        if key is not None and key in first:
            seen[key] += 1
            if key not in allowed:
                allowed[key] = max(1, copies(c))
            if seen[key] > allowed[key]:
                repeats.append((c, first[key]))
                continue
            kept.append(c)
        else:
            kept.append(c)
            if key is not None:
                first[key], seen[key] = n, 1
    reasons = [f"duplicated call {shown_name(c, tools)}("
               + ", ".join(f"{k}={show(v)}" for k, v in (c.arguments or {}).items())
               + f") in turn {c.turn}: the same tool with the same arguments as call {n + 1}"
               for c, n in repeats[:MAX_EXTRA_REASONS]]
    if len(repeats) > MAX_EXTRA_REASONS:
        reasons.append(f"… and {counted(len(repeats) - MAX_EXTRA_REASONS, 'more duplicated call')}")
    return kept, reasons


def sequential(fail: list[str], partial: list[str], missing: int, slots: int) -> tuple[list, list]:
    """(fail, partial) once the sequential rule is applied: when the only failures are expected
    calls never made and at least one was made (all of them right), the reply is PARTIAL."""
    if not missing or missing >= slots or len(fail) != missing or partial:
        return fail, partial
    made = slots - missing
    return [], [f"sequential: made {made} of {counted(slots, 'independent call')} in turn 1 "
                "(they could all go in one turn)"]
