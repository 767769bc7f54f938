"""asks_for: a value of the asked detail that the reply proposes in a yes/no question is a guess,
not an ask; a question asking for a choice offers its values. And the detail names duration and
reason. Replies here are new (not the labelled set's), in English, Portuguese and Spanish."""
from __future__ import annotations

import pytest

from toolproof.grading.answer_rules import judge
from toolproof.suite.model import PhraseRules


def problems(detail, text):
    return judge(PhraseRules(asks_for=detail if isinstance(detail, tuple) else (detail,)), text, None,
                 claims_default=False, ask_any=True).problems


@pytest.mark.parametrize("detail, text", [
    ("amount", "Should I send the same €180 as last time? Otherwise tell me how much."),
    ("amount", "Transfiro os 300 € habituais? Se não, diga-me o valor."),
    ("amount", "¿Muevo los 150 € de siempre? Si no, dime el importe."),
    ("date", "I'll check flights for tomorrow — or would you rather leave on another day?"),
    ("date", "Reservo para amanhã à noite, ou prefere outro dia?"),
    ("date", "Do you want me to book it for Thursday the 19th of March?"),
    ("time", "Is 10:30 OK for the call, or do you want another time?"),
])
def test_a_proposed_value_is_a_guess(detail, text):
    found = problems(detail, text)
    assert found and "picks one itself" in found[0]


@pytest.mark.parametrize("detail, text", [
    ("amount", "How much should I move: €100, €300 or something else?"),
    ("amount", "Quanto quer transferir? Por exemplo, 200 €."),
    ("date", "Which day suits you, Tuesday 10 or Wednesday 11 March?"),
    ("date", "¿Qué día prefieres salir, algo como el 20 de marzo?"),
    ("time", "What time should I put it in — 9:00, 14:00?"),
])
def test_options_in_a_choice_question_are_not_guesses(detail, text):
    assert problems(detail, text) == []


@pytest.mark.parametrize("detail, text", [
    ("duration", "And how long should the meeting last?"),
    ("duration", "Quanto tempo deve durar a reunião?"),
    ("duration", "¿Cuánto debería durar la reunión?"),
    ("reason", "Why are you sending them back?"),
    ("reason", "Qual é o motivo da devolução?"),
    ("reason", "¿Cuál es la razón de la devolución?"),
])
def test_duration_and_reason_are_details(detail, text):
    assert problems(detail, text) == []
    assert problems("date" if detail == "reason" else "reason", text)


def test_a_duration_question_does_not_ask_for_the_time():
    assert problems("time", "How long should the meeting be?")
