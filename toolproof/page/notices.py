"""Notices that stay until the user dismisses them: for what the page did that cannot be undone
(a kept run dropped to make room). An edge module (DOM).

A line a panel writes (its `run-message`) is replaced by the next one; a notice is not. Each is its
own element in a container, beside any earlier ones, with a Dismiss button (a real button: reached
with Tab, pressed with Enter or Space). The container's data-count says how many are shown.
"""
from __future__ import annotations

from .dom import el, on


class Notices:
    """The notices in `container`; `fallback` takes the keyboard's focus when the last one goes."""

    def __init__(self, container, fallback):
        self.container, self.fallback = container, fallback
        self.shown = 0
        container.dataset.count = "0"

    def add(self, notice) -> None:
        """Show `notice` (anything with `line` and `runs`: reports/kept_runs.DropNotice) after the
        others; None shows nothing."""
        if notice is None:
            return
        node = el("div", cls="notice", role="alert")
        node.appendChild(el("p", notice.line))
        if notice.runs:
            node.appendChild(el("ul", children=[el("li", entry, cls="notice-item") for entry in notice.runs]))
        dismiss = el("button", "Dismiss", type="button", cls="button secondary small-button notice-dismiss",
                     aria_label=f"Dismiss: {notice.line}"[:200])
        on(dismiss, "click", lambda e: self.dismiss(node))
        node.appendChild(dismiss)
        self.container.appendChild(node)
        self.count(+1)

    def dismiss(self, node) -> None:
        """Remove one notice; the focus goes to the next notice's button, or to the fallback, never
        lost with the removed button."""
        node.remove()
        self.count(-1)
        following = self.container.querySelector(".notice-dismiss")
        (following or self.fallback).focus()

    def count(self, change: int) -> None:
        self.shown += change
        self.container.dataset.count = str(self.shown)
