"""The worker's queued writes cut into messages the page can apply in short tasks. Pure: no js.

page/bridge.py sends each message as one call to the page (web/boot.mjs applies it in one task);
between two messages the page's main thread takes input. An op is a JSON list whose first item
names it; an "append" op carries node specs: [id, tag, ns, props, attrs, kids, events], a string
(text), or {"ref": id} (a node the page has already).
"""
from __future__ import annotations

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
