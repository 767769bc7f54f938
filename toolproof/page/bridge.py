"""The bridge between the page's Python (in a Web Worker) and the page itself. An edge module (js).

The page's Python runs in a worker (index.html: `<script type="py" worker>`), so the page answers
input while Pyodide starts, grades and runs (docs/page.md#responsiveness). It reaches the page
through PyScript's synchronous proxies, and a trip to the main thread costs milliseconds (tens on
a busy machine), so writes never make one of their own:
- Elements are built in the worker (`Node`: tag, text, attributes, children, listeners).
- Every write to the page (append, set a property or an attribute, clear, listen) is queued; the
  queue goes to the page as one JSON message (its kinds of op: page/batches.py's `KINDS`; `toolproofOps`
  in web/boot.mjs uses createElement, textContent and setAttribute only, never HTML) when Python yields, at the end of
  an event handler, or together with the next read, which is answered in the same trip.
- Every page object a panel touches is a `Live`: one named by its id (`document.getElementById`)
  costs nothing until something is read from it.
`page_js` is the page's own global object (storage, URL, clock); the worker's own `js` has no DOM,
sessionStorage or localStorage and stays for what belongs in the worker (fetch, timers, IndexedDB).
Panels use page/dom.py, which builds on this.
"""
from __future__ import annotations

import asyncio
import contextvars
import itertools
import json
import math

from pyodide.ffi import JsProxy, create_proxy, to_js
from pyscript import window as page_js

from .batches import KINDS, METHODS, PROPS, WRITABLE, messages

_proxies: list = []          # event handlers must outlive this module's frames
_handlers: dict = {}         # listener id -> Python handler (web/boot.mjs calls back with the id)
_ids = itertools.count(1)
_ops: list = []              # writes to the page not sent yet, in order
_args: list = []             # page objects those writes name ({"arg": i}), sent beside the JSON
_channel: list = []          # the BroadcastChannel while writes are posted (post_writes)
_posted: list = []           # [number, message] posted since the last trip, in order
_numbers = itertools.count(1)
since = contextvars.ContextVar("since", default=0)   # the user's changes the answered event saw (dom.fill)
seen = contextvars.ContextVar("seen", default=None)  # its form as the event fired: id -> value (dom.seen)


def _plain(value) -> bool:
    """A value a queued write can carry as JSON (NaN and infinities cannot), or a dict of them
    (a method's options, such as focus's preventScroll)."""
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and _plain(v) for k, v in value.items())
    return value is None or isinstance(value, (str, bool, int))


def where(target) -> dict:
    """How a queued write names a page object: by id, by the id of a node built here, as the body,
    or passed beside the message."""
    if isinstance(target, Node):
        return {"ref": target._id}
    if target._at is not None:
        return target._at
    _args.append(target._js)
    return {"arg": len(_args) - 1}


def push(op: list) -> None:
    """Queue one write to the page (sent on the loop's next turn at the latest)."""
    if KINDS[op[0]].sent != "queued":
        raise ValueError(f"not a write the page queues: {op[0]!r}")
    if not _ops:
        asyncio.get_event_loop().call_soon(flush, None, False)
    _ops.append(op)


def post_writes(channel_name: str | None) -> None:
    """While the page starts, writes nobody waits for are posted to the page on a BroadcastChannel
    (its name is the page's own, random: web/boot.mjs), so the worker goes on with Python while
    the page builds and lays them out; `None` goes back to a trip per flush. The first flush that
    waits (a read, a page object used directly, the end of an event handler) carries again those
    the page has not applied yet, and the page applies them, in order, before its own: what waits
    always sees every write queued before it."""
    import js

    if _channel:
        _channel.pop().close()
    if channel_name:
        _channel.append(js.BroadcastChannel.new(channel_name))


def flush(read: list | None = None, wait: bool = True):
    """Send the queued writes, and `read` after them (its answer is returned): one trip (a few for
    a big piece of page, see `messages`), or none when there is nothing to send. With
    `wait=False`, while the page starts (post_writes), the writes are posted without a trip."""
    if read is None and not _ops and (not wait or not _posted):
        return None
    if read is not None and KINDS[read[0]].sent != "read":
        raise ValueError(f"not a read the page answers: {read[0]!r}")
    ops = _ops[:] + ([read] if read is not None else [])
    args = _args[:]
    _ops.clear()
    _args.clear()
    if not wait and _channel and not args:
        for message in messages(ops):
            entry = [next(_numbers), json.dumps(message)]
            _channel[0].postMessage(to_js(entry))
            _posted.append(entry)
        return None
    if _posted:
        # one small trip first: what the page has applied from the channel need not travel again
        applied = page_js.toolproofOps(json.dumps([["applied"]]))
        late = [entry for entry in _posted if entry[0] > applied]
        _posted.clear()
        ops.insert(0, ["posted", late])
    answer = None
    for message in messages(ops):
        answer = page_js.toolproofOps(json.dumps(message), *args)
    return answer


def _wrapped(value):
    if isinstance(value, JsProxy):
        return None if type(value).__name__ == "JsNull" else Live(value)
    return value


def _real(value):
    """What a direct call to the page gets for an argument: the page's object itself."""
    if isinstance(value, Node):
        return value.live()._node()
    if isinstance(value, Live):
        return value._node()
    if isinstance(value, Text):
        return page_js.document.createTextNode(value.text)
    return value


class Live:
    """An object of the page: an element named by its id (or the body, or a node built here), or
    one the page handed over (an event, its target). Writes are queued; a read is one trip."""

    __slots__ = ("_js", "_at")

    def __init__(self, js_object=None, at: dict | None = None):
        object.__setattr__(self, "_js", js_object)
        object.__setattr__(self, "_at", at)

    def _node(self):
        """The page's object itself (found once, in one trip with the queued writes)."""
        if self._js is None:
            object.__setattr__(self, "_js", flush(["node", self._at]))
        else:
            flush()
        return self._js

    # -- writes: queued
    def appendChild(self, child):
        if isinstance(child, Text) or isinstance(child, Node) and child._building():
            push(["append", where(self), [child.spec()]])     # page/batches.py merges a run of these
            return child
        if isinstance(child, (Node, Live)) and (isinstance(child, Node) or child._at is not None):
            push(["append", where(self), [where(child)]])
            return child
        return _wrapped(self._node().appendChild(_real(child)))

    def setAttribute(self, name: str, value) -> None:
        push(["attr", where(self), str(name), str(value)])

    def removeAttribute(self, name: str) -> None:
        push(["unattr", where(self), str(name)])

    def remove(self) -> None:
        push(["remove", where(self)])

    def replaceChildren(self, *children) -> None:
        push(["clear", where(self)])
        for child in children:
            self.appendChild(child)

    def listen(self, event: str, handler) -> None:
        push(["listen", where(self), str(event), _handler_id(handler)])

    @property
    def dataset(self):
        return _Data(self)

    def __setattr__(self, name: str, value) -> None:
        if name in WRITABLE and _plain(value):
            push(["set", where(self), name, value])
        else:
            setattr(self._node(), name, _real(value))

    # -- reads: one trip each
    def __getattr__(self, name: str):
        if name.startswith("_"):
            raise AttributeError(name)
        if name == "closest" and self._at is not None and "closest" not in self._at:
            # an ancestor of an element named by id is named the same way: no trip until read
            return lambda selector: Live(at={**self._at, "closest": str(selector)})
        if name in METHODS:
            return lambda *args: self._call(name, args)
        if self._js is not None:
            flush()
            value = getattr(self._js, name)
        else:
            value = flush(["get", where(self), name])
        if isinstance(value, JsProxy) and getattr(value, "typeof", "") == "function":
            return lambda *args: _wrapped(getattr(self._node(), name)(*(_real(a) for a in args)))
        return _wrapped(value)

    def _call(self, name: str, args: tuple):
        if all(_plain(a) for a in args):
            return _wrapped(flush(["call", where(self), name, list(args)]))
        return _wrapped(getattr(self._node(), name)(*(_real(a) for a in args)))

    def getAttribute(self, name: str):
        return self._call("getAttribute", (str(name),))

    def hasAttribute(self, name: str) -> bool:
        return bool(self._call("hasAttribute", (str(name),)))

    def __bool__(self) -> bool:
        return True

    def __iter__(self):
        return (_wrapped(item) for item in self._node())

    def __len__(self) -> int:
        return int(self._node().length)

    def __getitem__(self, index):
        return _wrapped(self._node()[index])

    def __eq__(self, other) -> bool:
        if isinstance(other, (Live, Node)) and self._at is not None and self._at == _at_of(other):
            return True
        return isinstance(other, (Live, Node)) and self._node() == _real(other)

    __hash__ = object.__hash__

    def __await__(self):
        return self._node().__await__()


def _at_of(target) -> dict | None:
    return {"ref": target._id} if isinstance(target, Node) else target._at


class _Data:
    """`node.dataset`: `data-*` attributes, written as attributes (queued or built)."""

    __slots__ = ("_node",)

    def __init__(self, node):
        object.__setattr__(self, "_node", node)

    def __setattr__(self, name: str, value) -> None:
        self._node.setAttribute(_data_name(name), str(value))

    def __getattr__(self, name: str):
        return self._node.getAttribute(_data_name(name))


def _data_name(name: str) -> str:
    return "data-" + "".join(f"-{c.lower()}" if c.isupper() else c for c in name)


class Node:
    """An element being built in the worker. It goes to the page inside its parent's append; after
    that, writes to it are queued by its id and reads ask the page."""

    __slots__ = ("_id", "_tag", "_ns", "_props", "_attrs", "_kids", "_events", "_live", "_sent")

    def __init__(self, tag: str, ns: str = ""):
        for name, value in (("_id", next(_ids)), ("_tag", tag), ("_ns", ns), ("_props", {}),
                            ("_attrs", {}), ("_kids", []), ("_events", []), ("_live", None),
                            ("_sent", False)):
            object.__setattr__(self, name, value)

    # -- building, before the page has it
    def appendChild(self, child):
        if self._building() and not isinstance(child, Live):
            self._kids.append(child if isinstance(child, (Node, Text)) else str(child))
            return child
        return self.live().appendChild(child)

    def append(self, *children) -> None:
        for child in children:
            self.appendChild(Text(child) if isinstance(child, str) else child)

    def setAttribute(self, name: str, value) -> None:
        if self._building():
            self._attrs[str(name)] = str(value)
        else:
            self.live().setAttribute(name, value)

    def removeAttribute(self, name: str) -> None:
        if self._building():
            self._attrs.pop(str(name), None)
        else:
            self.live().removeAttribute(name)

    def getAttribute(self, name: str):
        return self._attrs.get(str(name)) if self._building() else self.live().getAttribute(name)

    def hasAttribute(self, name: str) -> bool:
        return str(name) in self._attrs if self._building() else bool(self.live().hasAttribute(name))

    @property
    def dataset(self):
        return _Data(self)

    def listen(self, event: str, handler) -> None:
        if self._building():
            self._events.append([event, _handler_id(handler)])
        else:
            self.live().listen(event, handler)

    def remove(self) -> None:
        if not self._building():
            self.live().remove()

    def replaceChildren(self, *children) -> None:
        if self._building():
            self._kids.clear()
            self.append(*children)
        else:
            self.live().replaceChildren(*children)

    def __setattr__(self, name: str, value) -> None:
        if not self._building():
            setattr(self.live(), name, value)
        elif name == "textContent":
            self._kids[:] = [Text(str(value))]
        elif name in PROPS:
            self._props[name] = value if isinstance(value, bool) else str(value)
        else:
            setattr(self.live(), name, value)

    def __getattr__(self, name: str):
        if name.startswith("_"):
            raise AttributeError(name)
        if name == "textContent" and self._building():
            return "".join(k.text if isinstance(k, Text) else k.textContent for k in self._kids)
        if name in PROPS and self._building() and name in self._props:
            return self._props[name]
        return getattr(self.live(), name)

    def __bool__(self) -> bool:
        return True

    def __eq__(self, other) -> bool:
        if other is self:
            return True
        return isinstance(other, (Live, Node)) and not self._building() and self.live() == other

    __hash__ = object.__hash__

    # -- handing over to the page
    def _building(self) -> bool:
        return self._live is None and not self._sent

    def spec(self) -> list | dict:
        """The JSON the page builds this node from; a node the page has already is named by id."""
        if not self._building():
            return {"ref": self._id}
        object.__setattr__(self, "_sent", True)
        kids = [k.text if isinstance(k, Text) else k.spec() for k in self._kids]
        return [self._id, self._tag, self._ns, self._props, self._attrs, kids, self._events]

    def live(self) -> Live:
        """The page's element: named by id once a message carries it; a node asked for before
        any parent took it is built on the page at once (one trip) and held here."""
        if self._live is None:
            if self._sent:
                live = Live(at={"ref": self._id})
            else:
                spec = self.spec()
                live = Live(flush(["build", spec]), at={"ref": self._id})
            object.__setattr__(self, "_live", live)
        return self._live


class Text:
    """A text node being built: only ever text."""

    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = str(text)

    def spec(self) -> str:
        return self.text


_turn_caches: list = []      # copies of page values (turn_cache), forgotten around every event


def turn_cache() -> dict:
    """A dict for values read from the page, kept only while nothing on the page can have changed:
    emptied around every event handler (each is a call from the page) and by its user next turn."""
    cache: dict = {}
    _turn_caches.append(cache)
    return cache


def _dispatch(handler_id, event, stamp=0, form=None) -> None:
    for cache in _turn_caches:
        cache.clear()
    token = since.set(int(stamp or 0))      # kept by the tasks the handler starts, too
    form_token = seen.set(json.loads(form) if isinstance(form, str) else None)
    try:
        _handlers[int(handler_id)](Live(event))
    finally:
        since.reset(token), seen.reset(form_token)
        for cache in _turn_caches:
            cache.clear()
        flush()


def _handler_id(handler) -> int:
    if not _proxies:            # the one callback the page calls for every listener
        _proxies.append(create_proxy(_dispatch))
        page_js.toolproofDispatch = _proxies[0]
    handler_id = next(_ids)
    _handlers[handler_id] = handler
    return handler_id


class _Document(Live):
    """The page's document: new elements start as `Node`s in the worker; elements found by id
    cost no trip until read."""

    __slots__ = ()

    def createElement(self, tag: str) -> Node:
        return Node(tag)

    def createElementNS(self, ns: str, tag: str) -> Node:
        return Node(tag, ns)

    def createTextNode(self, text: str) -> Text:
        return Text(text)

    def getElementById(self, name: str) -> Live:
        return Live(at={"id": str(name)})

    @property
    def body(self) -> Live:
        return Live(at={"body": 1})


document = _Document(at={"doc": 1})
