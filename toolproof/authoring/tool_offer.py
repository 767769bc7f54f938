"""Which of your tools a run offers: the tools of a partly bad file that load (each bad one refused
alone, with its place: the one rule of the page's import and of `tools import`), the tools lint leaves out by default (error-level findings), and the
draft as a run or an export sees it once the tools you left out are gone.

Pure: no I/O, no DOM. Every check is suite.parse_tools's and lint's, never a second copy.
"""
from __future__ import annotations

from typing import Any, Iterable, NamedTuple

from toolproof.errors import ToolProofError, clip_list
from toolproof.importers import LABELS, readable_tools
from toolproof.importers.toolproof import map_to_source, tools_document
from toolproof.plurals import counted, plural
from toolproof.suite.load import parse_tools

MAX_REFUSED_SHOWN = 50


class Refused(NamedTuple):
    """A tool of the file that cannot be run as given: its name and the one line saying why."""
    name: str
    line: str


def loadable_records(records: list[dict], shape_label: str, tools_schema: dict,
                     source: str) -> tuple[list[dict], list[Refused]]:
    """(the records that load on their own, in order; the others, each with the line saying why).
    A duplicate name keeps the first tool and refuses the rest, as a provider would refuse the
    request. The one rule of a partly bad tools file: the page's import and `tools import` both
    keep what this keeps."""
    kept: list[dict] = []
    names: set[str] = set()
    refused: list[Refused] = []
    for record in records:
        try:
            parse_tools(tools_document([record], shape_label), tools_schema, source)
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
        kept.append(record)
    return kept, refused


def kept_tools(records: list[dict], shape_label: str, tools_schema: dict,
               source: str) -> tuple[dict | None, list[Refused]]:
    """(our tools.json (importers.toolproof.tools_document) holding every record that loads on
    its own (loadable_records), or None when none does; the records refused, each with its line).
    A file whose every tool loads is checked once, whole, and comes back as it is."""
    try:
        document = tools_document(records, shape_label)
        parse_tools(document, tools_schema, source)
        return document, []
    except ToolProofError:
        pass
    kept, refused = loadable_records(records, shape_label, tools_schema, source)
    if not kept:
        return None, refused
    document = tools_document(kept, shape_label)
    try:
        parse_tools(document, tools_schema, source)   # names that clash only together (git.status, git_status)
    except ToolProofError as exc:
        return None, refused + [Refused("", ToolProofError(exc.reason, source=source, path=exc.path).line())]
    return document, refused


class Imported(NamedTuple):
    """A tools document as an import keeps it: its shape, the records read (for lint), our
    tools.json of every tool that loads (None when none does) and every tool left out, in order:
    those that cannot be read as a tool, then those our format refuses."""
    shape: str
    records: list
    document: dict | None
    refused: list


def import_document(doc: Any, tools_schema: dict, source: str) -> Imported:
    """The one rule of an import, the page's and `tools import`'s: every tool that can be read
    and loads is kept; each other one is refused alone, with its line. Raises ToolProofError
    (naming `source`) only for a document that is not tool definitions at all."""
    try:
        shape, records, unread = readable_tools(doc)
    except ToolProofError as exc:
        raise ToolProofError(exc.reason, source=source, path=exc.path) from None
    refused = [Refused(name, ToolProofError(exc.reason, source=source, path=exc.path).line()) for name, exc in unread]
    if not records:
        return Imported(shape, records, None, refused)
    document, more = kept_tools(records, LABELS[shape], tools_schema, source)
    return Imported(shape, records, document, refused + more)


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
