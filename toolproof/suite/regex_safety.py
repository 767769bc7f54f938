"""Is a tool's `pattern` safe to run on untrusted text? A static check, made when tools load.

Python's `re` backtracks: `^(a+)+$` takes exponential time on "aaaa…!", and even `\\d+\\d+x`
takes cubic time under `search` (4 s on 1,000 digits). A tools file is input, and grading runs
its patterns on model output, so `unsafe_reason` refuses, from the parsed pattern:
- a repeated group whose iterations can split the same text in more than one way: a
  quantifier inside a repeated group that can run on into the next iteration (`(a+)+`,
  `(a*)*`, `(.*a){20}`, `(a|aa)*`), or alternatives inside a repeat that can both match (`(a|a)*`);
- quantifiers in a row that can consume the same characters with nothing in between that
  pins where one ends (`\\d+\\d+`, `a*a*`, `.*.*`), once the choices they leave multiply past
  one unbounded run (`\\d{1,3}\\d{1,3}` is fine, `\\d+\\d*` is not).
What is left tries at most one unbounded run per start position (two when the pattern is
anchored with ^, so there is only one start): quadratic over a `search` of at most 1,000
characters (`schema.MAX_PATTERN_TEXT`), about a million steps. The check is conservative: it may refuse a pattern that is safe (rewrite it with
a delimiter, a possessive quantifier `a++` or an atomic group `(?>…)`), never the other way round.
Backreferences count as unbounded runs of any character.

Pure: no I/O. Reads the pattern with `re._parser`, the parser `re` itself uses (CPython 3.11+
and Pyodide alike).
"""
from __future__ import annotations

import re
import warnings
from functools import lru_cache
from re import _constants as C   # noqa: N812 (the opcode names read best qualified)
from re import _parser

UNBOUNDED = 1001          # a repeat with more choices than this is as good as unbounded
MAX_PATTERN = 1000        # characters of a pattern; real ones are far shorter
_FOLD = re.compile(r"\(\?[aiLmsux-]*i")   # a case-insensitive flag, global or local
_MULTILINE = re.compile(r"\(\?[aiLmsux-]*m")
_DIGIT, _SPACE, _WORD = re.compile(r"\d"), re.compile(r"\s"), re.compile(r"\w")
_CATEGORIES = {
    C.CATEGORY_DIGIT: lambda ch: bool(_DIGIT.match(ch)), C.CATEGORY_NOT_DIGIT: lambda ch: not _DIGIT.match(ch),
    C.CATEGORY_SPACE: lambda ch: bool(_SPACE.match(ch)), C.CATEGORY_NOT_SPACE: lambda ch: not _SPACE.match(ch),
    C.CATEGORY_WORD: lambda ch: bool(_WORD.match(ch)), C.CATEGORY_NOT_WORD: lambda ch: not _WORD.match(ch),
}
# Characters tried when asking "can these two character sets match a common character?",
# besides every literal and range end the two sets name: one of each kind re distinguishes.
_PROBES = ("".join(chr(c) for c in range(128)) + "\u00a0\u00b2\u00e9\u00df\u0130\u017f\u0131\u212a"
           "\u0663\u0966\u2028\u2029\u3000\u4e2d\u044f\u03a9\U0001d7d8\ufeff\u200b")
_SINGLE = (C.LITERAL, C.NOT_LITERAL, C.IN, C.ANY)
_REPEATS = (C.MAX_REPEAT, C.MIN_REPEAT)


class Unsafe(Exception):
    """Why a pattern was refused (the message ends the sentence "pattern '…' …")."""


@lru_cache(maxsize=512)
def unsafe_reason(pattern: str) -> str | None:
    """None when `pattern` is safe to search with on untrusted text, else why it is not.
    Remembered per pattern text: tools files repeat the same few (the bundled one names 21
    patterns 66 times), and the answer depends on the text alone."""
    if len(pattern) > MAX_PATTERN:
        return f"is longer than {MAX_PATTERN} characters"
    try:
        with warnings.catch_warnings():      # "possible nested set" and the like: not our output
            warnings.simplefilter("ignore")
            tree = _parser.parse(pattern)
    except (re.error, OverflowError) as exc:
        return f"is not a valid regular expression ({exc})"
    except (RecursionError, ValueError):
        return "is nested too deeply to check"
    try:
        nodes: list = []
        _single_nodes(list(tree), nodes)
        probes = set(_PROBES)
        for node in nodes:
            probes.update(_named_chars(node))
        fold = bool(tree.state.flags & re.IGNORECASE) or bool(_FOLD.search(pattern))
        _Walk(fold, probes, UNBOUNDED ** 2 if _anchored(tree, pattern) else UNBOUNDED).sequence(list(tree), [])
    except Unsafe as exc:
        return str(exc)
    except RecursionError:
        return "is nested too deeply to check"
    return None


class _Item:
    """What one parsed element can consume: its first characters, all its characters, its width."""
    __slots__ = ("first", "nullable", "chars", "lo", "hi")

    def __init__(self, first: list, nullable: bool, chars: list, lo: int, hi: int):
        self.first, self.nullable, self.chars, self.lo, self.hi = first, nullable, chars, lo, min(hi, UNBOUNDED)


class _Walk:
    """One pass over a parsed pattern. `open` entries are runs not yet pinned: (chars, choices)."""

    def __init__(self, fold: bool, probes: set, budget: int):
        self.fold = fold          # case-insensitive anywhere: compare characters both ways
        self.probes = probes      # one character of each kind the pattern tells apart
        self.budget = budget      # most choices a chain of overlapping runs may multiply to
        self.cache: dict = {}

    # ---- character sets (lists of single-character nodes), as the probe characters they match
    def matches(self, node: tuple, ch: str) -> bool:
        chars = {ch, ch.lower(), ch.upper(), ch.casefold()} if self.fold else {ch}
        return any(self._matches(node, c) for c in chars if len(c) == 1)

    def probe_set(self, nodes: list) -> frozenset:
        out: set = set()
        for node in nodes:
            key = (node[0], id(node[1]) if isinstance(node[1], list) else node[1])
            hit = self.cache.get(key)
            if hit is None and node[0] is C.LITERAL and not self.fold:
                hit = self.cache[key] = frozenset({chr(node[1])}) & self.probes    # one character
            if hit is None:
                hit = self.cache[key] = frozenset(ch for ch in self.probes if self.matches(node, ch))
            out |= hit
        return frozenset(out)

    @staticmethod
    def _matches(node: tuple, ch: str) -> bool:
        op, av = node
        if op is C.LITERAL:
            return ord(ch) == av
        if op is C.NOT_LITERAL:
            return ord(ch) != av
        if op is C.ANY:
            return True
        negate = bool(av) and av[0][0] is C.NEGATE
        hit = any(_in_item(part, ch) for part in (av[1:] if negate else av))
        return hit != negate

    def overlap(self, a: list, b: list) -> bool:
        """Can the two sets match a common character? Tried on every character either set
        names (and its neighbours) and one of each kind `re` tells apart."""
        return bool(a) and bool(b) and not self.probe_set(a).isdisjoint(self.probe_set(b))

    # ---- the walk
    def sequence(self, items: list, open_runs: list) -> list:
        """Walk items in order from `open_runs`; return the runs still open at the end."""
        for op, av in items:
            open_runs = self.element(op, av, open_runs)
        return open_runs

    def element(self, op, av, open_runs: list) -> list:
        if op is C.AT:
            return open_runs
        if op in (C.ASSERT, C.ASSERT_NOT):
            self.sequence(list(av[1]), [])       # looks ahead or behind; consumes nothing
            return open_runs
        if op is C.SUBPATTERN:
            return self.sequence(list(av[3]), open_runs)
        if op is C.ATOMIC_GROUP:
            self.sequence(list(av), [])
            return self._pin(self.describe(op, av), open_runs)
        if op is C.BRANCH:
            return self._branch(av[1], open_runs)
        if op is C.GROUPREF_EXISTS:
            return self._branch([av[1], av[2] or []], open_runs)
        if op in _REPEATS or op is C.POSSESSIVE_REPEAT:
            return self._repeat(op, av, open_runs)
        if op is C.GROUPREF:
            return self._add(_Item([(C.ANY, None)], True, [(C.ANY, None)], 0, UNBOUNDED), open_runs)
        if op in _SINGLE:
            return self._pin(self.describe(op, av), open_runs)
        raise Unsafe(f"uses a construct ToolProof cannot check ({op})")

    def _pin(self, item: _Item, open_runs: list) -> list:
        """A required element pins every open run that cannot run on over its first character."""
        if item.nullable:
            return open_runs
        return [run for run in open_runs if self.overlap(run[0], item.first)]

    def _add(self, item: _Item, open_runs: list, choices: int = 0) -> list:
        """A run of choices (a quantifier, a choice of widths). Where the open runs end and this
        one starts is ambiguous only if an open run can take this one's first character."""
        open_runs = self._pin(item, open_runs)
        choices = min(choices, UNBOUNDED ** 2) if choices else min(item.hi - item.lo + 1, UNBOUNDED)
        if choices <= 1:
            return open_runs
        product = choices
        for chars, weight in open_runs:
            if self.overlap(chars, item.first):
                product *= weight
        if product > self.budget:
            raise Unsafe("has quantifiers in a row that can match the same characters (like \\d+\\d+), "
                         "which can take polynomial time")
        return open_runs + [(item.chars, choices)]

    def _branch(self, alternatives: list, open_runs: list) -> list:
        after: list = []
        for alt in alternatives:       # each way through, from where the sequence stands
            for run in self.sequence(list(alt), list(open_runs)):
                if run not in after:
                    after.append(run)
        item = self.describe(C.BRANCH, (None, alternatives))
        if self._ambiguous(alternatives):   # alternatives that can both start here are all tried
            parts = [self.describe(C.SUBPATTERN, (None, 0, 0, list(a))) for a in alternatives]
            return self._add(item, open_runs, sum(min(p.hi - p.lo + 1, UNBOUNDED) for p in parts))
        if item.lo != item.hi:         # a choice of widths is itself a run (of its characters)
            return self._add(item, open_runs)
        return after

    def _repeat(self, op, av, open_runs: list) -> list:
        lo, hi, body = av
        end = self.sequence(list(body), [])          # inside one iteration, from scratch
        item = self.describe(op, av)
        if op is not C.POSSESSIVE_REPEAT and hi > 1:
            self._iterations(list(body), end)
        if op is C.POSSESSIVE_REPEAT:
            return self._pin(item, open_runs)        # never gives back: pins like one character
        return self._add(item, open_runs)

    def _iterations(self, body: list, end: list) -> None:
        """A repeated body must not be able to run on into its own next iteration."""
        first = self.describe(C.SUBPATTERN, (None, 0, 0, body))
        if any(self.overlap(chars, first.chars if first.nullable else first.first) for chars, _ in end):
            raise Unsafe("nests a quantifier inside a repeated group (like (a+)+), which can take "
                         "exponential time")
        for op, av in body:
            if op is C.BRANCH and self._ambiguous(av[1]):
                raise Unsafe("repeats a group whose alternatives can match the same text (like (a|a)*), "
                             "which can take exponential time")
            if op is C.SUBPATTERN:
                self._iterations(list(av[3]), [])

    def _ambiguous(self, alternatives: list) -> bool:
        described = [self.describe(C.SUBPATTERN, (None, 0, 0, list(alt))) for alt in alternatives]
        for i, a in enumerate(described):
            for b in described[i + 1:]:
                if (a.nullable and b.nullable) or self.overlap(a.first, b.first):
                    return True
        return False

    def describe(self, op, av) -> _Item:
        """First characters, all characters and width of one element."""
        if op in _SINGLE:
            return _Item([(op, av)], False, [(op, av)], 1, 1)
        if op is C.AT or op in (C.ASSERT, C.ASSERT_NOT):
            return _Item([], True, [], 0, 0)
        if op is C.GROUPREF:
            return _Item([(C.ANY, None)], True, [(C.ANY, None)], 0, UNBOUNDED)
        if op in _REPEATS or op is C.POSSESSIVE_REPEAT:
            inner = self.describe(C.SUBPATTERN, (None, 0, 0, list(av[2])))
            return _Item(inner.first, av[0] == 0 or inner.nullable, inner.chars,
                         av[0] * inner.lo, av[1] * inner.hi)
        if op is C.BRANCH or op is C.GROUPREF_EXISTS:
            alts = av[1] if op is C.BRANCH else [av[1], av[2] or []]
            parts = [self.describe(C.SUBPATTERN, (None, 0, 0, list(a))) for a in alts]
            return _Item([n for p in parts for n in p.first], any(p.nullable for p in parts),
                         [n for p in parts for n in p.chars], min(p.lo for p in parts), max(p.hi for p in parts))
        items = list(av) if op is C.ATOMIC_GROUP else list(av[3])
        first, chars, lo, hi, nullable = [], [], 0, 0, True
        for sub_op, sub_av in items:
            part = self.describe(sub_op, sub_av)
            chars += part.chars
            if nullable:
                first += part.first
                nullable = part.nullable
            lo, hi = lo + part.lo, hi + part.hi
        return _Item(first, nullable, chars, lo, hi)


def _anchored(tree, pattern: str) -> bool:
    """Does the pattern only ever start at the beginning of the text? Then `search` makes one
    attempt, not one per position, and a chain of two unbounded runs stays quadratic."""
    items = list(tree)
    multiline = bool(tree.state.flags & re.MULTILINE) or bool(_MULTILINE.search(pattern))
    return bool(items) and items[0] in ((C.AT, C.AT_BEGINNING_STRING),) + (
        () if multiline else ((C.AT, C.AT_BEGINNING),))


def _single_nodes(items: list, out: list) -> None:
    """Every single-character node of a parsed pattern, at any depth."""
    for op, av in items:
        if op in _SINGLE:
            out.append((op, av))
        elif op is C.SUBPATTERN:
            _single_nodes(list(av[3]), out)
        elif op in _REPEATS or op is C.POSSESSIVE_REPEAT:
            _single_nodes(list(av[2]), out)
        elif op in (C.ASSERT, C.ASSERT_NOT):
            _single_nodes(list(av[1]), out)
        elif op is C.ATOMIC_GROUP:
            _single_nodes(list(av), out)
        elif op is C.BRANCH:
            for alt in av[1]:
                _single_nodes(list(alt), out)
        elif op is C.GROUPREF_EXISTS:
            _single_nodes(list(av[1]) + list(av[2] or []), out)


def _in_item(part: tuple, ch: str) -> bool:
    op, av = part
    if op is C.LITERAL:
        return ord(ch) == av
    if op is C.RANGE:
        return av[0] <= ord(ch) <= av[1]
    if op is C.CATEGORY:
        test = _CATEGORIES.get(av)
        return True if test is None else test(ch)   # an unknown category: assume it may match
    return True


def _named_chars(node: tuple) -> set:
    """The characters a node names, and their neighbours: where two sets would meet."""
    op, av = node
    out: set = set()
    codes = [av] if op in (C.LITERAL, C.NOT_LITERAL) else []
    if op is C.IN:
        for part_op, part_av in av:
            if part_op is C.LITERAL:
                codes.append(part_av)
            elif part_op is C.RANGE:
                codes += [part_av[0], part_av[1]]
    for code in codes:
        out.update(chr(c) for c in (code - 1, code, code + 1) if 0 <= c <= 0x10FFFF and not 0xD800 <= c < 0xE000)
    return out
