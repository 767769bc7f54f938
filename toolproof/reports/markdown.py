"""The one Markdown rule: text from a file or a model (a case id, a reason, a tool name, a run's
label or model) as inert Markdown, for every Markdown line of every report.

`md_text` is for running text and table cells: no emphasis, strikethrough, link, image,
autolink, code span, HTML, entity, table cell, heading, list or quote can come out of it, and it
stays one line. `md_code` puts a name in a code span, and `md_block` lines in a fenced block,
that nothing inside can close. ToolProof's own syntax (headings, column names, the emphasis
around advice) is written as Markdown directly and never passes through here. All three cut a text longer than `MAX_CHARS`
(saying how much more there was): a hostile name repeated on every line cannot make a report too
large for a CI summary (GitHub refuses a step summary over 1 MiB).

It escapes only what could be Markdown where it stands, so ordinary text ("should_call",
"83.6% (3 of 4)") comes out as it went in: an `_` between two letters or digits is no emphasis
in CommonMark, and `#`, `-`, `+`, `=` or `1.` are syntax only at the start of a line. GitHub
(GFM) also makes links of bare addresses (`www.x.com`, `https://x`, `a@b.co`) with no syntax at
all; a backslash before the `.`, `:` or `@` they hinge on breaks them, and the escape shows as
nothing, so a reader still sees (and can copy) the address as it was.
Pure: returns strings.
"""
from __future__ import annotations

import re

from toolproof.errors import clip
from toolproof.safe_text import printable

MAX_CHARS = 2000          # of one text: twice the longest the bundled fixtures' report holds
# always syntax inline: escapes, code spans, links, table cells, emphasis, strikethrough; and
# the characters GFM autolinks hinge on: www., scheme://, user@host
_ALWAYS = re.compile(r"([\\`\[\]|*~@])|(:)(?=//)|(?<=[wW]{3})(\.)")
# '_' opens or closes emphasis unless it stands between two letters or digits
_UNDERSCORE = re.compile(r"(?<![^\W_])_|_(?![^\W_])")
# at the start of the text (it may start a line; spaces before it are gone): heading, list item,
# rule or setext line, and the digits of an ordered item ("1. ", "2)"; not "83.6")
_LEADING = re.compile(r"^(?:([#+\-=])|(\d{1,9})(?=[.)](\s|$)))")


def _one_line(text: object) -> str:
    """The text cut to MAX_CHARS, line breaks as spaces (before any escaping, so a cut never
    splits an escape)."""
    return clip(str(text), MAX_CHARS).replace("\r\n", " ").replace("\n", " ")


def md_text(text: object) -> str:
    """`text` as inert Markdown on one line: line breaks as spaces, controls and invisible
    characters as visible escapes (safe_text.printable), syntax backslash-escaped, and <, >, &
    as entities (no HTML, no entity of the text's own). Spaces around it go: four after a list
    marker would start a code block, and a reader sees none of them."""
    text = _ALWAYS.sub(lambda m: "\\" + m.group(m.lastindex), _one_line(text).strip(" "))
    text = _UNDERSCORE.sub(r"\\_", text)
    text = _LEADING.sub(lambda m: "\\" + m.group(1) if m.group(1) else m.group(2) + "\\", text)
    # printable last: its escapes (a backslash and a letter) are plain text to Markdown
    return printable(text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;"))


def md_code(text: object) -> str:
    """`text` as one inline code span: fenced by more backticks than it holds in a row, so no
    backtick inside can close it; line breaks as spaces, controls as visible escapes. (In a code
    span backslashes, entities, HTML and addresses are shown as written, so nothing else needs
    escaping; a `|` would still end a table cell, so names in tables use md_text.) An empty text
    is a space: two backticks with nothing between them open no code span but could close one."""
    text = printable(_one_line(text)) or " "
    fence = "`" * (1 + max((len(run) for run in re.findall("`+", text)), default=0))
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def md_block(lines: list[str]) -> list[str]:
    """Lines as one fenced code block: the fence is longer than any run of backticks inside (three
    at least), so no line can close it early; controls as visible escapes, each line cut to
    MAX_CHARS."""
    shown = [printable(_one_line(line)) for line in lines]
    fence = "`" * max([3] + [len(run) + 1 for line in shown for run in re.findall("`+", line)])
    return [fence, *shown, fence]
