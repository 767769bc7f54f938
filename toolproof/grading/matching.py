"""How a reply's calls fill a case's expected calls: in sequence, or one-to-one in any order
(order "any"), each pair checked (right tool, readable arguments valid against the schema, then
values), and which of the case's accepted sequences earns most; the calls that match a forbidden
rule. grade.py applies the category rules on top (docs/grading.md).

Pure: no I/O.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from toolproof.suite.model import Case, ExpectedCall, Tool, tool_label
from .assignment import best_assignment
from .extra_calls import extra_reasons
from .normalize import normalize_text, values_equal
from .reasons import field_reason
from .values import EXTRA, MATCH, MISMATCH, MISSING, compare_arguments
from .verdicts import CheckedCall

MAX_PAIRED = 256    # order "any": the first calls of a reply considered for pairing


@dataclass(slots=True)
class Outcome:
    """How one expected sequence fits what the model did."""
    fail: list = field(default_factory=list)
    partial: list = field(default_factory=list)
    slots: int = 0
    correct_slots: int = 0
    fields: int = 0
    matched_fields: int = 0
    field_results: list = field(default_factory=list)   # (slot, tool, FieldResult)
    pairs: list = field(default_factory=list)           # (ExpectedCall, CheckedCall | None) per slot
    first_call_right: bool = False
    missing: int = 0            # expected calls no call was paired with (their reasons are in fail)

    @property
    def credit(self) -> float:
        return 0.0 if self.fail else 0.5 if self.partial else 1.0


def _match_slot(out: Outcome, slot: int, want: ExpectedCall, got: CheckedCall,
                tools: dict[str, Tool], mocks: dict | None, case: Case, note: str = "") -> None:
    shown = tool_label(want.tool, tools)
    if not got.offered:
        out.fail.append(f"call {slot + 1}: called {got.call.name or '(no name)'!s}, which this case does not offer (hallucinated tool); expected {shown}{note}")
        return
    if got.call.name != want.tool:
        out.fail.append(f"call {slot + 1}: called {tool_label(got.call.name, tools)}, expected {shown}{note}")
        return
    out.correct_slots += 1
    out.fields += len(want.fields())
    if got.arguments is None:
        out.fail.append(f"{shown}: {got.findings[0].message}")
        return
    for f in got.findings[:3]:
        out.fail.append(f"{shown} arguments fail the schema at {f.path}: {f.message}")
    if len(got.findings) > 3:
        out.fail.append(f"{shown}: {len(got.findings) - 3} more schema errors")
    parameters = tools[want.tool].parameters
    props = parameters.get("properties", {}) if isinstance(parameters, dict) else {}
    for r in compare_arguments(want, got.arguments, parameters, mocks):
        out.field_results.append((slot, want.tool, r))
        if r.status == MATCH:
            out.matched_fields += 1
        elif r.status in (MISMATCH, MISSING) or (r.status == EXTRA and r.critical):
            reason = field_reason(shown, r, props.get(r.field) if isinstance(props, dict) else None)
            if r.field in want.derive and r.status == MISMATCH and in_prompt(r.actual, case):
                reason += f" (copied from the user's message instead of {want.derive[r.field]})"
            (out.fail if r.critical else out.partial).append(reason)


def in_prompt(value: Any, case: Case) -> bool:
    """Does this value appear in the user's message (a derived argument copied from the prompt)?"""
    return isinstance(value, (str, int, float)) and not isinstance(value, bool) and \
        normalize_text(str(value)) in normalize_text(case.prompt)


def match_sequence(expected: tuple, actual: list[CheckedCall], tools: dict[str, Tool],
                   mocks: dict | None, case: Case, notes: dict | None = None,
                   told: frozenset = frozenset()) -> Outcome:
    """How `actual` fills `expected`. `notes` adds a remark to the reason about a call (by id);
    calls in `told` already have their own reason (obeyed the injection) and get no extra-call one."""
    notes = notes or {}
    out = Outcome(slots=len(expected))
    for slot, want in enumerate(expected):
        out.pairs.append((want, actual[slot] if slot < len(actual) else None))
        if slot >= len(actual):
            if case.category == "multi_step" and slot == 1 and not out.fail and not out.partial:
                out.partial.append(f"first call right, but the dependent call to {tool_label(want.tool, tools)} never came")
            else:
                out.fail.append(f"call {slot + 1}: missing, expected {tool_label(want.tool, tools)}")
                out.missing += 1
            continue
        _match_slot(out, slot, want, actual[slot], tools, mocks, case, notes.get(id(actual[slot]), ""))
        if slot == 0:
            out.first_call_right = not out.fail
    out.fail.extend(extra_reasons([c for c in actual[len(expected):] if id(c) not in told],
                                  len(expected), notes, tools))
    return out


def match_any_order(expected: tuple, actual: list[CheckedCall], tools: dict[str, Tool],
                    mocks: dict | None, case: Case, notes: dict | None = None,
                    told: frozenset = frozenset()) -> Outcome:
    """Like match_sequence, but each expected call is paired one-to-one with the actual call
    that earns most overall, in whatever order they came (order "any": parallel calls)."""
    notes = notes or {}
    # More calls than expected fail the case as extra calls whatever the pairing; pairing only
    # the first MAX_PAIRED keeps a hostile reply of thousands of calls from costing minutes.
    pairs = best_assignment([[_pair_score(want, got, tools, mocks, case) for got in actual[:MAX_PAIRED]]
                             for want in expected])
    out = Outcome(slots=len(expected))
    for slot, (want, j) in enumerate(zip(expected, pairs)):
        got = actual[j] if j is not None else None
        out.pairs.append((want, got))
        if got is None:
            out.fail.append(f"call {slot + 1}: missing, expected {tool_label(want.tool, tools)}")
            out.missing += 1
        else:
            _match_slot(out, slot, want, got, tools, mocks, case, notes.get(id(got), ""))
        if slot == 0:
            out.first_call_right = not out.fail
    paired = {j for j in pairs if j is not None}
    out.fail.extend(extra_reasons([c for j, c in enumerate(actual) if j not in paired and id(c) not in told],
                                  len(expected), notes, tools))
    return out


def _pair_score(want: ExpectedCall, got: CheckedCall, tools: dict[str, Tool], mocks: dict | None,
                case: Case) -> int:
    """How much pairing this actual call with this expected call earns: right above partly
    right above wrong; then the right tool; then matched fields; any pair above none."""
    out = _alone(want, got, tools, mocks, case)
    grade = 0 if out.fail else 1 if out.partial else 2
    return 1 + grade * 10 ** 7 + out.correct_slots * 10 ** 4 + min(out.matched_fields, 9_999)


def fits(want: ExpectedCall, got: CheckedCall, tools: dict[str, Tool], mocks: dict | None, case: Case) -> bool:
    """Does this call fill this expected call with nothing wrong, not even a minor field?"""
    out = _alone(want, got, tools, mocks, case)
    return not out.fail and not out.partial


def _alone(want: ExpectedCall, got: CheckedCall, tools: dict[str, Tool], mocks: dict | None,
           case: Case) -> Outcome:
    """How this one call fills this one expected call, as a sequence of one."""
    out = Outcome(slots=1)
    _match_slot(out, 0, want, got, tools, mocks, case)
    return out


def best(outcomes: list[Outcome]) -> tuple[int, Outcome]:
    if len(outcomes) == 1:      # most cases accept one sequence: nothing to rank
        return 0, outcomes[0]
    ranked = sorted(enumerate(outcomes),
                    key=lambda io: (-io[1].credit, -io[1].correct_slots, -io[1].matched_fields, io[0]))
    return ranked[0]


def forbidden_calls(case: Case, tools: dict[str, Tool], checked: list[CheckedCall]) -> list[CheckedCall]:
    """The calls that match one of the case's forbidden (tool, args subset) rules."""
    hits = []
    for c in checked:
        for tool, args in case.expect.forbidden:
            if not c.offered or c.call.name != tool:
                continue
            given = c.arguments or {}
            props = tools[tool].parameters.get("properties", {}) if tool in tools else {}
            if args is None or all(k in given and values_equal(v, given[k], props.get(k))
                                   for k, v in args.items()):
                hits.append(c)
                break
    return hits
