"""The page's kept runs: every finished or stopped run (kept as it goes: page/keeping.py), and every
results file opened, kept in this browser's IndexedDB (results and settings, never the key: the
results file has none), listed in #runs, reopened as a scorecard (with the errata of the suite made
after it: suite/errata.py), renamed, deleted, and handed to Compare; a run whose tab was closed
before it ended is settled on the next visit (`settle`).

The storage is page/runstore.py's `KeptRuns`. What to keep, drop and show is decided in
toolproof/reports/kept_runs.py. An edge module (DOM, files).
"""
from __future__ import annotations

import asyncio

import js

from .card.arms import ArmsBlock, arms_section, baseline_document, has_arms, results_card
from .card.cases import case_row
from .card.scorecard import kept_scorecard
from .dom import byid, clear, document, el, fill, on, task
from .notices import Notices
from .runstore import KeptRuns, running_elsewhere


class RunsView:
    """The #kept section: the list, the open-file input, the reopened scorecard."""

    def __init__(self, store: KeptRuns, bundle, *, on_change, worlds: dict | None = None):
        self.store, self.bundle = store, bundle
        self.worlds = dict(worlds or {})   # world id -> World: a kept run's scenarios are graded against them
        # handed in by page/main.py (the Compare section's offer): (rows) -> None after every change
        self.on_change = on_change
        self.rows: list[dict] = []
        self.count = 0
        self.draft = None              # (cases, tools, suite document) of "Your suite", for its runs
        self._errata = None            # data/errata.json, read when a kept run is first reopened
        self.keeping = asyncio.Lock()  # one keep at a time: each sees what the last one dropped
        # a rename being typed, by run id: (its field, its Save button), carried over every redraw
        self.renaming: dict[str, tuple] = {}
        self.notices = Notices(byid("runs-notices"), byid("open-results"))   # each until dismissed
        on(byid("open-results"), "change", lambda e: task(self.open_file(e.target.files), self.open_failed))

    async def start(self) -> None:
        await self.store.open()
        await self.refresh(self.store.problem)
        try:
            await self.settle()
        finally:                         # what a test (or a script) waits on: the list is as it stays
            byid("kept").dataset.settled = "true"

    async def settle(self) -> None:
        """Runs still "running" that no tab runs any more (their tab was closed before the end):
        each graded from what was stored and kept whole, complete or "interrupted" with its "N of M".
        A run of "Your suite" waits for the draft to be back; a run that got no answer goes."""
        from toolproof.reports.kept_runs import row_texts, settled_state
        from toolproof.suite.fingerprint import suite_sha256

        running = [r for r in self.rows if r["state"] == "running"]
        going = await running_elsewhere() if running else set()
        if going is None:                # no Web Locks: a run in another tab cannot be told apart
            return
        settled = []
        for row in (r for r in running if r["id"] not in going):
            name = row_texts(row)["name"]
            try:
                doc, unreadable = await self.store.load_kept(row["id"])
                if not doc.get("transcripts"):
                    await self.store.delete(row["id"])
                    continue
                cases, tools = self.suite_for(doc)
                if cases is self.bundle.cases and doc.get("suite_sha256") not in (
                        None, suite_sha256(self.bundle.documents["suite"])):
                    continue                 # another suite's run (the draft's): settled once it is back
                card = results_card(doc, cases, tools, name, worlds=self.worlds)    # with arms: every arm
                doc["state"] = settled_state(card)
                if await self.keep(doc, card, run_id=row["id"], label=row["label"]) is not None:
                    settled.append(f"{name}" + (f" ({unreadable} stored batch{'' if unreadable == 1 else 'es'} "
                                                "could not be read)" if unreadable else ""))
            except Exception as exc:     # noqa: BLE001 - one line; the run stays listed as it was
                from toolproof.errors import failure_line
                self.message(f"A run left running ({name}) could not be settled: {failure_line(exc)}", bad=True)
        if settled:
            await self.refresh("Kept from a page closed while it ran: " + "; ".join(settled) + ".")

    def message(self, text: str, *, bad: bool = False) -> None:
        node = byid("runs-message")
        node.textContent = text
        node.className = "run-message bad" if bad else "run-message"

    def failed(self, line: str) -> None:
        self.message(line, bad=True)

    def open_failed(self, line: str) -> None:
        """Opening a file failed, whatever raised: said, and the section answers the next file."""
        self.message(line, bad=True)
        byid("kept").dataset.open = "error"
        fill(byid("open-results"), "")     # ready for the next file; one chosen meanwhile stays

    # -- keeping
    async def keep(self, doc: dict, card: dict, *, label: str = "", say: bool = False,
                   run_id: str | None = None) -> str | None:
        """Keep a run (its results file, or a scorecard file); returns its id, None if refused.
        With `run_id`, it replaces that run's row and what was stored of it as it went.
        Runs dropped to make room are named in a notice that stays until dismissed."""
        async with self.keeping:
            return await self._keep(doc, card, label=label, say=say, run_id=run_id)

    async def _keep(self, doc: dict, card: dict, *, label: str, say: bool, run_id: str | None) -> str | None:
        from toolproof.reports.kept_runs import MAX_TOTAL_BYTES, drop_notice, row_of, row_texts, to_drop
        from toolproof.reports.scorecard import kept_json
        from toolproof.scoring.results_doc import evidence

        doc = evidence(doc)          # a page export: its card is graded again anyway
        text = kept_json(doc)        # a results file as run --out writes it (compact, linear in size)
        size = len(text.encode("utf-8"))
        if size > MAX_TOTAL_BYTES:
            self.message(f"Not kept: this run's file is {size / 1e6:.1f} MB, more than the "
                         f"{MAX_TOTAL_BYTES // 1_000_000} MB set aside for kept runs.", bad=True)
            return None
        self.count += 1
        now = str(js.Date.new().toISOString())
        run_id = run_id or f"run-{int(js.Date.now())}-{self.count}"
        try:
            self.rows = await self.store.list_runs()
        except Exception:                # noqa: BLE001 - said by refresh below
            pass
        # a run renamed while it ran keeps its new name
        label = label or next((r["label"] for r in self.rows if r["id"] == run_id), "")
        # a run with arms counts every arm that ran (reports/kept_runs.run_coverage)
        row = row_of(doc, card, run_id=run_id, kept=now[:19] + "Z", size=size, label=label)
        drop = to_drop([r for r in self.rows if r["id"] != run_id], size)
        try:
            await self.store.put(row, text, drop)
        except Exception as exc:         # noqa: BLE001 - a full or refused store: said, never raised
            self.message(f"Not kept: the browser refused to store it ({exc}).", bad=True)
            return None
        self.notices.add(drop_notice([r for r in self.rows if r["id"] in drop], row_texts(row)["name"]))
        await self.refresh("Kept in this browser." if say else "")
        return run_id

    # -- the list
    async def refresh(self, note: str = "") -> None:
        from toolproof.reports.kept_runs import size_text

        try:
            self.rows = await self.store.list_runs()
        except Exception as exc:         # noqa: BLE001 - storage failed after opening
            self.rows, note = [], f"The kept runs cannot be read ({exc})."
        root = byid("runs")
        # a rename being typed survives the redraw: the same field is moved into the new row (what
        # is typed meanwhile goes on into it), and keeps the focus it had
        self.renaming = {k: v for k, v in self.renaming.items() if any(r["id"] == k for r in self.rows)}
        focused = []
        if self.renaming:
            active = document.activeElement
            row_of_active = active.closest(".run-row") if active else None
            if row_of_active and active.getAttribute("class") == "run-name-input":
                held = self.renaming.get(str(row_of_active.getAttribute("data-run-id")))
                focused = [held[0]] if held else []
        clear(root)
        for row in self.rows:
            root.appendChild(self.row_node(row))
        if not self.rows:
            root.appendChild(el("p", "No run kept yet: finish a run above, or open a results file.", cls="empty"))
        byid("runs-size").textContent = size_text(self.rows)
        for field in focused:
            field.focus()
        if note:
            self.message(note.strip())
        root.dataset.count = str(len(self.rows))
        root.setAttribute("data-version", str(int(root.getAttribute("data-version") or 0) + 1))
        self.on_change(self.rows)

    def row_node(self, row: dict):
        from toolproof.reports.kept_runs import row_texts

        texts = row_texts(row)
        name = el("span", texts["name"], cls="run-name")
        buttons = [el("button", "Open", type="button", cls="button run-open"),
                   el("button", "Rename", type="button", cls="button secondary run-rename"),
                   el("button", "Delete", type="button", cls="button secondary run-delete")]
        holder = el("div", children=list(self.renaming.get(row["id"], [name])))
        node = el("div", cls="run-row", data_run_id=row["id"], children=[
            holder, el("span", texts["meta"], cls="run-meta"),
            el("span", texts["score"], cls="run-score"), el("span", texts["graded"], cls="run-graded"),
            el("div", cls="run-row-actions", children=buttons)])
        for button in buttons:
            button.setAttribute("aria-label", f"{button.textContent} {texts['name']}")
        on(buttons[0], "click", lambda e: self.start_reopen(row["id"]))
        on(buttons[1], "click", lambda e: self.start_rename(node, row))
        on(buttons[2], "click", lambda e: task(self.delete(row["id"]), self.failed))
        return node

    def start_rename(self, node, row: dict) -> None:
        from toolproof.reports.kept_runs import row_texts

        holder = node.children[0]
        clear(holder)
        field = el("input", type="text", cls="run-name-input", maxlength="120")
        field.value = row["label"] or row_texts(row)["name"]
        field.setAttribute("aria-label", "New name of the run")
        save = el("button", "Save", type="button", cls="button run-save")
        self.renaming[row["id"]] = (field, save)
        holder.appendChild(field)
        holder.appendChild(save)
        on(save, "click", lambda e: task(self.rename(row["id"], str(field.value)), self.failed))
        on(field, "keydown", lambda e: task(self.rename(row["id"], str(field.value)), self.failed)
           if e.key == "Enter" else None)
        field.focus()

    async def rename(self, run_id: str, text: str) -> None:
        """The run's name, changed in the row as stored now (runstore.relabel), not as drawn: a
        run still going keeps its count, and one kept whole meanwhile its state."""
        from toolproof.reports.kept_runs import clean_label

        label = clean_label(text)
        for row in self.rows:            # a batch of the live run sent from now on carries it
            if row["id"] == run_id:
                row["label"] = label
        async with self.keeping:         # never between a keep's read of the rows and its write
            try:
                found = await self.store.relabel(run_id, label)
            except Exception as exc:     # noqa: BLE001
                self.message(f"Not renamed: the browser refused to store it ({exc}).", bad=True)
                return
        self.renaming.pop(run_id, None)
        await self.refresh("Renamed." if found else "")
        if not found:
            self.message("Not renamed: that run is no longer kept.", bad=True)

    async def delete(self, run_id: str) -> None:
        try:
            await self.store.delete(run_id)
        except Exception as exc:         # noqa: BLE001
            self.message(f"Not deleted: the browser refused ({exc}).", bad=True)
            return
        if byid("run-card").getAttribute("data-run-id") == run_id:
            clear(byid("run-card"))
            byid("run-card").removeAttribute("data-run-id")
        await self.refresh("Deleted.")

    # -- reopening
    def start_reopen(self, run_id: str) -> None:
        """The card says "loading" at once, in the click itself: the reading runs as a task, and a
        card left "ready" by the last reopen must not pass for this one until it is drawn."""
        byid("run-card").dataset.state = "loading"
        task(self.reopen(run_id), self.reopen_failed)

    def reopen_failed(self, line: str) -> None:
        byid("run-card").dataset.state = "error"
        self.message(line, bad=True)

    async def reopen(self, run_id: str) -> None:
        card_root = byid("run-card")
        card_root.dataset.state = "loading"
        try:
            doc = await self.store.load_run(run_id)
        except Exception as exc:         # noqa: BLE001 - deleted in another tab, or storage failed
            self.message(f"This run cannot be read back ({exc.__class__.__name__}).", bad=True)
            card_root.dataset.state = "error"
            return
        row = next((r for r in self.rows if r["id"] == run_id), None)
        self.draw(doc, run_id, row)

    def draw(self, doc: dict, run_id: str, row: dict | None) -> None:
        from toolproof.errors import ToolProofError
        from toolproof.reports.kept_runs import row_texts
        from toolproof.scoring.results_doc import SCORECARD, kept_kind

        card_root = byid("run-card")
        clear(card_root)
        card_root.setAttribute("data-run-id", run_id)
        for node in byid("runs").querySelectorAll(".run-row"):
            node.classList.toggle("open", node.getAttribute("data-run-id") == run_id)
        title = row_texts(row)["name"] if row else run_id
        card_root.appendChild(el("h3", f"Reopened: {title}", cls="run-card-title"))
        try:
            if kept_kind(doc, title) == SCORECARD:
                self.draw_scorecard_file(card_root, doc)
            else:
                cases, tools = self.suite_for(doc)
                # a run with arms: its baseline's card, and the Arms section (card/arms.py)
                arms = ArmsBlock(doc, cases, tools, source=title) if has_arms(doc) else None
                kept_scorecard(el_into(card_root), doc, self.regrade(baseline_document(doc, title), cases, tools, title),
                               cases, tools, errata=self.errata_for(doc, cases), name=row["label"] if row else "",
                               worlds=self.worlds, arms=arms)
        except ToolProofError as exc:
            card_root.appendChild(el("p", exc.line(), cls="run-message bad"))
            card_root.dataset.state = "error"
            return
        card_root.dataset.state = "ready"
        card_root.scrollIntoView()

    def draw_scorecard_file(self, root, card: dict) -> None:
        """A scorecard without its transcripts (grade --format json): the figures and the verdicts;
        the case detail needs the transcripts, which this file does not have."""
        from toolproof.reports.kept_runs import row_of, row_texts

        texts = row_texts(row_of(card, card, run_id="", kept="", size=0))
        root.appendChild(el("p", f"Score {texts['score']} · {texts['graded']} · {texts['meta']}", cls="live-label"))
        root.appendChild(el("p", "A scorecard file (grade --format json): the verdicts and reasons as "
                                 "graded then; open a results file to see each exchange.", cls="muted small"))
        arms = arms_section(card, "kept")          # a run with arms' scorecard: its Arms section too
        if arms is not None:
            root.appendChild(arms)
        cases = el("div", cls="case-list")
        for entry in card["cases"][:2000]:
            try:
                cases.appendChild(case_row(entry, expandable=False))
            except Exception:            # noqa: BLE001 - a hand-edited entry: shown by id only
                cases.appendChild(el("p", f"{entry['id']}: {entry['verdict']}", cls="case-row"))
        root.appendChild(cases)

    def suite_for(self, doc: dict):
        """The suite a results file was run on: ours, or the draft's when its fingerprint matches."""
        from toolproof.suite.fingerprint import suite_sha256

        if self.draft is not None and doc.get("suite_sha256") and self.draft[2] is not None \
                and doc.get("suite_sha256") == suite_sha256(self.draft[2]):
            return self.draft[0], self.draft[1]
        return self.bundle.cases, self.bundle.tools

    def errata_for(self, doc: dict, cases) -> list:
        """The errata of the bundled suite made after this results file (none for a run of the
        draft suite: data/errata.json records the bundled suite's changes). Read once."""
        from toolproof.datafiles import load_errata
        from toolproof.suite.errata import applying

        if cases is not self.bundle.cases:
            return []
        if self._errata is None:
            self._errata = load_errata()
        return applying(doc, self._errata, self.bundle.documents["suite"])

    def regrade(self, doc: dict, cases, tools, source: str):
        from toolproof.datafiles import format_schema
        from toolproof.scoring.results_doc import regraded

        return regraded(doc, cases, tools, format_schema("transcripts"), source, worlds=self.worlds)

    # -- opening a file
    async def open_file(self, files) -> None:
        from toolproof.datafiles import json_from_text, refuse_larger
        from toolproof.errors import ToolProofError
        from toolproof.scoring.results_doc import SCORECARD, kept_kind

        if not files.length:
            return
        file = files.item(0)
        name = str(file.name)[:200]
        byid("kept").dataset.open = "reading"
        try:
            refuse_larger(int(file.size), name)          # the terminal's bound, before the text is read
            doc = json_from_text(str(await file.text()), name)
            if kept_kind(doc, name) == SCORECARD:
                card = doc
            else:
                cases, tools = self.suite_for(doc)
                card = results_card(doc, cases, tools, name, worlds=self.worlds)     # with arms: every arm
        except ToolProofError as exc:
            self.message(exc.line(), bad=True)
            byid("kept").dataset.open = "error"
            return
        fill(byid("open-results"), "")     # ready for the next file; one chosen meanwhile stays
        run_id = await self.keep(doc, card, label=str(doc.get("label") or "") or name)
        if run_id is not None:
            self.message(f"Opened {name} and kept it in this browser.")
            self.draw(doc, run_id, next((r for r in self.rows if r["id"] == run_id), None))
        byid("kept").dataset.open = "done" if run_id is not None else "error"


def el_into(root):
    body = el("div")
    root.appendChild(body)
    return body

