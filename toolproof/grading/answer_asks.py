"""What a reply asks the user for: the details (answer_ask_words.DETAILS) an ask mentions, and
a value of the detail the reply picks itself (a guess). answer_acts.asking_spans finds the asks.

- `details_in`: the details whose words a stretch of the reply mentions; in a question whose one
  question word names a detail ("¿cuánto dinero quieres pasar a la cuenta de ahorro?", "how much
  should I move to savings?"), that detail only: the account there is what the money goes to,
  not what is asked (a length of time, "¿cuánto tiempo?", stays one too).
- `guessed`: a value of the asked detail the reply picks in a statement.

Pure: no I/O.
"""
from __future__ import annotations

import re

from . import answer_ask_words as aw
from . import answer_values as values
from .answer_acts import EMAIL, SAME_VALUE, asking_spans, lexicon
from .answer_patterns import MAX_FOUND, entry_matches, find_entries
from .answer_text import DENIED, TOKEN, Reading

_NONE = re.match("", "")


def guessed(reading: Reading, detail: str) -> tuple[int, int] | None:
    """Where the text picks a value of the detail it asks for itself, in a statement ("I'll
    search for flights departing tomorrow. Let me know if you had another date in mind"), or
    None. Values in a question or a request ("which evening (Mon 9 to Sun 15 March)?") and
    examples ("for example 200 €") are options offered, not picks; a value a yes/no question
    proposes ("Shall I move the usual €250 over?") is a pick (_proposes)."""
    places = []
    if detail == "date":
        places = [(s, e) for s, e, _ in values.dates(reading)] + find_entries(reading, lexicon(reading.lang).relative_days)
    elif detail == "time":
        places = [(s, e) for s, e, _ in values.times(reading)]
    elif detail == "amount":
        places = [(s, e) for s, e, _ in values.numbers(reading) if values.is_money(reading, s, e)]
    elif detail == "recipient":
        places = [(m.start(), m.end()) for m, _ in zip(EMAIL.finditer(reading.norm), range(MAX_FOUND))]
    elif detail == "quantity":      # "Vou procurar para 4 pessoas": a count of people picked
        places = [(s, e) for s, e, _ in values.numbers(reading)
                  if (TOKEN.search(reading.norm, e, e + 30) or _NONE).group() in aw.PEOPLE]
    elif detail == "account":       # "¿Lo hago desde tu cuenta corriente?": an account picked
        places = find_entries(reading, lexicon(reading.lang).account_kinds)
    if not places:
        return None
    asking = list(asking_spans(reading))
    places.sort()
    for start, end in places:
        lo, hi = reading.sentence_span(start)
        question = "?" in reading.norm[lo:hi]
        if (question or any(s <= start < e for s, e in asking)) and not (
                question and _proposes(reading, places, lo, hi)):
            continue
        if find_entries(reading, lexicon(reading.lang).examples, max(lo, start - 40), start):
            continue
        if reading.polarity(start)[0] != DENIED:
            return start, end
    return None




def _proposes(reading: Reading, places: list, lo: int, hi: int) -> bool:
    """Does the question in lo..hi propose the one value of the detail it holds ("Shall I move
    the usual €250 over?", "I'll look for flights tomorrow, or did you have another day in
    mind?")? A question that asks for a choice ("which evening (Mon 9 to Sun 15 March)?", "how
    much: €100 or €250?") offers its values; so does one holding two or more of them."""
    inside = [(s, e) for s, e in places if lo <= s < hi]
    # a weekday next to its date ("Friday the 13th of March") is one value
    apart = sum(1 for (_, e), (s, _) in zip(inside, inside[1:]) if not SAME_VALUE.fullmatch(reading.norm, e, s))
    if apart >= 1:
        return False
    return not find_entries(reading, lexicon(reading.lang).choice_words, lo, hi)


def details_in(reading: Reading, start: int, end: int) -> list[str]:
    """The details (answer_ask_words.DETAILS) whose words this stretch of the reply mentions;
    only the one its single question word names, when it names one ("¿cuánto dinero…?")."""
    found = []
    for name, words in lexicon(reading.lang).details.items():
        if next(entry_matches(reading, words, start, end), None):
            found.append(name)
    asked = find_entries(reading, lexicon(reading.lang).question_words, start, end)
    if len(asked) == 1:
        word = reading.norm[asked[0][0]:asked[0][1]]
        after = TOKEN.search(reading.norm, asked[0][1], end)
        focus = aw.QUESTION_FOCUS.get(word) or aw.QUESTION_FOCUS.get(f"{word} {after.group() if after else ''}")
        if focus in found:
            return [d for d in found if d in (focus, "duration")]
    return found
