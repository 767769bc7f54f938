"""The case editor of "Your tools and cases" (#case-form): every category, the prompt's language
(#case-lang), its expected calls in order with their mock results (#case-calls), forbidden tools
(with the arguments that make a call forbidden), phrase rules (a cannot_do case's: the capability
its decline names), variants and the system prompt (#case-system), beside a live schema check of
the first call's arguments.

An edge module (DOM only). What a category uses, how fields become a case and every check are
authoring/case_form.py's; tool names only ever reach the page as textContent. The #own section
(page/own.py) holds the draft and hands itself in as `own` (page/main.py wires the two).
"""
from __future__ import annotations

from .dom import byid, clear, el, fill, on, seen
from toolproof.errors import failure_line
from .inputs import on_refused, refused_reason

# Inputs whose container is hidden when the category does not use them (the first call's fields
# sit in #case-calls, hidden as a whole for no_call and ask).
_OWN_LABEL = ("system", "mock", "forbidden", "include", "exclude", "variants")


class CaseEditor:
    def __init__(self, own):
        from toolproof.authoring.case_form import EDITOR_CATEGORIES
        from toolproof.reports.page_view import CATEGORY_LABELS

        self.own = own
        self.editing: int | None = None
        for category in EDITOR_CATEGORIES:
            byid("case-category").appendChild(el("option", CATEGORY_LABELS[category], value=category))
        on(byid("case-category"), "change", lambda e: self.category_changed())
        on(byid("add-case"), "click", lambda e: self.add_case())
        on(byid("case-cancel"), "click", lambda e: self.reset_form())
        on(byid("case-add-call"), "click", lambda e: self.add_row())
        for name in ("case-args", "case-tool"):
            on(byid(name), "input", lambda e: self.check_args())
            on(byid(name), "change", lambda e: self.check_args())
        # a field that refused text over the input bound (web/boot.mjs): named, and marked
        on_refused(byid("case-form"), lambda name, size: self.refuse(
            name.removeprefix("case-") if name.startswith("case-") else "calls", refused_reason(size)))
        self.category_changed(EDITOR_CATEGORIES[0], rows=False)   # the select's first option; no rows yet

    # -- which fields show
    def category_changed(self, category: str | None = None, rows: bool = True) -> None:
        """The category sets the action and shows only the fields it uses (`rows=False`: there are
        no added call rows yet, so no trip to look for them)."""
        from toolproof.authoring.case_form import ACTION_OF, fields_for

        category = str(byid("case-category").value) if category is None else category
        used = fields_for(category)
        byid("case-action").value = ACTION_OF.get(category, "call")     # disabled: shown, never typed
        byid("case-calls").hidden = "tool" not in used
        for name in _OWN_LABEL:
            byid(f"case-{name}").closest("label").hidden = name not in used
        byid("case-form").dataset.category = category
        for box in byid("case-more").querySelectorAll(".call-mock-field") if rows else ():
            box.hidden = "mock" not in used
        self.check_args(category)

    def tools_changed(self) -> None:
        """New tools loaded: every call row offers them (a row whose tool is gone keeps none)."""
        from toolproof.authoring.draft_view import visible

        select = byid("case-tool")
        clear(select)
        for name, tool in self.own.tools.items():     # the value is the id; the text the name (+ id if shared)
            select.appendChild(el("option", visible(tool.label or name, 80), value=name))
        for row in byid("case-more").querySelectorAll(".case-call"):
            chosen = str(row.querySelector(".call-tool").value)
            self.fill_tools(row.querySelector(".call-tool"), chosen)
        self.check_args()

    def fill_tools(self, select, chosen: str = "") -> None:
        from toolproof.authoring.draft_view import visible

        clear(select)
        for name, tool in self.own.tools.items():
            option = el("option", visible(tool.label or name, 80), value=name)
            select.appendChild(option)
        if chosen in self.own.tools:
            select.value = chosen

    def add_row(self, row: dict | None = None) -> None:
        """One more expected call after the others: its tool, arguments and mock result."""
        from toolproof.authoring.case_form import fields_for

        row = row or {}
        index = byid("case-more").querySelectorAll(".case-call").length + 2
        tool = el("select", cls="call-tool", aria_label=f"Call {index}: tool")
        self.fill_tools(tool, row.get("tool", ""))
        args = el("textarea", cls="call-args", rows="2", spellcheck="false", aria_label=f"Call {index}: arguments (JSON)")
        args.value = row.get("args", "")
        mock = el("textarea", cls="call-mock", rows="2", spellcheck="false", aria_label=f"Call {index}: mock result (JSON)")
        mock.value = row.get("mock", "")
        remove = el("button", "Remove", type="button", cls="button secondary small-button call-remove",
                    aria_label=f"Remove call {index}")
        mock_field = el("label", f"Call {index}: mock result (JSON)", cls="call-mock-field", children=[mock])
        mock_field.hidden = "mock" not in fields_for(str(byid("case-category").value))
        node = el("div", cls="case-call", data_index=str(index), children=[
            el("label", f"Call {index}: tool", children=[tool]),
            el("label", f"Call {index}: arguments (JSON)", children=[args]), mock_field, remove])
        on(remove, "click", lambda e: self.remove_row(node))
        byid("case-more").appendChild(node)

    def remove_row(self, node) -> None:
        """Remove one call; the calls after it move up, numbered and labelled again."""
        node.remove()
        rows = self.form()["more"]
        clear(byid("case-more"))
        for row in rows:
            self.add_row(row)

    # -- the form
    def form(self) -> dict:
        """Every editor field by name, as strings (a checkbox: "true" when ticked), and `more`,
        the rows of #case-more: a new field is an input #case-NAME plus its name in
        case_form.FIELDS and its place in case_from_form / form_of."""
        from toolproof.authoring.case_form import CHECKBOXES, FIELDS

        form = {}
        for name in FIELDS:     # as the answered event saw it (dom.seen: Add case, clicked), else live
            value = seen(f"case-{name}")
            if name in CHECKBOXES:
                value = value if isinstance(value, bool) else bool(byid(f"case-{name}").checked)
                form[name] = "true" if value else ""
            else:
                form[name] = value if isinstance(value, str) else str(byid(f"case-{name}").value)
        form["more"] = [{"tool": str(row.querySelector(".call-tool").value),
                         "args": str(row.querySelector(".call-args").value),
                         "mock": str(row.querySelector(".call-mock").value)}
                        for row in byid("case-more").querySelectorAll(".case-call")]
        return form

    def check_args(self, category: str | None = None) -> None:
        """The live check: the grader's compiled checker on the first call's arguments as typed."""
        from toolproof.authoring.case_form import ACTION_OF, args_findings, args_from_text
        from toolproof.errors import ToolProofError

        node = byid("case-args-check")
        category = str(byid("case-category").value) if category is None else category
        # no trip for the tool when there is none to check (the editor's start: no tools yet)
        tool = str(byid("case-tool").value) if ACTION_OF.get(category) == "call" and self.own.tools else None
        if tool not in self.own.tools:
            node.textContent, node.className = "", "args-check small"
            return
        try:
            findings = args_findings(self.own.tools[tool], args_from_text(str(byid("case-args").value)))
        except ToolProofError as exc:
            node.textContent, node.className = f"Not a JSON object: {exc.reason}", "args-check small bad"
            return
        except Exception as exc:     # noqa: BLE001 - e.g. a field too big for one read: said, not raised
            node.textContent, node.className = f"Not checked: {failure_line(exc)}", "args-check small bad"
            return
        if findings:
            text = "; ".join(f"{f.path}: {f.message}" for f in findings[:3])
            node.textContent, node.className = f"Does not validate against {tool}: {text}", "args-check small bad"
        else:
            node.textContent, node.className = f"Valid against {tool}'s schema.", "args-check small ok"

    def add_case(self) -> None:
        from toolproof.authoring.case_form import CaseProblem, case_from_form, check_case
        from toolproof.authoring.draft import no_room, save_case

        draft, index = self.own.draft, self.editing
        cases, tools = draft.cases, dict(draft.tools)
        previous = cases[index] if index is not None else None
        others = [c for i, c in enumerate(cases) if i != index]
        _, suite_schema = self.own.schemas()
        try:
            if no_room(draft, index):
                raise CaseProblem("case", no_room(draft, index))
            case = case_from_form(self.form(), list(tools), previous, names={i: t.name for i, t in tools.items()})
            check_case(case, others, tools, suite_schema)
        except CaseProblem as exc:
            self.refuse(exc.field, exc.reason)
            return
        except Exception as exc:     # noqa: BLE001 - e.g. the form too big for one read: one line
            self.refuse("case", failure_line(exc))
            return
        self.own.apply(save_case(draft, case, index))      # resets this form, then says so

    def refuse(self, field: str, reason: str) -> None:
        node = byid("case-error")
        node.textContent = f"{field}: {reason}"
        node.dataset.field = field
        self.refuse_clear(keep_message=True)
        target = byid("case-more") if field == "calls" else byid(f"case-{field}") if field != "case" else None
        if target is not None:
            target.setAttribute("aria-invalid", "true")

    def edit_case(self, index: int) -> None:
        from toolproof.authoring.case_form import CHECKBOXES, form_of

        form = form_of(self.own.cases[index])
        if form is None:
            return
        # the case fills the form, except what the user typed after clicking Edit (dom.fill)
        fill(byid("case-category"), form["category"])
        self.category_changed()
        for name, value in form.items():
            if name == "more":
                continue
            if name in CHECKBOXES:
                fill(byid(f"case-{name}"), value == "true", "checked")
            else:
                fill(byid(f"case-{name}"), value)
        clear(byid("case-more"))
        for row in form["more"]:
            self.add_row(row)
        self.editing = index
        byid("add-case").textContent = "Save case"
        byid("case-cancel").hidden = False
        self.check_args()

    def case_deleted(self) -> None:
        if self.editing is not None:
            self.reset_form()

    def reset_form(self) -> None:
        self.editing = None
        for name in ("id", "lang", "prompt", "phrasings", "system", "args", "mock", "critical", "optional", "absent",
                     "loose", "accept", "forbidden", "include", "exclude", "variants"):
            fill(byid(f"case-{name}"), "")           # what the user typed since the click stays
        fill(byid("case-exact"), False, "checked")
        clear(byid("case-more"))
        byid("add-case").textContent = "Add case"
        byid("case-cancel").hidden = True
        self.refuse_clear()
        self.category_changed()

    def refuse_clear(self, *, keep_message: bool = False) -> None:
        from toolproof.authoring.case_form import FIELDS

        if not keep_message:
            byid("case-error").textContent = ""
        for name in FIELDS:
            byid(f"case-{name}").removeAttribute("aria-invalid")
        byid("case-more").removeAttribute("aria-invalid")
