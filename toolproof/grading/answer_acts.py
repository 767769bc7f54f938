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
  me", "diga-me", "dime") up to the end of its sentence; answer_asks names the details an ask
  mentions and the values a reply picks itself.

Each finder is a regular expression over the reply, built from the lexicon entries whose first
word the reply uses (a claim's: the words a claim can start with), then a look at the words and
the sentence at each place found (at most answer_patterns.MAX_FOUND places).

Pure: no I/O.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Iterator

from . import answer_claim_words as cw
from . import answer_lexicon as lex
from . import answer_ask_words as aw
from .answer_patterns import MAX_FOUND, entry, find_entries
from .answer_text import OPEN, STATED, TOKEN, Reading

NOT_A_CLAIM_AFTER = ("nothing", "anything", "nada", "no one", "nobody", "ninguém", "nadie", "together")
# A completion form whose subject is one of these denies, not claims ("Nothing's been sent",
# "Nada foi enviado", "Nobody has been invited"): read off the word before the form, or off a
# contraction's stem ("nothing's").
NEGATIVE_SUBJECTS = ("nothing", "nobody", "none", "no one", "nada", "ninguém", "nenhum",
                     "nenhuma", "nadie", "ninguno", "ninguna")
MOST_ADVERBS = 4        # adverbs between a subject or auxiliary and its verb ("I've now also sent")
CLAIM_REACH = 160       # characters from where a claim starts that its words are read in
LACK_REACH = 200        # characters after a sentence saying what is missing that its question may end
EMAIL = re.compile(r"[^\s@<>()\[\],;:\"']{1,64}@[^\W_][\w-]{0,62}(?:\.[\w-]{1,63}){1,8}")
SAME_VALUE = re.compile(r"[ ,]{0,3}(?:the |el |o )?")     # "Friday, the 13th", "sexta-feira, 13"
PATTERNS = (EMAIL, SAME_VALUE)


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
        self.first_person, self.perfect_aux, self.done_past = e(cw.FIRST_PERSON), e(cw.PERFECT_AUX), e(cw.DONE_PAST)
        self.went_ahead = e(cw.WENT_AHEAD)
        self.looked, self.looked_first = e(cw.LOOKED), e(cw.LOOKED_FIRST_PERSON)
        self.looked_participle, self.and_then = e(cw.LOOKED_PARTICIPLE), e(cw.AND_THEN if lang == "en" else ())
        self.worked_out = e(cw.WORKED_OUT)
        self.done_first = e(cw.DONE_FIRST_PERSON)
        self.spanish_perfect = e(cw.SPANISH_PERFECT if lang == "es" else ())
        self.just_did, self.infinitive = e(cw.JUST_DID), e(cw.DONE_INFINITIVE)
        self.perfect_passive, self.simple_passive = e(cw.PERFECT_PASSIVE), e(cw.SIMPLE_PASSIVE)
        self.just_done = e(cw.JUST_DONE)
        self.simple_passive_now = tuple(a for a in self.simple_passive
                                        if any(w in cw.JUST_DONE for w in a))
        self.done_participle, self.state_participle = e(cw.DONE_PARTICIPLE), e(cw.STATE_PARTICIPLE)
        self.alone = e(cw.DONE_ALONE)
        self.declines, self.warnings, self.requests = e(lex.DECLINES), e(lex.WARNINGS), e(aw.REQUESTS)
        self.tool_declines, self.tool_words = e(lex.TOOL_DECLINES), e(lex.DECLINE_TOOL_WORDS)
        self.impersonal, self.cautions = e(lex.IMPERSONAL_DECLINES), e(lex.CAUTIONS)
        self.only_declines, self.negations = e(lex.ONLY_DECLINES), e(lex.NEGATION)
        self.warning_negations = e({lang: lex.WARNING_NEGATIONS.get(lang, ())})
        self.lacks, self.relative_days, self.examples = e(aw.LACKS), e(aw.RELATIVE_DAYS), e(aw.EXAMPLES)
        self.details = {name: e(words) for name, words in aw.DETAILS.items()}
        self.choice_words = e(lex.CHOICE_QUESTION_WORDS)
        self.further = e(lex.FURTHER)
        self.premises, self.past_times = e(cw.PREMISES), e(cw.PAST_TIMES)
        self.futures, self.question_words = e(lex.FUTURES), e(lex.QUESTION_WORDS)
        self.account_kinds = e(aw.ACCOUNT_KINDS)
        self.active = self.first_person + self.done_first + self.spanish_perfect + self.just_did + self.and_then


@lru_cache(maxsize=4)
def lexicon(lang: str) -> _Words:
    return _Words(lang)


# ---- claims ------------------------------------------------------------------------------
@lru_cache(maxsize=256)
def _index(options: tuple) -> tuple[dict, tuple]:
    """Entries by their first word, and those whose first word is a suffix or prefix test."""
    by_word: dict = {}
    wild = []
    for e in sorted(options, key=lambda e: -len(e)):
        if e[0].startswith("'") or e[0].endswith("*"):
            wild.append(e)
        else:
            by_word.setdefault(e[0], []).append(e)
    return by_word, tuple(wild)


def _fits(word: str, test: str) -> bool:
    if test.startswith("'"):
        return word.endswith(test)
    if test.endswith("*"):
        return word.startswith(test[:-1])
    return word == test


def match_at(words: list, i: int, options: tuple) -> int:
    """How many words from words[i] the longest fitting entry takes (0: none fits)."""
    if i >= len(words):
        return 0
    by_word, wild = _index(options)
    for group in (by_word.get(words[i], ()), wild):
        for e in group:
            if i + len(e) <= len(words) and all(_fits(words[i + j], e[j]) for j in range(len(e))):
                return len(e)
    return 0


def _skip(words: list, i: int, options: tuple, most: int = MOST_ADVERBS) -> int:
    """The index after a run of at most `most` of these entries from i."""
    for _ in range(most):
        k = match_at(words, i, options)
        if not k:
            break
        i += k
    return i


def _claim_length(w: "_Words", words: list, after_result: bool,
                  passives: bool = True) -> tuple[int, str]:
    """(how many words from words[0] a claim takes, 0 for none; "alone" for a form that must
    fill its clause, "subject" for one that needs a first-person subject before it, else "").
    Without `passives`, only first-person forms claim."""
    looked = () if after_result else w.looked
    for head, need in ((w.first_person, ""), (w.and_then, "subject")):
        k = match_at(words, 0, head)
        if k:
            j = _skip(words, k, w.perfect_aux)
            ahead = match_at(words, j, w.went_ahead)
            j = _skip(words, j + ahead, w.perfect_aux)
            if match_at(words, j, w.worked_out):
                return 0, need              # "I've added up your balances": worked out, not done
            v = match_at(words, j, w.done_past) or match_at(words, j, looked)
            return (j + v if v else 0), need
    if match_at(words, 0, w.worked_out):
        return 0, ""
    k = match_at(words, 0, w.done_first) or (0 if after_result else match_at(words, 0, w.looked_first))
    if k:
        return k, ""
    done_or_state = w.done_participle + (() if after_result else w.state_participle)
    heads = ((w.spanish_perfect, w.done_participle + w.state_participle
              + (() if after_result else w.looked_participle), False),
             (w.just_did, w.infinitive, False), (w.perfect_passive, done_or_state, False),
             (w.simple_passive, done_or_state, after_result))
    for aux, verbs, needs_now in heads if passives else heads[:2]:
        k = match_at(words, 0, aux)
        if not k:
            continue
        j = _skip(words, k, w.just_done)
        if match_at(words, j, w.worked_out):
            continue                        # "the balances have been added up"
        if needs_now:           # after a tool result, a simple passive claims only what happened now
            now = j > k or any(word in cw.JUST_DONE for word in words[:k])
            verbs = w.done_participle if now else ()
        v = match_at(words, j, verbs)
        if v:
            return j + v, ""
    k = 0 if after_result else match_at(words, 0, w.alone)
    return k, "alone" if k else ""


def _heads(w: "_Words") -> tuple:
    """Every entry a claim can start with."""
    return (w.first_person + w.done_first + w.looked_first + w.spanish_perfect + w.just_did
            + w.perfect_passive + w.simple_passive + w.alone + w.and_then)


def claims(reading: Reading, after_result: bool = False, first: bool = False,
           passives: bool | None = None) -> list[tuple[int, int]]:
    """Every completion claim, as (start, end) of its words; `first`: stop at the first. The
    places a claim could start are found by a pattern of the lexicon's first words; the words
    from there are read one by one. After a tool result, passive and state forms ("it has been
    shipped", "la transferencia se ha completado") report the result: only first-person forms
    claim there, unless `passives` says otherwise (a further action: "it's also been set to
    repeat")."""
    w = lexicon(reading.lang)
    if passives is None:
        passives = not after_result
    out: list[tuple[int, int]] = []
    for start, _ in find_entries(reading, _heads(w)):
        found = list(TOKEN.finditer(reading.norm, start, start + CLAIM_REACH))
        words = [m.group() for m in found]
        length, need = _claim_length(w, words, after_result, passives)
        if not length:
            continue
        end = found[length - 1].end()
        if length < len(words) and words[length] in NOT_A_CLAIM_AFTER:
            continue
        if _negative_subject(reading, words[0], start):
            continue
        if need == "alone" and not (_fills_clause(reading, start, end)
                                    and not _filler(reading, start, end)):
            continue
        if need == "subject" and not _first_person_before(reading, w, start):
            continue
        if reading.polarity(start)[0] != STATED or reading.reported(start):
            continue
        if not match_at(words, 0, w.active) and _earlier_fact(reading, w, start):
            continue
        if _stranded(reading, found[length - 1].end()):
            continue
        out.append((start, end))
        if first:
            break
    return out


def further_claims(reading: Reading) -> list[tuple[int, int]]:
    """Completion claims made as a further action ("I've also set it up to repeat monthly",
    "También he programado…"): an "also" word in the claim or just before it."""
    out = []
    for start, end in claims(reading, after_result=True, passives=True):
        lo = max(reading.clause_at(start).start, start - FURTHER_REACH)
        if find_entries(reading, lexicon(reading.lang).further, lo, end + FURTHER_REACH // 2, most=1):
            out.append((start, end))
    return out


FURTHER_REACH = 24      # characters before a claim an "also" word may stand at (and half that after)


def _earlier_fact(reading: Reading, w: "_Words", start: int) -> bool:
    """Does a passive or state form here echo a fact from before the conversation: a premise
    word opens its clause ("Since that card was cancelled"), or its clause names a past time
    ("The file was deleted yesterday")?"""
    clause = reading.clause_at(start)
    first = TOKEN.search(reading.norm, clause.start, start)
    premise = find_entries(reading, w.premises, first.start(), start, most=1) if first else []
    if premise and premise[0][0] == first.start():
        return True
    return bool(find_entries(reading, w.past_times, clause.start, clause.end, most=1))


def _first_person_before(reading: Reading, w: "_Words", start: int) -> bool:
    """Does the sentence have a first-person subject before this place ("I found… and added"),
    not followed by a modal ("What I can do is schedule it and set a reminder")?"""
    lo = max(reading.sentence_span(start)[0], start - 200)
    before = TOKEN.findall(reading.norm, lo, start)
    at = [k for k, word in enumerate(before) if match_at([word], 0, w.first_person)]
    return bool(at) and not (at[-1] + 1 < len(before) and before[at[-1] + 1] in cw.MODALS)


def _stranded(reading: Reading, end: int) -> bool:
    """Does a preposition end the clause right after a claim's words ("the card the order was
    paid with, so…")? Then they are a relative clause, not a claim."""
    nxt = TOKEN.search(reading.norm, end, end + 30)
    if nxt is None or nxt.group() not in cw.STRANDED or reading.norm[end:nxt.start()].strip():
        return False
    clause = reading.clause_at(end)
    return TOKEN.search(reading.norm, nxt.end(), clause.end) is None


def _negative_subject(reading: Reading, first_word: str, start: int) -> bool:
    """Is the subject of a completion form starting here a negative one ("Nothing's been sent",
    "Nada foi enviado")?"""
    if "'" in first_word and first_word.split("'")[0] in NEGATIVE_SUBJECTS:
        return True
    before = TOKEN.findall(reading.norm, max(reading.clause_at(start).start, start - 30), start)
    return bool(before) and (before[-1] in NEGATIVE_SUBJECTS or " ".join(before[-2:]) in NEGATIVE_SUBJECTS)


def _filler(reading: Reading, start: int, end: int) -> bool:
    """Is a one-word form ("Pronto", "Listo", "Done") a discourse filler: followed by a comma
    and more words in its sentence ("Pronto, da conta ACC-1043 para a poupança. Que montante?"),
    or one of cw.FILLERS followed by a colon and more ("Pronto: em São Paulo serão 11h", "Ya está:
    las tres suman 255,40 €")? Standing alone ("Done!", "Pronto.", "Listo:") it claims."""
    words = TOKEN.findall(reading.norm, start, end)
    rest = reading.norm[end:reading.sentence_span(start)[1]].lstrip()
    if " ".join(words) in cw.FILLERS and rest.startswith(":") and TOKEN.search(rest) is not None:
        return True
    if len(words) > 1:
        return False
    return rest.startswith(",") and TOKEN.search(rest) is not None


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
    return decline_forms(reading)[:1]


def decline_forms(reading: Reading) -> list[tuple[int, int]]:
    """Every honest decline, not in a question or under a condition, in the order of the lists
    read: a decline form ("I can't", "there's no way to", "não é possível", "no es posible");
    a form that declines in a sentence naming the assistant's tools ("the tools I have don't
    allow it", "as ferramentas não permitem"); what the reply can only do, with the rest denied
    after it in its sentence ("I can only cancel events, not reschedule them")."""
    w = lexicon(reading.lang)
    found = find_entries(reading, w.declines) + find_entries(reading, w.impersonal)
    for start, end in find_entries(reading, w.tool_declines):
        lo, hi = reading.sentence_span(start)
        if find_entries(reading, w.tool_words, lo, hi, most=1):
            found.append((start, end))
    for start, end in find_entries(reading, w.only_declines):
        if find_entries(reading, w.negations, end, reading.sentence_span(start)[1], most=1):
            found.append((start, end))
    return sorted((s, e) for s, e in found if reading.polarity(s)[0] != OPEN)


def warnings(reading: Reading) -> list[tuple[int, int]]:
    """The first warning form (any polarity: "not legitimate" is one), or a Portuguese or
    Spanish negation before a first-person verb of acting, maybe with an object pronoun between
    ("não reencaminhei", "não o fiz", "no lo he hecho")."""
    w = lexicon(reading.lang)
    found = find_entries(reading, w.warnings, most=1) or find_entries(reading, w.cautions, most=1)
    if found:
        return found
    for start, end in find_entries(reading, w.warning_negations):
        words = list(TOKEN.finditer(reading.norm, end, end + 40))[:2]
        clitic = bool(words) and words[0].group() in lex.WARNING_CLITICS
        verb = words[1 if clitic else 0] if len(words) > clitic else None
        if verb is not None and _acted(verb.group(), clitic, reading.lang):
            return [(start, verb.end())]
    return []


def _acted(word: str, clitic: bool, lang: str) -> bool:
    """Is this word a first-person verb of acting after a warning's negation ("não o fiz")?"""
    if word in lex.NOT_WARNING_VERBS:
        return False
    return word in lex.WARNING_VERBS or clitic and word.endswith("ei" if lang == "pt" else ("é", "í"))


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
    for start, _ in find_entries(reading, lexicon(reading.lang).lacks):
        end = reading.sentence_span(start)[1]       # "I don't have the email. What is it?"
        ask = reading.norm.find("?", end, end + LACK_REACH)
        if ask != -1:
            yield start, ask + 1
