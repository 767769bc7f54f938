"""The one total reader for JSON that a model, a server or a file sends, with explicit limits.

Everything untrusted goes through here: response bodies, OpenAI string arguments, Anthropic
`input` objects, and the tools, suite and transcripts files. The limits:

- nesting depth <= 64 (arrays and objects);
- integers of at most 300 digits (a 309-digit integer no longer fits a float);
- a body of at most 5 MB (files have their own bound, see `MAX_FILE_BYTES`);
- no NaN, Infinity or -Infinity, and no number that overflows to infinity (1e999);
- no string with a lone surrogate (it cannot be written as UTF-8, so no output could hold it).

`size_refusal(size)` is the one line every input bound refuses with (a file on disk, a file chosen
in the page, a paste): the size and the limit, "21.3 MB, over the 20 MB limit".

Per field, a suite's phrasings (data/schemas/suite.schema.json holds the same numbers, a test
checks they agree): at most `MAX_PHRASINGS` per case, each prompt at most
`MAX_PHRASING_CHARS` characters.

`read_json(text)` and `check_value(value)` never raise anything but `ReadError`, whose `reason`
is one readable line ("arguments nested deeper than 64 levels"). Both run in time linear in
their input and never recurse, so a 10,000-deep body cannot exhaust the Python stack: depth is
counted over the text (strings stripped first) before `json.loads` sees it, and values parsed by
someone else (a dict handed in, the page's JS conversion) are walked iteratively.

Pure: no I/O. Must not grade anything: callers decide what a refusal means (a FAIL with the
reason for a model reply, exit 2 for an input file).
"""
from __future__ import annotations

import json
import math
import re
from itertools import accumulate
from typing import Any

MAX_DEPTH = 64
MAX_DIGITS = 300
MAX_BYTES = 5 * 1000 * 1000
MAX_FILE_BYTES = 20 * 1000 * 1000       # a results file holds many bodies
MAX_PHRASINGS = 16                      # a case's phrasings besides its own prompt
MAX_PHRASING_CHARS = 20000              # one phrasing's prompt
_TOO_BIG = 10 ** MAX_DIGITS

# A JSON string, closed or running to the end of the text (so brackets inside an unclosed
# string are not counted); written as an unrolled loop, linear on any input.
_STRING = re.compile(r'"[^"\\]*(?:\\[\s\S][^"\\]*)*"?')
_BRACKETS = re.compile(r"[^\[\]{}]+")
_DELTA = {"[": 1, "{": 1, "]": -1, "}": -1}
# A surrogate code point, written raw or as a \u escape (pairs are fine; checked after parsing).
_SURROGATE_HINT = re.compile(r"[\ud800-\udfff]|\\u[dD][89a-fA-F]")
_SURROGATE = re.compile(r"[\ud800-\udfff]")


class ReadError(Exception):
    """Untrusted JSON that cannot be read within the limits; `reason` says why in one line.
    `decode_error` keeps json's own error when the text is simply not JSON."""

    def __init__(self, reason: str, decode_error: json.JSONDecodeError | None = None):
        super().__init__(reason)
        self.reason = reason
        self.decode_error = decode_error

    def in_file(self) -> str:
        """The reason as a refused file says it (every file reader, terminal and page): json's own
        error with its line and column, which a person can find in an editor."""
        error = self.decode_error
        return self.reason if error is None else \
            f"not valid JSON: {error.msg} (line {error.lineno}, column {error.colno})"


def read_json(text: str | bytes, *, what: str = "body", max_bytes: int = MAX_BYTES) -> Any:
    """Parse untrusted JSON text within the limits, or raise ReadError."""
    if isinstance(text, (bytes, bytearray)):
        if len(text) > max_bytes:
            raise ReadError(f"{what} larger than {_mb(max_bytes)}")
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ReadError(f"{what} is not UTF-8 (byte {exc.start})") from None
    if not isinstance(text, str):
        raise ReadError(f"{what} is not text")
    if len(text) > max_bytes or (len(text) * 4 > max_bytes and _utf8_size(text) > max_bytes):
        raise ReadError(f"{what} larger than {_mb(max_bytes)}")
    # Nesting cannot exceed the count of opening brackets (two C-speed counts: most texts, like
    # a call's arguments, hold a few), nor an integer the text's length (json's own int is faster).
    if text.count("[") + text.count("{") > MAX_DEPTH and _depth(text) > MAX_DEPTH:
        raise ReadError(f"{what} nested deeper than {MAX_DEPTH} levels")
    try:
        value = json.loads(text, parse_int=_int if len(text) > MAX_DIGITS else None,
                           parse_float=_float, parse_constant=_constant)
    except ReadError:
        raise
    except json.JSONDecodeError as exc:
        raise ReadError(f"not valid JSON ({exc.msg} at char {exc.pos})", exc) from None
    except (ValueError, RecursionError, MemoryError, OverflowError) as exc:   # belt and braces
        raise ReadError(f"{what} cannot be read ({exc.__class__.__name__})") from None
    if _SURROGATE_HINT.search(text):
        check_value(value, what=what)
    return value


def check_value(value: Any, *, what: str = "value", max_bytes: int = MAX_BYTES) -> Any:
    """The same limits on a value parsed by someone else; returns a copy made of plain dict,
    list, str, int, float, bool and None (str subclasses and tuples become str and list).
    Iterative, so depth is checked without recursion; cycles are caught by the depth limit."""
    plain = _plain_copy(value, max_bytes)
    if plain is not _NOT_PLAIN:
        return plain
    budget = [max_bytes]
    root: list = [None]
    stack: list = [(value, root, 0, 1)]       # (value, where it goes, key there, its depth)
    while stack:
        item, into, key, depth = stack.pop()
        into[key] = _plain_scalar(item, what, budget) if not isinstance(item, (dict, list, tuple)) \
            else _open(item, what, budget, depth, stack)
    return root[0]


_NOT_PLAIN = object()
_SCALAR_COST = {str: 2, int: 8, float: 8, bool: 0, type(None): 0}


def _plain_copy(value: Any, max_bytes: int) -> Any:
    """check_value's answer for the usual value (exact dict, list, str, int, float, bool and None
    classes, well within every limit), or _NOT_PLAIN for anything else, which check_value then
    walks step by step so that a refusal and its reason are exactly the walk's. Every reply body
    and argument object is checked, so this pays: no stack entry per scalar, no call per value.
    Iterative too, and the depth is counted the same way."""
    cost = _SCALAR_COST
    budget = max_bytes
    root: list = [None]
    stack: list = [(value, root, 0, 1)]
    while stack:
        item, into, key, depth = stack.pop()
        cls = item.__class__
        if cls is not dict and cls is not list:
            if cls not in cost or not _plain_scalar_ok(item, cls):
                return _NOT_PLAIN
            budget -= cost[cls] + (len(item) if cls is str else 0)
            into[key] = item
            continue
        if depth > MAX_DEPTH:
            return _NOT_PLAIN
        budget -= len(item) + 2
        if cls is dict:
            out: Any = {}
            for k, v in item.items():
                if k.__class__ is not str or not (k.isascii() or not _SURROGATE.search(k)):
                    return _NOT_PLAIN
                budget -= len(k) + 2
                vcls = v.__class__
                if vcls is dict or vcls is list:
                    out[k] = None
                    stack.append((v, out, k, depth + 1))
                elif vcls in cost and _plain_scalar_ok(v, vcls):
                    budget -= cost[vcls] + (len(v) if vcls is str else 0)
                    out[k] = v
                else:
                    return _NOT_PLAIN
        else:
            out = list(item)
            for i, v in enumerate(item):
                vcls = v.__class__
                if vcls is dict or vcls is list:
                    stack.append((v, out, i, depth + 1))
                elif vcls in cost and _plain_scalar_ok(v, vcls):
                    budget -= cost[vcls] + (len(v) if vcls is str else 0)
                else:
                    return _NOT_PLAIN
        into[key] = out
        if budget < 0:
            return _NOT_PLAIN
    return root[0] if budget >= 0 else _NOT_PLAIN


def _plain_scalar_ok(item: Any, cls: type) -> bool:
    """Would _plain_scalar keep this exact-class scalar as it is?"""
    if cls is str:
        return item.isascii() or not _SURROGATE.search(item)
    if cls is int:
        return -_TOO_BIG < item < _TOO_BIG
    if cls is float:
        return item - item == 0.0       # false for NaN and both infinities
    return True


def _open(item: Any, what: str, budget: list, depth: int, stack: list) -> Any:
    if depth > MAX_DEPTH:
        raise ReadError(f"{what} nested deeper than {MAX_DEPTH} levels")
    _spend(budget, len(item) + 2, what)
    if isinstance(item, dict):
        out: dict = {}
        for k, v in item.items():
            if not isinstance(k, str):
                raise ReadError(f"{what} has a key that is not a string ({type(k).__name__})")
            k = _plain_scalar(k, what, budget)
            out[k] = None
            stack.append((v, out, k, depth + 1))
        return out
    out_list: list = [None] * len(item)
    stack.extend((v, out_list, i, depth + 1) for i, v in enumerate(item))
    return out_list


def _plain_scalar(item: Any, what: str, budget: list) -> Any:
    if item is None or isinstance(item, bool):
        return item
    if isinstance(item, str):
        _spend(budget, len(item) + 2, what)
        if _SURROGATE.search(item):
            raise ReadError("string with a lone surrogate (not Unicode text)")
        return str(item)
    if isinstance(item, int):
        if -_TOO_BIG >= item or item >= _TOO_BIG:
            raise ReadError(f"integer with more than {MAX_DIGITS} digits")
        _spend(budget, 8, what)
        return int(item)
    if isinstance(item, float):
        if math.isnan(item):
            raise ReadError("NaN is not JSON")
        if math.isinf(item):
            raise ReadError(f"{'-' if item < 0 else ''}Infinity is not JSON")
        _spend(budget, 8, what)
        return float(item)
    raise ReadError(f"{what} holds a {type(item).__name__}, which is not JSON")


def _spend(budget: list, cost: int, what: str) -> None:
    budget[0] -= cost
    if budget[0] < 0:
        raise ReadError(f"{what} larger than {_mb(MAX_BYTES)}")


def _depth(text: str) -> int:
    """Deepest bracket nesting outside strings, without recursion (C-speed passes)."""
    structure = _BRACKETS.sub("", _STRING.sub("", text))
    if not structure:
        return 0
    return max(accumulate(map(_DELTA.__getitem__, structure)))


def _int(digits: str) -> int:
    if len(digits) - digits.startswith("-") > MAX_DIGITS:
        raise ReadError(f"integer with more than {MAX_DIGITS} digits")
    return int(digits)


def _float(text: str) -> float:
    value = float(text)
    if math.isinf(value):
        shown = text if len(text) <= 24 else f"{text[:20]}… ({len(text) - 20:,} more)"
        raise ReadError(f"number {shown} is out of range")
    return value


def _constant(name: str) -> Any:
    raise ReadError(f"{name} is not JSON")


def _utf8_size(text: str) -> int:
    return len(text.encode("utf-8", "surrogatepass"))


def size_refusal(size: int, limit: int = MAX_FILE_BYTES) -> str:
    """"" when `size` bytes fit within `limit`; else what is wrong, with both numbers: "21.3 MB,
    over the 20 MB limit". Within 0.1 MB of the limit the size is given in bytes, so it never
    reads as the limit itself ("20,000,001 bytes, over the 20 MB limit")."""
    if size <= limit:
        return ""
    shown = f"{size / 1_000_000:.1f} MB" if size >= limit + 100_000 else f"{size:,} bytes"
    return f"{shown}, over the {_mb(limit)} limit"


def _mb(n: int) -> str:
    return f"{n / 1_000_000:g} MB"
