"""Checks every self-contained HTML report must pass (reports/html*.py): parsed with the
standard library's html.parser, never with a regex. Shared by the report, CLI and browser tests.
"""
from __future__ import annotations

from html.parser import HTMLParser

URL_ATTRIBUTES = {"src", "href", "action", "formaction", "srcset", "poster", "data", "xlink:href", "background"}


class Inventory(HTMLParser):
    """Every tag, attribute and text node of a document."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.attributes: list[tuple[str, str, str]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attributes += [(tag, name, value or "") for name, value in attrs]

    def handle_data(self, data):
        self.text.append(data)


def inventory(text: str) -> Inventory:
    found = Inventory()
    found.feed(text)
    found.close()
    return found


def assert_inert(text: str) -> Inventory:
    """No script, no external request, no event handler, nothing but inline CSS and SVG."""
    found = inventory(text)
    assert text.startswith("<!doctype html>")
    for tag in ("script", "iframe", "object", "embed", "link", "img", "base", "form", "a"):
        assert tag not in found.tags, tag
    for tag, name, value in found.attributes:
        assert not name.startswith("on"), (tag, name)
        assert name not in URL_ATTRIBUTES, (tag, name, value)
        assert "javascript:" not in value.lower() and "http://" not in value and "https://" not in value, (tag, name)
    assert "@import" not in text and "url(" not in text
    return found
