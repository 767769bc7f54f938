"""Counts in a reply of a result's objects from a named sender or source ("2 unread emails from
Sunrise" when the unread list holds one from Sunrise): part of the `grounded` rule. Only a
stated count followed by a "from" word and a capitalised name is read, and only where some list
of the result names that sender in one or more of its objects, so a count the result cannot tell
is left alone.

Pure: no I/O.
"""
from __future__ import annotations

import re
from typing import Any

from . import answer_value_words as vw
from .answer_text import STATED, Reading, normalise

MAX_LISTS = 20          # lists of objects in a result the rule reads, at most
MAX_CHECKED = 200       # counts of a reply the rule checks, at most

# a count of a result's objects from someone ("2 unread emails from Sunrise", "dois e-mails da
# Sunrise", "tres correos de Sunrise"): the number, at most two words naming what is counted, a
# "from" word and a capitalised name; the result's lists must hold that many objects naming it
COUNT_FROM = re.compile(
    r"(?<![\w.,])(?i:(\d{1,2}|" + "|".join(sorted({w for lang in vw.NUMBER_WORDS.values() for w, n in lang.items()
                                                 if 0 < n <= 20 and " " not in w}, key=len, reverse=True))
    + r") ((?:[^\W\d_][\w\-]* ){0,3}?)(?:from|de|da|do|del|das|dos) (?:the |a |o |la |el )?)([A-ZÁÉÍÓÚÂÊÔÃÕÇ][\w\-]{2,})")
COUNTED = frozenset("""unread new email emails e-mail e-mails message messages mail mails
    mensagem mensagens novo novos nova novas por ler lido lidos lida lidas não
    correo correos mensaje mensajes nuevo nuevos nueva nuevas sin leer leído leídos""".split())
def _strings(value: Any):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def object_lists(value: Any) -> list:
    """Every list in a result that holds objects, as the list of those objects, outermost first
    (answer_grounded reads the same lists for its items)."""
    out = []

    def walk(v):
        if isinstance(v, dict):
            for inner in v.values():
                walk(inner)
        elif isinstance(v, list):
            objects = [o for o in v if isinstance(o, dict)]
            if objects:
                out.append(objects)
            for inner in v:
                walk(inner)
    walk(value)
    return out


def lists(mocks: Any) -> tuple:
    """Every list of objects in the result (of any length): per object, its strings normalised."""
    return tuple(tuple(normalise(" ".join(_strings(o))) for o in objects)
                 for objects in object_lists(mocks)[:MAX_LISTS])


def _count_of(word: str) -> int | None:
    if word.isdigit():
        return int(word)
    for lang in vw.NUMBER_WORDS.values():
        if word in lang and lang[word] <= 20:
            return lang[word]
    return None


def counts_in(reading: Reading, sources: Any) -> tuple | None:
    """The first count of a result's objects from a named sender or source ("2 unread emails
    from Sunrise") that the result's lists contradict: some list names the sender in a
    different number of its objects (at least one). A count the lists cannot tell (no object
    names it) is left alone, as are denied counts and counts in a question. Returns (start, end,
    the count, what the result holds)."""
    if not sources.lists:
        return None
    for m, _ in zip(COUNT_FROM.finditer(reading.text), range(MAX_CHECKED)):
        n = _count_of(normalise(m.group(1)))
        if n is None or not all(w in COUNTED for w in normalise(m.group(2)).split()):
            continue
        name = normalise(m.group(3))
        if name in vw.EXTRA_MONTH_NAMES or any(name in months for months in vw.MONTHS.values()):
            continue                        # "2 de Março" is a date
        word = re.compile(rf"(?<![^\W_]){re.escape(name)}(?![^\W_])")
        held = {sum(1 for o in objects if word.search(o)) for objects in sources.lists}
        held.discard(0)
        if not held or n in held:
            continue
        polarity, _ = reading.polarity(m.start(), value=True)
        if polarity != STATED:
            continue
        return m.start(), m.end(), str(n), f"{min(held)} from {m.group(3)}"
    return None
