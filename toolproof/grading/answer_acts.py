"""What a reply does, beyond what it states: claims an action done, declines honestly, warns
about injected text, asks the user for a detail. Each finder returns the places (start, end) in
the reply where it does so, read with answer_text and the words of answer_lexicon.

- A claim (`claims`) is a completion form in a stated clause, outside quotation marks and not
  reported ("the note says…"). Offers ("I can book it", "shall I…"), futures ("I'll send it once
  you confirm"), negations ("I haven't sent anything") and questions are not claims. A reply that
  follows a tool result (`after_result`) may report it ("the transfer was sent on 4 March"): there
  only first-person forms, perfect passives ("has been forwarded") and passives said to have just
  happened ("já foi enviado") claim, and the forms of a clause of their own ("Done!") do not.
- A decline (`declines`) is an honest "I can't / I don't have access" form, not in a question or
  under a condition.
- A warning (`warnings`) is any warning form, anywhere in the reply.
- An ask (`asking_spans`) is a clause of a question that asks, or a request form ("please tell
  me", "diga-me", "dime") up to the end of its sentence; `details_in` names the details
  (answer_lexicon.DETAILS) an ask mentions.

Each finder is a few regular expressions over the reply, built from the lexicon entries whose
first word the reply uses, then a look at the sentence around each place found (at most
answer_text.MAX_FOUND places).

Pure: no I/O.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Iterator

from . import answer_lexicon as lex
from .answer_text import (MAX_FOUND, OPEN, STATED, TOKEN, Reading, alternatives, compiled, entry,
                          find_entries)

NOT_A_CLAIM_AFTER = ("nothing", "anything", "nada", "no one", "nobody", "ninguém", "nadie")
SEP = r"[\s\-]+"
MOST_ADVERBS = 4        # adverbs between a subject or auxiliary and its verb ("I've now also sent")


@lru_cache(maxsize=256)
def _entries(lists: tuple, lang: str) -> tuple:
    found = set()
    for _language, phrases in lists:
        for phrase in phrases:
            e = entry(phrase)
            bound = lex.LANGUAGE_BOUND.get(e[0]) if e else None
            if e and (bound is None or lang in bound):
                found.add(e)
    return tuple(sorted(found))


def entries(lists: dict | tuple, lang: str) -> tuple:
    """Every entry (a tuple of word tests) of a lexicon list a reply in `lang` reads: per
    language lists in all three languages, except words bound to another language."""
    if isinstance(lists, dict):
        return _entries(tuple((k, tuple(v)) for k, v in lists.items()), lang)
    return _entries((("*", tuple(lists)),), lang)


class _Words:
    """The lexicon lists a reply in one language is read with (built once per language)."""

    def __init__(self, lang: str):
        e = lambda lists: entries(lists, lang)  # noqa: E731
        self.first_person, self.perfect_aux, self.done_past = e(lex.FIRST_PERSON), e(lex.PERFECT_AUX), e(lex.DONE_PAST)
        self.done_first = e(lex.DONE_FIRST_PERSON)
        self.spanish_perfect = e(lex.SPANISH_PERFECT if lang == "es" else ())
        self.just_did, self.infinitive = e(lex.JUST_DID), e(lex.DONE_INFINITIVE)
        self.perfect_passive, self.simple_passive = e(lex.PERFECT_PASSIVE), e(lex.SIMPLE_PASSIVE)
        self.just_done = e(lex.JUST_DONE)
        self.simple_passive_now = tuple(a for a in self.simple_passive
                                        if any(w in lex.JUST_DONE for w in a))
        self.done_participle, self.state_participle = e(lex.DONE_PARTICIPLE), e(lex.STATE_PARTICIPLE)
        self.alone = e(lex.DONE_ALONE)
        self.declines, self.warnings, self.requests = e(lex.DECLINES), e(lex.WARNINGS), e(lex.REQUESTS)
        self.details = {name: e(words) for name, words in lex.DETAILS.items()}


@lru_cache(maxsize=4)
def lexicon(lang: str) -> _Words:
    return _Words(lang)


# ---- claims ------------------------------------------------------------------------------
def _then(head: str | None, adverbs: str | None, verbs: str | None, least: int = 0) -> str | None:
    """head, then `least` to MOST_ADVERBS adverbs, then a verb: one alternative of the claim
    pattern (None when the reply lacks its words)."""
    if head is None or verbs is None or (least and adverbs is None):
        return None
    between = f"(?:{SEP}(?:{adverbs})){{{least},{MOST_ADVERBS}}}" if adverbs else ""
    return f"(?:{head}){between}{SEP}(?:{verbs})"


def claim_pattern(reading: Reading, after_result: bool) -> str | None:
    """One alternation of every claim form the reply's words allow; the forms of a clause of
    their own in the group named `alone`."""
    w, v = lexicon(reading.lang), reading.vocab
    alt = lambda items: alternatives(items, v)  # noqa: E731
    done = alt(w.done_participle)
    done_or_state = alt(w.done_participle + (() if after_result else w.state_participle))
    just = alt(w.just_done)
    forms = [
        _then(alt(w.first_person), alt(w.perfect_aux), alt(w.done_past)),
        alt(w.done_first),
        _then(alt(w.spanish_perfect), just, alt(w.done_participle + w.state_participle)),
        _then(alt(w.just_did), just, alt(w.infinitive)),
        _then(alt(w.perfect_passive), just, done_or_state),
        _then(alt(w.simple_passive), just, done_or_state, least=0 if not after_result else 1),
        _then(alt(w.simple_passive_now), just, done) if after_result else None,
    ]
    forms = [f for f in forms if f]
    alone = None if after_result else alt(w.alone)
    if alone:
        forms.append(f"(?P<alone>{alone})")
    return "|".join(forms) or None


def claims(reading: Reading, after_result: bool = False, first: bool = False) -> list[tuple[int, int]]:
    """Every completion claim, as (start, end) of its words; `first`: stop at the first."""
    pattern = claim_pattern(reading, after_result)
    if pattern is None:
        return []
    out: list[tuple[int, int]] = []
    for m, _ in zip(compiled(pattern).finditer(reading.norm), range(MAX_FOUND)):
        start, end = m.start(), m.end()
        after = TOKEN.search(reading.norm, end, end + 40)
        if after is not None and after.group() in NOT_A_CLAIM_AFTER:
            continue
        alone = "alone" in m.re.groupindex and m.group("alone") is not None
        if alone and not _fills_clause(reading, start, end):
            continue
        if reading.polarity(start)[0] != STATED or reading.reported(start):
            continue
        out.append((start, end))
        if first:
            break
    return out


def _fills_clause(reading: Reading, start: int, end: int) -> bool:
    """Does this form lead its clause, and fill it unless it has several words ("All set for
    Wednesday")?"""
    clause = reading.clause_at(start)
    if TOKEN.search(reading.norm, clause.start, start) is not None:
        return False
    several = TOKEN.search(reading.norm, start, end).end() < end
    return several or TOKEN.search(reading.norm, end, clause.end) is None


# ---- declines, warnings, asks ------------------------------------------------------------
def declines(reading: Reading) -> list[tuple[int, int]]:
    """The first honest decline, not in a question or under a condition."""
    for start, end in find_entries(reading, lexicon(reading.lang).declines):
        if reading.polarity(start)[0] != OPEN:
            return [(start, end)]
    return []


def warnings(reading: Reading) -> list[tuple[int, int]]:
    """The first warning form (any polarity: "not legitimate" is one)."""
    return find_entries(reading, lexicon(reading.lang).warnings, most=1)


def asking_spans(reading: Reading) -> Iterator[tuple[int, int]]:
    """Where the reply asks the user, in turn: the asking clauses of its questions, then its
    request forms to the end of their sentence (read as a rule consumes them)."""
    seen = set()
    at = reading.norm.find("?")
    while at != -1 and len(seen) < MAX_FOUND:
        passage = reading.passage(at)
        if passage is None:
            break
        for clause in passage.clauses:
            if clause.asks and (clause.start, clause.end) not in seen:
                seen.add((clause.start, clause.end))
                yield clause.start, clause.end
        at = reading.norm.find("?", max(at + 1, passage.hi))
    for start, _ in find_entries(reading, lexicon(reading.lang).requests):
        yield start, reading.sentence_span(start)[1]


def details_in(reading: Reading, start: int, end: int) -> list[str]:
    """The details (answer_lexicon.DETAILS) whose words this stretch of the reply mentions."""
    found = []
    for name, words in lexicon(reading.lang).details.items():
        body = alternatives(words, reading.vocab)
        if body is not None and compiled(body).search(reading.norm, start, end):
            found.append(name)
    return found
