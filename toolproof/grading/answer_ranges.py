"""Ranges of clock times and of days a reply states, whose start is written short: "3–4 PM",
"from 3 to 4 pm", "de 3 a 4 de la tarde", "3:30-5pm" (the end's half of the day reaches back to
the start: 15:00, 15:30), "19–21 May", "from 19 to 21 May", "May 19–21", "del 19 al 21 de mayo",
"de 19 a 21 de maio" (the month, and a year, reach to the other day: 19 May). A range states
both its ends, so both are read as values.

answer_values asks these finders and adds what they find to the times and dates it reads; this
module reads no value on its own. What is not a range stays as answer_values reads it: "3-4
days" (the end is no time), "10.50–12.40 EUR" (a price: a dot is no clock without am or pm),
"19 to 21" without a month, "June 24th, 3–4 PM" (a comma is no range's joiner: 24 June and 15:00,
never 3 or 4 June).

Every pattern here passes toolproof.suite.regex_safety (tests/grading/test_answer_text.py).

Pure: no I/O.
"""
from __future__ import annotations

import re

# Between the two ends: a dash, or a word of range ("to", "a", "al", "às", "até", "y", "e",
# "and"), with the article Spanish and Portuguese put before an hour ("de las 3 a las 4").
_JOIN = (r"(?: ?[-\u2013\u2014] ?| (?:to|till|until|through|and|a|al|às|as|até|e|y|hasta)"
         r"(?: las| la| as| a)? )")
_HOUR = r"(\d{1,2})(?:([:.h])(\d{2})|(h))?"
TIME_RANGE = re.compile(r"(?<![^\W_]|[.,:/\-_€$£])" + _HOUR + _JOIN + _HOUR
                        + r"(?:[ ]?([ap])\.?m(?![^\W_])\.?)?(?![^\W_]|:|[.,]\d)")
_ORDINAL = r"(?:st|nd|rd|th|º|ª)?"
_DAYS_JOIN = r"(?: ?[-\u2013\u2014] ?| (?:to|till|until|through|and|a|al|e|y|hasta) )"
# A first day right before a "21 May" ("19–", "from 19 to ", "del 19 al "), read up to its end.
DAY_BEFORE = re.compile(r"(?<![^\W_]|[.,:/\-_€$£])((\d{1,2})" + _ORDINAL + ")" + _DAYS_JOIN + r"$")
# A last day right after a "May 19" ("–21", " to 21st", "-21, 2026").
DAY_AFTER = re.compile(_DAYS_JOIN + r"(\d{1,2})" + _ORDINAL + r"(?![^\W_]|[.,:/]\d)(?:,? (\d{4})(?!\d))?")
LOOK_BACK = 24          # characters before a day-and-month a first day and its joiner fit in

JOINED = re.compile(_JOIN)    # the words between a range's two ends ("10 y las 12"), alone
PATTERNS = (TIME_RANGE, DAY_BEFORE, DAY_AFTER, JOINED)


def _clock(hour: int, half: str | None) -> set:
    """The 24-hour readings of an hour: its half of the day when known, else both up to 12."""
    if half:
        return {hour % 12 + (12 if half == "p" else 0)}
    return {hour % 12, hour % 12 + 12} if hour <= 12 else {hour % 24}


def time_ranges(norm: str, half_after, most: int) -> dict[int, tuple[int, set]]:
    """{where an end starts: (where it ends, {"HH:MM", ...})} for the start and the end of every
    time range (at most `most`) whose end says its half of the day (pm, am, or the words after it:
    `half_after(position)` -> "p", "a" or None) or is written as a clock time (16:00, 16h). A
    start without its own half takes the end's, one half earlier when that would pass the end
    ("11–1 pm" starts at 11:00)."""
    out: dict[int, tuple[int, set]] = {}
    for m, _ in zip(TIME_RANGE.finditer(norm), range(most)):
        h1, m1, h2, m2 = int(m.group(1)), int(m.group(3) or 0), int(m.group(5)), int(m.group(7) or 0)
        half = m.group(9) or half_after(m.end())
        if not half and not (m.group(6) in (":", "h") or m.group(8)):
            continue                        # "3 to 4", "10.50–12.40": no time said
        if max(h1, h2) > 24 or max(m1, m2) > 59 or (half and max(h1, h2) > 12):
            continue
        ends = _clock(h2, half)
        starts = _clock(h1, half)
        if half == "p" and min(starts) > max(ends):
            starts = {min(starts) - 12}
        out[m.start(1)] = (m.end(4) if m.group(4) else m.end(3) if m.group(3) else m.end(1),
                           {f"{h:02d}:{m1:02d}" for h in starts})
        out[m.start(5)] = (m.end(), {f"{h:02d}:{m2:02d}" for h in ends})
    return out


def first_day(norm: str, start: int, day: int) -> tuple[int, int, int] | None:
    """(start, end, day) of the first day of a range ending in the day-and-month at `start`
    whose day is `day` ("19" of "19–21 May", "del 19 al 21 de mayo"), or None. The first day
    comes before the last ("21–19 May" is no range)."""
    m = DAY_BEFORE.search(norm, max(0, start - LOOK_BACK), start)
    if m is None or int(m.group(2)) >= day:
        return None
    return m.start(1), m.end(1), int(m.group(2))


def last_day(norm: str, end: int, day: int) -> tuple[int, int, int, int | None] | None:
    """(start, end, day, year or None) of the last day of a range starting with the
    month-and-day that ends at `end` whose day is `day` ("21" of "May 19–21", "May 19 to 21st,
    2026"), or None."""
    m = DAY_AFTER.match(norm, end)
    if m is None or int(m.group(1)) <= day:
        return None
    return m.start(1), m.end(), int(m.group(1)), int(m.group(2)) if m.group(2) else None
