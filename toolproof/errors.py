"""Misuse of the harness (a bad file, a bad flag) and model findings.

Two different things on purpose: a `ToolProofError` means *we* cannot go on (the suite file is
wrong, a flag is unknown) and is shown to the user as one clear line by the CLI or the page;
a `Finding` is something the *model* did wrong, kept as data and never raised.

Every refusal is built here, so this is where its length is bounded: a value a message quotes is
cut with `clip` (about 120 characters, then "… (N more)"; every cut of a text or a list in a
reason, a refusal or a report says so the same way: `clip`, `clip_window`, `clip_list`), and the reason, the file and the JSON
path of a ToolProofError are cut too, whatever built them (a 2 MB list quoted by a schema message
once made a 2,008,087-character line). Escaping control characters is the edges' job
(`safe_text.printable`, which every CLI line and report goes through).
"""
from __future__ import annotations

from typing import Any, NamedTuple

MAX_QUOTED = 120    # characters of a value quoted in a refusal or a reason
MAX_REASON = 600    # characters of a refusal's reason (it may quote a few values and name a fix)
MAX_WHERE = 200     # characters of the file name and of the JSON path in a refusal


def clip(text: str, limit: int = MAX_QUOTED) -> str:
    """`text` cut to `limit` characters, saying how many more there were."""
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text) - limit:,} more)"


def clip_window(text: str, start: int, end: int) -> str:
    """`text[start:end]`, saying how many characters were left out on each side: "… (N before) "
    in front, "… (N more)" after (a cut around the place that matters, e.g. a first difference)."""
    start, end = max(0, start), min(len(text), end)
    before = f"… ({start:,} before) " if start else ""
    return before + text[start:end] + (f"… ({len(text) - end:,} more)" if end < len(text) else "")


def clip_list(items: list, shown: int, sep: str = ", ", *, total: int | None = None) -> str:
    """The first `shown` items joined, then "… (N more)" when there were more (`total`: how many
    in all, when only the first were built): a list cut says how much it left out, as a text cut does."""
    total = len(items) if total is None else total
    head = sep.join(str(item) for item in items[:shown])
    return head + (f"{sep}… ({total - shown:,} more)" if total > shown else "")


def quoted(value: object, limit: int = MAX_QUOTED) -> str:
    """repr(value), cut: how a message quotes a value it did not expect."""
    return clip(repr(value), limit)


def schema_message(error) -> str:
    """A jsonschema ValidationError's message, with the instance it quotes whole cut by `quoted`
    (as the fast checker in suite/schema.py quotes it), and the whole message cut at MAX_REASON (the
    fast checker cuts its own the same way)."""
    message = error.message
    if len(message) <= MAX_QUOTED:
        return message
    whole = repr(error.instance)
    message = message.replace(whole, quoted(error.instance), 1) if len(whole) > MAX_QUOTED else message
    return clip(message, MAX_REASON)     # a message quoting names (additionalProperties), not the instance


class ToolProofError(Exception):
    """A problem with ToolProof's input, named by file, JSON path and reason."""

    def __init__(self, reason: str, *, source: str | None = None, path: str | None = None):
        self.reason = clip(str(reason), MAX_REASON)
        self.source = None if source is None else clip(str(source), MAX_WHERE)
        self.path = None if path is None else clip(str(path), MAX_WHERE)
        super().__init__(self.line())

    def line(self) -> str:
        """One line for humans: `file: at $.cases[3].id: reason`."""
        where = []
        if self.source:
            where.append(self.source)
        if self.path:
            where.append(f"at {self.path}")
        return ": ".join(where + [self.reason]) if where else self.reason


def failure_line(exc: BaseException) -> str:
    """Work that failed, as one short line for the user (the page's panels show it): a
    ToolProofError's own line; a browser's error ("JsException") as what the browser said;
    anything else as its kind and first words. Never a traceback, never more than one line."""
    if isinstance(exc, ToolProofError):
        return exc.line()
    if isinstance(exc, MemoryError):
        return "not enough memory for this"
    words = clip(" ".join(str(exc).split()), MAX_REASON // 2)
    kind = "the browser said" if exc.__class__.__name__ == "JsException" else exc.__class__.__name__
    return f"{kind}: {words}" if words else kind


class Finding(NamedTuple):
    """One thing a model got wrong, e.g. code="schema.required", path="$.city"."""

    code: str
    path: str
    message: str

    def to_json(self) -> dict:
        return {"code": self.code, "path": self.path, "message": self.message}


def json_path(parts: list | tuple) -> str:
    """Render `["cases", 3, "id"]` as `$.cases[3].id` (the form every message uses)."""
    out = "$"
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else f".{part}"
    return out


_KINDS = ((bool, "a boolean"), (int, "a number"), (float, "a number"), (str, "a string"), (list, "an array"),
          (dict, "an object"))
_PLAIN = {"a string": "a text", "an array": "a list"}


def kind_of(value: Any, *, plain: bool = False) -> str:
    """A JSON value's kind as messages name it: 'null', 'a boolean', 'a number', 'a string', 'an
    array', 'an object' (anything else 'a <type name>'). `plain` says 'a text' and 'a list', the
    words of the world format's manual (docs/scenarios.md); a provider's reply keeps JSON's words."""
    if value is None:
        return "null"
    for cls, name in _KINDS:
        if isinstance(value, cls):
            return _PLAIN.get(name, name) if plain else name
    return f"a {type(value).__name__}"
