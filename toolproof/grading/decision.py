"""The observed decision of a reply's first turn, in When2Call's four ways: `call`, `ask`,
`answer` or `decline`. The diagnosis' four-way table (scoring/four_way.py) sets it against the
decision the case expects.

The rule (docs/diagnosis.md "Decide: four ways" says the same for users):
- `call`: the turn holds a tool call, whatever its text says.
- Otherwise the text is read with answer_acts, in English, Portuguese or Spanish:
  - `decline`: an honest decline of the request (answer_acts.declines: "I can't reschedule
    events", "não tenho acesso", "no dispongo de ninguna herramienta"). A decline bound to
    information the user can give is no decline but an ask: "I can't book it without the date",
    "não consigo pagar sem saber o montante", "no puedo reservar hasta que me digas la hora"
    (a without / until / unless / need word after it in its sentence). A hedge is no decline
    either: "I can't be sure, but ...", "não posso garantir", "no te puedo asegurar".
  - `ask`: the reply asks the user for something before it goes on: the asking clause of a
    question, a request form ("please tell me", "diga-me", "dime") or a stated lack followed by a
    question (answer_acts.asking_spans), or an info-bound decline. A courtesy closer ("let me
    know if you need anything else", "se precisar de mais alguma coisa", "¿algo más?") and an
    offer of a further action ("would you like me to ...?", "quer que ...?", "¿quieres que ...?")
    are not asks, unless the offer asks the user to choose ("... Tuesday or Wednesday?").
  - `answer`: any other reply with no call, an empty one included.
- A reply that both declines and asks: a capability decline wins ("I can't issue refunds.
  Which order is it?" declines); an info-bound one is the ask it leads to.

Pure: no I/O.
"""
from __future__ import annotations

from bisect import bisect_left

from . import answer_acts as acts
from .answer_patterns import find_entries
from .answer_text import TOKEN, Reading

CALL, ASK, ANSWER, DECLINE = "call", "ask", "answer", "decline"
LABELS = (CALL, ASK, ANSWER, DECLINE)
HEDGE_REACH = 40        # characters after a decline form that its hedge is looked for in

# After a decline form in its clause: the decline waits on something the user can give.
INFO_BOUND = {
    "en": ("without", "until", "unless", "before you", "before i know"),
    "pt": ("sem", "até", "a menos que", "antes de"),
    "es": ("sin", "hasta", "a menos que", "antes de"),
}
# Anywhere in a decline's sentence: what the model needs from the user ("No puedo usar un enlace
# público ..., así que necesito el correo").
NEEDS = {
    "en": ("i need", "i'll need", "i would need", "i'd need", "i still need", "need to know"),
    "pt": ("preciso", "precisaria", "necessito", "falta-me", "faltam-me"),
    "es": ("necesito", "necesitaría", "me falta", "me faltan"),
}
# Portuguese and Spanish modals that are request forms in a question and statements outside one.
STATING_MODALS = frozenset(("pode", "podes", "poderia", "puedes", "puede", "podrías", "podría"))
# Right after a decline form: a hedge on what follows, not a refusal to do it.
HEDGED = {
    "en": ("be sure", "be certain", "be completely sure", "be 100% sure", "guarantee", "promise",
           "say for sure", "say for certain", "know for sure", "know for certain"),
    "pt": ("garantir", "ter a certeza", "ter certeza", "prometer", "assegurar", "dizer ao certo",
           "dizer com certeza"),
    "es": ("garantizar", "asegurar", "prometer", "estar seguro", "estar segura", "decir con certeza",
           "saber con certeza"),
}
# In an asking clause's sentence: it closes an answer politely, it asks nothing.
COURTESY = {
    "en": ("anything else", "if you need anything", "if you need help", "if you need more", "if you need any",
           "if you have any", "if you ever", "want help", "need help", "further help", "more help", "any other questions", "any questions",
           "feel free", "hope this helps", "happy to help if", "glad to help"),
    "pt": ("mais alguma coisa", "mais alguma questão", "mais alguma dúvida", "se precisar", "se precisares",
           "qualquer dúvida", "precisar de ajuda", "quiser ajuda", "qualquer questão", "outra coisa", "estou à disposição", "fico à disposição"),
    "es": ("algo más", "si necesitas", "si necesita", "cualquier duda", "necesitas ayuda", "quieres ayuda", "necesita ayuda", "cualquier otra", "otra cosa",
           "estoy a tu disposición", "no dudes"),
}
# In an asking clause's sentence: it offers a further action.
OFFERS = {
    "en": ("would you like me to", "would you like me", "do you want me to", "want me to", "shall i",
           "should i", "if you want", "if you'd like", "if you would like", "if you like", "want a",
           "would you like a", "how about", "what about", "what do you think"),
    "pt": ("quer que", "queres que", "deseja que", "gostaria que eu", "pretende que", "se quiser",
           "se quiseres", "se pretender", "se desejar", "que tal", "o que acha", "o que achas"),
    "es": ("quieres que", "quiere que", "desea que", "te gustaría que", "le gustaría que", "si quieres",
           "si lo deseas", "si desea", "qué tal", "qué te parece", "qué le parece"),
}
# In an offer's sentence: the offer asks leave to do what was asked ("Shall I go ahead?").
PROCEED = {"en": ("go ahead", "proceed"), "pt": ("avance", "avanço", "prossiga", "prossigo", "avançar", "prosseguir"),
           "es": ("adelante", "procedo", "proceda", "proceder")}
# After a decline, the user can still give what is missing and the task goes on ("I can't look
# up their contact, but if you give me the email I'll send it"): the reply asks.
USER_CAN_GIVE = {
    "en": ("if you give me", "if you tell me", "if you share", "if you provide", "if you send me",
           "if you let me know", "if you can give me", "if you can tell me", "if you can share",
           "once you tell me", "once you give me", "once you share", "once you provide", "once you send",
           "as soon as you tell me", "as soon as you give me", "once i have"),
    "pt": ("se me der", "se me disser", "se me indicar", "se me enviar", "se me passar", "se me deres",
           "se me disseres", "se me indicares", "se me puder dar", "se me puder indicar", "assim que me",
           "quando me disser", "quando me indicar"),
    "es": ("si me das", "si me dices", "si me indicas", "si me pasas", "si me envías", "si me facilitas",
           "si me da", "si me dice", "si me indica", "si me puedes dar", "si me puedes decir", "en cuanto me",
           "cuando me digas", "cuando me indiques"),
}
LINE_REACH = 400        # characters back from a question that its line's start is looked for in
OFFER_ALONE_WORDS = 6   # words outside an offer's sentence below which the offer is the whole reply
# Request words that are also a third person's verb: they ask only at the head of their clause.
HEAD_ONLY = frozenset(("indica", "indique", "informa", "informe", "confirma", "confirme", "diga", "escolha",
                       "especifica", "especifique", "elige", "elija"))
REQUEST_NOT_ASKING = frozenset(("without", "sem", "sin"))   # "without a return" states, unless a decline is bound to it


def decision_of(called: bool, text: str) -> str:
    """`call` when the turn called a tool; otherwise `decline`, `ask` or `answer` from its text."""
    if called:
        return CALL
    reading = Reading(text or "")
    declined = _capability_decline(reading)
    if declined is None:
        return ANSWER
    if declined:
        return DECLINE
    # declined is False: only info-bound declines, which ask
    return ASK


def _capability_decline(reading: Reading) -> bool | None:
    """True: the reply declines for want of a capability. False: it asks (a question, a request,
    or a decline bound to information the user can give). None: neither."""
    bound, hedged = False, []
    for start, end in _declines(reading):
        if _hedged(reading, end):
            hedged.append(reading.sentence_span(start))
        elif _info_bound(reading, start):
            bound = True
        else:
            if find_entries(reading, _entries(USER_CAN_GIVE, reading.lang), most=1):
                return False
            return True
    return False if bound or _asks(reading, hedged) else None


def _declines(reading: Reading) -> list[tuple[int, int]]:
    """Every honest decline (answer_acts.decline_forms: the same forms the answer rule
    `declines` reads), so that a hedge or an info-bound one does not hide a later one."""
    return acts.decline_forms(reading)


def _entries(words: dict, lang: str) -> tuple:
    return acts.entries(words, lang)


def _hedged(reading: Reading, end: int) -> bool:
    """Does a hedge follow the decline form, within its next two words ("I can't be sure",
    "I can't say for sure", "não posso garantir")?"""
    near = list(TOKEN.finditer(reading.norm, end, min(len(reading.norm), end + HEDGE_REACH)))[:2]
    return any(find_entries(reading, _entries(HEDGED, reading.lang), m.start(), m.start() + HEDGE_REACH, most=1)[:1]
               and find_entries(reading, _entries(HEDGED, reading.lang), m.start(), m.start() + HEDGE_REACH,
                                most=1)[0][0] == m.start() for m in near)


def _info_bound(reading: Reading, start: int) -> bool:
    """Is the decline bound to missing information: a without / until word in its own clause ("I
    can't book it without the date", "no puedo reservar sin la fecha") or opening its sentence
    ("Without the amount, I can't pay"), or a need of the user's word in its sentence? A
    without word in a later clause
    describes ("No puedo crear una transferencia periódica: solo pagos puntuales, sin
    repetición")."""
    words = _entries(INFO_BOUND, reading.lang)
    clause = reading.clause_at(start)
    if find_entries(reading, words, start, max(clause.end, start), most=1):
        return True
    lo, hi = reading.sentence_span(start)
    if find_entries(reading, _entries(NEEDS, reading.lang), lo, hi, most=1):
        return True
    first = TOKEN.search(reading.norm, lo, start)
    found = find_entries(reading, words, first.start(), start, most=1) if first else []
    return bool(found) and found[0][0] == first.start()


def _asks(reading: Reading, hedged: list) -> bool:
    """Does the reply ask the user for something (not a courtesy, not a mere offer)? Not asking:
    a request form in a statement sentence with a hedged decline ("I can't be sure without a
    forecast"), a Portuguese or Spanish modal that states ("Puedes usar =SUMAR.SI"), "without"
    stating a fact, a question inside a quoted draft or a Markdown heading."""
    lang = reading.lang
    quotes = [i for i, c in enumerate(reading.norm) if c == '"'] if '"' in reading.norm else []
    words = None                        # the reply's word count, once an offer needs it
    for start, end in acts.asking_spans(reading):
        lo, hi = reading.sentence_span(start)
        hi = max(hi, end)
        question = "?" in reading.norm[lo:hi]
        if not question and (any(a <= start < b for a, b in hedged) or _stating(reading, start)):
            continue
        if _quoted(reading, start, quotes):
            continue
        if find_entries(reading, _entries(COURTESY, lang), lo, hi, most=1):
            continue
        offer = find_entries(reading, _entries(OFFERS, lang), lo, hi, most=1)
        if offer and words is None:
            words = len(TOKEN.findall(reading.norm))
        if offer and not (_alone(reading, lo, hi, words) or _asks_which(reading, lo, offer[0][0])
                          or find_entries(reading, _entries(PROCEED, lang), lo, hi, most=1)):
            continue
        return True
    return False


def _stating(reading: Reading, start: int) -> bool:
    """Is this request form, in a sentence with no question mark, a statement: a Portuguese or
    Spanish modal ("Puedes usar ..."), "without" stating a fact, or a verb that is an imperative
    only at the head of its clause ("el pronóstico indica lluvia")?"""
    first = TOKEN.search(reading.norm, start)
    if first is None:
        return False
    word = first.group()
    if word in STATING_MODALS or word in REQUEST_NOT_ASKING:
        return True
    return word in HEAD_ONLY and TOKEN.search(reading.norm, reading.clause_at(start).start, start) is not None


def _quoted(reading: Reading, start: int, quotes: list[int]) -> bool:
    """Inside quotation marks opened earlier in the reply (`quotes`: where each one stands), on a
    quoted (">") line, or on a Markdown heading: a draft's question or a title, not the model's."""
    line = reading.norm.rfind("\n", max(0, start - LINE_REACH), start) + 1
    return reading.norm[line:start + 1].lstrip().startswith((">", "#")) or bisect_left(quotes, start) % 2 == 1


def _asks_which(reading: Reading, lo: int, offer: int) -> bool:
    """Does a question word come before the offer's words ("How much should I send?", "Which
    day shall I book?"): a question for a detail, not an offer."""
    return bool(find_entries(reading, acts.lexicon(reading.lang).choice_words, lo, offer, most=1))


def _alone(reading: Reading, lo: int, hi: int, words: int) -> bool:
    """Is this offer's sentence (about) the whole reply of `words` words ("Shall I book Tuesday
    or Wednesday?")? Beside an answer or a decline it offers more; alone it asks the user to
    choose."""
    return words - len(TOKEN.findall(reading.norm, lo, hi)) <= OFFER_ALONE_WORDS
