"""One scenario's conversation inside the shared Run (runner.py): the agent loop.

A Scenarios scope (`scenarios`, `scenarios:<world>`: worlds/scope.py) makes the run's plan one
`Work` item per (scenario, repeat), whose need is the scenario's turn limit; everything else (the
cap and its reservations, concurrency, repeats, retries, the early stop, abort, coverage and
`not_started`, on_case/on_kept, `document()`) is the Run's, exactly as for cases. Each model turn
is one request (`Run.exchange`, so requests sent == model turns taken):
- the whole conversation so far goes out in the provider's shape (providers/agent.py);
- a reply with calls: every call is answered in the same turn by the world
  (grading/scenario_state.answer_call, the rule the grader replays), in call order, each with
  the state change it made; the next request carries every answer;
- a reply with no calls (a text answer): the scripted user (grading/scripted_user.py) answers, or
  says nothing more and the conversation is over (`ended: "answer"`);
- a reply that cannot be read, or that the provider blocked, ends it (`ended: "unreadable"`: a FAIL,
  as for cases);
- the turn limit cuts the conversation (`ended: "turn_limit"`; graded, not hung); a failed
  request stops it (`ended: "error"`: an ERROR, not the model's fault), and so does a reply the
  provider had not finished; a run that is stopping stops it between turns (`ended: "aborted"`).
No request goes anywhere but the model's endpoint: the user is scripted, the tools are the world's.

Pure apart from awaiting the Run's exchange: no clock, no I/O of its own. Must not grade (the
grader replays the transcript: grading/scenario_grade.py; `grade_work` only hands it over) nor keep
a second copy of any run rule.
"""
from __future__ import annotations

from typing import Any

from toolproof.grading.scenario_grade import grade_scenario_safely
from toolproof.grading.scenario_state import answer_call
from toolproof.grading.transcripts import scenario_transcript
from toolproof.grading.verdicts import CaseResult
from toolproof.grading.scripted_user import first_message, next_user_message
from toolproof.providers.agent import ModelTurn, ToolResult, ToolResults, UserText, agent_request
from toolproof.providers.conversation import call_ids, read_arguments
from toolproof.providers.dispatch import reply_from_body
from toolproof.worlds.engine import initial_state
from toolproof.worlds.scope import is_scenarios, scenarios_in  # noqa: F401 - is_scenarios: the runner's
from .workplan import Work, plan_scenarios


def scenario_plan(worlds: dict, scope: str, repeats: int) -> list[Work]:
    """The run's work items for a Scenarios scope (ToolProofError for a world not in `worlds`)."""
    return plan_scenarios(scenarios_in(worlds, scope), repeats)


def scenario_need(worlds: dict, scope: str, *, repeats: int = 1) -> int:
    """Requests a Scenarios run of `scope` needs at most, no retries: each scenario's turn limit,
    times the repeats. The cap's start for `run` without --cap and the page's #cap alike."""
    return sum(work.requests for work in scenario_plan(worlds, scope, repeats))


def offered(world: Any, scenario: Any) -> list:
    """The world's tools the scenario offers, in its order (records with name, description and
    parameters, sent verbatim)."""
    return [world.tools[name] for name in scenario.tools if name in world.tools]


async def run_scenario(run: Any, work: Work) -> dict:
    """Hold one conversation of `work.scenario` through `run` (a runner.Run); its transcript."""
    s, scenario = run.settings, work.scenario
    world = (run.worlds or {})[scenario.world]
    tools, system = offered(world, scenario), scenario.system or ""
    history: list = [UserText(first_message(scenario))]
    state, said = initial_state(world), []
    raw: dict = {"case_id": scenario.id, "world": world.id, "world_sha256": world.sha256, "repeat": work.repeat,
                 "provider": s.provider, "model": s.model, "turns": [], "ended": "turn_limit"}
    for number in range(1, scenario.turn_limit + 1):
        if run.stopping:
            raw["ended"] = "aborted"
            break
        body = agent_request(s.provider, system=system, history=history, tools=tools, model=s.model,
                             max_tokens=s.max_tokens, temperature=s.temperature, seed=s.seed)
        turn = await run.exchange(work, body)
        raw["turns"].append(turn)
        if "response" not in turn:
            raw["ended"] = "error"
            break
        reply = reply_from_body(s.provider, turn["response"])
        if reply.unfinished:            # no answer yet, and none will come: not the model's doing
            raw["ended"] = "error"
            break
        if reply.malformed or reply.blocked:    # nothing to answer: the grader fails the model here
            raw["ended"] = "unreadable"
            break
        if reply.calls:
            state = _answer_calls(world, scenario, state, reply.calls, turn)
            history += [ModelTurn(turn["response"]), ToolResults(tuple(
                ToolResult(r["call_id"], r["tool"], r["result"], r["error"]) for r in turn["tool_results"]))]
            said.append(None)           # a turn nobody answered: the user's history, as the grader reads it
            continue
        user = next_user_message(scenario, reply.text, said)
        if user is None:
            raw["ended"] = "answer"
            break
        if number == scenario.turn_limit:
            break                       # the user had more to say: the limit cut the task
        turn["user"] = user.to_json()
        said.append(user)
        history += [ModelTurn(turn["response"]), UserText(user.text)]
    return raw


def _answer_calls(world: Any, scenario: Any, state: Any, calls: tuple, turn: dict) -> Any:
    """Answer every call of one turn, in call order, recording each in `turn["tool_results"]`;
    the state after the last."""
    results = []
    for call_id, call in zip(call_ids(calls), calls):
        result, error, changes, state = answer_call(world, scenario, state, call.name, read_arguments(call).arguments)
        results.append({"call_id": call_id, "tool": call.name, "result": result, "error": bool(error),
                         "change": list(changes)})
    turn["tool_results"] = results
    return state


def grade_work(worlds: dict | None, scenario: Any, raw: dict) -> CaseResult:
    """The finished conversation graded as the grader grades any scenario transcript (guarded: a
    grading bug fails this scenario, not the run)."""
    transcript = scenario_transcript(raw, raw["provider"], raw["model"])
    return grade_scenario_safely((worlds or {})[scenario.world], scenario, transcript)
