"""The page's "Your tools and cases" section (#own): load tools of any shape, show the lint
findings, choose which tools are offered, keep the draft in localStorage (with one undo of
"Clear the draft"), export the suite and tools files, and hand the draft suite to the live panel
(scope "Your suite"). The case editor is page/editor.py's.

An edge module (DOM, files, localStorage). Every rule is own_suite's, importers' or lint's; tool
names and descriptions are hostile input and only ever reach the page as textContent.
"""
from __future__ import annotations

import asyncio

from .dom import byid, clear, download, el, on
from .dom import page_js as js      # the page's globals: localStorage (dom.py)

DRAFT_KEY = "toolproof.own.draft"      # localStorage: tools and cases only, never a key
SHOWN_FINDINGS = 200
SHOWN_TOOLS = 100


class OwnView:
    """The #own section and its draft: a tools.json document, raw v1 cases, the Tool objects."""

    def __init__(self, live, load_jsonschema, editor):
        self.live, self.load_jsonschema = live, load_jsonschema
        self.tools_doc: dict | None = None
        self.tools: dict = {}
        self.cases: list[dict] = []
        self.left_out: list[str] = []          # loaded tools not offered to the model (unticked)
        self.refused: list = []                # tools of the last file that could not be loaded
        self.undo = None                       # what "Clear the draft" removed, until the next change
        on(byid("own-tools"), "change", lambda e: asyncio.ensure_future(self.load_file(e.target.files, "tools")))
        on(byid("own-suite"), "change", lambda e: asyncio.ensure_future(self.load_file(e.target.files, "suite")))
        on(byid("own-paste-load"), "click",
           lambda e: asyncio.ensure_future(self.load_tools(str(byid("own-paste").value), "pasted tools")))
        on(byid("own-clear"), "click", lambda e: self.clear_draft())
        on(byid("own-undo"), "click", lambda e: self.undo_clear())
        on(byid("export-suite"), "click", lambda e: self.export("suite"))
        on(byid("export-tools"), "click", lambda e: self.export("tools"))
        self.editor = editor(self)       # the case editor (page/editor.py), handed in by page/main.py
        self.restoring = asyncio.ensure_future(self.restore())

    # -- messages
    def message(self, text: str, *, bad: bool = False) -> None:
        node = byid("own-message")
        node.textContent = text
        node.className = "run-message bad" if bad else "run-message"

    def schemas(self) -> tuple[dict, dict]:
        from toolproof.datafiles import format_schema

        return format_schema("tools"), format_schema("suite")

    async def needing_jsonschema(self, work):
        """work(), fetching jsonschema first if a schema uses keywords the compiled checker lacks."""
        try:
            return work()
        except ModuleNotFoundError as exc:
            if (exc.name or "").split(".")[0] != "jsonschema":
                raise
        await self.load_jsonschema()
        return work()

    # -- loading
    async def load_file(self, files, kind: str) -> None:
        from toolproof.limits import MAX_FILE_BYTES

        if not files.length:
            return
        file = files.item(0)
        name = str(file.name)
        if int(file.size) > MAX_FILE_BYTES:
            self.message(f"{name}: larger than {MAX_FILE_BYTES // 1_000_000} MB", bad=True)
            return
        try:
            text = str(await file.text())
        except Exception as exc:     # noqa: BLE001 - an unreadable file is one line
            self.message(f"{name}: could not be read ({exc.__class__.__name__})", bad=True)
            return
        await (self.load_tools(text, name) if kind == "tools" else self.load_suite(text, name))

    async def load_tools(self, text: str, source: str) -> None:
        """Import and lint, whatever the text holds: every outcome is findings and one line, never
        a page left on "Reading…" (an exception of any kind, jsonschema's load included, is shown)."""
        from toolproof.errors import ToolProofError
        from toolproof.authoring.draft_suite import cases_for_tools
        from toolproof.authoring.tool_offer import left_out_by_default

        byid("own").dataset.state = "loading"
        self.message(f"Reading {source}…")
        await asyncio.sleep(0.01)
        try:
            imported, findings = await self.needing_jsonschema(lambda: self.import_and_lint(text, source))
            self.render_lint(findings)
            if imported.document is not None:
                await self.set_tools(imported.document, refused=imported.refused,
                                     left_out=left_out_by_default(findings, [t["name"] for t in imported.document["tools"]]))
        except ToolProofError as exc:
            byid("own").dataset.state = "error"
            self.message(exc.line(), bad=True)
            return
        except Exception as exc:     # noqa: BLE001 - any failure is one line, and the page stays usable
            byid("own").dataset.state = "error"
            self.message(f"{source}: could not be read ({exc.__class__.__name__}: {str(exc)[:300]})", bad=True)
            return
        if imported.document is None:
            byid("own").dataset.state = "error"
            self.message(f"The lint findings are below; these tools cannot be run as given: {imported.problem}", bad=True)
            return
        kept = len(self.cases)
        self.cases = cases_for_tools(self.cases, list(self.tools), by_id={i: t.name for i, t in self.tools.items()})
        dropped = kept - len(self.cases)
        line = f"{len(self.tools)} tool(s) loaded from {imported.label}."
        if imported.refused:
            line += (f" {len(imported.refused)} tool(s) cannot be run as given and were not loaded "
                     f"(the first: {imported.problem[:300]}).")
        if self.left_out:
            line += f" {len(self.left_out)} tool(s) with error-level findings are not offered until you tick them."
        if dropped:
            line += f" {dropped} case(s) expecting a tool no longer loaded were removed."
        self.message(line, bad=bool(imported.refused))
        self.changed()

    @staticmethod
    def import_and_lint(text: str, source: str):
        from toolproof.authoring.draft_suite import import_tools
        from toolproof.authoring.lint import lint_tools
        from toolproof.datafiles import format_schema

        imported = import_tools(text, format_schema("tools"), source)
        return imported, lint_tools(imported.records)

    async def set_tools(self, document: dict, *, refused=(), left_out=()) -> None:
        from toolproof.suite.load import parse_tools

        tools_schema, _ = self.schemas()
        self.tools = await self.needing_jsonschema(lambda: parse_tools(document, tools_schema, "tools"))
        self.tools_doc = document
        self.left_out = [name for name in left_out if name in self.tools]
        self.refused = list(refused)
        self.render_tools()

    async def load_suite(self, text: str, source: str) -> None:
        from toolproof.datafiles import json_from_text
        from toolproof.errors import ToolProofError
        from toolproof.authoring.draft_suite import loaded_suite

        if not self.tools:
            self.message("Load your tools first: a suite's cases are checked against them.", bad=True)
            return
        _, suite_schema = self.schemas()
        try:
            doc = json_from_text(text, source)
            cases = loaded_suite(doc, self.tools, suite_schema, source)
        except ToolProofError as exc:
            self.message(exc.line(), bad=True)
            return
        self.cases = cases
        self.editor.reset_form()
        self.message(f"{len(cases)} case(s) loaded from {source}; they replace the draft's cases.")
        self.changed()

    # -- the draft in localStorage
    async def restore(self) -> None:
        from toolproof.authoring.draft_suite import draft_from_text, restored_line

        stored = js.localStorage.getItem(DRAFT_KEY)
        if not isinstance(stored, str):
            byid("own").dataset.state = "empty"
            return
        tools_schema, suite_schema = self.schemas()
        try:
            draft = await self.needing_jsonschema(lambda: draft_from_text(stored, tools_schema, suite_schema))
            if draft.tools_doc is not None:
                await self.set_tools(draft.tools_doc, left_out=draft.left_out)
        except Exception as exc:     # noqa: BLE001 - any stored text, however hostile, is only discarded
            from toolproof.errors import ToolProofError

            js.localStorage.removeItem(DRAFT_KEY)
            self.tools_doc, self.tools, self.cases, self.left_out = None, {}, [], []
            reason = exc.line() if isinstance(exc, ToolProofError) else f"{exc.__class__.__name__}"
            self.message(f"The saved draft could not be read and was discarded ({reason[:300]}).", bad=True)
            self.changed(save=False)
            return
        self.cases = draft.cases
        if draft.tools_doc is not None:
            self.relint(draft.tools_doc)
        dropped = bool(draft.dropped_tools or draft.dropped_cases)
        if self.tools:      # what failed is dropped alone (and the stored draft rewritten without it)
            self.message(restored_line(draft, len(self.tools)), bad=dropped)
        self.changed(save=dropped)

    def relint(self, tools_doc: dict) -> None:
        """After a reload, the lint of the draft's tools as saved: what `tools lint` prints for the
        exported tools.json (the first file's paths and its refused tools are not kept)."""
        from toolproof.authoring.lint import lint_tools
        from toolproof.importers import tools_from_any

        try:            # as `tools lint` does: the records of the file, linted (set_tools parsed it)
            findings = lint_tools(tools_from_any(tools_doc)[1])
        except Exception:            # noqa: BLE001 - the draft loaded; a lint that fails only goes unshown
            return
        self.render_lint(findings, "Restored draft: the lint of its tools as saved, in ToolProof's tools.json form "
                                   "(python -m toolproof tools lint prints the same for a tools.json exported with "
                                   "every tool ticked). Paths point into that file; tools the first file could not "
                                   "load are not in the draft.")

    def save(self) -> None:
        from toolproof.authoring.draft_suite import draft_text

        if self.tools_doc is None and not self.cases:
            js.localStorage.removeItem(DRAFT_KEY)
            return
        text = draft_text(self.tools_doc, self.cases, self.left_out)
        if text is None:
            js.localStorage.removeItem(DRAFT_KEY)
            self.message("The draft is too large to keep in this browser: export it to keep it.", bad=True)
            return
        try:
            js.localStorage.setItem(DRAFT_KEY, text)
        except Exception:            # noqa: BLE001 - storage full or disabled: say so, keep working
            self.message("This browser would not keep the draft (storage full or disabled): export it.", bad=True)

    def clear_draft(self) -> None:
        """Clear tools and cases, keeping them for one undo until the next change."""
        if self.tools_doc is None and not self.cases:
            return
        self.undo = (self.tools_doc, self.cases, self.left_out)
        tools, cases = len(self.tools), len(self.cases)
        self.tools_doc, self.tools, self.cases, self.left_out, self.refused = None, {}, [], [], []
        js.localStorage.removeItem(DRAFT_KEY)
        clear(byid("own-lint"))
        self.render_tools()
        self.editor.reset_form()
        self.changed(keep_undo=True)
        self.message(f"Draft cleared ({tools} tool(s), {cases} case(s)). Undo brings it back.")
        byid("own-undo").hidden = False

    def undo_clear(self) -> None:
        if self.undo is None:
            return
        tools_doc, cases, left_out = self.undo
        self.undo = None

        async def back():
            await self.set_tools(tools_doc, left_out=left_out)
            self.cases = cases
            self.message(f"Draft back: {len(self.tools)} tool(s), {len(cases)} case(s).")
            self.changed()
        asyncio.ensure_future(back())

    def changed(self, *, save: bool = True, keep_undo: bool = False) -> None:
        """After any change to tools or cases: store, redraw, tell the live panel (the draft as
        offered: tools left out are in no request, cases that need them are skipped)."""
        from toolproof.authoring.suite_text import suite_document
        from toolproof.authoring.tool_offer import offered_draft, skipped_note
        from toolproof.suite.load import parse_suite

        if not keep_undo:
            self.undo = None
            byid("own-undo").hidden = True
        if save:
            self.save()
        self.render_cases()
        byid("export-tools").disabled = self.tools_doc is None
        byid("export-suite").disabled = not self.cases
        offered = offered_draft(self.tools_doc, self.cases, self.left_out)
        tools = {name: tool for name, tool in self.tools.items() if name not in set(self.left_out)}
        suite = None
        if offered.cases:
            try:
                suite = parse_suite(suite_document(offered.cases), tools, self.schemas()[1], "your suite")
            except Exception as exc:    # noqa: BLE001 - shown, and the suite is not offered for a run
                self.message(f"Your suite cannot run: {exc}", bad=True)
        byid("own-offer-note").textContent = skipped_note(offered)
        # the document too: a run of the draft records the fingerprint its export will have
        self.live.set_own(suite, tools, suite_document(offered.cases) if suite else None)
        byid("own").dataset.state = "ready" if self.tools else "empty"
        byid("own").dataset.cases = str(len(self.cases))

    # -- rendering
    def render_tools(self) -> None:
        """Every loaded tool with its offer checkbox (.tool-offer), and the tools of the file that
        could not be loaded with their one line."""
        from toolproof.authoring.draft_suite import visible

        refused = self.refused
        root = byid("own-tools-list")
        clear(root)
        self.editor.tools_changed()
        if not self.tools:
            return
        left_out = set(self.left_out)
        items = []
        for name, tool in list(self.tools.items())[:SHOWN_TOOLS]:
            box = el("input", type="checkbox", cls="tool-offer", data_tool=name,
                     aria_label=f"Offer {visible(tool.label or name, 80)} to the model")
            box.checked = name not in left_out
            on(box, "change", lambda e, n=name: self.set_offered(n, bool(e.target.checked)))
            items.append(el("li", cls="own-tool", data_tool=name, children=[
                el("label", cls="offer", children=[box, el("span", "offer", cls="offer-word")]),
                el("code", visible(tool.label or name, 80)), el("span", visible(tool.description, 160), cls="muted")]))
        more = len(self.tools) - SHOWN_TOOLS
        if more > 0:
            items.append(el("li", f"… and {more:,} more (offered)", cls="muted"))
        items += [el("li", cls="own-tool refused", data_tool=r.name, children=[
            el("span", "not loaded", cls="lint-severity"), el("code", visible(r.name, 80)),
            el("span", visible(r.line, 400), cls="lint-message")])
            for r in refused[:50]]
        summary = f"Your tools ({len(self.tools):,} loaded, {len(self.tools) - len(left_out):,} offered" \
                  + (f", {len(refused):,} not loaded)" if refused else ")")
        box = el("details", children=[el("summary", summary), el("ul", children=items)])
        box.open = len(self.tools) <= 20 or bool(left_out) or bool(refused)
        root.appendChild(box)

    def set_offered(self, name: str, offered: bool) -> None:
        self.left_out = [n for n in self.left_out if n != name] + ([] if offered else [name])
        self.render_tools()
        self.changed()

    def render_lint(self, findings: list, note: str = "") -> None:
        from toolproof.authoring.draft_suite import visible

        root = byid("own-lint")
        clear(root)
        errors = sum(f.severity == "error" for f in findings)
        root.appendChild(el("h3", f"Lint: {errors} error(s), {len(findings) - errors} warning(s)"))
        if note:
            root.appendChild(el("p", note, cls="muted lint-note"))
        if not findings:
            root.appendChild(el("p", "No findings: nothing here should confuse a model or be refused.", cls="muted"))
        rows = [el("li", cls=f"lint-finding lint-{f.severity}", data_code=f.code, data_tool=f.tool,
                   data_severity=f.severity, children=[
                       el("span", f.severity, cls="lint-severity"), el("code", f.code, cls="lint-code"),
                       el("code", visible(f.tool, 80), cls="lint-tool"),
                       el("span", visible(f.message, 400), cls="lint-message"),
                       el("code", visible(f.path, 120), cls="lint-path muted")])
                for f in findings[:SHOWN_FINDINGS]]
        if len(findings) > SHOWN_FINDINGS:
            rows.append(el("li", f"… and {len(findings) - SHOWN_FINDINGS:,} more (python -m toolproof "
                                 "tools lint FILE lists them all)", cls="muted"))
        root.appendChild(el("ul", cls="lint-findings", children=rows))

    def render_cases(self) -> None:
        from toolproof.authoring.case_form import form_of
        from toolproof.authoring.draft_suite import visible
        from toolproof.authoring.suite_text import V2_CALL_KEYS

        root = byid("own-cases")
        clear(root)
        root.appendChild(el("h3", f"Your cases ({len(self.cases)})"))
        if not self.cases:
            root.appendChild(el("p", "No cases yet: write one above or load a suite file.", cls="muted"))
            return
        for index, case in enumerate(self.cases):
            expect = case["expect"]
            what = expect["action"] + (" " + " → ".join(c["tool"] for c in expect["calls"]) if expect.get("calls") else "")
            if expect.get("forbidden"):
                what += " · never " + ", ".join(f["tool"] for f in expect["forbidden"])
            rules = sorted({key for call in expect.get("calls", []) for key in (*V2_CALL_KEYS, "accept") if key in call})
            what += f" ({', '.join(rules)})" if rules else ""
            edit = el("button", "Edit", type="button", cls="button secondary small-button case-edit")
            if form_of(case) is None:
                edit.disabled = True
                edit.title = "This case uses fields the editor does not show: edit it in the suite file."
            delete = el("button", "Delete", type="button", cls="button secondary small-button case-delete")
            on(edit, "click", lambda e, i=index: self.editor.edit_case(i))
            on(delete, "click", lambda e, i=index: self.delete_case(i))
            root.appendChild(el("div", cls="own-case", data_case_id=case["id"], children=[
                el("code", case["id"], cls="case-id"), el("span", case["category"], cls="case-category"),
                el("code", visible(what, 80), cls="own-case-action"),
                el("span", visible(case["prompt"], 140), cls="muted own-case-prompt"),
                el("span", cls="own-case-buttons", children=[edit, delete])]))

    # -- exports
    def export(self, kind: str) -> None:
        from toolproof.errors import ToolProofError
        from toolproof.authoring.draft_suite import checked_exports

        if self.tools_doc is None or kind == "suite" and not self.cases:
            return
        from toolproof.authoring.tool_offer import export_note, offered_draft

        offered = offered_draft(self.tools_doc, self.cases, self.left_out)
        ok, note = export_note(kind, offered, self.left_out)
        if not ok:
            self.message(note, bad=True)
            return
        tools_schema, suite_schema = self.schemas()
        try:     # what is exported is what a run offers: no tool left out, no case that needs one
            tools_text, suite_text = checked_exports(offered.tools_doc, offered.cases, tools_schema, suite_schema)
        except ToolProofError as exc:
            self.message(f"Not exported: {exc.line()}", bad=True)
            return
        if kind == "suite":
            download("suite.json", suite_text, "application/json")
        else:
            download("tools.json", tools_text, "application/json")
        self.message(note)

