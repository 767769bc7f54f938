"""A scenario's scripted path (a gold or a wrong one) made into a transcript and graded, exactly as a
live run's conversation would be: each model turn rendered as `provider`'s response body
(providers/scripted.py), read back by that provider's own reader, its calls answered by the world
(scenario_state.answer_call), its text answered by the scripted user (scripted_user.py).

Used by the bundled worlds' tests, `suite validate` on a world file, the page's world loader and
tests/worlds/make_fixtures.py (the illustrative fixture transcripts). `path_check` says whether a
path holds: a gold path PASSes; a wrong path does not pass (FAIL, or PARTIAL for a fact the answer
misses or a budget) and its first reason contains its `fails_with`.

Pure: no I/O. Must not decide a verdict itself (scenario_grade.py does).
"""
from __future__ import annotations

from dataclasses import dataclass

from toolproof.providers.conversation import read_arguments
from toolproof.providers.dispatch import reply_from_body
from toolproof.providers.scripted import call_id, reply_body
from toolproof.worlds.engine import initial_state
from toolproof.worlds.model import Path, Scenario, World

from .scenario_grade import ScenarioResult, grade_scenario_safely
from .scenario_state import answer_call
from .scripted_user import next_user_message
from .transcripts import scenario_transcript
from .verdicts import ERROR, PASS


def path_transcript(world: World, scenario: Scenario, path: Path, provider: str = "openai", *,
                    repeat: int = 0, model: str = "scripted") -> dict:
    """The raw transcript (the results file's shape) of `path` played by a model that says exactly
    its turns; cut at the scenario's turn limit, ended when the user has nothing more to say."""
    state, users, turns, ended = initial_state(world), [], [], ""
    for number, turn in enumerate(path.turns, 1):
        if number > scenario.turn_limit:
            break
        body = reply_body(provider, turn, number=number, model=model)
        reply = reply_from_body(provider, body)
        entry: dict = {"response": body, "status": 200, "attempts": 1, "elapsed_ms": 0.0}
        if reply.calls:
            results = []
            for index, call in enumerate(reply.calls):
                arguments = read_arguments(call).arguments        # as the runner answers it
                result, error, changes, state = answer_call(world, scenario, state, call.name, arguments)
                results.append({"call_id": call.id or call_id(provider, number, index), "tool": call.name,
                                "result": result, "error": error, "change": list(changes)})
            entry["tool_results"] = results
            users.append(None)
        else:
            user = next_user_message(scenario, reply.text, users)
            users.append(user)
            if user is None:
                ended = "answer"
            else:
                entry["user"] = user.to_json()
        turns.append(entry)
        if ended:
            break
    if not ended:
        ended = "turn_limit" if len(turns) >= scenario.turn_limit else "aborted"
    return {"case_id": scenario.id, "world": world.id, "world_sha256": world.sha256, "repeat": repeat,
            "provider": provider, "model": model, "turns": turns, "ended": ended}


def path_result(world: World, scenario: Scenario, path: Path, provider: str = "openai") -> ScenarioResult:
    """The path's transcript graded."""
    raw = path_transcript(world, scenario, path, provider)
    return grade_scenario_safely(world, scenario, scenario_transcript(raw, provider, raw["model"]))


@dataclass(frozen=True, slots=True)
class PathCheck:
    scenario: str
    path: str
    gold: bool
    holds: bool
    line: str                   # one line: "ok   bank.rent gold lookup-first: PASS"
    result: ScenarioResult


def path_check(world: World, scenario: Scenario, path: Path, *, gold: bool, provider: str = "openai") -> PathCheck:
    """Does the path hold: gold PASSes, wrong fails with its `fails_with` in the first reason?"""
    result = path_result(world, scenario, path, provider)
    first = result.reasons[0] if result.reasons else ""
    if gold:
        holds = result.verdict == PASS
        why = "" if holds else f", expected PASS: {first}"
    else:
        want = path.fails_with or ""
        holds = result.verdict not in (PASS, ERROR) and want.casefold() in first.casefold()
        why = f" ({first})" if holds else (f", expected a failure with {want!r}: {first or 'no reason'}")
    kind = "gold" if gold else "wrong"
    line = f"{'ok  ' if holds else 'FAIL'} {scenario.id} {kind} {path.id}: {result.verdict}{why}"
    return PathCheck(scenario.id, path.id, gold, holds, line, result)


def check_paths(world: World, provider: str = "openai") -> list[PathCheck]:
    """Every gold and wrong path of every scenario of the world, in file order."""
    return [path_check(world, s, p, gold=gold, provider=provider)
            for s in world.scenarios for gold, paths in ((True, s.gold_paths), (False, s.wrong_paths))
            for p in paths]
