"""References inside a results file: a request body's repeated parts written once.

Every turn of a live run keeps the exact request it sent, and most of it repeats: each turn sends
the tools, the system prompt and the messages again, a repeat sends its case's first turn again,
and a second turn sends the first turn's messages plus the reply and the tool results. Written
out in full that was 6.5 of the 7.7 KB a conversation took. In a results file of version 2 a
value of a request body's top-level key (`tools`, `system`, `messages`, `contents`, `input`,
`instructions`, ...: whatever the wire format's keys are) may instead be a reference to the same
key's value in an earlier turn of the file:

- `{"$same_as": "/transcripts/3/turns/0/request/body/tools"}`: the value found there;
- `{"$same_as": pointer, "$then": [items]}`: the list found there, then these items (a second
  turn's `messages`, `contents` or `input` extends its first turn's).

A pointer (RFC 6901) names a request body's key in an earlier turn (a turn earlier in the same
transcript, its variants after its turns, or any turn of an earlier transcript) whose value is
written out, never another reference: so no chain, no loop, and each reference is resolved in
one step. `encode` writes a value as a reference only when the part referred to takes at least
`MIN_SHARED` bytes of compact JSON (below that the reference costs about what it saves).

`expand` gives the document back with every reference replaced by the very object it names (no
copy: the page and the terminal hold each shared part once), or refuses the file with the JSON
path of the first bad reference. What references may stand for is bounded, as the reading limit
bounds what a file holds: together at most `MAX_REFERRED` bytes of compact JSON (ten times the
reading limit; the largest plans of the bundled suite that fit stand for under 100 MB), and their
extensions at most `MAX_EXTENDED` list items, so a 20 MB file cannot make a reader walk through
terabytes (`run` plans both before anything is sent: running/results_size.py). Every reader of a results file goes through it, in
grading/transcripts.parse_transcripts, before the format schema; a file of version 1 has no
references and is returned as it is (data/fixtures.json among them).

Pure: no I/O.
"""
from __future__ import annotations

import json
import re
from typing import Any

from toolproof import limits
from toolproof.errors import ToolProofError, clip, json_path

SAME_AS, THEN = "$same_as", "$then"
VERSION = 2                # the results file version whose request bodies may hold references
MIN_SHARED = 256           # bytes of compact JSON a referred part must take
NEW_TAIL = 4096            # bytes a list may add to an earlier one's start and still be written as its extension
MAX_REFERRED = 10 * limits.MAX_FILE_BYTES     # what a file's references stand for together (compact JSON)
MAX_EXTENDED = 1_000_000   # list items a file's `$then` extensions make together
_INDEX = r"(?:0|[1-9][0-9]{0,8})"        # a list index of at most 9 digits (no huge int parsing)
_POINTER = re.compile(rf"/transcripts/({_INDEX})(?:/variants/({_INDEX}))?/turns/({_INDEX})/request/body/(.*)",
                      re.DOTALL)
_KEY = re.compile(r"(?:[^~/]|~[01])*", re.DOTALL)


_COMPACT = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def compact(value: Any) -> str:
    """The compact JSON text every part of a results file is written in (json.dumps with these
    settings builds an encoder per call: one, made once, is several times faster on small parts)."""
    return _COMPACT.encode(value)


def pointer(index: int, variant: int | None, turn: int, key: str) -> str:
    """The RFC 6901 pointer to a request body's key (`~` and `/` escaped as ~0 and ~1)."""
    where = f"/transcripts/{index}" + ("" if variant is None else f"/variants/{variant}")
    return f"{where}/turns/{turn}/request/body/" + key.replace("~", "~0").replace("/", "~1")


def _places(transcript: dict):
    """(variant index or None, turn index, turn) for every turn of a transcript, in file order:
    its turns, then each variant's."""
    turns = transcript.get("turns")
    for k, turn in enumerate(turns if isinstance(turns, list) else []):
        yield None, k, turn
    variants = transcript.get("variants")
    for j, variant in enumerate(variants if isinstance(variants, list) else []):
        turns = variant.get("turns") if isinstance(variant, dict) else None
        for k, turn in enumerate(turns if isinstance(turns, list) else []):
            yield j, k, turn


def _body(turn: Any) -> dict | None:
    request = turn.get("request") if isinstance(turn, dict) else None
    body = request.get("body") if isinstance(request, dict) else None
    return body if isinstance(body, dict) else None


def _with_body(turn: dict, body: dict) -> dict:
    """The turn with its request's body replaced (the turn and request copied, nothing else)."""
    return {**turn, "request": {**turn["request"], "body": body}}


def _with_turns(transcript: dict, new: dict) -> dict:
    """The transcript with the turns in `new` ({(variant, turn index): turn}) replaced."""
    out = dict(transcript)
    if any(v is None for v, _ in new):
        out["turns"] = [new.get((None, k), t) for k, t in enumerate(transcript["turns"])]
    variants = {v for v, _ in new if v is not None}
    if variants:
        out["variants"] = [v if j not in variants else
                           {**v, "turns": [new.get((j, k), t) for k, t in enumerate(v["turns"])]}
                           for j, v in enumerate(transcript["variants"])]
    return out


class Encoder:
    """Writes the transcripts of one file, in file order, with each request body's repeated
    parts as references to where they were first written out. Remembers what it wrote (its
    compact text), so an encoder belongs to one file: a file written again in another order
    starts a new one."""

    def __init__(self, min_shared: int = MIN_SHARED, *, same_objects: bool = False) -> None:
        self.min_shared = min_shared
        # `same_objects`: the caller hands the very same, unchanged objects again (the size planner's
        # repeats), so each one's text is made once
        self._memo: dict[int, tuple] | None = {} if same_objects else None
        self._values: dict[str, str] = {}          # compact text -> pointer to where it is written out
        self._lists: dict[tuple, str] = {}         # a list's items' texts -> pointer
        self._lengths: set[int] = set()            # the lengths of the lists in _lists
        self.count = 0                             # transcripts encoded so far
        self.referred = 0                          # bytes the references written so far stand for

    def encode(self, transcript: dict) -> dict:
        """The next transcript of the file as it is written: a new dict where a request body
        holds a reference, the transcript itself when nothing in it repeats."""
        index, self.count = self.count, self.count + 1
        if not isinstance(transcript, dict):
            return transcript
        new = {}
        for variant, k, turn in _places(transcript):
            body = _body(turn)
            if body is None:
                continue
            written: list = []          # remembered once the turn is done: a reference points to an earlier turn
            out = {key: self._value(value, pointer(index, variant, k, key), written) for key, value in body.items()}
            for text, items, here in written:
                self._values.setdefault(text, here)
                if items is not None and items not in self._lists:
                    self._lists[items] = here
                    self._lengths.add(len(items))
            if any(out[key] is not value for key, value in body.items()):
                new[(variant, k)] = _with_body(turn, out)
        return _with_turns(transcript, new) if new else transcript

    def _value(self, value: Any, here: str, written: list) -> Any:
        """`value` as written at `here`: a reference to an earlier turn's copy, or itself (added
        to `written`, to be remembered)."""
        text = self._text(value)
        if len(text) < self.min_shared:
            return value
        if text in self._values:
            self.referred += len(text)
            return {SAME_AS: self._values[text]}
        items = tuple(compact(v) for v in value) if isinstance(value, list) else None
        found = None if items is None else self._longest_prefix(items)
        shared = 0 if found is None else sum(map(len, items[:found[1]])) + found[1] + 1
        # Written as a reference, a list is no place to point to: one whose new tail is long (over
        # NEW_TAIL bytes) and longer than what it shares is written out instead (a crowded case's
        # 56 tools after another case's few), so its next copy refers to it whole rather than
        # repeating the tail; a second turn's messages, a short tail on a long start, still extend.
        if found is not None and len(text) - shared <= max(shared, NEW_TAIL):
            self.referred += shared
            return {SAME_AS: found[0], THEN: value[found[1]:]}
        written.append((text, items, here))
        return value

    def _text(self, value: Any) -> str:
        if self._memo is None:
            return compact(value)
        known = self._memo.get(id(value))
        if known is None or known[0] is not value:
            known = self._memo[id(value)] = (value, compact(value))
        return known[1]

    def _longest_prefix(self, items: tuple) -> tuple[str, int] | None:
        """(pointer, length) of the longest list written out earlier that this one starts with."""
        for n in sorted((n for n in self._lengths if n < len(items)), reverse=True):
            where = self._lists.get(items[:n])
            if where is not None and sum(map(len, items[:n])) + n + 1 >= self.min_shared:
                return where, n
        return None


# -- reading -------------------------------------------------------------------------------------

def is_reference(value: Any) -> bool:
    return isinstance(value, dict) and SAME_AS in value


def expand(document: Any, source: str = "transcripts.json", *, max_referred: int = MAX_REFERRED,
           max_extended: int = MAX_EXTENDED) -> Any:
    """The document with every reference resolved (see the module's docstring); a document of
    any version but 2 (version 1 has no references), or anything not shaped like a results file
    (the format schema refuses it next), unchanged. A bad reference is refused with its JSON
    path: not a pointer to a request body's key, to itself or a later turn, to a place the file
    does not have, to another reference, `$then` on what is not a list, or one that takes what
    the file's references stand for past the bounds."""
    if not isinstance(document, dict) or document.get("version") != VERSION \
            or not isinstance(document.get("transcripts"), list):
        return document
    transcripts = document["transcripts"]
    budget = _Budget(max_referred, max_extended)
    out = list(transcripts)
    for i, transcript in enumerate(transcripts):
        if not isinstance(transcript, dict):
            continue
        new = {}
        for variant, k, turn in _places(transcript):
            body = _body(turn)
            if body is None or not any(is_reference(v) for v in body.values()):
                continue
            where = ["transcripts", i] + ([] if variant is None else ["variants", variant]) + ["turns", k]
            resolved = {key: _resolved(transcripts, value, (i, -1 if variant is None else variant, k),
                                       where + ["request", "body", key], source, budget)
                        if is_reference(value) else value for key, value in body.items()}
            new[(variant, k)] = _with_body(turn, resolved)
        if new:
            out[i] = _with_turns(transcript, new)
    return {**document, "transcripts": out}


class _Budget:
    """What a file's references have stood for so far, against the bounds; each value written
    out is measured once, however often it is referred to."""

    def __init__(self, max_referred: int, max_extended: int) -> None:
        self.max_referred, self.max_extended = max_referred, max_extended
        self.referred = self.extended = 0
        self._sizes: dict[int, tuple] = {}         # id -> (value, its compact size)

    def spend(self, value: Any, then: list | None) -> str | None:
        """Count one reference to `value` (extended by `then`); what is over the bounds, or None."""
        known = self._sizes.get(id(value))
        if known is None or known[0] is not value:
            try:
                known = self._sizes[id(value)] = (value, len(compact(value)))
            except (TypeError, ValueError):     # not JSON: the format schema says so later
                known = self._sizes[id(value)] = (value, 0)
        self.referred += known[1]
        if self.referred > self.max_referred:
            return (f"this file's references stand for more than {self.max_referred / 1e6:g} MB of JSON "
                    f"(ten times the {limits.MAX_FILE_BYTES / 1e6:g} MB reading limit): a file that "
                    "large once expanded is refused; split the run into several files")
        if then is not None:
            self.extended += len(value) + len(then)
            if self.extended > self.max_extended:
                return (f"this file's {THEN} extensions make more than {self.max_extended:,} list items "
                        "together: refused as a file that large once expanded")
        return None


def _resolved(transcripts: list, ref: dict, here: tuple, where: list, source: str, budget: _Budget) -> Any:
    def refuse(reason: str) -> ToolProofError:
        return ToolProofError(reason, source=source, path=json_path(where))

    if set(ref) - {SAME_AS, THEN}:
        raise refuse(f"a reference holds {SAME_AS} and, for a list, {THEN}; nothing else")
    target = ref[SAME_AS]
    if not isinstance(target, str):
        raise refuse(f"{SAME_AS} must be a JSON pointer (a string), not {type(target).__name__}")
    shown = clip(target, 100)
    match = _POINTER.fullmatch(target)
    if match is None or not _KEY.fullmatch(match.group(4)):
        raise refuse(f"{SAME_AS} {shown!r} does not point to a request body's key "
                     "(/transcripts/N/turns/K/request/body/KEY, or .../variants/J/turns/K/...)")
    i, j, k = int(match.group(1)), None if match.group(2) is None else int(match.group(2)), int(match.group(3))
    if (i, -1 if j is None else j, k) >= here:
        raise refuse(f"{SAME_AS} {shown!r} points to this turn or a later one; a reference points back")
    key = match.group(4).replace("~1", "/").replace("~0", "~")
    value = _at(transcripts, i, j, k, key)
    if value is _MISSING:
        raise refuse(f"{SAME_AS} {shown!r} points to a place this file does not have")
    if is_reference(value):
        raise refuse(f"{SAME_AS} {shown!r} points to another reference; it must point to a written-out value")
    then = ref.get(THEN)
    if THEN in ref and (not isinstance(then, list) or not isinstance(value, list)):
        raise refuse(f"{THEN} extends a list: both it and the value at {shown!r} must be lists")
    over = budget.spend(value, then)
    if over:
        raise refuse(over)
    return value if then is None else value + then


_MISSING = object()


def _at(transcripts: list, i: int, j: int | None, k: int, key: str) -> Any:
    """The value at a request body's key of the (encoded) file, or _MISSING."""
    if i >= len(transcripts) or not isinstance(transcripts[i], dict):
        return _MISSING
    holder = transcripts[i]
    if j is not None:
        variants = holder.get("variants")
        if not isinstance(variants, list) or j >= len(variants) or not isinstance(variants[j], dict):
            return _MISSING
        holder = variants[j]
    turns = holder.get("turns")
    if not isinstance(turns, list) or k >= len(turns):
        return _MISSING
    body = _body(turns[k])
    return _MISSING if body is None or key not in body else body[key]
