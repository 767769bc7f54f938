"""The page's scorecard view: the headline score, pills and statistics, rates, cost, categories
with their weights and chart, and the exports; it owns the card and redraws it when a weight changes
or the diagnosis arrives.

Used for the fixtures and for a live run. It renders what `toolproof.scoring.evaluate.card_of`
returns and recomputes it (same function, same JSON) when a weight changes; no grading logic lives
here. The card's other parts, the diagnosis, wording section, sweep chart and case list, sit beside
it in page/card/; every panel that shows a scorecard (the fixtures, a live run, a kept run) builds
this view itself. It never imports a panel. An edge module (DOM).
"""
from __future__ import annotations

from ..dom import breakable, clear, document, download, el, on, scroller, svg
from .arms import arms_section
from .cases import CaseList
from .diagnosis import diagnosis_section
from .robustness import robustness_section
from .scenario import scenarios_section
from .sweep import sweep_chart
from toolproof.plurals import counted


def graded_of(results, context: dict):
    """A `Graded` (every repeat) from what a caller has: already a Graded, or a list of one
    CaseResult per case (a live run's results), each its case's only repeat."""
    from toolproof.scoring.evaluate import Graded

    if isinstance(results, Graded):
        return results
    transcripts = context.get("transcripts", {})
    return Graded.of([[r] for r in results], [transcripts[r.case_id] for r in results if r.case_id in transcripts])


class ScorecardView:
    """One rendered scorecard (the fixtures, a live run or a kept run) and its controls."""

    def __init__(self, root, results, *, kind: str, source: dict, context: dict,
                 document: dict | None = None, diagnose_now: bool = True, prices: dict | None = None,
                 notes: list | None = None, sweep=None, errata: list | None = None, name: str = "", arms=None):
        from toolproof.scoring.scorecard import DEFAULT_WEIGHTS

        self.sweep = sweep                            # evaluate.SweepLevels of a tool-count sweep, or None
        self.graded = sweep.main_graded if sweep is not None else graded_of(results, context)
        self.results = self.graded.rows
        self.root, self.kind, self.source, self.prices = root, kind, source, prices
        self.diagnosis = None          # computed after the page is ready (see add_diagnosis)
        self.notes = list(notes or [])  # steps that failed and were left out (toolproof.scoring.evaluate)
        self.errata = list(errata or [])  # errata made after the results file (suite/errata.py, applying)
        self.arms = arms               # weights -> the `arms` block of a run with arms (card/arms.ArmsBlock)
        self._diagnosed = False
        self.document = document                      # a live run's results file
        self.name = name                              # a kept run's name as the user gave it (exports)
        self.context = context                       # cases, tools, transcripts by id
        self.weights = dict(DEFAULT_WEIGHTS)
        if diagnose_now:
            self.diagnose()
        self.card = self._card()
        self.case_list = CaseList(lambda: self.card, context, kind, graded=self.graded)

    def _card(self) -> dict:
        from toolproof.scoring.evaluate import card_of

        # The intervals come with the diagnosis, after the page is ready (start-up stays small);
        # the same guarded builder as the CLI: a failing step is a note, never no scorecard.
        card = card_of(self.graded, self.weights, source=self.source, diagnosis=self.diagnosis,
                       prices=self.prices, intervals_now=self._diagnosed, notes=self.notes)
        if self.sweep is not None:       # the same section, coverage, cost and intervals as the CLI's
            from toolproof.scoring.evaluate import finish_sweep
            card = finish_sweep(card, self.sweep, self.weights, self.prices, self._diagnosed)
        if self.arms is not None:        # the baseline's card with every arm set against it, as `grade`'s
            card = {**card, "arms": self.arms(self.weights)}
        if self.errata:                  # last, as `grade` adds them: the same JSON
            from toolproof.scoring.results_doc import with_errata
            card = with_errata(card, self.errata)
        return card

    def diagnose(self) -> None:
        from toolproof.scoring.evaluate import diagnose_safely

        if self.diagnosis is None and not self._diagnosed:
            self._diagnosed = True
            c = self.context
            found, note = diagnose_safely(self.graded, list(c["cases"].values()), c["tools"])
            self.diagnosis, self.notes = found, self.notes + ([note] if note else [])
            self.card = self._card()

    def add_diagnosis(self) -> None:
        """Compute and show the diagnosis (kept off the start-up path: the page is ready first)."""
        self.diagnose()
        section = diagnosis_section(self.card, self.kind)
        self.diagnosis_slot.replaceWith(section)
        self.diagnosis_slot = section
        self._refresh_statistics()
        self._refresh_category_intervals()
        chart = self._chart()                      # now with its interval whiskers
        self.chart_node.replaceWith(chart)
        self.chart_node = chart
        self._refresh_sweep()
        rates = self._rates()                      # now with each rate's interval
        self.rates_node.replaceWith(rates)
        self.rates_node = rates
        scenarios = scenarios_section(self.card, self.kind)     # now with its intervals
        if scenarios is not None:
            self.scenarios_node.replaceWith(scenarios)
            self.scenarios_node = scenarios
        self.root.dataset.diagnosis = "ready"

    def prefix(self) -> str:
        from toolproof.reports.page_view import id_prefix

        return id_prefix(self.kind)

    def render(self) -> None:
        clear(self.root)
        if self.diagnosis is not None or self._diagnosed:
            self.diagnosis_slot = diagnosis_section(self.card, self.kind)
        else:
            self.diagnosis_slot = el("section", "Working out the diagnosis…", cls="block muted",
                                     id=f"{self.prefix()}-diagnosis-pending")
        self.sweep_node = sweep_chart(self.card, self.kind)
        self.wording_node = robustness_section(self._wording_card(), self.kind, self.context["cases"])     # beside the headline
        self.rates_node = self._rates()
        self.scenarios_node = scenarios_section(self.card, self.kind) or el("span", hidden="")    # none: no scenario
        self.arms_node = arms_section(self.card, self.kind) or el("span", hidden="")      # none: no arms
        for part in (self._summary(), self.arms_node, self.wording_node, self.scenarios_node, self.sweep_node, self.rates_node,
                     self._cost(), self._categories(), self.diagnosis_slot, self.case_list.section()):
            self.root.appendChild(part)
        if self.diagnosis is not None:
            self.root.dataset.diagnosis = "ready"

    # -- summary
    def _score_text(self, key: str = "strict") -> str:
        """The strict (or lenient) score as shown: "—" when the card has none (its `no_score_reason`)."""
        from toolproof.reports.scorecard import no_score, score_text

        score = self.card["score"] if key == "strict" else self.card["lenient"]["score"]
        return "—" if no_score(self.card) is not None else score_text(score)

    def _summary(self):
        from toolproof.reports.legends import verdict_legend

        card, counts = self.card, self.card["counts"]
        self.score_node = el("span", self._score_text(), cls="score-value")
        self.lenient_node = el("span", self._score_text("lenient"))
        pills = el("div", cls="pills", children=[
            el("span", f"{counts[v]} {v}", cls=f"pill verdict-{v.lower()}") for v in ("PASS", "PARTIAL", "FAIL")]
            + [el("span", f"{counts.get('error', 0)} ERROR", cls="pill verdict-error",
                  title="cases with no graded conversation (the request failed after its retries): "
                        "left out of every score")])
        legend = el("p", verdict_legend(), cls="muted small verdict-legend")   # the HTML reports' words
        meta = self._counts()
        lenient = el("p", cls="muted", children=[
            document.createTextNode("Lenient score "), self.lenient_node,
            document.createTextNode(f" · {counted(card['lenient']['rescued'], 'case')} rescued by casting "
                                    "strings to the schema's type")])
        exports = self._exports()
        score = el("div", cls="score", children=[
            el("div", "Weighted score", cls="label"),
            el("div", cls="score-line", children=[self.score_node, el("span", " / 100", cls="of")]),
            *self._statistics(),
        ])
        notes = [el("p", note, cls="card-note") for note in card.get("notes", [])] + \
            [el("p", f"Warning: {w}", cls="card-note card-warning") for w in card.get("warnings", [])] + \
            self._errata()
        return el("div", cls="summary", children=[score, el("div", cls="summary-side", children=[
            pills, legend, *meta, lenient, *notes, exports])])

    def _counts(self) -> list:
        """What the pills count (cases) and, when a case ran more than once, its conversations:
        each line in its unit, in the terminal's words (reports/card_counts.py)."""
        from toolproof.reports.card_counts import conversations_line, verdict_rule, verdicts_line

        card, prefix = self.card, self.prefix()
        cov = card.get("coverage") or {}
        out = [el("p", verdicts_line(card), cls="muted card-counts", id=f"{prefix}-counts",
                  data_cases=str(card["counts"]["cases"]))]
        rule, conversations = verdict_rule(card), conversations_line(card)
        if conversations:
            out.append(el("p", conversations, cls="muted card-conversations", id=f"{prefix}-conversations",
                          data_planned=str(cov.get("planned", "")), data_graded=str(cov.get("graded", "")),
                          data_error=str(cov.get("error", "")), data_not_started=str(cov.get("not_started", ""))))
        if rule:
            out.append(el("p", rule, cls="muted small verdict-rule"))
        return out

    def _errata(self) -> list:
        """The errata made after the results file, in the terminal's words (reports.scorecard)."""
        if not self.card.get("errata"):
            return []
        from toolproof.reports.scorecard import errata_lines

        return [el("p", line.strip(), cls="card-note card-erratum") for line in errata_lines(self.card)]

    # -- statistics: interval, pass^k, repeats (issue 9)
    def _statistics(self) -> list:
        from toolproof.reports.scorecard import coverage_line, explain_line, no_score, pass_k_line

        card = self.card
        self.ci_node = el("div", cls="score-ci", id=f"{self.prefix()}-score-ci")
        # "N of M cases graded" beside the score whenever they differ (with no score, the CI line says it)
        covered = "" if no_score(card) is not None else coverage_line(card)
        coverage = el("div", covered, cls="score-coverage", id=f"{self.prefix()}-coverage")
        coverage.hidden = not covered
        self._refresh_statistics()
        self.pass_k_node = el("div", pass_k_line(card), cls="pass-k", id=f"{self.prefix()}-pass-k",
                              title="pass^k: the chance that k repeats of a case all pass (tau-bench's estimator)")
        k_note = card["reliability"].get("k_note")
        per = "per case and phrasing" if card.get("robustness") else "per case"
        repeats = f"{counted(card['repeats'], 'repeat')} {per} · {len(card['reliability']['flaky_cases'])} flaky" + \
            (f" · {k_note}" if k_note else "")
        explain = el("p", explain_line(card), cls="muted small score-explain", id=f"{self.prefix()}-explain")
        return [self.ci_node, coverage, self.pass_k_node, el("div", repeats, cls="muted small repeats-line"), explain]

    def _cost(self):
        from toolproof.reports.page_view import cost_tiles

        tiles = [el("div", cls="rate cost-tile", data_cost=key, children=[
            el("div", label, cls="rate-name"), el("div", value, cls="rate-value")])
            for key, label, value in cost_tiles(self.card["cost"])]
        return el("section", cls="block", id=f"{self.prefix()}-cost", children=[
            el("h3", "Cost and latency"), el("div", cls="rates", children=tiles),
            el("p", "From the transcripts: tokens as the provider reported them, latency over answered "
                    "requests.", cls="muted small")])

    # -- rates
    def _rates(self):
        from toolproof.reports.scorecard import METRIC_HELP, better, percent
        from toolproof.reports.page_view import METRIC_LABELS
        from toolproof.reports.rates import RATE_INTERVAL_HEAD, rate_count_text, rate_interval_text, rates_method_line

        tiles, drawn = [], self.card.get("intervals") is not None     # drawn with the diagnosis, as the score's
        for key, value in self.card["metrics"].items():
            arrow, direction = better(key).split(" ", 1)
            tiles.append(el("div", cls="rate", data_metric=key, data_direction=direction.split()[0], children=[
                el("div", METRIC_LABELS[key], cls="rate-name"),
                el("div", cls="rate-value", children=[
                    el("span", percent(value)),
                    el("span", f"{arrow} {direction}", cls="rate-direction", title=direction)]),
                el("div", cls="rate-count", children=[
                    el("span", rate_count_text(self.card, key), data_rate_count=key),
                    el("span", f" · {RATE_INTERVAL_HEAD} " + (rate_interval_text(self.card, key) or "…" if drawn else "…"),
                       data_rate_interval=key)]),
                el("div", METRIC_HELP[key], cls="rate-help"),
                breakable("code", key, cls="rate-key"),
            ]))
        method = rates_method_line(self.card)
        # Some rates are better high, some low: the heading stays neutral and each says which.
        return el("section", cls="block", children=[el("h3", "Rates"), el("div", cls="rates", children=tiles)]
                  + ([el("p", method, cls="muted small")] if method else []))

    # -- categories: table with weight inputs, and the chart
    def _categories(self):
        from toolproof.reports.scorecard import percent, withheld_note
        from toolproof.scoring.intervals import CATEGORY_METHOD
        from toolproof.reports.page_view import CATEGORY_LABELS, card_name, interval_text

        head = el("tr", children=[el("th", t, scope="col") for t in
                                  ("Category", "Score", "95% CI", "Cases", "Pass", "Partial", "Fail", "Error",
                                   "Weight")])
        self.chart_node = self._chart()
        rows = []
        self.interval_cells = {}         # category -> its interval cell (kept: no trip to find them)
        bounds = (self.card["intervals"] or {}).get("categories", {})
        for category, row in self.card["categories"].items():
            self.interval_cells[category] = el("td", "…", cls="num cat-ci", data_category=category)
            weight = el("input", type="number", min="0", step="1", value=row["weight"],
                        cls="weight", data_category=category,
                        aria_label=f"Weight of {CATEGORY_LABELS[category]}")
            on(weight, "input", lambda e, c=category: self.set_weight(c, e.target.value))
            rows.append(el("tr", data_category=category, children=[
                el("th", CATEGORY_LABELS[category], scope="row"),
                el("td", percent(row["score"]), cls="num", title=interval_text(bounds.get(category))),
                self.interval_cells[category],
                el("td", str(row["count"]), cls="num"),
                el("td", str(row["pass"]), cls="num"), el("td", str(row["partial"]), cls="num"),
                el("td", str(row["fail"]), cls="num"),
                # the row adds up: pass + partial + fail + error = cases (ERROR: not graded)
                el("td", str(row.get("error", 0)), cls="num", data_col="error"),
                el("td", children=[weight]),
            ]))
        table = el("table", cls="categories", children=[el("thead", children=[head]),
                                                       el("tbody", children=rows)])
        self._refresh_category_intervals()
        note = el("p", "Score = 100 × Σ(weight × category score) / Σ(weight), over the categories "
                       "in this run. Change a weight to see its effect; exports use the weights shown. "
                       f"95% CI: the {CATEGORY_METHOD} interval over the category's cases (other cases "
                       "like these could score anywhere in it).",
                  cls="muted small")
        return el("section", cls="block", children=[
            el("h3", "Categories"),
            *([el("p", withheld_note(self.card), cls="muted small categories-withheld")]
              if withheld_note(self.card) else []),
            el("div", cls="categories-layout", children=[
                el("div", children=[scroller(f"{card_name(self.kind)}: categories", table), note]),
                self.chart_node])])

    def _chart(self):
        from toolproof.reports.page_view import chart_bars

        card = self.card
        geometry = chart_bars(card["categories"], intervals=(card["intervals"] or {}).get("categories"))
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
            if bar["whisker"]:                     # the category's 95% interval
                w = bar["whisker"]
                whisker = svg("line", x1=w["x1"], x2=w["x2"], y1=w["y"], y2=w["y"], data_category=bar["category"])
                whisker.setAttribute("class", "chart-whisker")
                chart.appendChild(whisker)
        return el("figure", cls="chart-box", children=[chart])

    def _wording_card(self) -> dict:
        """The card as the wording section shows it: below half of the plan graded, no
        worst-phrasing or per-phrasing score under "No score" (reports/robustness.py `shown`)."""
        from toolproof.reports.robustness import shown

        return {**self.card, "robustness": shown(self.card)} if self.card.get("robustness") else self.card

    def _refresh_sweep(self) -> None:
        if getattr(self, "wording_node", None) is not None and "robustness" in self.card:   # its intervals, weights
            node = robustness_section(self._wording_card(), self.kind, self.context["cases"])
            self.wording_node.replaceWith(node)
            self.wording_node = node
        if getattr(self, "sweep_node", None) is None or "sweep" not in self.card:
            return
        node = sweep_chart(self.card, self.kind)
        self.sweep_node.replaceWith(node)
        self.sweep_node = node

    def set_weight(self, category: str, raw: str) -> None:
        from toolproof.errors import ToolProofError

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
        self.score_node.textContent = self._score_text()
        self.lenient_node.textContent = self._score_text("lenient")
        self._refresh_statistics()
        self._refresh_sweep()
        if self.arms is not None:        # each arm's score and difference under the new weights
            node = arms_section(self.card, self.kind)
            self.arms_node.replaceWith(node)
            self.arms_node = node

    def _refresh_category_intervals(self) -> None:
        """Each category's interval, in its own column (drawn with the diagnosis, as the score's)."""
        from toolproof.reports.page_view import interval_text

        intervals = self.card["intervals"]
        bounds = intervals.get("categories") if intervals is not None else None
        for category, cell in self.interval_cells.items():
            if bounds is None:
                cell.textContent = "…"
                continue
            text = interval_text(bounds.get(category))
            cell.textContent = text.removeprefix("95% CI ").removesuffix(" over cases") if text else "n/a"

    def _refresh_statistics(self) -> None:
        from toolproof.reports.scorecard import score_with_interval

        intervals = self.card["intervals"]
        if intervals is None:
            self.ci_node.textContent = "95% CI: working it out…"
            return
        self.ci_node.textContent = score_with_interval(self.card)
        self.ci_node.setAttribute("title", intervals.get("note", intervals["method"]))

    @staticmethod
    def _check(weights: dict) -> None:
        from toolproof.scoring.scorecard import check_weights

        check_weights(weights)

    # -- exports: each the terminal's own output for the same file (grade --format json, the
    # Markdown report, grade --format html), named by the run's name, model and date
    def _exports(self):
        """The Export JSON, Markdown and HTML buttons (ids: the fixtures' `export-json`, a live
        run's `export-live-json`, a kept run's `export-kept-json`, and so on)."""
        middle = "" if self.kind == "fixture" else "live-"      # kept_scorecard renames live- to kept-
        buttons = []
        for fmt, text, cls in (("json", "Export JSON", "button"), ("md", "Export Markdown", "button secondary"),
                               ("html", "Export HTML", "button secondary")):
            button = el("button", text, id=f"export-{middle}{fmt}", type="button", cls=cls)
            on(button, "click", lambda e, f=fmt: self.export(f))
            buttons.append(button)
        return el("div", cls="exports", children=buttons)

    def export(self, fmt: str) -> None:
        from toolproof.reports.file_names import run_file_name
        from toolproof.reports.scorecard import render_markdown, results_json, to_json

        if self.diagnosis is None:        # an export before the diagnosis was shown
            self.diagnose()
        name = run_file_name(self.document or self.card.get("source") or {}, fmt, name=self.name)
        if fmt == "json" and self.document is not None:
            download(name, results_json(self.document, self.card), "application/json")
        elif fmt == "json":
            download(name, to_json(self.card), "application/json")
        elif fmt == "html":
            from toolproof.reports.html_scorecard import scorecard_html

            download(name, scorecard_html(self.card, list(self.context["cases"].values()),
                                                 self.context.get("worlds")), "text/html")
        else:
            download(name, render_markdown(self.card), "text/markdown")


def kept_scorecard(root, doc: dict, regraded, cases, tools, errata: list | None = None, name: str = "",
                   worlds: dict | None = None, arms=None) -> None:
    """A kept run (or an opened results file) drawn as the page draws a result: the same view,
    with the errata of the suite that came after it (`errata`, suite/errata.py `applying`);
    `name`, the run's name in Runs, names its exports; `worlds` hold its scenarios' records; `arms`
    (card/arms.ArmsBlock) gives a run with arms its Arms section, `regraded` being its baseline's."""
    context = {"cases": {c.id: c for c in cases}, "tools": tools, "transcripts": regraded.by_case,
               "worlds": worlds or {}, "scenarios": regraded.scenarios or {}}
    settings = doc.get("settings") if isinstance(doc.get("settings"), dict) else {}
    prices = settings.get("prices") if isinstance(settings.get("prices"), dict) else None
    view = ScorecardView(root, regraded.results, kind="kept", source=regraded.source, context=context,
                         document=doc, notes=list(regraded.notes), sweep=regraded.sweep, prices=prices,
                         errata=errata, name=name, arms=arms)
    view.render()
    for fmt in ("json", "md", "html"):   # the live card's export ids stay the live card's
        button = root.querySelector(f"#export-live-{fmt}")
        if button is not None:
            button.id = f"export-kept-{fmt}"
