"""The scorecard's Cases section: filters, one row per case, and each row's request/response detail.

A row shows a scorecard "cases" entry (already graded and redacted); its detail is built on first
open from the case, the tools and the transcript. The live feed shows the same rows (`case_row`),
handed to the live controller by page/main.py. Nothing here grades, and it never imports another
panel. An edge module (DOM).
"""
from __future__ import annotations

from typing import Callable

from .dom import breakable, el, on


class CaseList:
    """One scorecard's case list. `card` gives the view's card as it is now (a weight change makes
    a new one); `context` holds the cases, tools and transcripts by id."""

    def __init__(self, card: Callable[[], dict], context: dict, kind: str):
        from toolproof.reports.page_view import id_prefix

        self.card, self.context, self.kind = card, context, kind
        self.prefix = id_prefix(kind)
        self.filters = {"category": "all", "verdict": "all", "flaky": "all"}
        self.rows: dict = {}
        self.shown = None

    def section(self):
        """The Cases section: the filters, the count shown, one row per case."""
        from toolproof.reports.page_view import VERDICTS, category_options

        cases = self.card()["cases"]
        category = el("select", id=f"{self.prefix}-filter-category", cls="filter",
                      aria_label="Filter by category",
                      children=[el("option", label, value=value) for value, label in category_options(cases)])
        verdict = el("select", id=f"{self.prefix}-filter-verdict", cls="filter",
                     aria_label="Filter by verdict",
                     children=[el("option", "All verdicts", value="all")]
                     + [el("option", v, value=v) for v in VERDICTS])
        flaky = el("select", id=f"{self.prefix}-filter-flaky", cls="filter", aria_label="Filter flaky cases",
                   children=[el("option", "Flaky or not", value="all"),
                             el("option", "Flaky only (repeats disagree)", value="flaky")])
        on(flaky, "change", lambda e: self.filter("flaky", e.target.value))
        self.shown = el("span", cls="muted")
        on(category, "change", lambda e: self.filter("category", e.target.value))
        on(verdict, "change", lambda e: self.filter("verdict", e.target.value))
        self.rows = {}
        listing = el("div", cls="case-list")
        for case in cases:
            row = case_row(case, expandable=True)
            self.rows[case["id"]] = row
            listing.appendChild(row)
        on(listing, "click", self.clicked)         # one handler for every row: cheap at start-up
        self.update_count(len(cases))
        return el("section", cls="block", children=[
            el("h3", "Cases"),
            el("div", cls="filters", children=[category, verdict, flaky, self.shown]),
            el("div", cls="case-head", children=[el("span", t) for t in ("Case", "Category", "Verdict", "Reasons")]),
            listing])

    def clicked(self, event) -> None:
        toggle = event.target.closest("button.toggle")
        if not toggle:                              # JS null: the click was not on a toggle
            return
        row = toggle.closest(".case-row")
        self.toggle(row.dataset.caseId, row.querySelector(".case-detail"), toggle)

    def toggle(self, case_id: str, detail, toggle) -> None:
        opening = detail.hasAttribute("hidden")
        if opening and not detail.firstChild:
            self.fill_detail(case_id, detail)       # built on first open: start-up stays small
        if opening:
            detail.removeAttribute("hidden")
        else:
            detail.setAttribute("hidden", "")
        toggle.setAttribute("aria-expanded", "true" if opening else "false")

    def fill_detail(self, case_id: str, detail) -> None:
        from toolproof.reports.page_view import pretty, turn_views

        case = self.context["cases"][case_id]
        transcript = self.context["transcripts"][case_id]
        detail.appendChild(el("p", case.title, cls="case-title"))
        if case.why:
            detail.appendChild(el("p", case.why, cls="muted small"))
        note = transcript.raw.get("note")
        if note and self.kind == "fixture":
            detail.appendChild(el("p", f"Fixture note: {note}", cls="fixture-note small"))
        calls = [c for c in self.card()["cases"] if c["id"] == case_id][0]["calls"]
        if calls:
            detail.appendChild(el("h4", "Calls as graded"))
            detail.appendChild(el("pre", pretty(calls), cls="json"))
        for view in turn_views(case, self.context["tools"], transcript):
            detail.appendChild(el("h4", f"Turn {view['turn']}: request ({view['request_note']})"))
            detail.appendChild(el("pre", view["request"], cls="json"))
            if view["error"] is not None:
                detail.appendChild(el("h4", f"Turn {view['turn']}: request failed"))
                detail.appendChild(el("pre", pretty(view["error"]), cls="json error"))
            else:
                detail.appendChild(el("h4", f"Turn {view['turn']}: response"))
                detail.appendChild(el("pre", view["response"], cls="json"))

    def filter(self, key: str, value: str) -> None:
        from toolproof.reports.page_view import visible_cases

        self.filters[key] = value
        shown = set(visible_cases(self.card()["cases"], **self.filters))
        for case_id, row in self.rows.items():
            if case_id in shown:
                row.removeAttribute("hidden")
            else:
                row.setAttribute("hidden", "")
        self.update_count(len(shown))

    def update_count(self, n: int) -> None:
        self.shown.textContent = f"{n} of {len(self.card()['cases'])} cases shown"


def case_row(case: dict, *, expandable: bool):
    """One case as a row: id, category, verdict, reasons (a scorecard "cases" entry, redacted);
    with a toggle and an empty detail panel, filled on first open, when expandable."""
    from toolproof.reports.page_view import CATEGORY_LABELS

    reasons = el("ul", cls="reasons", children=[el("li", r) for r in case["reasons"]])
    if case["lenient"]["verdict"] != case["verdict"]:
        reasons.appendChild(el("li", f"lenient: {case['lenient']['verdict']} once strings are cast "
                                     "to the schema's types", cls="lenient-note"))
    for warning in case.get("warnings", []):       # e.g. the server may not have shown the tools
        reasons.appendChild(el("li", f"warning: {warning}", cls="warning-note"))
    repeats = case.get("repeats", [case["verdict"]])
    if len(repeats) > 1:
        reasons.appendChild(el("li", f"repeats: {' '.join(repeats)} ({case['passes']} of {len(repeats)} pass"
                                     + (", flaky)" if case.get("flaky") else ")"), cls="repeats-note"))
    toggle = el("button", "Request / response", type="button", cls="link toggle",
                aria_expanded="false") if expandable else None
    detail = el("div", cls="case-detail", hidden="") if expandable else None
    return el("article", cls="case-row", data_case_id=case["id"], data_verdict=case["verdict"],
              data_category=case["category"], data_flaky="true" if case.get("flaky") else "false", children=[
                  el("div", cls="case-main", children=[
                      breakable("code", case["id"], cls="case-id"),
                      el("span", CATEGORY_LABELS[case["category"]], cls="case-category"),
                      el("span", case["verdict"], cls=f"badge verdict-{case['verdict'].lower()}"),
                      el("div", cls="case-reasons", children=[reasons, toggle]),
                  ]),
                  detail])
