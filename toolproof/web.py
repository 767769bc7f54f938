"""The page's edge: boots in PyScript, grades the committed fixtures and renders the scorecard.

Everything shown is built with createElement and textContent, never from HTML strings: model
text, arguments and mock results are hostile until proven otherwise. No grading logic lives
here; it calls the same `evaluate`, `scorecard` and `to_json` the terminal uses.
"""
from __future__ import annotations

import asyncio
import importlib.abc
import importlib.util
import json
import sys

import js
from pyodide.ffi import create_proxy
from pyscript import document, window

SVG = "http://www.w3.org/2000/svg"
_proxies: list = []          # event handlers must outlive this module's frames


# ---------------------------------------------------------------- DOM helpers

def el(tag: str, text: str | None = None, *, cls: str | None = None, children=(), **attrs):
    node = document.createElement(tag)
    if cls:
        node.className = cls
    if text is not None:
        node.textContent = text
    for name, value in attrs.items():
        node.setAttribute(name.rstrip("_").replace("_", "-"), str(value))
    for child in children:
        if child is not None:
            node.appendChild(child)
    return node


def svg(tag: str, **attrs):
    node = document.createElementNS(SVG, tag)
    for name, value in attrs.items():
        node.setAttribute(name.rstrip("_").replace("_", "-"), str(value))
    return node


def on(node, event: str, handler) -> None:
    proxy = create_proxy(handler)
    _proxies.append(proxy)
    node.addEventListener(event, proxy)


def clear(node) -> None:
    while node.firstChild:
        node.removeChild(node.firstChild)


def set_stage(stage: str, text: str) -> None:
    document.body.dataset.stage = stage
    document.getElementById("boot-stage").textContent = text
    for item in document.querySelectorAll("#boot .stages li"):
        order = ["runtime", "packages", "suite", "grade"]
        mine = item.dataset.stage
        item.className = "done" if order.index(mine) < order.index(stage) else (
            "active" if mine == stage else "")


async def paint() -> None:
    """Give the browser a chance to draw the progress before more Python runs."""
    await asyncio.sleep(0.01)


def download(filename: str, text: str, mime: str) -> None:
    blob = js.Blob.new([text], js.Object.fromEntries([["type", mime]]))
    url = js.URL.createObjectURL(blob)
    link = el("a", href=url, download=filename)
    document.body.appendChild(link)
    link.click()
    link.remove()
    js.setTimeout(create_proxy(lambda: js.URL.revokeObjectURL(url)), 1000)


# ---------------------------------------------------------------- the scorecard

class ScorecardView:
    """One rendered scorecard (the fixtures now, a live run later) and its controls."""

    def __init__(self, root, results: list, *, kind: str, source: dict, context: dict):
        from toolproof.score import DEFAULT_WEIGHTS

        self.root, self.results, self.kind, self.source = root, results, kind, source
        self.context = context                       # cases, tools, transcripts by id
        self.weights = dict(DEFAULT_WEIGHTS)
        self.card = self._card()
        self.filters = {"category": "all", "verdict": "all"}

    def _card(self) -> dict:
        from toolproof.score import scorecard

        return scorecard(self.results, self.weights, source=self.source)

    def prefix(self) -> str:
        return "fixture" if self.kind == "fixture" else "live"

    def render(self) -> None:
        clear(self.root)
        for part in (self._summary(), self._rates(), self._categories(), self._cases()):
            self.root.appendChild(part)

    # -- summary
    def _summary(self):
        from toolproof.report import score_text

        card, counts = self.card, self.card["counts"]
        self.score_node = el("span", score_text(card["score"]), cls="score-value")
        self.lenient_node = el("span", score_text(card["lenient"]["score"]))
        pills = el("div", cls="pills", children=[
            el("span", f"{counts[v]} {v}", cls=f"pill verdict-{v.lower()}") for v in ("PASS", "PARTIAL", "FAIL")])
        meta = el("p", f"{counts['cases']} cases · {counts['truncated']} truncated · "
                       f"{counts['request_errors']} request errors", cls="muted")
        lenient = el("p", cls="muted", children=[
            document.createTextNode("Lenient score "), self.lenient_node,
            document.createTextNode(f" · {card['lenient']['rescued']} case(s) rescued by casting "
                                    "strings to the schema's type")])
        exports = el("div", cls="exports", children=[
            el("button", "Export JSON", id=f"export-json" if self.kind == "fixture" else "export-live-json",
               type="button", cls="button"),
            el("button", "Export Markdown", id="export-md" if self.kind == "fixture" else "export-live-md",
               type="button", cls="button secondary"),
        ])
        json_button, md_button = exports.children[0], exports.children[1]
        on(json_button, "click", lambda e: self.export("json"))
        on(md_button, "click", lambda e: self.export("md"))
        score = el("div", cls="score", children=[
            el("div", "Weighted score", cls="label"),
            el("div", cls="score-line", children=[self.score_node, el("span", " / 100", cls="of")]),
        ])
        return el("div", cls="summary", children=[score, el("div", cls="summary-side", children=[
            pills, meta, lenient, exports])])

    # -- rates
    def _rates(self):
        from toolproof.report import LOWER_IS_BETTER, METRIC_HELP, percent
        from toolproof.view import METRIC_LABELS

        tiles = []
        for key, value in self.card["metrics"].items():
            direction = "lower is better" if key in LOWER_IS_BETTER else "higher is better"
            tiles.append(el("div", cls="rate", data_metric=key, children=[
                el("div", METRIC_LABELS[key], cls="rate-name"),
                el("div", percent(value), cls="rate-value"),
                el("div", f"{METRIC_HELP[key]} ({direction})", cls="rate-help"),
                el("code", key, cls="rate-key"),
            ]))
        return el("section", cls="block", children=[el("h3", "Failure rates"),
                                                     el("div", cls="rates", children=tiles)])

    # -- categories: table with weight inputs, and the chart
    def _categories(self):
        from toolproof.report import percent
        from toolproof.view import CATEGORY_LABELS

        head = el("tr", children=[el("th", t, scope="col") for t in
                                  ("Category", "Score", "Cases", "Pass", "Partial", "Fail", "Weight")])
        rows = []
        for category, row in self.card["categories"].items():
            weight = el("input", type="number", min="0", step="1", value=row["weight"],
                        cls="weight", data_category=category,
                        aria_label=f"Weight of {CATEGORY_LABELS[category]}")
            on(weight, "input", lambda e, c=category: self.set_weight(c, e.target.value))
            rows.append(el("tr", data_category=category, children=[
                el("th", CATEGORY_LABELS[category], scope="row"),
                el("td", percent(row["score"]), cls="num"),
                el("td", str(row["count"]), cls="num"),
                el("td", str(row["pass"]), cls="num"), el("td", str(row["partial"]), cls="num"),
                el("td", str(row["fail"]), cls="num"),
                el("td", children=[weight]),
            ]))
        table = el("table", cls="categories", children=[el("thead", children=[head]),
                                                       el("tbody", children=rows)])
        note = el("p", "Score = 100 × Σ(weight × category score) / Σ(weight), over the categories "
                       "in this run. Change a weight to see its effect; exports use the weights shown.",
                  cls="muted small")
        return el("section", cls="block", children=[
            el("h3", "Categories"),
            el("div", cls="categories-layout", children=[
                el("div", children=[table, note]), self._chart()])])

    def _chart(self):
        from toolproof.view import chart_bars

        geometry = chart_bars(self.card["categories"])
        chart = svg("svg", viewBox=f"0 0 {geometry['width']} {geometry['height']}", role="img",
                    cls="chart", aria_label="Category scores")
        chart.setAttribute("class", "chart")
        title = svg("title")
        title.textContent = "Category scores (0-100%)"
        chart.appendChild(title)
        for bar in geometry["bars"]:
            label = svg("text", x=bar["x"] - 8, y=bar["y"] + bar["height"] * 0.7, text_anchor="end")
            label.setAttribute("class", "chart-label")
            label.textContent = bar["label"]
            track = svg("rect", x=bar["x"], y=bar["y"], width=geometry["span"], height=bar["height"], rx=4)
            track.setAttribute("class", "chart-track")
            fill = svg("rect", x=bar["x"], y=bar["y"], width=bar["width"], height=bar["height"], rx=4)
            fill.setAttribute("class", "chart-bar")
            value = svg("text", x=bar["x"] + geometry["span"] + 8, y=bar["y"] + bar["height"] * 0.7)
            value.setAttribute("class", "chart-value")
            value.textContent = bar["text"]
            for node in (label, track, fill, value):
                chart.appendChild(node)
        return el("figure", cls="chart-box", children=[chart])

    def set_weight(self, category: str, raw: str) -> None:
        from toolproof.errors import ToolProofError
        from toolproof.report import score_text

        try:
            value = float(raw)
            candidate = {**self.weights, category: value}
            self._check(candidate)
        except (ValueError, ToolProofError):
            self.score_node.textContent = "—"
            self.root.dataset.weightsError = "true"
            return
        self.weights = candidate
        self.root.dataset.weightsError = "false"
        self.card = self._card()
        self.score_node.textContent = score_text(self.card["score"])
        self.lenient_node.textContent = score_text(self.card["lenient"]["score"])

    @staticmethod
    def _check(weights: dict) -> None:
        from toolproof.score import check_weights

        check_weights(weights)

    # -- cases
    def _cases(self):
        from toolproof.view import VERDICTS, category_options

        cases = self.card["cases"]
        category = el("select", id=f"{self.prefix()}-filter-category", cls="filter",
                      aria_label="Filter by category",
                      children=[el("option", label, value=value) for value, label in category_options(cases)])
        verdict = el("select", id=f"{self.prefix()}-filter-verdict", cls="filter",
                     aria_label="Filter by verdict",
                     children=[el("option", "All verdicts", value="all")]
                     + [el("option", v, value=v) for v in VERDICTS])
        self.shown = el("span", cls="muted")
        on(category, "change", lambda e: self.filter("category", e.target.value))
        on(verdict, "change", lambda e: self.filter("verdict", e.target.value))
        self.rows = {}
        listing = el("div", cls="case-list")
        for case in cases:
            row = self._case_row(case)
            self.rows[case["id"]] = row
            listing.appendChild(row)
        self._update_count(len(cases))
        return el("section", cls="block", children=[
            el("h3", "Cases"),
            el("div", cls="filters", children=[category, verdict, self.shown]),
            el("div", cls="case-head", children=[el("span", t) for t in ("Case", "Category", "Verdict", "Reasons")]),
            listing])

    def _case_row(self, case: dict):
        from toolproof.view import CATEGORY_LABELS

        reasons = el("ul", cls="reasons", children=[el("li", r) for r in case["reasons"]])
        if case["lenient"]["verdict"] != case["verdict"]:
            reasons.appendChild(el("li", f"lenient: {case['lenient']['verdict']} once strings are cast "
                                         "to the schema's types", cls="lenient-note"))
        toggle = el("button", "Request / response", type="button", cls="link toggle",
                    aria_expanded="false")
        detail = el("div", cls="case-detail", hidden="")
        row = el("article", cls="case-row", data_case_id=case["id"], data_verdict=case["verdict"],
                 data_category=case["category"], children=[
                     el("div", cls="case-main", children=[
                         el("code", case["id"], cls="case-id"),
                         el("span", CATEGORY_LABELS[case["category"]], cls="case-category"),
                         el("span", case["verdict"], cls=f"badge verdict-{case['verdict'].lower()}"),
                         el("div", cls="case-reasons", children=[reasons, toggle]),
                     ]),
                     detail])
        on(toggle, "click", lambda e, cid=case["id"], d=detail, t=toggle: self.toggle(cid, d, t))
        return row

    def toggle(self, case_id: str, detail, toggle) -> None:
        opening = detail.hasAttribute("hidden")
        if opening and not detail.firstChild:
            self._fill_detail(case_id, detail)       # built on first open: start-up stays small
        if opening:
            detail.removeAttribute("hidden")
        else:
            detail.setAttribute("hidden", "")
        toggle.setAttribute("aria-expanded", "true" if opening else "false")

    def _fill_detail(self, case_id: str, detail) -> None:
        from toolproof.view import pretty, turn_views

        case = self.context["cases"][case_id]
        transcript = self.context["transcripts"][case_id]
        detail.appendChild(el("p", case.title, cls="case-title"))
        if case.why:
            detail.appendChild(el("p", case.why, cls="muted small"))
        note = transcript.raw.get("note")
        if note and self.kind == "fixture":
            detail.appendChild(el("p", f"Fixture note: {note}", cls="fixture-note small"))
        calls = [c for c in self.card["cases"] if c["id"] == case_id][0]["calls"]
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
        from toolproof.view import visible_cases

        self.filters[key] = value
        shown = set(visible_cases(self.card["cases"], **self.filters))
        for case_id, row in self.rows.items():
            if case_id in shown:
                row.removeAttribute("hidden")
            else:
                row.setAttribute("hidden", "")
        self._update_count(len(shown))

    def _update_count(self, n: int) -> None:
        self.shown.textContent = f"{n} of {len(self.card['cases'])} cases shown"

    # -- exports
    def export(self, fmt: str) -> None:
        from toolproof.report import render_markdown, to_json

        stem = "toolproof-fixtures" if self.kind == "fixture" else "toolproof-live"
        if fmt == "json":
            download(f"{stem}.json", to_json(self.card), "application/json")
        else:
            download(f"{stem}.md", render_markdown(self.card), "text/markdown")


# ---------------------------------------------------------------- boot

_STAGES = js.Object.new()
window.__stages = _STAGES


def mark(stage: str) -> None:
    """Record when a start-up stage ended (benchmarks/page_load.py prints the breakdown)."""
    setattr(_STAGES, stage, js.performance.now())


class _RpdsAlias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """`import rpds` gives the pure-Python pyrsistent_as_rpds (DESIGN.md: rpds-py has no
    WebAssembly wheel). Lazy: jsonschema, and so rpds, is only imported if a schema needs it."""

    def find_spec(self, name, path=None, target=None):
        return importlib.util.spec_from_loader(name, self) if name == "rpds" else None

    def create_module(self, spec):
        return importlib.import_module("pyrsistent_as_rpds.pure")

    def exec_module(self, module):
        return None


async def boot() -> None:
    mark("python")
    sys.meta_path.append(_RpdsAlias())
    set_stage("packages", "Loading ToolProof…")
    await paint()
    from toolproof.datafiles import load_bundle
    from toolproof.evaluate import source_of
    from toolproof.grade import grade_run

    set_stage("suite", "Loading the suite and the fixture transcripts…")
    await paint()
    mark("imports")
    bundle = load_bundle()
    mark("suite")
    set_stage("grade", f"Grading {len(bundle.transcripts.transcripts)} fixture transcripts…")
    await paint()
    results = grade_run(bundle.cases, bundle.tools, bundle.transcripts.transcripts)
    context = {"cases": {c.id: c for c in bundle.cases}, "tools": bundle.tools,
               "transcripts": bundle.transcripts.transcripts}
    view = ScorecardView(document.getElementById("fixture-card"), results, kind="fixture",
                         source=source_of(bundle.transcripts), context=context)
    mark("graded")
    view.render()
    mark("rendered")
    document.getElementById("boot").setAttribute("hidden", "")
    window.__readyMs = js.performance.now()      # read by benchmarks/page_load.py
    document.body.dataset.ready = "true"
    if "selftest=1" in str(window.location.search):
        run_selftest(bundle)


def run_selftest(bundle) -> None:
    from toolproof.datafiles import format_schema
    from toolproof.selftest import run_selftest as selftest

    schemas = {name: format_schema(name) for name in ("tools", "suite", "transcripts")}
    report = selftest(bundle.documents, schemas)
    for failure in report.failures:
        js.console.error(f"FAIL {failure}")
    js.console.log(report.summary())
    out = document.getElementById("selftest-result")
    out.textContent = json.dumps(report.to_json())
    panel = document.getElementById("selftest-panel")
    panel.removeAttribute("hidden")
    document.getElementById("selftest-summary").textContent = report.summary()
    panel.className = "selftest " + ("ok" if not report.failures else "bad")


def show_boot_error(exc: BaseException) -> None:
    from toolproof.errors import ToolProofError

    message = exc.line() if isinstance(exc, ToolProofError) else f"{exc.__class__.__name__}: {exc}"
    box = document.getElementById("boot-error")
    box.textContent = f"ToolProof could not start: {message}"
    box.removeAttribute("hidden")
    document.body.dataset.ready = "error"
    js.console.error(message)


async def main() -> None:
    try:
        await boot()
    except Exception as exc:  # shown to the user in one line, and in the console
        show_boot_error(exc)


_task = asyncio.ensure_future(main())
