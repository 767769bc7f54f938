"""What the page's "Your tools and cases" section shows of a draft, as data: the tool list with its
offer checkboxes, the lint findings, the case list, each line already cut and escaped.

page/own.py turns these records into elements (textContent only); every word and every bound
shown is decided here, so it is tested without a browser.

Pure: no I/O, no DOM. Must not change the draft (authoring/draft.py does) nor decide what is
hidden: safe_text.printable is the one rule for text that is shown.
"""
from __future__ import annotations

from typing import NamedTuple

from toolproof.safe_text import printable
from toolproof.plurals import counted
from .case_form import form_of
from .suite_text import V2_CALL_KEYS

SHOWN_FINDINGS = 200
SHOWN_TOOLS = 100
SHOWN_REFUSED = 50
OPEN_UP_TO = 20                  # a list this short opens by itself
NO_FINDINGS = "No findings: nothing here should confuse a model or be refused."
NO_CASES = "No cases yet: write one above or load a suite file."
NOT_EDITABLE = "This case uses fields the editor does not show: edit it in the suite file."


def visible(text: str, limit: int = 300) -> str:
    """A tool's name or description for display: control and invisible characters shown as
    escapes by safe_text (a zero-width, bidi or tag character must not pass for a plain one, nor
    a line break end the line), cut at `limit` characters."""
    return printable(text[:limit]) + (f"… ({len(text) - limit:,} more)" if len(text) > limit else "")


class ToolRow(NamedTuple):
    name: str            # the tool's id: the checkbox's data-tool (never shown)
    shown: str           # its label or name, escaped
    description: str     # escaped and cut
    offered: bool        # the checkbox is ticked
    aria: str            # the checkbox's accessible name


class RefusedRow(NamedTuple):
    name: str            # data-tool
    shown: str
    line: str            # why it was not loaded


class ToolList(NamedTuple):
    rows: list[ToolRow]
    more: str            # "… and N more (offered)" past SHOWN_TOOLS, else ""
    refused: list[RefusedRow]
    summary: str
    open: bool


def tool_list(tools: dict, left_out, refused) -> ToolList | None:
    """The loaded tools, each with its offer checkbox, and the tools of the last file that could
    not be loaded (`refused`: tool_offer.Refused); None without tools (nothing is shown)."""
    if not tools:
        return None
    gone = set(left_out)
    rows = [ToolRow(name, visible(tool.label or name, 80), visible(tool.description, 160), name not in gone,
                    f"Offer {visible(tool.label or name, 80)} to the model")
            for name, tool in list(tools.items())[:SHOWN_TOOLS]]
    more = len(tools) - SHOWN_TOOLS
    summary = f"Your tools ({len(tools):,} loaded, {len(tools) - len(gone):,} offered" \
        + (f", {len(refused):,} not loaded)" if refused else ")")
    return ToolList(rows, f"… and {more:,} more (offered)" if more > 0 else "",
                    [RefusedRow(r.name, visible(r.name, 80), visible(r.line, 400)) for r in refused[:SHOWN_REFUSED]],
                    summary, len(tools) <= OPEN_UP_TO or bool(gone) or bool(refused))


class FindingRow(NamedTuple):
    severity: str
    code: str
    tool: str            # data-tool, as lint names it
    shown_tool: str
    message: str
    path: str


class LintList(NamedTuple):
    heading: str
    note: str
    empty: str           # NO_FINDINGS when there are none, else ""
    rows: list[FindingRow]
    more: str            # past SHOWN_FINDINGS: how many more and where to see them all, else ""


def lint_list(findings, note: str = "") -> LintList:
    """lint's findings as the section shows them: counts, at most SHOWN_FINDINGS rows."""
    errors = sum(f.severity == "error" for f in findings)
    rows = [FindingRow(f.severity, f.code, f.tool, visible(f.tool, 80), visible(f.message, 400), visible(f.path, 120))
            for f in findings[:SHOWN_FINDINGS]]
    more = (f"… and {len(findings) - SHOWN_FINDINGS:,} more (python -m toolproof tools lint FILE lists them all)"
            if len(findings) > SHOWN_FINDINGS else "")
    return LintList(f"Lint: {counted(errors, 'error')}, {counted(len(findings) - errors, 'warning')}", note,
                    "" if findings else NO_FINDINGS, rows, more)


class CaseRow(NamedTuple):
    id: str
    category: str
    what: str            # the action, its calls in order, forbidden tools and v2 rules; escaped, cut
    prompt: str
    editable: bool       # the editor can show every field of it (case_form.form_of)


def case_rows(cases) -> tuple[str, str, list[CaseRow]]:
    """(the heading, the line shown without cases or "", one row per case)."""
    rows = []
    for case in cases:
        expect = case["expect"]
        what = expect["action"] + (" " + " → ".join(c["tool"] for c in expect["calls"]) if expect.get("calls") else "")
        if expect.get("forbidden"):
            what += " · never " + ", ".join(f["tool"] for f in expect["forbidden"])
        rules = sorted({key for call in expect.get("calls", []) for key in (*V2_CALL_KEYS, "accept") if key in call})
        what += f" ({', '.join(rules)})" if rules else ""
        rows.append(CaseRow(case["id"], case["category"], visible(what, 80), visible(case["prompt"], 140),
                            form_of(case) is not None))
    return f"Your cases ({len(cases)})", "" if cases else NO_CASES, rows
