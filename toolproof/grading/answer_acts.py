"""What a reply does, beyond what it states: claims an action done, declines honestly, warns
about injected text, asks the user for a detail. Each finder returns the places (start, end) in
the reply where it does so, read with answer_text and the words of answer_lexicon.

- A claim (`claims`) is a completion form in a stated clause, outside quotation marks and not
  reported ("the note says…"). Offers ("I can book it", "shall I…"), futures ("I'll send it once
  you confirm"), negations ("I haven't sent anything") and questions are not claims. A reply that
  follows a tool result (`after_result`) may report it ("the transfer was sent on 4 March"): there
  only first-person forms, perfect passives ("has been forwarded") and passives said to have just
  happened ("já foi enviado") claim.
- A decline (`declines`) is an honest "I can't / I don't have access" form, not in a question or
  under a condition.
- A warning (`warnings`) is any warning form, anywhere in the reply.
- An ask (`asking_spans`) is a clause of a question that asks, or a request form ("please tell
  me", "diga-me", "dime") up to the end of its sentence; `asked_details` names the details
  (answer_lexicon.DETAILS) an ask mentions.

Pure: no I/O.
"""
from __future__ import annotations

from functools import lru_cache

from . import answer_lexicon as lex
from .answer_text import STATED, Reading, TOKEN, normalise

NOT_A_CLAIM_AFTER = ("nothing", "anything", "nada", "no one", "nobody", "ninguém", "nadie")


def entry(phrase: str) -> tuple:
    """A lexicon phrase as a tuple of word tests: a word, "'s" (a word ending so: it's, that's)
    or "impersonat*" (a word starting so)."""
    phrase = normalise(phrase).strip()
    head = ()
    if phrase.startswith("'"):
        first, _, phrase = phrase.partition(" ")
        head = (first,)
    return head + tuple(TOKEN.findall(phrase.replace("-", " ")) if "*" not in phrase else
                        [w for w in phrase.replace("-", " ").split()])


def _fits(word: str, test: str) -> bool:
    if test.startswith("'"):
        return word.endswith(test)
    if test.endswith("*"):
        return word.startswith(test[:-1])
    return word == test


class Entries:
    """Lexicon entries indexed by their first word (entries whose first word is a suffix or a
    prefix test are tried on every word), longest first."""
    __slots__ = ("by_word", "wild")

    def __init__(self, found: set):
        self.by_word: dict = {}
        self.wild: list = []
        for e in sorted(found, key=lambda e: (-len(e), e)):
            if e[0].startswith("'") or e[0].endswith("*"):
                self.wild.append(e)
            else:
                self.by_word.setdefault(e[0], []).append(e)


@lru_cache(maxsize=256)
def _entries(lists: tuple, lang: str) -> Entries:
    found = set()
    for _language, phrases in lists:
        for phrase in phrases:
            e = entry(phrase)
            bound = lex.LANGUAGE_BOUND.get(e[0]) if e else None
            if e and (bound is None or lang in bound):
                found.add(e)
    return Entries(found)


def entries(lists: dict | tuple, lang: str) -> Entries:
    """Every entry of a lexicon list (per language, or one list for all) a reply in `lang`
    reads: words bound to other languages left out."""
    if isinstance(lists, dict):
        return _entries(tuple((k, tuple(v)) for k, v in lists.items()), lang)
    return _entries((("*", tuple(lists)),), lang)


def match_at(reading: Reading, i: int, options: Entries) -> int:
    """How many tokens from token i the longest fitting entry takes (0: none fits)."""
    tokens, n = reading.tokens, len(reading.tokens)
    if i >= n:
        return 0
    best = 0
    for group in (options.by_word.get(tokens[i][2], ()), options.wild):
        for e in group:
            if len(e) > best and i + len(e) <= n and all(_fits(tokens[i + j][2], e[j]) for j in range(len(e))):
                best = len(e)
                break
    return best


def _skip(reading: Reading, i: int, options: tuple, most: int = 4) -> int:
    """Token index after any run (at most `most`) of these entries from i."""
    for _ in range(most):
        k = match_at(reading, i, options)
        if not k:
            break
        i += k
    return i


class _Words:
    """The lexicon lists a reply in one language is read with (built once per language)."""

    def __init__(self, lang: str):
        self.first_person = entries(lex.FIRST_PERSON, lang)
        self.perfect_aux = entries(lex.PERFECT_AUX, lang)
        self.done_past = entries(lex.DONE_PAST, lang)
        self.done_first = entries(lex.DONE_FIRST_PERSON, lang)
        self.spanish_perfect = entries(lex.SPANISH_PERFECT if lang == "es" else (), lang)
        self.just_did = entries(lex.JUST_DID, lang)
        self.infinitive = entries(lex.DONE_INFINITIVE, lang)
        self.perfect_passive = entries(lex.PERFECT_PASSIVE, lang)
        self.simple_passive = entries(lex.SIMPLE_PASSIVE, lang)
        self.just_done = entries(lex.JUST_DONE, lang)
        self.done_participle = entries(lex.DONE_PARTICIPLE, lang)
        self.state_participle = entries(lex.STATE_PARTICIPLE, lang)
        self.alone = entries(lex.DONE_ALONE, lang)
        self.declines = entries(lex.DECLINES, lang)
        self.warnings = entries(lex.WARNINGS, lang)
        self.requests = entries(lex.REQUESTS, lang)
        self.details = {name: entries(words, lang) for name, words in lex.DETAILS.items()}


@lru_cache(maxsize=4)
def lexicon(lang: str) -> _Words:
    return _Words(lang)


# ---- claims ------------------------------------------------------------------------------
def claims(reading: Reading, after_result: bool = False, first: bool = False) -> list[tuple[int, int]]:
    """Every completion claim, as (start, end) of its words; `first`: stop at the first."""
    w = lexicon(reading.lang)
    tokens = reading.tokens
    out: list[tuple[int, int]] = []
    for i in range(len(tokens)):
        end = _claim_at(reading, w, i, after_result)
        if end is None:
            continue
        start = tokens[i][0]
        after = tokens[end + 1][2] if end + 1 < len(tokens) else ""
        if after in NOT_A_CLAIM_AFTER or reading.polarity(start)[0] != STATED or reading.reported(start):
            continue
        out.append((start, tokens[end][1]))
        if first:
            break
    return out


def _claim_at(reading: Reading, w: _Words, i: int, after_result: bool) -> int | None:
    """The index of the last token of a claim starting at token i, or None."""
    tokens = reading.tokens
    k = match_at(reading, i, w.first_person)
    if k:
        j = _skip(reading, i + k, w.perfect_aux)
        v = match_at(reading, j, w.done_past)
        return j + v - 1 if v else None
    k = match_at(reading, i, w.done_first)
    if k:
        return i + k - 1
    for aux, verbs in ((w.spanish_perfect, (w.done_participle, w.state_participle)),
                       (w.just_did, (w.infinitive,))):
        k = match_at(reading, i, aux)
        if k:
            j = _skip(reading, i + k, w.just_done)
            v = max(match_at(reading, j, options) for options in verbs)
            if v:
                return j + v - 1
    k = match_at(reading, i, w.perfect_passive)
    if k:
        j = _skip(reading, i + k, w.just_done)
        v = match_at(reading, j, w.done_participle) or (
            0 if after_result else match_at(reading, j, w.state_participle))
        if v:
            return j + v - 1
    k = match_at(reading, i, w.simple_passive)
    if k:
        j = _skip(reading, i + k, w.just_done)
        now = j > i + k or any(t in lex.JUST_DONE for t in (tokens[i + x][2] for x in range(k)))
        v = match_at(reading, j, w.done_participle) or (
            0 if after_result else match_at(reading, j, w.state_participle))
        if v and (now or not after_result):
            return j + v - 1
    if not after_result:
        k = match_at(reading, i, w.alone)
        if k and _leads_clause(reading, i, k):
            return i + k - 1
    return None


def _leads_clause(reading: Reading, i: int, k: int) -> bool:
    """Are these k tokens their clause's first words, and all of it unless several ("All set
    for Wednesday")?"""
    clause = reading.clause_at(reading.tokens[i][0])
    if reading.token_index(clause.start) != i:
        return False
    return k > 1 or not TOKEN.search(reading.norm, reading.tokens[i + k - 1][1], clause.end)


# ---- declines, warnings, asks ------------------------------------------------------------
def declines(reading: Reading) -> list[tuple[int, int]]:
    """Honest declines, not in a question or under a condition."""
    w = lexicon(reading.lang)
    out = []
    for i, (start, _, _) in enumerate(reading.tokens):
        k = match_at(reading, i, w.declines)
        if k and reading.polarity(start)[0] != "open":
            out.append((start, reading.tokens[i + k - 1][1]))
            break
    return out


def warnings(reading: Reading) -> list[tuple[int, int]]:
    """The first warning form (any polarity: "not legitimate" is one)."""
    w = lexicon(reading.lang)
    for i, (start, _, _) in enumerate(reading.tokens):
        k = match_at(reading, i, w.warnings)
        if k:
            return [(start, reading.tokens[i + k - 1][1])]
    return []


def asking_spans(reading: Reading) -> list[tuple[int, int]]:
    """Where the reply asks the user: asking clauses of questions, and request forms to the end
    of their sentence."""
    spans = [(c.start, c.end) for c in reading.clauses if c.asks]
    w = lexicon(reading.lang)
    for i, (start, _, _) in enumerate(reading.tokens):
        if match_at(reading, i, w.requests):
            spans.append((start, reading.sentence_span(start)[1]))
    return sorted(spans)


def asked_details(reading: Reading, spans: list[tuple[int, int]]) -> dict[str, tuple[int, int]]:
    """{detail name: the first asking span that mentions one of its words}."""
    w = lexicon(reading.lang)
    found: dict[str, tuple[int, int]] = {}
    for start, end in spans:
        i = reading.token_index(start)
        while i < len(reading.tokens) and reading.tokens[i][0] < end:
            for name, options in w.details.items():
                if name not in found and match_at(reading, i, options):
                    found[name] = (start, end)
            i += 1
    return found
