"""The page's draft suite ("Your tools and cases") as a value, and every change to it.

A Draft holds the tools (the tools.json document and the Tool objects it parses to), the raw cases,
the tools left out (unticked), the tools of the last file that could not be loaded, and what
"Clear the draft" removed (one undo, until the next change). Each transition takes a Draft and
returns a Step: the new Draft and what to show (one line, the lint, whether the tool list, the
editor's form and the stored draft must follow). page/own.py renders Steps and does the storing;
it decides nothing, so every rule here is tested without a browser (tests/authoring/test_draft.py).

Pure: no I/O, no DOM, no storage. The checks are draft_suite's, tool_offer's and lint's, never a
second copy; the words shown for a draft's parts are draft_view's.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Callable, Mapping, NamedTuple

from toolproof.errors import ToolProofError
from toolproof.importers import tools_from_any
from toolproof.limits import size_refusal
from toolproof.plurals import counted, plural
from toolproof.suite.load import parse_suite, parse_tools
from toolproof.suite.model import Tool
from .draft_suite import (MAX_CASES, checked_exports, draft_from_text, draft_text, import_tools, loaded_suite,
                          cases_for_tools, restored_line)
from .lint import lint_tools
from .suite_text import suite_document
from .tool_offer import export_note, left_out_by_default, offered_draft, skipped_note

TOO_LARGE_TO_KEEP = "The draft is too large to keep in this browser: export it to keep it."
NOT_KEPT = "This browser would not keep the draft (storage full or disabled): export it."
TOOLS_FIRST = "Load your tools first: a suite's cases are checked against them."
RESTORED_LINT_NOTE = ("Restored draft: the lint of its tools as saved, in ToolProof's tools.json form "
                      "(python -m toolproof tools lint prints the same for a tools.json exported with "
                      "every tool ticked). Paths point into that file; tools the first file could not "
                      "load are not in the draft.")


@dataclass(frozen=True)
class Draft:
    tools_doc: dict | None = None                 # our tools.json of the loaded tools
    tools: Mapping[str, Tool] = field(default_factory=dict)     # tools_doc parsed, by id
    cases: tuple = ()                             # raw suite cases (v1, or v2 when a case uses a v2 rule)
    left_out: tuple = ()                          # loaded tools not offered to the model (unticked)
    refused: tuple = ()                           # tool_offer.Refused: the last file's tools that did not load
    undo: Draft | None = None                     # what "Clear the draft" removed, until the next change

    @property
    def empty(self) -> bool:
        return self.tools_doc is None and not self.cases

    @property
    def state(self) -> str:
        """The section's data-state once a change is shown."""
        return "ready" if self.tools else "empty"


class Step(NamedTuple):
    """A transition's outcome: the page shows `line` (when not ""), the lint when `findings` is not
    None, redraws the tool list (`tools`), resets the editor's form (`form`), and after a change
    (`changed`) stores the draft (unless `save` is False), redraws the cases and offers the run
    the draft again. `state` ("error") overrides the section's data-state."""
    draft: Draft
    line: str = ""
    bad: bool = False
    state: str = ""
    findings: tuple | None = None
    lint_note: str = ""
    clear_lint: bool = False
    tools: bool = False
    form: bool = False
    changed: bool = False
    save: bool = True


def needs_jsonschema(exc: BaseException) -> bool:
    """Did work fail only because jsonschema is not loaded yet? The page fetches it and calls the
    transition again (a schema used keywords the built-in checker lacks), so it is not a refusal."""
    return isinstance(exc, ModuleNotFoundError) and (exc.name or "").split(".")[0] == "jsonschema"


def too_large(name: str, size: int, what: str = "file") -> str:
    """The line refusing a chosen file (or a paste: `what="text"`) before it is read, or "" when
    its size is fine: limits.size_refusal's bound and words."""
    reason = size_refusal(size)
    return f"{name}: {what} is {reason}" if reason else ""


def unreadable(draft: Draft, source: str, exc: BaseException, findings: tuple | None = None) -> Step:
    """Any failure while loading tools, as one line: the page is never left on "Reading…"."""
    return Step(draft, f"{source}: could not be read ({exc.__class__.__name__}: {str(exc)[:300]})",
                bad=True, state="error", findings=findings)


def load_tools(draft: Draft, text: str, source: str, tools_schema: dict) -> Step:
    """Tools text of any shape: imported and linted, whatever it holds. The tools that load replace
    the draft's (those with error-level findings left out until ticked); cases expecting a tool no
    longer there are dropped and counted. Text that is not tools is one line and the lint."""
    findings = None
    try:
        imported = import_tools(text, tools_schema, source)
        findings = tuple(lint_tools(imported.records))
        if imported.document is None:
            return Step(draft, f"The lint findings are below; these tools cannot be run as given: {imported.problem}",
                        bad=True, state="error", findings=findings)
        tools = parse_tools(imported.document, tools_schema, "tools")
        names = [t["name"] for t in imported.document["tools"]]
        left_out = tuple(name for name in left_out_by_default(findings, names) if name in tools)
        cases = cases_for_tools(list(draft.cases), list(tools), by_id={i: t.name for i, t in tools.items()})
    except ToolProofError as exc:
        return Step(draft, exc.line(), bad=True, state="error", findings=findings)
    except Exception as exc:     # noqa: BLE001 - any failure is one line, and the page stays usable
        if needs_jsonschema(exc):
            raise
        return unreadable(draft, source, exc, findings)
    line = f"{counted(len(tools), 'tool')} loaded from {imported.label}."
    if imported.refused:
        n = len(imported.refused)
        line += (f" {counted(n, 'tool')} cannot be run as given and {plural(n, 'was', 'were')} not loaded "
                 f"(the first: {imported.problem[:300]}).")
    if left_out:
        line += (f" {counted(len(left_out), 'tool')} with error-level findings {plural(len(left_out), 'is', 'are')} "
                 f"not offered until you tick {plural(len(left_out), 'it', 'them')}.")
    if len(draft.cases) > len(cases):
        gone = len(draft.cases) - len(cases)
        line += f" {counted(gone, 'case')} expecting a tool no longer loaded {plural(gone, 'was', 'were')} removed."
    loaded = Draft(imported.document, tools, tuple(cases), left_out, tuple(imported.refused))
    return Step(loaded, line, bad=bool(imported.refused), findings=findings, tools=True, changed=True)


def load_suite(draft: Draft, text: str, source: str, suite_schema: dict,
               read_json: Callable[[str, str], Any]) -> Step:
    """A suite file's cases, checked against the draft's tools, replace the draft's cases.
    `read_json` is the terminal's file reader (datafiles.json_from_text), handed in by the page."""
    if not draft.tools:
        return Step(draft, TOOLS_FIRST, bad=True)
    try:
        cases = loaded_suite(read_json(text, source), dict(draft.tools), suite_schema, source)
    except ToolProofError as exc:
        return Step(draft, exc.line(), bad=True)
    return Step(replace(draft, cases=tuple(cases), undo=None),
                f"{counted(len(cases), 'case')} loaded from {source}; "
                f"{plural(len(cases), 'it replaces', 'they replace')} the draft's cases.", form=True, changed=True)


def restore(stored: Any, tools_schema: dict, suite_schema: dict) -> Step:
    """The draft kept in the browser, read back: what no longer loads is dropped alone (and the
    stored draft rewritten without it); a draft that cannot be read at all, however hostile the
    stored text, is discarded with one line."""
    try:
        kept = draft_from_text(stored, tools_schema, suite_schema)
        tools = parse_tools(kept.tools_doc, tools_schema, "tools") if kept.tools_doc is not None else {}
    except Exception as exc:     # noqa: BLE001 - any stored text is only discarded
        if needs_jsonschema(exc):
            raise
        return discarded(exc)
    dropped = bool(kept.dropped_tools or kept.dropped_cases)
    draft = Draft(kept.tools_doc, tools, tuple(kept.cases), tuple(n for n in kept.left_out if n in tools))
    findings = relint(kept.tools_doc) if kept.tools_doc is not None else None
    return Step(draft, restored_line(kept, len(tools)) if tools else "", bad=dropped, findings=findings,
                lint_note=RESTORED_LINT_NOTE, tools=kept.tools_doc is not None, changed=True, save=dropped)


def discarded(exc: BaseException) -> Step:
    """A stored draft that cannot be read: an empty draft (storing it removes the stored text)."""
    reason = exc.line() if isinstance(exc, ToolProofError) else exc.__class__.__name__
    return Step(Draft(), f"The saved draft could not be read and was discarded ({reason[:300]}).",
                bad=True, changed=True)


def relint(tools_doc: dict) -> tuple | None:
    """After a reload, the lint of the draft's tools as saved: what `tools lint` prints for the
    exported tools.json (the first file's paths and its refused tools are not kept); None when
    lint fails (the draft loaded: its lint only goes unshown)."""
    try:
        return tuple(lint_tools(tools_from_any(tools_doc)[1]))
    except Exception:            # noqa: BLE001 - see the docstring
        return None


def stored_text(draft: Draft) -> tuple[str | None, str]:
    """(the text the browser keeps, or None to remove the stored draft; the line to show, "" when
    nothing is wrong). An empty draft is removed, one over the bound too, and the page says so."""
    if draft.empty:
        return None, ""
    text = draft_text(draft.tools_doc, list(draft.cases), list(draft.left_out))
    return (text, "") if text is not None else (None, TOO_LARGE_TO_KEEP)


def clear(draft: Draft) -> Step:
    """Tools and cases cleared, kept for one undo until the next change."""
    if draft.empty:
        return Step(draft)
    return Step(Draft(undo=replace(draft, undo=None)),
                f"Draft cleared ({_sizes(draft)}). Undo brings it back.",
                clear_lint=True, tools=True, form=True, changed=True)


def undo_clear(draft: Draft) -> Step:
    """The draft "Clear the draft" removed, back (without the last file's refused tools)."""
    if draft.undo is None:
        return Step(draft)
    back = replace(draft.undo, refused=(), undo=None)
    return Step(back, f"Draft back: {_sizes(back)}.", tools=True, changed=True)


def _sizes(draft: Draft) -> str:
    """"2 tools, 1 case": what a draft holds, in the lines that clear and restore it."""
    return f"{counted(len(draft.tools), 'tool')}, {counted(len(draft.cases), 'case')}"


def set_offered(draft: Draft, name: str, offered: bool) -> Step:
    """A tool ticked (offered to the model) or unticked (left out of every request and export)."""
    left_out = tuple(n for n in draft.left_out if n != name) + (() if offered else (name,))
    return Step(replace(draft, left_out=left_out, undo=None), tools=True, changed=True)


def save_case(draft: Draft, case: dict, index: int | None) -> Step:
    """A case the editor checked (case_form.check_case), added (`index` None) or replacing
    case `index`."""
    cases = list(draft.cases)
    if index is None:
        cases.append(case)
    else:
        cases[index] = case
    return Step(replace(draft, cases=tuple(cases), undo=None),
                f"Case {case['id']!r} saved ({len(cases)} in the draft).", form=True, changed=True)


def no_room(draft: Draft, index: int | None) -> str:
    """Why the editor may not add one more case ("" when it may): the page keeps MAX_CASES."""
    return f"the page keeps at most {MAX_CASES} cases" if index is None and len(draft.cases) >= MAX_CASES else ""


def delete_case(draft: Draft, index: int) -> Step:
    """Case `index` removed (the page resets the editor's form if it was editing one)."""
    cases = list(draft.cases)
    gone = cases.pop(index)
    return Step(replace(draft, cases=tuple(cases), undo=None), f"Case {gone['id']!r} deleted.", changed=True)


class RunOffer(NamedTuple):
    """The draft as a run sees it: tools left out are in no request, cases needing them skipped."""
    suite: list | None           # the parsed cases, or None when there is nothing to run
    tools: dict                  # the tools offered
    document: dict | None        # the suite as its export writes it (a run records its fingerprint)
    note: str                    # the cases skipped, for the line under the tool list
    problem: str                 # why the draft cannot run, "" when it can


def run_offer(draft: Draft, suite_schema: dict) -> RunOffer:
    """What the live panel's scope "Your suite" runs after each change, checked as a run will."""
    offered = offered_draft(draft.tools_doc, list(draft.cases), draft.left_out)
    tools = {name: tool for name, tool in draft.tools.items() if name not in set(draft.left_out)}
    suite, problem = None, ""
    if offered.cases:
        try:
            suite = parse_suite(suite_document(offered.cases), tools, suite_schema, "your suite")
        except Exception as exc:    # noqa: BLE001 - shown, and the suite is not offered for a run
            problem = f"Your suite cannot run: {exc}"
    return RunOffer(suite, tools, suite_document(offered.cases) if suite else None, skipped_note(offered), problem)


class Export(NamedTuple):
    filename: str                # "" when nothing is downloaded
    text: str | None
    line: str
    bad: bool


def export(draft: Draft, kind: str, tools_schema: dict, suite_schema: dict) -> Export | None:
    """The file `kind` ("suite" or "tools") as a run offers it: no tool left out, no case that
    needs one, read back as the terminal will; None when there is nothing to export."""
    if draft.tools_doc is None or kind == "suite" and not draft.cases:
        return None
    offered = offered_draft(draft.tools_doc, list(draft.cases), draft.left_out)
    ok, note = export_note(kind, offered, draft.left_out)
    if not ok:
        return Export("", None, note, True)
    try:
        tools_text, suite_text = checked_exports(offered.tools_doc, offered.cases, tools_schema, suite_schema)
    except ToolProofError as exc:
        return Export("", None, f"Not exported: {exc.line()}", True)
    return Export(f"{kind}.json", suite_text if kind == "suite" else tools_text, note, False)
