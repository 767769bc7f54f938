"""The bundled worlds (data/worlds/*.json) hold what the issue promises of them: every file loads,
every world has at least 8 scenarios, every scenario at least 2 different gold paths and 2 wrong
paths; every gold path PASSes and every wrong path FAILs with its `fails_with` in the first reason
(replayed through the engine, the scripted user and the grader, as a live run would be graded);
together the worlds cover every tag, and a scenario's tags are true of its gold paths (a
parallel_fan_out scenario has a turn of several calls, a long_result one reads hundreds of rows...).

Shared by the worlds' authors (bank and shop, travel): a new world file is checked by adding it to
data/worlds/, nothing here names one.
"""
from __future__ import annotations

import json
from functools import lru_cache

import pytest

from toolproof.datafiles import WORLDS, bundled_worlds, load_world_files
from toolproof.errors import ToolProofError
from toolproof.grading.answer_acts import declines
from toolproof.grading.answer_text import Reading, normalise
from toolproof.grading.scenario_paths import check_paths, path_check
from toolproof.providers.catalog import PROVIDERS
from toolproof.worlds.engine import initial_state, run_call
from toolproof.worlds.model import TAGS

MIN_SCENARIOS = 8
MIN_GOLD = 2
MIN_WRONG = 2
LONG = 200          # "hundreds of rows": the fewest rows every gold path of a long_result scenario reads
MAX_BYTES = 300_000     # a world file the page fetches and parses at start: keep it small


@lru_cache(maxsize=1)
def worlds() -> dict:
    return bundled_worlds()


def _collected() -> dict:
    """The worlds as the tests are collected: a file that does not load yields none here, and
    test_every_file_loads fails with the loader's own line."""
    try:
        return worlds()
    except ToolProofError:
        return {}


def _paths():
    """(world, scenario, path, gold) of every bundled path."""
    return [pytest.param(w, s, p, gold, id=f"{s.id}:{'gold' if gold else 'wrong'}:{p.id}")
            for w in _collected().values() for s in w.scenarios
            for gold, paths in ((True, s.gold_paths), (False, s.wrong_paths)) for p in paths]


@lru_cache(maxsize=None)
def _gold_result(world_id: str, scenario_id: str, path_id: str):
    world = worlds()[world_id]
    scenario = next(s for s in world.scenarios if s.id == scenario_id)
    path = next(p for p in scenario.gold_paths if p.id == path_id)
    return path_check(world, scenario, path, gold=True).result


def _shape(world, scenario, path) -> tuple:
    """A path's route without its wording: the calls of each turn, and for each answer which
    scripted message the user sent back (a reply, a later turn, the fallback, or none)."""
    turns = _gold_result(world.id, scenario.id, path.id).turns
    return tuple(tuple((c["tool"], json.dumps(c["arguments"], sort_keys=True)) for c in t["calls"])
                 or ("say", tuple(sorted((k, v) for k, v in t.get("user", {}).items() if k in ("reply", "then"))),
                     "user" in t) for t in turns)


def test_every_file_loads():
    files = sorted(WORLDS.glob("*.json"))
    assert files, f"no world file in {WORLDS}"
    for file in files:          # one by one, so a refusal names its file
        assert list(load_world_files([file])) == [file.stem]
    assert list(worlds()) == [f.stem for f in files]      # and together: scenario ids unique


def test_bank_and_shop_are_bundled():
    assert {"bank", "shop"} <= set(worlds())


def test_every_file_is_small():
    sizes = {f.name: f.stat().st_size for f in WORLDS.glob("*.json")}
    assert {name: size for name, size in sizes.items() if size > MAX_BYTES} == {}


@pytest.mark.parametrize("world_id", sorted(_collected()))
def test_each_world_has_enough_scenarios_and_paths(world_id):
    world = worlds()[world_id]
    assert len(world.scenarios) >= MIN_SCENARIOS, world_id
    for s in world.scenarios:
        assert len(s.gold_paths) >= MIN_GOLD, s.id
        assert len(s.wrong_paths) >= MIN_WRONG, s.id
        assert all(p.fails_with for p in s.wrong_paths), s.id
        shapes = [_shape(world, s, p) for p in s.gold_paths]
        assert len(set(shapes)) == len(shapes), f"{s.id}: two gold paths take the same route (only the wording differs)"


def test_together_the_worlds_cover_every_tag():
    covered = {tag for w in worlds().values() for s in w.scenarios for tag in s.covers}
    assert set(TAGS) - covered == set()


@pytest.mark.parametrize("world, scenario, path, gold", _paths())
def test_path_holds(world, scenario, path, gold):
    check = path_check(world, scenario, path, gold=gold)
    assert check.holds, check.line
    if not gold:        # a wrong path FAILs (PARTIAL would say the task was done)
        assert check.result.verdict == "FAIL", check.line


@pytest.mark.parametrize("provider", [p for p in PROVIDERS if p != "openai"])
def test_paths_hold_in_every_wire_format(provider):
    """The same paths rendered as each provider's replies grade the same (openai: above)."""
    broken = [c.line for w in worlds().values() for c in check_paths(w, provider) if not c.holds]
    assert broken == []


def _gold_turns(world, scenario):
    return [(p, _gold_result(world.id, scenario.id, p.id).turns) for p in scenario.gold_paths]


def _rows_read(result) -> int:
    return max((len(v) for v in result.values() if isinstance(v, list)), default=0) \
        if isinstance(result, dict) else 0


# what each tag claims of a scenario, checked on its gold paths' graded turns
def _parallel(world, s):
    return any(len(p.calls) >= 2 for path in s.gold_paths for p in path.turns)


def _chain(world, s):
    return any(sum(len(t["calls"]) for t in turns) >= 3 for _, turns in _gold_turns(world, s)) \
        and bool(s.expect.dataflow)


def _recovery(world, s):
    for _, turns in _gold_turns(world, s):
        calls = [c for t in turns for c in t["calls"]]
        if any(c["error"] and any(not d["error"] for d in calls[k + 1:]) for k, c in enumerate(calls)):
            return True
    return False


def _long(world, s):
    return all(sum(_rows_read(c["result"]) for t in turns for c in t["calls"]) >= LONG
               for _, turns in _gold_turns(world, s))


def _refusal(world, s):
    """The forbidden write is a minefield, and every gold path declines in words (it may go on
    to do what the policy allows instead)."""
    return bool(s.expect.minefields) and all(
        any(t.say is not None and declines(Reading(t.say)) for t in p.turns) for p in s.gold_paths)


def _change(world, s):
    """A later turn that changes the task, or a reply that turns down what the model proposed
    (the old wish is then a minefield)."""
    return bool(s.user.then) or (bool(s.user.replies) and bool(s.expect.minefields))


def _confirm(world, s):
    return any(r.rule == "confirm_before" for r in s.expect.policy) and any(r.confirms for r in s.user.replies)


def _ask(world, s):
    return bool(s.user.replies) and all(any(t["calls"] == [] and t.get("user", {}).get("reply") is not None
                                            for t in turns) for _, turns in _gold_turns(world, s))


ASSENT = ("yes", "sim", "sí", "si", "fine", "ok", "okay", "sure")


@pytest.mark.parametrize("scenario_id", sorted(s.id for w in _collected().values() for s in w.scenarios
                                               if any(r.rule == "confirm_before" for r in s.expect.policy)))
def test_under_a_confirm_policy_only_a_plain_yes_confirms(scenario_id):
    """Each bundled confirm_before policy asks the model to state what it will write and wait for an
    explicit yes. A scripted message that `confirms` must be that yes; a change of mind ("Book the
    first one after 10 instead") names no booking the model has stated, so it confirms nothing and
    the model must state the new one and ask again (travel.madrid_flight_change_of_mind)."""
    world, scenario = next((w, s) for w in worlds().values() for s in w.scenarios if s.id == scenario_id)
    assert "explicit yes" in scenario.system, "the policy the rule grades is not in the system prompt"
    for message in (*scenario.user.replies, *scenario.user.then):
        first = normalise(message.say).split(None, 1)[0].strip(",.!")
        assert message.confirms == (first in ASSENT), (scenario_id, message.say)


# Replies an independent verifier fed into the bundled scenarios, whose verdicts a careful human
# would not have given then; each is kept as the last answer of a gold (PASS) or wrong (FAIL) path,
# so test_path_holds and test_paths_hold_in_every_wire_format keep the verdict fixed.
VERIFIED = [
    ("shop.sizes_in_stock", True, "La talla 42 está agotada; tenemos la 43 y la 44."),
    ("shop.sizes_in_stock", True, "A 42 está esgotada; temos a 43 e a 44."),
    ("shop.sizes_in_stock", True, "We don't have 42 right now, but we have 43 and 44."),
    ("shop.sizes_in_stock", True, "Sorry, no 42 left, but 43 and 44 are in stock."),
    ("shop.sizes_in_stock", False, "Size 44 is sold out, but 42 and 43 are in stock."),
    ("travel.porto_extend_stay", True,
     "Ribeira Guesthouse is now booked from 20 May to 23 May (BK-1002); the old booking is cancelled."),
    ("travel.porto_extend_stay", True, "Done: Ribeira, 20–23 May, €285 (BK-1002)."),
    ("bank.total_balance", False, "You have 10,486.35 EUR in total"),
    ("travel.okafor_review_push", False, "Moved it to Wednesday 24 June at 4 pm"),
    ("travel.okafor_review_push", False,
     "I moved the design review with Dr. Okafor from Wednesday 24 June back to 17 June at 15:00."),
    ("bank.partner_account", False, "The 500 € from ACC-3390 is now in your checking account."),
    ("travel.hotels_three_cities", True, "Understood, nothing is booked. To recap, per night: Casa Lavapiés (Madrid) "
     "€118, Ribeira Guesthouse (Porto) €95, Triana River Rooms (Seville) €99."),
    ("travel.porto_hotel_ask_dates", True, "Happy to help. Which nights do you need?"),
]


@pytest.mark.parametrize("scenario_id, gold, text", VERIFIED)
def test_the_verified_replies_stay_bundled(scenario_id, gold, text):
    _, scenario = _scenario(scenario_id)
    paths = scenario.gold_paths if gold else scenario.wrong_paths
    assert any(turn.say == text for path in paths for turn in path.turns), (scenario_id, text)


def test_a_switch_of_flight_is_no_yes():
    """The verifier's path: Marta turns 07:05 down ("Book the first one that leaves after 10 ...
    instead") and the model books IB3105 at once, without stating it and waiting for a yes."""
    _, scenario = _scenario("travel.madrid_flight_change_of_mind")
    switch = next(r for r in scenario.user.replies if "instead" in r.say)
    assert not switch.confirms
    booked = [p for p in scenario.wrong_paths if p.fails_with == "confirm_before"
              and [bool(t.calls) for t in p.turns] == [True, False, True, False]]
    assert booked, "no wrong path books right after the switch"


CLAIMS = {"parallel_fan_out": _parallel, "chain": _chain, "error_recovery": _recovery, "long_result": _long,
          "policy_refusal": _refusal, "change_of_mind": _change, "confirm_before_write": _confirm,
          "ask_then_use": _ask}


def test_every_tag_has_a_claim():
    assert set(CLAIMS) == set(TAGS)


@pytest.mark.parametrize("scenario_id", sorted(s.id for w in _collected().values() for s in w.scenarios))
def test_tags_are_true_of_the_gold_paths(scenario_id):
    world, scenario = next((w, s) for w in worlds().values() for s in w.scenarios if s.id == scenario_id)
    wrong = [tag for tag in scenario.covers if not CLAIMS[tag](world, scenario)]
    assert wrong == [], f"{scenario_id} claims {wrong} but its gold paths do not show it"


# ---- the travel world (part D2) and the manual's worked example ---------------------------------
TRAVEL_TAGS = {"parallel_fan_out", "error_recovery", "change_of_mind", "ask_then_use", "chain",
               "confirm_before_write", "long_result"}
MANUAL = WORLDS.parent.parent / "docs" / "scenarios.md"


def test_travel_covers_the_tags_it_promises():
    covered = {tag for s in worlds()["travel"].scenarios for tag in s.covers}
    assert TRAVEL_TAGS - covered == set()


def test_travel_speaks_to_its_user_in_three_languages():
    # the answer rules read English, Portuguese and Spanish: a scenario or two must use the others
    languages = {Reading(s.user.first).lang for s in worlds()["travel"].scenarios}
    assert {"en", "es", "pt"} <= languages


def test_travel_room_errors_name_exactly_the_free_slots():
    """book_meeting_room's error on a taken slot is how a model recovers: the free slots it names
    (a field of the row, written once by the file) must be the slots of that room and day that are
    free in the table, or the error would send the model to a booked hour."""
    world = worlds()["travel"]
    state = initial_state(world)
    slots = world.tables["room_slots"].rows
    taken = [r for r in slots if r["status"] == "booked"]
    assert taken, "the travel world has no taken slot to recover from"
    for row in taken:
        outcome = run_call(world, state, "book_meeting_room",
                           {"room": row["room"], "date": row["date"], "start": row["start"], "title": "x"})
        assert outcome.error and outcome.state is state, row["id"]
        named = outcome.result["error"].split("that day: ", 1)[1]
        free = [r["start"] for r in slots if (r["room"], r["date"]) == (row["room"], row["date"])
                and r["status"] == "free"]
        assert [t for t in free if t in named] == free, row["id"]
        assert not [r["start"] for r in slots if (r["room"], r["date"], r["status"]) == (row["room"], row["date"], "booked")
                    and r["start"] in named], row["id"]


def _manual_blocks() -> tuple[str, list[str]]:
    """The manual's worked example: its first ```json block, and the lines of the block that shows
    `suite validate` on it."""
    text = MANUAL.read_text(encoding="utf-8")
    example = text.split("```json\n", 1)[1].split("```", 1)[0]
    shown = text.split("suite validate desk.json` replays every path of the file:\n\n```\n", 1)[1].split("```", 1)[0]
    return example, shown.splitlines()


def test_the_manuals_worked_example_loads_and_every_path_holds_as_shown(tmp_path):
    example, shown = _manual_blocks()
    file = tmp_path / "desk.json"
    file.write_text(example, encoding="utf-8")
    world = load_world_files([file])["desk"]
    checks = check_paths(world)
    assert all(c.holds for c in checks), [c.line for c in checks if not c.holds]
    assert [c.line for c in checks] == shown[:-1]
    assert shown[-1] == f"suite validate: ok (world desk: 1 scenario, {len(checks)} paths replayed)"


# ---- the bank and shop worlds (part D1) ---------------------------------------------------------
def _scenario(scenario_id: str):
    world = worlds()[scenario_id.split(".", 1)[0]]
    return world, next(s for s in world.scenarios if s.id == scenario_id)


def _required(scenario) -> list:
    """The answer rule's required items: phrases as written, values as their number."""
    return [i.get("number", i) if isinstance(i, dict) else i for i in scenario.expect.final_answer.must_include]


def test_the_grocery_total_asked_for_is_the_sum_of_the_rows():
    """The long_result answer is computed from the 300 rows the file holds (written by a script
    that is not kept): a change to a row must change the rule, or the gold paths would lie."""
    world, scenario = _scenario("bank.groceries_ytd")
    rows = [r for r in world.tables["transactions"].rows if r["account"] == "ACC-1043"]
    assert len(rows) >= LONG
    cents = -sum(round(r["amount"] * 100) for r in rows if r["category"] == "groceries" and r["date"] >= "2026-01-01")
    assert _required(scenario) == [cents / 100]


def test_the_largest_order_asked_for_is_the_maximum_of_its_year():
    world, scenario = _scenario("shop.largest_order_2025")
    orders = [r for r in world.tables["orders"].rows if r["customer"] == "CUS-7002"]
    assert len(orders) >= LONG
    of_2025 = [r for r in orders if r["placed"].startswith("2025")]
    top = max(of_2025, key=lambda r: r["total"])
    assert [r["id"] for r in of_2025 if r["total"] == top["total"]] == [top["id"]]     # no tie
    assert _required(scenario) == [top["id"], top["total"]]
    assert max(r["total"] for r in orders) > top["total"]       # the trap: a larger order in 2026


def test_bank_and_shop_speak_to_their_users_in_three_languages():
    languages = {Reading(s.user.first).lang for w in ("bank", "shop") for s in worlds()[w].scenarios}
    assert {"en", "es", "pt"} <= languages


@pytest.mark.parametrize("world_id, tool, arguments, names", [
    ("bank", "transfer_funds", {"from_account": "ACC-0877", "to_account": "ACC-1043", "amount": 300}, "ACC-1044"),
    ("shop", "update_address", {"order_id": "ORD-89217", "address": "Rua do Almada 210, Porto"}, "ORD-89230"),
])
def test_recovery_errors_name_a_target_that_works(world_id, tool, arguments, names):
    """The error a model recovers from names where to go, and going there succeeds."""
    world = worlds()[world_id]
    state = initial_state(world)
    failed = run_call(world, state, tool, arguments)
    assert failed.error and names in failed.result["error"] and failed.state is state
    key = next(k for k, v in arguments.items() if v in ("ACC-0877", "ORD-89217"))
    retried = run_call(world, state, tool, dict(arguments, **{key: names}))
    assert not retried.error and retried.changes


@pytest.mark.parametrize("provider", ["anthropic", "openai-compatible"])
def test_a_live_run_of_every_bundled_scenario_played_by_its_first_gold_path_passes(tmp_path, provider):
    """`run --scope scenarios` through the real runner, against the fake multi-turn model on
    127.0.0.1 playing each scenario's first gold path: a verdict for every scenario, all PASS,
    requests on the wire == turns in the results file, and `grade --transcripts` gives the same cases."""
    from clirun import cli_with          # lazy: test helpers from tests/, only this test needs them
    from fakeagent import FakeAgent
    cli = cli_with({"TOOLPROOF_API_KEY": "sk-bundled-worlds-fake"})
    scenarios = [s for w in worlds().values() for s in w.scenarios]
    scripts = {s.user.first: [{"calls": [{"tool": c.tool, "arguments": c.arguments} for c in t.calls]}
                              if t.calls else {"say": t.say} for t in s.gold_paths[0].turns] for s in scenarios}
    assert len(scripts) == len(scenarios), "two scenarios open with the same message"
    out = tmp_path / "results.json"
    with FakeAgent(scripts) as fake:
        code, stdout, stderr = cli("run", "--provider", provider, "--base-url", fake.base + "/v1", "--model", "fake",
                                   "--pause", "0", "--scope", "scenarios", "--out", str(out), "--format", "json")
    assert code == 0, stderr
    card = json.loads(stdout)
    verdicts = {c["id"]: c["verdict"] for c in card["cases"] if c["category"] == "scenario"}
    assert verdicts == {s.id: "PASS" for s in scenarios}
    doc = json.loads(out.read_text())
    assert len(fake.requests) == sum(len(t["turns"]) for t in doc["transcripts"])
    code, regraded, stderr = cli("grade", "--transcripts", str(out), "--format", "json")
    assert code == 0, stderr
    assert json.loads(regraded)["cases"] == card["cases"]


CLOSING = {"en": " Is there anything else I can help you with?", "pt": " Posso ajudar em mais alguma coisa?",
           "es": " ¿Hay algo más en lo que pueda ayudarte?"}


@pytest.mark.parametrize("world, scenario, path, gold", [p for p in _paths() if p.values[3]])
def test_a_gold_path_still_passes_when_its_answers_end_with_a_closing_offer(world, scenario, path, gold):
    """Real models close most answers with an offer of more help; the scripted user must not take
    it for a question (a "yes" to it would confirm a write, a fallback would run to the turn limit)."""
    # lazy: only this test rewrites paths
    from dataclasses import replace
    from toolproof.grading.answer_text import Reading

    def closed(turn):
        if turn.say is None or turn.say.rstrip().endswith("?"):
            return turn
        return replace(turn, say=turn.say.rstrip() + CLOSING.get(Reading(turn.say).lang, CLOSING["en"]))
    offered = replace(path, turns=tuple(closed(t) for t in path.turns))
    check = path_check(world, scenario, offered, gold=True)
    assert check.result.verdict == "PASS", (check.result.reasons, [t.say for t in offered.turns])
