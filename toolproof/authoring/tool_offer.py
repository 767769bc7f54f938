"""Which of your tools a run offers: the tools of a partly bad file that load (each bad one refused
alone, with its place), the tools lint leaves out by default (error-level findings), and the
draft as a run or an export sees it once the tools you left out are gone.

Pure: no I/O, no DOM. Every check is suite.parse_tools's and lint's, never a second copy.
"""
from __future__ import annotations

from typing import Iterable, NamedTuple

from toolproof.errors import ToolProofError, clip_list
from toolproof.importers.toolproof import map_to_source, tools_document
from toolproof.plurals import counted, plural
from toolproof.suite.load import parse_tools

MAX_REFUSED_SHOWN = 50


class Refused(NamedTuple):
    """A tool of the file that cannot be run as given: its name and the one line saying why."""
    name: str
    line: str


def kept_tools(records: list[dict], shape_label: str, tools_schema: dict,
               source: str) -> tuple[dict | None, list[Refused]]:
    """(our tools.json holding every record that loads on its own, or None when none does; the
    records refused, each with its line). A duplicate name keeps the first tool and refuses the
    rest, as a provider would refuse the request."""
    kept: list[dict] = []
    names: set[str] = set()
    refused: list[Refused] = []
    for record in records:
        try:
            document = tools_document([record], shape_label)
            parse_tools(document, tools_schema, source)
        except ToolProofError as exc:
            where = map_to_source([record], exc.path)
            refused.append(Refused(record["name"], ToolProofError(exc.reason, source=source, path=where).line()))
            continue
        if record["name"] in names:
            refused.append(Refused(record["name"], ToolProofError(
                f"a second tool named {record['name']!r}: only the first is kept",
                source=source, path=record["at"]["name"]).line()))
            continue
        names.add(record["name"])
        kept.extend(document["tools"])
    if not kept:
        return None, refused
    document = {"format": "toolproof.tools", "version": 1,
                "description": f"Imported from {shape_label} in the ToolProof page.", "tools": kept}
    try:
        parse_tools(document, tools_schema, source)   # names that clash only together (git.status, git_status)
    except ToolProofError as exc:
        return None, refused + [Refused("", ToolProofError(exc.reason, source=source, path=exc.path).line())]
    return document, refused


def left_out_by_default(findings: Iterable, names: Iterable[str]) -> list[str]:
    """The loaded tools an error-level lint finding names, in load order: not offered until ticked."""
    flagged = {f.tool for f in findings if f.severity == "error"}
    return [name for name in names if name in flagged]


class Offered(NamedTuple):
    tools_doc: dict | None       # the tools document without the tools left out (None: none left)
    cases: list                  # the cases that can run, each offering only tools still offered
    skipped: list                # ids of cases that expect or forbid a tool left out


def offered_draft(tools_doc: dict | None, cases: list[dict], left_out: Iterable[str]) -> Offered:
    """The draft as a run or an export sees it: the tools left out are not in the tools file and
    no case offers them; a case whose expected (or forbidden) calls name one, or that offered
    only tools left out, is skipped, not changed, since its rules would no longer hold."""
    gone = set(left_out)
    if tools_doc is None:
        return Offered(None, [], [case.get("id") for case in cases])
    kept_tools = [t for t in tools_doc["tools"] if t["name"] not in gone]
    if not kept_tools:
        return Offered(None, [], [case.get("id") for case in cases])
    runnable, skipped = [], []
    for case in cases:
        expect = case.get("expect", {})
        named = [c["tool"] for c in expect.get("calls", [])] + \
            [c["tool"] for seq in expect.get("alternatives", []) for c in seq] + \
            [f["tool"] for f in expect.get("forbidden", [])]
        if any(name in gone for name in named):
            skipped.append(case.get("id"))
            continue
        offered = [t for t in case.get("tools", []) if t not in gone]
        if not offered:             # every tool it offered was left out: nothing to ask the model
            skipped.append(case.get("id"))
            continue
        runnable.append({**case, "tools": offered})
    return Offered({**tools_doc, "tools": kept_tools}, runnable, skipped)


def _ids(ids: list, shown: int = 10) -> str:
    return clip_list(ids, shown)


def skipped_note(offered: Offered) -> str:
    """The line under the tool list: the cases a run (and an export) leaves out, or ""."""
    if not offered.skipped:
        return ""
    n = len(offered.skipped)
    return (f"{counted(n, 'case')} {plural(n, 'needs', 'need')} a tool you left out and {plural(n, 'is', 'are')} "
            f"not run: {_ids(offered.skipped)}")


def export_note(kind: str, offered: Offered, left_out: Iterable[str]) -> tuple[bool, str]:
    """(whether `kind` ("suite" or "tools") can be exported, the line the page shows either way):
    what the file holds and what it leaves out, so a case or a tool never goes missing unsaid."""
    if offered.tools_doc is None:
        return False, "Not exported: every tool is left out; tick the tools to offer."
    if kind == "tools":
        gone = list(left_out)
        tail = f"; left out (unticked): {_ids(gone)}" if gone else ""
        return True, f"Exported tools.json: {counted(len(offered.tools_doc['tools']), 'tool')}{tail}."
    if not offered.cases:
        each = "the case" if len(offered.skipped) == 1 else f"each of the {len(offered.skipped)} cases"
        return False, (f"Not exported: {each} needs a tool you left out "
                       f"({_ids(offered.skipped)}); tick the tools they need.")
    n = len(offered.skipped)
    tail = (f" Not in it: {counted(n, 'case')} that {plural(n, 'needs', 'need')} a tool you left out: "
            f"{_ids(offered.skipped)}."
            if offered.skipped else "")
    return True, f"Exported suite.json: {counted(len(offered.cases), 'case')}.{tail}"
