"""The page's "Your tools and cases" section (#own): load tools of any shape, show the lint
findings, write cases beside a live schema check, keep the draft in localStorage, export the
suite and tools files, and hand the draft suite to the live panel (scope "Your suite").

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

    def __init__(self, live, load_jsonschema):
        from toolproof.authoring.draft_suite import EDITOR_CATEGORIES
        from toolproof.reports.page_view import CATEGORY_LABELS

        self.live, self.load_jsonschema = live, load_jsonschema
        self.tools_doc: dict | None = None
        self.tools: dict = {}
        self.cases: list[dict] = []
        self.editing: int | None = None
        for category in EDITOR_CATEGORIES:
            byid("case-category").appendChild(el("option", CATEGORY_LABELS[category], value=category))
        on(byid("own-tools"), "change", lambda e: asyncio.ensure_future(self.load_file(e.target.files, "tools")))
        on(byid("own-suite"), "change", lambda e: asyncio.ensure_future(self.load_file(e.target.files, "suite")))
        on(byid("own-paste-load"), "click",
           lambda e: asyncio.ensure_future(self.load_tools(str(byid("own-paste").value), "pasted tools")))
        on(byid("own-clear"), "click", lambda e: self.clear_draft())
        on(byid("add-case"), "click", lambda e: self.add_case())
        on(byid("case-cancel"), "click", lambda e: self.reset_form())
        for name in ("case-args", "case-tool", "case-action"):
            on(byid(name), "input", lambda e: self.check_args())
            on(byid(name), "change", lambda e: self.check_args())
        on(byid("export-suite"), "click", lambda e: self.export("suite"))
        on(byid("export-tools"), "click", lambda e: self.export("tools"))
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
        text = str(await file.text())
        await (self.load_tools(text, name) if kind == "tools" else self.load_suite(text, name))

    async def load_tools(self, text: str, source: str) -> None:
        from toolproof.errors import ToolProofError
        from toolproof.authoring.lint import lint_tools
        from toolproof.authoring.draft_suite import cases_for_tools, import_tools

        byid("own").dataset.state = "loading"
        self.message(f"Reading {source}…")
        await asyncio.sleep(0.01)
        tools_schema, _ = self.schemas()
        try:
            imported = await self.needing_jsonschema(lambda: import_tools(text, tools_schema, source))
        except ToolProofError as exc:
            byid("own").dataset.state = "error"
            self.message(exc.line(), bad=True)
            return
        self.render_lint(lint_tools(imported.records))
        if imported.document is None:
            byid("own").dataset.state = "error"
            self.message(f"The lint findings are below; these tools cannot be run as given: {imported.problem}", bad=True)
            return
        await self.set_tools(imported.document)
        kept = len(self.cases)
        self.cases = cases_for_tools(self.cases, list(self.tools))
        dropped = kept - len(self.cases)
        self.message(f"{len(self.tools)} tool(s) loaded from {imported.label}."
                     + (f" {dropped} case(s) expecting a tool no longer loaded were removed." if dropped else ""))
        self.changed()

    async def set_tools(self, document: dict) -> None:
        from toolproof.suite.load import parse_tools

        tools_schema, _ = self.schemas()
        self.tools = await self.needing_jsonschema(lambda: parse_tools(document, tools_schema, "tools"))
        self.tools_doc = document
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
        self.reset_form()
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
                await self.set_tools(draft.tools_doc)
        except Exception as exc:     # noqa: BLE001 - any stored text, however hostile, is only discarded
            from toolproof.errors import ToolProofError

            js.localStorage.removeItem(DRAFT_KEY)
            self.tools_doc, self.tools, self.cases = None, {}, []
            reason = exc.line() if isinstance(exc, ToolProofError) else f"{exc.__class__.__name__}"
            self.message(f"The saved draft could not be read and was discarded ({reason[:300]}).", bad=True)
            self.changed(save=False)
            return
        self.cases = draft.cases
        dropped = bool(draft.dropped_tools or draft.dropped_cases)
        if self.tools:      # what failed is dropped alone (and the stored draft rewritten without it)
            self.message(restored_line(draft, len(self.tools)), bad=dropped)
        self.changed(save=dropped)

    def save(self) -> None:
        from toolproof.authoring.draft_suite import draft_text

        if self.tools_doc is None and not self.cases:
            js.localStorage.removeItem(DRAFT_KEY)
            return
        text = draft_text(self.tools_doc, self.cases)
        if text is None:
            js.localStorage.removeItem(DRAFT_KEY)
            self.message("The draft is too large to keep in this browser: export it to keep it.", bad=True)
            return
        try:
            js.localStorage.setItem(DRAFT_KEY, text)
        except Exception:            # noqa: BLE001 - storage full or disabled: say so, keep working
            self.message("This browser would not keep the draft (storage full or disabled): export it.", bad=True)

    def clear_draft(self) -> None:
        self.tools_doc, self.tools, self.cases = None, {}, []
        js.localStorage.removeItem(DRAFT_KEY)
        clear(byid("own-lint"))
        self.render_tools()
        self.reset_form()
        self.message("Draft cleared.")
        self.changed()

    def changed(self, *, save: bool = True) -> None:
        """After any change to tools or cases: store, redraw, tell the live panel."""
        from toolproof.authoring.draft_suite import suite_document
        from toolproof.suite.load import parse_suite

        if save:
            self.save()
        self.render_cases()
        byid("export-tools").disabled = self.tools_doc is None
        byid("export-suite").disabled = not self.cases
        suite = None
        if self.cases:
            try:
                suite = parse_suite(suite_document(self.cases), self.tools, self.schemas()[1], "your suite")
            except Exception as exc:    # noqa: BLE001 - shown, and the suite is not offered for a run
                self.message(f"Your suite cannot run: {exc}", bad=True)
        # the document too: a run of the draft records the fingerprint its export will have
        self.live.set_own(suite, self.tools, suite_document(self.cases) if suite else None)
        byid("own").dataset.state = "ready" if self.tools else "empty"
        byid("own").dataset.cases = str(len(self.cases))

    # -- rendering
    def render_tools(self) -> None:
        from toolproof.authoring.draft_suite import visible

        root, select = byid("own-tools-list"), byid("case-tool")
        clear(root)
        clear(select)
        for name in self.tools:
            select.appendChild(el("option", visible(name, 80), value=name))
        if not self.tools:
            return
        items = [el("li", cls="own-tool", data_tool=name, children=[
            el("code", visible(name, 80)), el("span", visible(tool.description, 160), cls="muted")])
            for name, tool in list(self.tools.items())[:SHOWN_TOOLS]]
        more = len(self.tools) - SHOWN_TOOLS
        if more > 0:
            items.append(el("li", f"… and {more:,} more", cls="muted"))
        root.appendChild(el("details", children=[el("summary", f"Loaded tools ({len(self.tools):,})"),
                                                 el("ul", children=items)]))

    def render_lint(self, findings: list) -> None:
        from toolproof.authoring.draft_suite import visible

        root = byid("own-lint")
        clear(root)
        errors = sum(f.severity == "error" for f in findings)
        root.appendChild(el("h3", f"Lint: {errors} error(s), {len(findings) - errors} warning(s)"))
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
        from toolproof.authoring.draft_suite import V2_CALL_KEYS, form_of, visible

        root = byid("own-cases")
        clear(root)
        root.appendChild(el("h3", f"Your cases ({len(self.cases)})"))
        if not self.cases:
            root.appendChild(el("p", "No cases yet: write one above or load a suite file.", cls="muted"))
            return
        for index, case in enumerate(self.cases):
            expect = case["expect"]
            what = expect["action"] + (f" {expect['calls'][0]['tool']}" if expect.get("calls") else "")
            rules = sorted({key for call in expect.get("calls", []) for key in (*V2_CALL_KEYS, "accept") if key in call})
            what += f" ({', '.join(rules)})" if rules else ""
            edit = el("button", "Edit", type="button", cls="button secondary small-button case-edit")
            if form_of(case) is None:
                edit.disabled = True
                edit.title = "This case uses fields the editor does not show: edit it in the suite file."
            delete = el("button", "Delete", type="button", cls="button secondary small-button case-delete")
            on(edit, "click", lambda e, i=index: self.edit_case(i))
            on(delete, "click", lambda e, i=index: self.delete_case(i))
            root.appendChild(el("div", cls="own-case", data_case_id=case["id"], children=[
                el("code", case["id"], cls="case-id"), el("span", case["category"], cls="case-category"),
                el("code", visible(what, 80), cls="own-case-action"),
                el("span", visible(case["prompt"], 140), cls="muted own-case-prompt"),
                el("span", cls="own-case-buttons", children=[edit, delete])]))

    # -- the editor
    def form(self) -> dict:
        """Every editor field by name, as strings (a checkbox: "true" when ticked): a new field is
        an input #case-NAME plus its name in own_suite.FIELDS and its place in case_from_form /
        form_of."""
        from toolproof.authoring.draft_suite import CHECKBOXES, FIELDS

        return {name: ("true" if byid(f"case-{name}").checked else "") if name in CHECKBOXES
                else str(byid(f"case-{name}").value) for name in FIELDS}

    def check_args(self) -> None:
        """The live check: the grader's compiled checker on the arguments as typed."""
        from toolproof.errors import ToolProofError
        from toolproof.authoring.draft_suite import args_findings, args_from_text

        from toolproof.authoring.draft_suite import CALL_FIELDS

        node, form = byid("case-args-check"), self.form()
        calling = form["action"] == "call"
        for name in CALL_FIELDS:
            byid(f"case-{name}").disabled = not calling
        if not calling or form["tool"] not in self.tools:
            node.textContent, node.className = "", "args-check small"
            return
        try:
            findings = args_findings(self.tools[form["tool"]], args_from_text(form["args"]))
        except ToolProofError as exc:
            node.textContent, node.className = f"Not a JSON object: {exc.reason}", "args-check small bad"
            return
        if findings:
            text = "; ".join(f"{f.path}: {f.message}" for f in findings[:3])
            node.textContent, node.className = f"Does not validate against {form['tool']}: {text}", "args-check small bad"
        else:
            node.textContent, node.className = f"Valid against {form['tool']}'s schema.", "args-check small ok"

    def add_case(self) -> None:
        from toolproof.authoring.draft_suite import MAX_CASES, CaseProblem, case_from_form, check_case

        previous = self.cases[self.editing] if self.editing is not None else None
        others = [c for i, c in enumerate(self.cases) if i != self.editing]
        _, suite_schema = self.schemas()
        try:
            if previous is None and len(self.cases) >= MAX_CASES:
                raise CaseProblem("case", f"the page keeps at most {MAX_CASES} cases")
            case = case_from_form(self.form(), list(self.tools), previous)
            check_case(case, others, self.tools, suite_schema)
        except CaseProblem as exc:
            self.refuse(exc.field, exc.reason)
            return
        if self.editing is None:
            self.cases.append(case)
        else:
            self.cases[self.editing] = case
        self.reset_form()
        self.message(f"Case {case['id']!r} saved ({len(self.cases)} in the draft).")
        self.changed()

    def refuse(self, field: str, reason: str) -> None:
        node = byid("case-error")
        node.textContent = f"{field}: {reason}"
        node.dataset.field = field
        self.refuse_clear(keep_message=True)
        if field != "case":
            byid(f"case-{field}").setAttribute("aria-invalid", "true")

    def edit_case(self, index: int) -> None:
        from toolproof.authoring.draft_suite import form_of

        form = form_of(self.cases[index])
        if form is None:
            return
        from toolproof.authoring.draft_suite import CHECKBOXES

        for name, value in form.items():
            if name in CHECKBOXES:
                byid(f"case-{name}").checked = value == "true"
            else:
                byid(f"case-{name}").value = value
        self.editing = index
        byid("add-case").textContent = "Save case"
        byid("case-cancel").hidden = False
        self.check_args()

    def delete_case(self, index: int) -> None:
        gone = self.cases.pop(index)
        if self.editing is not None:
            self.reset_form()
        self.message(f"Case {gone['id']!r} deleted.")
        self.changed()

    def reset_form(self) -> None:
        self.editing = None
        for name in ("id", "prompt", "args", "critical", "optional", "absent", "loose", "accept"):
            byid(f"case-{name}").value = ""
        byid("case-exact").checked = False
        byid("add-case").textContent = "Add case"
        byid("case-cancel").hidden = True
        self.refuse_clear()
        self.check_args()

    def refuse_clear(self, *, keep_message: bool = False) -> None:
        from toolproof.authoring.draft_suite import FIELDS

        if not keep_message:
            byid("case-error").textContent = ""
        for name in FIELDS:
            byid(f"case-{name}").removeAttribute("aria-invalid")

    # -- exports
    def export(self, kind: str) -> None:
        from toolproof.errors import ToolProofError
        from toolproof.authoring.draft_suite import checked_exports

        if self.tools_doc is None or kind == "suite" and not self.cases:
            return
        tools_schema, suite_schema = self.schemas()
        try:
            tools_text, suite_text = checked_exports(self.tools_doc, self.cases, tools_schema, suite_schema)
        except ToolProofError as exc:
            self.message(f"Not exported: {exc.line()}", bad=True)
            return
        if kind == "suite" and suite_text is not None:
            download("suite.json", suite_text, "application/json")
        elif kind == "tools":
            download("tools.json", tools_text, "application/json")

