"""DOM helpers for the page: elements from text, never from HTML strings. An edge module (js).

Every node the page shows is made here with createElement and filled with textContent, so a
hostile string in a model's text or arguments can only ever be text.

The page's Python runs in a Web Worker (index.html: `<script type="py" worker>`), so the page
answers input while Pyodide starts, grades and runs (docs/page.md#responsiveness). This module is
the page's one door:
- `document` and `page_js` (the page's own global object: storage, URL, clock, console) reach the
  main thread through PyScript's synchronous proxies. The worker's own `js` has no DOM and no
  sessionStorage or localStorage; it stays for what belongs in the worker (fetch and timers, in
  page/transport.py).
- Each proxied access is one round trip to the main thread, so elements are first built in the
  worker (`Node`: tag, text, attributes, children, listeners) and sent to the page as one JSON
  message when they first meet the real DOM; web/boot.mjs builds them with createElement,
  textContent and setAttribute only (never HTML). After that a node is the real element.
- Every real node a panel touches is a `Live`: calls that take nodes accept built ones, and what
  comes back is a `Live` again, so panels use the DOM as they always did.
"""
from __future__ import annotations

import asyncio
import itertools
import json

from pyodide.ffi import JsProxy, create_proxy, to_js
from pyscript import document as _page_document
from pyscript import window as page_js

SVG = "http://www.w3.org/2000/svg"
_proxies: list = []          # event handlers must outlive this module's frames
_handlers: dict = {}         # listener id -> Python handler (web/boot.mjs calls back with the id)
_ids = itertools.count(1)
_queue: list = []            # (page element, Node): appends not sent yet, one message per parent
_listens: list = []          # page element, event name, listener id, ...: sent in one message
# Properties a built node may carry: the page's builder (web/boot.mjs) allows the same set and
# nothing else, so no innerHTML, outerHTML or event-handler property can reach it.
PROPS = frozenset({"className", "id", "value", "hidden", "disabled", "checked", "selected", "title", "open"})


def _real(value):
    """What a call to the page gets for an argument: the page's object behind a Node or a Live."""
    if isinstance(value, Node):
        return value.live()._js
    if isinstance(value, Live):
        return value._js
    if isinstance(value, Text):
        return _page_document.createTextNode(value.text)
    return value


def _wrapped(value):
    if isinstance(value, JsProxy) and type(value).__name__ != "JsNull":
        return Live(value)
    return value


def _flush() -> None:
    """Send the queued appends (consecutive ones into the same element go in one message), then
    the queued listeners, all in one message."""
    while _queue:
        parent, batch = _queue[0][0], []
        while _queue and _queue[0][0] is parent:
            batch.append(_queue.pop(0)[1].spec())
        page_js.toolproofAppend(parent, json.dumps(batch))
    if _listens:
        batch = _listens[:]
        _listens.clear()
        page_js.toolproofListenAll(*batch)


def _soon() -> None:
    if not _queue and not _listens:
        asyncio.get_event_loop().call_soon(_flush)


class Live:
    """A real object of the page (an element, the document, an event), reached through the proxy.
    Nodes appended to it are queued and sent together before anything else reaches the page (and
    as soon as the running Python code yields), so a list of 10,000 options is one message."""

    __slots__ = ("_js",)

    def __init__(self, js_object):
        object.__setattr__(self, "_js", js_object)

    def appendChild(self, child):
        if isinstance(child, Node) and child._building():
            _soon()
            _queue.append((self._js, child))
            return child
        _flush()
        return _wrapped(self._js.appendChild(_real(child)))

    def __getattr__(self, name: str):
        _flush()
        value = getattr(self._js, name)
        if callable(value) and isinstance(value, JsProxy) and getattr(value, "typeof", "") == "function":
            return lambda *args: _wrapped(value(*(_real(a) for a in args)))
        return _wrapped(value)

    def __setattr__(self, name: str, value) -> None:
        _flush()
        setattr(self._js, name, _real(value))

    def __bool__(self) -> bool:
        _flush()
        return bool(self._js)

    def __iter__(self):
        _flush()
        return (_wrapped(item) for item in self._js)

    def __len__(self) -> int:
        _flush()
        return int(self._js.length)

    def __getitem__(self, index):
        _flush()
        return _wrapped(self._js[index])

    def __eq__(self, other) -> bool:
        return isinstance(other, (Live, Node)) and self._js == _real(other)

    __hash__ = object.__hash__

    def __await__(self):
        return self._js.__await__()

    def listen(self, event: str, handler) -> None:
        handler_id = _handler_id(handler)
        _soon()
        _listens.extend((self._js, event, handler_id))


class _Data:
    """`node.dataset` of a node still being built: `data-*` attributes."""

    __slots__ = ("_node",)

    def __init__(self, node):
        object.__setattr__(self, "_node", node)

    def __setattr__(self, name: str, value) -> None:
        kebab = "".join(f"-{c.lower()}" if c.isupper() else c for c in name)
        self._node.setAttribute(f"data-{kebab}", str(value))

    def __getattr__(self, name: str):
        kebab = "".join(f"-{c.lower()}" if c.isupper() else c for c in name)
        return self._node.getAttribute(f"data-{kebab}")


class Node:
    """An element being built in the worker; it becomes the page's element (a `Live`) when it is
    attached to the page or when anything beyond building is asked of it."""

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
        return _Data(self) if self._building() else self.live().dataset

    def listen(self, event: str, handler) -> None:
        if self._building():
            self._events.append([event, _handler_id(handler)])
        else:
            self.live().listen(event, handler)

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
        if name == "textContent" and self._building():
            return "".join(k.text if isinstance(k, Text) else k.textContent for k in self._kids)
        if name in PROPS and self._building() and name in self._props:
            return self._props[name]
        return getattr(self.live(), name)

    def __bool__(self) -> bool:
        return True

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
        """The page's element: built there in one message, or looked up once if an ancestor's
        message built it."""
        if self._live is None:
            _flush()                  # this node may be waiting in the queue
            if self._sent:
                found = page_js.toolproofFind(self._id)
            else:
                found = page_js.toolproofBuild(json.dumps(self.spec()))
            object.__setattr__(self, "_live", Live(found))
        return self._live


class Text:
    """A text node being built: only ever text."""

    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = str(text)

    def spec(self) -> str:
        return self.text


def _dispatch(handler_id, event) -> None:
    try:
        _handlers[int(handler_id)](Live(event))
    finally:
        _flush()


def _handler_id(handler) -> int:
    if not _proxies:            # the one callback the page calls for every listener
        _proxies.append(create_proxy(_dispatch))
        page_js.toolproofDispatch = _proxies[0]
    handler_id = next(_ids)
    _handlers[handler_id] = handler
    return handler_id


class _Document(Live):
    """The page's document: new elements start as `Node`s in the worker."""

    __slots__ = ()

    def createElement(self, tag: str) -> Node:
        return Node(tag)

    def createElementNS(self, ns: str, tag: str) -> Node:
        return Node(tag, ns)

    def createTextNode(self, text: str) -> Text:
        return Text(text)


document = _Document(_page_document)


def el(tag: str, text: str | None = None, *, cls: str | None = None, children=(), **attrs):
    node = document.createElement(tag)
    if cls:
        node.className = cls
    if text is not None:
        node.textContent = text
    for name, value in attrs.items():
        node.setAttribute(name.rstrip("_").replace("_", "-"), str(value))
    for child in children:
        if child is not None:
            node.appendChild(child)
    return node


def breakable(tag: str, text: str, **kw):
    """An element showing `text` with a line-break opportunity (<wbr>) after each `_` and `.`,
    so long identifiers wrap between their words, not mid-word. Display only: textContent and
    every export keep the text exactly."""
    node = el(tag, **kw)
    piece = ""
    for char in text:
        piece += char
        if char in "_.":
            node.appendChild(document.createTextNode(piece))
            node.appendChild(document.createElement("wbr"))
            piece = ""
    if piece:
        node.appendChild(document.createTextNode(piece))
    return node


def svg(tag: str, **attrs):
    node = document.createElementNS(SVG, tag)
    for name, value in attrs.items():
        node.setAttribute(name.rstrip("_").replace("_", "-"), str(value))
    return node


def on(node, event: str, handler) -> None:
    """Call handler(event) on each `event` of node (the event's target and the rest are Lives)."""
    node.listen(event, handler)


def clear(node) -> None:
    if isinstance(node, Node) and node._building():
        node._kids.clear()
    else:
        node.replaceChildren()          # one call to the page, however many children


def set_stage(stage: str, text: str) -> None:
    """The boot progress (body[data-stage], the line, the list of stages), in one message."""
    _flush()
    page_js.toolproofStage(stage, text)


async def paint() -> None:
    """Give the browser a chance to draw the progress before more Python runs."""
    _flush()
    await asyncio.sleep(0.01)


def download(filename: str, text: str, mime: str) -> None:
    # made on the page (not in the worker), so the link's blob: URL belongs to the page
    blob = page_js.Blob.new(to_js([text]), page_js.Object.fromEntries(to_js([["type", mime]])))
    url = page_js.URL.createObjectURL(blob)
    link = el("a", href=url, download=filename)
    document.body.appendChild(link)
    link.click()
    link.remove()
    page_js.setTimeout(create_proxy(lambda: page_js.URL.revokeObjectURL(url)), 1000)


def page_now() -> float:
    """The page's clock (ms since navigation start): the worker's own `performance` counts from
    the worker's start, so marks the benchmarks read come from here."""
    return float(page_js.performance.now())


def byid(name: str):
    return document.getElementById(name)
