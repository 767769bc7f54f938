"""Unsourced arguments: values a model sent that appear neither in what the user said nor in any
tool result it had seen. Such a value was invented, even when it happens to be right, and it is
the argument that will be wrong next time.

What counts as sourced (docs/diagnosis.md repeats this):
- the source is the system prompt, the user's message and, for a second-turn call, the JSON of
  the tool results returned in turn 1;
- strings compare normalised (case, spacing) as a substring of the source;
- a YYYY-MM-DD date is sourced by the same date in ISO form or written with its month name
  ("March 4", "4 March", "Mar 4"), or by a relative day ("today", "tomorrow", a weekday, "next
  week") when the source also states today's date;
- an HH:MM time is sourced by the same time in 24-hour or 12-hour form ("5:30 pm" sources
  "17:30", "8 pm" sources "20:00");
- a number is sourced by the same number in the text ("$1,250.00" sources 1250), by its word
  (one to twelve), or as minutes by a duration in hours ("an hour" sources 60); 0 and 1 are
  taken as implied ("nonstop", "a table for me");
- not checked: booleans, null, enum/const fields (a choice from a closed list), values equal to
  the field's default, and free text of more than four words (composed, not looked up).

Pure: no I/O.
"""
from __future__ import annotations

import json
import re
from datetime import date
from typing import Any

from toolproof.grading.normalize import english_date_to_iso, normalize_text
from toolproof.grading.answer_values import mentions_number

_ISO = re.compile(r"^(\d{4})-(\d{2})-(\d{2})$")
_MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august",
           "september", "october", "november", "december"]
_RELATIVE = re.compile(r"\b(today|tonight|tomorrow|yesterday|next week|this week|next month|"
                       r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekend)\b")
_ANCHOR = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")
_NUMERIC = re.compile(r"^-?\d+(?:\.\d+)?$")
_TIME = re.compile(r"^([01]\d|2[0-3]):([0-5]\d)(?::00)?$")
FREE_TEXT_WORDS = 4
_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
          "eleven", "twelve"]
_HOURS = re.compile(r"\b(an|a|one|two|three|four|five|six|\d+(?:\.\d+)?) (?:and a half )?hours?\b")


def _number_sourced(value: float, source: str) -> bool:
    """Digits, a number word, or a duration in hours for a value in minutes ("an hour" -> 60)."""
    if mentions_number(source, value) or value in (0, 1):   # 0 and 1 are implied ("nonstop", "me")
        return True
    if isinstance(value, int) and 0 <= value < len(_WORDS) and re.search(rf"\b{_WORDS[value]}\b", source):
        return True
    for match in _HOURS.finditer(source):
        word = match[1]
        hours = 1.0 if word in ("a", "an") else float(_WORDS.index(word)) if word in _WORDS else float(word)
        hours += 0.5 if "and a half" in match[0] else 0
        if abs(hours * 60 - value) < 1e-6:
            return True
    return False


def source_text(system: str | None, prompt: str, results: list[Any]) -> str:
    parts = [system or "", prompt] + [json.dumps(r, ensure_ascii=False) for r in results]
    return normalize_text("\n".join(parts))


def _date_sourced(value: str, source: str) -> bool:
    match = _ISO.match(value)
    if not match:
        return False
    try:
        day = date(int(match[1]), int(match[2]), int(match[3]))
    except ValueError:
        return False
    if value in source:
        return True
    month = _MONTHS[day.month - 1]
    for name in (month, month[:3]):
        for form in (rf"\b{name}\.? {day.day}(st|nd|rd|th)?\b", rf"\b{day.day}(st|nd|rd|th)? (of )?{name}\b"):
            if re.search(form, source):
                return True
    return bool(_RELATIVE.search(source) and _ANCHOR.search(source))


def _time_sourced(value: str, source: str) -> bool:
    """'17:30' is sourced by '17:30', '5:30 pm', '5.30pm'; '20:00' by '8 pm' or '8:00 p.m.'."""
    match = _TIME.match(value)
    if not match:
        return False
    hour, minute = int(match[1]), int(match[2])
    twelve, half = hour % 12 or 12, "p" if hour >= 12 else "a"
    clock = rf"{twelve}(?:[:.]{minute:02d})" + ("?" if minute == 0 else "")
    not_12h = r"(?!\s?[ap]\.?m\b)"          # "5:30" inside "5:30 pm" is not 05:30
    if re.search(rf"(?<![\d:]){hour:02d}:{minute:02d}\b{not_12h}|(?<![\d:]){hour}:{minute:02d}\b{not_12h}", source):
        return True
    if hour == 12 and minute == 0 and re.search(r"\bnoon\b|\bmidday\b", source):
        return True
    return bool(re.search(rf"(?<![\d:.]){clock}\s?{half}\.?m\b", source))


def is_sourced(value: Any, schema: dict | None, source: str) -> bool | None:
    """True/False for a value we judge; None for one we do not (see the module docstring)."""
    schema = schema if isinstance(schema, dict) else {}
    if value is None or isinstance(value, bool) or "enum" in schema or "const" in schema:
        return None
    if "default" in schema and schema["default"] == value:
        return None
    if isinstance(value, (int, float)):
        return _number_sourced(value, source)
    if isinstance(value, str):
        text = normalize_text(value)
        if not text or len(text.split()) > FREE_TEXT_WORDS:
            return None
        if _NUMERIC.match(text):                       # "1480" is judged as the number 1480
            return _number_sourced(float(text), source)
        iso = english_date_to_iso(text) or text      # "March 19, 2026" is judged as 2026-03-19
        return text in source or _date_sourced(iso, source) or _time_sourced(text, source)
    return None


def judged_values(arguments: dict, parameters: dict, source: str, prefix: str = "") -> list[tuple[str, Any, bool]]:
    """(field path, value, sourced?) for every value in the arguments that the rules judge."""
    found = []
    props = parameters.get("properties", {}) if isinstance(parameters, dict) else {}
    for name, value in arguments.items():
        schema = props.get(name) if isinstance(props, dict) else None
        path = f"{prefix}.{name}" if prefix else name
        if isinstance(value, dict):
            found += judged_values(value, schema or {}, source, path)
        elif isinstance(value, list):
            items = (schema or {}).get("items") if isinstance(schema, dict) else None
            for i, item in enumerate(value):
                if isinstance(item, dict):
                    found += judged_values(item, items or {}, source, f"{path}[{i}]")
                else:
                    found += _judged(f"{path}[{i}]", item, items, source)
        else:
            found += _judged(path, value, schema, source)
    return found


def _judged(path: str, value: Any, schema: dict | None, source: str) -> list[tuple[str, Any, bool]]:
    verdict = is_sourced(value, schema, source)
    return [] if verdict is None else [(path, value, verdict)]


def unsourced(arguments: dict, parameters: dict, source: str) -> list[tuple[str, Any]]:
    """(field path, value) of every judged value in the arguments that the source does not hold."""
    return [(path, value) for path, value, sourced in judged_values(arguments, parameters, source)
            if not sourced]
