"""The bridge's messages, as data: the kinds of op in one table, the properties and methods a
message may touch, and the worker's queued writes cut into messages the page applies in short
tasks. Pure: no js.

page/bridge.py sends each message as one call to the page (`toolproofOps` in web/boot.mjs, which
applies it in one task); between two messages the page's main thread takes input. A message is a
JSON list of ops; an op is a JSON list whose first item is its kind (`KINDS`). An "append" op
carries node specs: [id, tag, ns, props, attrs, kids, events] (`SPEC`), a string (text), or
{"ref": id} (a node the page has already). web/boot.mjs keeps the same kinds, allow-lists and
spec order, and nothing else (tests/page/test_bridge_lists.py compares the two files).
"""
from __future__ import annotations

from typing import NamedTuple


class Kind(NamedTuple):
    """One kind of op. `sent`: "queued" (a write bridge.push queues), "read" (the op a trip ends
    with, whose answer bridge.flush returns) or "trip" (added by bridge.flush itself)."""
    sent: str
    carries: str     # what the op holds after its kind
    page: str        # what web/boot.mjs does with it


VISIBLE = "toolproof-visible"        # the event "observe" dispatches (web/boot.mjs says the same)

KINDS = {
    "append": Kind("queued", "where, [spec, text or {ref}, ...]", "builds each spec, appends it in order"),
    "set": Kind("queued", "where, property, value", "sets a property in WRITABLE"),
    "fill": Kind("queued", "where, property, value, since",
                 "sets a property in WRITABLE unless the user changed the field after since"),
    "default": Kind("queued", "where, value, since",
                    "sets a derived value while the field holds the last one and the user has not changed it since"),
    "attr": Kind("queued", "where, name, value", "setAttribute (a name starting with on is refused)"),
    "unattr": Kind("queued", "where, name", "removeAttribute"),
    "clear": Kind("queued", "where", "replaceChildren()"),
    "remove": Kind("queued", "where", "remove()"),
    "listen": Kind("queued", "where, event type, handler id", "a listener that calls toolproofDispatch(id, event)"),
    "observe": Kind("queued", "where", "dispatches a toolproof-visible event on the node the first time it is in view"),
    "stage": Kind("queued", "stage, text", "the boot progress: body[data-stage], #boot-stage, the stage list"),
    "mark": Kind("queued", "stage", "window.__stages[stage] = performance.now() (benchmarks/page_load.py)"),
    "build": Kind("read", "spec", "builds a node no parent has taken yet; answers it"),
    "node": Kind("read", "where", "answers the page object (null when there is none)"),
    "get": Kind("read", "where, property", "answers the property's value (a method comes bound)"),
    "call": Kind("read", "where, method, [plain values]", "calls a method in METHODS; answers its result"),
    "values": Kind("read", "[ids], attribute or empty", "answers JSON {id: its value, or that attribute}"),
    "now": Kind("read", "", "answers performance.now()"),
    "param": Kind("read", "name", "answers the page URL's query parameter"),
    "applied": Kind("trip", "", "answers the number of the last posted message applied"),
    "posted": Kind("trip", "[[number, message], ...]", "applies those not applied yet, in order, first"),
}
# The fields of a node spec, in order.
SPEC = ("id", "tag", "ns", "props", "attrs", "kids", "events")
# Properties a built node may carry, and that a queued write may set: the page's builder allows the
# same sets and nothing else, so no property that parses markup and no event-handler property can
# reach it.
PROPS = frozenset({"className", "id", "value", "hidden", "disabled", "checked", "selected", "title", "open"})
WRITABLE = PROPS | {"textContent", "selectedIndex", "scrollTop", "scrollLeft", "indeterminate"}
# Methods that take and return plain values: called on the page in the same trip as the writes.
METHODS = frozenset({"focus", "blur", "click", "scrollIntoView", "getAttribute", "hasAttribute",
                     "closest", "querySelector", "item", "select"})

MESSAGE_NODES = 2000     # nodes the page builds in one task at most (the fixture scorecard is several thousand)


def _size(spec, known: dict) -> int:
    """Nodes in a spec; `known` remembers each built node's count by its id, so cutting a big
    piece into its children never counts the same subtree twice."""
    if not isinstance(spec, list):
        return 1
    size = known.get(spec[0])
    if size is None:
        size = known[spec[0]] = 1 + sum(_size(kid, known) for kid in spec[5])
    return size


def messages(ops: list, most: int = MESSAGE_NODES) -> list:
    """The ops as messages of at most about `most` new nodes each. The page applies each message in
    one task and takes input between them, so a big piece (the fixture scorecard: thousands of
    nodes) is sent as its element first and its children in later messages, in order. A select
    keeps its options in its own message (its value names one of them)."""
    out, current, count, known = [], [], 0, {}
    work = list(ops)
    while work:
        op = work.pop(0)
        if op[0] != "append":
            current.append(op)
            continue
        for position, spec in enumerate(op[2]):
            size = _size(spec, known)
            if count and count + size > most:
                out.append(current)
                current, count = [], 0
            if size > most and spec[1] != "select":
                shell = spec[:5] + [[]] + spec[6:]
                current.append(["append", op[1], [shell]])
                count += 1
                rest = [["append", {"ref": spec[0]}, [kid]] for kid in spec[5]]
                if position + 1 < len(op[2]):
                    rest.append(["append", op[1], op[2][position + 1:]])
                work[:0] = rest
                break
            last = current[-1] if current else None
            if last is not None and last[0] == "append" and last[1] == op[1]:
                last[2].append(spec)
            else:
                current.append(["append", op[1], [spec]])
            count += size
    out.append(current)
    return out
