"""Polarity read beyond a clause's cues: a free-text argument's future states what will happen
(`told_course`), and a bare "no" opening a reply answers the user's yes/no question
(`answered_no`).

Pure: no I/O.
"""
from __future__ import annotations

from itertools import islice

from toolproof.suite.model import Negated
from . import answer_lexicon as lex
from .answer_acts import entries, lexicon
from .answer_patterns import find_entries, find_phrase
from .answer_text import COND, OPEN, OPENING, TOKEN, Reading

NO_REACH = 3            # words a bare "no" answer may take ("Ainda não", "Not yet", "De momento no")


def told_course(reading: Reading, f) -> bool:
    """In a free-text argument (a note to a restaurant, a message), is a required phrase open
    only under a future, outside a question and with no condition or hedge before it ("Vamos a
    llevar un carrito de bebé", "Irão levar um carrinho")? A note tells what will happen: it
    states it. In a final answer a future is no fact ("A encomenda será enviada amanhã" has not
    shipped)."""
    if f.value or f.denied or f.polarity != OPEN or reading.clause_at(f.start).asks:
        return False
    passage = reading.passage(f.start)
    if passage is None or any(c.kind != OPENING for c in passage.cues_in(f.cue, f.start)) or any(
            c.kind == COND for c in passage.cues_in(reading.sentence_span(f.start)[0], f.cue)):
        return False        # "If nobody collects it, it will be returned": a condition's course
    word = TOKEN.match(reading.norm, f.cue)
    if word is not None and word.group().endswith("'ll"):
        return True
    future = find_entries(reading, lexicon(reading.lang).futures, f.cue, f.start, most=1)
    return bool(future) and future[0][0] == f.cue


def answered_no(reading: Reading, item, given: tuple) -> tuple[int, int] | None:
    """Where a reply opens with a bare "no" ("Ainda não: …", "Todavía no.", "Not yet —") to a
    question of the user's that names the {"not": item} ("¿Me han ingresado ya la nómina?"):
    the answer denies it. None when the reply does not open so or the user did not ask it."""
    first = TOKEN.search(reading.norm)
    if first is None or not isinstance(item, Negated) or not given:
        return None
    found = find_entries(reading, entries(lex.BARE_NO, reading.lang), first.start(), first.start() + 30, most=1)
    if not found or found[0][0] != first.start():
        return None
    rest = reading.norm[found[0][1]:found[0][1] + 3].lstrip()
    if rest[:1] not in (":", ",", ".", "!", "\u2014", "-", ";") and rest:
        return None         # "No te preocupes, …" is no answer
    asked = Reading(" ".join(g for g in given if g))
    phrases = getattr(item.item, "phrases", None) or ((item.item,) if isinstance(item.item, str) else ())
    return found[0] if any(next(iter(find_phrase(asked, p)), None) for p in islice(phrases, 100)) else None
