"""The page's "Your tools and cases" section (#own): the file inputs, the paste box, the offer
checkboxes, Clear/Undo and the export buttons, the draft kept in localStorage, and the draft suite
handed to the live panel (scope "Your suite"). The case editor is page/editor.py's.

An edge module (DOM, files, localStorage). It decides nothing: the draft and every transition are
authoring/draft.py's (a Step says what to show and store), the words of each list
authoring/draft_view.py's. Tool names and descriptions are hostile input and only ever reach the
page as textContent.
"""
from __future__ import annotations

import asyncio

from .dom import byid, clear, download, el, on, task
from .dom import page_js as js      # the page's globals: localStorage (dom.py)
from .inputs import field_text, on_refused, refused_line

DRAFT_KEY = "toolproof.own.draft"      # localStorage: tools and cases only, never a key
PASTED = "pasted tools"                # the paste box's name in every line about it


class OwnView:
    """The #own section: renders the Draft (authoring/draft.py) each Step leaves."""

    def __init__(self, live, load_jsonschema, editor):
        self.live, self.load_jsonschema = live, load_jsonschema
        self._draft = None           # authoring.draft.Draft, made on first use (kept off the start path)
        self.loading = asyncio.Lock()   # one file or paste at a time, in the order given: the last wins
        on(byid("own-tools"), "change", lambda e: task(self.load_file(e.target.files, "tools"), self.failed))
        on(byid("own-suite"), "change", lambda e: task(self.load_file(e.target.files, "suite"), self.failed))
        on(byid("own-paste-load"), "click", lambda e: task(self.load_paste(field_text("own-paste", PASTED)),
                                                            self.failed))
        on_refused(byid("own-paste"), lambda name, size: self.failed(refused_line(PASTED, size)))
        on(byid("own-clear"), "click", lambda e: self.step("clear"))
        on(byid("own-undo"), "click", lambda e: self.step("undo_clear"))
        on(byid("export-suite"), "click", lambda e: self.export("suite"))
        on(byid("export-tools"), "click", lambda e: self.export("tools"))
        self.editor = editor(self)       # the case editor (page/editor.py), handed in by page/main.py
        self.restoring = asyncio.ensure_future(self.restore())

    # -- the draft, for the editor too
    @property
    def draft(self):
        if self._draft is None:
            from toolproof.authoring.draft import Draft

            self._draft = Draft()
        return self._draft

    @property
    def tools(self) -> dict:
        return self._draft.tools if self._draft is not None else {}

    @property
    def cases(self) -> tuple:
        return self._draft.cases if self._draft is not None else ()

    def step(self, name: str, *args) -> None:
        """Apply the transition `name` of authoring/draft.py to the draft, with `args`."""
        from toolproof.authoring import draft

        self.apply(getattr(draft, name)(self.draft, *args))

    def apply(self, step) -> None:
        """Show what a Step says, in the order a reader expects: lint, tools, form, line, then the
        change stored and handed on (which may replace the line with a storage problem)."""
        self._draft = step.draft
        if step.clear_lint:
            clear(byid("own-lint"))
        if step.findings is not None:
            self.render_lint(step.findings, step.lint_note)
        if step.tools:
            self.render_tools()
        if step.form:
            self.editor.reset_form()
        if step.line:
            self.message(step.line, bad=step.bad)
        if step.changed:
            self.changed(save=step.save)
        if step.state:
            byid("own").dataset.state = step.state
        byid("own-undo").hidden = self.draft.undo is None

    # -- messages
    def message(self, text: str, *, bad: bool = False) -> None:
        node = byid("own-message")
        node.textContent = text
        node.className = "run-message bad" if bad else "run-message"

    def failed(self, line: str) -> None:
        """Work of this section failed (a refusal, or anything that raised): one line, and the
        section leaves "loading" for "error", so it answers the next paste or file."""
        self.message(line, bad=True)
        byid("own").dataset.state = "error"

    def schemas(self) -> tuple[dict, dict]:
        from toolproof.datafiles import format_schema

        return format_schema("tools"), format_schema("suite")

    async def needing_jsonschema(self, work):
        """work(), fetching jsonschema first if a schema uses keywords the compiled checker lacks."""
        from toolproof.authoring.draft import needs_jsonschema

        try:
            return work()
        except ModuleNotFoundError as exc:
            if not needs_jsonschema(exc):
                raise
        await self.load_jsonschema()
        return work()

    # -- loading
    async def load_file(self, files, kind: str) -> None:
        from toolproof.authoring.draft import too_large

        if not files.length:
            return
        file = files.item(0)
        name = str(file.name)
        if too_large(name, int(file.size)):
            self.failed(too_large(name, int(file.size)))
            return
        try:
            text = str(await file.text())
        except Exception as exc:     # noqa: BLE001 - an unreadable file is one line
            self.failed(f"{name}: could not be read ({exc.__class__.__name__})")
            return
        async with self.loading:
            await (self.load_tools(text, name) if kind == "tools" else self.load_suite(text, name))

    async def load_paste(self, reading) -> None:
        """The paste box's text as the click found it (inputs.field_text: no trip that could not
        carry it); over the input bound it is refused by its size, measured by the page."""
        byid("own").dataset.state = "loading"
        text = await reading
        async with self.loading:
            await self.load_tools(text, PASTED)

    async def load_tools(self, text: str, source: str) -> None:
        """Every outcome is a Step, never a page left on "Reading…" (a failure to fetch jsonschema
        too is one line)."""
        from toolproof.authoring.draft import load_tools, unreadable

        byid("own").dataset.state = "loading"
        self.message(f"Reading {source}…")
        await asyncio.sleep(0.01)
        tools_schema, _ = self.schemas()
        try:
            step = await self.needing_jsonschema(lambda: load_tools(self.draft, text, source, tools_schema))
        except Exception as exc:     # noqa: BLE001 - any failure is one line, and the page stays usable
            step = unreadable(self.draft, source, exc)
        self.apply(step)

    async def load_suite(self, text: str, source: str) -> None:
        from toolproof.authoring.draft import load_suite
        from toolproof.datafiles import json_from_text

        self.apply(load_suite(self.draft, text, source, self.schemas()[1], json_from_text))

    # -- the draft in localStorage
    async def restore(self) -> None:
        stored = js.localStorage.getItem(DRAFT_KEY)
        if not isinstance(stored, str):
            byid("own").dataset.state = "empty"
            return
        from toolproof.authoring.draft import discarded, restore

        try:
            step = await self.needing_jsonschema(lambda: restore(stored, *self.schemas()))
        except Exception as exc:     # noqa: BLE001 - jsonschema could not be fetched: discarded like any other
            step = discarded(exc)
        self.apply(step)

    def save(self) -> None:
        from toolproof.authoring.draft import NOT_KEPT, stored_text

        text, line = stored_text(self.draft)
        if text is None:
            js.localStorage.removeItem(DRAFT_KEY)
            if line:
                self.message(line, bad=True)
            return
        try:
            js.localStorage.setItem(DRAFT_KEY, text)
        except Exception:            # noqa: BLE001 - storage full or disabled: say so, keep working
            self.message(NOT_KEPT, bad=True)

    def delete_case(self, index: int) -> None:
        self.editor.case_deleted()
        self.step("delete_case", index)

    def changed(self, *, save: bool = True) -> None:
        """After any change to tools or cases: store, redraw, tell the live panel (the draft as
        offered: tools left out are in no request, cases that need them are skipped)."""
        from toolproof.authoring.draft import run_offer

        if save:
            self.save()
        self.render_cases()
        byid("export-tools").disabled = self.draft.tools_doc is None
        byid("export-suite").disabled = not self.draft.cases
        offer = run_offer(self.draft, self.schemas()[1])
        if offer.problem:
            self.message(offer.problem, bad=True)
        byid("own-offer-note").textContent = offer.note
        # the document too: a run of the draft records the fingerprint its export will have; and
        # the tools document as offered, which an arm's ablation of "Your suite" takes apart
        self.live.set_own(offer.suite, offer.tools, offer.document, tools_doc=self.offered_tools_doc())
        byid("own").dataset.state = self.draft.state
        byid("own").dataset.cases = str(len(self.draft.cases))

    def offered_tools_doc(self) -> dict | None:
        """The draft's tools document without the tools left out (what a run offers)."""
        from toolproof.authoring.tool_offer import offered_draft

        return offered_draft(self.draft.tools_doc, list(self.draft.cases), self.draft.left_out).tools_doc

    # -- rendering
    def render_tools(self) -> None:
        """Every loaded tool with its offer checkbox (.tool-offer), and the tools of the file that
        could not be loaded with their one line."""
        from toolproof.authoring.draft_view import tool_list

        root = byid("own-tools-list")
        clear(root)
        self.editor.tools_changed()
        shown = tool_list(self.draft.tools, self.draft.left_out, self.draft.refused)
        if shown is None:
            return
        items = []
        for row in shown.rows:
            box = el("input", type="checkbox", cls="tool-offer", data_tool=row.name, aria_label=row.aria)
            box.checked = row.offered
            on(box, "change", lambda e, n=row.name: self.step("set_offered", n, bool(e.target.checked)))
            items.append(el("li", cls="own-tool", data_tool=row.name, children=[
                el("label", cls="offer", children=[box, el("span", "offer", cls="offer-word")]),
                el("code", row.shown), el("span", row.description, cls="muted")]))
        if shown.more:
            items.append(el("li", shown.more, cls="muted"))
        items += [el("li", cls="own-tool refused", data_tool=r.name, children=[
            el("span", "not loaded", cls="lint-severity"), el("code", r.shown),
            el("span", r.line, cls="lint-message")]) for r in shown.refused]
        box = el("details", children=[el("summary", shown.summary), el("ul", children=items)])
        box.open = shown.open
        root.appendChild(box)

    def render_lint(self, findings, note: str = "") -> None:
        from toolproof.authoring.draft_view import lint_list

        shown = lint_list(findings, note)
        root = byid("own-lint")
        clear(root)
        root.appendChild(el("h3", shown.heading))
        if shown.note:
            root.appendChild(el("p", shown.note, cls="muted lint-note"))
        if shown.empty:
            root.appendChild(el("p", shown.empty, cls="muted"))
        rows = [el("li", cls=f"lint-finding lint-{f.severity}", data_code=f.code, data_tool=f.tool,
                   data_severity=f.severity, children=[
                       el("span", f.severity, cls="lint-severity"), el("code", f.code, cls="lint-code"),
                       el("code", f.shown_tool, cls="lint-tool"), el("span", f.message, cls="lint-message"),
                       el("code", f.path, cls="lint-path muted")])
                for f in shown.rows]
        if shown.more:
            rows.append(el("li", shown.more, cls="muted"))
        root.appendChild(el("ul", cls="lint-findings", children=rows))

    def render_cases(self) -> None:
        from toolproof.authoring.draft_view import NOT_EDITABLE, case_rows

        heading, empty, rows = case_rows(self.draft.cases)
        root = byid("own-cases")
        clear(root)
        root.appendChild(el("h3", heading))
        if empty:
            root.appendChild(el("p", empty, cls="muted"))
            return
        for index, row in enumerate(rows):
            edit = el("button", "Edit", type="button", cls="button secondary small-button case-edit")
            if not row.editable:
                edit.disabled = True
                edit.title = NOT_EDITABLE
            delete = el("button", "Delete", type="button", cls="button secondary small-button case-delete")
            on(edit, "click", lambda e, i=index: self.editor.edit_case(i))
            on(delete, "click", lambda e, i=index: self.delete_case(i))
            root.appendChild(el("div", cls="own-case", data_case_id=row.id, children=[
                el("code", row.id, cls="case-id"), el("span", row.category, cls="case-category"),
                el("code", row.what, cls="own-case-action"), el("span", row.prompt, cls="muted own-case-prompt"),
                el("span", cls="own-case-buttons", children=[edit, delete])]))

    # -- exports
    def export(self, kind: str) -> None:
        from toolproof.authoring.draft import export

        out = export(self.draft, kind, *self.schemas())
        if out is None:
            return
        if out.text is not None:
            download(out.filename, out.text, "application/json")
        self.message(out.line, bad=out.bad)
