"""One self-contained HTML file, the pieces every report page shares: the one escape function,
the page frame with its inline CSS (one column below 600 px), tables in boxes that scroll on
their own, the legend of short column heads, and inline SVG (interval whiskers, category bars).

What a report must never do, whoever wrote the strings in it: run a script, fetch anything, or
let a string become markup. So: no <script>, no external URL, no event-handler attribute, a
Content-Security-Policy that forbids every request, and every string from a file or a model
through `esc` (controls and bidi characters shown as escapes, then HTML-escaped with quotes).
Pages built here: html_scorecard.py (grade, run), html_comparison.py (compare), html_board.py.

Pure: string building only.
"""
from __future__ import annotations

import html

from toolproof.safe_text import printable

CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'"
CSS = """
:root { color-scheme: light; --ink: #1d2433; --muted: #5b6473; --line: #d8dde6; --bg: #f6f7fa;
  --pass: #1f7a4d; --partial: #a86400; --fail: #b3261e; --error: #6b6b6b; --accent: #2f5bd3; }
* { box-sizing: border-box; }
body { margin: 0; padding: 24px; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif;
  color: var(--ink); background: var(--bg); }
main { max-width: 1100px; margin: 0 auto; }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 17px; margin: 28px 0 8px; }
section { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 14px 18px; margin: 14px 0; }
.headline { font-size: 26px; font-weight: 650; margin: 8px 0; }
.muted, .note { color: var(--muted); }
table { border-collapse: collapse; width: 100%; margin: 6px 0; }
th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
code, pre { font: 12.5px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; background: var(--bg); padding: 8px; border-radius: 6px; margin: 4px 0; }
.verdict { font-weight: 650; } .PASS { color: var(--pass); } .PARTIAL { color: var(--partial); }
.FAIL { color: var(--fail); } .ERROR { color: var(--error); }
details { border-bottom: 1px solid var(--line); padding: 4px 0; } summary { cursor: pointer; }
.sig { background: #e8f0ff; font-weight: 650; } .same { color: var(--muted); }
.grid td, .grid th { text-align: center; }
svg { vertical-align: middle; }
section > h2:first-child { margin-top: 0; }
td.num, th.num, .board td:not(:nth-child(3)), .grid td { white-space: nowrap; }
ul.lines { margin: 4px 0; padding-left: 18px; }
h1, h2, p, li, summary, dd { overflow-wrap: anywhere; }
.table-scroll { overflow-x: auto; max-width: 100%; margin: 6px 0; }
.table-scroll:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
.table-scroll > table { margin: 0; }
svg.chart { max-width: 100%; min-width: 420px; height: auto; }
dl.legend { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 10px 0 0;
  color: var(--muted); font-size: 13px; }
dl.legend dt { font-weight: 650; color: var(--ink); } dl.legend dd { margin: 0; }
.scenario-turns { list-style: none; margin: 6px 0; padding: 0; }
.scenario-turns > li { border-left: 3px solid var(--line); padding: 2px 0 6px 10px; margin: 6px 0; }
.scenario-turns .who { font-weight: 650; margin-right: 6px; }
.scenario-turns .user { color: var(--accent); }
.scenario-turns .state { color: var(--partial); }
.scenario-turns .tool-error { color: var(--fail); }
.scenario-worlds td { white-space: nowrap; } .scenario-list td:last-child { min-width: 16em; }
.scenario-diff td:nth-child(-n+3) { white-space: nowrap; } .scenario-diff td:nth-child(n+4) { min-width: 12em; }
@media (max-width: 600px) {
  body { padding: 10px; } section { padding: 10px 12px; } main { max-width: 100%; }
  h1 { font-size: 19px; } .headline { font-size: 21px; }
  dl.legend { gap: 4px 10px; }
}
"""


class Raw(str):
    """Markup built here (never from a file or a model): passed through as it is."""


def esc(value, *, multiline: bool = False) -> str:
    """The one escape: any value as inert HTML text (controls and invisible characters shown as
    escapes first, so nothing reorders or hides what a reader sees; `multiline` keeps line
    breaks, for a <pre>)."""
    text = str(value)
    if multiline:
        return "\n".join(html.escape(printable(line), quote=True) for line in text.split("\n"))
    return html.escape(printable(text), quote=True)


def cell(value) -> str:
    return value if isinstance(value, Raw) else esc(value)


def page(title: str, body: list[str]) -> str:
    """The whole file: doctype, CSP, the inline CSS, the body parts in a <main>."""
    return ("<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<meta http-equiv=\"Content-Security-Policy\" content=\"{CSP}\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            f"<title>{esc(title)}</title>\n<style>{CSS}</style>\n</head>\n<body>\n<main>\n"
            + "\n".join(body) + "\n</main>\n</body>\n</html>\n")


def section(title: str, parts: list[str], cls: str = "") -> str:
    klass = f" class=\"{esc(cls)}\"" if cls else ""
    return f"<section{klass}>\n<h2>{esc(title)}</h2>\n" + "\n".join(parts) + "\n</section>"


def lines(items: list[str], cls: str = "lines") -> str:
    return f"<ul class=\"{cls}\">" + "".join(f"<li>{cell(x)}</li>" for x in items) + "</ul>"


def pre(text: str) -> str:
    return f"<pre>{esc(text, multiline=True)}</pre>"


def scroll_box(markup: str, label: str) -> str:
    """A wide table in its own box that scrolls sideways on a narrow screen (the page never
    does), reachable with Tab and named, so a keyboard can scroll it (axe:
    scrollable-region-focusable)."""
    return f"<div class=\"table-scroll\" role=\"region\" tabindex=\"0\" aria-label=\"{esc(label)}\">{markup}</div>"


def legend(entries: list[tuple[str, str]]) -> str:
    """What the short column heads above mean (reports/legends.py): a definition list."""
    return ("<dl class=\"legend\">" + "".join(f"<dt>{esc(term)}</dt><dd>{esc(meaning)}</dd>" for term, meaning in entries)
            + "</dl>")


def table(head: list[str], rows: list[list], *, label: str = "", right: set = frozenset(), cls: str = "",
          row_attrs: list[str] | None = None) -> str:
    """A table in its scroll box named `label` (else by its first heads); `right` holds the
    indexes of numeric columns; cells are escaped unless Raw."""
    num = ' class="num"'

    def th(i, h):
        return f"<th scope=\"col\"{num if i in right else ''}>{cell(h)}</th>"

    def td(i, v):
        return f"<td{num if i in right else ''}>{cell(v)}</td>"

    body = "".join(f"<tr{(row_attrs or [''] * len(rows))[n]}>" + "".join(td(i, v) for i, v in enumerate(r)) + "</tr>"
                   for n, r in enumerate(rows))
    klass = f" class=\"{esc(cls)}\"" if cls else ""
    return scroll_box(f"<table{klass}><thead><tr>" + "".join(th(i, h) for i, h in enumerate(head))
                      + f"</tr></thead><tbody>{body}</tbody></table>",
                      label or "Table: " + ", ".join(str(h) for h in head[:3] if h))


def whisker(value: float | None, low: float | None, high: float | None, *, lo: float = 0.0, hi: float = 100.0,
            width: int = 160, zero: float | None = None) -> Raw:
    """An inline SVG: the interval low..high as a line with end caps, the value as a dot, on a
    scale lo..hi (`zero`: a dashed line there, for a difference)."""
    def x(v: float) -> float:
        return round(4 + (width - 8) * (min(hi, max(lo, v)) - lo) / (hi - lo), 1)

    parts = [f"<svg width=\"{width}\" height=\"14\" viewBox=\"0 0 {width} 14\" "
             "role=\"img\" aria-label=\"interval\">",
             f"<line x1=\"4\" y1=\"7\" x2=\"{width - 4}\" y2=\"7\" stroke=\"#d8dde6\"/>"]
    if zero is not None:
        parts.append(f"<line x1=\"{x(zero)}\" y1=\"0\" x2=\"{x(zero)}\" y2=\"14\" stroke=\"#5b6473\" stroke-dasharray=\"2 2\"/>")
    if low is not None and high is not None:
        parts += [f"<line x1=\"{x(low)}\" y1=\"7\" x2=\"{x(high)}\" y2=\"7\" stroke=\"#2f5bd3\" stroke-width=\"2\"/>",
                  f"<line x1=\"{x(low)}\" y1=\"3\" x2=\"{x(low)}\" y2=\"11\" stroke=\"#2f5bd3\"/>",
                  f"<line x1=\"{x(high)}\" y1=\"3\" x2=\"{x(high)}\" y2=\"11\" stroke=\"#2f5bd3\"/>"]
    if value is not None:
        parts.append(f"<circle cx=\"{x(value)}\" cy=\"7\" r=\"3.5\" fill=\"#1d2433\"/>")
    return Raw("".join(parts) + "</svg>")


def bar_chart(chart: dict) -> Raw:
    """The category bars with whiskers, from reports/page_view.chart_bars (the page's geometry):
    narrower with the screen down to 420 px, then scrolled in its own box."""
    w, h = chart["width"], chart["height"]
    parts = [f"<svg class=\"chart\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" "
             "role=\"img\" aria-label=\"category scores\">"]
    for b in chart["bars"]:
        mid = b["y"] + b["height"] / 2
        parts.append(f"<text x=\"0\" y=\"{mid + 4}\" font-size=\"12\" fill=\"#1d2433\">{esc(b['label'])}</text>")
        parts.append(f"<rect x=\"{b['x']}\" y=\"{b['y']}\" width=\"{chart['span']}\" height=\"{b['height']}\" fill=\"#eef1f6\"/>")
        parts.append(f"<rect x=\"{b['x']}\" y=\"{b['y']}\" width=\"{b['width']}\" height=\"{b['height']}\" fill=\"#2f5bd3\"/>")
        if b["whisker"]:
            wk = b["whisker"]
            parts.append(f"<line x1=\"{wk['x1']}\" y1=\"{wk['y']}\" x2=\"{wk['x2']}\" y2=\"{wk['y']}\" "
                         "stroke=\"#1d2433\" stroke-width=\"1.5\"/>")
        parts.append(f"<text x=\"{b['x'] + chart['span'] + 6}\" y=\"{mid + 4}\" font-size=\"12\" "
                     f"fill=\"#1d2433\">{esc(b['text'])}</text>")
    return Raw(scroll_box("".join(parts) + "</svg>", "Category scores, chart"))
