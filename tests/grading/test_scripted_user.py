"""grading/scripted_user.py: the scripted user's choice after a text answer, the same for the
live loop and the grader's replay: the first unused reply whose asks_for names a detail asked (or
is empty), else the fallback; a text that asks nothing gets the next `then` entry, else the end."""
from __future__ import annotations

import pytest

from toolproof.grading.scripted_user import UserTurn, asked, first_message, next_user_message

SCENARIO = {"user": {
    "first": "Pay my rent.",
    "replies": [{"asks_for": ["amount"], "say": "850 euros."},
                {"asks_for": ["account"], "say": "From ACC-1."},
                {"asks_for": [], "say": "Yes, go ahead.", "confirms": True}],
    "fallback": "I have nothing more to add.",
    "then": [{"say": "Actually, make it 900."}],
}}


def test_a_question_gets_the_reply_for_the_detail_it_asks():
    turn = next_user_message(SCENARIO, "How much is the rent?")
    assert turn == UserTurn("850 euros.", False, reply_index=0)
    assert next_user_message(SCENARIO, "Which account should I pay it from?") == UserTurn("From ACC-1.", reply_index=1)


def test_a_reply_is_used_once_then_the_any_question_reply_then_the_fallback_once_in_a_row():
    sent = [next_user_message(SCENARIO, "How much is the rent?")]
    second = next_user_message(SCENARIO, "How much exactly?", sent)
    assert second == UserTurn("Yes, go ahead.", True, reply_index=2)     # [] answers any question
    sent.append(second)
    third = next_user_message(SCENARIO, "How much again?", sent)
    assert third == UserTurn("I have nothing more to add.")
    sent.append(third)
    # asked again right after the fallback: nothing more to say (a model that ends every answer with
    # an offer the script does not foresee looped to the turn limit on the fallback)
    assert next_user_message(SCENARIO, "And the amount?", sent) is None
    # after calls in between, the fallback comes again
    assert next_user_message(SCENARIO, "And the amount?", sent + [None]) == third


def test_a_text_that_asks_nothing_gets_the_next_later_turn_then_ends():
    first = next_user_message(SCENARIO, "Done: I paid 850 euros.")
    assert first == UserTurn("Actually, make it 900.", then_index=0)
    assert next_user_message(SCENARIO, "Done: I paid 900 euros.", [first]) is None


def test_the_recorded_user_entry_reads_back_to_the_same_choice():
    sent = [next_user_message(SCENARIO, "How much is the rent?"), None]
    recorded = [UserTurn.from_json(t.to_json()) if t else None for t in sent]
    assert recorded == sent
    assert next_user_message(SCENARIO, "How much?", recorded) == next_user_message(SCENARIO, "How much?", sent)
    assert sent[0].to_json() == {"say": "850 euros.", "confirms": False, "reply": 0}


def test_no_fallback_ends_the_conversation_on_an_unanswerable_question():
    scenario = {"user": {"first": "x", "replies": [{"asks_for": ["date"], "say": "Friday."}]}}
    assert next_user_message(scenario, "Which account?") is None
    assert first_message(scenario) == "x"


@pytest.mark.parametrize("raw", [None, 5, [], {"say": 5, "reply": -1, "then": True}, {"reply": "0"}])
def test_hostile_recorded_entries_read_as_nothing_used(raw):
    turn = UserTurn.from_json(raw)
    assert turn is None or (turn.reply_index is None and turn.then_index is None)
    assert next_user_message(SCENARIO, "How much?", [turn]) == UserTurn("850 euros.", reply_index=0)


@pytest.mark.parametrize("text", ["", "?" * 50_000, "How much? " * 5_000, "\x00\u202e?"])
def test_hostile_texts_never_raise(text):
    asks, _ = asked(text)
    turn = next_user_message(SCENARIO, text)
    assert (turn is None) or isinstance(turn.text, str)
    assert isinstance(asks, bool)


def test_hostile_scenarios_never_raise():
    for scenario in ({}, {"user": None}, {"user": {"replies": None, "then": None}},
                     {"user": {"replies": [{"asks_for": None, "say": None}]}}):
        next_user_message(scenario, "How much?")
        next_user_message(scenario, "Done.")


# Real models end most answers with an offer of more help. Read as a question, the scripted "yes"
# (asks_for []) answered it and confirmed a write nobody asked for, and the fallback kept the
# conversation going until the turn limit cut a finished task.
@pytest.mark.parametrize("text", [
    "Done: 900 EUR sent to ACC-7. Is there anything else I can help you with?",
    "The transfer is complete. Let me know if you need anything else.",
    "All set! If you have any other questions, just let me know.",
    "Feito! Posso ajudar em mais alguma coisa?",
    "Pronto. Se precisar de mais alguma coisa, é só dizer.",
    "Listo. ¿Hay algo más en lo que pueda ayudarte?",
    "Hecho. Si necesitas otra cosa, dímelo.",
])
def test_a_closing_offer_asks_nothing_so_the_script_goes_on_or_ends(text):
    assert asked(text) == (False, frozenset())
    assert next_user_message(SCENARIO, text) == UserTurn("Actually, make it 900.", then_index=0)
    done = [UserTurn("Actually, make it 900.", then_index=0)]
    assert next_user_message(SCENARIO, text, done) is None


@pytest.mark.parametrize("text, reply", [
    ("Shall I go ahead with the payment? Anything else you need?", 2),     # the real question still counts
    ("How much is the rent? And is there anything else to pay?", 0),
    ("Let me know if you'd like me to go ahead with the transfer.", 2),    # a request to confirm, not an offer
])
def test_a_real_question_beside_a_closing_offer_is_still_answered(text, reply):
    assert next_user_message(SCENARIO, text).reply_index == reply


@pytest.mark.parametrize("text", [
    # a real question that also mentions "anything else" further in: still a question (the whole
    # clause was taken for a closing offer, and a correct model failed on the end state)
    "Would you like me to send 875 EUR from ACC-1043 now, or is there anything else you'd like to change first?",
    "I found order #5521. Let me know if you'd like me to cancel it or if there's anything else I can do.",
    # confirmation requests without a question mark
    "I'll transfer 875 EUR from ACC-1043 once you confirm.",
    "Reply YES to proceed.",
    "Just say the word and I'll send it.",
    "Awaiting your confirmation.",
    "I'll cancel it as soon as you confirm.",
    "Assim que confirmar, faço o pagamento.",
    "Aguardo a sua confirmação.",
    "En cuanto me confirmes, hago la reserva.",
    "Quedo a la espera de tu confirmación.",
])
def test_a_request_for_a_yes_gets_the_any_question_reply(text):
    assert next_user_message(SCENARIO, text) == UserTurn("Yes, go ahead.", True, reply_index=2)


@pytest.mark.parametrize("text", [
    "Thanks for your confirmation, the transfer is done.",
    "Obrigado pela sua confirmação, está feito.",
    "Gracias por tu confirmación; ya está hecho.",
    "Feel free to let me know if you need anything else.",
])
def test_thanks_for_a_confirmation_or_a_late_closing_offer_asks_nothing(text):
    assert asked(text) == (False, frozenset())


@pytest.mark.parametrize("text", [
    "You have 10,468.35 EUR in total. Anything more I can do for you?",
    "You have 10,468.35 EUR in total. What else can I do for you?",
    "You have 10,468.35 EUR in total. Any other requests?",
    "You have 10,468.35 EUR in total. Let me know if there is more I can do.",
    "Tem 10.468,35 EUR no total. Precisa de mais ajuda?",
    "Tem 10.468,35 EUR no total. Posso ajudar com mais algo?",
])
def test_more_closing_offers(text):
    assert asked(text) == (False, frozenset())


@pytest.mark.parametrize("text", ["Happy to help. Which nights do you need?",
                                  "What are your check-in and check-out dates?", "¿Qué noches necesitas?"])
def test_nights_and_check_in_ask_for_the_date(text):
    # "Which nights" got the any-question reply ("Yes, go ahead.") instead of the dates
    assert asked(text)[1] >= {"date"}
