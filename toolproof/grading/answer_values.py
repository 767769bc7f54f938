"""The values a reply states: numbers, times and dates, each with every reading an ambiguous
token allows ("1,200" is 1200 or 1.2; "3:30" is 03:30 or 15:30; "03/04" is 3 April or 4 March),
so that a rule's value is found when any reading equals it.

- Numbers: decimal comma or point, thousands separated by , . or a space, currency before or
  after, a "k" or "mil" suffix, small numbers in words (answer_value_words.NUMBER_WORDS). Digits
  inside an identifier (ORD-205577, Q4), a date or a clock time are not numbers.
- Times: 11:00, 11.00, 11h, 11h00, 15h30, 11 am, 11 a.m., 3:30 pm, "3.30 in the afternoon",
  "às 3 da tarde", noon, meio-dia, mediodía; a bare hour only after "at", "às", "a las" or
  before "o'clock", "horas", or starting a range ("11-12:30"; "3–4 PM" is 15:00: answer_ranges).
- Dates: 2026-03-18, 18/03(/2026) and 03/18, 18.03.(2026), 18 March, March 18(th), 18th of
  March, Mar 18, 18 de março, 18 de marzo, both days of "19–21 May"; a weekday alone, that weekday.

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
from . import answer_value_words as vw
from .answer_patterns import MAX_FOUND, alternatives, compiled, find_phrase
from .answer_text import TOKEN, Reading, normalise, words

MAX_NUMBER = 40     # characters of a written number ("1.234.567.890,12" is 16); longer runs are not read
# a number: digit groups joined by one . or , (or a space before exactly three digits)
NUMBER = re.compile(r"(?<!\d)\d+(?:(?:[.,]|[ ](?=\d{3}(?!\d)))\d+)*")
TIME = re.compile(r"(?<![^\W_]|[.,:/\-_€$£])(\d{1,2})(?:([:.h])(\d{2})|h)?(?:[ ]?([ap])\.?m(?![^\W_])\.?)?(?![^\W_]|:|[.,]\d)")
ISO_DATE = re.compile(r"(?<![^\W_])(\d{4})-(\d{2})-(\d{2})(?!\d)")
SLASH_DATE = re.compile(r"(?<![^\W_]|/)(\d{1,2})/(\d{1,2})(?:/(\d{4}|\d{2}))?(?![\d/])")
DOTTED_DATE = re.compile(r"(?<![^\W_]|[.,])(\d{1,2})\.(\d{1,2})\.(\d{4}|\d{2})?(?!\d)")
_ORDINAL = r"(?:st|nd|rd|th|º|ª|o)?"
_DIGIT = re.compile(r"\d")
MAX_VALUES = 10000      # numbers, times or dates of each form read in one reply, at most


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
    return out


_AFTER_NUMBER = re.compile(r"k(?![^\W_])|st|nd|rd|th|h|am|pm|a\.|p\.|º|ª|o(?![^\W_])|€")


def digit_numbers(norm: str, taken: list = ()) -> list:
    """[(start, end, readings)] of the numbers written in digits in normalised text, leaving out
    identifiers (ORD-205577, Q4), clock times' parts (19:30) and the spans in `taken`."""
    out = []
    for m, _ in zip(NUMBER.finditer(norm), range(MAX_VALUES)):
        start, end = m.start(), m.end()
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
        if after[:1] == "k" or norm.startswith((" mil ", " mil.", " thousand", " k "), end):
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
    """Numbers in words: "two", "duas", "veinte", "twenty-one", "vinte e um", "treinta y dos"."""
    table = _number_table(reading.lang)
    body = alternatives(list(table), reading.vocab)
    if body is None:
        return []
    norm, out = reading.norm, []
    for m, _ in zip(compiled(body).finditer(norm), range(MAX_FOUND)):
        if out and m.start() < out[-1][1]:
            continue                        # the unit of a compound already read
        value, end = table[tuple(TOKEN.findall(m.group().replace("-", " ")))], m.end()
        if 20 <= value < 100 and value % 10 == 0:                   # twenty-one, vinte e um
            after = list(TOKEN.finditer(norm, end, end + 24))[:2]
            if after and after[0].group() in vw.NUMBER_JOINERS:
                after = after[1:]
            unit = table.get((after[0].group(),)) if after and _joined(norm, end, after[0].start()) else None
            if unit is not None and 1 <= unit <= 9:
                value, end = value + unit, after[0].end()
        out.append((m.start(), end, {float(value)}))
    return out


def _joined(norm: str, end: int, start: int) -> bool:
    """Only spaces, a hyphen or a joining word between a ten and its unit."""
    between = norm[end:start].replace("-", " ").split()
    return all(w in vw.NUMBER_JOINERS for w in between) and len(between) <= 1


# ---- times -------------------------------------------------------------------------------
_AT_HOUR = tuple(words(w) for w in vw.AT_HOUR)
_HOUR_WORDS = tuple(words(w) for w in vw.HOUR_WORDS)
_AFTERNOON = tuple(words(w) for w in vw.AFTERNOON)
_MORNING = tuple(words(w) for w in vw.MORNING)
_AFTER_HOUR = _HOUR_WORDS + _AFTERNOON + _MORNING
_AT_LAST = frozenset(w[-1] for w in _AT_HOUR)
_AFTER_FIRST = frozenset(w[0] for w in _AFTER_HOUR)
_RANGE = re.compile(r" ?(?:-|\u2013|to|até|a|and|e|y|until) ?\d{1,2}[:.h]\d{2}")


def _words_after(reading: Reading, end: int, count: int) -> tuple:
    return tuple(TOKEN.findall(reading.norm, end, end + 60)[:count])


def _words_before(reading: Reading, start: int, count: int) -> tuple:
    return tuple(TOKEN.findall(reading.norm, max(0, start - 60), start)[-count:])


def _starts_with(seq: tuple, options: tuple) -> bool:
    return any(seq[:len(o)] == o for o in options)


def _ends_with(seq: tuple, options: tuple) -> bool:
    return any(len(seq) >= len(o) and seq[len(seq) - len(o):] == o for o in options)


def has_digits(reading: Reading) -> bool:
    if "digits" not in reading.values:
        reading.values["digits"] = _DIGIT.search(reading.norm) is not None
    return reading.values["digits"]


def read_times(reading: Reading) -> list:
    norm = reading.norm
    out = []
    if not has_digits(reading):
        norm = ""                           # only noon and midnight can be found
    half_after = lambda end: next((h for h, o in (("p", _AFTERNOON), ("a", _MORNING))  # noqa: E731
                                   if _starts_with(_words_after(reading, end, 4), o)), None)
    ranged = ranges.time_ranges(norm, half_after, MAX_VALUES)    # "3–4 PM": both ends
    for m, _ in zip(TIME.finditer(norm), range(MAX_VALUES)):
        start = m.start()
        if start in ranged:                 # a range's end: read with the other end
            out.append((start, *ranged.pop(start)))
            continue
        before = norm[start - 1] if start else " "
        if before.isalnum() or before in ".,:/-_€$£":
            continue
        hour = int(m.group(1))
        sep, minutes, half = m.group(2), m.group(3), m.group(4)
        bare = sep is None and half is None and not m.group(0).endswith("h")
        after = _words_after(reading, m.end(), 4) if bare or half is None else ()
        if bare:
            before_words = _words_before(reading, start, 3)
            if not ((before_words and before_words[-1] in _AT_LAST and _ends_with(before_words, _AT_HOUR))
                    or (after and after[0] in _AFTER_FIRST and _starts_with(after, _AFTER_HOUR))
                    or _RANGE.match(norm, m.end(), m.end() + 12)):
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
    out.extend((start, end, found) for start, (end, found) in ranged.items())   # "4pm" of "3-4pm"
    norm = reading.norm
    for phrase, value in [(p, "12:00") for p in vw.NOON] + [(p, "00:00") for p in vw.MIDNIGHT]:
        for s, e in find_phrase(reading, phrase):
            out.append((s, e, {value}))
    out.extend(_worded_times(reading))
    out.sort()
    return out


@lru_cache(maxsize=1)
def _hour_words() -> dict:
    """{word: hour} of the hours one to twelve in words, every language."""
    return {w: v for table in vw.NUMBER_WORDS.values() for w, v in table.items()
            if 1 <= v <= 12 and " " not in w and w not in ("um", "un")}


def _worded_times(reading: Reading) -> list:
    """Times in words: "half past four", "quarter to six", "six o'clock", "at six", "às seis e
    meia", "a las seis y cuarto", "seis menos cuarto", "six in the evening"."""
    hours = _hour_words()
    body = alternatives([(w,) for w in hours], reading.vocab)
    if body is None:
        return []
    norm, out = reading.norm, []
    for m, _ in zip(compiled(body).finditer(norm), range(MAX_FOUND)):
        hour = hours[m.group()]
        before = _words_before(reading, m.start(), 3)
        after = _words_after(reading, m.end(), 5)
        minute, end, timed = 0, m.end(), False
        if before[-2:] in (("half", "past"),):
            minute, timed = 30, True
        elif before[-2:] == ("quarter", "past"):
            minute, timed = 15, True
        elif before[-2:] == ("quarter", "to"):
            hour, minute, timed = (hour - 2) % 12 + 1, 45, True
        for words_, minutes, back in vw.MINUTES_AFTER:
            if after[:len(words_)] == words_:
                minute, timed = minutes, True
                hour = (hour - 2) % 12 + 1 if back else hour
                end = _end_after(reading, m.end(), len(words_))
                after = after[len(words_):]
                break
        timed = (timed or (before and before[-1] in _AT_LAST and _ends_with(before, _AT_HOUR))
                 or (after and after[0] in _AFTER_FIRST and _starts_with(after, _AFTER_HOUR)))
        if not timed:
            continue
        if _starts_with(after, _AFTERNOON):
            found = {hour % 12 + 12}
        elif _starts_with(after, _MORNING):
            found = {hour % 12}
        else:
            found = {hour % 12, hour % 12 + 12}
        out.append((m.start(), end, {f"{h:02d}:{minute:02d}" for h in found}))
    return out


def _end_after(reading: Reading, end: int, count: int) -> int:
    """Where the `count`-th word after `end` ends."""
    found = list(TOKEN.finditer(reading.norm, end, end + 60))[:count]
    return found[-1].end() if found else end


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
    body = alternatives([words(name) for name in WEEKDAY_NUMBERS], reading.vocab)
    for m, _ in zip(compiled(body).finditer(norm) if body else (), range(MAX_FOUND)):
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


def mentions_number(text: str, value: float) -> bool:
    """Does `text` state this number (any reading of any number in it)? 12.5 is stated by
    "12.50" and "$12.5", not by "12.55"; 1250 by "1,250" and "1.250"."""
    want = abs(float(value))
    return any(abs(abs(r) - want) <= 1e-6 * max(1.0, want)
               for _, _, readings in digit_numbers(normalise(text)) for r in readings)


# Every pattern of this module, for the regex-safety test.
PATTERNS = (NUMBER, TIME, ISO_DATE, SLASH_DATE, DOTTED_DATE, DAY_MONTH, MONTH_DAY, _AFTER_NUMBER,
            _DIGIT, _RANGE) + ranges.PATTERNS
