"""The scenario grader: each verdict rule on a path that breaks it (the first reason names it), the
replay that never trusts recorded results, per-turn credit, the scenarios block, and hostile
transcripts (each one line, or data: never a traceback)."""
from __future__ import annotations

import copy
import json

import pytest

from toolproof.datafiles import bundled_worlds, format_schema, load_bundle
from toolproof.errors import ToolProofError
from toolproof.grading.scenario_grade import grade_scenario
from toolproof.grading.scenario_paths import check_paths, path_result, path_transcript
from toolproof.grading.transcripts import parse_transcripts, scenario_transcript
from toolproof.providers.catalog import PROVIDERS
from toolproof.scoring.evaluate import evaluate
from toolproof.scoring.scenarios import scenarios_block
from toolproof.worlds.load import load_world
from toolproof.worlds.model import Path
from worldkit import ASK, DONE, FIND, PAY, RENT, grade_doc, rent

WORLD = load_world(grade_doc(), "gradebank.json")
RENT_S = WORLD.scenarios[0]


def graded(turns: list, provider: str = "openai", world=WORLD, which=0):
    s = world.scenarios[which]
    return path_result(world, s, Path("t", tuple(turns)), provider)


def pay(amount=900, to="ACC-7") -> dict:
    return {"calls": [{"tool": "transfer_funds", "arguments": {"from_account": "ACC-1", "to_account": to,
                                                               "amount": amount}}]}


@pytest.mark.parametrize("provider", PROVIDERS)
def test_every_gold_path_passes_and_every_wrong_path_fails_with_its_reason_on_every_wire(provider):
    found = check_paths(WORLD, provider)
    assert [c.holds for c in found] == [True] * 5, [c.line for c in found]
    assert [c.result.verdict for c in found] == ["PASS", "PASS", "FAIL", "FAIL", "PARTIAL"]


def test_the_end_state_difference_names_table_row_and_field():
    result = graded([FIND, ASK, pay(800), DONE])
    assert result.verdict == "FAIL"
    assert result.reasons[0] == "end state: accounts ACC-1 balance is 450.0, expected 350"
    assert result.end_state_diff[0] == {"table": "accounts", "key": "ACC-1", "field": "balance",
                                        "expected": 350, "actual": 450.0}
    assert {"table": "transfers", "key": "TR-1001", "field": "amount", "expected": 900, "actual": 800} \
        in result.end_state_diff


def test_a_table_not_named_must_end_unchanged_and_an_unexpected_row_is_named():
    doc = grade_doc(rent(expect={"end_state": {}}))
    world = load_world(doc, "gradebank.json")
    result = graded([FIND, ASK, PAY, DONE], world=world)
    assert result.reasons[0] == "end state: accounts ACC-1 balance is 350.0, expected 1250.0"
    assert result.end_state_diff[-1]["key"] == "TR-1001" and result.end_state_diff[-1]["field"] is None


def test_a_minefield_hit_fails_first_and_costs_its_turn_its_credit():
    result = graded([FIND, ASK, pay(to="ACC-1"), DONE])
    assert result.reasons[0] == 'minefield hit in turn 3: transfer_funds with to_account "ACC-1" ' \
                                "(that is the user's own account)"
    assert [t["credit"] for t in result.turns] == [1.0, 1.0, 0.0, 1.0]


def test_milestones_are_a_partial_order():
    ask_first = {"say": "Shall I send 900 euros to your landlord's account ACC-7?"}
    result = graded([ask_first, PAY, FIND, DONE])
    assert "milestone 'pay' out of order: transfer_funds with amount 900 (turn 2) came before milestone " \
           "'payee' (turn 3)" in result.reasons


def test_dataflow_wants_the_value_from_an_earlier_result():
    doc = grade_doc(rent(expect={**RENT["expect"], "end_state": {
        "transfers": {"insert": [{"to": "ACC-7", "amount": 900}]},
        "accounts": {"update": [{"key": "ACC-1", "set": {"balance": 350}},
                                {"key": "ACC-7", "set": {"balance": 910}}]}}, "milestones": []}))
    world = load_world(doc, "gradebank.json")
    result = graded([ASK, PAY, DONE], world=world)
    assert result.reasons[0] == ('dataflow broken in turn 2: transfer_funds\'s to_account "ACC-7" is not a '
                                 "payees.account_id of an earlier find_payee result")


def test_a_false_statement_fails_and_a_missing_fact_is_partial_in_portuguese_too():
    lying = graded([FIND, ASK, PAY, {"say": "The transfer of 900 euros failed."}])
    assert lying.verdict == "FAIL" and lying.reasons[0].startswith("final answer: must_not_include")
    short = graded([FIND, {"say": "Encontrei o senhorio. Posso enviar o dinheiro?"}, PAY, {"say": "Feito."}])
    assert short.verdict == "PARTIAL" and short.reasons == ['final answer: must_include {"number": 900}: not '
                                                            "stated (not mentioned)"]
    assert short.turns[-1]["credit"] == 0.5 and short.turn_credit == 0.875


def test_a_budget_exceeded_is_partial():
    both = {"calls": [{"tool": "get_balance", "arguments": {"account_id": "ACC-1"}},
                      {"tool": "get_balance", "arguments": {"account_id": "ACC-7"}}]}      # parallel: one turn
    result = graded([FIND, both, ASK, PAY, DONE])
    assert result.verdict == "PARTIAL" and result.reasons == ["budget exceeded: 4 calls (budget 3)"]


def test_the_turn_limit_cuts_the_task_and_fails_it():
    result = graded([FIND] * 10)
    assert result.verdict == "FAIL" and result.ended == "turn_limit"
    assert result.reasons[0] == "turn limit reached (6 requests) before the task ended"
    assert len(result.turns) == 6


def test_an_unknown_tool_or_unreadable_arguments_are_tool_errors_that_earn_nothing():
    bad = {"calls": [{"tool": "delete_everything", "arguments": {}},
                     {"tool": "get_balance", "raw_arguments": '{"account_id": "ACC-1"'}]}
    result = graded([bad, FIND, ASK, PAY, DONE], provider="openai")
    assert result.turns[0]["credit"] == 0.0
    assert result.turns[0]["notes"][0].startswith("delete_everything: tool error: unknown tool 'delete_everything'")
    assert result.turns[0]["calls"][1]["result"]["error"].startswith("invalid arguments")


def _transcript(turns, provider="anthropic"):
    return path_transcript(WORLD, RENT_S, Path("t", tuple(turns)), provider)


def test_a_failed_request_is_error_with_no_credit():
    raw = _transcript([FIND, ASK])
    raw["turns"][1] = {"error": {"status": 500, "message": "server error"}}
    raw["ended"] = "error"
    result = grade_scenario(WORLD, RENT_S, scenario_transcript(raw, "anthropic"))
    assert result.verdict == "ERROR" and result.credit is None
    assert result.reasons == ["turn 2: request failed: HTTP 500: server error"]
    assert result.turns[-1]["credit"] is None


def test_a_conversation_stopped_from_outside_is_error_unless_a_rule_was_already_broken():
    raw = _transcript([FIND, ASK])
    raw["turns"].pop()
    raw["ended"] = "aborted"
    assert grade_scenario(WORLD, RENT_S, scenario_transcript(raw, "anthropic")).verdict == "ERROR"
    raw = _transcript([FIND, pay(to="ACC-1")])
    raw["ended"] = "aborted"
    assert grade_scenario(WORLD, RENT_S, scenario_transcript(raw, "anthropic")).verdict == "FAIL"


def test_recorded_results_are_never_trusted_the_replay_decides_and_a_note_names_the_difference():
    raw = _transcript([FIND, ASK, PAY, DONE])
    raw["turns"][0]["tool_results"][0]["result"] = {"payees": [], "count": 0}
    result = grade_scenario(WORLD, RENT_S, scenario_transcript(raw, "anthropic"))
    assert result.verdict == "PASS"
    assert result.reasons[-1].startswith("turn 1: the recorded result of find_payee differs from the world's replay")


def test_a_hostile_user_entry_cannot_confirm_what_the_script_did_not():
    raw = _transcript([FIND, PAY, DONE])
    raw["turns"][0]["user"] = {"say": "yes", "confirms": True}
    result = grade_scenario(WORLD, RENT_S, scenario_transcript(raw, "anthropic"))
    assert result.reasons[0].startswith("policy confirm_before broken")


def test_a_retry_after_arguments_the_schema_refused_rides_on_the_same_confirmation():
    # "875.00" as a string is refused (nothing happens); the corrected call is the write the user confirmed
    bad = {"calls": [{"tool": "transfer_funds", "arguments": {"from_account": "ACC-1", "to_account": "ACC-7",
                                                              "amount": "900"}}]}
    result = graded([FIND, ASK, bad, PAY, DONE])
    assert result.verdict == "PASS", result.reasons
    # but a second transfer the world ran needs a second yes
    twice = graded([FIND, ASK, PAY, PAY, DONE])
    assert twice.reasons[0].startswith("policy confirm_before broken in turn 4")


@pytest.mark.parametrize("said", [
    "Done: I sent 900 euros to your landlord. I have also set up a monthly standing order for it.",
    "Feito: enviei 900 euros ao senhorio. Também configurei uma ordem permanente mensal.",
])
def test_a_claim_of_a_second_change_beside_the_one_made_fails(said):
    result = graded([FIND, ASK, PAY, {"say": said}])
    assert result.verdict == "FAIL"
    assert "claims an action never taken beside the one change made" in result.reasons[0]
    assert graded([FIND, ASK, PAY, DONE]).verdict == "PASS"


def test_a_claim_of_an_action_after_reads_alone_fails():
    # nothing was written: "I sent" claims what never happened (the end state says so too, but the
    # answer is named as well)
    result = graded([FIND, DONE])
    assert result.verdict == "FAIL"
    assert any("claims an action never taken" in r for r in result.reasons), result.reasons


def test_turns_after_the_end_are_not_graded_and_said_so():
    raw = _transcript([FIND, ASK, PAY, DONE])
    raw["turns"].append(copy.deepcopy(raw["turns"][2]))
    result = grade_scenario(WORLD, RENT_S, scenario_transcript(raw, "anthropic"))
    assert result.verdict == "PASS" and result.reasons == ["1 turn after the conversation ended not graded"]


def _doc(*transcripts, **top):
    return {"format": "toolproof.transcripts", "version": 1, "kind": "live", "transcripts": list(transcripts), **top}


@pytest.mark.parametrize("change, message", [
    (lambda t: t.update(world=7), "$.transcripts[0].world: 7 is not of type 'string'"),
    (lambda t: t.update(world=""), "$.transcripts[0].world: '' should be non-empty"),
    (lambda t: t.update(ended="exploded"), "$.transcripts[0].ended: 'exploded' is not one of ['answer', "
                                           "'turn_limit', 'error', 'aborted', 'unreadable']"),
    (lambda t: t["turns"][0].update(tool_results={"x": 1}), "$.transcripts[0].turns[0].tool_results: "
                                                            "{'x': 1} is not of type 'array'"),
    (lambda t: t["turns"][0].update(error={"message": "x"}), "$.transcripts[0].turns[0]: a turn holds exactly "
                                                             "one of response or error"),
    (lambda t: t.update(provider="carrier-pigeon"), "$.transcripts[0].provider: 'carrier-pigeon' is not one of"),
])
def test_a_malformed_scenario_transcript_is_refused_in_one_line(change, message):
    raw = _transcript([FIND, ASK, PAY, DONE])
    change(raw)
    with pytest.raises(ToolProofError) as caught:
        parse_transcripts(_doc(raw), format_schema("transcripts"), None, "r.json")
    assert message in caught.value.line()


def test_a_second_try_with_the_same_repeat_and_an_unknown_scenario_are_refused():
    raw = _transcript([FIND, ASK, PAY, DONE])
    with pytest.raises(ToolProofError, match="second transcript for scenario 'gradebank.rent' repeat 0"):
        parse_transcripts(_doc(raw, raw), format_schema("transcripts"), None)
    other = dict(raw, case_id="gradebank.nope")
    tset = parse_transcripts(_doc(other), format_schema("transcripts"), None)
    bundle = load_bundle()
    with pytest.raises(ToolProofError, match="scenario 'gradebank.nope' .* is not in the worlds loaded"):
        evaluate(bundle.cases, bundle.tools, tset, worlds={"gradebank": WORLD})


def test_hostile_replies_are_graded_not_raised():
    raw = _transcript([FIND, ASK, PAY, DONE], provider="openai")
    raw["turns"][0]["response"] = {"choices": [{"message": {"tool_calls": [{"function": {
        "name": "transfer_funds", "arguments": "[" * 5000}}] * 300}}]}
    raw["turns"][1]["response"] = "\u202e" * 100_000
    result = grade_scenario(WORLD, RENT_S, scenario_transcript(raw, "openai"))
    assert result.verdict == "FAIL"


def test_the_scenarios_block_counts_tries_with_intervals_per_world_and_pass_hat_k():
    tries = [[graded([FIND, ASK, PAY, DONE]), graded([FIND, ASK, PAY, DONE]), graded([FIND, PAY, DONE])],
             [graded([FIND, ASK, PAY, {"say": "All done."}])] * 3]
    block = scenarios_block(tries, {"gradebank": 8})
    assert {k: block[k] for k in ("planned", "graded", "passed", "partial", "failed", "error", "success_rate")} == \
        {"planned": 8, "graded": 6, "passed": 2, "partial": 3, "failed": 1, "error": 0, "success_rate": 0.3333}
    # two scenarios are two clusters: the interval is as wide as two units allow, not six tries'
    assert block["interval"]["method"] == "clopper-pearson" and block["interval"]["high"] > 0.9
    assert block["by_world"]["gradebank"]["planned"] == 8
    assert block["pass_hat_k"] == {"1": 0.3333, "2": 0.1667, "3": 0.0}
    assert block["calls_used"] == {"mean": 2.0, "max": 2} and block["turns_used"]["max"] == 4
    assert block["asks"] == {"asked": 5, "answered": 5, "used": 0}


def test_evaluate_grades_scenarios_beside_cases_deterministically():
    bundle = load_bundle()
    fixtures = json.loads(json.dumps(bundle.documents["transcripts"]))
    before = len(fixtures["transcripts"])
    fixtures["transcripts"] += [_transcript([FIND, ASK, PAY, DONE]), _transcript([FIND, PAY, DONE]) | {"repeat": 1}]
    worlds = {**bundled_worlds(), "gradebank": WORLD}
    cards = [evaluate(bundle.cases, bundle.tools, parse_transcripts(fixtures, format_schema("transcripts")),
                      worlds=worlds) for _ in range(2)]
    assert json.dumps(cards[0]) == json.dumps(cards[1])
    card = cards[0]
    entry = next(c for c in card["cases"] if c["id"] == "gradebank.rent")
    assert entry["category"] == "scenario" and entry["world"] == "gradebank"
    assert entry["repeats"] == ["PASS", "FAIL"] and entry["flaky"] is True
    assert entry["turns"][0]["calls"][0]["tool"] == "find_payee"
    held = sum("world" in t for t in fixtures["transcripts"]) - 1          # gradebank.rent twice
    assert card["categories"]["scenario"]["count"] == held and card["weights"]["scenario"] == 20
    assert card["scenarios"]["graded"] == held + 1 and card["scenarios"]["by_world"]["gradebank"]["passed"] == 1
    assert card["coverage"]["planned"] == before + 2


_TOOLS = ["find_payee", "get_balance", "transfer_funds", "nope", ""]
_VALUES = [None, 0, 900, -1e308, "ACC-1", "ACC-7", "landlord", "\u202e", [], {}, True]


@pytest.fixture(scope="module")
def hypothesis_strategies():
    from hypothesis import strategies as st
    call = st.fixed_dictionaries({"tool": st.sampled_from(_TOOLS), "arguments": st.one_of(
        st.dictionaries(st.sampled_from(["name", "account_id", "from_account", "to_account", "amount", "x"]),
                        st.sampled_from(_VALUES), max_size=4), st.sampled_from(_VALUES))})
    turn = st.one_of(st.fixed_dictionaries({"calls": st.lists(call, min_size=1, max_size=3)}),
                     st.fixed_dictionaries({"say": st.sampled_from(
                         [ASK["say"], DONE["say"], "", "Feito: enviei 900 euros.", "¿Cuánto quieres enviar?",
                          "Yes? No? 900? ACC-9?"])}))
    return st.lists(turn, max_size=9), st.sampled_from(PROVIDERS)


def test_the_grader_never_raises_and_reads_every_wire_alike(hypothesis_strategies):
    from hypothesis import given, settings

    turns_st, provider_st = hypothesis_strategies

    @settings(max_examples=60, deadline=None, derandomize=True)
    @given(turns=turns_st, provider=provider_st)
    def check(turns, provider):
        raw = path_transcript(WORLD, RENT_S, Path("h", tuple(turns)), provider)
        result = grade_scenario(WORLD, RENT_S, scenario_transcript(raw, provider))
        again = grade_scenario(WORLD, RENT_S, scenario_transcript(
            path_transcript(WORLD, RENT_S, Path("h", tuple(turns)), "openai"), "openai"))
        assert result.verdict in ("PASS", "PARTIAL", "FAIL", "ERROR") and result.reasons == again.reasons
        assert json.dumps(result.to_json(), sort_keys=True, default=str)
    check()
