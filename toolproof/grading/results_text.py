"""The results file as text (version 2): one transcript a line, what changes while a run goes last.

```
{"format":"toolproof.transcripts","version":2,"kind":"live",...,"transcripts":[
{"case_id":"a",...},
{"case_id":"b",...}
],"created":"...","requests_used":12,"state":"done","error":""}
```

The first line holds every key that is known before the first request (format, provider, model,
settings, ...), ending with the opening of `transcripts`; each transcript is one line of compact
JSON (json.dumps escapes every line break inside strings, so a line is a whole transcript), its
request bodies' repeated parts written as references (grading/results_refs.py); the last line
closes the list and holds `TAIL_KEYS`, the keys that change while the run goes. It is still one
JSON document (key order is free in JSON), so every JSON tool reads it.

`run --out` writes it as it goes (cli/results_file.py `ResultsFile`): the first line and an empty
list once, then, after each case, the new transcript's line and the tail in one write at the end
of the last line, so saving costs what is saved, never the whole file again. The pieces are
`ResultsText.head`, `.item` and `.close`; their concatenation is `results_text(document)`, the
text written at once (the page's export), and `fitted(document, limit)` the same within the
reading limit (the last save, in plan order). Since the writer first cuts the file back to the
end of its last line and then writes, a run killed at any moment leaves the lines written before
plus the first part of one write: `recover` reads back every whole transcript line of such a
file, and the document says `"state": "cut short"` (`cut_short_note` is the line every view shows).

Pure: no I/O.
"""
from __future__ import annotations

from typing import Any

from toolproof import limits
from toolproof.plurals import counted
from .results_refs import VERSION, Encoder, compact, expand

# What changes while a run goes (and the scorecard of the page's export): written last.
TAIL_KEYS = frozenset({"created", "requests_used", "state", "error", "not_started", "scorecard"})
CUT_SHORT = "cut short"     # the state a recovered file's document says
_OPEN = '"transcripts":['
_SIGNATURE = '{"format":"toolproof.transcripts",'


def head_of(document: dict) -> dict:
    """What the first line holds: every key but the transcripts and the tail, at version 2."""
    head = {k: v for k, v in document.items() if k != "transcripts" and k not in TAIL_KEYS}
    return {**head, "version": VERSION}


def tail_of(document: dict) -> dict:
    return {k: v for k, v in document.items() if k in TAIL_KEYS}


class ResultsText:
    """The pieces of one results file's text, in the order they are written: `head` once, `item`
    for each transcript in file order, `close` after the last (again after each new item, when
    the file is written as the run goes). Holds the file's references, so one per file."""

    def __init__(self, *, same_objects: bool = False) -> None:
        self.encoder = Encoder(same_objects=same_objects)

    def head(self, document: dict) -> str:
        text = compact(head_of(document))
        return text[:-1] + "," + _OPEN          # head_of always holds "version"

    def item(self, transcript: dict) -> str:
        """The separator and the transcript's line (`\\n` before the first, `,\\n` after)."""
        first = self.encoder.count == 0
        return ("\n" if first else ",\n") + compact(self.encoder.encode(transcript))

    def close(self, document: dict) -> str:
        tail = compact(tail_of(document))
        return "\n]" + ("," + tail[1:] if len(tail) > 2 else "}") + "\n"


def results_text(document: dict) -> str:
    """The whole results file at once, its transcripts in the document's order. A document read
    from a file of version 2 is expanded first, so its references are written afresh."""
    document = expand(document)
    pieces = ResultsText()
    items = "".join(pieces.item(t) for t in document.get("transcripts", []))
    return pieces.head(document) + items + pieces.close(document)


def fitted(document: dict, limit: int) -> tuple[str, dict, int]:
    """The results file's text for `document` in at most `limit` bytes, the document it holds, and
    how many transcripts it left out: all of them fit, or the last ones (in the document's order)
    are left out, each listed in `not_started` with why, and the run's state says so (`error`).
    The file must read back: a run planned under the limit gets here only when its replies were
    far larger than allowed for. Each transcript is encoded once."""
    document = expand(document)
    pieces = ResultsText()
    transcripts = document.get("transcripts", [])
    head = pieces.head(document)
    lines = [pieces.item(t) for t in transcripts]
    sizes = [_bytes(line) for line in lines]
    used = _bytes(head) + sum(sizes)
    close = pieces.close(document)
    if used + _bytes(close) <= limit:
        return head + "".join(lines) + close, document, 0
    line = f"the results file reached the reading limit ({limit / 1e6:g} MB); the rest were left out of it"
    state = {"state": "error", "error": document.get("error") or line} if document.get("state") != "error" else {}
    reason = f"left out of the results file: with it the file would pass the {limit / 1e6:g} MB reading limit"
    keep = len(transcripts)
    while True:
        out = {**document, "transcripts": transcripts[:keep], **state, "not_started":
               list(document.get("not_started") or []) + [_not_started(t, reason) for t in transcripts[keep:]]}
        close = pieces.close(out)
        tail = _bytes(close)
        if used + tail <= limit or keep == 0:
            return head + "".join(lines[:keep]) + close, out, len(transcripts) - keep
        # drop enough at once that the loop runs a few times, not once per transcript
        while keep > 0 and used + tail > limit:
            keep -= 1
            used -= sizes[keep]
            tail += len(compact(_not_started(transcripts[keep], reason))) + 1


def _not_started(transcript: dict, reason: str) -> dict:
    """A transcript left out, as the run lists a plan item that has none (runner.not_started)."""
    return {"case_id": transcript.get("case_id"), "repeat": transcript.get("repeat", 0),
            **({"pad": transcript["pad"]} if "pad" in transcript else {}),
            **({"phrasing": transcript["phrasing"]} if "phrasing" in transcript else {}), "reason": reason}


def _bytes(text: str) -> int:
    return len(text.encode("utf-8"))


def recover(text: str) -> tuple[str, int] | None:
    """A results file of this layout whose last write was cut short (a kill, a full disk), as
    text that reads: its first line, every whole transcript line, and `"state": "cut short"`;
    with the number of transcripts kept. None when the text is not such a file: another layout,
    or a bad line anywhere but in the last write (the last two lines)."""
    if not text.startswith(_SIGNATURE):
        return None
    lines = text.split("\n")
    if not lines[0].endswith(_OPEN):
        return None
    items = []
    for line in lines[1:]:
        item = line[:-1] if line.endswith(",") else line
        if not _whole_object(item):
            break
        items.append(item)
    if len(lines) - 1 - len(items) > 2:
        return None
    listing = "\n" + ",\n".join(items) if items else ""
    return lines[0] + listing + "\n]," + compact({"state": CUT_SHORT})[1:] + "\n", len(items)


def _whole_object(line: str) -> bool:
    """Is this line one whole JSON object (a proper prefix of one never is)?"""
    if not (line.startswith("{") and line.endswith("}")):
        return False
    try:
        return isinstance(limits.read_json(line, what="line", max_bytes=limits.MAX_FILE_BYTES), dict)
    except limits.ReadError:
        return False


def cut_short_note(document: Any) -> str | None:
    """The line a view shows for a file `recover` read back; None for any other document."""
    if not isinstance(document, dict) or document.get("state") != CUT_SHORT:
        return None
    transcripts = document.get("transcripts")
    n = len(transcripts) if isinstance(transcripts, list) else 0
    return (f"this results file was cut short while the run wrote it (killed, or the disk full): "
            f"{counted(n, 'whole transcript')} read; the run's state, request count and anything later are lost")
