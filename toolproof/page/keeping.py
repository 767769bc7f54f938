"""A live run kept in this browser as it goes, so closing the tab never loses what was answered.

When the run starts, its row (state "running", "0 of M") and its head (the results file without
transcripts) are stored; each finished conversation, redacted as the results file holds it
(runner.Run.on_kept), joins a batch, and a batch is sent at once when none is being written
(in the call that hands it on), else when the one being written is stored: one write at a time,
each holding what finished since the last, so the cost grows with the run, never
with its square, and a busy page writes fewer, larger batches. When the run ends, its whole results
file replaces head and batches (the kept runs' `keep`), before the page says "Run complete.".
A tab closed before that leaves a run the next visit settles (page/runs.py: `settle`); the lock
held while it runs (page/runstore.py) tells it from a run going on in another tab.

An edge module (IndexedDB through page/runstore.py). It never imports a panel: page/main.py hands it
the kept runs' view (`store`, `rows`, `keeping`, `notices`, `keep`, `refresh`).
"""
from __future__ import annotations

import asyncio

import js

from .runstore import hold_run

BEGIN_WAIT_S = 10        # how long a run waits for the store before it starts without keeping as it goes


class LiveKeeping:
    """One live run at a time, kept as it goes; every failure is one line, never raised into the run."""

    def __init__(self, runs):
        self.runs = runs
        self.run_id: str | None = None
        self.head: dict = {}
        self.planned = self.graded = self.size = self.seq = 0
        self.batch: list = []
        self.writing: asyncio.Future | None = None
        self.problem = ""          # why the run is no longer being kept as it goes (storage refused)
        self.release = lambda: None

    async def begin(self, head: dict, planned: int) -> None:
        """Store the run's row and head before its first request; a refusal leaves the run to be
        kept whole at its end, as before."""
        from toolproof.reports.kept_runs import drop_notice, row_texts, to_drop
        from toolproof.reports.scorecard import kept_json

        self.run_id, self.batch, self.seq, self.graded, self.problem = None, [], 0, 0, ""
        self.head, self.planned = {**head, "transcripts": []}, planned
        text = kept_json(self.head)
        self.size = len(text.encode("utf-8"))
        run_id = f"run-{int(js.Date.now())}-live"
        row = self._row(run_id)
        async def store() -> tuple[list, list]:
            async with self.runs.keeping:
                rows = await self.runs.store.list_runs()
                drop = to_drop(rows, self.size)
                await self.runs.store.put(row, text, drop, parts=True)
                return rows, drop
        try:    # bounded: a store still opening (or blocked by another tab) never holds the run back
            rows, drop = await asyncio.wait_for(store(), BEGIN_WAIT_S)
        except Exception as exc:         # noqa: BLE001 - the run goes on; it is kept whole at the end
            self.problem = f"not kept as it goes ({exc.__class__.__name__})"
            return
        self.run_id, self.release = run_id, hold_run(run_id)
        self.runs.notices.add(drop_notice([r for r in rows if r["id"] in drop], row_texts(row)["name"]))
        await self.runs.refresh()

    def add(self, index: int, transcript: dict) -> None:
        """A finished conversation (its plan index, redacted): written with the next batch."""
        from toolproof.running.runner import succeeded

        if self.run_id is None:
            return
        self.batch.append((index, transcript))
        self.graded += succeeded(transcript)
        if self.writing is None or self.writing.done():
            # the write is sent here, in the call, not on the loop's next turn: what follows in the
            # worker (grading, the feed) never stands between an answer and its storage
            self.writing = self._send()

    def _send(self) -> asyncio.Future | None:
        """Send the waiting batch; a future that ends when it and every batch after it are stored."""
        from toolproof.reports.kept_runs import MAX_TOTAL_BYTES, part_key, part_text, to_drop

        items, self.batch = self.batch, []
        text = part_text(items)
        size = len(text.encode("utf-8"))
        if self.size + size > MAX_TOTAL_BYTES:      # the end says "Not kept" and why
            self.problem = "too large to keep as it goes"
            return None
        self.seq += 1
        self.size += size
        row = self._row(self.run_id)
        others = [r for r in self.runs.rows if r["id"] != self.run_id]
        drop = to_drop(others, self.size)
        try:
            sent = self.runs.store.put_part(row, part_key(self.run_id, self.seq), text, drop)
        except Exception as exc:         # noqa: BLE001 - the run goes on; it is kept whole at the end
            self.problem = f"not kept as it goes ({exc})"
            return None
        return asyncio.ensure_future(self._stored(sent, row, [r for r in others if r["id"] in drop]))

    async def _stored(self, sent, row: dict, dropped: list[dict]) -> None:
        """Once a batch is stored: say which runs it dropped, then send what finished meanwhile."""
        from toolproof.reports.kept_runs import drop_notice, row_texts

        try:
            await sent
        except Exception as exc:         # noqa: BLE001 - the run goes on; it is kept whole at the end
            self.problem = f"not kept as it goes ({exc})"
            return
        if dropped:
            self.runs.notices.add(drop_notice(dropped, row_texts(row)["name"]))
            gone = {r["id"] for r in dropped}
            self.runs.rows = [r for r in self.runs.rows if r["id"] not in gone]
        if self.batch and self.run_id is not None:
            following = self._send()
            if following is not None:
                await following

    def _row(self, run_id: str) -> dict:
        from toolproof.reports.kept_runs import row_of

        now = str(js.Date.new().toISOString())[:19] + "Z"
        card = {"coverage": {"planned": self.planned, "graded": self.graded}}
        # a run renamed while it runs keeps its new name
        label = next((r["label"] for r in self.runs.rows if r["id"] == run_id), "")
        return row_of(self.head, card, run_id=run_id, kept=now, size=self.size, label=label)

    async def end(self, doc: dict, card: dict) -> str:
        """Keep the finished run's whole results file in place of what was kept as it went; the
        line the run's message ends with: 'Kept as “…” in Runs.', or why it was not."""
        from toolproof.reports.kept_runs import kept_line

        run_id = await self._stop()
        try:
            kept = await self.runs.keep(doc, card, run_id=run_id)
        finally:
            self.release()
        if kept is None:                 # refused (too large): what was kept as it went goes too
            if run_id is not None:
                await self._forget(run_id)
            return "Not kept in Runs: see why under Runs."
        row = next((r for r in self.runs.rows if r["id"] == kept), None)
        return kept_line(row) if row is not None else "Kept in Runs."

    async def discard(self) -> None:
        """A run that got no answer at all: nothing of it is kept."""
        run_id = await self._stop()
        self.release()
        if run_id is not None:
            await self._forget(run_id)
            await self.runs.refresh()

    async def _stop(self) -> str | None:
        """No more batches; the one being written finishes first. The run's id, None if not kept."""
        run_id, self.run_id = self.run_id, None      # the batch being written is the last
        if self.writing is not None and not self.writing.done():
            try:
                await self.writing
            except Exception:            # noqa: BLE001 - said as self.problem
                pass
        return run_id

    async def _forget(self, run_id: str) -> None:
        try:
            await self.runs.store.delete(run_id)
        except Exception:                # noqa: BLE001 - the next visit settles what is left
            pass
