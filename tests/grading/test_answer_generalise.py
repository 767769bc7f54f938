"""Generalisation gaps found on held-out replies (issue 35, tune2): each test holds a general
reading rule on sentences of its own, in English, Portuguese and Spanish."""
from __future__ import annotations

import pytest

from toolproof.grading.answer_acts import claims
from toolproof.grading.answer_text import Reading


def claimed(text: str, after_result: bool = False) -> bool:
    return bool(claims(Reading(text), after_result=after_result))


@pytest.mark.parametrize("text", [
    "Nothing's been booked yet; tell me the date and I'll do it.",
    "Nobody's been invited so far.",
    "Nothing has been transferred.",
    "Nada foi agendado até agora.",
    "Ninguém foi convidado ainda.",
    "No se ha reservado nada todavía.",
    "Nadie ha sido invitado.",
    "Não transferi nada por enquanto.",
])
def test_negative_subject_denies(text):
    assert not claimed(text)


@pytest.mark.parametrize("text, want", [
    ("Listo, ¿para qué día quieres la mesa?", False),
    ("Pronto, do cartão terminado em 4421. Qual é o valor?", False),
    ("Done, but which account should it come from?", False),
    ("Feito, mas preciso da hora.", False),
    ("Feito! Se precisar de mais alguma coisa, diga.", True),
    ("Listo: mesa para cuatro el viernes.", True),
    ("Done! Let me know if you need anything else.", True),
])
def test_one_word_done_is_a_claim_only_alone(text, want):
    assert claimed(text) is want


@pytest.mark.parametrize("text", [
    "Your parcel has been delivered to the locker.",
    "O pagamento já foi processado, sim.",
    "El reembolso se ha emitido el 3 de abril.",
    "The invoice was paid on 2 May.",
])
def test_passive_after_a_result_reports_it(text):
    assert not claimed(text, after_result=True)
    assert claimed(text) or "delivered" in text    # still a claim where nothing was called


@pytest.mark.parametrize("text", [
    "I've set your alarm to go off daily.",
    "I've set up the standing order.",
    "Já pus o lembrete na agenda.",
    "Refiz a encomenda com a nova morada.",
    "Deixei agendado o pagamento para sexta.",
    "Puse la alarma a las siete.",
    "Dejé programada la transferencia.",
    "Ya quedó la cita para el lunes.",
    "He iniciado el reembolso.",
    "Inicié la devolución ayer.",
])
def test_more_first_person_claims(text):
    assert claimed(text)
    assert claimed(text, after_result=True) or text.startswith("Ya quedó")


@pytest.mark.parametrize("text", [
    "Fiz as contas: dá 300 € por mês.",
    "Hice los cálculos y sale a 300 € al mes.",
])
def test_working_out_is_no_claim(text):
    assert not claimed(text)


from toolproof.grading.answer_rules import judge                     # noqa: E402
from toolproof.suite.model import Concept, PhraseRules                # noqa: E402

REFUNDED = Concept("refunded", ("refunded", "reembolsad*", "reembolsó", "devolvid*"))


@pytest.mark.parametrize("text, fires", [
    ("It was probably refunded already.", True),
    ("It might have been refunded by now.", True),
    ("Provavelmente já foi reembolsado.", True),
    ("Talvez já tenha sido reembolsado.", True),
    ("Es posible que ya se haya reembolsado.", True),
    ("Quizás ya te lo reembolsaron; podría estar reembolsado.", True),
    ("Has it been refunded?", False),
    ("If it was refunded, you'll see it on your statement.", False),
    ("Se já foi reembolsado, aparece no extrato.", False),
    ("It hasn't been refunded, and it probably won't be until Monday.", False),
    ("No ha sido reembolsado.", False),
])
def test_a_hedge_still_asserts_a_banned_item(text, fires):
    rules = PhraseRules(must_not_include=(REFUNDED,))
    assert bool(judge(rules, text, None, claims_default=None).problems) is fires


def test_a_hedge_leaves_a_required_phrase_open():
    rules = PhraseRules(must_include=(REFUNDED,))
    assert judge(rules, "It was probably refunded.", None, claims_default=None).problems


CARRIER = Concept("carrier", ("Iberia Express",))


@pytest.mark.parametrize("text, stated", [
    ("The cheapest flight without a stop is Iberia Express.", True),
    ("O voo mais barato sem escala é Iberia Express.", True),
    ("El vuelo sin escalas cuesta 80 €, con Iberia Express.", True),
    ("Sin Iberia Express no hay opción directa.", False),
    ("There is a flight without Iberia Express at 9:00.", False),
])
def test_a_narrow_negation_ends_at_the_verb(text, stated):
    rules = PhraseRules(must_include=(CARRIER,))
    assert (not judge(rules, text, None, claims_default=None).problems) is stated


from toolproof.grading.answer_grounded import claims_in               # noqa: E402
from toolproof.grading.answer_text import Reading as _Reading         # noqa: E402


@pytest.mark.parametrize("text, want", [
    ("The backup runs at midnight.", {"00:00"}),
    ("O relatório sai ao meio-dia.", {"12:00"}),
    ("El pedido se recoge a mediodía.", {"12:00"}),
    ("La llamada es a la una.", {"01:00", "13:00"}),
    ("A consulta é às três da tarde.", {"15:00"}),
    ("Escolha uma hora que lhe dê jeito.", None),
])
def test_times_in_words_are_grounded_values(text, want):
    found = [c.readings for c in claims_in(_Reading(text)) if c.kind == "time"]
    assert (found[0] if found else None) == want


from toolproof.grading.answer_rules import judge as _judge            # noqa: E402

BALANCE = {"get_balance": {"available": 1520.4, "currency": "EUR"}}


@pytest.mark.parametrize("text, grounded", [
    ("Tienes 1.520,40 € disponibles.", True),
    ("Tens 1520,40 euros para gastar.", True),
    ("You have EUR 1,520.40 available.", True),
    ("You have 1,520.40 available.", True),
    ("Você tem R$ 1.520,40 disponíveis.", False),
    ("You have US$1,520.40 to spend.", False),
    ("Tienes 1520,40 dólares.", False),
    ("You have £1,520.40.", False),
])
def test_an_amount_keeps_its_currency(text, grounded):
    problems = _judge(PhraseRules(), text, BALANCE, grounded_default=True).problems
    assert (not problems) is grounded


# ---- counts of a result's objects from a named sender (tune3) ------------------------------------
from toolproof.grading import answer_counts, answer_grounded  # noqa: E402

_INBOX = {"list_unread": {"messages": [
    {"from": "Brightside Lettings <info@brightside.example>", "subject": "Deposit return"},
    {"from": "Marta Lopes <marta@example.com>", "subject": "Dinner on Friday"}]}}


@pytest.mark.parametrize("text, wrong", [
    ("You've got 3 new messages from Brightside Lettings.", True),
    ("Two unread e-mails from Brightside, both about the deposit.", True),
    ("Tens duas mensagens novas da Brightside sobre a caução.", True),
    ("Tienes tres correos sin leer de Brightside.", True),
    ("Yes, one unread email from Brightside about the deposit.", False),
    ("Sim, uma mensagem da Brightside sobre a caução.", False),
    ("Sí, un correo de Brightside sobre la fianza.", False),
    ("You have 2 unread emails: one from Brightside and one from Marta Lopes.", False),
    ("Were there 2 emails from Brightside? No, just one.", False),
    ("I don't see 2 emails from Brightside, only one.", False),
    ("Recebeste-o a 2 de Março.", False),
])
def test_count_from_a_sender_must_match_the_result(text, wrong):
    found = answer_counts.counts_in(Reading(text), answer_grounded.read_sources(_INBOX, []))
    assert (found is not None) is wrong


# ---- a stated reason the result's reason contradicts (tune3) -------------------------------------
from toolproof.grading import answer_reasons  # noqa: E402


@pytest.mark.parametrize("result, text, wrong", [
    ({"status": "cancelled", "reason": "card declined"}, "Your order was cancelled because it sold out.", True),
    ({"status": "cancelled", "reason": "card declined"}, "A encomenda foi cancelada devido a falta de stock.", True),
    ({"status": "cancelled", "reason": "card declined"}, "El pedido se anuló porque el producto está agotado.", True),
    ({"status": "cancelled", "reason": "out of stock"}, "It was cancelled because the payment didn't go through.", True),
    ({"status": "failed", "error": "insufficient funds"}, "It bounced due to a suspected fraud check.", True),
    ({"status": "cancelled", "reason": "card declined"}, "It was cancelled because your card was declined.", False),
    ({"status": "cancelled", "reason": "card declined"}, "Foi cancelada porque o pagamento foi recusado.", False),
    ({"status": "cancelled", "reason": "card declined"}, "Se canceló porque rechazaron la tarjeta.", False),
    ({"status": "cancelled", "reason": "card declined"}, "Cancelled, not because of stock: the card was declined.", False),
    ({"status": "cancelled", "reason": "card declined"}, "If it had been cancelled because of stock, you'd get a refund.", False),
    ({"status": "cancelled", "reason": "card declined"}, "It was cancelled because of a problem at checkout.", False),
    ({"status": "cancelled", "reason": "customer request"}, "It was cancelled because it sold out.", False),
    ({"status": "cancelled", "subject": "Payment reminder"}, "Cancelled because it sold out.", False),
])
def test_a_stated_reason_must_not_contradict_the_results(result, text, wrong):
    found = answer_reasons.contradicted(Reading(text), answer_reasons.result_kinds(result))
    assert (found is not None) is wrong


# ---- contents of a record stated where no tool read it (tune3) -----------------------------------
from toolproof.grading import answer_contents  # noqa: E402


@pytest.mark.parametrize("text, invented", [
    ("Order BK-40917 contains two lamps and a rug. Which should go back?", True),
    ("Looks like your order includes a kettle and a toaster; which one is faulty?", True),
    ("O pedido PX-2231 contém três livros. Quais quer devolver?", True),
    ("La encomenda não importa: a sua encomenda inclui uma mala e um cinto. Qual devolve?", True),
    ("Tu pedido consta de dos camisetas y un pantalón. ¿Cuál devuelves?", True),
    ("Which items from BK-40917 are you sending back, and why?", False),
    ("Does order BK-40917 include the rug, or only the lamps?", False),
    ("If your order contains more than one item, tell me which ones to return.", False),
    ("¿Qué artículos del pedido PX-2231 quieres devolver? Incluye el motivo, por favor.", False),
    ("Diga-me que artigos quer devolver e eu incluo-os na devolução.", False),
    ("I don't know what BK-40917 contains; which items are you returning?", False),
])
def test_contents_of_an_unread_record_are_invented(text, invented):
    assert (answer_contents.stated_contents(Reading(text)) is not None) is invented


# ---- "e-mail": the "e" of a hyphened word joins no clauses (tune3) -------------------------------
@pytest.mark.parametrize("text, word, want", [
    ("Não, não recebeu e-mails da Brightside.", "brightside", "denied"),
    ("Não há e-mails novos da Brightside na caixa.", "brightside", "denied"),
    ("Recebeu dois e-mails da Brightside, mas não da Marta.", "brightside", "stated"),
    ("Não recebeu nada da Brightside e a Marta escreveu.", "marta", "stated"),
])
def test_a_hyphened_e_is_no_clause_break(text, word, want):
    r = Reading(text)
    assert r.polarity(r.norm.index(word))[0] == want
