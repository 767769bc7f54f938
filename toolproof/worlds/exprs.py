"""The closed expression set of world files: checked once at load (`check`), evaluated per call
(`evaluate`); the `{name}` templates of error texts are templates.py's. Nothing from a file is ever
executed: an expression is JSON data walked by this module, with the operators of `OPS` only.

Forms: a JSON literal (a list is a list of expressions); {"arg": "a.b"} (the call's argument,
absent -> null); {"ref": "name.field"} (a let, a bound row, a read's rows, `inserted`,
`<alias>_after`); {"row": "field"} (the row being updated or filtered); {"world": "today"};
{"new_id": "PREFIX-"} (inside an insert or an update only); {"op": OP, "args": [...]}.
docs/scenarios.md is the manual for every operator.

Bounds, so a hostile file costs little: depth <= MAX_DEPTH and nodes <= MAX_NODES per tool
(`check`, iterative: a 10,000-deep expression never reaches the Python stack), and a computed
text or list of at most MAX_LENGTH items, an integer of at most 300 digits, a finite float.
A value that cannot be computed (a text added to a number, a division by zero, a bad date)
raises `EvalError`; the engine turns it into the tool's error, never a traceback.

Pure: no I/O, no clock (`today` is the world's own date). Must not know tables (engine.py binds
the names an expression reads through a `Scope`).
"""
from __future__ import annotations

import json
import math
import re
from datetime import date, timedelta
from typing import Any, Callable

from toolproof.errors import kind_of

MAX_DEPTH = 32
MAX_CHAIN = 4 * MAX_DEPTH     # levels an evaluation may go down, through lets: the Python stack's share
MAX_NODES = 2000
MAX_LENGTH = 100_000
_TOO_BIG = 10 ** 300
FORMS = ("arg", "ref", "row", "world", "new_id")
WORLD_NAMES = ("today",)
# operator -> (fewest args, most args; None: any number)
OPS = {"+": (1, None), "-": (1, 2), "*": (1, None), "/": (2, 2), "round": (1, 2), "min": (1, None),
       "max": (1, None), "abs": (1, 1), "concat": (1, None), "lower": (1, 1), "upper": (1, 1),
       "len": (1, 1), "==": (2, 2), "!=": (2, 2), "<": (2, 2), "<=": (2, 2), ">": (2, 2),
       ">=": (2, 2), "and": (1, None), "or": (1, None), "not": (1, 1), "in": (2, 2), "if": (3, 3),
       "days_between": (2, 2), "add_days": (2, 2), "coalesce": (1, None)}
_ONLY = {"row": "row reads the row being filtered or updated: only in a where or an update's set",
         "new_id": "new_id makes a new key: only in an insert's values or an update's set"}
_DOTTED = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*")
_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
MISSING = object()


class EvalError(Exception):
    """A value the expression cannot compute; `reason` is one line for the tool's error."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class Problem(Exception):
    """What is wrong with an expression in a file: `place` (JSON path parts) and `reason`."""

    def __init__(self, place: list, reason: str):
        super().__init__(reason)
        self.place = place
        self.reason = reason


def form_of(expr: Any) -> str | None:
    """"op", one of FORMS, or None for a literal (a dict that is no expression is a Problem)."""
    if not isinstance(expr, dict):
        return None
    if set(expr) == {"op", "args"}:
        return "op"
    if len(expr) == 1 and next(iter(expr)) in FORMS:
        return next(iter(expr))
    return "?"


def check(expr: Any, place: list, *, allow: tuple = FORMS) -> tuple[int, list, int]:
    """Refuse (Problem) an expression that is not in the closed set, deeper than MAX_DEPTH, or
    using a form not in `allow`; else (nodes, [(place, ref name)], depth) for the loader's checks
    of names, cycles and depth through lets. Iterative: the depth is counted before anything
    deeper is looked at."""
    nodes, refs, deepest = 0, [], 0
    stack = [(expr, place, 1)]
    while stack:
        item, where, depth = stack.pop()
        nodes += 1
        deepest = max(deepest, depth)
        if depth > MAX_DEPTH:
            raise Problem(where, f"expression nested deeper than {MAX_DEPTH} levels")
        if isinstance(item, list):
            stack.extend((x, where + [i], depth + 1) for i, x in enumerate(item))
            continue
        form = form_of(item)
        if form is None:
            continue
        if form == "?":
            raise Problem(where, f"not an expression: an object takes one of {', '.join(FORMS)}, "
                                 f"or op with args, not {sorted(item)[:8]}")
        if form != "op" and form not in allow:
            raise Problem(where, _ONLY.get(form, f"{form} cannot be used here"))
        value = item[form]
        if form == "op":
            _check_op(item, where)
            stack.extend((x, where + ["args", i], depth + 1) for i, x in enumerate(item["args"]))
        elif form == "world":
            if value not in WORLD_NAMES:
                raise Problem(where + ["world"], f"unknown world value {value!r}; use today")
        elif form == "new_id":
            if not (isinstance(value, str) and 0 < len(value) <= 32 and value.isprintable()):
                raise Problem(where + ["new_id"], "new_id takes a prefix of 1 to 32 printable characters")
        elif not (isinstance(value, str) and len(value) <= 200 and _DOTTED.fullmatch(value)):
            raise Problem(where + [form], f"{form} takes a name or a dotted path (a.b), not {_short(value)}")
        elif form == "ref":
            refs.append((where + ["ref"], value))
    return nodes, refs, deepest


def _check_op(item: dict, where: list) -> None:
    op, args = item["op"], item["args"]
    if not isinstance(op, str) or op not in OPS:
        raise Problem(where + ["op"], f"unknown op {_short(op)}; the ops are {' '.join(OPS)}")
    if not isinstance(args, list):
        raise Problem(where + ["args"], "args must be a list of expressions")
    low, high = OPS[op]
    if len(args) < low or (high is not None and len(args) > high):
        wanted = f"{low}" if low == high else f"{low} to {high}" if high else f"at least {low}"
        raise Problem(where + ["args"], f"{op} takes {wanted} args, not {len(args)}")


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:60] + "…"


class Scope:
    """What an expression may read during one call: the arguments, the world's date, the names
    bound so far (rows of finds and reads, `inserted`, ...), lets (evaluated on first use, then
    kept), the row being updated or filtered, and the id maker of the insert being built."""

    def __init__(self, args: dict, today: str, lets: dict | None = None,
                 new_id: Callable[[str], str] | None = None):
        self.args = args
        self.today = today
        self.lets = lets or {}
        self.names: dict = {}
        self.row: dict | None = None
        self.new_id = new_id

    def lookup(self, name: str) -> Any:
        """The value bound to `name` (a let is computed here on first use), or MISSING."""
        if name in self.names:
            return self.names[name]
        if name in self.lets:
            self.names[name] = evaluate(self.lets[name], self)   # the loader refused cycles
            return self.names[name]
        return MISSING


def dig(value: Any, path: list) -> Any:
    """The value at a dotted path's parts (a dict's key, a list's index); None when absent."""
    for part in path:
        if isinstance(value, dict) and part in value:
            value = value[part]
        elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        else:
            return None
    return value


def argument(args: dict, dotted: str) -> tuple[bool, Any]:
    """(given, value) of a call's argument by dotted path."""
    parts = dotted.split(".")
    value: Any = args
    for part in parts:
        if not isinstance(value, dict) or part not in value:
            return False, None
        value = value[part]
    return True, value


def resolve(scope: Scope, dotted: str) -> Any:
    """A {"ref"}: the bound name's value, dug into by the rest of the path (None when absent)."""
    head, *rest = dotted.split(".")
    value = scope.lookup(head)
    return None if value is MISSING else dig(value, rest)


def evaluate(expr: Any, scope: Scope) -> Any:
    """The value of a checked expression, or EvalError."""
    if isinstance(expr, list):
        return [evaluate(x, scope) for x in expr]
    if not isinstance(expr, dict):
        return expr
    if "op" in expr:
        return _apply(expr["op"], expr["args"], scope)
    (form, value), = expr.items()
    if form == "arg":
        return argument(scope.args, value)[1]
    if form == "ref":
        return resolve(scope, value)
    if form == "row":
        return None if scope.row is None else dig(scope.row, value.split("."))
    if form == "world":
        return scope.today
    if scope.new_id is None:
        raise EvalError("new_id is only computed inside an insert or an update")
    return scope.new_id(value)


def _apply(op: str, raw_args: list, scope: Scope) -> Any:
    if op in _LAZY:
        return _LAZY[op](raw_args, scope)
    args = [evaluate(a, scope) for a in raw_args]
    return _EAGER[op](op, args)


def _and(raw: list, scope: Scope) -> Any:
    value: Any = True
    for a in raw:
        value = evaluate(a, scope)
        if not value:
            return value
    return value


def _or(raw: list, scope: Scope) -> Any:
    value: Any = False
    for a in raw:
        value = evaluate(a, scope)
        if value:
            return value
    return value


def _if(raw: list, scope: Scope) -> Any:
    return evaluate(raw[1] if evaluate(raw[0], scope) else raw[2], scope)


def _coalesce(raw: list, scope: Scope) -> Any:
    for a in raw:
        value = evaluate(a, scope)
        if value is not None:
            return value
    return None


_LAZY = {"and": _and, "or": _or, "if": _if, "coalesce": _coalesce}


def is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _numbers(op: str, args: list) -> list:
    if len(args) == 1 and isinstance(args[0], list) and op in ("min", "max", "+"):
        args = args[0]          # min, max and + of one list: over its items
    for a in args:
        if not is_number(a):
            raise EvalError(f"{op} needs numbers, not {kind_of(a, plain=True)}")
    return args


def tidy(value: Any) -> Any:
    """A computed number kept within JSON: an integer of at most 300 digits, a finite float
    rounded to 9 decimals (so 0.1 + 0.2 is 0.3, as a person reckons money)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return value
    if isinstance(value, int):
        if not -_TOO_BIG < value < _TOO_BIG:
            raise EvalError("a computed number is too large")
        return value
    if not math.isfinite(value):
        raise EvalError("a computed number is out of range")
    return round(value, 9)


def _arith(op: str, args: list) -> Any:
    nums = _numbers(op, args)
    if op == "+":
        return tidy(sum(nums))
    if op == "-":
        return tidy(-nums[0] if len(nums) == 1 else nums[0] - nums[1])
    if op == "*":
        out: Any = 1
        for n in nums:
            out = tidy(out * n)
        return out
    if op == "/":
        if nums[1] == 0:
            raise EvalError("division by zero")
        return tidy(nums[0] / nums[1])
    if op == "abs":
        return abs(nums[0])
    if not nums:
        raise EvalError(f"{op} of an empty list")
    return min(nums) if op == "min" else max(nums)


def _round(op: str, args: list) -> Any:
    digits = args[1] if len(args) > 1 else 0
    if not is_number(args[0]) or not isinstance(digits, int) or isinstance(digits, bool) or not 0 <= digits <= 12:
        raise EvalError("round takes a number and 0 to 12 digits")
    return tidy(round(args[0]) if digits == 0 and isinstance(args[0], float) else round(args[0], digits))


def _text(op: str, args: list) -> Any:
    if op == "len":
        if not isinstance(args[0], (str, list)):
            raise EvalError(f"len needs a text or a list, not {kind_of(args[0], plain=True)}")
        return len(args[0])
    if op in ("lower", "upper"):
        if not isinstance(args[0], str):
            raise EvalError(f"{op} needs a text, not {kind_of(args[0], plain=True)}")
        return args[0].lower() if op == "lower" else args[0].upper()
    if all(isinstance(a, list) for a in args):
        out: Any = [x for a in args for x in a]
    else:
        out = "".join(a if isinstance(a, str) else text_of(a) for a in args)
    if len(out) > MAX_LENGTH:
        raise EvalError(f"concat would make more than {MAX_LENGTH:,} items")
    return out


def same(a: Any, b: Any) -> bool:
    """Equality as a world compares values: texts trimmed and case-folded, 1 equals 1.0, a
    boolean only equals a boolean, lists and objects item by item."""
    if isinstance(a, str) and isinstance(b, str):
        return a.strip().casefold() == b.strip().casefold()
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if is_number(a) and is_number(b):
        return a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return a == b and type(a) is type(b)


def ordered(op: str, a: Any, b: Any) -> bool:
    """a OP b for two numbers or two texts (ISO dates order as texts)."""
    if not ((is_number(a) and is_number(b)) or (isinstance(a, str) and isinstance(b, str))):
        raise EvalError(f"{op} compares two numbers or two texts, not {kind_of(a, plain=True)} and "
                        f"{kind_of(b, plain=True)}")
    return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op]


def contains(container: Any, item: Any) -> bool:
    """`item` in a list (by `same`) or, both texts, a case-folded substring."""
    if isinstance(container, list):
        return any(same(item, x) for x in container)
    if isinstance(container, str) and isinstance(item, str):
        return item.strip().casefold() in container.casefold()
    raise EvalError(f"in looks inside a list or a text, not {kind_of(container, plain=True)}")


def _test(op: str, args: list) -> Any:
    if op == "==":
        return same(args[0], args[1])
    if op == "!=":
        return not same(args[0], args[1])
    if op == "not":
        return not args[0]
    if op == "in":
        return contains(args[1], args[0])
    return ordered(op, args[0], args[1])


def as_date(value: Any) -> date:
    """An ISO date (YYYY-MM-DD, or the date part of an ISO date-time), or EvalError."""
    if isinstance(value, str) and _ISO_DATE.match(value):
        try:
            return date.fromisoformat(value[:10])
        except ValueError:
            pass
    raise EvalError(f"not a date written YYYY-MM-DD: {_short(value)}")


def _dates(op: str, args: list) -> Any:
    if op == "days_between":
        return (as_date(args[1]) - as_date(args[0])).days
    days = args[1]
    if not is_number(days) or days != int(days) or abs(days) > 100_000:
        raise EvalError("add_days takes a whole number of days (at most 100,000)")
    try:
        return (as_date(args[0]) + timedelta(days=int(days))).isoformat()
    except OverflowError:
        raise EvalError("add_days goes past the calendar") from None


_EAGER = {**dict.fromkeys(("+", "-", "*", "/", "abs", "min", "max"), _arith), "round": _round,
          **dict.fromkeys(("concat", "lower", "upper", "len"), _text),
          **dict.fromkeys(("==", "!=", "<", "<=", ">", ">=", "not", "in"), _test),
          **dict.fromkeys(("days_between", "add_days"), _dates)}


def text_of(value: Any) -> str:
    """A value as a template shows it: a text as is, a whole float without ".0", null as
    "null", anything else as JSON."""
    if isinstance(value, str):
        return value
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    if value is None or isinstance(value, bool):
        return {None: "null", True: "true", False: "false"}[value]
    if isinstance(value, (int, float)):
        return repr(value)
    return json.dumps(value, ensure_ascii=False)


def mentions(expr: Any, form: str) -> bool:
    """Whether a checked expression uses `form` anywhere (e.g. "row": evaluate it per row)."""
    if isinstance(expr, list):
        return any(mentions(x, form) for x in expr)
    if not isinstance(expr, dict):
        return False
    if "op" in expr and "args" in expr:
        return any(mentions(x, form) for x in expr["args"])
    return form in expr
