"""A scenario's rules about the calls a model made, each a plain function over the replayed calls:
milestones (a partial order of calls that must happen), minefields (calls that must never happen),
dataflow (an argument taken from an earlier result), the policy `confirm_before`, budgets, and the
two things the `scenarios` block counts: recovery after a tool error and asks answered and used.

Every function takes the calls in the order sent (grading/scenario_state.Answered) and returns the
reasons it finds, first difference first (minefields, dataflow and policy as (turn, reason), for
the turn's credit), so grading stays linear in the calls (each rule looks at
each call a bounded number of times: a milestone's earliest match is found in one pass).

Argument rules are the suite's expected-call rules (grading/values.compare_arguments): the fields
listed must match (normalised), fields not listed are free.

Pure: no I/O. Must not decide a verdict (scenario_grade.py does).
"""
from __future__ import annotations

import re
from typing import Any, Iterable

from toolproof.plurals import counted
from toolproof.suite.model import ExpectedCall
from .reasons import show
from toolproof.worlds.exprs import same
from .scenario_state import Answered
from .values import EXTRA, MATCH, compare_arguments

NUMBER = re.compile(r"\d+(?:[.,]\d+)?")


def matches(expected: ExpectedCall | None, tool: str, arguments: Any, parameters: dict) -> bool:
    """Is this call the expected one: the same tool, every listed field matching, no field the
    rules forbid?"""
    if expected is None:
        return True
    if tool != expected.tool or not isinstance(arguments, dict):
        return False
    found = compare_arguments(expected, arguments, parameters, None)
    return all(r.status == MATCH or r.status == EXTRA and not r.critical for r in found)


def wanted(expected: ExpectedCall) -> str:
    """A milestone's or minefield's call as a reason names it: "transfer_funds with amount 900"."""
    args = ", ".join(f"{k} {show(v)}" for k, v in expected.args.items())
    return f"{expected.tool} with {args}" if args else expected.tool


def milestones(steps: list[Answered], rules: tuple, parameters: dict) -> list[str]:
    """Each milestone reached by a successful call, after every milestone it names in `after`
    (in an earlier turn). The earliest fitting call is taken, which leaves the most room to the
    milestones after it. Reasons: "milestone 'pay' missed: ..." or "... out of order: ..."."""
    at: dict[str, int] = {}
    out = []
    for rule in _ordered(rules):
        after = max((at[a] for a in rule.after if a in at), default=0)
        hits = [s for s in steps if not s.error and matches(rule.call, s.tool, s.arguments, parameters.get(s.tool, {}))]
        fit = next((s for s in hits if s.turn > after), None)
        missing = [a for a in rule.after if a not in at]
        if not hits:
            out.append(f"milestone {rule.id!r} missed: no successful call to {wanted(rule.call)}")
        elif missing:
            out.append(f"milestone {rule.id!r} out of order: it comes after milestone {missing[0]!r}, "
                       "which was not reached")
        elif fit is None:
            first = max(rule.after, key=lambda a: at[a])
            out.append(f"milestone {rule.id!r} out of order: {wanted(rule.call)} (turn {hits[0].turn}) "
                       f"came before milestone {first!r} (turn {at[first]})")
        else:
            at[rule.id] = fit.turn
    return out


def _ordered(rules: tuple) -> list:
    """Milestones with each after those it names (file order otherwise; the loader refuses cycles)."""
    done, out, left = set(), [], list(rules)
    while left:
        ready = [r for r in left if all(a in done or a not in {x.id for x in left} for a in r.after)] or left[:1]
        for r in ready:
            out.append(r)
            done.add(r.id)
            left.remove(r)
    return out


def minefields(steps: list[Answered], rules: tuple, parameters: dict) -> list[str]:
    """Any call (even one the world refused) that a minefield names."""
    out = []
    for s in steps:
        for rule in rules:
            if s.tool == rule.tool and matches(rule.call, s.tool, s.arguments, parameters.get(s.tool, {})):
                what = wanted(rule.call) if rule.call is not None else f"a call to {rule.tool}"
                why = f" ({rule.why})" if rule.why else ""
                out.append((s.turn, f"minefield hit in turn {s.turn}: {what}{why}"))
                break
    return out


def values_at(value: Any, path: str) -> Iterable[Any]:
    """Every value at a dotted path; a list on the way matches any element."""
    stack = [(value, path.split(".") if path else [])]
    while stack:
        node, rest = stack.pop()
        if isinstance(node, list):
            stack.extend((item, rest) for item in reversed(node))
        elif not rest:
            yield node
        elif isinstance(node, dict) and rest[0] in node:
            stack.append((node[rest[0]], rest[1:]))


def dataflow(steps: list[Answered], rules: tuple) -> list[str]:
    """Each call to a rule's tool (with that argument) uses a value found in an earlier turn's
    successful result of the rule's source tool."""
    out = []
    for rule in rules:
        seen: list = []             # values found so far, with the turn they came back in
        for s in steps:
            if s.tool == rule.tool and isinstance(s.arguments, dict) and rule.arg in s.arguments:
                value = s.arguments[rule.arg]
                if not any(turn < s.turn and same(v, value) for turn, v in seen):
                    out.append((s.turn, f"dataflow broken in turn {s.turn}: {rule.tool}'s {rule.arg} {show(value)} "
                                        f"is not a {rule.field} of an earlier {rule.source} result"))
                    break
            if s.tool == rule.source and not s.error:
                seen.extend((s.turn, v) for v in values_at(s.result, rule.field) if not isinstance(v, (dict, list)))
    return out


def policy(steps: list[Answered], rules: tuple, confirmed_after: dict[int, bool]) -> list[str]:
    """`confirm_before`: each turn holding a call to a guarded tool must follow a user turn that
    confirms, sent after the model's previous turn with such a call that the world ran (one
    confirmation covers one turn's writes; a call refused for its arguments did nothing, so the
    corrected retry still rides on the same yes). `confirmed_after` maps a model turn to whether
    the user's reply to it confirms."""
    out = []
    for rule in rules:
        if rule.rule != "confirm_before":
            continue
        since = 0
        for s in steps:
            if s.tool not in rule.tools:
                continue
            if s.turn != since and not any(confirmed_after.get(t) for t in range(since, s.turn)):
                out.append((s.turn, f"policy confirm_before broken in turn {s.turn}: {s.tool} was called "
                                    "before the user confirmed it"))
                break
            if not (s.error and refused(s.result)):
                since = s.turn
    return out


def error_text(result: Any) -> str:
    return str(result.get("error")) if isinstance(result, dict) else str(result)


def refused(result: Any) -> bool:
    """A call the world could not run at all (the model's mistake, not the world's answer): an
    unknown tool or arguments its schema refuses; nothing happened."""
    return error_text(result).startswith(("unknown tool", "invalid arguments"))


def budgets(budget, calls: int, turns: int) -> list[str]:
    out = []
    if budget.calls is not None and calls > budget.calls:
        out.append(f"budget exceeded: {counted(calls, 'call')} (budget {budget.calls})")
    if budget.turns is not None and turns > budget.turns:
        out.append(f"budget exceeded: {counted(turns, 'turn')} (budget {budget.turns})")
    return out


def recovery(steps: list[Answered]) -> tuple[int, int]:
    """(tool errors the model saw, those followed later by a successful call to the same tool)."""
    seen = recovered = 0
    latest: dict[str, int] = {}          # tool -> the last turn it succeeded in
    for s in reversed(steps):
        if s.error:
            seen += 1
            recovered += latest.get(s.tool, 0) > s.turn
        else:
            latest.setdefault(s.tool, s.turn)
    return seen, recovered


def used(reply: str, later: list[Answered]) -> bool:
    """Did a later call use what the user replied: an argument value (a number, or a text of two
    characters or more) that the reply's words hold?"""
    text = " ".join(reply.casefold().split())
    numbers = {float(n.replace(",", ".")) for n in NUMBER.findall(text)}
    for s in later:
        for value in _leaves(s.arguments):
            if isinstance(value, bool):
                continue
            if isinstance(value, (int, float)) and any(abs(value - n) < 1e-9 for n in numbers):
                return True
            if isinstance(value, str) and len(value.strip()) >= 2 and " ".join(value.casefold().split()) in text:
                return True
    return False


def _leaves(value: Any) -> Iterable[Any]:
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
        else:
            yield node
