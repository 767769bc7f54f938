"""What the page's fields may hold, and how a panel reads a big one. An edge module (DOM).

One bound for every text a user brings, a file or a paste: toolproof/limits.py's MAX_FILE_BYTES,
the terminal's own. The page's JavaScript has no number of its own: `publish` hands it this one
(body[data-max-input-bytes]), and web/boot.mjs then refuses, before the text enters the field,
any typing, paste or drop that would make a field hold more, so none of it reaches this worker.
The field gets a "toolproof-refused" event; `on_refused` lets its panel show the line, which names
the size and the limit (`refused_line`, from limits.size_refusal).

A field meant for big text (the pasted tool definitions) is read with `field_text`, never through
a synchronous trip: PyScript's channel to the page carries at most 16 MiB, and web/boot.mjs
refuses a larger answer rather than leave the worker waiting for it.
"""
from __future__ import annotations

from .dom import document, on, page_js
from toolproof.errors import ToolProofError
from toolproof.limits import MAX_FILE_BYTES, size_refusal

REFUSED = "toolproof-refused"      # the event web/boot.mjs sends a field it refused text for


def publish() -> None:
    """Hand the page its input bound (a queued write, sent with the first batch)."""
    document.body.dataset.maxInputBytes = str(MAX_FILE_BYTES)


def refused_reason(size: int) -> str:
    """Why a field refused text: how big it would have been, the limit, and that the field kept
    what it held."""
    return f"text is {size_refusal(int(size))}; the field was left as it was"


def refused_line(what: str, size: int) -> str:
    """The line a panel shows when its field `what` refused text (refused_reason, named)."""
    return f"{what}: {refused_reason(size)}"


def on_refused(node, show) -> None:
    """Call show(field id, size in bytes) when web/boot.mjs refuses text for a field inside `node`
    (the panel words it with refused_line)."""
    on(node, REFUSED, lambda event: show(str(event.target.id or ""), int(event.detail)))


def field_text(name: str, source: str):
    """The text of the field `name`, to await: the page takes it now, as the field holds it while
    this event is handled (text typed after is the next event's), and sends it asynchronously (no
    size limit on the way). Over the input bound, awaiting raises a ToolProofError naming `source`,
    the size and the limit: the page measured the text and sent nothing of it."""
    reading = page_js.toolproofFieldText(name)

    async def text() -> str:
        answer = await reading
        if isinstance(answer, str):
            return answer
        raise ToolProofError(f"text is {size_refusal(int(answer))}", source=source)
    return text()
