"""The one Markdown rule: text from a file or a model (a case id, a reason, a tool name, a run's
label or model) as inert Markdown, for every Markdown line of every report.

`md_text` is for running text and table cells: no emphasis, strikethrough, link, image,
code span, HTML, table cell, heading, list or quote can come out of it, and it stays one line.
`md_code` puts a name in a code span, and `md_block` lines in a fenced block, that nothing inside
can close. ToolProof's own words
(headings, advice, column names) are written as Markdown directly and never pass through here.

It escapes only what could be Markdown where it stands, so ordinary text ("should_call",
"83.6% (3 of 4)") comes out as it went in: an `_` between two letters or digits is no emphasis
in CommonMark, and `#`, `-`, `+`, `=` or `1.` are syntax only at the start of a line.
Pure: returns strings.
"""
from __future__ import annotations

import re

from toolproof.safe_text import printable

# always syntax inline: escapes, code spans, links, table cells, emphasis, strikethrough
_ALWAYS = re.compile(r"([\\`\[\]|*~])")
# '_' opens or closes emphasis unless it stands between two letters or digits
_UNDERSCORE = re.compile(r"(?<![^\W_])_|_(?![^\W_])")
# at the start of the text (it may start a line): heading, list item, rule or setext line, and
# the digits of an ordered item ("1. ", "2)"; not "83.6")
_LEADING = re.compile(r"^(\s*)([#+\-=]|\d{1,9}(?=[.)](\s|$)))")
# A bare web address (scheme://..., www....) may still show as a GFM autolink, which loads nothing
# until a reader clicks it: neither escaper before this one touched it, and reports that quote a
# URL argument keep their bytes. Links, images and HTML, which can load on view, never pass.


def md_text(text: object) -> str:
    """`text` as inert Markdown on one line: line breaks as spaces, controls and invisible
    characters as visible escapes (safe_text.printable), syntax backslash-escaped, and <, >, &
    as entities (no HTML)."""
    text = _ALWAYS.sub(r"\\\1", str(text).replace("\r\n", " ").replace("\n", " "))
    text = _UNDERSCORE.sub(r"\\_", text)
    text = _LEADING.sub(lambda m: m.group(1) + "\\" + m.group(2) if not m.group(2)[0].isdigit()
                        else m.group(1) + m.group(2) + "\\", text)
    # printable last: its escapes (a backslash and a letter) are plain text to Markdown
    return printable(text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;"))


def md_code(text: object) -> str:
    """`text` as one inline code span: fenced by more backticks than it holds in a row, so no
    backtick inside can close it; line breaks as spaces, controls as visible escapes. (In a code
    span backslashes and entities are shown as written, so nothing else needs escaping; a `|`
    would still end a table cell, so names in tables use md_text.)"""
    text = printable(str(text).replace("\r\n", " ").replace("\n", " "))
    fence = "`" * (1 + max((len(run) for run in re.findall("`+", text)), default=0))
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def md_block(lines: list[str]) -> list[str]:
    """Lines as one fenced code block: the fence is longer than any run of backticks inside (three
    at least), so no line can close it early; controls as visible escapes."""
    shown = [printable(line) for line in lines]
    fence = "`" * max([3] + [len(run) + 1 for line in shown for run in re.findall("`+", line)])
    return [fence, *shown, fence]
