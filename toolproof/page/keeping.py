"""A live run kept in this browser as it goes, so closing the tab never loses what was answered.

When the run starts, its row (state "running", "0 of M") and its head (the results file without
transcripts) are stored; each finished conversation, redacted as the results file holds it
(runner.Run.on_kept), is sent at once, in the call that hands it on, as its own batch: IndexedDB
queues the transactions and each is committed as soon as it is sent (runstore.put_part), so no
answer waits behind another write or behind the worker's grading (holding conversations back until
the write in flight was stored lost the last few of a 56-conversation run whose tab was closed 0.5 s
after the last answer). One write per conversation, each of its own size: the cost grows with the
run, never with its square. When the run ends, everything sent is stored (`flush`) before anything
is graded, then its whole results file replaces head and batches (the kept runs' `keep`), before
the page says "Run complete.".
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
        self.writing: list[asyncio.Future] = []    # batches sent and not yet known to be stored
        self.dropping: set[str] = set()            # other runs a batch sent drops (said once)
        self.problem = ""          # why the run is no longer being kept as it goes (storage refused)
        self.release = lambda: None

    async def begin(self, head: dict, planned: int) -> None:
        """Store the run's row and head before its first request; a refusal leaves the run to be
        kept whole at its end, as before."""
        from toolproof.reports.kept_runs import drop_notice, row_texts, to_drop
        from toolproof.reports.scorecard import kept_json

        self.run_id, self.seq, self.graded, self.problem = None, 0, 0, ""
        self.writing, self.dropping = [], set()
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
        """A finished conversation (its plan index, redacted): sent now, in this call, not on the
        loop's next turn, so what follows in the worker (grading, the feed) never stands between an
        answer and its storage."""
        from toolproof.running.runner import succeeded

        if self.run_id is None:
            return
        self.graded += succeeded(transcript)
        sent = self._send([(index, transcript)])
        if sent is not None:
            self.writing = [w for w in self.writing if not w.done()] + [sent]

    def _send(self, items: list) -> asyncio.Future | None:
        """Send one batch; a future that ends when it is stored."""
        from toolproof.reports.kept_runs import MAX_TOTAL_BYTES, part_key, part_text, to_drop

        text = part_text(items)
        size = len(text.encode("utf-8"))
        if self.size + size > MAX_TOTAL_BYTES:      # the end says "Not kept" and why
            self.problem = "too large to keep as it goes"
            return None
        self.seq += 1
        self.size += size
        row = self._row(self.run_id)
        others = [r for r in self.runs.rows if r["id"] != self.run_id and r["id"] not in self.dropping]
        drop = to_drop(others, self.size)
        try:
            sent = self.runs.store.put_part(row, part_key(self.run_id, self.seq), text, drop)
        except Exception as exc:         # noqa: BLE001 - the run goes on; it is kept whole at the end
            self.problem = f"not kept as it goes ({exc})"
            return None
        self.dropping |= set(drop)
        return asyncio.ensure_future(self._stored(sent, row, [r for r in others if r["id"] in drop]))

    async def _stored(self, sent, row: dict, dropped: list[dict]) -> None:
        """Once a batch is stored: say which runs it dropped."""
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

    async def flush(self) -> None:
        """Every batch sent so far stored (or failed, said as self.problem)."""
        writing, self.writing = self.writing, []
        for sent in writing:
            try:
                await sent
            except Exception:            # noqa: BLE001 - said as self.problem
                pass

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
        """No more batches; those sent are stored first. The run's id, None if not kept."""
        run_id, self.run_id = self.run_id, None      # the batches sent are the last
        await self.flush()
        return run_id

    async def _forget(self, run_id: str) -> None:
        try:
            await self.runs.store.delete(run_id)
        except Exception:                # noqa: BLE001 - the next visit settles what is left
            pass
