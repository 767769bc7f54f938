"""The `grounded` rule: the facts a reply states that only a tool result or the user could have
given — calendar dates (a day and a month), clock times, money amounts and identifiers — must be
found in what the model was given: the (variant's) mock result, the user's prompt or the system
prompt. A reply that reports "shipped on 13 March" when the result says 2026-03-03, or a
transfer id one digit off, invents a fact, however well the rest of it reads.

What counts as a value here is deliberately narrow, so that correct replies are not caught:
- a date: a day with its month ("3 March", "03/03", "2026-03-03"); a weekday alone, a year
  alone, "in 3 days" are not dates;
- a time: a clock time ("16:40", "16.40", "16h40", "4pm", "19h", "a las 5 y media") or in words
  ("noon", "à meia-noite", "a la una", "às duas da tarde"); not a bare "24 hours", "at 7";
- money: a number with a currency sign or code ("€250", "20,55 $", "USD 40", "R$ 834,27") or
  with exactly two decimals ("834.27"); counts, years and percentages are not. Where the reply
  writes the amount's currency and the sources give theirs (a result's "currency": "EUR", "€"
  in the prompt), the two must agree: "R$ 834,27" for a EUR account is not grounded;
- an identifier: capitals and digits joined by a hyphen ("TRF-88413", "ACC-3310") or a code of
  six capitals and digits with both ("QW3R8T");
- a length of time ("48 hours", "3 dias"), only where a source states one of the same unit
  ("held for review for up to 24 hours"): "in 3 days" is free where no source counts days;
- a house, door or item number ("No. 41", "nº 41", "#41");
- a folder path of two parts or more ("/Finance/Tax/2025"), found in a source as a whole.

A value counts when it is STATED or OPEN (a wrong date in a future or a question is still
given to the user); a denied one ("not on 13 March") states nothing, nor do the options a
question offers ("What time: 9:00, 10:00 or 14:00?": two values of a kind or more). It is
grounded when any of its readings (an ambiguous "03/04", a bare "3:30") equals a value of the
same kind in the sources; amounts compare by absolute value ("-€300" in a result is "€300" in
a reply), and one worked out from given ones (rounded to whole units, a sum, a difference, a
small multiple) counts as given; dates and times are read out of ISO strings too; a day the
user named relative to today ("next Thursday") is the date it falls on when the system prompt
gives today's date.

Pure: no I/O.
"""
from __future__ import annotations

import math
import re
from bisect import bisect_left
from functools import lru_cache
from datetime import date, timedelta
from typing import Any, Iterable, NamedTuple

from . import answer_counts, answer_reasons
from . import answer_value_words as vw
from .answer_acts import lexicon
from .answer_patterns import find_entries, find_phrase
from .answer_text import DENIED, TOKEN, Reading, normalise
from .answer_values import dates, digit_numbers, is_money, numbers, times

# capitals and digits joined by hyphens, or a six-character code; filtered for a letter and a digit
IDENT = re.compile(r"(?<![\w\-])(?:[A-Z0-9]{2,12}(?:-[A-Z0-9]{1,12}){1,4}|[A-Z0-9]{6})(?![\w\-])")
TODAY = re.compile(r"(?:today|hoje|hoy)[^.\n]{0,30}?(\d{4})-(\d{2})-(\d{2})")
ISO_TIME = re.compile(r"(?<!\d)([01]?\d|2[0-3]):([0-5]\d)(?::[0-5]\d)?")
# a path of folders ("/Finance/Tax/2025", "/Documentos/Personal"): compared as written
PATH = re.compile(r"(?<![^\s(\"'`])/[^\W_][\w.\-]{0,60}(?:/[\w.\-]{1,60}){1,12}")
# a house, door or item number ("No. 41", "nº 41", "#41"): a number the result must hold
NUMBERED = re.compile(r"(?<![^\W_])(?:no\.|nº|n\.º|#) ?(\d{1,6})(?![\d,.]\d)")
# a length of time ("24 hours", "3 dias", "48 horas"): checked only against a source's lengths
# of the same unit, so "in 3 days" is free where the result names no days
DURATION = re.compile(r"(?<![\w.,])(\d{1,4}) ?(hours?|hrs?|horas?|days?|dias?|días?|weeks?|semanas?"
                      r"|minutes?|mins?|minutos?|months?|meses|mês|mes)(?![^\W_])")
UNITS = {"h": "hour", "ho": "hour", "da": "day", "di": "day", "dí": "day", "we": "week", "se": "week",
         "mi": "minute", "mo": "month", "me": "month", "mê": "month"}
CLOCK = re.compile(r"\d[:.h]\d\d|\d ?[ap]\.?m|\dh$|\d (?:e|y|menos) [^\W\d_]")    # "5 y media"
TWO_DECIMALS = re.compile(r"\d[.,]\d\d$")
GERUNDS = ("ing", "ndo")     # a clause opening with a gerund goes on about the item before it
MAX_AMOUNTS = 60        # given amounts worked out from (sums, differences), at most
MAX_MULTIPLE = 7        # a given amount times 2 to this ("€192 for two nights") is worked out
MAX_LISTS = 20          # lists of like objects in a result the rule reads, at most
MAX_CHECKED = 200       # values of a reply the rule checks, at most: a reply stating more is no answer
PATTERNS = (IDENT, PATH, NUMBERED, TODAY, DURATION, ISO_TIME, CLOCK, TWO_DECIMALS)


class Sources(NamedTuple):
    """The values the model was given, by kind."""
    dates: frozenset        # (month, day)
    times: frozenset        # "HH:MM"
    amounts: frozenset      # absolute values, rounded to the cent
    durations: frozenset    # (unit, count): the lengths of time the sources state
    text: str               # every source, normalised, for identifiers
    windows: tuple          # (from, to) minutes of the day: the times one result object spans
    items: tuple            # Item: the result's lists of like objects (offers, hotels, events)
    shown: dict             # kind -> a few of the result's values, for the reason
    currencies: frozenset = frozenset()     # the currency codes the sources give amounts in
    lists: tuple = ()       # every list of objects in the result: per object, its strings normalised
    reasons: frozenset = frozenset()    # the kinds of reason the result names (answer_reasons)


class Item(NamedTuple):
    """One object of a result's list of like objects, by the names that tell it from its
    siblings ("Meridian Jet", "Casa Azahar") and the times and amounts it holds."""
    group: int              # which list
    names: tuple
    times: frozenset
    amounts: frozenset


class Finding(NamedTuple):
    """A value the rule objects to: held by no source, or given to the wrong item."""
    claim: "Claim"
    held: str               # a few of the result's values of its kind
    item: str | None = None     # the item the reply gives it to (misattributed)
    owner: str | None = None    # the item the result gives it to


class Claim(NamedTuple):
    start: int
    end: int
    kind: str               # "date" | "time" | "amount" | "duration" | "number" | "id" | "path"
    shown: str              # the value as the reason names it
    readings: Any           # what it may mean: {(month, day)}, {"HH:MM"}, {cents}, the id or path lowercase
    currency: str | None = None     # an amount's currency code, when the reply writes one


def _strings(value: Any) -> Iterable[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield str(k)
            yield from _strings(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _strings(v)


def _numbers_in(value: Any) -> Iterable[float]:
    if isinstance(value, bool):
        return
    if isinstance(value, (int, float)):
        number = float(value) if isinstance(value, float) or abs(value) < 10 ** 300 else float("inf")
        if math.isfinite(number):       # NaN, ±inf and huge integers state no amount
            yield number
    elif isinstance(value, dict):
        for v in value.values():
            yield from _numbers_in(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _numbers_in(v)


def _windows(value: Any) -> Iterable[tuple[int, int]]:
    """The span of the clock times each object of a result holds ({"start": "16:30", "end":
    "17:45"}: 16:30 to 17:45): a time inside it is a choice within what the result gave."""
    if isinstance(value, dict):
        minutes = [int(m.group(1)) * 60 + int(m.group(2))
                   for v in value.values() if isinstance(v, str) for m in [ISO_TIME.search(v)] if m]
        if len(minutes) >= 2:
            yield min(minutes), max(minutes)
        for v in value.values():
            yield from _windows(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _windows(v)


def _items(mocks: Any) -> tuple:
    """Every object of every list of two or more objects in the result, with the short strings
    only it holds (its names) and its times and amounts."""
    lists, out = [objects for objects in answer_counts.object_lists(mocks) if len(objects) >= 2], []
    for group, objects in enumerate(lists[:MAX_LISTS]):
        strings = [{v for v in o.values() if isinstance(v, str) and 3 <= len(v) <= 40
                    and any(c.isalpha() for c in v) and not ISO_TIME.search(v)} for o in objects]
        for o, own in zip(objects, strings):
            names = tuple(v for v in own if not any(v in other for other in strings if other is not own))
            times = frozenset(f"{int(m.group(1)):02d}:{m.group(2)}" for v in _strings(o) for m in [ISO_TIME.search(v)] if m)
            out.append(Item(group, names, times, frozenset(_cents(n) for n in _numbers_in(o))))
    return tuple(out)


def _cents(value: float) -> int:
    """An amount in hundredths; -1 for one no text can state (NaN, ±inf, a number past 1e300)."""
    return round(abs(value) * 100) if math.isfinite(value) and abs(value) < 1e300 else -1


@lru_cache(maxsize=65_536)
def _text_facts(text: str, in_result: bool) -> tuple:
    """(dates, times, amounts, currencies, norm, durations, shown) of one source text, for
    read_sources to join: a pure function of the text, kept for texts met again (a world's rows
    come back in every transcript of its scenarios)."""
    reading, days, hours, amounts, codes = Reading(text), [], [], [], []
    shown: dict = {k: [] for k in ("date", "time", "duration", "number", "id", "path")}
    for _, _, readings in dates(reading):
        for r in (r for r in readings if r[0] != "weekday"):
            days.append((r[1], r[2]))
            shown["date"] += [f"{r[0] or '-'}-{r[1]:02d}-{r[2]:02d}"] if in_result else []
    for _, _, readings in times(reading):
        hours.extend(readings)
    for m in ISO_TIME.finditer(reading.norm):
        hours.append(f"{int(m.group(1)):02d}:{m.group(2)}")
        shown["time"] += [hours[-1]] if in_result else []
    for start, end, readings in digit_numbers(reading.norm):
        amounts.extend(_cents(r) for r in readings)
        codes += [code] if (code := currency_of(reading, start, end)) else []
    codes += CODE.findall(text) if in_result else []
    if in_result:
        shown["duration"] = [m.group() for m in DURATION.finditer(reading.text)]
        shown["number"] = [m.group(1) for m in NUMBERED.finditer(reading.norm)]
        shown["id"] = [m.group() for m in IDENT.finditer(reading.text) if _is_ident(m.group())]
        shown["path"] = [m.group() for m in PATH.finditer(reading.text)]
    return (tuple(days), tuple(hours), tuple(amounts), tuple(codes), reading.norm,
            tuple(_duration(m) for m in DURATION.finditer(reading.norm)), tuple((k, tuple(v)) for k, v in shown.items()))


def read_sources(mocks: dict | None, texts: Iterable[str], called: Any = ()) -> Sources:
    """Every date, time, amount and identifier in the mock results, the given texts (the user's
    prompt, the system prompt) and the arguments of the calls the model made (`called`: what it
    read out of the prompt, "the 1st through the 7th" sent as 2026-03-07)."""
    found: dict = {"dates": set(), "times": set(), "amounts": set(), "durations": set()}
    currencies: set = set()
    norms = []
    shown: dict = {"date": [], "time": [], "amount": [], "id": [], "path": [], "number": [], "duration": []}
    result_strings = list(_strings(mocks or {}))
    for n in _numbers_in(mocks or {}):
        found["amounts"].add(_cents(n))
        shown["amount"].append(f"{n:g}")
    for n in _numbers_in(called):
        found["amounts"].add(_cents(n))
    for k, text in enumerate(result_strings + [t for t in texts if t] + list(_strings(called))):
        days, hours, amounts, codes, norm, durations, seen = _text_facts(text, k < len(result_strings))
        for key, values in (("dates", days), ("times", hours), ("amounts", amounts), ("durations", durations)):
            found[key].update(values)
        currencies.update(codes)
        norms.append(norm)
        for kind, values in seen:
            shown[kind] += values
    found["dates"] |= _named_days(list(texts))
    found["amounts"] |= _derived(found["amounts"])
    return Sources(frozenset(found["dates"]), frozenset(found["times"]), frozenset(found["amounts"]),
                   frozenset(found["durations"]), "\n".join(norms), tuple(_windows(mocks or {})), _items(mocks or {}), {k: list(dict.fromkeys(v))[:3] for k, v in shown.items()},
                   frozenset(currencies), answer_counts.lists(mocks or {}),
                   answer_reasons.result_kinds(mocks))


def _derived(cents: set) -> set:
    """Amounts a careful reply may work out from the given ones (and nothing, €0): a whole-unit rounding
    ("about €834" for 834.27), a sum or difference of two ("€900 minus €65.73 pending"), a
    small multiple ("€96 a night, €192 for two nights")."""
    base = sorted(cents)[:MAX_AMOUNTS]
    out = {0} | {round(c / 100) * 100 for c in base} | {c // 100 * 100 for c in base}
    for i, a in enumerate(base):
        out |= {a * k for k in range(2, MAX_MULTIPLE + 1)}
        for b in base[i + 1:]:
            out |= {a + b, b - a}
    return out


def _named_days(texts: list) -> set:
    """(month, day) of the days the user named relative to today, when a text gives today's
    date ("Today is Monday 2026-03-02"): "tomorrow" is the 3rd, "next Thursday" the 5th or the
    12th (a weekday: any of the next two weeks)."""
    today, said = None, None
    for text in texts:
        m = TODAY.search(normalise(text))
        if m:
            today, said = date(int(m.group(1)), int(m.group(2)), int(m.group(3))), (text, m.start(), m.end())
            break
    if today is None:
        return set()
    out = set()
    for text in texts:
        reading = Reading(text)
        for start, _, readings in dates(reading):
            if said[0] == text and said[1] <= start < said[2]:
                continue                    # "Today is Monday 2026-03-02" names today only
            for r in readings:
                if r[0] == "weekday":
                    out |= {(d.month, d.day) for d in (today + timedelta(days=k) for k in range(1, 15))
                            if d.weekday() == r[1]}
        for start, _ in find_entries(reading, lexicon(reading.lang).relative_days):
            shift = 1 if reading.norm.startswith(("tomorrow", "amanhã"), start) else 0
            shift = 2 if reading.norm.startswith(("the day after", "depois de amanhã", "pasado mañana"), start) else shift
            day = today + timedelta(days=shift)
            out.add((day.month, day.day))
    return out


def _duration(m: re.Match) -> tuple[str, int]:
    unit = m.group(2)
    return UNITS.get(unit[:2], UNITS.get(unit[:1], unit)), int(m.group(1))


def _is_ident(token: str) -> bool:
    return any(c.isdigit() for c in token) and any(c.isalpha() for c in token)


DIGIT = re.compile(r"\d")
CODE = re.compile(r"^(EUR|USD|GBP|BRL)$")     # a currency field in a tool result
AT_HOUR_WORDS = re.compile(r"(?:\b(?:" + "|".join(re.escape(w) for w in vw.AT_HOUR) + r"|à)) $")


def _time_in_words(reading: Reading, start: int, end: int) -> bool:
    """A time written in words: noon or midnight ("ao meio-dia", "a medianoche"), or an hour
    in words after a word of time ("a la una", "às duas da tarde"); not "escolher uma hora"."""
    if DIGIT.search(reading.norm, start, end):
        return False
    text = reading.norm[start:end]
    if any(w in text for w in vw.NOON + vw.MIDNIGHT):
        return True
    return AT_HOUR_WORDS.search(reading.norm, max(0, start - 16), start) is not None


def claims_in(reading: Reading) -> list[Claim]:
    """The dates, times, amounts and identifiers the reply states or leaves open, in order."""
    out = []
    for start, end, readings in dates(reading)[:MAX_CHECKED]:
        days = {r for r in readings if r[0] != "weekday"}
        if days:
            y, m, d = min(days, key=lambda r: (r[0] is None, r))
            out.append(Claim(start, end, "date", f"{y or '-'}-{m:02d}-{d:02d}", {(r[1], r[2]) for r in days}))
    for start, end, readings in times(reading)[:MAX_CHECKED]:
        if CLOCK.search(reading.norm, start, end) or _time_in_words(reading, start, end):
            out.append(Claim(start, end, "time", " or ".join(sorted(readings)), readings))
    for start, end, readings in numbers(reading)[:MAX_CHECKED * 5]:    # amounts among them
        token = reading.norm[start:end]
        if not token[:1].isdigit() or reading.norm.startswith("%", end) or reading.norm.startswith(" %", end):
            continue
        if is_money(reading, start, end) or TWO_DECIMALS.search(token):
            out.append(Claim(start, end, "amount", token, {_cents(r) for r in readings},
                             currency_of(reading, start, end)))
    for m, _ in zip(IDENT.finditer(reading.text), range(MAX_CHECKED)):
        if _is_ident(m.group()):
            out.append(Claim(m.start(), m.end(), "id", m.group(), m.group().lower()))
    for m, _ in zip(DURATION.finditer(reading.norm), range(MAX_CHECKED)):
        out.append(Claim(m.start(), m.end(), "duration", m.group(), _duration(m)))
    for m, _ in zip(NUMBERED.finditer(reading.norm), range(MAX_CHECKED)):
        out.append(Claim(m.start(), m.end(), "number", m.group(1), {_cents(float(m.group(1)))}))
    for m, _ in zip(PATH.finditer(reading.norm), range(MAX_CHECKED)):
        path = m.group().rstrip(".")
        out.append(Claim(m.start(), m.start() + len(path), "path", reading.text[m.start():m.start() + len(path)], path))
    out.sort(key=lambda c: (c.start, c.end))
    return out


def grounded(reading: Reading, sources: Sources) -> Finding | None:
    """The first value the reply states that no source holds, or that it gives to another item
    of a list than the result does ("Casa Azahar cuesta 96 €" when 96 is Hotel Triana Norte's
    price); None when every one is grounded."""
    for wrong in (answer_counts.counts_in(reading, sources), answer_reasons.contradicted(reading, sources.reasons)):
        if wrong is not None:           # a count or a reason the result contradicts
            return Finding(Claim(wrong[0], wrong[1], "fact", wrong[2], None), wrong[3])
    checked = 0
    found = claims_in(reading)
    mentions = _mentions(reading, sources.items) if sources.items else []
    for k, claim in enumerate(found):
        if checked >= MAX_CHECKED:
            break
        checked += 1
        if not _held(claim, sources) and not any(
                other.start < claim.end and claim.start < other.end and _held(other, sources)
                for other in found[max(0, k - 2):k + 3] if other is not claim):
            # (a token read two ways, "14.10." a time or a date, is grounded by either reading)
            polarity, _ = reading.polarity(claim.start, value=True)
            if polarity is not None and polarity != DENIED and not _offered(reading, claim, found):
                held = ", ".join(sources.shown.get(claim.kind, []))
                if _other_currency(claim, sources):
                    held = f"{held} in {'/'.join(sorted(sources.currencies))}, not {claim.currency}"
                return Finding(claim, held)
        elif mentions and claim.kind in ("time", "amount"):
            wrong = _misattributed(reading, claim, mentions, sources.items)
            if wrong is not None and reading.polarity(claim.start, value=True)[0] not in (None, DENIED):
                return Finding(claim, "", *wrong)
    return None


def _mentions(reading: Reading, items: tuple) -> list:
    """[(start, end, item)] of every place the reply names an item, in order."""
    out = []
    for item in items:
        for name in item.names:
            out += [(s, e, item) for s, e in find_phrase(reading, name, loose=True)]
    out.sort(key=lambda m: m[:2])
    return out


def _misattributed(reading: Reading, claim: Claim, mentions: list, items: tuple) -> tuple | None:
    """(the item named last before the value in its clause, or the clause before when a gerund
    opens the value's ("Meridian Jet at €88.35, departing 06:40"), the sibling that holds the
    value) when that item holds no such value and a sibling does; else None. A reply naming items
    in its own words ("transferência recebida") is not read further back to the last name used."""
    clause = reading.clause_at(claim.start)
    lo, opener = clause.start, TOKEN.findall(reading.norm, clause.start, claim.start)[:1]
    if clause.start and opener and opener[0].endswith(GERUNDS):     # "…at €88.35, departing 06:40"
        before = reading.clause_at(clause.start - 1)
        lo = before.start if before.sentence == clause.sentence else lo
    k = bisect_left(mentions, (claim.start,), key=lambda m: m[:1]) - 1
    while k >= 0 and mentions[k][1] > claim.start:
        k -= 1                              # a name that runs into the value is not before it
    if k < 0 or mentions[k][0] < lo:
        return None
    s, e, item = mentions[k]
    values = item.times if claim.kind == "time" else item.amounts
    if claim.readings & values:
        return None
    owner = next((o for o in items if o.group == item.group and o is not item
                  and claim.readings & (o.times if claim.kind == "time" else o.amounts)), None)
    if owner is None:
        return None
    return reading.text[s:e], (owner.names or ("another item",))[0]


def _offered(reading: Reading, claim: Claim, found: list) -> bool:
    """Is the value one of several of its kind a question offers to choose from ("What time:
    9:00, 10:00 or 14:00?")? Those are examples of what the user may answer, not facts."""
    lo, hi = reading.sentence_span(claim.start)
    if "?" not in reading.norm[lo:hi]:
        return False
    return sum(1 for c in found if c.kind == claim.kind and lo <= c.start < hi) >= 2


def currency_of(reading: Reading, start: int, end: int) -> str | None:
    """The currency written right before or after this number, as a code (vw.CURRENCY_CODES:
    "R$ 834,27" is BRL, "834,27 €" EUR, "US$ 40" and "40 dólares" USD), or None. A bare "$" names
    no one currency."""
    before = reading.norm[max(0, start - 6):start].rstrip()
    after = reading.norm[end:end + 12].lstrip()
    for sign, code in vw.CURRENCY_SIGNS:       # longest first: "r$" and "us$" before "$"
        if before.endswith(sign) or after.startswith(sign):
            return code
    words_after = TOKEN.findall(reading.norm, end, end + 12)[:1]
    words_before = TOKEN.findall(reading.norm, max(0, start - 6), start)[-1:]
    for word in words_after + words_before:
        if word in vw.CURRENCY_CODES:
            return vw.CURRENCY_CODES[word]
    return None


def _other_currency(claim: Claim, sources: Sources) -> bool:
    """Does the reply give an amount in a currency the sources give none in ("R$ 834,27" for
    a EUR account)? Only where both sides name a currency."""
    return bool(claim.currency and sources.currencies and claim.currency not in sources.currencies)


def _held(claim: Claim, sources: Sources) -> bool:
    if claim.kind == "date":
        return bool(claim.readings & sources.dates)
    if claim.kind == "time":
        return bool(claim.readings & sources.times) or any(
            lo <= int(t[:2]) * 60 + int(t[3:]) <= hi for t in claim.readings for lo, hi in sources.windows)
    if claim.kind == "duration":
        unit = claim.readings[0]
        return claim.readings in sources.durations or not any(u == unit for u, _ in sources.durations)
    if claim.kind in ("amount", "number"):
        return bool(claim.readings & sources.amounts) and not _other_currency(claim, sources)
    return re.search(r"(?<![^\W_])" + re.escape(claim.readings) + r"(?![^\W_])", sources.text) is not None



