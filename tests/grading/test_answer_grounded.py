"""The grounded rule: dates, clock times, money amounts and ids a final answer states must come
from the tool result, the user's prompt or the system prompt. Replies here are new (not the
labelled set's), in English, Portuguese and Spanish."""
from __future__ import annotations

import pytest

from toolproof.grading.answer_rules import judge
from toolproof.suite.model import PhraseRules

RULES = PhraseRules(grounded=True)
MOCKS = {"get_order": {"order_id": "ORD-310442", "status": "shipped", "shipped_at": "2026-04-07T09:15:00Z",
                       "total": -129.9, "carrier": "CTT", "slots": [{"start": "10:00", "end": "11:30"}],
                       "booking": "ZK4P7M"}}
GIVEN = ("Has my order ORD-310442 shipped? I paid €129.90 on 2 April.", "Today is 2026-04-09.")


def problems(text, mocks=MOCKS, given=GIVEN):
    return judge(RULES, text, mocks, given=given).problems


@pytest.mark.parametrize("text", [
    "Yes, ORD-310442 shipped on 7 April at 09:15 with CTT.",
    "Sim, a encomenda foi expedida a 07/04, às 9h15.",
    "Sí, se envió el 7 de abril; pagaste 129,90 € el 2 de abril.",
    "The total was $129.90 and your booking code is ZK4P7M.",
    "It went out at 10.45, within the 10:00-11:30 window.",            # inside the result's slot
    "It shipped 2 days ago, and delivery takes 24 hours; 3 items, 100% paid, in 2026.",  # no values
    "It wasn't shipped on 8 April but on 7 April.",                    # a denied date states nothing
    "Hoy es 9 de abril.",                                              # the system prompt's date
])
def test_grounded_replies_pass(text):
    assert problems(text) == []


@pytest.mark.parametrize("text, quoted", [
    ("Yes, it shipped on 17 April.", '"17 April"'),
    ("Foi enviada às 19:15.", '"19:15"'),
    ("Se envió; el total fue de 192,90 €.", '"192,90"'),
    ("Your tracking number is CTT-99812.", '"CTT-99812"'),
    ("Booking ZK4P7N is confirmed.", '"ZK4P7N"'),
    ("It will arrive on 12 April.", '"12 April"'),                     # open values count too
])
def test_invented_values_fail(text, quoted):
    found = problems(text)
    assert len(found) == 1 and found[0].startswith("final answer: grounded: states " + quoted)
    assert "neither the tool result nor the user gave" in found[0]


def test_the_reason_names_what_the_result_has():
    found = problems("Shipped on 13 April.")
    assert found == ['final answer: grounded: states "13 April" (--04-13), which neither the tool result '
                     'nor the user gave (the result has 2026-04-07)']


def test_not_checked_unless_asked():
    assert judge(PhraseRules(), "It shipped on 17 April.", MOCKS).problems == []
    assert judge(PhraseRules(), "It shipped on 17 April.", MOCKS, grounded_default=True).problems
    assert not judge(PhraseRules(grounded=False), "It shipped on 17 April.", MOCKS,
                     grounded_default=True).problems


def test_without_a_result_the_user_is_the_source():
    assert problems("You paid €129.90 on 2 April.", mocks=None) == []
    assert "which the user did not give" in problems("You paid €139.90.", mocks=None)[0]


def test_a_folder_path_must_be_the_results():
    mocks = {"search_files": {"files": [{"path": "/Home/Taxes/2024/receipts.zip"}]}}
    assert problems("It's in /Home/Taxes/2024, as receipts.zip.", mocks=mocks, given=()) == []
    found = problems("Encontré el archivo en /Documentos/Impuestos.", mocks=mocks, given=())
    assert found and '"/Documentos/Impuestos"' in found[0]
    assert problems("Use and/or 24/7 km/h.", mocks=mocks, given=()) == []


def test_the_models_own_call_arguments_are_a_source():
    # "the first week of March" sent as 2026-03-07: the answer may repeat it
    assert problems("Between 1 and 7 March you had two payments.", mocks={}, given=("first week of March",),) != []
    assert judge(RULES, "Between 1 and 7 March you had two payments.", {},
                 given=("first week of March",),
                 called=({"from": "2026-03-01", "to": "2026-03-07"},)).problems == []


def test_days_the_user_named_relative_to_today():
    given = ("Book it for next Thursday, or tomorrow if that's full.", "Today is Monday 2026-03-02.")
    assert problems("Thursday 12 March, or Tuesday 3 March as a fallback.", mocks=None, given=given) == []
    assert problems("Quinta, 5 de março?", mocks=None, given=given) == []
    found = problems("Vale, el viernes 13 de marzo.", mocks=None, given=given)
    assert found and '"13 de marzo"' in found[0]


def test_options_a_question_offers_are_not_facts():
    given = ("Set up a call next Thursday.", "Today is Monday 2026-03-02.")
    assert problems("What time on Thursday 5 March: 9:00, 10:30 or 14:00?", mocks=None, given=given) == []
    assert problems("Is 10:30 on Thursday 5 March good?", mocks=None, given=given)


def test_a_numbered_door_must_be_the_results():
    mocks = {"track": {"status": "Left with neighbour at No. 7"}}
    assert problems("Delivered to your neighbour at No. 7.", mocks=mocks, given=()) == []
    assert problems("Entregue ao vizinho do nº 17.", mocks=mocks, given=())


def test_a_value_given_to_the_wrong_item_of_a_list():
    mocks = {"search": {"offers": [{"name": "Pensão Sol", "price": 74, "departs": "08:15"},
                                   {"name": "Hostal Luna", "price": 59, "departs": "13:40"}]}}
    found = problems("Pensão Sol costs €59 a night and Hostal Luna €74.", mocks=mocks, given=())
    assert found == ['final answer: grounded: states "59" for "Pensão Sol", but the result gives 59 to "Hostal Luna"']
    assert problems("Pensão Sol cuesta 74 € y el Hostal Luna 59 €.", mocks=mocks, given=()) == []
    # the item named in the reply's own words is not read across clauses
    assert problems("A Pensão Sol sai às 08:15, e a outra pensão custa 59 €.", mocks=mocks, given=()) == []


def test_a_length_of_time_is_checked_only_against_the_results_own_unit():
    mocks = {"transfer": {"status": "held", "note": "under review for up to 72 hours"}}
    assert problems("It's under review for up to 72 hours.", mocks=mocks, given=()) == []
    assert problems("Está em análise até 72 horas; deve ficar resolvido em 3 dias.", mocks=mocks, given=()) == []
    found = problems("La revisión tarda hasta 24 horas.", mocks=mocks, given=())
    assert found and '"24 horas"' in found[0]


def test_a_further_claim_after_one_call():
    mocks = {"pay": {"status": "completed", "confirmation": "PAY-1234"}}
    rules = PhraseRules()
    def said(text, called=({"amount": 40},)):
        return judge(rules, text, mocks, after_result=True, called=called).problems
    assert said("Paid, confirmation PAY-1234.") == []
    assert said("Pago feito (PAY-1234). Também agendei o próximo para o mês que vem.")
    assert said("Done. I've also emailed you the receipt.")
    assert said("Hecho. Además he activado las alertas.")
    assert said("Done. I've also emailed you the receipt.", called=({"a": 1}, {"b": 2})) == []
    assert said("Paid. I can also email you the receipt if you like.") == []


@pytest.mark.parametrize("text", [
    "About €130 in total.",                            # 129.90 rounded
    "Dos noches a 129,90 €: 259,80 € en total.",       # a small multiple
    "Você pagou 129,90 € e o total com portes foi 129,90 €.",
])
def test_amounts_worked_out_from_given_ones(text):
    assert problems(text) == []


def test_a_far_multiple_is_not_worked_out():
    assert problems("You paid €1,299.00.")
