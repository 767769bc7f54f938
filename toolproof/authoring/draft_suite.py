"""A draft suite of your own: tools imported from any shape, cases written in the page's editor,
checked exactly as `run --suite --tools` and `grade --suite --tools` will check the exported files.

The page's "Your tools and cases" section (page/own.py) keeps a draft: a tools.json document and a
list of raw cases (v1, or v2 when a case uses a v2 option: optional, absent, loose, exact, accept).
This module imports the tools, builds the two export documents, and writes and reads the stored
draft (which holds tools, cases and the tools left out, never a key), refusing a corrupt or hostile
one with one line. The editor's fields become a case in case_form.py; the suite file of a list of
cases and the reader of typed text are suite_text.py's (both modules use them).

Pure: no I/O, no DOM. Every check is suite.parse_tools / suite.parse_suite, never a second copy.
"""
from __future__ import annotations

import json
from typing import Any, NamedTuple

from toolproof import limits
from toolproof.errors import ToolProofError
from toolproof.importers import LABELS
from toolproof.plurals import counted
from toolproof.suite.load import parse_suite, parse_tools
from toolproof.suite.model import Tool
from .case_form import check_case, readable_offer
from .suite_text import MAX_OFFERED, read_text, suite_document
from .tool_offer import import_document

MAX_CASES = 1000
MAX_DRAFT_CHARS = 2_000_000       # localStorage holds about 5 MB per origin; leave room
DRAFT_FORMAT = "toolproof.draft"


class ImportedTools(NamedTuple):
    label: str          # which shape the text was (importers.LABELS)
    records: list       # the importer's records, for lint (paths point into the given text)
    document: dict | None   # our tools.json of the tools that load, or None when none does
    problem: str        # why the first tool was refused ("" when every tool loads)
    refused: tuple = ()     # tool_offer.Refused, each tool that cannot be run as given


def import_tools(text: str, tools_schema: dict, source: str = "tools") -> ImportedTools:
    """Tool text of any importable shape: records for lint, and the tools.json a run uses: every
    tool that loads, the others refused one by one (tool_offer.import_document). Raises ToolProofError
    only when the text is not tool definitions at all."""
    doc = read_text(text, source)
    imported = import_document(doc, tools_schema, source)
    label = LABELS[imported.shape]
    if imported.document is not None:
        imported.document["description"] = f"Imported from {label} in the ToolProof page."
    refused = imported.refused
    return ImportedTools(label, imported.records, imported.document, refused[0].line if refused else "", tuple(refused))


def cases_for_tools(cases: list[dict], names: list[str], *, by_id: dict | None = None) -> list[dict]:
    """The cases that still make sense after new tools are loaded: a case expecting a tool that
    is gone is dropped; the others offer the tools they offered that are still there (`by_id`,
    {id: name}: never two whose names reach providers alike; see readable_offer)."""
    kept = []
    for case in cases:
        calls = case["expect"].get("calls", []) + [c for seq in case["expect"].get("alternatives", []) for c in seq]
        if any(c["tool"] not in names for c in calls) or \
                any(f["tool"] not in names for f in case["expect"].get("forbidden", [])):
            continue
        offered = [t for t in case["tools"] if t in names] or names[:MAX_OFFERED]
        if by_id:
            offered = readable_offer(offered, [c["tool"] for c in calls] +
                                     [f["tool"] for f in case["expect"].get("forbidden", [])], by_id)
        kept.append({**case, "tools": offered})
    return kept


def checked_exports(tools_doc: dict, cases: list[dict], tools_schema: dict,
                    suite_schema: dict) -> tuple[str, str | None]:
    """(tools.json text, suite.json text or None without cases), each read back by
    parse_tools/parse_suite first: what the page downloads is what the terminal's
    `run/grade --suite --tools` accepts."""
    tools = parse_tools(tools_doc, tools_schema, "tools.json")
    tools_text = _read_back(tools_doc, "tools.json")
    if not cases:
        return tools_text, None
    suite = suite_document(cases)
    parse_suite(suite, tools, suite_schema, "suite.json")
    return tools_text, _read_back(suite, "suite.json")


def _read_back(doc: dict, name: str) -> str:
    """The file's text, once the terminal's reader takes it (a stored draft may hold a schema
    nested deeper than a file may be)."""
    text = json.dumps(doc, ensure_ascii=False, indent=2) + "\n"
    try:       # the reader and the bounds datafiles.json_from_text gives the terminal's input files
        limits.read_json(text, what="file", max_bytes=limits.MAX_FILE_BYTES)
    except limits.ReadError as exc:
        raise ToolProofError(f"it would not load ({exc.reason}); simplify the schema", source=name) from None
    return text


def loaded_suite(doc: Any, tools: dict[str, Tool], suite_schema: dict, source: str) -> list[dict]:
    """A suite file's cases (raw), checked against the draft tools."""
    parse_suite(doc, tools, suite_schema, source)
    if len(doc["cases"]) > MAX_CASES:
        raise ToolProofError(f"{counted(len(doc['cases']), 'case')}; the page keeps at most {MAX_CASES}", source=source)
    return list(doc["cases"])


def draft_text(tools_doc: dict | None, cases: list[dict], left_out: list[str] = ()) -> str | None:
    """What localStorage keeps: tools, cases and the tools not offered (never a key), or None
    when over the bound."""
    doc = {"format": DRAFT_FORMAT, "version": 1, "tools": tools_doc, "cases": cases}
    if left_out:
        doc["left_out"] = list(left_out)
    text = json.dumps(doc, ensure_ascii=False, separators=(",", ":"))
    return text if len(text) <= MAX_DRAFT_CHARS else None


class StoredDraft(NamedTuple):
    """A stored draft read back: what still loads, and how much did not."""
    tools_doc: dict | None
    cases: list
    dropped_tools: int = 0
    dropped_cases: int = 0
    problem: str = ""           # the first reason something was dropped ("" when nothing was)
    left_out: tuple = ()        # loaded tools the user chose not to offer


def draft_from_text(text: Any, tools_schema: dict, suite_schema: dict) -> StoredDraft:
    """A stored draft read back, or ToolProofError when nothing of it can be kept (then it is
    discarded). Read through the one total reader (size, depth, NaN) and the same
    parse_tools/parse_suite; a tool or a case that no longer loads (an older format, a tool
    since removed) is dropped alone, counted, and the rest is kept."""
    source = "the saved draft"
    if not isinstance(text, str):
        raise ToolProofError("not text", source=source)
    if len(text) > MAX_DRAFT_CHARS:
        raise ToolProofError(f"larger than {MAX_DRAFT_CHARS:,} characters", source=source)
    try:
        doc = limits.read_json(text, what="draft", max_bytes=MAX_DRAFT_CHARS * 4)
    except limits.ReadError as exc:
        raise ToolProofError(exc.reason, source=source) from None
    if not isinstance(doc, dict) or doc.get("format") != DRAFT_FORMAT or doc.get("version") != 1 \
            or not isinstance(doc.get("cases"), list) or set(doc) - {"left_out"} != {"format", "version", "tools", "cases"} \
            or not isinstance(doc.get("left_out", []), list) or not all(isinstance(n, str) for n in doc.get("left_out", [])):
        raise ToolProofError("not a ToolProof draft", source=source)
    tools_doc, cases = doc["tools"], doc["cases"]
    if tools_doc is None:
        if cases:
            raise ToolProofError("cases without tools", source=source)
        return StoredDraft(None, [])
    tools_doc, dropped_tools, problem = _kept_tools(tools_doc, tools_schema, source)
    tools = parse_tools(tools_doc, tools_schema, source)
    kept, case_problem = _kept_cases(cases, tools, suite_schema, source)
    left_out = tuple(name for name in dict.fromkeys(doc.get("left_out", [])) if name in tools)
    return StoredDraft(tools_doc, kept, dropped_tools, len(cases) - len(kept), problem or case_problem, left_out)


def _kept_tools(tools_doc: Any, tools_schema: dict, source: str) -> tuple[dict, int, str]:
    """(the tools document with only the tools that load, how many were dropped, why the first
    was); ToolProofError when the document itself is wrong or no tool loads."""
    try:
        parse_tools(tools_doc, tools_schema, source)
        return tools_doc, 0, ""
    except ToolProofError as whole:
        items = tools_doc.get("tools") if isinstance(tools_doc, dict) else None
        if not isinstance(items, list):
            raise
        kept, names = [], set()
        for item in items:
            try:
                parse_tools({**tools_doc, "tools": [item]}, tools_schema, source)
            except ToolProofError:
                continue
            if item["name"] not in names:
                kept.append(item)
                names.add(item["name"])
        if not kept:
            raise
        shrunk = {**tools_doc, "tools": kept}
        try:
            parse_tools(shrunk, tools_schema, source)
        except ToolProofError:
            raise whole from None
        return shrunk, len(items) - len(kept), whole.line()


def _kept_cases(cases: list, tools: dict[str, Tool], suite_schema: dict, source: str) -> tuple[list, str]:
    """(the cases that load against `tools`, in order, at most MAX_CASES, why the first dropped
    one did not ("" when none was))."""
    if not cases:
        return [], ""
    try:
        return loaded_suite(suite_document(cases), tools, suite_schema, source), ""
    except ToolProofError as whole:
        first = whole.line()
    kept: list = []
    for case in cases:
        if len(kept) >= MAX_CASES:
            break
        if not isinstance(case, dict):
            continue
        try:
            check_case(case, kept, tools, suite_schema)
        except ToolProofError:
            continue
        kept.append(case)
    return kept, first


def restored_line(draft: StoredDraft, tool_count: int) -> str:
    """What the page says after reading a stored draft back."""
    line = f"Draft restored: {counted(tool_count, 'tool')}, {counted(len(draft.cases), 'case')}."
    if draft.dropped_tools or draft.dropped_cases:
        line += (f" Dropped {counted(draft.dropped_tools, 'tool')} and {counted(draft.dropped_cases, 'case')} that "
                 f"no longer load (the first: {draft.problem[:200]}).")
    return line

