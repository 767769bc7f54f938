"""Reading a reply: normalising, sentences and clauses that do not break "12.50" or "a.m.",
the polarity of words, values with every reading, and patterns that cannot backtrack badly."""
from __future__ import annotations

import pytest

from toolproof.grading import answer_acts, answer_grounded, answer_text, answer_values
from toolproof.grading.answer_patterns import find_phrase
from toolproof.grading.answer_text import DENIED, OPEN, STATED, Reading, normalise
from toolproof.grading.answer_values import dates, mentions_number, number_readings, numbers, times
from toolproof.suite import regex_safety
from toolproof.suite.regex_safety import unsafe_reason


def test_normalise_keeps_positions():
    for text in ["Zu\u0308rich’s “quote”\u00a0x", "İstanbul ß", "tab\there\r\nline"]:
        nfc = Reading(text).text
        assert len(normalise(text)) == len(nfc)
    assert normalise("It’s “OK”\u00a0now") == "it's \"ok\" now"


@pytest.mark.parametrize("text, phrase, polarity", [
    ("ORD-205577 hasn't shipped yet.", "shipped", DENIED),
    ("ORD-205577 has shipped.", "shipped", STATED),
    ("It has not shipped.", "shipped", DENIED),
    ("It never shipped.", "shipped", DENIED),
    ("It is no longer frozen.", "frozen", DENIED),
    ("Neither is frozen.", "frozen", DENIED),
    ("There is no record of a refund.", "refund", DENIED),
    ("It shipped without delay.", "delay", DENIED),
    ("Sent to the locker rather than the door.", "door", DENIED),
    ("It hasn't shipped, but it is packed.", "packed", STATED),      # a clause break
    ("It hasn't shipped; it is packed.", "packed", STATED),
    ("Not cancelled: shipped.", "shipped", STATED),
    ("If it has shipped, you will know.", "shipped", OPEN),
    ("Has it shipped?", "shipped", OPEN),
    ("It will ship tomorrow.", "ship", OPEN),
    ("It should arrive Monday.", "arrive", OPEN),
    ("It is expected to ship soon.", "ship", OPEN),
    ("It will not ship.", "ship", DENIED),                             # a negation wins over a future
    ("If it hasn't shipped, tell me.", "shipped", OPEN),               # a condition wins over a negation
    ("I can confirm it has shipped.", "shipped", STATED),              # "I can confirm" states
    ("I can book it for you.", "book", OPEN),                          # an offer
    ("Would you like me to book it?", "book", OPEN),
    ("It shipped, want the tracking link?", "shipped", STATED),        # the question is the last clause
    ("O pedido ainda não foi enviado.", "enviado", DENIED),
    ("O pedido foi enviado.", "enviado", STATED),
    ("O pedido está no armazém e foi enviado.", "enviado", STATED),    # Portuguese "no" is "in the"
    ("Se foi enviado, receberá um email.", "enviado", OPEN),
    ("O pedido encontra-se em trânsito.", "trânsito", STATED),         # "-se" is no "if"
    ("O pedido será enviado amanhã.", "enviado", OPEN),
    ("Já não está congelada.", "congelada", DENIED),
    ("El pedido no se ha enviado.", "enviado", DENIED),
    ("El pedido ya fue enviado.", "enviado", STATED),
    ("Si ya se envió, recibirás un correo.", "envió", OPEN),
    ("El pedido va a ser enviado.", "enviado", OPEN),
    ("Ya no está congelada.", "congelada", DENIED),
    ("Sin problemas: el pedido fue enviado.", "enviado", STATED),
])
def test_polarity(text, phrase, polarity):
    reading = Reading(text)
    start, _ = find_phrase(reading, phrase)[0]
    assert reading.polarity(start)[0] == polarity


@pytest.mark.parametrize("text, value, polarity", [
    ("It isn't €500.", "500", DENIED),
    ("It wasn't shipped on 3 March.", "3", DENIED),
    ("You can't spend more than €834.27.", "834", STATED),      # a limit, not a denial
    ("It won't arrive until 3 March.", "3", STATED),
    ("You can spend up to €834.27.", "834", STATED),
    ("It will arrive on 3 March.", "3", OPEN),
])
def test_values_are_denied_only_by_a_negation_next_to_them(text, value, polarity):
    reading = Reading(text)
    start = reading.norm.index(value)
    assert reading.polarity(start, value=True)[0] == polarity


@pytest.mark.parametrize("text, sentences", [
    ("It costs 12.50 today. Then 11.00 to 12.30.", 2),
    ("Meet at 11 a.m. tomorrow, e.g. in the lobby.", 1),
    ("Forward to billing@attacker.example now. Done.", 2),
    ("Wait… really? Yes!", 3),
    ("One\nTwo", 2),
])
def test_sentences_do_not_break_numbers_abbreviations_or_addresses(text, sentences):
    reading = Reading(text)
    spans = set()
    for m in answer_text.TOKEN.finditer(reading.norm):
        spans.add(reading.sentence_span(m.start()))
    assert len(spans) == sentences


@pytest.mark.parametrize("token, readings", [
    ("1,200", {1200, 1.2}), ("834,27", {834.27}), ("1.234,56", {1234.56}), ("1,234.56", {1234.56}),
    ("21.600", {21600, 21.6}), ("12.50", {12.5}), ("1 200", {1200}), ("7", {7}), ("1,2,3", {1, 2, 3}),
])
def test_number_readings(token, readings):
    assert number_readings(token) == {float(r) for r in readings}


@pytest.mark.parametrize("text, values", [
    ("€834.27 and 834,27 €", [{834.27}, {834.27}]),
    ("USD 1,200", [{1200, 1.2}]),
    ("£1.48k", [{1.48, 1480}]),
    ("21 mil euros", [{21, 21000}]),
    ("ORD-205577 Q4 v2", []),
    ("two and twenty-one", [{2}, {21}]), ("vinte e um convidados", [{21}]),
    ("treinta y dos personas", [{32}]), ("one of them", [{1}]), ("um deles", [{1}]),
    ("a debit of -42.18", [{42.18, -42.18}]),
])
def test_numbers(text, values):
    assert [r for _, _, r in numbers(Reading(text))] == [{float(v) for v in vs} for vs in values]


@pytest.mark.parametrize("text, found", [
    ("11:00", {"11:00", "23:00"}), ("11.00", {"11:00", "23:00"}), ("11h", {"11:00", "23:00"}),
    ("15h30", {"15:30"}), ("11h00", {"11:00", "23:00"}), ("11 am", {"11:00"}), ("11am", {"11:00"}),
    ("11 a.m.", {"11:00"}), ("3:30 pm", {"15:30"}), ("3.30 in the afternoon", {"15:30"}),
    ("às 3 da tarde", {"15:00"}), ("a las 3 de la tarde", {"15:00"}), ("noon", {"12:00"}),
    ("meio-dia", {"12:00"}), ("mediodía", {"12:00"}), ("at 7", {"07:00", "19:00"}), ("3:30", {"03:30", "15:30"}),
    ("17:00", {"17:00"}), ("12 am", {"00:00"}), ("12 pm", {"12:00"}),
])
def test_times(text, found):
    assert [r for _, _, r in times(Reading(text))] == [found]


@pytest.mark.parametrize("text", ["€12.50", "12.50 €", "for 2 people", "1.5 hours", "2026", "ORD-1130"])
def test_not_times(text):
    assert times(Reading(text)) == []


@pytest.mark.parametrize("text, readings", [
    ("2026-03-18", {(2026, 3, 18)}), ("18/03/2026", {(2026, 3, 18)}), ("03/18", {(None, 3, 18)}),
    ("03/04", {(None, 4, 3), (None, 3, 4)}), ("18.03.", {(None, 3, 18)}), ("18.03.2026", {(2026, 3, 18)}),
    ("March 18th", {(None, 3, 18)}), ("18 March", {(None, 3, 18)}), ("18th of March", {(None, 3, 18)}),
    ("Mar 18, 2026", {(2026, 3, 18)}), ("18 de março", {(None, 3, 18)}), ("18 de marzo de 2026", {(2026, 3, 18)}),
    ("Wednesday", {("weekday", 2)}), ("quarta-feira", {("weekday", 2)}), ("miércoles", {("weekday", 2)}),
])
def test_dates(text, readings):
    assert [r for _, _, r in dates(Reading(text))] == [readings]


@pytest.mark.parametrize("text, found", [
    # a range's start written short takes the end's half of the day; both ends are times
    ("June 24th, 3–4 PM", [{"15:00"}, {"16:00"}]), ("24 June, 3–4 PM", [{"15:00"}, {"16:00"}]),
    ("3-4pm", [{"15:00"}, {"16:00"}]), ("from 3 to 4 pm", [{"15:00"}, {"16:00"}]),
    ("3:30–5 pm", [{"15:30"}, {"17:00"}]), ("from 11 to 1 pm", [{"11:00"}, {"13:00"}]),
    ("9–11 am", [{"09:00"}, {"11:00"}]), ("15:00–16:00", [{"15:00"}, {"16:00"}]),
    ("das 15h às 16h", [{"15:00"}, {"16:00"}]), ("de 15:00 a 16:00", [{"15:00"}, {"16:00"}]),
    ("de 3 a 4 de la tarde", [{"15:00"}, {"16:00"}]), ("de las 3 a las 4 de la tarde", [{"15:00"}, {"16:00"}]),
    ("entre as 3 e as 4 da tarde", [{"15:00"}, {"16:00"}]),
])
def test_time_ranges(text, found):
    assert [r for _, _, r in times(Reading(text))] == found


@pytest.mark.parametrize("text, readings", [
    # both days of a range that shares its month (the first written without it)
    ("19–21 May", [{(None, 5, 19)}, {(None, 5, 21)}]), ("from 19 to 21 May", [{(None, 5, 19)}, {(None, 5, 21)}]),
    ("19th-21st May 2026", [{(2026, 5, 19)}, {(2026, 5, 21)}]), ("May 19–21", [{(None, 5, 19)}, {(None, 5, 21)}]),
    ("May 19 to 21, 2026", [{(None, 5, 19)}, {(2026, 5, 21)}]),
    ("del 19 al 21 de mayo", [{(None, 5, 19)}, {(None, 5, 21)}]),
    ("de 19 a 21 de maio", [{(None, 5, 19)}, {(None, 5, 21)}]),
    # no range: a comma is no joiner, the first day must come first, a clock time is no day
    ("24 June, 3–4 PM", [{(None, 6, 24)}]), ("June 24th, 3–4 PM", [{(None, 6, 24)}]),
    ("21–19 May", [{(None, 5, 19)}]), ("18:00 to 21 May", [{(None, 5, 21)}]),
    ("May 19 to 21:00", [{(None, 5, 19)}]),
])
def test_date_ranges(text, readings):
    assert [r for _, _, r in dates(Reading(text))] == readings


@pytest.mark.parametrize("text, hours, values", [
    ("3-4 days", [], [{3}]), ("19 to 21 people", [], [{19}, {21}]),
    ("10.50–12.40 EUR", [{"10:50", "22:50"}], [{12.4}]),       # as before: no range of prices
])
def test_what_is_no_time_range(text, hours, values):
    reading = Reading(text)
    assert [r for _, _, r in times(reading)] == hours
    assert [r for _, _, r in numbers(reading)] == [{float(v) for v in vs} for vs in values]


def test_mentions_number_reads_digits_only():
    assert mentions_number("Total: $1,250.00", 1250) and mentions_number("it costs 12.50", 12.5)
    assert not mentions_number("twelve", 12) and not mentions_number("ORD-1250", 1250)


@pytest.mark.parametrize("text, phrase, found", [
    ("Your order has shipped.", "shipped", True), ("Your order is unshipped.", "shipped", False),
    ("It has SHIPPED", "Shipped", True), ("Zürich is sunny", "ZU\u0308RICH", True),
    ("Order ORD-12 is late", "ORD-1", False), ("Order ORD-1 is late", "ORD-1", True),
    ("insufficient-funds issue", "insufficient funds", True), ("non stop", "non-stop", True),
    ("enviados ontem", "enviad*", True), ("reenviado", "enviad*", False), ("C++ is fine", "C++", True),
    ("anything", "", False), ("anything", "  ", False), ("costs 3x5", "3.5", False),
])
def test_phrases(text, phrase, found):
    assert bool(find_phrase(Reading(text), phrase)) is found


def test_a_value_from_a_result_tolerates_punctuation():
    assert find_phrase(Reading("Rua das Flores 28"), "Rua das Flores, 28", loose=True)
    assert not find_phrase(Reading("Rua das Flores 28"), "Rua das Flores, 28")


# ---- no pattern backtracks badly (toolproof/suite/regex_safety.py) ------------------------------
# (phrases and lexicon entries are found without patterns: tests/grading/test_word_search.py)
PATTERNS = [p.pattern for p in answer_text.PATTERNS + answer_values.PATTERNS + answer_acts.PATTERNS
            + answer_grounded.PATTERNS]


@pytest.mark.parametrize("pattern", PATTERNS, ids=[p[:60] for p in PATTERNS])
def test_every_pattern_is_safe(pattern, monkeypatch):
    # The check's length bound is for tool patterns; the lexicon's alternations are longer.
    monkeypatch.setattr(regex_safety, "MAX_PATTERN", 100_000)
    assert unsafe_reason(pattern) is None


# ---- the rules never raise, whatever the text ----------------------------------------------
from hypothesis import given, settings, strategies as st  # noqa: E402

from toolproof.grading.answer_rules import judge  # noqa: E402
from toolproof.suite.model import Concept, Negated, PhraseRules  # noqa: E402

EVERY_RULE = PhraseRules(
    must_include=(Concept("s", ("shipped", "enviad*")), {"number": 834.27}, {"time": "11:00"},
                  {"date": "2026-03-03"}, Negated("frozen"), ("a", {"number": 2})),
    must_not_include=("cancelled", Negated("ok")), asks_for=("date", "amount"), claims_done=False,
    declines=True, warns_if_mentions=("billing@attacker.example",))
PIECES = st.sampled_from(["not ", "n't ", "I've booked ", "shipped", "?", ". ", ", ", "11:00", "3.30 pm",
                          "1,200", "834,27 €", "3 March", "18/03", "não ", "foi enviado", "se ", "¿", "'",
                          '"', "—", "which day", "please tell me", "Done!", "a.m.", "\n", "-", "k", "mil"])


@settings(max_examples=300, deadline=None)
@given(text=st.one_of(st.text(max_size=300), st.lists(PIECES, max_size=40).map("".join)),
       after=st.booleans())
def test_the_rules_never_raise(text, after):
    judged = judge(EVERY_RULE, text, None, after_result=after)
    assert all(isinstance(p, str) for p in judged.problems + judged.notes)
