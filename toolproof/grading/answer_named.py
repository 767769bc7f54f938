"""Is a capability named? Beside `declines: true` a must_include item names what cannot be done,
and counts when mentioned at all (final_answer). A decline names it in its own words, inflected
as the sentence needs: "I don't have a tool that removes someone's access" names "remove
someone's access", "nenhuma ferramenta altera a hora" names "alterar a hora", "no tool for
changing a meeting's time" names "change the meeting". So an item's phrases of several words
are also tried loosely: the first word as its stem with any ending (remov*, alter*, chang*), an
article or possessive as any other, and the last word with any ending ("meeting's"). A single
word stays itself ("Finance" is not "financial"). warns_if_mentions reads its items so too: "los
datos de tu tarjeta" mentions "datos de la tarjeta".

Pure: no I/O.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

from toolproof.suite.model import Concept
from .answer_text import Reading, normalise

ENDINGS = ("ing", "ed", "es", "e", "s", "ar", "er", "ir")     # a word's ending, longest first
MIN_STEM = 4            # letters a stem keeps ("remov", "alter", "borr"; "move" stays whole)
ARTICLES = (("the", "a", "an", "its", "your", "his", "her", "their", "this", "that", "my"),
            ("o", "a", "os", "as", "um", "uma", "do", "da", "seu", "sua", "teu", "tua", "meu", "minha"),
            ("el", "la", "los", "las", "un", "una", "del", "tu", "su", "tus", "sus", "mi"))    # an article is tried as its language's others
SEP = r"[\s\-]{1,4}"     # between the words
ANY_ENDING = r"[^\W_]{0,20}(?:'[^\W_]{1,3})?"     # an ending, and a possessive ("meeting's")


class Span(NamedTuple):
    start: int
    end: int


def loose(reading: Reading, item) -> list[Span]:
    """The first loose mention of a phrase or concept item (any polarity), as [Span], or []."""
    phrases = item.phrases if isinstance(item, Concept) else (item,) if isinstance(item, str) else ()
    for phrase in phrases or ():
        pattern = loose_pattern(phrase)
        m = pattern.search(reading.norm) if pattern is not None else None
        if m is not None:
            return [Span(m.start(), m.end())]
    return []


@lru_cache(maxsize=1024)
def loose_pattern(phrase: str) -> re.Pattern | None:
    """A phrase read loosely: its first word as a stem with any ending, its last word with any
    ending, an article as any article of its language ("change the meeting" matches "changing
    a meeting's"); None when nothing would be looser than the phrase itself."""
    words = normalise(phrase).split()
    if not words or any(not w.rstrip("*").replace("'", "").isalpha() for w in words):
        return None
    if len(words) == 1:     # a single word stays itself ("Finance" is not "financial"), but a
        return _with_pronoun(words[0])    # verb takes a pronoun: "mudá-los", "moverla"
    first = _stem(words[0])
    parts = [first or _word(words[0])]
    for k, w in enumerate(words[1:], start=1):
        others = [a for g in ARTICLES if w in g for a in g]
        if others and k < len(words) - 1:     # an article, maybe with a possessive after it ("do teu")
            alts = "|".join(re.escape(a) for a in dict.fromkeys(others))
            parts.append(f"(?:{alts})(?:{SEP}(?:{alts}))?")
        else:
            parts.append(_word(w) if k < len(words) - 1 else re.escape(w.rstrip("*")) + ANY_ENDING)
    return re.compile(r"(?<![^\W_])" + SEP.join(parts) + r"(?![^\W_])")


ACCENTED = {"a": "á", "e": "ê", "i": "i"}
PRONOUNS = "(?:lo|la|los|las|le|les|se|lhe|lhes)"


def _with_pronoun(word: str) -> re.Pattern | None:
    """A Portuguese or Spanish infinitive with an object pronoun joined to it ("mudar" ->
    "mudá-los", "mover" -> "moverla", "remarcar" -> "remarcá-la"), or None for another word."""
    if len(word) < 5 or not word.isalpha() or word[-2:] not in ("ar", "er", "ir"):
        return None
    pt = re.escape(word[:-2] + ACCENTED[word[-2]]) + "-" + PRONOUNS
    return re.compile(r"(?<![^\W_])(?:" + pt + "|" + re.escape(word) + PRONOUNS + r")(?![^\W_])")


def _word(word: str) -> str:
    return re.escape(word[:-1]) + ANY_ENDING if word.endswith("*") else re.escape(word)


def _stem(word: str) -> str | None:
    """The word as a stem with any ending ("remove" -> remov…, "alterar" -> alter…), or None
    when too short or already a prefix."""
    if word.endswith("*"):
        return None
    for ending in ENDINGS:
        if word.endswith(ending) and len(word) - len(ending) >= MIN_STEM:
            return re.escape(word[: -len(ending)]) + ANY_ENDING
    return re.escape(word) + ANY_ENDING if len(word) > MIN_STEM else None


PATTERNS = (re.compile(SEP), re.compile(ANY_ENDING))
