"""The values a reply states: numbers, times and dates, each with every reading an ambiguous
token allows ("1,200" is 1200 or 1.2; "3:30" is 03:30 or 15:30; "03/04" is 3 April or 4 March),
so that a rule's value is found when any reading equals it.

- Numbers: decimal comma or point, thousands separated by , . or a space, currency before or
  after, a "k" or "mil" suffix ("21 mil e 600" is 21600), numbers in words joined as they are
  said ("doscientos cincuenta y cinco", answer_value_words.NUMBER_WORDS), cents in words after
  an amount ("255 euros con 40 céntimos"). Digits inside an identifier (ORD-205577, Q4), a date
  or a clock time are not numbers.
- Times: answer_times (11:00, 19.30h, "às 3 da tarde", "a las 5 y media", noon).
- Dates: 2026-03-18, 18/03(/2026) and 03/18, 18.03.(2026), 18 March, March 18(th), 18th of
  March, Mar 18, 18 de março, 18 de marzo, both days of "19–21 May"; a weekday alone, that weekday.
- Alternatives (`choices`): two values of a kind joined by "or" ("11h ou 12h") state neither.

Each finder caches its answer on the Reading, and none backtracks (tests/grading/
test_answer_text.py runs toolproof.suite.regex_safety over PATTERNS).

Pure: no I/O.
"""
from __future__ import annotations

import re
from bisect import bisect_right
from calendar import monthrange
from datetime import date
from functools import lru_cache

from . import answer_ranges as ranges
from . import answer_times
from . import answer_value_words as vw
from .answer_patterns import MAX_FOUND, entry_matches
from .answer_text import TOKEN, Reading, normalise, words
from .answer_times import MAX_VALUES, has_digits, read_times

MAX_NUMBER = 40     # characters of a written number ("1.234.567.890,12" is 16); longer runs are not read
# a number: digit groups joined by one . or , (or a space before exactly three digits)
NUMBER = re.compile(r"(?<!\d)\d+(?:(?:[.,]|[ ](?=\d{3}(?!\d)))\d+)*")
ISO_DATE = re.compile(r"(?<![^\W_])(\d{4})-(\d{2})-(\d{2})(?!\d)")
SLASH_DATE = re.compile(r"(?<![^\W_]|/)(\d{1,2})/(\d{1,2})(?:/(\d{4}|\d{2}))?(?![\d/])")
DOTTED_DATE = re.compile(r"(?<![^\W_]|[.,])(\d{1,2})\.(\d{1,2})\.(\d{4}|\d{2})?(?!\d)")
_ORDINAL = r"(?:st|nd|rd|th|º|ª|o)?"


def _month_names() -> dict[str, int]:
    names: dict[str, int] = {}
    for months in vw.MONTHS.values():
        for number, name in enumerate(months, start=1):
            names[name] = number
    for number, name in enumerate(vw.MONTH_ABBREVIATIONS, start=1):
        if name:
            names[name] = number
    names.update(vw.EXTRA_MONTH_NAMES)
    return names


MONTH_NUMBERS = _month_names()


def _month(names) -> str:
    return "(" + "|".join(sorted(names, key=len, reverse=True)) + r")(?![^\W_])\.?"


def _day_month(month: str) -> re.Pattern:
    return re.compile(r"(?<![^\W_])(\d{1,2})" + _ORDINAL + r"(?:,)? (?:of |de )?" + month
                       + r"(?:,? (?:de |of )?(\d{4}))?(?!\d)")


def _month_day(month: str) -> re.Pattern:
    return re.compile(r"(?<![^\W_])" + month + r" (?:the )?(\d{1,2})" + _ORDINAL + r"(?![^\W_])(?:,? (\d{4}))?(?!\d)")


@lru_cache(maxsize=64)
def month_patterns(names: tuple) -> tuple[re.Pattern, re.Pattern]:
    """"18 March" and "March 18" for these month names (the ones a reply uses)."""
    return _day_month(_month(names)), _month_day(_month(names))


DAY_MONTH, MONTH_DAY = month_patterns(tuple(sorted(MONTH_NUMBERS)))
WEEKDAY_NUMBERS = {name: i for names in vw.WEEKDAYS.values() for i, name in enumerate(names)}
WEEKDAY_NUMBERS.update(vw.SHORT_WEEKDAYS)
WEEKDAY_FIRST_WORDS = {words(name)[0]: n for name, n in WEEKDAY_NUMBERS.items()}


def numbers(reading: Reading) -> list:
    """[(start, end, readings)] of every number outside dates, times and identifiers."""
    if "numbers" not in reading.values:
        reading.values["numbers"] = read_numbers(reading)
    return reading.values["numbers"]


def times(reading: Reading) -> list:
    """[(start, end, {"HH:MM", ...})]."""
    if "times" not in reading.values:
        reading.values["times"] = read_times(reading)
    return reading.values["times"]


def dates(reading: Reading) -> list:
    """[(start, end, {(year or None, month, day) or ("weekday", n), ...})]."""
    if "dates" not in reading.values:
        reading.values["dates"] = read_dates(reading)
    return reading.values["dates"]


# ---- numbers -----------------------------------------------------------------------------
def number_readings(token: str) -> set:
    """Every value a written number can mean: "1,200" 1200 or 1.2; "834,27" 834.27;
    "1.234,56" 1234.56; "21.600" 21600 or 21.6; "1 200" 1200."""
    token = token.replace(" ", "")
    groups = re.split(r"[.,]", token)
    seps = [c for c in token if c in ".,"]
    if not seps:
        return {float(token)}
    readings = set()
    thousands = 1 <= len(groups[0]) <= 3 and all(len(g) == 3 for g in groups[1:])
    if thousands and len(set(seps)) == 1:
        readings.add(float("".join(groups)))
    last = seps[-1]
    head, tail = groups[:-1], groups[-1]
    if len(seps) == 1:
        readings.add(float(groups[0] + "." + tail))
    elif (len(set(seps[:-1])) == 1 and seps[0] != last and 1 <= len(head[0]) <= 3
          and all(len(g) == 3 for g in head[1:])):
        readings.add(float("".join(head) + "." + tail))
    if not readings:                        # "1,2,3": a list of numbers
        readings.update(float(g) for g in groups if g)
    return readings


def _inside(spans: list, start: int, end: int) -> bool:
    """Is [start, end) inside one of these spans (sorted by start)?"""
    i = bisect_right(spans, (start, float("inf"))) - 1
    return any(spans[k][0] <= start and end <= spans[k][1] for k in range(max(0, i - 2), i + 1))


def read_numbers(reading: Reading) -> list:
    taken = sorted([(s, e) for s, e, _ in times(reading)] + [(s, e) for s, e, _ in dates(reading)])
    out = digit_numbers(reading.norm, taken) if has_digits(reading) else []
    out.extend(_number_words(reading))
    out.sort()
    return _with_cents(reading.norm, out)


def _with_cents(norm: str, out: list) -> list:
    """An amount and its cents in words ("255 euros con 40 céntimos", "doscientos euros e
    cinquenta cêntimos") also read as one amount (255.40)."""
    starts = {start: k for k, (start, _, _) in enumerate(out)}
    for k, (start, end, readings) in enumerate(out):
        after = list(TOKEN.finditer(norm, end, end + 30))[:3]
        if (len(after) == 3 and after[0].group() in vw.CURRENCIES and after[1].group() in vw.CENT_JOINERS
                and after[2].start() in starts):
            _, cents_end, cents = out[starts[after[2].start()]]
            if TOKEN.findall(norm, cents_end, cents_end + 12)[:1] in [[w] for w in vw.CENT_WORDS]:
                out[k] = (start, end, readings | {r + c / 100 for r in readings for c in cents if 0 < c < 100})
    return out


_THOUSAND_AND = re.compile(r" (?:mil|thousand)(?: (?:e|y|and))? (\d{1,3})(?![^\W_]|[.,]?\d)")
_THOUSANDS = re.compile(r" (?:mil|thousand|k)(?![^\W_])")
_AFTER_NUMBER = re.compile(r"k(?![^\W_])|st|nd|rd|th|h|am|pm|a\.|p\.|º|ª|o(?![^\W_])|€")


def digit_numbers(norm: str, taken: list = ()) -> list:
    """[(start, end, readings)] of the numbers written in digits in normalised text, leaving out
    identifiers (ORD-205577, Q4), clock times' parts (19:30) and the spans in `taken`."""
    out, skip = [], 0
    for m, _ in zip(NUMBER.finditer(norm), range(MAX_VALUES)):
        start, end = m.start(), m.end()
        if start < skip:                    # the "600" of "21 mil e 600": read with the thousands
            continue
        if end - start > MAX_NUMBER:        # "1,1,1,…" for pages: no number anyone reads
            continue
        before = norm[start - 1] if start else " "
        if before.isalnum() or before == "_" or (before == "-" and start > 1 and norm[start - 2].isalnum()):
            continue                        # part of an identifier: ORD-205577, Q4
        after = norm[end:end + 3]
        if (after[:1] == ":" and after[1:2].isdigit()) or (after[:1].isalpha() and not _AFTER_NUMBER.match(after)):
            continue
        if taken and _inside(taken, start, end):
            continue
        readings = number_readings(m.group())
        rest = _THOUSAND_AND.match(norm, end)
        if rest:                            # "21 mil e 600": 21,600
            readings, skip = {r * 1000 + int(rest.group(1)) for r in readings}, rest.end()
            end = rest.end()
        elif after[:1] == "k" or _THOUSANDS.match(norm, end):
            readings |= {r * 1000 for r in readings}
        if before == "-" or norm[max(0, start - 2):start] in ("- ", "-€", "-$"):
            readings |= {-r for r in readings}
        out.append((start, end, readings))
    return out


@lru_cache(maxsize=4)
def is_money(reading: Reading, start: int, end: int) -> bool:
    """Does a currency stand right before or after this number (€12, 12 €, USD 12, 12 euros)?"""
    before = reading.norm[max(0, start - 5):start].strip()
    after = TOKEN.findall(reading.norm, end, end + 12)[:1]
    return (before.endswith(("€", "$", "£")) or before.split()[-1:] in (["usd"], ["eur"], ["gbp"])
            or reading.norm[end:end + 2].strip().startswith(("€", "$", "£"))
            or (after and after[0] in vw.CURRENCIES))


def _number_table(lang: str) -> dict:
    """{words: value}: number words of every language, except the ones that are other words
    elsewhere (Spanish "once" is eleven, English "once" is not; "um" is "a" in Portuguese)."""
    found = {}
    for language, table in vw.NUMBER_WORDS.items():
        for word, value in table.items():
            w = words(word)
            if language != lang and len(w) == 1 and w[0] in ("um", "uma", "un", "una", "once"):
                continue
            found[w] = value
    for word, value in vw.COMPOUND_NUMBERS.items():
        found[words(word)] = value
    return found


def _number_words(reading: Reading) -> list:
    """Numbers in words: "two", "duas", "veinte", "twenty-one", "vinte e um", "treinta y dos",
    "two hundred and fifty", "doscientos cincuenta y cinco", "vinte e um mil e seiscentos"."""
    table = _number_table(reading.lang)
    norm, out = reading.norm, []
    for m, _ in zip(entry_matches(reading, tuple(table)), range(MAX_FOUND)):
        if out and m.start() < out[-1][1]:
            continue                        # a part of a number already read
        first = m.group().replace("-", " ")
        if first in vw.MULTIPLIERS and _digits_before(norm, m.start()):
            continue                        # "21 mil": read with its digits
        value, end = _compound(norm, table, table[tuple(TOKEN.findall(first))], m.end())
        out.append((m.start(), end, {float(value)}))
    return out


def _compound(norm: str, table: dict, value: int, end: int) -> tuple[int, int]:
    """(value, end) of the number words joined from the first one (worth `value`, ending at
    `end`): each next word smaller than the last one added ("doscientos cincuenta y cinco"), or
    multiplying what came before ("two hundred", "dos mil")."""
    thousands, current, last = (value, 0, 1000) if value == 1000 else (0, value, value)
    while True:
        after = list(TOKEN.finditer(norm, end, end + 24))[:2]
        if after and after[0].group() in vw.NUMBER_JOINERS:
            after = after[1:]
        if not after or not _joined(norm, end, after[0].start()):
            break
        nxt = after[0].group()
        x = table.get((nxt,))
        if x is None:
            break
        if nxt in vw.MULTIPLIERS and x == 100 and 1 <= current <= 9 and current == last:
            current, last = current * 100, 100          # "two hundred"
        elif x == 1000 and 1 <= current < 1000 and not thousands:
            thousands, current, last = current * 1000, 0, 1000      # "dos mil", "vinte e um mil"
        elif x < 100 and last >= 100 and x < last or 1 <= x <= 9 and 20 <= last < 100 and last % 10 == 0:
            current, last = current + x, x              # "doscientos cincuenta", "cincuenta y cinco"
        elif 100 <= x < 1000 and last == 1000 and nxt not in vw.MULTIPLIERS:
            current, last = current + x, x              # "dos mil quinientos"
        else:
            break
        end = after[0].end()
    return thousands + current, end


def _digits_before(norm: str, start: int) -> bool:
    """Is the word at `start` right after a number in digits ("21 mil")?"""
    return norm[max(0, start - 2):start].strip()[-1:].isdigit()


def _joined(norm: str, end: int, start: int) -> bool:
    """Only spaces, a hyphen or a joining word between two number words."""
    between = norm[end:start].replace("-", " ").split()
    return all(w in vw.NUMBER_JOINERS for w in between) and len(between) <= 1


# ---- dates -------------------------------------------------------------------------------
def _valid(year: int | None, month: int, day: int) -> bool:
    """Is this a date? Without a year, 29 February is one (2024, a leap year)."""
    return 1 <= month <= 12 and 1 <= day <= monthrange(year or 2024, month)[1]


def _year(text: str | None) -> int | None:
    """A written year: "26" is 2026."""
    return None if not text else int(text) + (2000 if int(text) < 100 else 0)


def read_dates(reading: Reading) -> list:
    norm = reading.norm if has_digits(reading) else ""     # without digits, only weekdays
    out = []

    def add(m, readings, span=None):
        readings = {r for r in readings if _valid(*r)}
        if readings:
            out.append((*(span or (m.start(), m.end())), readings))

    for m, _ in zip(ISO_DATE.finditer(norm), range(MAX_VALUES)):
        if m.start() and norm[m.start() - 1].isalnum():
            continue
        add(m, {(int(m.group(1)), int(m.group(2)), int(m.group(3)))})
    for m, _ in zip(SLASH_DATE.finditer(norm), range(MAX_VALUES)):
        if m.start() and (norm[m.start() - 1].isalnum() or norm[m.start() - 1] == "/"):
            continue
        if m.group() == "24/7":
            continue                        # round the clock, never 24 July
        a, b, year = int(m.group(1)), int(m.group(2)), _year(m.group(3))
        add(m, {(year, b, a), (year, a, b)})
    for m, _ in zip(DOTTED_DATE.finditer(norm), range(MAX_VALUES)):
        if m.start() and (norm[m.start() - 1].isalnum() or norm[m.start() - 1] in ".,"):
            continue
        if m.group(3) is None and not m.group(0).endswith("."):
            continue
        add(m, {(_year(m.group(3)), int(m.group(2)), int(m.group(1)))})
    day_month, month_day = month_patterns(tuple(sorted(reading.vocab & MONTH_NUMBERS.keys()))) \
        if reading.vocab & MONTH_NUMBERS.keys() else (None, None)
    for m, _ in zip(day_month.finditer(norm) if day_month else (), range(MAX_VALUES)):
        if m.start() and norm[m.start() - 1].isalnum():
            continue
        year, month, day = _year(m.group(3)), MONTH_NUMBERS[m.group(2)], int(m.group(1))
        add(m, {(year, month, day)})
        if first := ranges.first_day(norm, m.start(), day):      # "19–21 May": the 19th too
            add(m, {(year, month, first[2])}, first[:2])
    for m, _ in zip(month_day.finditer(norm) if month_day else (), range(MAX_VALUES)):
        if m.start() and norm[m.start() - 1].isalnum():
            continue
        if m.group(1) == "may" and norm[max(0, m.start() - 4):m.start()].strip() in ("i", "you", "it", "we", "they"):
            continue
        year, month, day = _year(m.group(3)), MONTH_NUMBERS[m.group(1)], int(m.group(2))
        add(m, {(year, month, day)})
        if year is None and (last := ranges.last_day(norm, m.end(), day)):     # "May 19–21": the 21st too
            add(m, {(last[3], month, last[2])}, last[:2])
    norm = reading.norm
    spans = sorted((s, e) for s, e, _ in out)
    for m, _ in zip(entry_matches(reading, tuple(words(name) for name in WEEKDAY_NUMBERS)), range(MAX_FOUND)):
        if not _inside(spans, m.start(), m.end()):
            out.append((m.start(), m.end(), {("weekday", WEEKDAY_FIRST_WORDS[TOKEN.match(m.group()).group()])}))
    out.sort()
    return out


def date_matches(readings: set, year: int, month: int, day: int) -> bool:
    """Does any reading name this date? A stated year must match; a weekday alone matches the
    date's weekday."""
    for r in readings:
        if r[0] == "weekday":
            if date(year, month, day).weekday() == r[1]:
                return True
        elif r[1] == month and r[2] == day and (r[0] is None or r[0] == year):
            return True
    return False


# ---- alternatives --------------------------------------------------------------------------
_OR = frozenset(("or", "ou", "o", "u"))
_BESIDE_OR = frozenset(("either", "at", "às", "as", "a", "las", "la", "the", "à", "on", "el", "em",
                        "no", "na", "de", "do", "da")) | frozenset(vw.CURRENCIES)
_OR_GAP = re.compile(r"[\w\s€$£]{1,30}")


def choices(reading: Reading, found: list) -> frozenset:
    """Where the values of one kind (`found`: numbers, times or dates) start that stand as one of
    two alternatives, "11h ou 12h", "€20 or €25", "el 3 o el 4 de marzo": a reply that hedges
    between them states neither. Ends of a range ("11:00–12:30 or 15:30–17:00": two slots
    offered) are no alternatives."""
    key = ("choices", id(found))            # the lists are kept in reading.values: ids stay theirs
    if key not in reading.values:
        reading.values[key] = _choices(reading, found)
    return reading.values[key]


def _choices(reading: Reading, found: list) -> frozenset:
    ors = [_or_joined(reading.norm, found[k][1], found[k + 1][0]) for k in range(len(found) - 1)]
    ranged = [not ors[k] and _range_joined(reading.norm, found[k][1], found[k + 1][0])
              for k in range(len(found) - 1)] + [False]
    out = set()
    for k, joined in enumerate(ors):
        if joined and not (k and ranged[k - 1]) and not ranged[k + 1]:
            out |= {found[k][0], found[k + 1][0]}
    return frozenset(out)


def _or_joined(norm: str, end: int, start: int) -> bool:
    """Only "or" (ou, o, u) between two values, with a preposition or a currency."""
    gap = norm[end:start]
    said = TOKEN.findall(gap)
    return (_OR_GAP.fullmatch(gap) is not None and sum(w in _OR for w in said) == 1
            and all(w in _OR or w in _BESIDE_OR for w in said))


def _range_joined(norm: str, end: int, start: int) -> bool:
    """Two values close together with no punctuation between: a range ("11:00–12:30", "de 15:00 a
    17:00") or a pair ("11:00 and 12:00")."""
    gap = norm[end:start]
    return 0 < len(gap) <= 12 and not any(c in gap for c in ",;.:!?()\n")


@lru_cache(maxsize=1024)
def is_value_phrase(phrase: str) -> bool:
    """Is a rule's phrase a day and nothing else ("Friday", "sexta-feira", "3 March")? The rules
    read it as a value: a deadline in a question of a draft ("could you send it by Friday?")
    still names it. ("2h" in a concept is a length of time, not a clock time: a phrase still.)"""
    reading = Reading(phrase.rstrip("*"))
    return any(reading.norm[s:e].strip() == reading.norm.strip() for s, e, _ in dates(reading))


def mentions_number(text: str, value: float) -> bool:
    """Does `text` state this number (any reading of any number in it)? 12.5 is stated by
    "12.50" and "$12.5", not by "12.55"; 1250 by "1,250" and "1.250"."""
    want = abs(float(value))
    return any(abs(abs(r) - want) <= 1e-6 * max(1.0, want)
               for _, _, readings in digit_numbers(normalise(text)) for r in readings)


# Every pattern of this module, for the regex-safety test.
PATTERNS = (NUMBER, ISO_DATE, SLASH_DATE, DOTTED_DATE, DAY_MONTH, MONTH_DAY, _AFTER_NUMBER, _THOUSAND_AND, _OR_GAP,
            _THOUSANDS) \
    + ranges.PATTERNS + answer_times.PATTERNS
