"""A scenario transcript to a verdict: PASS / PARTIAL / FAIL / ERROR with reasons, a credit per turn
and the end state's difference.

The conversation is read again from the transcript's model turns alone: the calls replay through the
world's engine from its initial state (scenario_state.py; recorded results are compared, never
trusted) and the scripted user's replies are chosen again (scripted_user.py). Then:
- ERROR: a request failed (or the conversation stopped) before it ended: not the model's fault;
- FAIL: the turn limit cut the task; a minefield hit; a policy rule broken; the end state differs
  (table, row and field named); a milestone missed or out of order; a dataflow broken; the final
  answer states something false (must_not_include, grounded) or claims an action never taken;
- PARTIAL: none of those, but the final answer misses a required fact (must_include, asks_for,
  declines, warns_if_mentions) or a budget is exceeded;
- PASS: everything holds.
The first reason names the first difference. The final answer goes through the answer rules
(answer_rules.judge) with the scenario's `final_answer` rules; `mocks` are the results the model saw
(the last one per tool), `given` the user's messages and the system prompt, as for cases.

Per-turn credit: a turn with calls earns the share of its calls the world could run (an unknown
tool or unreadable arguments earn nothing), and nothing when a minefield, policy or dataflow rule
fails in it; the final answer earns 1, 0.5 when it misses a fact, 0 when it states something false;
any other text turn 1. `turn_credit` is their mean.

Pure: no I/O. Cost: linear in the turns and calls (each rule passes over the calls once).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from toolproof.errors import clip
from toolproof.plurals import counted
from toolproof.safe_text import printable
from toolproof.providers.conversation import read_arguments
from toolproof.suite.model import PhraseRules
from toolproof.worlds.engine import initial_state
from toolproof.worlds.model import Scenario, State, World

from . import scenario_checks as checks
from .answer_rules import CLAIM_REASON, further_claims, judge
from .answer_text import Reading
from .scenario_state import canonical, diff_reason, end_state_diff, recorded_differs, replay
from .scripted_user import first_message, next_user_message
from .transcripts import ScenarioTranscript, failed_request
from .verdicts import CREDIT, ERROR, FAIL, PARTIAL, PASS, CaseResult, blank_facts

CATEGORY = "scenario"
NO_RULES = PhraseRules()
# answer-rule problems that say a fact is missing (PARTIAL); every other problem states something
# false or claims what was never done (FAIL). A problem starts "final answer: <rule>".
MISSING = ("must_include", "asks_for", "asks nothing", "declines", "warns_if_mentions")
WHERE = "final answer"


@dataclass(slots=True)
class ScenarioResult(CaseResult):
    """A graded scenario: a CaseResult (category "scenario") with its conversation, turn by turn."""
    world: str = ""
    turns: list = field(default_factory=list)
    turn_credit: float | None = None
    end_state_diff: list = field(default_factory=list)
    ended: str = ""

    def to_json(self) -> dict:
        out = CaseResult.to_json(self)
        return {**out, "world": self.world, "ended": self.ended, "turn_credit": self.turn_credit,
                "end_state_diff": list(self.end_state_diff), "turns": list(self.turns)}


def scenario_index(worlds: dict) -> dict[str, tuple[World, Scenario]]:
    """{scenario id: (its world, the scenario)} over every world, in world then scenario order."""
    return {s.id: (w, s) for w in worlds.values() for s in w.scenarios}


@dataclass
class _Conversation:
    considered: list = field(default_factory=list)    # (n, reply) of each model turn read
    calls: list = field(default_factory=list)         # (n, [(tool, arguments)]) of each turn with calls
    recorded: dict = field(default_factory=dict)      # n -> the turn's recorded tool_results
    users: list = field(default_factory=list)         # UserTurn | None after each turn
    error: tuple | None = None                        # (n, error) of a failed request
    unreadable: tuple | None = None                   # (n, reason) of a reply that could not be read or was blocked
    final: tuple | None = None                        # (n, text) of the answer that ended it
    ignored: int = 0                                  # turns after the end or past the limit


def read_conversation(scenario: Scenario, transcript: ScenarioTranscript) -> _Conversation:
    conv = _Conversation()
    for n, turn in enumerate(transcript.turns, 1):
        if conv.final is not None or n > scenario.turn_limit:
            conv.ignored += 1
            continue
        if turn.reply is None:
            conv.error = (n, turn.error or {})
            break
        if turn.reply.unfinished:       # no answer yet, and none came: the provider's state (the loop stopped)
            conv.error = (n, {"status": None, "message": f"reply not finished ({printable(turn.reply.unfinished[:200])})"})
            break
        if turn.reply.malformed or turn.reply.blocked:      # the loop stopped: no answer to read
            conv.considered.append((n, turn.reply))
            conv.users.append(None)
            conv.unreadable = (n, unreadable_reason(turn.reply))
            break
        conv.considered.append((n, turn.reply))
        if turn.reply.calls:
            conv.calls.append((n, [(c.name, read_arguments(c).arguments) for c in turn.reply.calls]))
            conv.recorded[n] = turn.tool_results
            conv.users.append(None)
            continue
        user = next_user_message(scenario, turn.reply.text, conv.users)
        conv.users.append(user)
        if user is None:
            conv.final = (n, turn.reply.text)
    return conv


def grade_scenario(world: World, scenario: Scenario, transcript: ScenarioTranscript,
                   start: State | None = None, memo: dict | None = None) -> ScenarioResult:
    """The verdict of one try. `start`: the world's initial state, when the caller made it once for
    many transcripts (worlds/engine.initial_state); `memo`: a dict the caller keeps across the
    transcripts of one grading, where a replay and a final answer's judgement are kept by what
    decides them (the scenario, the calls in their turns; the answer and the user's words), so a
    conversation met again (repeats, the same path on another wire) is not replayed again. Both
    are exact: the engine and the answer rules are deterministic."""
    start = start if start is not None else initial_state(world)
    memo = {} if memo is None else memo
    conv = read_conversation(scenario, transcript)
    key = (world.id, scenario.id, canonical(conv.calls))
    if key not in memo:
        memo[key] = replay(world, scenario, conv.calls, start)
    steps, final_state = memo[key]
    note = recorded_differs(steps, conv.recorded)
    params = {name: world.tools[name].parameters for name in scenario.tools if name in world.tools}
    expect = scenario.expect
    by_turn: dict[int, list] = {}
    fails: list[str] = []
    if conv.unreadable is not None:
        fails.append(f"turn {conv.unreadable[0]}: {conv.unreadable[1]}")
    elif conv.final is None and conv.error is None and len(conv.considered) >= scenario.turn_limit:
        fails.append(f"turn limit reached ({counted(scenario.turn_limit, 'request')}) before the task ended")
    confirmed = {n: bool(u and u.confirms) for (n, _), u in zip(conv.considered, conv.users)}
    for found in (checks.minefields(steps, expect.minefields, params), checks.policy(steps, expect.policy, confirmed)):
        fails += [reason for _, reason in found]
        for turn, reason in found:
            by_turn.setdefault(turn, []).append(reason)
    diffs = end_state_diff(world, scenario, final_state, start)
    fails += [diff_reason(diffs[0])] if diffs else []
    fails += checks.milestones(steps, expect.milestones, params)
    flow = checks.dataflow(steps, expect.dataflow)
    fails += [reason for _, reason in flow]
    for turn, reason in flow:
        by_turn.setdefault(turn, []).append(reason)
    definitive = [r for r in fails if r.startswith(("minefield", "policy"))] + [r for _, r in flow]
    said = (key, conv.final and conv.final[1], tuple(u.text for u in conv.users if u is not None))
    if said not in memo:
        memo[said] = _answer(scenario, conv, steps)
    answer_false, answer_missing = memo[said]
    fails += answer_false
    partial = answer_missing + checks.budgets(expect.budgets, len(steps), len(conv.considered))
    if conv.error is not None:
        n, error = conv.error
        verdict, reasons = ERROR, [f"turn {n}: request failed: {failed_request(error)}"]
    elif conv.unreadable is not None:
        verdict, reasons = FAIL, fails + partial
    elif conv.final is None and len(conv.considered) < scenario.turn_limit and not definitive:
        # stopped from outside (an abort, a file cut short): only a rule already broken is a verdict
        verdict, reasons = ERROR, [f"the conversation stopped after {len(conv.considered)} of at most "
                                   f"{counted(scenario.turn_limit, 'request')}, before it ended ({transcript.ended or 'cut short'})"]
    elif conv.final is None and len(conv.considered) < scenario.turn_limit:
        verdict, reasons = FAIL, definitive
    else:
        verdict = FAIL if fails else PARTIAL if partial else PASS
        reasons = fails + partial
    reasons += [n for n in (note, _ignored(conv.ignored)) if n]
    turns = _turns(conv, steps, by_turn, answer_false, answer_missing)
    graded = [t["credit"] for t in turns if t["credit"] is not None]
    credit = CREDIT[verdict]
    return ScenarioResult(scenario.id, CATEGORY, verdict, credit, reasons, verdict, credit, [],
                          _facts(conv, steps, verdict), final_text=conv.final[1] if conv.final else "",
                          repeat=transcript.repeat, world=world.id, turns=turns,
                          turn_credit=round(sum(graded) / len(graded), 4) if graded else None,
                          end_state_diff=diffs, ended=_ended(conv, scenario))


def _ignored(count: int) -> str | None:
    return f"{counted(count, 'turn')} after the conversation ended not graded" if count else None


def _ended(conv: _Conversation, scenario: Scenario) -> str:
    if conv.error is not None:
        return "error"
    if conv.unreadable is not None:
        return "unreadable"
    if conv.final is not None:
        return "answer"
    return "turn_limit" if len(conv.considered) >= scenario.turn_limit else "aborted"


def _answer(scenario: Scenario, conv: _Conversation, steps: list) -> tuple[list, list]:
    """(problems stating something false, problems missing a fact) of the final answer."""
    if conv.final is None:
        return [], []
    mocks = results_seen(steps)
    # No call changed the world: a claim of an action ("I've sent the money") is one never taken.
    wrote = any(s.changes for s in steps)
    given = (first_message(scenario), *(u.text for u in conv.users if u is not None), scenario.system or "")
    called = tuple(s.arguments for s in steps if isinstance(s.arguments, dict))
    judged = judge(scenario.expect.final_answer or NO_RULES, conv.final[1], mocks, where=WHERE,
                   after_result=bool(steps), given=given, called=called,
                   claims_default=None if wrote else False)
    problems = list(judged.problems)
    writes = sum(bool(s.changes) for s in steps)
    if writes == 1 and not any(CLAIM_REASON in p for p in problems):
        # one change made: "I have also set up a standing order" claims a second one never made
        problems += further_claims(Reading(conv.final[1]), WHERE, "the one change made").problems
    false, missing = [], []
    for problem in problems:
        rule = problem.removeprefix(f"{WHERE}: ")
        (missing if rule.startswith(MISSING) else false).append(problem)
    return false, missing


def results_seen(steps: list) -> dict:
    """Every result the model saw, as the answer rules read mocks: each tool's last result under
    its name (what `{"result": "tool.path"}` reads), an earlier one under `tool#k` (k from 1), so
    the grounded rule finds a value from any of them (three hotels checked in one turn)."""
    out: dict = {}
    seen: dict[str, int] = {}
    for s in steps:
        if s.tool in out:
            seen[s.tool] = seen.get(s.tool, 0) + 1
            out[f"{s.tool}#{seen[s.tool]}"] = out[s.tool]
        out[s.tool] = s.result
    return out


def unreadable_reason(reply) -> str:
    """Why a reply gives nothing to read, worded as the cases' grader words it (grading/grade.py)."""
    if reply.malformed:
        return f"unreadable response ({printable(clip(reply.malformed, 200))})"
    return (f"blocked ({printable(clip(reply.blocked, 80))}): no content, and the provider's finish reason "
            "is not a normal stop")


def _turns(conv: _Conversation, steps: list, by_turn: dict, false: list, missing: list) -> list[dict]:
    """The conversation as the scorecard shows it: each model turn's calls (with what they returned
    and changed), text, the user's reply, credit and notes."""
    calls_of: dict[int, list] = {}
    for s in steps:
        calls_of.setdefault(s.turn, []).append(s)
    out = []
    for (n, reply), user in zip(conv.considered, conv.users):
        mine = calls_of.get(n, [])
        notes = list(by_turn.get(n, []))
        notes += [f"{s.tool}: tool error: {checks.error_text(s.result)}" for s in mine if s.error]
        if mine:
            ran = sum(not (s.error and checks.refused(s.result)) for s in mine)
            credit = 0.0 if n in by_turn else round(ran / len(mine), 4)
        elif conv.final is not None and n == conv.final[0]:
            credit, notes = (0.0 if false else 0.5 if missing else 1.0), notes + false + missing
        else:
            credit = 1.0
        entry = {"n": n, "calls": [{"tool": s.tool, "arguments": s.arguments, "result": s.result, "error": s.error,
                                    "changes": list(s.changes)} for s in mine],
                 "text": reply.text, "credit": credit, "notes": notes}
        if user is not None:
            entry["user"] = user.to_json()
        out.append(entry)
    if conv.error is not None:
        out.append({"n": conv.error[0], "calls": [], "text": "", "credit": None,
                    "notes": [f"request failed: {failed_request(conv.error[1])}"]})
    return out


def _facts(conv: _Conversation, steps: list, verdict: str) -> dict:
    """The facts the `scenarios` block counts (scoring/scenarios.py), beside the blank case facts
    (a scenario adds nothing to the case rates)."""
    seen, recovered = checks.recovery(steps)
    asked = answered = used = 0
    for i, ((n, _), user) in enumerate(zip(conv.considered, conv.users)):
        if user is None or user.then_index is not None:
            continue
        asked += 1
        if user.reply_index is not None:
            answered += 1
            used += checks.used(user.text, [s for s in steps if s.turn > n])
    return {**blank_facts(), "request_error": verdict == ERROR, "scenario": {
        "turns_used": len(conv.considered), "calls_used": len(steps), "errors_seen": seen, "recovered": recovered,
        "asked": asked, "answered": answered, "used": used}}


def failed_scenario(world_id: str, scenario_id: str, reason: str, repeat: int = 0) -> ScenarioResult:
    """A FAIL for a scenario that could not be graded (an internal error), counting nothing."""
    return ScenarioResult(scenario_id, CATEGORY, FAIL, 0.0, [reason], FAIL, 0.0, [], {**blank_facts(), "scenario": {
        "turns_used": 0, "calls_used": 0, "errors_seen": 0, "recovered": 0, "asked": 0, "answered": 0, "used": 0}},
        repeat=repeat, world=world_id, ended="")


def grade_scenario_safely(world: World, scenario: Scenario, transcript: ScenarioTranscript,
                          start: State | None = None, memo: dict | None = None) -> ScenarioResult:
    """grade_scenario, except that an unexpected error fails this scenario instead of the run."""
    try:
        return grade_scenario(world, scenario, transcript, start, memo)
    except Exception as exc:                      # noqa: BLE001 - a bug must not lose the run
        return failed_scenario(world.id, scenario.id, f"internal error while grading ({exc.__class__.__name__})",
                               transcript.repeat)
