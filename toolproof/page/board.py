"""The page's Leaderboard section (#board): results files (uploaded, handed in by page/main.py as
kept runs, or the page's finished live run) ranked exactly as `python -m toolproof board ...`
ranks them, with sortable columns, interval whiskers, the pairwise grid and three exports
(`#export-board-json`, `#export-board-md`, `#export-board-html`) equal byte for byte to the
terminal's `board --format json|markdown|html` for the same files in the same order.

An edge module (DOM, files). The ranking, tests and renderings are scoring/board.py's and
reports/board.py's; everything shown goes through textContent (SVG through createElementNS).
"""
from __future__ import annotations

from .card.arms import arm_runs
from .dom import byid, clear, download, el, fill, on, scroller, svg, task
from toolproof.plurals import counted

SORTS = {        # column key -> (header, sort key on a board row, highest first?)
    "rank": ("Rank", lambda r: (r["rank"]["best"], r["rank"]["worst"]), False),
    "name": ("Run", lambda r: r["_name"].lower(), False),
    "date": ("Date", lambda r: str(r.get("created") or ""), True),
    "graded": ("Cases graded", lambda r: r["cases"]["graded"], True),
    "score": ("Score", lambda r: -1 if r["score"] is None else r["score"], True),
    "error": ("Error", lambda r: r["error_rate"] or 0, False),
    "usd": ("USD", lambda r: float("inf") if r["cost"]["usd"] is None else r["cost"]["usd"], False),
    "p50": ("p50 ms", lambda r: float("inf") if r["cost"]["latency_p50_ms"] is None else r["cost"]["latency_p50_ms"],
            False),
}


class BoardView:
    """The #board section. `set_runs` takes [(results document, name), ...] (the kept runs);
    uploads follow them, then the live result when added."""

    def __init__(self, bundle, worlds: dict | None = None):
        self.bundle = bundle
        self.worlds = dict(worlds or {})   # world id -> World: a run's scenarios are graded against them
        self.kept: list = []
        self.uploaded: list = []
        self.live_document = None
        self.live_added = False
        self.board: dict | None = None
        self.sort = "rank"
        self.flipped = False          # the active column clicked again: the other direction
        on(byid("board-files"), "change", lambda e: task(self.load(e.target.files), self.fail))
        on(byid("board-mixed"), "change", lambda e: self.update())
        on(byid("board-use-live"), "click", lambda e: self.add_live())
        on(byid("board-clear"), "click", lambda e: self.clear_runs())
        on(byid("board-result"), "click", self.clicked)       # one listener for the sort buttons
        on(byid("export-board-json"), "click", lambda e: self.export("json"))
        on(byid("export-board-md"), "click", lambda e: self.export("markdown"))
        on(byid("export-board-html"), "click", lambda e: self.export("html"))

    def set_runs(self, documents: list, note: str = "") -> None:
        """The runs kept in this browser (page/main.py feeds them): [(document, name), ...]; `note`
        (what was left out of them) follows the ranking's own line unless ranking failed."""
        self.kept = [(doc, str(name)) for doc, name in documents]
        self.update()
        if note and byid("board").dataset.board != "error":
            line = byid("board-message")
            line.textContent = f"{line.textContent} {note}".strip()

    def remember_live(self, document: dict) -> None:
        """Called when a live result is shown, so "Add the live result" can rank it."""
        self.live_document = document

    def add_live(self) -> None:
        if self.live_document is None:
            self.message("No live result yet: run a model first, then add it.", bad=True)
            return
        self.live_added = True
        self.update()

    def clear_runs(self) -> None:
        self.uploaded, self.live_added = [], False
        fill(byid("board-files"), "")        # files chosen since the click stay chosen
        self.update()

    def message(self, text: str, *, bad: bool = False) -> None:
        node = byid("board-message")
        node.textContent = text
        node.className = "run-message bad" if bad else "run-message"

    async def load(self, files) -> None:
        from toolproof.datafiles import json_from_text, refuse_larger
        from toolproof.errors import ToolProofError

        chosen = []
        for i in range(files.length):
            file = files.item(i)
            try:
                refuse_larger(int(file.size), str(file.name))       # before its text is read
                chosen.append((json_from_text(str(await file.text()), str(file.name)), str(file.name)))
            except ToolProofError as exc:
                self.fail(exc.line())
                return
        self.uploaded = chosen
        self.update()

    def runs(self) -> list:
        live = [(self.live_document, "live result")] if self.live_added and self.live_document is not None else []
        return self.kept + self.uploaded + live

    def fail(self, line: str) -> None:
        self.board = None
        for name in ("json", "md", "html"):
            byid(f"export-board-{name}").disabled = True
        clear(byid("board-result"))
        byid("board").dataset.board = "error"
        self.message(line, bad=True)

    def update(self) -> None:
        from toolproof.datafiles import format_schema
        from toolproof.errors import ToolProofError
        from toolproof.scoring.board import build_board

        runs = self.runs()
        if not runs:
            self.board = None
            clear(byid("board-result"))
            byid("board").dataset.board = "empty"
            self.message("Choose one or more results files (or JSON exports of live runs) of the same suite.")
            return
        b = self.bundle
        byid("board").dataset.board = "working"
        try:
            # a results file with arms: one run per arm that ran, as `board` ranks it (card/arms.py)
            self.board = build_board(arm_runs(runs), b.cases, b.tools, format_schema("transcripts"),
                                     allow_mixed=bool(byid("board-mixed").checked), worlds=self.worlds)
        except ToolProofError as exc:
            self.fail(exc.line())
            return
        self.render()

    def render(self) -> None:
        from toolproof.reports.board import headline

        root = byid("board-result")
        clear(root)
        top = headline(self.board)
        wording = self.board["suite"].get("phrasings_note")       # shown once, below, in bold
        root.appendChild(el("ul", cls="compare-summary", children=[el("li", line) for line in top if line != wording]))
        for key in ("note", "phrasings_note"):
            if self.board["suite"].get(key):
                root.appendChild(el("p", self.board["suite"][key], cls="board-mixed-note"))
        root.appendChild(scroller("Ranked runs, one row each", self._table()))
        if self.board.get("unranked"):
            root.appendChild(self._unranked())
        if self.board["pairs"]:
            root.appendChild(self._grid())
        for name in ("json", "md", "html"):
            byid(f"export-board-{name}").disabled = False
        byid("board").dataset.board = "ready"
        n, apart = len(self.board["runs"]), len(self.board["unranked"])
        aside = f" ({apart} not ranked: no score)" if apart else ""
        self.message(f"Ranked {counted(n, 'run')}{aside}. The exports are exactly what python -m toolproof board ... prints.")

    def _table(self):
        from toolproof.reports.board import (cases_cell, has_scenarios, interval, num, pass_k, pct, run_date, run_name,
                                             score_cell, usd)
        from toolproof.reports.scenarios import BOARD_HEAD, board_cell
        from toolproof.errors import clip
        from toolproof.safe_text import printable

        scenarios = has_scenarios(self.board)       # the exports' last column, when a run has scenarios
        _, key, high_first = SORTS[self.sort]
        descending = high_first != self.flipped
        order = "descending" if descending else "ascending"

        def header(column: str, label: str):
            if column != self.sort:
                return el("th", scope="col", children=[el("button", label, type="button", cls="board-sort", data_key=column)])
            return el("th", scope="col", aria_sort=order, children=[el(
                "button", type="button", cls="board-sort active", data_key=column,
                title="Sorted " + order + "; click again to reverse",
                children=[el("span", label), el("span", " ▼" if descending else " ▲", aria_hidden="true")])])

        head = el("tr", children=[header(column, label) for column, (label, _, _) in SORTS.items()] + [
            el("th", t, scope="col") for t in ("95% CI", "Interval (0–100)", "pass^k", "Requests")
            + ((BOARD_HEAD.capitalize(),) if scenarios else ())])
        rows = [dict(r, _name=run_name(r)) for r in self.board["runs"]]
        rows.sort(key=key, reverse=descending)
        body = []
        for r in rows:
            i = r.get("interval") or {}
            body.append(el("tr", cls="board-row", data_run_id=r["id"], children=[
                el("td", r["rank"]["label"], cls="num board-rank"), el("td", cls="board-name", children=[
                    el("code", r["id"], cls="board-id"), el("span", printable(clip(r["_name"], 200)))]),
                el("td", run_date(r)), el("td", cases_cell(r), cls="num"),
                el("td", score_cell(r), cls="num board-score"), el("td", pct(r["error_rate"]) + "%", cls="num"),
                el("td", usd(r["cost"]["usd"]), cls="num"), el("td", num(r["cost"]["latency_p50_ms"]), cls="num"),
                el("td", interval(r), cls="num"), el("td", children=[whisker(r["score"], i.get("low"), i.get("high"))]),
                el("td", pass_k(r), cls="num"), el("td", str(r["cost"]["requests"]), cls="num")]
                + ([el("td", board_cell(r), cls="num board-scenarios")] if scenarios else [])))
        byid("board").dataset.sort = self.sort
        byid("board").dataset.order = order
        return el("table", cls="board-table", children=[el("thead", children=[head]), el("tbody", children=body)])

    def _unranked(self):
        """The runs with no score, apart from the ranking, each with why (the exports' table)."""
        from toolproof.reports.board import UNRANKED_TITLE, cases_cell, run_date, run_name
        from toolproof.errors import clip
        from toolproof.safe_text import printable

        head = el("tr", children=[el("th", t, scope="col") for t in ("Run", "Date", "Cases graded", "Why")])
        body = [el("tr", cls="board-row unranked", data_run_id=r["id"], children=[
            el("td", cls="board-name", children=[el("code", r["id"], cls="board-id"),
                                                  el("span", printable(clip(run_name(r), 200)))]),
            el("td", run_date(r)), el("td", cases_cell(r), cls="num"),
            el("td", r["no_score"], cls="board-why")]) for r in self.board["unranked"]]
        return el("div", cls="board-unranked", children=[
            el("h3", UNRANKED_TITLE),
            scroller("Runs not ranked", el("table", cls="board-table", children=[
                el("thead", children=[head]), el("tbody", children=body)]))])

    def clicked(self, event) -> None:
        button = event.target.closest(".board-sort")
        if button:
            self.sort_by(str(button.dataset.key))

    def sort_by(self, key: str) -> None:
        """Sort by a column; the active one again reverses its direction."""
        if key in SORTS and self.board is not None:
            self.flipped = not self.flipped if key == self.sort else False
            self.sort = key
            self.render()

    def _grid(self):
        from toolproof.reports.board import grid_delta

        runs = self.board["runs"]
        by_pair = {}
        for p in self.board["pairs"]:
            by_pair[(p["a"], p["b"])] = (p, 1)
            by_pair[(p["b"], p["a"])] = (p, -1)
        head = el("tr", children=[el("th", "row \\ column", scope="col")] + [el("th", r["id"], scope="col") for r in runs])
        body = []
        for row in runs:
            cells = [el("th", row["id"], scope="row")]
            for col in runs:
                if row is col:
                    cells.append(el("td", "—", cls="board-self"))
                    continue
                p, sign = by_pair[(row["id"], col["id"])]
                text = "n/a" if p["delta"] is None else grid_delta(sign, p["delta"]) + (" *" if p["significant"] else "")
                cells.append(el("td", text, cls="board-pair" + (" significant" if p["significant"] else ""),
                                data_a=row["id"], data_b=col["id"],
                                data_significant="true" if p["significant"] else "false",
                                title=f"p = {p['p_value']}, Holm-adjusted {p['p_holm']}"))
            body.append(el("tr", children=cells))
        note = el("p", "Each cell: the column run's score minus the row run's, in points; * marks a difference that "
                       "stays significant after Holm's correction over every pair.", cls="muted small")
        return el("div", cls="board-grid", children=[
            el("h3", "Pairwise: which differences are real"),
            scroller("Pairwise differences",
                     el("table", cls="board-pairs", children=[el("thead", children=[head]), el("tbody", children=body)])),
            note])

    def export(self, form: str) -> None:
        from toolproof.reports.board import board_json, render_board_markdown
        from toolproof.reports.file_names import board_file_name
        from toolproof.reports.html_board import board_html

        if self.board is None:
            return
        text, ext, mime = {"json": (board_json, "json", "application/json"),
                           "markdown": (render_board_markdown, "md", "text/markdown"),
                           "html": (board_html, "html", "text/html")}[form]
        download(board_file_name(self.board, ext), text(self.board), mime)


def whisker(value, low, high, width: int = 140):
    """The score's interval on 0-100 as a small SVG (line, caps, dot)."""
    def x(v: float) -> float:
        return round(4 + (width - 8) * min(100.0, max(0.0, v)) / 100, 1)

    node = svg("svg", width=width, height=14, viewBox=f"0 0 {width} 14", class_="board-whisker", role="img",
               aria_label="interval")
    node.appendChild(svg("line", x1=4, y1=7, x2=width - 4, y2=7, stroke="#d8dde6"))
    if low is not None and high is not None:
        node.appendChild(svg("line", x1=x(low), y1=7, x2=x(high), y2=7, stroke="#2f5bd3", stroke_width=2,
                             class_="board-interval"))
        for end in (low, high):
            node.appendChild(svg("line", x1=x(end), y1=3, x2=x(end), y2=11, stroke="#2f5bd3"))
    if value is not None:
        node.appendChild(svg("circle", cx=x(value), cy=7, r=3.5, fill="#1d2433"))
    return node
