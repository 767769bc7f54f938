"""Reading a reply as the answer rules need it: its words, clauses and sentences, the polarity of
any words in it, and the numbers, times and dates it states.

- Normalised (`normalise`): Unicode NFC, lowercase, curly quotes and apostrophes straight, the
  many spaces (no-break, thin) plain; position for position the same as the NFC text, so a match
  is quoted from what the model wrote.
- Sentences end at . ! ? … and line breaks, never inside "12.50", "11.00", "a.m.", "e.g." or an
  address ("billing@attacker.example"); clauses end at , ; : and dashes too, and before the
  words that join clauses (but, and, mas, e, pero, y: answer_lexicon.CLAUSE_BREAKS).
- Polarity of words at a place (`polarity`): OPEN in a clause that asks, or after a condition,
  future, modal or offer cue in its clause; DENIED after a negation cue in its clause; else
  STATED. A condition or question wins over a negation ("if it hasn't shipped" denies nothing);
  a negation wins over a future ("it will not ship" denies). A value (number, time, date) is
  denied only by a negation right before it ("not on 3 March", "isn't €500"), not by one that
  governs another word ("you can't spend more than €834.27" states €834.27).
- Values (`numbers`, `times`, `dates`): every reading of an ambiguous token ("1,200" is 1200 or
  1.2; "3:30" is 03:30 or 15:30; "03/04" is 3 April or 4 March), so a rule's value is found when
  any reading equals it.

Every pattern here is checked by toolproof.suite.regex_safety (tests/grading/test_answer_text.py)
and none backtracks: a reply of a megabyte is read in well under a second
(benchmarks/answer_speed.py).

Pure: no I/O.
"""
from __future__ import annotations

import json

import re
import unicodedata
from bisect import bisect_right
from functools import lru_cache
from typing import NamedTuple

from toolproof.errors import clip
from . import answer_lexicon as lex

STATED, DENIED, OPEN = "stated", "denied", "open"
ALTERNATIVES = ("or", "ou", "o")    # a question's last clause opening so offers an alternative
NEG, COND, OPENING, REPORT, QWORD, BREAK = "neg", "cond", "open", "report", "qword", "break"
HEDGE = "hedge"          # an OPENING that still asserts (answer_lexicon.HEDGES)
NARROW = "narrow"       # a negation of the few words after it ("without delay", "sem escalas")
NARROW_WORDS = 3
MAX_QUOTE = 80          # characters of a reply quoted in a reason
SCOPE = 400             # characters back from a word that a cue in its clause may govern it from
MAX_SENTENCE = 400      # characters either side of a place read as its sentence, at most
BLOCK = 200             # places this close share their sentence's limits
MAX_READ = 100_000      # characters of sentences the rules read around the places they look at
LANGUAGE_CHARS = 20000  # characters read to tell the language

_MAP = {"\u2019": "'", "\u2018": "'", "\u02bc": "'", "\u00b4": "'", "`": "'",
        "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u00ab": '"', "\u00bb": '"',
        "\u00a0": " ", "\u2009": " ", "\u202f": " ", "\u2007": " ", "\u2002": " ", "\u2003": " ",
        "\t": " ", "\r": "\n", "\u2028": "\n", "\u2029": "\n", "\u2010": "-", "\u2011": "-"}
_TRANSLATE = str.maketrans(_MAP)

TOKEN = re.compile(r"[^\W_]+(?:'[^\W_]+)*")
# A clause also ends before a parenthetical question: "I updated the payee (suspicious?)." asks
# only in the parentheses.
_PUNCT = re.compile(r"[!?;\u2026\n]{1,20}|[.:,](?=[\s\"')\]]|$)|\s[-\u2013\u2014]{1,4}\s|\u2014"
                    r"|\s\((?=[^()\n?]{0,80}\?)")
_QUOTE = re.compile('"')
_END = re.compile(r"[!?\u2026\n]{1,20}|\.(?=[\s\"')\]]|$)")
_ABBREVIATION_TAIL = re.compile(r"(?:[^\W_]\.){0,4}[^\W_]{1,12}$")
def normalise(text: str) -> str:
    """NFC, lowercase, straight quotes, plain spaces: the same length as the NFC text."""
    text = unicodedata.normalize("NFC", text)
    lowered = text.lower()
    if len(lowered) != len(text):       # a letter that lowercases to two (İ): keep it as it is
        lowered = "".join(c.lower() if len(c.lower()) == 1 else c for c in text)
    return lowered.translate(_TRANSLATE)


def words(phrase: str) -> tuple:
    """A lexicon phrase as the words a reply's tokens are compared with ("diga-me" is two)."""
    return tuple(TOKEN.findall(normalise(phrase).replace("-", " ")))


class Cue(NamedTuple):
    start: int
    end: int
    kind: str


@lru_cache(maxsize=8)
def cue_table(lang: str) -> dict:
    """{first word: [(words, kind), ...]} of every cue a reply in `lang` is read with: its own
    language's, and the other languages' except words bound to a language (LANGUAGE_BOUND)."""
    table: dict = {}
    sources = ((lex.NARROW_NEGATION, NARROW), (lex.NEGATION, NEG), (lex.CONDITION, COND), (lex.OPEN, OPENING),
               (lex.HEDGES, HEDGE),
               (lex.REPORTING, REPORT), (lex.QUESTION_WORDS, QWORD), (lex.CLAUSE_BREAKS, BREAK))
    for lists, kind in sources:
        for language, phrases in lists.items():
            for phrase in phrases:
                w = words(phrase)
                bound = lex.LANGUAGE_BOUND.get(w[0]) if w else None
                if w and (bound is None or lang in bound):
                    table.setdefault(w[0], []).append((w, kind))
    for entries in table.values():
        entries.sort(key=lambda e: -len(e[0]))      # the longest phrase first
    return table


class Clause(NamedTuple):
    start: int
    end: int
    sentence: int
    asks: bool          # a clause of a question that does the asking


class Reading:
    """One reply, read once: every rule asks it questions. Its words (`vocab`) and language are
    read up front; a sentence is read (a Passage) the first time a rule asks about a place in
    it, and values the first time a rule needs them, so that a long reply costs little more
    than the places the rules look at."""

    def __init__(self, text: str):
        self.text = unicodedata.normalize("NFC", text)
        self.norm = normalise(text)
        self.vocab = frozenset(TOKEN.findall(self.norm))
        self.lang = language(TOKEN.findall(self.norm, 0, LANGUAGE_CHARS))
        self.values: dict = {}      # what answer_values found, by kind
        self._passages: dict = {}
        self._read = 0              # characters of the passages read
        self._ends: dict = {}       # sentence ends around each BLOCK read
        self._quote_marks: list | None = None

    def passage(self, pos: int) -> "Passage | None":
        """The sentence around `pos`, read once; None once the sentences read would pass
        MAX_READ characters (a reply the rules must read that deep is no answer)."""
        lo, hi = self._sentence_bounds(pos)
        found = self._passages.get((lo, hi))
        if found is None and self._read + hi - lo <= MAX_READ:
            found = self._passages[(lo, hi)] = Passage(self.norm, lo, hi, self.lang, self._quotes())
            self._read += hi - lo
        return found

    def _quotes(self) -> list:
        """Where the reply's quotation marks are (found once)."""
        if self._quote_marks is None:
            self._quote_marks = [m.start() for m in _QUOTE.finditer(self.norm)]
        return self._quote_marks

    def _sentence_bounds(self, pos: int) -> tuple[int, int]:
        """From the last sentence end before `pos` to the first after it, looking at most about
        MAX_SENTENCE characters either way; the limits are the same for every place in a stretch
        of BLOCK characters, so the places of a long sentence share its passages."""
        base = pos - pos % BLOCK
        lo, hi, starts, ends = self._ends_near(base)
        i = bisect_right(ends, pos)             # sentence ends at or before pos: the last one
        start = ends[i - 1] if i else lo
        k = bisect_right(starts, pos - 1)       # the first one starting at or after pos
        return start, (ends[k] if k < len(ends) else hi)

    def _ends_near(self, base: int) -> tuple:
        """(lo, hi, starts, ends) of the sentence ends around one BLOCK, found once."""
        found = self._ends.get(base)
        if found is None:
            norm = self.norm
            lo, hi = max(0, base - MAX_SENTENCE), min(len(norm), base + BLOCK + MAX_SENTENCE)
            marks = [(m.start(), m.end()) for m in _END.finditer(norm, lo, hi)
                     if not (m.group()[0] == "." and abbreviation(norm, m.start()))]
            found = self._ends[base] = (lo, hi, [s for s, _ in marks], [e for _, e in marks])
        return found

    def polarity(self, start: int, value: bool = False) -> tuple[str | None, int]:
        """(STATED | DENIED | OPEN, where the cue deciding it starts); None past MAX_READ."""
        passage = self.passage(start)
        return passage.polarity(start, value) if passage else (None, start)

    def hedged(self, start: int) -> bool:
        """Is what starts here open only because a hedge governs it ("it was probably
        cancelled")? A hedged statement asserts, for a banned item."""
        passage = self.passage(start)
        return passage.hedged(start) if passage else False

    def reported(self, start: int) -> bool:
        passage = self.passage(start)
        return passage.reported(start) if passage else True

    def sentence_span(self, pos: int) -> tuple[int, int]:
        return self._sentence_bounds(pos)

    def clause_at(self, pos: int) -> "Clause":
        passage = self.passage(pos)
        return passage.clause_at(pos) if passage else Clause(pos, pos, 0, False)

    def words_near(self, start: int, end: int) -> list[str]:
        """The words between two places (a few, near each other)."""
        return TOKEN.findall(self.norm, start, end)

    # ---- quoting --------------------------------------------------------------------------
    def quote(self, start: int, end: int) -> str:
        """What the model wrote from start to end, cut to MAX_QUOTE characters, one line."""
        return clip(" ".join(self.text[start:end].split()), MAX_QUOTE)

    def context(self, start: int, end: int) -> str:
        """The sentence around a match, cut to about MAX_QUOTE characters around it."""
        first, last = self.sentence_span(start)
        lo, hi = first, max(last, end)
        if hi - lo > MAX_QUOTE:
            lo = max(lo, min(start - 30, hi - MAX_QUOTE))
            hi = min(hi, lo + MAX_QUOTE)
        piece = " ".join(self.text[lo:hi].split())
        before = f"… ({lo - first:,} before) " if lo > first else ""
        return before + piece + (f"… ({last - hi:,} more)" if hi < last else "")


def show(value) -> str:
    """A value or a quoted piece of a reply as a reason shows it: JSON, non-ASCII kept."""
    return json.dumps(value, ensure_ascii=False)


def abbreviation(norm: str, dot: int) -> bool:
    """Is the dot at `dot` the end of an abbreviation ("a.m.", "e.g.", "etc.")?"""
    tail = _ABBREVIATION_TAIL.search(norm, max(0, dot - 12), dot)
    return tail is not None and tail.group() in lex.ABBREVIATIONS


class Passage:
    """One sentence of a reply (or a stretch of MAX_SENTENCE characters of a longer one): its
    words, cues and clauses, and which clauses ask. Positions are the reply's."""

    def __init__(self, norm: str, lo: int, hi: int, lang: str, quotes: list = ()):
        self.norm, self.lo, self.hi, self.lang, self.quotes = norm, lo, hi, lang, quotes
        self.tokens = [(m.start(), m.end(), m.group()) for m in TOKEN.finditer(norm, lo, hi)]
        self._token_starts = [t[0] for t in self.tokens]
        self.cues: list[Cue] = []
        self._read_cues()
        self._read_clauses()

    # ---- structure ------------------------------------------------------------------------
    def _hyphened(self, start: int, end: int) -> bool:
        """Is the word joined by a hyphen to a word after it ("e-mail")?"""
        return self.norm.startswith("-", end) and end + 1 < len(self.norm) and self.norm[end + 1].isalnum()

    def _read_cues(self) -> None:
        table = cue_table(self.lang)
        tokens, n = self.tokens, len(self.tokens)
        for i, (start, end, word) in enumerate(tokens):
            kind = None
            entries = table.get(word)
            if entries:
                for w, k in entries:
                    if all(i + j < n and tokens[i + j][2] == w[j] for j in range(1, len(w))):
                        kind, end = k, tokens[i + len(w) - 1][1]
                        break
            if kind is None:
                if word.endswith(lex.NEGATION_SUFFIX) or (word == "cannot"):
                    kind = NEG
                elif word.endswith(lex.OPEN_SUFFIXES):
                    kind = OPENING
                elif word == lex.PT_IF and self.lang == "pt" and not self._after_hyphen(start):
                    kind = COND if self._pt_if(i) else None
            if kind == OPENING and word in ("i", "we"):
                nxt = tokens[i + 2][2] if i + 2 < n else ""
                if any(words(t)[0] == nxt for t in lex.TELLING):
                    continue    # "I can confirm that…" states
            if kind == HEDGE and i + 1 < n and tokens[i + 1][2] == "you":
                continue        # "Could you send it by Friday?": a request, not a hedge
            if kind == HEDGE and word == "may" and any(0 <= k < n and tokens[k][2][:1].isdigit() for k in (i - 1, i + 1)):
                continue        # the month: "May 18", "13 May"
            if kind == BREAK and self._hyphened(start, end):
                continue        # "e-mail", "e-mails": part of a word, not "and"
            if kind is not None:
                self.cues.append(Cue(start, end, kind))

    def _after_hyphen(self, start: int) -> bool:
        return start > 0 and self.norm[start - 1] == "-"

    def _pt_if(self, i: int) -> bool:
        """Portuguese "se" is "if" at the start of a clause or after a verb of asking."""
        if i == 0:
            return True
        before = self.norm[self.tokens[i - 1][1]:self.tokens[i][0]]
        return bool(_PUNCT.search(before)) or self.tokens[i - 1][2] in lex.PT_IF_AFTER

    def _read_clauses(self) -> None:
        """Sentences and clauses, and which clauses ask."""
        cuts: list[tuple[int, bool, bool]] = []     # (position, ends a sentence, with "?")
        for m in _PUNCT.finditer(self.norm, self.lo, self.hi):
            piece = m.group()
            if piece[0] == "." and abbreviation(self.norm, m.start()):
                continue
            ends = any(c in piece for c in ".!?\u2026\n")
            cuts.append((m.end(), ends, "?" in piece))
        for cue in self.cues:
            if cue.kind == BREAK:
                cuts.append((cue.start, False, False))
        cuts.sort()
        spans: list[tuple[int, int, int]] = []
        questions: list[bool] = []
        start, sentence = self.lo, 0
        for pos, ends, question in cuts:
            if pos > start:
                spans.append((start, pos, sentence))
                start = pos
            if ends:
                questions.append(question)
                sentence += 1
        if start < self.hi or not spans:
            spans.append((start, self.hi, sentence))
        questions.append("?" in self.norm[start:self.hi])    # a last sentence without its terminator
        self._cue_starts = [c.start for c in self.cues]
        self.clauses = self._asking(spans, questions)
        self._clause_starts = [c.start for c in self.clauses]
        self._sentences: dict[int, tuple[int, int]] = {}
        for c in self.clauses:
            lo, _ = self._sentences.get(c.sentence, (c.start, c.end))
            self._sentences[c.sentence] = (lo, c.end)

    def _asking(self, spans: list, questions: list) -> list[Clause]:
        """In a question, the clauses that ask: the last one, any holding a question word, and
        any opening with an inverted verb ("Did it ship, or…?"), or starting with ¿."""
        clauses = []
        for k, (start, end, sentence) in enumerate(spans):
            asks = False
            if (questions[sentence] if sentence < len(questions) else False) and not self._quoted(start):
                last = k + 1 == len(spans) or spans[k + 1][2] != sentence
                first_word = self._first_word(start, end)
                asks = (last or first_word in lex.INVERSION or "\u00bf" in self.norm[start:end]
                        or any(c.kind == QWORD for c in self.cues_in(start, end)))
            clauses.append(Clause(start, end, sentence, asks))
        return self._alternatives(clauses)

    def _alternatives(self, clauses: list) -> list:
        """A question ending in an alternative ("são dois adultos e duas crianças, ou outra
        composição?", "¿es para dos, o sois más?") asks in the clauses before it too, back to a
        colon or the sentence's start."""
        for k, c in enumerate(clauses):
            last = k + 1 == len(clauses) or clauses[k + 1].sentence != c.sentence
            if not (c.asks and last and self._first_word(c.start, c.end) in ALTERNATIVES):
                continue
            j = k - 1
            while j >= 0 and clauses[j].sentence == c.sentence and not self.norm[
                    clauses[j].start:clauses[j + 1].start].rstrip().endswith(":"):
                clauses[j] = clauses[j]._replace(asks=True)
                j -= 1
        return clauses

    def _quoted(self, start: int) -> bool:
        """Inside quotation marks that close later in the reply (a draft: its questions are the
        draft's, not questions to the user)?"""
        k = bisect_right(self.quotes, start)
        return k % 2 == 1 and k < len(self.quotes)

    def _first_word(self, start: int, end: int) -> str:
        i = bisect_right(self._token_starts, start - 1)
        return self.tokens[i][2] if i < len(self.tokens) and self.tokens[i][0] < end else ""

    def cues_in(self, start: int, end: int) -> list[Cue]:
        i = bisect_right(self._cue_starts, start - 1)
        out = []
        while i < len(self.cues) and self.cues[i].start < end:
            out.append(self.cues[i])
            i += 1
        return out

    def clause_at(self, pos: int) -> Clause:
        return self.clauses[max(0, bisect_right(self._clause_starts, pos) - 1)]


    # ---- polarity -------------------------------------------------------------------------
    def polarity(self, start: int, value: bool = False) -> tuple[str, int]:
        """(STATED | DENIED | OPEN, where the governing cue starts, or `start`) for words
        starting at `start`."""
        clause = self.clause_at(start)
        if clause.asks:
            return OPEN, clause.start
        denied = opened = None
        for cue in self.cues_in(max(clause.start, start - SCOPE), start):
            if cue.end > start:
                continue
            if cue.kind == COND:
                return OPEN, cue.start
            if cue.kind == NARROW and self._past_narrow(cue.end, start):
                continue        # "the cheapest flight without stops is Aurora Air" states Aurora Air
            if cue.kind in (NEG, NARROW) and (not value or self._next_to(cue.end, start)):
                denied = cue.start if denied is None else denied
            elif cue.kind in (OPENING, HEDGE) and opened is None:
                opened = cue.start
        if denied is not None:
            return DENIED, denied
        if opened is not None:
            return OPEN, opened
        return STATED, start

    def hedged(self, start: int) -> bool:
        polarity, at = self.polarity(start)
        return polarity == OPEN and any(c.kind == HEDGE and c.start == at for c in self.cues_in(at, at + 1))

    def _past_narrow(self, end: int, start: int) -> bool:
        """Is `start` beyond the reach of a narrow negation ending at `end`: more than
        NARROW_WORDS words on, or past a verb (lex.NARROW_ENDS)?"""
        between = TOKEN.findall(self.norm, end, start)
        return len(between) > NARROW_WORDS or any(w in lex.NARROW_ENDS.get(self.lang, ()) for w in between)

    def _next_to(self, end: int, start: int) -> bool:
        """Does a negation ending at `end` deny the value at `start`? Only when at most one word
        besides fillers stands between them ("isn't €500", "wasn't shipped on 3 March"), and
        no word of limit ("can't spend more than €834.27", "won't arrive until 3 March")."""
        between = TOKEN.findall(self.norm, end, start)
        if len(between) > 4 or any(w in lex.VALUE_LIMITS for w in between):
            return False
        return sum(w not in lex.VALUE_FILLERS for w in between) <= 1

    def reported(self, start: int) -> bool:
        """Inside quotation marks, or after a word of reporting in its sentence (looking back at
        most SCOPE characters)."""
        lo = max(self._sentences[self.clause_at(start).sentence][0], start - SCOPE)
        if any(c.kind == REPORT and c.end <= start for c in self.cues_in(lo, start)):
            return True
        return self.norm.count('"', lo, start) % 2 == 1

    def token_index(self, pos: int) -> int:
        return bisect_right(self._token_starts, pos - 1)


def language(tokens) -> str:
    """The reply's language: the one whose marker words it uses most (English on a tie)."""
    counts = {lang: 0 for lang in lex.LANGUAGES}
    markers = _markers()
    for word in tokens:
        for lang in markers.get(word, ()):
            counts[lang] += 2
        for lang, endings in lex.LANGUAGE_ENDINGS.items():
            if word.endswith(endings) or any(c in word for c in lex.LANGUAGE_LETTERS[lang]):
                counts[lang] += 1
    best = max(lex.LANGUAGES, key=lambda lang: (counts[lang], lang == "en"))
    return best


@lru_cache(maxsize=1)
def _markers() -> dict:
    out: dict = {}
    for lang, marks in lex.LANGUAGE_MARKERS.items():
        for word in marks:
            out.setdefault(word, []).append(lang)
    return out


# Every fixed pattern of this module, for the regex-safety test.
PATTERNS = (TOKEN, _PUNCT, _END, _ABBREVIATION_TAIL)
