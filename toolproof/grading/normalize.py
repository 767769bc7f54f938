"""Schema-aware normalisation of argument values, and the lenient type cast.

Rules (docs/grading.md "Value comparison" lists them for users):
- strings: Unicode NFC, trimmed, internal whitespace collapsed, case ignored;
- a string field whose schema documents YYYY-MM-DD (format "date", an ISO-date pattern, or
  "YYYY-MM-DD" in its description) also equals an unambiguous English month date
  ("March 4, 2026", "4 March 2026", "Mar. 4th 2026"); a weekday written with it must be that
  date's weekday ("Monday, March 19, 2026" is not 2026-03-19, a Thursday);
- numbers equal within 1e-6 absolute; booleans are never numbers;
- arrays compare item by item, in order; objects compare the expected keys;
- enum and pattern fields compare exactly: the schema already says which spellings are legal;
- a case's `loose` fields compare strings BFCL's way (`loose_text`): case, spaces and , . / - _ * ^
  ignored, enum and pattern fields included.

The lenient cast turns a *string* into the type the schema declares ("12" -> 12, "true" ->
True, '["a"]' -> ["a"]) and never changes a value: "12.5" stays a string for an integer field.

Pure: no I/O.
"""
from __future__ import annotations

import re
import unicodedata
from datetime import date
from typing import Any

from toolproof.limits import ReadError, check_value, read_json

TOLERANCE = 1e-6

_WS = re.compile(r"\s+")
_MONTHS = {
    name: number
    for number, names in enumerate(
        [("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"),
         ("may",), ("june", "jun"), ("july", "jul"), ("august", "aug"),
         ("september", "sep", "sept"), ("october", "oct"), ("november", "nov"),
         ("december", "dec")],
        start=1,
    )
    for name in names
}
_MONTH = r"(?P<month>[a-z]+)\.?"
_DAY = r"(?P<day>\d{1,2})(?:st|nd|rd|th)?"
_YEAR = r"(?P<year>\d{4})"
_WEEKDAYS = {name: number for number, names in enumerate(
    [("monday", "mon"), ("tuesday", "tues", "tue"), ("wednesday", "wed"),
     ("thursday", "thurs", "thur", "thu"), ("friday", "fri"), ("saturday", "sat"), ("sunday", "sun")])
    for name in names}
_WEEKDAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_WEEKDAY = (r"(?:(?P<weekday>" + "|".join(sorted(_WEEKDAYS, key=len, reverse=True))
            + r")\.?,?\s+)?")
_ENGLISH_DATES = [
    re.compile(rf"^{_WEEKDAY}{_MONTH}\s+{_DAY},?\s+{_YEAR}$"),          # March 4, 2026
    re.compile(rf"^{_WEEKDAY}(?:the\s+)?{_DAY}\s+(?:of\s+)?{_MONTH},?\s+{_YEAR}$"),  # 4 March 2026
]
_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_ISO_DATE_PATTERNS = {
    r"^\d{4}-\d{2}-\d{2}$", r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$",
    r"^\d{4}-\d\d-\d\d$", r"^[0-9]{4}-[0-1][0-9]-[0-3][0-9]$",
}
_INTEGER = re.compile(r"^\s*[-+]?\d+(?:\.0*)?\s*$")
_NUMBER = re.compile(r"^\s*[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?\s*$")


def normalize_text(text: str) -> str:
    """NFC, trim, collapse internal whitespace, ignore case. Idempotent (case folding can
    decompose a character, so NFC is applied again after it)."""
    if text.isascii():      # NFC leaves ASCII as it is, and ASCII folds to ASCII: skip both passes
        return _WS.sub(" ", text).strip().casefold()
    return unicodedata.normalize("NFC", _WS.sub(" ", unicodedata.normalize("NFC", text)).strip().casefold())


def documents_iso_date(schema: dict | None) -> bool:
    """Does this string field's schema say its values are YYYY-MM-DD dates?"""
    if not isinstance(schema, dict):
        return False
    if schema.get("format") == "date" or schema.get("pattern") in _ISO_DATE_PATTERNS:
        return True
    description = schema.get("description")
    return isinstance(description, str) and "yyyy-mm-dd" in description.casefold()


def read_english_date(text: str) -> tuple[date | None, str | None]:
    """(the date an English month date names, the weekday written with it or None)."""
    cleaned = normalize_text(text)
    for form in _ENGLISH_DATES:
        match = form.match(cleaned)
        if not match:
            continue
        month = _MONTHS.get(match["month"])
        if month is None:
            return None, None
        try:
            return date(int(match["year"]), month, int(match["day"])), match["weekday"]
        except ValueError:
            return None, None
    return None, None


def weekday_problem(text: str) -> str | None:
    """Why a written date with a weekday is not that date: "the weekday does not match: ..."."""
    day, weekday = read_english_date(text)
    if day is None or weekday is None or _WEEKDAYS[weekday] == day.weekday():
        return None
    return (f"the weekday does not match: {day.isoformat()} is a {_WEEKDAY_NAMES[day.weekday()]}, "
            f"not a {_WEEKDAY_NAMES[_WEEKDAYS[weekday]]}")


def english_date_to_iso(text: str) -> str | None:
    """'March 4, 2026' -> '2026-03-04'; None unless the text is one unambiguous real date whose
    weekday, if one is written, is right."""
    day, _ = read_english_date(text)
    if day is None or weekday_problem(text) is not None:
        return None
    return day.isoformat()


def date_note(actual: Any, schema: dict | None) -> str:
    """A remark for a mismatch reason when a date field's value names a contradictory weekday."""
    if not isinstance(actual, str) or not documents_iso_date(schema) or _strict_field(schema):
        return ""
    return weekday_problem(actual) or ""


def _is_number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _strict_field(schema: dict | None) -> bool:
    return isinstance(schema, dict) and ("enum" in schema or "const" in schema or "pattern" in schema)


def canonical_string(value: str, schema: dict | None) -> str:
    """The form two strings are compared in, for this field's schema."""
    if _strict_field(schema):
        return value
    text = normalize_text(value)
    if documents_iso_date(schema) and not _ISO_DATE.match(text):
        return english_date_to_iso(text) or text
    return text


def loose_text(text: str) -> str:
    """BFCL's string rule: case, spaces and the punctuation , . / - _ * ^ ignored, ' read as "
    ("April 1, 2024" equals "april 1 2024"); NFC first so accents compare as one character."""
    return _LOOSE.sub("", normalize_text(text)).replace("'", '"')


_LOOSE = re.compile(r"[\s,./\-_*^]")


def values_equal(expected: Any, actual: Any, schema: dict | None = None, *, loose: bool = False) -> bool:
    """Equal after schema-aware normalisation (see the module docstring); `loose` compares every
    string inside with `loose_text` instead (enum and pattern fields too)."""
    schema = schema if isinstance(schema, dict) else None
    if isinstance(expected, bool) or isinstance(actual, bool):
        return isinstance(expected, bool) and isinstance(actual, bool) and expected == actual
    if _is_number(expected):
        return _is_number(actual) and abs(expected - actual) <= TOLERANCE
    if isinstance(expected, str):
        if loose:
            return isinstance(actual, str) and loose_text(expected) == loose_text(actual)
        return isinstance(actual, str) and (
            canonical_string(expected, schema) == canonical_string(actual, schema))
    if isinstance(expected, list):
        item_schema = schema.get("items") if schema else None
        return (isinstance(actual, list) and len(actual) == len(expected)
                and all(values_equal(e, a, item_schema, loose=loose) for e, a in zip(expected, actual)))
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return False
        props = schema.get("properties", {}) if schema else {}
        return all(
            values_equal(value, actual[key], props.get(key), loose=loose) if key in actual
            else _is_default(value, props.get(key))
            for key, value in expected.items()
        )
    return expected == actual


def _is_default(expected: Any, schema: dict | None) -> bool:
    """An omitted optional field counts as its schema default."""
    return isinstance(schema, dict) and "default" in schema and values_equal(
        expected, schema["default"], schema)


def is_omitted_default(expected: Any, schema: dict | None) -> bool:
    """Public form of the default rule, for the field comparison."""
    return _is_default(expected, schema)


def _declared_types(schema: dict) -> list[str]:
    declared = schema.get("type")
    if isinstance(declared, str):
        return [declared]
    return [t for t in declared if isinstance(t, str)] if isinstance(declared, list) else []


def cast_lenient(value: Any, schema: dict | None) -> Any:
    """Cast strings to the schema's declared type without changing the value; recurse."""
    if not isinstance(schema, dict):
        return value
    types = _declared_types(schema)
    if isinstance(value, str) and "string" not in types:
        cast = _cast_string(value, types)
        if cast is not _NO_CAST:
            value = cast
    if isinstance(value, dict):
        props = schema.get("properties", {})
        return {k: cast_lenient(v, props.get(k)) for k, v in value.items()}
    if isinstance(value, list) and isinstance(schema.get("items"), dict):
        return [cast_lenient(v, schema["items"]) for v in value]
    return value


def needs_cast(value: Any, schema: dict | None) -> bool:
    """Would `cast_lenient` change anything? (Cheaper than casting and comparing.)"""
    cls = value.__class__
    # Asked of every argument of every call that did not pass, so the common answers come first:
    # only strings are ever cast, and never in a field that takes plain strings.
    if cls is int or cls is float or cls is bool or value is None or not isinstance(schema, dict):
        return False
    if isinstance(value, str):
        if schema.get("type") == "string":
            return False
        types = _declared_types(schema)
        return "string" not in types and _cast_string(value, types) is not _NO_CAST
    if isinstance(value, dict):
        props = schema.get("properties", {})
        for k, v in value.items():
            if needs_cast(v, props.get(k)):
                return True
        return False
    if isinstance(value, list) and isinstance(schema.get("items"), dict):
        return any(needs_cast(v, schema["items"]) for v in value)
    return False


_NO_CAST = object()


# Longer number texts are never cast: int() refuses more than 4,300 digits, and the reading
# limits (toolproof.limits) allow no more than 300 anyway.
_MAX_NUMBER_TEXT = 400


def _cast_string(text: str, types: list[str]) -> Any:
    """The string cast to the first type it reads as, within the reading limits, or _NO_CAST."""
    value = _cast_as(text, types)
    if value is _NO_CAST:
        return value
    try:        # a cast may not produce what a reply could not contain (1e999, 400 digits)
        return check_value(value, what="arguments")
    except ReadError:
        return _NO_CAST


def _cast_as(text: str, types: list[str]) -> Any:
    short = len(text) <= _MAX_NUMBER_TEXT
    for kind in types:
        if kind == "integer" and short and _INTEGER.match(text):
            return int(text.strip().split(".")[0])
        if kind == "number" and short and _NUMBER.match(text):
            number = float(text)
            return int(number) if number.is_integer() and "." not in text and "e" not in text.lower() else number
        if kind == "boolean" and text.strip().casefold() in ("true", "false"):
            return text.strip().casefold() == "true"
        if kind == "null" and text.strip().casefold() == "null":
            return None
        if kind in ("array", "object"):
            try:
                parsed = read_json(text, what="arguments")
            except ReadError:
                continue
            if isinstance(parsed, list if kind == "array" else dict):
                return parsed
    return _NO_CAST
