"""Reading a suite's text rules (`final_text`, and an expected call's `text`) into PhraseRules,
and what is wrong with them that the format schema cannot say: an unknown concept or detail
name, a value item that is no value, a phrase with no word in it, a {"result"} path that does
not resolve in the mock results the rules are read against. Every problem names its JSON path.

Concepts (the suite's top-level "concepts": {"name": {"en": [...], "pt": [...], "es": [...]}})
are resolved here, at load: a rule's {"concept": "shipped"} holds every language's phrases.

Pure: no I/O.
"""
from __future__ import annotations

import re
from datetime import date
from typing import Any, Iterator

from .model import DETAIL_NAMES, Concept, Negated, PhraseRules, resolve_result

VALUE_KEYS = ("result", "number", "time", "date")
ITEM_KEYS = ("concept", "not") + VALUE_KEYS
ITEM_LISTS = ("must_include", "must_not_include", "warns_if_mentions")
_HHMM = re.compile(r"([01]\d|2[0-3]):[0-5]\d")
_ISO = re.compile(r"\d{4}-\d{2}-\d{2}")
_WORD = re.compile(r"[^\W_]")


def concepts_of(doc: Any) -> dict[str, tuple]:
    """{name: every language's phrases} of a suite document's top-level concepts."""
    raw = doc.get("concepts") if isinstance(doc, dict) else None
    out = {}
    for name, languages in (raw or {}).items() if isinstance(raw, dict) else ():
        if isinstance(languages, dict):
            out[name] = tuple(p for phrases in languages.values() if isinstance(phrases, list)
                              for p in phrases if isinstance(p, str))
    return out


def concept_problems(doc: Any) -> Iterator[tuple[list, str]]:
    """Concept phrases must say something: a letter or digit each."""
    raw = doc.get("concepts") if isinstance(doc, dict) else None
    for name, languages in (raw or {}).items() if isinstance(raw, dict) else ():
        for lang, phrases in (languages or {}).items() if isinstance(languages, dict) else ():
            for k, phrase in enumerate(phrases if isinstance(phrases, list) else ()):
                reason = _phrase_problem(phrase) if isinstance(phrase, str) else None
                if reason:
                    yield ["concepts", name, lang, k], reason


def item(raw: Any, concepts: dict) -> Any:
    """A rule item from JSON: a list becomes a tuple (any one of them), {"concept"} a Concept
    (phrases None when the suite does not define it), {"not"} a Negated."""
    if isinstance(raw, list):
        return tuple(item(r, concepts) for r in raw)
    if isinstance(raw, dict):
        if "concept" in raw and isinstance(raw["concept"], str):
            return Concept(raw["concept"], concepts.get(raw["concept"]))
        if "not" in raw:
            return Negated(item(raw["not"], concepts))
        return dict(raw)
    return raw


def rules(raw: dict | None, concepts: dict) -> PhraseRules | None:
    """final_text (or one field's text rules) as PhraseRules; None when absent."""
    if raw is None:
        return None
    return PhraseRules(
        must_include=tuple(item(i, concepts) for i in raw.get("must_include", [])),
        must_not_include=tuple(item(i, concepts) for i in raw.get("must_not_include", [])),
        asks_for=tuple(raw.get("asks_for", [])),
        claims_done=raw.get("claims_done"),
        declines=raw.get("declines"),
        grounded=raw.get("grounded"),
        warns_if_mentions=tuple(item(i, concepts) for i in raw.get("warns_if_mentions", [])))


def _phrase_problem(phrase: str) -> str | None:
    if not _WORD.search(phrase):
        return f"phrase {phrase!r} has no letter or digit, so it would match nothing"
    if "*" in phrase.rstrip("*") or phrase.endswith("**"):
        return f"phrase {phrase!r}: * may only end a phrase (a word prefix)"
    return None


def _value_problem(raw: dict) -> str | None:
    keys = [k for k in raw if k in ITEM_KEYS]
    if len(raw) != 1 or not keys:
        return f"an item object takes exactly one of {', '.join(ITEM_KEYS)}, not {sorted(raw)}"
    key, value = keys[0], raw[keys[0]]
    if key == "number" and (isinstance(value, bool) or not isinstance(value, (int, float))):
        return f"number item: {value!r} is not a number"
    if key == "time" and not (isinstance(value, str) and _HHMM.fullmatch(value)):
        return f"time item: {value!r} is not a time written HH:MM (00:00 to 23:59)"
    if key == "date":
        try:
            valid = isinstance(value, str) and bool(_ISO.fullmatch(value)) and date.fromisoformat(value)
        except ValueError:
            valid = False
        if not valid:
            return f"date item: {value!r} is not a date written YYYY-MM-DD"
    if key in ("result", "concept") and not (isinstance(value, str) and value):
        return f"{key} item: {value!r} is not a name"
    return None


def items_with_paths(raw_rules: dict) -> Iterator[tuple[list, Any]]:
    """Every item of a JSON rules object, nested ones too, with its path inside the object."""
    def walk(raw: Any, path: list) -> Iterator[tuple[list, Any]]:
        yield path, raw
        if isinstance(raw, list):
            for k, inner in enumerate(raw):
                yield from walk(inner, path + [k])
        elif isinstance(raw, dict) and "not" in raw:
            yield from walk(raw["not"], path + ["not"])
    for key in ITEM_LISTS:
        for k, raw in enumerate(raw_rules.get(key, []) if isinstance(raw_rules.get(key), list) else []):
            yield from walk(raw, [key, k])


def rule_problems(raw_rules: dict | None, concepts: dict) -> Iterator[tuple[list, str]]:
    """What is wrong with one JSON rules object, whatever the mock results."""
    if not isinstance(raw_rules, dict):
        return
    for k, name in enumerate(raw_rules.get("asks_for", []) or []):
        if name not in DETAIL_NAMES:
            yield ["asks_for", k], (f"unknown detail {name!r}; asks_for takes "
                                    f"{', '.join(DETAIL_NAMES)}")
    for path, raw in items_with_paths(raw_rules):
        if isinstance(raw, str):
            reason = _phrase_problem(raw)
        elif isinstance(raw, list):
            reason = None if raw else "an empty list of items would match nothing"
        elif isinstance(raw, dict):
            reason = _value_problem(raw)
            if reason is None and "concept" in raw and raw["concept"] not in concepts:
                known = ", ".join(sorted(concepts)) or "none"
                reason = f"unknown concept {raw['concept']!r} (the suite's concepts: {known})"
        else:
            reason = f"an item is a phrase, a list, or an object, not {raw!r}"
        if reason:
            yield path, reason


def result_problems(raw_rules: dict | None, mocks: dict) -> Iterator[tuple[list, str]]:
    """{"result"} items whose path does not resolve in these mock results."""
    if not isinstance(raw_rules, dict):
        return
    for path, raw in items_with_paths(raw_rules):
        if isinstance(raw, dict) and isinstance(raw.get("result"), str):
            try:
                resolve_result(mocks, raw["result"])
            except KeyError as exc:
                said = exc.args[0]
                yield path, said if repr(raw["result"]) in said else f"{raw['result']!r}: {said}"
