"""A draft suite of your own: tools imported from any shape, cases written in the page's editor,
checked exactly as `run --suite --tools` and `grade --suite --tools` will check the exported files.

The page's "Your tools and cases" section (web_own.py) keeps a draft: a tools.json document and a
list of raw cases (v1, or v2 when the editor's v2 options are used: optional, absent, loose, exact,
accept). This module turns the editor's fields into a case, names the editor field a
refusal belongs to, builds the two export documents, and writes and reads the stored draft (which
holds tools and cases only, never a key), refusing a corrupt or hostile one with one line.

Pure: no I/O, no DOM. Every check is suite.parse_tools / suite.parse_suite, never a second copy.
"""
from __future__ import annotations

import json
import re
from typing import Any, NamedTuple

from toolproof.errors import ToolProofError
from toolproof.suite.load import parse_suite, parse_tools
from toolproof.suite.model import Case, Tool
from toolproof.suite.toolnames import wire_name
from .phrasings import editable as phrasings_editable, phrasings_from_text, phrasings_text

# The categories a one-turn case from the editor can be. The second-turn categories (multi_step,
# injection, result_use) need mock results the editor does not write; a loaded suite keeps them.
EDITOR_CATEGORIES = ("should_call", "should_not_call", "must_ask", "distractor", "enum_format")
ACTIONS = ("call", "no_call", "ask")
# An editor field NAME is the input #case-NAME, its value a string; a checkbox (CHECKBOXES) reads
# "true" when ticked, else "". A new field: the input, its name here, a line each in case_from_form
# and form_of (and field_of when the suite path differs from the name).
FIELDS = ("id", "category", "prompt", "phrasings", "action", "tool", "args", "critical",
          "optional", "absent", "loose", "exact", "accept")
CHECKBOXES = ("exact",)
CALL_FIELDS = ("tool", "args", "critical", "optional", "absent", "loose", "exact", "accept")   # action call only
LISTS = ("critical", "optional", "absent", "loose")    # comma-separated field names (dotted allowed)
V2_CALL_KEYS = ("optional", "absent", "exact", "loose")
_CALL_KEYS = set(CALL_FIELDS)     # the raw keys of the call the editor writes are its field names
# The editor's fields of a case; keys outside these (and title/why) make a case "edit in the file".
_EDITABLE_KEYS = {"id", "category", "tools", "prompt", "phrasings", "expect", "title", "why"}
MAX_CASES = 1000
MAX_OFFERED = 128                 # OpenAI refuses a request offering more tools than this
MAX_DRAFT_CHARS = 2_000_000       # localStorage holds about 5 MB per origin; leave room
DRAFT_FORMAT = "toolproof.draft"
SUITE_DESCRIPTION = "Written in the ToolProof page (Your tools and cases)."


class CaseProblem(ToolProofError):
    """A case the editor refuses: `field` is the editor field to point at (one of FIELDS, or
    "case" when the problem is not one field's)."""

    def __init__(self, field: str, reason: str):
        self.field = field
        super().__init__(reason, path=field)


class ImportedTools(NamedTuple):
    label: str          # which shape the text was (importers.LABELS)
    records: list       # the importer's records, for lint (paths point into the given text)
    document: dict | None   # our tools.json, or None when the tools cannot be run as given
    problem: str        # why `document` is None ("" when it is not)


def import_tools(text: str, tools_schema: dict, source: str = "tools") -> ImportedTools:
    """Tool text of any importable shape: records for lint, and the tools.json a run uses (or why
    not). Raises ToolProofError only when the text is not tool definitions at all."""
    from toolproof.importers import LABELS, tools_from_any
    from toolproof.importers.toolproof import map_to_source, tools_document

    doc = read_text(text, source)
    try:
        shape, records = tools_from_any(doc)
    except ToolProofError as exc:
        raise ToolProofError(exc.reason, source=source, path=exc.path) from None
    try:
        document = tools_document(records, LABELS[shape])
        document["description"] = f"Imported from {LABELS[shape]} in the ToolProof page."
        parse_tools(document, tools_schema, source)
    except ToolProofError as exc:
        where = map_to_source(records, exc.path)
        return ImportedTools(LABELS[shape], records, None, ToolProofError(exc.reason, source=source, path=where).line())
    return ImportedTools(LABELS[shape], records, document, "")


def read_text(text: str, source: str | None) -> Any:
    """Text from a file, a paste or a text box as JSON, through the one total reader (size, depth
    without recursion, NaN refused): Pyodide's stack is smaller than CPython's, so deep nesting
    must never reach a recursive parser."""
    from toolproof import limits

    try:
        return limits.read_json(text, what="text", max_bytes=limits.MAX_FILE_BYTES)
    except limits.ReadError as exc:
        raise ToolProofError(exc.reason, source=source) from None


def case_from_form(form: dict, tool_names: list[str], previous: dict | None = None, *,
                   names: dict | None = None) -> dict:
    """The editor's fields (strings) as a raw case, or CaseProblem naming the field. The v2
    options are written only when given (an empty list, an unticked exact, {} are left out).

    A new case offers every loaded tool (the model must pick the right one); an edited case keeps
    the tools it offered, plus the expected tool if that is new, and its title and why. `names`
    ({id: name}) lets it leave out entries whose names reach providers like an offered one's
    (two servers' `search`): of those it offers the expected tool, else the first."""
    action = form.get("action", "")
    if action not in ACTIONS:
        raise CaseProblem("action", f"choose call, no_call or ask, not {action!r}")
    offered = [t for t in (previous or {}).get("tools", tool_names) if t in tool_names] or list(tool_names)
    if not offered:
        raise CaseProblem("tool", "load your tools first: a case offers at least one tool")
    case: dict[str, Any] = {"id": form.get("id", "").strip(), "category": form.get("category", ""),
                            "tools": offered, "prompt": form.get("prompt", "")}
    try:
        phrasings = phrasings_from_text(form.get("phrasings", ""))
    except ToolProofError as exc:
        raise CaseProblem("phrasings", exc.reason) from None
    if phrasings:
        case["phrasings"] = phrasings
    for key in ("title", "why"):
        if previous and isinstance(previous.get(key), str):
            case[key] = previous[key]
    case["expect"] = {"action": action}
    if action == "call":
        tool = form.get("tool", "")
        if tool not in tool_names:
            raise CaseProblem("tool", f"choose one of the loaded tools, not {tool!r}")
        if tool not in offered:
            offered.append(tool)
        call: dict[str, Any] = {"tool": tool, "args": args_from_text(form.get("args", ""))}
        for key in LISTS:
            listed = names_from_text(form.get(key, ""))
            if listed:
                call[key] = listed
        if form.get("exact", "") == "true":
            call["exact"] = True
        accept = accept_from_text(form.get("accept", ""))
        if accept:
            call["accept"] = accept
        case["expect"]["calls"] = [call]
    if names:
        expected = case["expect"]["calls"][0]["tool"] if action == "call" else None
        case["tools"] = offered = readable_offer(offered, expected, names)
    if len(offered) > MAX_OFFERED:
        raise CaseProblem("tool", f"a case can offer at most {MAX_OFFERED} tools (OpenAI's limit); "
                                  f"this one would offer {len(offered)}")
    return case


def readable_offer(offered: list[str], keep: str | None, names: dict) -> list[str]:
    """The offer, in order, with at most one entry per wire name: `keep` (the expected tool)
    wins its wire name, else the first entry does. Entries may share a name across the
    catalogue, never within a case (a reply could not tell them apart)."""
    taken = {wire_name(names.get(keep, keep))} if keep is not None else set()
    out = []
    for tool_id in offered:
        wire = wire_name(names.get(tool_id, tool_id))
        if tool_id == keep or wire not in taken:
            taken.add(wire)
            out.append(tool_id)
    return out


def names_from_text(text: str) -> list[str]:
    """A comma-separated list of field names ('city, where.country'), blanks dropped, in order."""
    return [name.strip() for name in text.split(",") if name.strip()]


def args_from_text(text: str) -> dict:
    """The #case-args JSON: an object, {} when empty; NaN/Infinity are not JSON and are refused."""
    return _object_from_text(text, "args", "the expected arguments")


def accept_from_text(text: str) -> dict:
    """The #case-accept JSON: {field or dotted path: [accepted values]}, {} when empty. Whether
    each value is a list, and each accepted value valid, is parse_suite's to say."""
    return _object_from_text(text, "accept", "the accepted values")


def _object_from_text(text: str, field: str, what: str) -> dict:
    if not text.strip():
        return {}
    try:
        value = read_text(text, None)
    except ToolProofError as exc:
        raise CaseProblem(field, exc.reason) from None
    if not isinstance(value, dict):
        raise CaseProblem(field, f"{what} must be a JSON object, not {type(value).__name__}")
    return value


def args_findings(tool: Tool, args: dict) -> list:
    """The live check beside #case-args: the grader's compiled checker on the expected values.
    A required field left out is fine (the grader schema-checks it in the model's call)."""
    return [f for f in tool.schema.findings(args) if not (f.code == "schema.required" and f.path == "$")]


def check_case(case: dict, others: list[dict], tools: dict[str, Tool], suite_schema: dict) -> Case:
    """The case as suite.parse_suite reads it, or CaseProblem naming the editor field."""
    if any(o.get("id") == case.get("id") for o in others):
        raise CaseProblem("id", f"another case already has the id {case.get('id')!r}")
    try:
        return parse_suite(suite_document([case]), tools, suite_schema, "case")[0]
    except ToolProofError as exc:
        raise CaseProblem(field_of(exc.path or ""), exc.reason) from None


def field_of(path: str) -> str:
    """The editor field a suite path inside case 0 belongs to ('$.cases[0].expect.calls[0].args'
    -> 'args')."""
    rest = re.sub(r"^\$\.cases\[0\]", "", path)
    call = re.match(r"\.expect\.calls\[0\]\.([a-z]+)", rest)
    if call and call.group(1) in FIELDS:
        return call.group(1)
    for prefix, name in ((".id", "id"), (".category", "category"), (".prompt", "prompt"), (".phrasings", "phrasings"),
                         (".expect.calls", "action"), (".expect.action", "action"), (".tools", "tool")):
        if rest.startswith(prefix):
            return name
    return "case"


def form_of(case: dict) -> dict | None:
    """The editor's fields for a case, or None when the editor cannot show all of it (a
    second-turn case, several calls, derive, alternatives, order...): such a case is edited in
    the file."""
    if not isinstance(case, dict) or set(case) - _EDITABLE_KEYS or case.get("category") not in EDITOR_CATEGORIES:
        return None
    if not phrasings_editable(case.get("phrasings")):
        return None
    expect = case.get("expect", {})
    calls = expect.get("calls", [])
    if set(expect) - {"action", "calls"} or len(calls) > 1 or any(set(c) - _CALL_KEYS for c in calls):
        return None
    form = dict.fromkeys(FIELDS, "")
    form.update(id=case["id"], category=case["category"], prompt=case["prompt"], action=expect.get("action", ""),
                phrasings=phrasings_text(case.get("phrasings")))
    if calls:
        call = calls[0]
        form["tool"] = call["tool"]
        form["args"] = json.dumps(call.get("args", {}), ensure_ascii=False, indent=1)
        for key in LISTS:
            form[key] = ", ".join(call.get(key, []))
        form["exact"] = "true" if call.get("exact") is True else ""
        form["accept"] = json.dumps(call["accept"], ensure_ascii=False, indent=1) if call.get("accept") else ""
    return form


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
            offered = readable_offer(offered, calls[0]["tool"] if calls else None, by_id)
        kept.append({**case, "tools": offered})
    return kept


def suite_document(cases: list[dict]) -> dict:
    """The suite file of the draft's cases: version 2 when a case uses a v2 rule, else 1."""
    version = 2 if any(uses_v2(case) for case in cases) else 1
    return {"format": "toolproof.suite", "version": version, "description": SUITE_DESCRIPTION, "cases": list(cases)}


def uses_v2(case: Any) -> bool:
    """Does a raw case use a suite v2 rule (optional, absent, exact, loose, a dotted accept key,
    order)? Only marks the file's version: a reader of either version accepts both."""
    if not isinstance(case, dict) or not isinstance(case.get("expect"), dict):
        return False
    expect = case["expect"]
    sequences = [expect.get("calls")] + (expect["alternatives"] if isinstance(expect.get("alternatives"), list) else [])
    calls = [c for seq in sequences if isinstance(seq, list) for c in seq if isinstance(c, dict)]
    return "order" in expect or any(_call_uses_v2(call) for call in calls)


def _call_uses_v2(call: dict) -> bool:
    accept = call.get("accept")
    return any(key in call for key in V2_CALL_KEYS) or \
        isinstance(accept, dict) and any("." in key for key in accept)


def checked_exports(tools_doc: dict, cases: list[dict], tools_schema: dict,
                    suite_schema: dict) -> tuple[str, str | None]:
    """(tools.json text, suite.json text or None without cases), each read back by
    parse_tools/parse_suite first: what the page downloads is what the terminal's
    `run/grade --suite --tools` accepts."""
    tools = parse_tools(tools_doc, tools_schema, "tools.json")
    dump = lambda doc: json.dumps(doc, ensure_ascii=False, indent=2) + "\n"  # noqa: E731
    if not cases:
        return dump(tools_doc), None
    suite = suite_document(cases)
    parse_suite(suite, tools, suite_schema, "suite.json")
    return dump(tools_doc), dump(suite)


def loaded_suite(doc: Any, tools: dict[str, Tool], suite_schema: dict, source: str) -> list[dict]:
    """A suite file's cases (raw), checked against the draft tools."""
    parse_suite(doc, tools, suite_schema, source)
    if len(doc["cases"]) > MAX_CASES:
        raise ToolProofError(f"{len(doc['cases'])} cases; the page keeps at most {MAX_CASES}", source=source)
    return list(doc["cases"])


def draft_text(tools_doc: dict | None, cases: list[dict]) -> str | None:
    """What localStorage keeps: tools and cases (never a key), or None when over the bound."""
    text = json.dumps({"format": DRAFT_FORMAT, "version": 1, "tools": tools_doc, "cases": cases},
                      ensure_ascii=False, separators=(",", ":"))
    return text if len(text) <= MAX_DRAFT_CHARS else None


class Draft(NamedTuple):
    """A stored draft read back: what still loads, and how much did not."""
    tools_doc: dict | None
    cases: list
    dropped_tools: int = 0
    dropped_cases: int = 0
    problem: str = ""           # the first reason something was dropped ("" when nothing was)


def draft_from_text(text: Any, tools_schema: dict, suite_schema: dict) -> Draft:
    """A stored draft read back, or ToolProofError when nothing of it can be kept (then it is
    discarded). Read through the one total reader (size, depth, NaN) and the same
    parse_tools/parse_suite; a tool or a case that no longer loads (an older format, a tool
    since removed) is dropped alone, counted, and the rest is kept."""
    from toolproof import limits

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
            or not isinstance(doc.get("cases"), list) or set(doc) != {"format", "version", "tools", "cases"}:
        raise ToolProofError("not a ToolProof draft", source=source)
    tools_doc, cases = doc["tools"], doc["cases"]
    if tools_doc is None:
        if cases:
            raise ToolProofError("cases without tools", source=source)
        return Draft(None, [])
    tools_doc, dropped_tools, problem = _kept_tools(tools_doc, tools_schema, source)
    tools = parse_tools(tools_doc, tools_schema, source)
    kept, case_problem = _kept_cases(cases, tools, suite_schema, source)
    return Draft(tools_doc, kept, dropped_tools, len(cases) - len(kept), problem or case_problem)


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


def restored_line(draft: Draft, tool_count: int) -> str:
    """What the page says after reading a stored draft back."""
    line = f"Draft restored: {tool_count} tool(s), {len(draft.cases)} case(s)."
    if draft.dropped_tools or draft.dropped_cases:
        line += (f" Dropped {draft.dropped_tools} tool(s) and {draft.dropped_cases} case(s) that no longer "
                 f"load (the first: {draft.problem[:200]}).")
    return line


def visible(text: str, limit: int = 300) -> str:
    """A tool's name or description for display: hidden and control characters shown as escapes
    (a zero-width or bidi character must not pass for a plain one), cut at `limit` characters."""
    shown = "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in text[:limit])
    return shown + ("…" if len(text) > limit else "")
