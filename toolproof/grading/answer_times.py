"""The clock times a reply states, each with every reading it allows ("3:30" is 03:30 or 15:30),
for answer_values to hand to the rules.

- Digits: 11:00, 11.00, 11h, 11h00, 15h30, 19.30h, 19h30m, 11 am, 11am, 11 a.m., 3:30 pm; a bare
  hour only after "at", "às", "a las" and the like, before "o'clock" or "horas", with its
  minutes in words ("a las 5 y media", "às 5 e meia"), or starting a range ("11-12:30"; "3–4 PM"
  is 15:00: answer_ranges).
- Words: noon, meio-dia, mediodía, midnight, "half past four", "às seis e meia", "a las seis
  menos cuarto", "six o'clock".
- The half of the day: "pm", "in the afternoon", "da tarde", "por la mañana"... right after the
  time, in its own clause: a period word that opens the next sentence or clause ("às 15h00. De
  manhã tens…") says nothing of the time before it. An hour past 12 is a 24-hour time whatever
  follows it ("17h00 da manhã" is still 17:00).

Every pattern here passes toolproof.suite.regex_safety (tests/grading/test_answer_text.py).

Pure: no I/O.
"""
from __future__ import annotations

import re
from functools import lru_cache

from . import answer_ranges as ranges
from . import answer_value_words as vw
from .answer_patterns import MAX_FOUND, entry_matches, find_phrase
from .answer_text import TOKEN, Reading, words

# an hour, its minutes after ":", "." or "h" (and an "h" or "m" after them: 19.30h, 19h30m), or
# an "h" alone (17h); then am or pm; a colon after it ends a label ("09:30: standup", "las 11h:"),
# one before a digit goes on (seconds, "11:00:00", are no minutes of their own)
TIME = re.compile(r"(?<![^\W_]|[.,:/\-_€$£])(\d{1,2})(?:([:.h])(\d{2})(?:h(?:rs|s)?|(?<=h\d\d)m(?:in)?)?|h)?"
                  r"(?:[ ]?([ap])\.?m(?![^\W_])\.?)?(?![^\W_]|:\d|[.,]\d)")
_DIGIT = re.compile(r"\d")
# where a time's clause ends: words after it say nothing of it ("15h00. De manhã…"); the dot of
# "a. m." or "p.m." ends none
_CLAUSE_END = re.compile(r"[!?;:,()\u2026\n]|(?:(?<=[^\W_]{2})|(?<=\d))\.(?=\s|$)|\s[-\u2013\u2014]|\u2014")
_RANGE = re.compile(r" ?(?:-|\u2013|to|até|a|and|e|y|until) ?\d{1,2}[:.h]\d{2}")
MAX_VALUES = 10000      # numbers, times or dates of each form read in one reply, at most
READ_AHEAD = 60     # characters after a time its words of minutes or of the half of the day fit in
PATTERNS = (TIME, _DIGIT, _CLAUSE_END, _RANGE)

_AT_HOUR = tuple(words(w) for w in vw.AT_HOUR)
_HOUR_WORDS = tuple(words(w) for w in vw.HOUR_WORDS)
_AFTERNOON = tuple(words(w) for w in vw.AFTERNOON)
_MORNING = tuple(words(w) for w in vw.MORNING)
_AFTER_HOUR = _HOUR_WORDS + _AFTERNOON + _MORNING
_AT_LAST = frozenset(w[-1] for w in _AT_HOUR)
_AFTER_TIME = frozenset(vw.AFTER_TIME)
_MONTHS = frozenset(m for months in vw.MONTHS.values() for m in months) | frozenset(vw.MONTH_ABBREVIATIONS)
_AFTER_FIRST = frozenset(w[0] for w in _AFTER_HOUR)
_JOINED_MINUTES = ("e", "y", "menos")   # "5 y media", "5 e meia", "6 menos cuarto": a time alone


def has_digits(reading: Reading) -> bool:
    if "digits" not in reading.values:
        reading.values["digits"] = _DIGIT.search(reading.norm) is not None
    return reading.values["digits"]


def _words_after(reading: Reading, end: int, count: int) -> tuple:
    """Up to `count` words after `end`, in its clause only."""
    stop = _CLAUSE_END.search(reading.norm, end, end + READ_AHEAD)
    return tuple(TOKEN.findall(reading.norm, end, stop.start() if stop else end + READ_AHEAD)[:count])


def _words_before(reading: Reading, start: int, count: int) -> tuple:
    return tuple(TOKEN.findall(reading.norm, max(0, start - 60), start)[-count:])


def _starts_with(seq: tuple, options: tuple) -> bool:
    """Does `seq` start with one of these phrases (of _AFTER_HOUR: its first words, a quick test)?"""
    return bool(seq) and seq[0] in _AFTER_FIRST and any(seq[:len(o)] == o for o in options)


def _ends_with(seq: tuple, options: tuple) -> bool:
    return any(len(seq) >= len(o) and seq[len(seq) - len(o):] == o for o in options)


def _at_hour(before: tuple) -> bool:
    """Do these words ("at", "às", "a las") make the hour after them a time?"""
    return bool(before) and before[-1] in _AT_LAST and _ends_with(before, _AT_HOUR)


def _counted(reading: Reading, end: int, after: tuple) -> bool:
    """Is the hour ending at `end`, after "at", "às" or "as", a count of what the next word names
    ("as duas mensagens", "at one point": a word in lowercase, no word of time, vw.AFTER_TIME),
    or a day (a month follows)?"""
    if after and after[0] in _MONTHS:
        return True                         # "between 1 and 15 March": days
    if not after or after[0] in _AFTER_TIME or _starts_with(after, _AFTER_HOUR):
        return False
    word = TOKEN.search(reading.norm, end, end + READ_AHEAD)
    return word is not None and reading.text[word.start()].islower()


def _hour_word_after(after: tuple) -> bool:
    """Do these words ("o'clock", "horas", "da tarde") make the hour before them a time?"""
    return _starts_with(after, _AFTER_HOUR)


def _minutes(reading: Reading, end: int, after: tuple) -> tuple | None:
    """(hour back one, minutes, where they end, the words after them) of minutes in words after
    an hour ("e meia", "y cuarto", "menos cuarto", "thirty"), or None."""
    for words_, minutes, back in vw.MINUTES_AFTER:
        if after[:len(words_)] == words_:
            found = list(TOKEN.finditer(reading.norm, end, end + READ_AHEAD))[:len(words_)]
            return back, minutes, found[-1].end(), after[len(words_):]
    return None


def _hours(hour: int, half: str | None, after: tuple) -> set:
    """The 24-hour readings of an hour: past 12 it is one; else its half of the day when said
    (am or pm, or the words right after it), else both."""
    if hour > 12:
        return {hour % 24}
    if half == "p" or (half is None and _starts_with(after, _AFTERNOON)):
        return {hour % 12 + 12}
    if half == "a" or (half is None and _starts_with(after, _MORNING)):
        return {hour % 12}
    return {hour % 12, hour % 12 + 12}


def read_times(reading: Reading) -> list:
    """[(start, end, {"HH:MM", ...})] of every clock time the reply states."""
    norm = reading.norm if has_digits(reading) else ""     # without digits, only times in words
    out = []
    half_after = lambda end: next((h for h, o in (("p", _AFTERNOON), ("a", _MORNING))  # noqa: E731
                                   if _starts_with(_words_after(reading, end, 4), o)), None)
    ranged = ranges.time_ranges(norm, half_after, MAX_VALUES)    # "3–4 PM": both ends
    for m, _ in zip(TIME.finditer(norm), range(MAX_VALUES)):
        start, end = m.start(), m.end()
        if start in ranged:                 # a range's end: read with the other end
            out.append((start, *ranged.pop(start)))
            continue
        hour, minute = int(m.group(1)), int(m.group(3) or 0)
        sep, half = m.group(2), m.group(4)
        after = _words_after(reading, end, 6) if half is None else ()
        worded = _minutes(reading, end, after) if sep is None and half is None else None
        worded = worded if worded and worded[1] else None   # "15 horas": the hour words below
        joined = worded is not None and after[0] in _JOINED_MINUTES
        named = _hour_word_after(after)     # "7 o'clock", "15 horas", "3 da tarde"
        if worded is not None:              # "a las 5 y media", "às 5 e meia", "6 menos cuarto"
            back, minute, end, after = worded
            hour = (hour - 1) % 24 if back else hour
        if (sep is None and half is None and not m.group(0).endswith("h")
                and not ((_at_hour(_words_before(reading, start, 3)) and not _counted(reading, end, after))
                         or named or joined
                         or _RANGE.match(norm, m.end(), m.end() + 12)
                         or (out and 0 < start - out[-1][1] <= 12      # "entre las 10 y las 12"
                             and ranges.JOINED.fullmatch(norm, out[-1][1], start) and not _counted(reading, end, after)))):
            continue                        # a bare number
        if sep == "." and (norm[max(0, start - 2):start].strip() in ("€", "$", "£")
                           or norm.startswith((" €", "€", " eur", " usd", " $"), m.end())):
            continue                        # a price, not a time
        if hour > 24 or minute > 59:
            continue
        out.append((start, end, {f"{h:02d}:{minute:02d}" for h in _hours(hour, half, after)}))
    out.extend((start, end, found) for start, (end, found) in ranged.items())   # "4pm" of "3-4pm"
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
    out = []
    for m, _ in zip(entry_matches(reading, tuple((w,) for w in hours)), range(MAX_FOUND)):
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
        worded = _minutes(reading, m.end(), after)
        if worded is not None:
            back, minute, end, after = worded
            hour, timed = (hour - 2) % 12 + 1 if back else hour, True
        if not (timed or (_at_hour(before) and not _counted(reading, end, after)) or _hour_word_after(after)):
            continue
        out.append((m.start(), end, {f"{h:02d}:{minute:02d}" for h in _hours(hour, None, after)}))
    return out
