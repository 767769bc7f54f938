"""The page's live run: the progress (elapsed, time left, the tally so far), the feed, abort, and the
result's scorecard, kept with the other runs: as it goes, each conversation as it finishes, and
whole before "Run complete." is shown (page/keeping.py).

The loop, the cap, retries and grading are the shared runner's (`toolproof.running.runner`); the form
is page/runform.py's; the scorecard and the feed's case rows are the card's (page/card/). This module
never imports another panel: the form, the Compare section's hook and the keeping of the run
(page/keeping.py's LiveKeeping) are handed in by page/main.py. An edge module (DOM).
"""
from __future__ import annotations

import js        # the worker's own globals: its clock and timers (page/dom.py has the page's)
from pyodide.ffi import create_proxy

from .card.arms import ArmsBlock, baseline_document, has_arms
from .card.cases import case_row
from .card.scorecard import ScorecardView
from .dom import byid, clear, document, el, focus_result, on
from toolproof.errors import failure_line
from toolproof.plurals import counted, plural


class LiveController:
    """The run, its progress and its scorecard. Grading and the loop are the runner's."""

    def __init__(self, bundle, context: dict, form, *, remember_live, keeping):
        import asyncio

        self.bundle, self.context, self.form = bundle, context, form
        # handed in by page/main.py (panels never import each other): the run form (page/runform.py);
        # (results file) -> None, which gives the Compare section its "use the live result"; and
        # what keeps the run in this browser as it goes (begin, add, end, discard)
        self.remember_live, self.keeping = remember_live, keeping
        self.run = None
        self.worlds = None             # the worlds a Scenarios run runs (the form's, as the run started)
        self.label = ""                # "Your suite (N cases)" for a run of the draft suite
        self.started, self.ticker = 0.0, None
        self.active = (bundle.cases, bundle.tools)     # what the current run runs
        on(byid("run-live"), "click", lambda e: asyncio.ensure_future(self.start()))
        on(byid("abort"), "click", lambda e: self.abort())
        byid("run-live").disabled = False

    def set_own(self, cases, tools: dict, document: dict | None = None) -> None:
        """The #own section's draft suite offered (or withdrawn) as the scope "Your suite"."""
        self.form.set_own(cases, tools, document)

    def message(self, text: str, bad: bool = False) -> None:
        self.form.message(text, bad)

    # -- running
    async def start(self) -> None:
        from toolproof.page.transport import fetch_transport
        from toolproof.suite.fingerprint import suite_sha256
        from toolproof.running.runner import Run

        form = self.form
        try:
            settings = form.settings()
        except Exception as exc:         # noqa: BLE001 - e.g. a form too big for one read: one line
            self.message(f"The form could not be read: {failure_line(exc)}", bad=True)
            return
        if settings is None:
            return
        own = str(byid("scope").value) == "own" and form.own is not None
        try:        # each arm made ready (page/arms.py), or refused in one line before anything is sent
            arms = form.arms.runs(settings, form.arms.own_doc if own else self.bundle.documents["tools"],
                                  form.own[1] if own else self.bundle.tools) if form.arms is not None else None
        except Exception as exc:         # noqa: BLE001 - ToolProofError, or anything the rules raise
            self.message(failure_line(exc), bad=True)
            return
        form.store_key()
        clear(byid("live-feed"))
        clear(byid("live-card"))
        byid("live-empty").hidden = True
        byid("run-progress").hidden = False
        from toolproof.providers.dispatch import endpoint
        from toolproof.worlds.scope import is_scenarios
        # a Scenarios scope runs the worlds' scenarios (the bundled ones and any world file loaded)
        self.worlds = form.scenarios.worlds if is_scenarios(settings.scope) else None
        # "Your suite" runs every case of the draft: the file says scope "all" (it re-grades with
        # grade --suite S --tools T) and its label says whose cases they were
        self.label = f"Your suite ({counted(len(form.own[0]), 'case')})" if own else ""
        # where the requests go, resolved (never the key: it travels only in the auth header)
        self.message(f"Running {self.label or settings.scope}" + (f" with {counted(len(arms), 'arm')}" if arms else "")
                     + f" against {settings.provider} / "
                     f"{settings.model} at {endpoint(settings.provider, settings.base_url, settings.model)}…")
        self.busy(True)
        self.active = form.own if own else (self.bundle.cases, self.bundle.tools)
        # the suite's fingerprint: ours, or the draft's as its export would write it
        suite_doc = form.own_document if own else self.bundle.documents["suite"]
        self.run = Run(*self.active, settings, fetch_transport,
                       on_case=self.case_done, on_request=self.request_sent, on_kept=self.keeping.add,
                       suite_sha256=suite_sha256(suite_doc) if suite_doc is not None else "", worlds=self.worlds,
                       arms=arms)
        # stored before the first request: a tab closed at any point keeps every answer it had
        await self.keeping.begin(self.document("running"), len(self.run.work))
        self.started = js.performance.now()
        self.ticker = js.setInterval(create_proxy(lambda: self.progress()), 1000)
        self.progress()
        try:
            await self.run.run()
        except Exception as exc:                 # a bug, not a provider error: say so plainly
            self.run.state, self.run.error = "error", f"{exc.__class__.__name__}: {exc}"
        await self.finish()

    def busy(self, running: bool) -> None:
        document.body.dataset.run = "running" if running else document.body.dataset.run
        byid("run-live").disabled = running
        byid("abort").disabled = not running
        self.form.lock(running)

    def request_sent(self, used: int, cap: int) -> None:
        self.progress()

    def case_done(self, raw: dict, result) -> None:
        from toolproof.secrets import redact

        # the same row (and the same redaction, by pattern and by the key's value) as the
        # scorecard shows once the run ends
        from toolproof.reports.page_view import feed_tag

        row = case_row(redact(result.to_json(), self.run.secrets()), expandable=False)
        tag = feed_tag(raw, self.run.settings.repeats, len(self.run.settings.pad_levels))
        if isinstance(raw.get("arm"), str):       # which arm, beside the category: each case runs once per arm
            row.setAttribute("data-arm", raw["arm"])
            row.children[0].children[1].appendChild(el("span", f"arm {raw['arm']}", cls="feed-tag arm-tag",
                                                       data_arm=raw["arm"]))
        if tag:                          # which repeat, which pad level: identical rows told apart
            row.insertBefore(el("span", tag, cls="feed-tag"), row.children[1] if row.children.length > 1 else None)
        byid("live-feed").appendChild(row)
        self.progress()

    def progress(self) -> None:
        """The meters: conversations (case × phrasing × repeat × pad level) finished of planned,
        requests sent of the cap."""
        from toolproof.reports.page_view import progress_texts

        run = self.run
        done, total = len(run.results), len(run.work)          # every phrasing, repeat (and pad level)
        conversations, requests = progress_texts(done, total, run.used, run.settings.cap)
        byid("cases-progress").max = max(total, 1)
        byid("cases-progress").value = done
        byid("cases-text").textContent = conversations
        byid("requests-progress").max = max(run.settings.cap, 1)
        byid("requests-progress").value = run.used
        byid("requests-text").textContent = requests
        self.show_clock(done, total)

    def show_clock(self, done: int, total: int) -> None:
        """Elapsed time, an estimate of the time left (by the requests the unfinished
        conversations can still need), and the verdicts so far."""
        from toolproof.reports.page_view import clock_texts, tally, tally_label

        run = self.run
        held = getattr(self, "_planned", (None, 0))
        if held[0] is not run or held[1] != len(run.work):    # each case's requests, once per run (and
            # again once its arms' probes have dropped the items of an arm the provider refused)
            self._planned = (run, len(run.work), {w.item_id: w.requests for w in run.work},
                             sum(w.requests for w in run.work))
        _, _, requests, planned_total = self._planned
        planned_done = sum(requests.get(r.case_id, 1) for r in run.results)
        planned_left = max(0, min(planned_total - planned_done, run.settings.cap - run.used))
        elapsed, left = clock_texts(js.performance.now() - self.started, done, total,
                                    running=run.state == "running",
                                    planned_done=planned_done, planned_left=planned_left)
        byid("run-elapsed").textContent, byid("run-eta").textContent = elapsed, left
        counts = tally(r.verdict for r in self.run.results)
        node = byid("run-tally")
        clear(node)
        # the tally counts conversations (the card's pills count cases): it says so
        node.appendChild(el("span", tally_label(done), cls="tally-unit"))
        for verdict, count in counts.items():
            node.appendChild(el("span", f"{verdict} {count}", cls=f"tally tally-{verdict}"))
            node.setAttribute(f"data-{verdict.lower()}", str(count))
        node.dataset.done = str(done)

    def abort(self) -> None:
        if self.run is not None and self.run.state == "running":
            self.run.abort()
            self.message("Aborting: no further requests will be sent.")

    def document(self, state: str | None = None) -> dict:
        """The run's results file as it stands (with `state`, as the run's head says it while it runs)."""
        doc = self.run.document(created=str(js.Date.new().toISOString())[:19] + "+00:00")
        if state is not None:
            doc["state"] = state
        if self.label:
            doc["label"] = self.label
        return doc

    async def finish(self) -> None:
        run = self.run
        doc = self.document()
        js.clearInterval(self.ticker)
        # data-run is set last, once the card is drawn: a test (or a script) that waits for it
        # then reads every case row, never a list still being drawn. The form is given back once
        # the run is kept (show_finished), so a new run never starts before this one is stored.
        self.finished_state = run.state
        try:
            await self.show_finished(run, doc)
        finally:
            self.busy(False)
            focus_result(byid("run-message"), "#live")      # the outcome, then Tab goes on to the card
            document.body.dataset.run = self.finished_state

    async def show_finished(self, run, doc) -> None:
        """The run kept, then its closing line and its scorecard; finished_state is "error" if the
        scorecard cannot be shown (the run is kept all the same)."""
        from toolproof.datafiles import format_schema
        from toolproof.scoring.evaluate import grade_transcripts, source_of
        from toolproof.secrets import redact_text
        from toolproof.grading.transcripts import parse_transcripts
        from toolproof.reports.page_view import run_label

        # A run in which no request succeeded is in the error state (the runner says so), so
        # "Run complete." only ever stands over answers the provider gave.
        notes = {"done": "Run complete.", "aborted": "Run aborted: the cases graded so far are kept.",
                 "error": f"Run stopped: {redact_text(run.error, run.settings.secrets())}"}
        note = notes.get(run.state, run.state)
        if run.skipped:
            note += (f" {counted(run.skipped, 'conversation')} {plural(run.skipped, 'was', 'were')} "
                     "not started: the cap could not cover them.")
        if not run.results:
            await self.keeping.discard()       # nothing answered: nothing to keep
            self.message(note, bad=run.state == "error")
            self.progress()
            clear(byid("live-feed"))
            byid("live-empty").hidden = False
            return
        # everything answered stored before any grading: a tab closed while the card is built
        # still finds the whole run (settled complete on the next visit)
        await self.keeping.flush()
        notes, sweep = [], None
        try:
            cases, tools = self.active
            # a run with arms is shown as its baseline's card, every other arm set against it (card/arms.py)
            transcripts = parse_transcripts(baseline_document(doc, "the run"), format_schema("transcripts"),
                                            {c.id for c in cases})
            source, by_case = source_of(transcripts), transcripts.transcripts
            scenarios = transcripts.scenarios or {}
            # Graded again from the stored (redacted) document, as the terminal does: what the
            # page shows and exports is what the results file re-grades to (every repeat, the
            # same statistics), with the key nowhere in it.
            results = grade_transcripts(cases, tools, transcripts, worlds=self.worlds)
            sweep = self.sweep_of(transcripts)
            if sweep is not None:            # a sweep: the main level's cases, every level's curve
                results, by_case = sweep.main_graded, sweep.levels[sweep.main][1].transcripts
                notes += [sweep.note] if sweep.note else []
        except Exception as exc:                 # noqa: BLE001 - a finished run always gets a scorecard
            from toolproof.scoring.evaluate import Graded
            from toolproof.grading.guarded import internal_error
            per_case: dict = {}                  # the runner's own grades, every repeat under its case
            for result in run.results:
                per_case.setdefault(result.case_id, []).append(result)
            results = Graded.of(list(per_case.values()), [])
            source = {k: doc.get(k, "") for k in ("kind", "label", "provider", "model", "created", "scope")}
            by_case, scenarios = {}, {}
            notes.append(internal_error(exc, "re-reading the results") + ": the diagnosis may be incomplete")
        card_root, body, view = byid("live-card"), el("div"), None
        try:
            cases, tools = self.active
            context = {"cases": {c.id: c for c in cases}, "tools": tools, "transcripts": by_case,
                       "worlds": self.worlds or {}, "scenarios": scenarios}
            arms = ArmsBlock(doc, cases, tools, prices=run.settings.prices) if has_arms(doc) else None
            view = ScorecardView(body, results, kind="live", source=source, context=context,
                                 document=doc, notes=notes, sweep=sweep, prices=run.settings.prices, arms=arms)
        except Exception as exc:                 # noqa: BLE001 - said below; the run is kept all the same
            failed = exc
        # Kept before anything says the run is over: a tab closed right after "Run complete."
        # finds it in Runs, whole.
        try:
            kept = await self.keeping.end(doc, view.card if view is not None else {})
        except Exception as exc:                 # noqa: BLE001 - the run is still shown, and exportable
            kept = f"Not kept in Runs: {failure_line(exc)}"
        self.message(f"{note} {kept}", bad=run.state == "error")
        self.progress()
        clear(byid("live-feed"))
        try:
            if view is None:
                raise failed
            card_root.appendChild(el("p", run_label(doc), cls="live-label"))
            card_root.appendChild(body)
            self.remember_live(doc)
            view.render()
        except Exception as exc:                 # noqa: BLE001 - never "Run complete." without a scorecard
            from toolproof.grading.guarded import internal_error
            clear(card_root)
            self.finished_state = "error"
            self.message(f"Run finished, but {internal_error(exc, 'showing the scorecard')}. {kept}", bad=True)

    def sweep_of(self, transcripts):
        """The graded levels of a tool-count sweep (evaluate.SweepLevels), None for a plain run."""
        from toolproof.scoring.evaluate import grade_sweep
        from toolproof.scoring.sweep import levels_in

        levels = levels_in(transcripts)
        return grade_sweep(*self.active, transcripts, levels) if levels else None
