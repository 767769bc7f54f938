"""The shape checks the world loader shares: one refusal (`Refusal`: JSON path parts and a reason)
per thing wrong, and the walk that refuses a hostile value anywhere in a world document before
anything reads it (nested deeper than limits.MAX_DEPTH, a list or an object of more than
MAX_ITEMS items, NaN or an infinity, an integer of more than 300 digits, a key that is not a
string, a lone surrogate, a control character) and the reading of a world file's text that also
refuses a duplicate key (json keeps the last silently, so an author's first value would vanish
without a word).

Pure: no I/O. Must not know what a world holds (load.py does): these are the format's words only.
"""
from __future__ import annotations

import json
import math
import re
from typing import Any

from toolproof import limits
from toolproof.errors import ToolProofError, json_path, kind_of, quoted

MAX_ITEMS = 20_000          # the longest list a world holds: its rows
MAX_TEXT = 20_000           # characters of a prompt, a reply, a description
# C0 controls but tab, newline and carriage return; DEL; C1 controls
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
_SURROGATE = re.compile(r"[\ud800-\udfff]")
_TOO_BIG = 10 ** limits.MAX_DIGITS


class Refusal(Exception):
    """A world file is refused: `place` (JSON path parts) and a one-line `reason`."""

    def __init__(self, place: list, reason: str):
        super().__init__(reason)
        self.place = place
        self.reason = reason

    def error(self, source: str) -> ToolProofError:
        return ToolProofError(self.reason, source=source, path=json_path(self.place))


def obj(raw: Any, place: list, required: tuple = (), optional: tuple = (), *, more: bool = False) -> dict:
    """`raw` as an object holding every `required` key and no key beyond `optional` (`more`: any
    other key too)."""
    if not isinstance(raw, dict):
        raise Refusal(place, f"expected an object, not {kind_of(raw, plain=True)}")
    for name in required:
        if name not in raw:
            raise Refusal(place, f"{name!r} is required")
    for name in () if more else raw:
        if name not in required and name not in optional:
            allowed = ", ".join(required + optional)
            raise Refusal(place + [name], f"unknown field {quoted(name, 60)}; the fields here are {allowed}")
    return raw


def mapping(raw: Any, place: list) -> dict:
    """`raw` as an object with any keys (a let table, a where, a row, arguments)."""
    if not isinstance(raw, dict):
        raise Refusal(place, f"expected an object, not {kind_of(raw, plain=True)}")
    return raw


def items(raw: Any, place: list, most: int, *, fewest: int = 0) -> list:
    """`raw` as a list of `fewest` to `most` items."""
    if not isinstance(raw, list):
        raise Refusal(place, f"expected a list, not {kind_of(raw, plain=True)}")
    if len(raw) > most:
        raise Refusal(place, f"holds {len(raw):,} items; at most {most:,}")
    if len(raw) < fewest:
        raise Refusal(place, f"needs at least {fewest} item{'s' if fewest > 1 else ''}")
    return raw


def text(raw: Any, place: list, *, most: int = MAX_TEXT, pattern: re.Pattern | None = None,
         what: str = "", blank: bool = False) -> str:
    """`raw` as a text of at most `most` characters, matching `pattern` when given (`what`
    says what it must look like), not blank unless `blank`."""
    if not isinstance(raw, str):
        raise Refusal(place, f"expected a text, not {kind_of(raw, plain=True)}")
    if len(raw) > most:
        raise Refusal(place, f"text of {len(raw):,} characters; at most {most:,}")
    if pattern is not None and not pattern.fullmatch(raw):
        raise Refusal(place, f"{quoted(raw, 60)} is not {what}")
    if not blank and not raw.strip():
        raise Refusal(place, "is empty")
    return raw


def whole(raw: Any, place: list, low: int, high: int) -> int:
    """`raw` as a whole number from `low` to `high`."""
    if isinstance(raw, bool) or not isinstance(raw, int) or not low <= raw <= high:
        raise Refusal(place, f"expected a whole number from {low} to {high}, not {quoted(raw, 60)}")
    return raw


def flag(raw: Any, place: list) -> bool:
    if not isinstance(raw, bool):
        raise Refusal(place, f"expected true or false, not {kind_of(raw, plain=True)}")
    return raw


def refuse_hostile(doc: Any) -> None:
    """Refuse the first hostile value anywhere in `doc` (see the module's docstring), naming its
    place. Iterative and linear: a 100,000-deep or 10-million-item document costs one pass that
    stops at the first bound crossed. A place is kept as (parent, key) links and spelt out only
    for a refusal: a 20,000-row world is walked without a list per value."""
    stack: list = [(doc, None, 1)]
    while stack:
        value, link, depth = stack.pop()
        if isinstance(value, dict):
            if depth > limits.MAX_DEPTH:
                raise Refusal(_spelt(link), f"nested deeper than {limits.MAX_DEPTH} levels")
            if len(value) > MAX_ITEMS:
                raise Refusal(_spelt(link), f"holds {len(value):,} keys; a world holds objects of at most {MAX_ITEMS:,}")
            pairs: Any = value.items()
            keyed = True
        elif isinstance(value, list):
            if depth > limits.MAX_DEPTH:
                raise Refusal(_spelt(link), f"nested deeper than {limits.MAX_DEPTH} levels")
            if len(value) > MAX_ITEMS:
                raise Refusal(_spelt(link), f"holds {len(value):,} items; a world holds lists of at most {MAX_ITEMS:,}")
            pairs, keyed = enumerate(value), False
        else:
            _check_scalar(value, _spelt(link))
            continue
        for key, inner in pairs:
            if keyed and (key.__class__ is not str or not (key.isascii() and key.isprintable())):
                if not isinstance(key, str):
                    raise Refusal(_spelt(link), f"a key is {kind_of(key, plain=True)}, not a text")
                _check_text(key, _spelt((link, key)) if len(key) <= 80 else _spelt(link), "a key")
            cls = inner.__class__
            if cls is dict or cls is list:
                stack.append((inner, (link, key), depth + 1))
            elif cls is str:
                if not (inner.isascii() and inner.isprintable()):
                    _check_text(inner, _spelt((link, key)), "a text")
            elif cls is float:
                if inner - inner != 0.0:        # NaN and the infinities
                    _check_scalar(inner, _spelt((link, key)))
            elif not (inner is None or cls is bool or (cls is int and -_TOO_BIG < inner < _TOO_BIG)):
                _check_scalar(inner, _spelt((link, key)))       # a subclass, a huge integer, no JSON


def _spelt(link: Any) -> list:
    """The place a (parent, key) link stands for, as JSON path parts."""
    parts: list = []
    while link is not None:
        link, key = link
        parts.append(key)
    return parts[::-1]


def _check_scalar(value: Any, place: list) -> None:
    if value is None or isinstance(value, bool):
        return
    if isinstance(value, str):
        _check_text(value, place, "a text")
    elif isinstance(value, int):
        if not -_TOO_BIG < value < _TOO_BIG:
            raise Refusal(place, f"integer of more than {limits.MAX_DIGITS} digits")
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise Refusal(place, f"{value!r} is not a JSON number")
    else:
        raise Refusal(place, f"{kind_of(value, plain=True)} is not JSON")


def _check_text(value: str, place: list, what: str) -> None:
    if value.isascii() and value.isprintable():
        return
    bad = _CONTROL.search(value) or _SURROGATE.search(value)
    if bad:
        name = "lone surrogate" if _SURROGATE.match(bad.group()) else "control character"
        raise Refusal(place, f"{what} holds a {name} U+{ord(bad.group()):04X} at character {bad.start()}")


def document_from_text(text_: str, source: str) -> Any:
    """A world file's JSON text, read within `limits` (size, depth, digits, no NaN), with a
    duplicate key refused naming its place; else ToolProofError naming `source`."""
    try:
        limits.read_json(text_, what="file", max_bytes=limits.MAX_FILE_BYTES)
    except limits.ReadError as exc:
        raise ToolProofError(exc.in_file(), source=source) from None    # the wording of every file
    duplicates: dict = {}

    def pairs(found: list) -> dict:
        out = dict(found)
        if len(out) != len(found):
            seen: set = set()
            duplicates[id(out)] = next(k for k, _ in found if k in seen or seen.add(k))
        return out
    doc = json.loads(text_, object_pairs_hook=pairs)
    if duplicates:
        place, key = _place_of(doc, duplicates)
        raise Refusal(place + [key], f"the key {quoted(key, 60)} appears twice in one object "
                                     "(the first value would be lost)").error(source)
    return doc


def _place_of(doc: Any, duplicates: dict) -> tuple[list, str]:
    """The place of the first object (in document order) that held a duplicate key."""
    stack: list = [(doc, [])]
    while stack:
        value, place = stack.pop()
        if isinstance(value, dict):
            if id(value) in duplicates:
                return place, duplicates[id(value)]
            stack.extend((v, place + [k]) for k, v in reversed(list(value.items())))
        elif isinstance(value, list):
            stack.extend((v, place + [i]) for i, v in reversed(list(enumerate(value))))
    return [], next(iter(duplicates.values()))
