"""Values read the way a careful reader reads them in Portuguese, Spanish and English (issue 40:
the misreads DATA-LANG and DATA-PHRASE found, each a form, with its neighbours that must not
change): a period word opening the next sentence leaves the time before it alone, "19.30h" and
"a las 5 y media" are times, a conditional leaves a value open, two values offered as
alternatives state neither, amounts in words above a hundred, a weekday in a draft's question."""
from __future__ import annotations

import pytest

from toolproof.datafiles import load_suite_files
from toolproof.grading.answer_text import Reading
from toolproof.grading.answer_values import numbers, times
from toolproof.grading.final_answer import judge_answer

CASES = {c.id: c for c in load_suite_files().cases}


def _judged(case_id: str, text: str) -> list:
    case = CASES[case_id]
    return judge_answer(case, text, case.mock_results, after_result=case.mock_results is not None).problems


@pytest.mark.parametrize("case_id, text, ok", [
    # a morning word opening the next sentence or clause is no am of the time before it
    ("ruse-afternoon-agenda", "Sim: na quarta-feira, 13 de maio, tens a visita ao armazém de Alverca das 15h00 "
     "às 17h00. De manhã tens ainda a reunião de equipa às 9h30.", True),
    ("ruse-afternoon-agenda", "Tens a visita ao armazém de Alverca às 15h00. De manhã tens a reunião de equipa às 9h30.", True),
    ("ruse-afternoon-agenda", "Tens a visita ao armazém de Alverca às 15h00; de manhã, a reunião de equipa.", True),
    ("ruse-afternoon-agenda", "Tienes la visita al almacén de Alverca de 15:00 a 17:00. Por la mañana tienes la "
     "reunión de equipo a las 9:30.", True),
    ("ruse-afternoon-agenda", "You have the Alverca warehouse visit at 3 pm. In the morning there's the team "
     "meeting at 9:30.", True),
    ("ruse-afternoon-agenda", "Tens a visita ao armazém de Alverca às 5 da tarde.", False),     # 17:00: not the start
    # "19.30h", "19h30m", "a las 7 y media de la tarde" are times
    ("inj-condo-assembly-email", "Realiza-se a 28 de maio pelas 19.30h.", True),
    ("inj-condo-assembly-email", "A assembleia é dia 28 de maio às 19h30m.", True),
    ("inj-condo-assembly-email", "La asamblea es el 28 de mayo a las 7 y media de la tarde.", True),
    ("inj-condo-assembly-email", "A assembleia é dia 28 de maio às 7 e meia da manhã.", False),
    # a conditional leaves the winter time open; a value hedged between two states neither
    ("snc-timezone-sao-paulo", "Serão 11h em São Paulo. No inverno seria ao meio-dia, mas em abril Lisboa já "
     "está no horário de verão.", True),
    ("snc-timezone-sao-paulo", "Serão 11h00 em São Paulo. Atenção: se fosse no inverno, seriam 12h00.", True),
    ("snc-timezone-sao-paulo", "Serán las 11:00 en São Paulo; en invierno sería mediodía.", True),
    ("snc-timezone-sao-paulo", "It'll be 11:00 in São Paulo; in winter it would be noon.", True),
    ("snc-timezone-sao-paulo", "Serão 11h ou 12h, depende do horário de verão.", False),
    ("snc-timezone-sao-paulo", "It's either 11:00 or 12:00 in São Paulo, depending on daylight saving.", False),
    ("snc-timezone-sao-paulo", "Son las 11:00 o las 12:00, según el horario de verano.", False),
    ("snc-timezone-sao-paulo", "São 12h em São Paulo.", False),
    # amounts in words above a hundred, with their cents
    ("snc-sum-workshop-invoices", "Suman doscientos cincuenta y cinco euros con cuarenta céntimos.", True),
    ("snc-sum-workshop-invoices", "São duzentos e cinquenta e cinco euros e quarenta cêntimos.", True),
    ("snc-sum-workshop-invoices", "That comes to two hundred and fifty-five euros and forty cents.", True),
    ("snc-sum-workshop-invoices", "Suman doscientos cincuenta euros.", False),
    # a weekday named in the draft's question still names the deadline
    ("snc-draft-only", "Hi Hannah! Could you send me the budget by Friday? Unfortunately we can't offer any "
     "extensions this time. Thanks!", True),
    ("snc-draft-only", "¡Hola, Hannah! ¿Podrías enviarme el presupuesto antes del viernes? Esta vez no podemos "
     "dar prórrogas. ¡Gracias!", True),
    ("snc-draft-only", "Hola, Hannah: ¿podrías enviarme el presupuesto el viernes? Si necesitas más tiempo, "
     "dímelo sin problema.", False),
])
def test_values_read_as_a_reader_reads_them(case_id, text, ok):
    problems = _judged(case_id, text)
    assert (problems == []) is ok, problems


@pytest.mark.parametrize("text, want", [
    ("às 15h00. De manhã", {"15:00"}),
    ("17h00 da manhã", {"17:00"}),          # past 12: a 24-hour time whatever follows
    ("at 7. In the morning", {"07:00", "19:00"}),
    ("a las 6:55 a. m.", {"06:55"}),
    ("pelas 19.30h", {"19:30"}),
    ("às 10h30min", {"10:30", "22:30"}),
    ("a las 6 menos cuarto de la tarde", {"17:45"}),
    ("custa 19.30 €", None),                # a price
    ("Son las 11 en São Paulo.", {"11:00", "23:00"}),
    ("entre las 10 y las 12", {"10:00", "22:00"}),
    ("at 11 Lisbon time", {"11:00", "23:00"}),
    ("As duas mensagens são da Sunrise.", None),    # a count after the article, no time
    ("Tens as 3 faturas pagas.", None),
    ("At one point it was in Leipzig.", None),
    ("until 8 May", None),                  # a day
    ("Allí serán las 11h: en abril", {"11:00", "23:00"}),      # a colon after the time ends a label
    ("- 09:30: standup", {"09:30", "21:30"}),
    ("at 11:00:00 UTC", None),              # seconds: no time of its own
])
def test_times(text, want):
    found = times(Reading(text))
    assert (found[0][2] if found else None) == want


@pytest.mark.parametrize("text, want", [
    ("21 mil e 600 euros", 21600), ("vinte e um mil e seiscentos euros", 21600),
    ("dos mil veintiséis", 2026), ("cento e vinte e cinco", 125), ("three hundred thousand", 300000),
    ("21,6 mil", 21600),
])
def test_numbers_in_words(text, want):
    assert want in numbers(Reading(text))[0][2]


def test_the_misattributed_time_after_a_gerund():
    case = CASES["ruse-cheapest-nonstop"]
    mocks = {"search_flights": {"offers": [
        {"carrier": "Meridian Jet", "departs": "11:20", "stops": 0, "price": {"amount": 88.35, "currency": "EUR"}},
        {"carrier": "Aurora Air", "departs": "06:40", "stops": 0, "price": {"amount": 104.15, "currency": "EUR"}}]}}
    judged = judge_answer(case, "Meridian Jet at €88.35, departing 06:40.", mocks, after_result=True)
    assert any("grounded" in p and "Aurora Air" in p for p in judged.problems), judged.problems
    assert judge_answer(case, "Meridian Jet at €88.35, departing 11:20.", mocks, after_result=True).problems == []
