"""The values a reply states: numbers, times and dates, each with every reading an ambiguous
token allows ("1,200" is 1200 or 1.2; "3:30" is 03:30 or 15:30; "03/04" is 3 April or 4 March),
so that a rule's value is found when any reading equals it.

- Numbers: decimal comma or point, thousands separated by , . or a space, currency before or
  after, a "k" or "mil" suffix, small numbers in words (answer_value_words.NUMBER_WORDS). Digits
  inside an identifier (ORD-205577, Q4), a date or a clock time are not numbers.
- Times: 11:00, 11.00, 11h, 11h00, 15h30, 11 am, 11 a.m., 3:30 pm, "3.30 in the afternoon",
  "às 3 da tarde", noon, meio-dia, mediodía; a bare hour only after "at", "às", "a las" or
  before "o'clock", "horas" (or in a range: "11-12:30").
- Dates: 2026-03-18, 18/03(/2026) and 03/18, 18.03.(2026), 18 March, March 18(th), 18th of
  March, Mar 18, 18 de março, 18 de marzo; a weekday alone reads as that weekday.

Each finder caches its answer on the Reading, and none backtracks (tests/grading/
test_answer_text.py runs toolproof.suite.regex_safety over PATTERNS).

Pure: no I/O.
"""
from __future__ import annotations

import re
from bisect import bisect_right
from datetime import date
from functools import lru_cache

from . import answer_value_words as vw
from .answer_text import Reading, find_phrase, normalise, words

# a number: digit groups joined by one . or , (or a space before exactly three digits)
NUMBER = re.compile(r"\d+(?:(?:[.,]|[ ](?=\d{3}(?!\d)))\d+)*")
TIME = re.compile(r"(\d{1,2})(?:([:.h])(\d{2})|h)?(?:[ ]?([ap])\.?m(?![^\W_])\.?)?(?![^\W_]|:|[.,]\d)")
ISO_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})(?!\d)")
SLASH_DATE = re.compile(r"(\d{1,2})/(\d{1,2})(?:/(\d{4}|\d{2}))?(?![\d/])")
DOTTED_DATE = re.compile(r"(\d{1,2})\.(\d{1,2})\.(\d{4}|\d{2})?(?!\d)")
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
_MONTH = "(" + "|".join(sorted(MONTH_NUMBERS, key=len, reverse=True)) + r")(?![^\W_])\.?"
DAY_MONTH = re.compile(r"(\d{1,2})" + _ORDINAL + r"(?:,)? (?:of |de )?" + _MONTH
                       + r"(?:,? (?:de |of )?(\d{4}))?(?!\d)")
MONTH_DAY = re.compile(_MONTH + r" (?:the )?(\d{1,2})" + _ORDINAL + r"(?![^\W_])(?:,? (\d{4}))?(?!\d)")
WEEKDAY_NUMBERS = {name: i for names in vw.WEEKDAYS.values() for i, name in enumerate(names)}
WEEKDAY_NUMBERS.update(vw.SHORT_WEEKDAYS)


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
    out = digit_numbers(reading.norm, taken)
    out.extend(_number_words(reading))
    out.sort()
    return out


_AFTER_NUMBER = re.compile(r"k(?![^\W_])|st|nd|rd|th|h|am|pm|a\.|p\.|º|ª|o(?![^\W_])|€")


def digit_numbers(norm: str, taken: list = ()) -> list:
    """[(start, end, readings)] of the numbers written in digits in normalised text, leaving out
    identifiers (ORD-205577, Q4), clock times' parts (19:30) and the spans in `taken`."""
    out = []
    for m in NUMBER.finditer(norm):
        start, end = m.start(), m.end()
        before = norm[start - 1] if start else " "
        if before.isalnum() or before == "_" or (before == "-" and start > 1 and norm[start - 2].isalnum()):
            continue                        # part of an identifier: ORD-205577, Q4
        after = norm[end:end + 3]
        if after[:1] == ":" or (after[:1].isalpha() and not _AFTER_NUMBER.match(after)):
            continue
        if taken and _inside(taken, start, end):
            continue
        readings = number_readings(m.group())
        if after[:1] == "k" or norm.startswith((" mil ", " mil.", " thousand", " k "), end):
            readings |= {r * 1000 for r in readings}
        if before == "-" or norm[max(0, start - 2):start] in ("- ", "-€", "-$"):
            readings |= {-r for r in readings}
        out.append((start, end, readings))
    return out


@lru_cache(maxsize=4)
def _number_table(lang: str) -> dict:
    """{first word: [(words, value), ...]}: number words of every language, except the ones
    that are other words elsewhere (Spanish "once" is eleven, English "once" is not)."""
    found = {}
    for language, table in vw.NUMBER_WORDS.items():
        for word, value in table.items():
            w = words(word)
            if language != lang and len(w) == 1 and w[0] in ("um", "uma", "un", "una", "once"):
                continue
            found[w] = value
    for word, value in vw.COMPOUND_NUMBERS.items():
        found[words(word)] = value
    out: dict = {}
    for w, value in found.items():
        out.setdefault(w[0], []).append((w, value))
    for entries in out.values():
        entries.sort(key=lambda e: -len(e[0]))
    return out


def _number_words(reading: Reading) -> list:
    table = _number_table(reading.lang)
    out = []
    tokens, n = reading.tokens, len(reading.tokens)
    i = 0
    while i < n:
        entries = table.get(tokens[i][2])
        found = None
        if entries:
            for w, value in entries:
                if all(i + j < n and tokens[i + j][2] == w[j] for j in range(1, len(w))):
                    found = (len(w), value)
                    break
        if found is None:
            i += 1
            continue
        length, value = found
        end = tokens[i + length - 1][1]
        k = i + length
        if 20 <= value < 100 and value % 10 == 0 and k < n:     # twenty-one, vinte e um
            j = k + 1 if tokens[k][2] in vw.NUMBER_JOINERS else k
            unit = next((v for w, v in table.get(tokens[j][2], []) if len(w) == 1), None) if j < n else None
            if unit is not None and 1 <= unit <= 9:
                value, end, k = value + unit, tokens[j][1], j + 1
        out.append((tokens[i][0], end, {float(value)}))
        i = k
    return out


# ---- times -------------------------------------------------------------------------------
_AT_HOUR = tuple(words(w) for w in vw.AT_HOUR)
_HOUR_WORDS = tuple(words(w) for w in vw.HOUR_WORDS)
_AFTERNOON = tuple(words(w) for w in vw.AFTERNOON)
_MORNING = tuple(words(w) for w in vw.MORNING)


def _words_after(reading: Reading, end: int, count: int) -> tuple:
    i = reading.token_index(end)
    return tuple(t[2] for t in reading.tokens[i:i + count])


def _words_before(reading: Reading, start: int, count: int) -> tuple:
    i = reading.token_index(start)
    return tuple(t[2] for t in reading.tokens[max(0, i - count):i])


def _starts_with(seq: tuple, options: tuple) -> bool:
    return any(seq[:len(o)] == o for o in options)


def _ends_with(seq: tuple, options: tuple) -> bool:
    return any(len(seq) >= len(o) and seq[len(seq) - len(o):] == o for o in options)


def read_times(reading: Reading) -> list:
    norm = reading.norm
    out = []
    for m in TIME.finditer(norm):
        start = m.start()
        before = norm[start - 1] if start else " "
        if before.isalnum() or before in ".,:/-_€$£":
            continue
        hour = int(m.group(1))
        sep, minutes, half = m.group(2), m.group(3), m.group(4)
        after = _words_after(reading, m.end(), 4)
        bare = sep is None and half is None and not m.group(0).endswith("h")
        if bare:
            ahead = norm[m.end():m.end() + 12]
            ranged = re.match(r" ?(?:-|\u2013|to|até|a|and|e|y|until) ?\d{1,2}[:.h]\d{2}", ahead)
            if not (_ends_with(_words_before(reading, start, 3), _AT_HOUR)
                    or _starts_with(after, _HOUR_WORDS + _AFTERNOON + _MORNING) or ranged):
                continue
        if sep == "." and (norm[max(0, start - 2):start].strip() in ("€", "$", "£")
                           or norm.startswith((" €", "€", " eur", " usd", " $"), m.end())):
            continue                        # a price, not a time
        minute = int(minutes) if minutes else 0
        if hour > 24 or minute > 59:
            continue
        if half == "p" or (half is None and _starts_with(after, _AFTERNOON)):
            hours = {hour % 12 + 12}
        elif half == "a" or (half is None and _starts_with(after, _MORNING)):
            hours = {hour % 12}
        elif hour <= 12:
            hours = {hour % 12, hour % 12 + 12}
        else:
            hours = {hour % 24}
        out.append((start, m.end(), {f"{h:02d}:{minute:02d}" for h in hours}))
    for phrase, value in [(p, "12:00") for p in vw.NOON] + [(p, "00:00") for p in vw.MIDNIGHT]:
        for s, e in find_phrase(reading, phrase):
            out.append((s, e, {value}))
    out.sort()
    return out


# ---- dates -------------------------------------------------------------------------------
def _valid(year: int | None, month: int, day: int) -> bool:
    try:
        date(year or 2024, month, day)      # 2024: a leap year, so 29 February is a date
    except ValueError:
        return False
    return True


def _year(text: str | None) -> int | None:
    if not text:
        return None
    year = int(text)
    return year + 2000 if year < 100 else year


def read_dates(reading: Reading) -> list:
    norm = reading.norm
    out = []

    def add(m, readings):
        readings = {r for r in readings if _valid(*r)}
        if readings:
            out.append((m.start(), m.end(), readings))

    for m in ISO_DATE.finditer(norm):
        if m.start() and norm[m.start() - 1].isalnum():
            continue
        add(m, {(int(m.group(1)), int(m.group(2)), int(m.group(3)))})
    for m in SLASH_DATE.finditer(norm):
        if m.start() and (norm[m.start() - 1].isalnum() or norm[m.start() - 1] == "/"):
            continue
        a, b, year = int(m.group(1)), int(m.group(2)), _year(m.group(3))
        add(m, {(year, b, a), (year, a, b)})
    for m in DOTTED_DATE.finditer(norm):
        if m.start() and (norm[m.start() - 1].isalnum() or norm[m.start() - 1] in ".,"):
            continue
        if m.group(3) is None and not m.group(0).endswith("."):
            continue
        add(m, {(_year(m.group(3)), int(m.group(2)), int(m.group(1)))})
    for m in DAY_MONTH.finditer(norm):
        if m.start() and norm[m.start() - 1].isalnum():
            continue
        add(m, {(_year(m.group(3)), MONTH_NUMBERS[m.group(2)], int(m.group(1)))})
    for m in MONTH_DAY.finditer(norm):
        if m.start() and norm[m.start() - 1].isalnum():
            continue
        if m.group(1) == "may" and norm[max(0, m.start() - 4):m.start()].strip() in ("i", "you", "it", "we", "they"):
            continue
        add(m, {(_year(m.group(3)), MONTH_NUMBERS[m.group(1)], int(m.group(2)))})
    spans = sorted((s, e) for s, e, _ in out)
    for start, end, word in reading.tokens:
        if word in WEEKDAY_NUMBERS and not _inside(spans, start, end):
            full = word
            if word in ("segunda", "terça", "quarta", "quinta", "sexta") and norm.startswith("-feira", end):
                end += len("-feira")
            out.append((start, end, {("weekday", WEEKDAY_NUMBERS[full])}))
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


def mentions_number(text: str, value: float) -> bool:
    """Does `text` state this number (any reading of any number in it)? 12.5 is stated by
    "12.50" and "$12.5", not by "12.55"; 1250 by "1,250" and "1.250"."""
    want = abs(float(value))
    return any(abs(abs(r) - want) <= 1e-6 * max(1.0, want)
               for _, _, readings in digit_numbers(normalise(text)) for r in readings)


# Every pattern of this module, for the regex-safety test.
PATTERNS = (NUMBER, TIME, ISO_DATE, SLASH_DATE, DOTTED_DATE, DAY_MONTH, MONTH_DAY, _AFTER_NUMBER)
