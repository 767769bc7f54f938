"""DOM helpers for the page: elements from text, never from HTML strings. An edge module (js).

Every node the page shows is made here with createElement and filled with textContent, so a
hostile string in a model's text or arguments can only ever be text. The page's Python runs in a
worker: `document`, `page_js` and the queue of writes are page/bridge.py's (read it for how a
write reaches the page); panels import what they need from here.
"""
from __future__ import annotations

import asyncio
import contextlib
import json

from pyodide.ffi import create_proxy, to_js

from .bridge import Live, document, flush, page_js, push, seen as _seen, since, turn_cache, where  # noqa: F401
from toolproof.errors import failure_line
from .batches import VISIBLE

SVG = "http://www.w3.org/2000/svg"


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


def scroller(label: str, *children, tag: str = "div", text: str | None = None, cls: str = "table-scroll", **attrs):
    """A box that may scroll (a wide table, a long JSON block): reachable with Tab, then scrolled
    with the arrow keys, and named by `label` for a screen reader (role=region). Every scroll
    region of the page is made here, so none is one a keyboard cannot reach (axe-core's
    scrollable-region-focusable)."""
    return el(tag, text, cls=cls, children=children, tabindex="0", role="region", aria_label=label, **attrs)


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


def when_visible(node, handler) -> None:
    """Call handler(event) once, the first time node is in view (scrolled to, a link followed)."""
    node.listen(VISIBLE, handler)
    push(["observe", where(node)])


def clear(node) -> None:
    node.replaceChildren()          # queued: one op, however many children


def fill(node, value, prop: str = "value") -> None:
    """Write a field the user can type into (its value, or `checked`): skipped by the page when
    the user has changed the field since the event this code answers (outside any event, since the
    page loaded), so what the user typed wins over any later write from the worker
    (web/boot.mjs checks it on the main thread, when the write would apply)."""
    at = where(node)
    forget_seen(at.get("id", ""))
    push(["fill", at, prop, value, since.get()])


def seen(name: str):
    """The field `name` of the answered event's form as it was when the event fired (web/boot.mjs
    sends it with the event), or None: outside an event or a form, a value too big to send, or a
    field this code wrote since (forget_seen). What a handler reads of its own form is then what
    the user had entered at that event, however far the user has gone since."""
    form = _seen.get()
    return form.get(name) if form else None


@contextlib.contextmanager
def as_now():
    """Reads inside see the fields as they are now, with this code's own writes (a default the
    answered event caused), not as the event saw them: for saving the form, not for acting on it."""
    token = _seen.set(None)
    try:
        yield
    finally:
        _seen.reset(token)


def forget_seen(name: str) -> None:
    """The answered event's copy of `name` is out of date: this code has just written the field
    (fill and default call it; a write of `value` by other means must)."""
    form = _seen.get()
    if form:
        form.pop(name, None)


def default(node, value: str) -> None:
    """Write a value derived from other fields (the cap from the scope): it replaces only the
    default written last (or, before any, a field the user never changed), and never a change
    the user made after the event this code answers. See fill."""
    at = where(node)
    forget_seen(at.get("id", ""))
    push(["default", at, str(value), since.get()])


def set_stage(stage: str, text: str) -> None:
    """The boot progress (body[data-stage], the line, the list of stages): a queued write."""
    push(["stage", str(stage), str(text)])


def mark(stage: str) -> None:
    """Record on the page's clock when a start-up stage ended (window.__stages, read by
    benchmarks/page_load.py): a queued write, stamped when the page applies it."""
    push(["mark", str(stage)])


async def paint() -> None:
    """Send the progress so far (posted, while the page starts: bridge.post_writes) and let the
    worker's loop take what is waiting. The page draws on its own thread."""
    flush(wait=False)
    await asyncio.sleep(0)


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
    return float(flush(["now"]))


def values(names, attribute: str = "") -> dict:
    """The `value` (or the given attribute) of each element named by id, None where there is
    none: one trip for them all."""
    return json.loads(flush(["values", [str(n) for n in names], str(attribute)]))


def focus_result(node, within: str) -> None:
    """Keyboard focus to `node` (a tabindex="-1" target: a result line, a section) without
    scrolling the page, so Tab goes on from the result, not from the top. Only when focus is on
    nothing (the body) or inside `within` (a CSS selector, the panel that produced the result):
    someone typing in another panel keeps their place."""
    active = document.activeElement
    if not active or active.matches(f"body, {within}, {within} *"):
        node.focus({"preventScroll": True})


def byid(name: str) -> Live:
    return document.getElementById(name)


def task(work, fail) -> asyncio.Future:
    """Run the coroutine `work` as a task of the page; if it raises, `fail(line)` (errors.failure_line):
    the panel clears its busy state and says what failed, so nothing waits on work that failed.
    Cancelling (a run aborted) is not a failure."""
    async def guarded():
        try:
            await work
        except asyncio.CancelledError:
            raise
        except Exception as exc:     # noqa: BLE001 - any failure is one line in its panel
            page_js.console.error(f"{exc.__class__.__name__}: {exc}"[:2000])
            fail(failure_line(exc))
    return asyncio.ensure_future(guarded())
