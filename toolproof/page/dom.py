"""DOM helpers for the page: elements from text, never from HTML strings. An edge module (js).

Every node the page shows is made here with createElement and filled with textContent, so a
hostile string in a model's text or arguments can only ever be text.
"""
from __future__ import annotations

import asyncio

import js
from pyodide.ffi import create_proxy
from pyscript import document

SVG = "http://www.w3.org/2000/svg"
_proxies: list = []          # event handlers must outlive this module's frames


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
    proxy = create_proxy(handler)
    _proxies.append(proxy)
    node.addEventListener(event, proxy)


def clear(node) -> None:
    while node.firstChild:
        node.removeChild(node.firstChild)


def set_stage(stage: str, text: str) -> None:
    document.body.dataset.stage = stage
    document.getElementById("boot-stage").textContent = text
    for item in document.querySelectorAll("#boot .stages li"):
        order = ["runtime", "packages", "suite", "grade"]
        mine = item.dataset.stage
        item.className = "done" if order.index(mine) < order.index(stage) else (
            "active" if mine == stage else "")


async def paint() -> None:
    """Give the browser a chance to draw the progress before more Python runs."""
    await asyncio.sleep(0.01)


def download(filename: str, text: str, mime: str) -> None:
    blob = js.Blob.new([text], js.Object.fromEntries([["type", mime]]))
    url = js.URL.createObjectURL(blob)
    link = el("a", href=url, download=filename)
    document.body.appendChild(link)
    link.click()
    link.remove()
    js.setTimeout(create_proxy(lambda: js.URL.revokeObjectURL(url)), 1000)


def byid(name: str):
    return document.getElementById(name)
