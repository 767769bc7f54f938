"""The page's Compare section: two runs (kept runs, results files, or the live result) compared exactly as
`python -m toolproof compare A B --format json` compares them, with flip rows, deltas and their
intervals, `#export-compare` downloading that JSON byte for byte and `#export-compare-html` what
`compare A B --format html` prints, each named for both runs. An edge module (DOM, files).
"""
from __future__ import annotations

from .card.arms import baseline_document
from .dom import byid, clear, download, el, on, scroller, task

_LIVE: dict = {"document": None}


def remember_live(document: dict) -> None:
    """Called when a live result is shown, so "Use the live result" can compare it (page/main.py
    hands it to the live controller)."""
    _LIVE["document"] = document


class CompareView:
    """The #compare section: slots A and B, the comparison, its export."""

    def __init__(self, bundle, kept, worlds: dict | None = None):
        self.bundle = bundle
        self.worlds = dict(worlds or {})   # world id -> World: a run's scenarios are graded against them
        self.kept = kept               # the kept runs' store (page/runs.py): load_run(id) -> document
        self.docs: dict = {"a": None, "b": None}
        self.names: dict = {"a": "", "b": ""}
        self.comparison: dict | None = None
        self.compared: tuple = ({}, {})   # the two documents the comparison was made of (its file names)
        for slot in ("a", "b"):
            on(byid(f"compare-{slot}"), "change",
               lambda e, s=slot: task(self.load(s, e.target.files), self.fail))
            on(byid(f"compare-{slot}-run"), "change",
               lambda e, s=slot: task(self.pick(s, str(e.target.value)), self.fail))
        on(byid("compare-use-live"), "click", lambda e: self.use_live())
        on(byid("compare-mixed"), "change", lambda e: self.update())
        on(byid("export-compare"), "click", lambda e: self.export("json"))
        on(byid("export-compare-html"), "click", lambda e: self.export("html"))

    def message(self, text: str, *, bad: bool = False) -> None:
        node = byid("compare-message")
        node.textContent = text
        node.className = "run-message bad" if bad else "run-message"

    async def load(self, slot: str, files) -> None:
        from toolproof.datafiles import json_from_text, refuse_larger
        from toolproof.errors import ToolProofError

        self.docs[slot] = None
        if files.length:
            file = files.item(0)
            self.names[slot] = str(file.name)
            try:
                refuse_larger(int(file.size), str(file.name))       # before its text is read
                self.docs[slot] = json_from_text(str(await file.text()), str(file.name))
            except ToolProofError as exc:
                self.fail(exc.line())
                return
        self.update()

    def offer(self, rows: list[dict]) -> None:
        """The kept runs as choices for A and B (called whenever the list changes)."""
        from toolproof.reports.kept_runs import row_texts

        for slot in ("a", "b"):
            select = byid(f"compare-{slot}-run")
            chosen = str(select.value)
            clear(select)
            select.appendChild(el("option", "(choose a kept run)", value=""))
            for row in rows:
                texts = row_texts(row)
                select.appendChild(el("option", f"{texts['name']} · {texts['meta']} · {texts['score']}",
                                      value=row["id"]))
            select.value = chosen if any(r["id"] == chosen for r in rows) else ""
        byid("compare").dataset.runs = str(len(rows))

    async def pick(self, slot: str, run_id: str) -> None:
        self.docs[slot] = None
        if run_id:
            try:
                self.docs[slot] = await self.kept.load_run(run_id)
            except Exception as exc:     # noqa: BLE001 - deleted meanwhile, or storage failed
                self.fail(f"The kept run cannot be read back ({exc.__class__.__name__}).")
                return
            select = byid(f"compare-{slot}-run")
            self.names[slot] = str(select.options.item(select.selectedIndex).textContent)[:120]
        self.update()

    def use_live(self) -> None:
        if _LIVE["document"] is None:
            self.message("No live result yet: run a model first, then compare it.", bad=True)
            return
        self.docs["b"], self.names["b"] = _LIVE["document"], "live result"
        self.update()

    def exportable(self, yes: bool) -> None:
        for name in ("export-compare", "export-compare-html"):
            byid(name).disabled = not yes

    def fail(self, line: str) -> None:
        self.comparison = None
        self.exportable(False)
        clear(byid("compare-result"))
        byid("compare").dataset.compare = "error"
        self.message(line, bad=True)

    def update(self) -> None:
        from toolproof.datafiles import format_schema
        from toolproof.errors import ToolProofError
        from toolproof.scoring.comparison import compare_runs, graded_run

        if self.docs["a"] is None or self.docs["b"] is None:
            self.comparison = None           # no export of a comparison that is no longer shown
            self.exportable(False)
            self.message("Choose run A and run B (results files or JSON exports of live runs).")
            return
        b = self.bundle
        try:
            # a results file with arms is compared by its baseline, as `compare` without --arm does
            runs = [graded_run(baseline_document(self.docs[s], self.names[s]), b.cases, b.tools,
                               format_schema("transcripts"), self.names[s], worlds=self.worlds) for s in ("a", "b")]
            self.comparison = compare_runs(*runs, allow_mixed=bool(byid("compare-mixed").checked))
            self.compared = (self.docs["a"], self.docs["b"])
        except ToolProofError as exc:
            self.fail(exc.line())
            return
        self.render()

    def render(self) -> None:
        from toolproof.reports.comparison import render_comparison_text, wording_lines

        root = byid("compare-result")
        clear(root)
        summary = render_comparison_text(self.comparison).split("\n\n")[0].splitlines()[1:]
        root.appendChild(el("ul", cls="compare-summary", children=[el("li", line) for line in summary]))
        root.appendChild(self._categories())
        root.appendChild(self._flips())
        wording = wording_lines(self.comparison["comparison"])      # two runs of several phrasings
        if wording:
            root.appendChild(el("pre", "\n".join(wording[1:]), cls="compare-wording small", id="compare-wording"))
        self.exportable(True)
        byid("compare").dataset.compare = "ready"
        self.message("Compared. The exports are exactly what python -m toolproof compare A B --format json "
                     "and --format html print.")

    def _categories(self):
        from toolproof.reports.scorecard import percent
        from toolproof.reports.page_view import CATEGORY_LABELS
        from toolproof.scoring.comparison import level_label

        c = self.comparison["comparison"]
        rows = [el("tr", data_category=k, children=[
            el("th", CATEGORY_LABELS.get(k, k), scope="row"), el("td", percent(r["a"]), cls="num"),
            el("td", percent(r["b"]), cls="num"), el("td", f"{100 * r['delta']:+.1f}", cls="num delta"),
            el("td", f"{100 * r['low']:+.1f} to {100 * r['high']:+.1f}", cls="num")])
            for k, r in c["categories"].items()]
        ci = f"{level_label(c['intervals']['level'])} CI over cases"
        head = el("tr", children=[el("th", t, scope="col") for t in ("Category", "A", "B", "Δ (points)", ci)])
        return scroller("Category scores of A and B", el("table", cls="categories compare-table", children=[
            el("thead", children=[head]), el("tbody", children=rows)]))

    def _flips(self):
        from toolproof.reports.page_view import flip_rows

        rows = [el("div", cls=f"flip-row flip-{r['flip']}", data_case_id=r["id"], data_from=r["from"],
                   data_to=r["to"], children=[
                       el("code", r["id"], cls="case-id"), el("span", r["flip"], cls="flip-kind"),
                       el("span", f"{r['from']} → {r['to']}"), el("span", r["text"], cls="muted")])
                for r in flip_rows(self.comparison)]
        return el("div", cls="flips", children=[el("h3", f"Flipped cases ({len(rows)})")] + (
            rows or [el("p", "No case's verdict went from PASS to another or back (among cases graded as often in A as in B).", cls="muted")]))

    def export(self, fmt: str) -> None:
        from toolproof.reports.comparison import comparison_json
        from toolproof.reports.file_names import comparison_file_name
        from toolproof.reports.html_comparison import comparison_html

        if self.comparison is None:
            return
        text, mime = (comparison_json, "application/json") if fmt == "json" else (comparison_html, "text/html")
        download(comparison_file_name(*self.compared, fmt), text(self.comparison), mime)
