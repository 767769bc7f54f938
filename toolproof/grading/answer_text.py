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

import re
import unicodedata
from bisect import bisect_right
from functools import lru_cache
from typing import NamedTuple

from . import answer_lexicon as lex

STATED, DENIED, OPEN = "stated", "denied", "open"
NEG, COND, OPENING, REPORT, QWORD, BREAK = "neg", "cond", "open", "report", "qword", "break"
MAX_QUOTE = 80          # characters of a reply quoted in a reason
SCOPE = 400             # characters back from a word that a cue in its clause may govern it from
LANGUAGE_SAMPLE = 4000  # words read to tell the language

_MAP = {"\u2019": "'", "\u2018": "'", "\u02bc": "'", "\u00b4": "'", "`": "'",
        "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u00ab": '"', "\u00bb": '"',
        "\u00a0": " ", "\u2009": " ", "\u202f": " ", "\u2007": " ", "\u2002": " ", "\u2003": " ",
        "\t": " ", "\r": "\n", "\u2028": "\n", "\u2029": "\n", "\u2010": "-", "\u2011": "-"}
_TRANSLATE = str.maketrans(_MAP)

TOKEN = re.compile(r"[^\W_]+(?:'[^\W_]+)*")
_PUNCT = re.compile(r"[!?;\u2026\n]+|[.:,](?=[\s\"')\]]|$)|\s[-\u2013\u2014]+\s|\u2014")
_ABBREVIATION_TAIL = re.compile(r"(?:[^\W_]\.)*[^\W_]+$")
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
    sources = ((lex.NEGATION, NEG), (lex.CONDITION, COND), (lex.OPEN, OPENING),
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


def phrase_table(lists: dict, lang: str) -> dict:
    """{first word: [words, ...]} for one lexicon list in every language (bound words only in
    their own)."""
    return _phrase_table(tuple((k, tuple(v)) for k, v in lists.items()), lang)


@lru_cache(maxsize=64)
def _phrase_table(items: tuple, lang: str) -> dict:
    table: dict = {}
    for language, phrases in items:
        for phrase in phrases:
            w = words(phrase)
            bound = lex.LANGUAGE_BOUND.get(w[0]) if w else None
            if not w or (bound is not None and lang not in bound):
                continue
            table.setdefault(w[0], []).append(w)
    for entries in table.values():
        entries.sort(key=lambda e: -len(e))
    return table


class Clause(NamedTuple):
    start: int
    end: int
    sentence: int
    asks: bool          # a clause of a question that does the asking


class Reading:
    """One reply, read once: every rule asks it questions. Values are found on first use."""

    def __init__(self, text: str):
        self.text = unicodedata.normalize("NFC", text)
        self.norm = normalise(text)
        self.tokens = [(m.start(), m.end(), m.group()) for m in TOKEN.finditer(self.norm)]
        self._token_starts = [t[0] for t in self.tokens]
        self.lang = language(t[2] for t in self.tokens[:LANGUAGE_SAMPLE])
        self.cues: list[Cue] = []
        self._read_cues()
        self._read_clauses()
        self.values: dict = {}      # what answer_values found, by kind

    # ---- structure ------------------------------------------------------------------------
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
            if kind == OPENING and word == "may" and i + 1 < n and tokens[i + 1][2][:1].isdigit():
                continue        # the month: "May 18"
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
        for m in _PUNCT.finditer(self.norm):
            piece = m.group()
            if piece[0] == "." and self._abbreviation(m.start()):
                continue
            ends = any(c in piece for c in ".!?\u2026\n")
            cuts.append((m.end(), ends, "?" in piece))
        for cue in self.cues:
            if cue.kind == BREAK:
                cuts.append((cue.start, False, False))
        cuts.sort()
        spans: list[tuple[int, int, int]] = []
        questions: list[bool] = []
        start, sentence = 0, 0
        for pos, ends, question in cuts:
            if pos > start:
                spans.append((start, pos, sentence))
                start = pos
            if ends:
                questions.append(question)
                sentence += 1
        if start < len(self.norm) or not spans:
            spans.append((start, len(self.norm), sentence))
        questions.append("?" in self.norm[start:])    # a last sentence without its terminator
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
            if questions[sentence] if sentence < len(questions) else False:
                last = k + 1 == len(spans) or spans[k + 1][2] != sentence
                first_word = self._first_word(start, end)
                asks = (last or first_word in lex.INVERSION or "\u00bf" in self.norm[start:end]
                        or any(c.kind == QWORD for c in self.cues_in(start, end)))
            clauses.append(Clause(start, end, sentence, asks))
        return clauses

    def _first_word(self, start: int, end: int) -> str:
        i = bisect_right(self._token_starts, start - 1)
        return self.tokens[i][2] if i < len(self.tokens) and self.tokens[i][0] < end else ""

    def _abbreviation(self, dot: int) -> bool:
        tail = _ABBREVIATION_TAIL.search(self.norm, max(0, dot - 12), dot)
        return tail is not None and tail.group() in lex.ABBREVIATIONS

    def cues_in(self, start: int, end: int) -> list[Cue]:
        i = bisect_right(self._cue_starts, start - 1)
        out = []
        while i < len(self.cues) and self.cues[i].start < end:
            out.append(self.cues[i])
            i += 1
        return out

    def clause_at(self, pos: int) -> Clause:
        return self.clauses[max(0, bisect_right(self._clause_starts, pos) - 1)]

    def sentence_span(self, pos: int) -> tuple[int, int]:
        return self._sentences[self.clause_at(pos).sentence]

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
            if cue.kind == NEG and (not value or self._next_to(cue.end, start)):
                denied = cue.start if denied is None else denied
            elif cue.kind == OPENING and opened is None:
                opened = cue.start
        if denied is not None:
            return DENIED, denied
        if opened is not None:
            return OPEN, opened
        return STATED, start

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
        lo = max(self.sentence_span(start)[0], start - SCOPE)
        if any(c.kind == REPORT and c.end <= start for c in self.cues_in(lo, start)):
            return True
        return self.norm.count('"', lo, start) % 2 == 1

    # ---- quoting --------------------------------------------------------------------------
    def quote(self, start: int, end: int) -> str:
        """What the model wrote from start to end, cut to MAX_QUOTE characters, one line."""
        piece = " ".join(self.text[start:end].split())
        return piece if len(piece) <= MAX_QUOTE else piece[:MAX_QUOTE - 1] + "…"

    def context(self, start: int, end: int) -> str:
        """The sentence around a match, cut to about MAX_QUOTE characters around it."""
        lo, hi = self.sentence_span(start)
        hi = max(hi, end)
        if hi - lo > MAX_QUOTE:
            lo = max(lo, min(start - 30, hi - MAX_QUOTE))
            hi = min(hi, lo + MAX_QUOTE)
        piece = " ".join(self.text[lo:hi].split())
        return ("…" if lo > self.sentence_span(start)[0] else "") + piece + \
            ("…" if hi < self.sentence_span(start)[1] else "")

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


# ---- phrases -----------------------------------------------------------------------------
@lru_cache(maxsize=4096)
def phrase_pattern(phrase: str, loose: bool = False) -> re.Pattern | None:
    """A phrase as a whole-word pattern: spacing and hyphens between its words free, a trailing
    `*` a word prefix; `loose` (a value read from a tool result): any punctuation between words.
    None for a phrase without a letter or digit."""
    text = normalise(phrase).strip()
    prefix = text.endswith("*")
    text = text.rstrip("*").strip()
    parts = re.split(r"([^\W_]+)", text)
    if len(parts) < 2:
        return None
    pieces = []
    for k, part in enumerate(parts):
        if k % 2:
            pieces.append(re.escape(part))
        elif 0 < k < len(parts) - 1:        # between two words
            stripped = part.strip()
            if loose or stripped in ("", "-"):
                pieces.append(r"[\W_]+" if part else "")
            else:
                pieces.append(r"[ \-]*" + re.escape(stripped) + r"[ \-]*")
        else:                               # before the first or after the last word
            pieces.append(re.escape(part.strip()) if not loose else "")
    body = "".join(pieces)
    return re.compile(r"(?<![^\W_])" + body + (r"[^\W_]*" if prefix else r"(?![^\W_])"))


def find_phrase(reading: Reading, phrase: str, loose: bool = False) -> list[tuple[int, int]]:
    pattern = phrase_pattern(phrase, loose)
    if pattern is None:
        return []
    return [(m.start(), m.end()) for m in pattern.finditer(reading.norm)]


def find_words(reading: Reading, table: dict, start: int = 0, end: int | None = None) -> list:
    """[(start, end, words)] of lexicon phrases (a phrase_table) in the reply's tokens."""
    tokens, n = reading.tokens, len(reading.tokens)
    i = reading.token_index(start)
    out = []
    while i < n and (end is None or tokens[i][0] < end):
        entries = table.get(tokens[i][2])
        if entries:
            for w in entries:
                if all(i + j < n and tokens[i + j][2] == w[j] for j in range(1, len(w))):
                    out.append((tokens[i][0], tokens[i + len(w) - 1][1], w))
                    break
        i += 1
    return out


# Every fixed pattern of this module (phrase patterns are built per phrase: phrase_pattern),
# for the regex-safety test.
PATTERNS = (TOKEN, _PUNCT, _ABBREVIATION_TAIL)
