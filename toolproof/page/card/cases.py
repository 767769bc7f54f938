"""The scorecard's Cases section: filters, one row per case, and each row's detail: the expected
calls beside the actual ones, the conversation, and the raw request/response JSON one click away;
for a case sent in several phrasings or repeats, a picker for which conversation the detail shows.

A row shows a scorecard "cases" entry (already graded and redacted); its detail is built on first
open from the case, the tools and the transcript (reports/case_view.py builds what it shows). The live feed and the
kept runs show the same rows (`case_row`). A part of the card (page/card/): nothing here grades,
and it never imports a panel. An edge module (DOM).
"""
from __future__ import annotations

from typing import Callable

from toolproof.plurals import counted
from ..dom import breakable, clear, el, on, scroller


class CaseList:
    """One scorecard's case list. `card` gives the view's card as it is now (a weight change makes
    a new one); `context` holds the cases, tools and transcripts by id; `graded` (scoring/evaluate's
    Graded, every phrasing and repeat) gives each case's conversations for the detail's picker."""

    def __init__(self, card: Callable[[], dict], context: dict, kind: str, graded=None):
        from toolproof.reports.page_view import id_prefix

        self.card, self.context, self.kind, self.graded = card, context, kind, graded
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
        from toolproof.reports.robustness import dependent_ids

        dependent = dependent_ids(self.card())
        for case in cases:
            row = case_row(case, expandable=True, dependent=dependent)
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
        """The case's title, then (several conversations) the picker and the line saying which
        conversation is shown, then that conversation: the expected calls beside the actual ones,
        the exchange, the raw request and response JSON one click away (built on first open)."""
        from toolproof.reports.case_view import conversation_line, conversations_of, graded_entry, row_conversation

        entry = self.entry(case_id)
        if entry is not None and entry.get("category") == "scenario":    # a scenario: its own detail
            draw = self.scenario_drawer(case_id, entry)
        else:
            draw = self.case_drawer(case_id, detail)
        view = el("div", cls="conversation-view")
        found = self._conversations(case_id)
        if not found:            # no graded results to hand: the first transcript and the row's entry
            draw(view, None, None)
            detail.appendChild(view)
            return
        conversations, row = conversations_of(*found[:2]), found[2]
        reported = row_conversation(conversations, row)
        line = el("p", cls="conversation-shown small", aria_live="polite")

        def show(index: int) -> None:
            chosen = conversations[index]
            line.textContent = conversation_line(conversations, index, reported)
            view.dataset.phrasing, view.dataset.repeat = chosen.phrasing, str(chosen.repeat + 1)
            clear(view)
            draw(view, chosen, graded_entry(chosen.result) if index != reported else None)

        if len(conversations) > 1:
            picker = el("select", cls="filter conversation-picker", aria_label=f"Conversation of case {case_id} shown",
                        children=[el("option", c.label, value=str(i), **({"selected": ""} if i == reported else {}))
                                  for i, c in enumerate(conversations)])
            on(picker, "change", lambda e: show(int(e.target.value)))
            what = "repeat" if entry is not None and entry.get("category") == "scenario" else "phrasing × repeat"
            detail.appendChild(el("label", cls="conversation-pick small", children=[
                el("span", f"{counted(len(conversations), 'conversation')} ({what}): "), picker]))
            detail.appendChild(line)
        detail.appendChild(view)
        show(reported)

    def case_drawer(self, case_id: str, detail):
        """The case's title and why into `detail`; returns draw(view, conversation | None, its own
        entry | None (None: the row's)) for one conversation of the case."""
        from toolproof.reports.case_view import graded_entry, sent_as

        case = self.context["cases"][case_id]
        detail.appendChild(el("p", case.title, cls="case-title"))
        if case.why:
            detail.appendChild(el("p", case.why, cls="muted small"))

        def draw(view, chosen, own) -> None:
            if chosen is None:   # the case's first transcript and its row's calls
                transcript = self.context["transcripts"].get(case_id)
                self.show_conversation(case, transcript, self.entry(case_id)["calls"], view)
                return
            calls = (own or graded_entry(chosen.result))["calls"]
            self.show_conversation(sent_as(case, chosen.phrasing), chosen.transcript, calls, view, own)
        return draw

    def scenario_drawer(self, case_id: str, entry: dict):
        """draw(view, conversation | None, its own entry | None) for one conversation (a repeat) of a
        scenario: page/card/scenario.py's detail, of the row's entry or the repeat's own."""
        from .scenario import scenario_detail, scenario_record
        from toolproof.reports.page_view import card_name

        record = scenario_record(self.context.get("worlds", {}), entry.get("world", ""), case_id)
        name = f"{card_name(self.kind)}, scenario {case_id}"

        def draw(view, chosen, own) -> None:
            if chosen is None:
                found = (self.context.get("scenarios") or {}).get(case_id) or ()      # repeat order
                transcript = found[0] if found else None
            else:
                transcript = chosen.transcript
            view.appendChild(scenario_detail(own or entry, transcript, record, name, fixture=self.kind == "fixture"))
        return draw

    def entry(self, case_id: str) -> dict | None:
        """The card's entry of this case (or scenario)."""
        return next((c for c in self.card()["cases"] if c["id"] == case_id), None)

    def _conversations(self, case_id: str):
        """(results, transcripts, row) of one case from the view's Graded, or None without it."""
        graded = self.graded() if callable(self.graded) else self.graded
        if graded is None:
            return None
        if getattr(self, "_by_case", None) is None:
            results = {rs[0].case_id: rs for rs in graded.per_case if rs}
            rows = {r.case_id: r for r in graded.rows}
            transcripts: dict = {}
            for t in graded.transcripts:
                transcripts.setdefault(t.case_id, []).append(t)
            self._by_case = {cid: (rs, transcripts.get(cid, []), rows[cid]) for cid, rs in results.items() if cid in rows}
        return self._by_case.get(case_id)

    def show_conversation(self, case, transcript, graded: list, into, entry=None) -> None:
        """One conversation into `into` (`case` as that conversation's phrasing sent it): its reasons
        when they are not the row's (`entry`, its graded entry), a failed request's words, the calls
        compared, the exchange, the raw JSON."""
        from toolproof.reports.case_view import absent_call, call_rows, conversation, forbidden_lines, request_errors
        from toolproof.reports.page_view import card_name

        name = f"{card_name(self.kind)}, case {case.id}"
        if entry is not None:           # another conversation than the row's: its own reasons
            into.appendChild(el("h4", "Reasons in this conversation"))
            into.appendChild(el("ul", cls="reasons conversation-reasons", children=[el("li", r) for r in entry["reasons"]]))
        note = transcript.raw.get("note") if transcript is not None else None
        if note and self.kind == "fixture":
            into.appendChild(el("p", f"Fixture note: {note}", cls="fixture-note small"))
        for line in request_errors(transcript):
            into.appendChild(el("p", f"Request failed: {line}", cls="request-error"))
        into.appendChild(calls_block(call_rows(case, self.context["tools"], graded), forbidden_lines(case),
                                     case.expect.action, absent_call(transcript), name))
        into.appendChild(el("h4", "Conversation"))
        into.appendChild(conversation_list(conversation(case, transcript)))
        if transcript is not None:
            raw = el("details", cls="raw-json", children=[el("summary", "Raw request and response JSON")])
            raw.appendChild(el("p", "Calls as graded", cls="raw-head"))
            from toolproof.reports.page_view import pretty, turn_views

            raw.appendChild(scroller(f"{name}: calls as graded, JSON", tag="pre", text=pretty(graded), cls="json"))
            for view in turn_views(case, self.context["tools"], transcript):
                raw.appendChild(el("p", f"Turn {view['turn']}: request ({view['request_note']})", cls="raw-head"))
                raw.appendChild(scroller(f"{name}, turn {view['turn']}: request JSON", tag="pre", text=view["request"],
                                         cls="json"))
                if view["error"] is not None:
                    raw.appendChild(el("p", f"Turn {view['turn']}: request failed", cls="raw-head"))
                    raw.appendChild(scroller(f"{name}, turn {view['turn']}: request failed, JSON", tag="pre",
                                             text=pretty(view["error"]), cls="json error"))
                else:
                    raw.appendChild(el("p", f"Turn {view['turn']}: response", cls="raw-head"))
                    raw.appendChild(scroller(f"{name}, turn {view['turn']}: response JSON", tag="pre", text=view["response"],
                                             cls="json"))
            into.appendChild(raw)

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
        self.shown.textContent = f"{n} of {counted(len(self.card()['cases']), 'case')} shown"


ACTION_WORDS = {"call": "", "no_call": "No call: the model must answer without calling a tool.",
                "ask": "No call: the model must ask the user for what is missing."}
ROLE_LABELS = {"system": "System", "user": "User", "assistant": "Assistant", "call": "Assistant calls",
               "tool": "Tool result", "error": "Request failed", "note": "Note"}
STATUS_WORDS = {"match": "same", "mismatch": "differs", "missing": "missing", "extra": "extra"}


def calls_block(rows: list[dict], forbidden: list[str], action: str, absent: str, name: str):
    """Expected calls (.expected-call) beside the calls made (.actual-call), differing fields marked;
    `absent` stands where no call was made (case_view.absent_call: no such call, or no answer);
    `name` (card and case) starts the label of each field table, which must be unique on the page."""
    block = el("div", cls="call-compare")
    block.appendChild(el("h4", "Expected and actual calls"))
    if ACTION_WORDS.get(action):
        block.appendChild(el("p", ACTION_WORDS[action], cls="small"))
    if forbidden:
        block.appendChild(el("p", "Forbidden: " + "; ".join(forbidden), cls="small forbidden-line"))
    if not rows:
        block.appendChild(el("p", "No call expected and none made.", cls="muted small"))
    for row in rows:
        expected = el("div", cls="expected-call", children=[el("span", f"Expected call {row['index']}", cls="call-label")])
        if row["expected"] is None:
            expected.appendChild(el("p", "none: an extra call", cls="muted small"))
        else:
            expected.appendChild(el("code", row["expected"]["tool"], cls="call-tool-name"))
        actual = el("div", cls="actual-call", children=[el("span", f"Call {row['index']} made", cls="call-label")])
        if row["actual"] is None:
            actual.appendChild(el("p", absent, cls="small differs"))
        else:
            actual.appendChild(el("code", row["actual"]["tool"] + (" (another tool)" if row["tool_differs"] else ""),
                                  cls="call-tool-name" + (" differs" if row["tool_differs"] else "")))
        if row["fields"]:
            table = el("table", cls="fields call-fields", children=[el("thead", children=[el("tr", children=[
                el("th", t, scope="col") for t in ("Field", "Expected", "Actual", "Result")])])])
            body = el("tbody")
            for f in row["fields"]:
                body.appendChild(el("tr", cls=f"field-{f['status']}", data_field=f["field"], data_status=f["status"],
                                    children=[el("td", f["field"]), el("td", f["expected"]), el("td", f["actual"]),
                                              el("td", STATUS_WORDS.get(f["status"], f["status"]))]))
            table.appendChild(body)
            fields = scroller(f"{name}, call {row['index']}: expected and actual arguments", table)
        else:
            fields = None
            for side, key in ((expected, "expected"), (actual, "actual")):
                if row[key] is not None:
                    text = row[key]["fields"] if key == "expected" else row[key]["arguments"]
                    side.appendChild(el("pre", text if isinstance(text, str) else
                                        ", ".join(f"{k}: {v}" for k, v in text.items()) or "(no arguments)",
                                        cls="json call-args"))
        block.appendChild(el("div", cls="call-pair" + (" differs" if row["tool_differs"] or row["actual"] is None
                                                         or row["expected"] is None else ""),
                             children=[el("div", cls="call-sides", children=[expected, actual]), fields]))
    return block


def conversation_list(messages: list[dict]):
    """The exchange as a list of messages (.conversation), each its role and its text."""
    items = []
    for m in messages:
        label = ROLE_LABELS.get(m["role"], m["role"]) + (f" · {m['tool']}" if m["tool"] else "")
        items.append(el("li", cls=f"msg msg-{m['role']}", data_role=m["role"], children=[
            el("span", label, cls="msg-role"), el("div", m["text"], cls="msg-text")]))
    return el("ol", cls="conversation", children=items)


def case_row(case: dict, *, expandable: bool, dependent: set[str] | frozenset = frozenset()):
    """One case as a row: id, category, verdict, reasons (a scorecard "cases" entry, redacted);
    with a toggle and an empty detail panel, filled on first open, when expandable."""
    from toolproof.reports.page_view import CATEGORY_LABELS

    reasons = el("ul", cls="reasons", children=[el("li", r) for r in case["reasons"]])
    if case.get("lenient", {}).get("verdict", case["verdict"]) != case["verdict"]:     # a scenario has no lenient grade
        reasons.appendChild(el("li", f"lenient: {case['lenient']['verdict']} once strings are cast "
                                     "to the schema's types", cls="lenient-note"))
    for warning in case.get("warnings", []):       # e.g. the server may not have shown the tools
        reasons.appendChild(el("li", f"warning: {warning}", cls="warning-note"))
    repeats = case.get("repeats", [case["verdict"]])
    if len(repeats) > 1:
        reasons.appendChild(el("li", f"repeats: {' '.join(repeats)} ({case['passes']} of {len(repeats)} pass"
                                     + (", flaky)" if case.get("flaky") else ")"), cls="repeats-note"))
    from toolproof.reports.robustness import case_wording

    wording = case_wording(case, dependent)
    if wording:
        reasons.appendChild(el("li", f"by phrasing: {wording}", cls="repeats-note"))
    label = (f"Details of scenario {case['id']}: conversation turn by turn, end state, raw JSON" if case.get("world")
             else f"Details of case {case['id']}: calls, conversation, raw JSON")
    toggle = el("button", "Details", type="button", cls="link toggle", aria_expanded="false",
                aria_label=label) if expandable else None
    detail = el("div", cls="case-detail", hidden="") if expandable else None
    where = {"data_world": case["world"]} if case.get("world") else {}       # a scenario's world
    return el("article", cls="case-row", data_case_id=case["id"], data_verdict=case["verdict"], **where,
              data_category=case["category"], data_flaky="true" if case.get("flaky") else "false", children=[
                  el("div", cls="case-main", children=[
                      breakable("code", case["id"], cls="case-id"),
                      el("span", CATEGORY_LABELS[case["category"]] + (f" · {case['world']}" if case.get("world") else ""),
                         cls="case-category"),
                      el("span", case["verdict"], cls=f"badge verdict-{case['verdict'].lower()}"),
                      el("div", cls="case-reasons", children=[reasons, toggle]),
                  ]),
                  detail])
