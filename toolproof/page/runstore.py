"""The kept runs' storage: IndexedDB in the worker (or memory where the browser refuses it), and the
locks that tell a run still going in some tab from one whose tab was closed. An edge module
(IndexedDB, Web Locks).

Two object stores, each keyed by "id": `rows` (a kept run's row: reports/kept_runs.row_of, as JSON)
and `docs` (its results file's text). A run kept as it goes (page/keeping.py) has, in `docs`, its
head under its id (marked `parts`) and its conversations in batches under `kept_runs.part_key`
(its id, a slash, a number); the whole file replaces them when the run ends. No schema change was
needed for that, so a tab still open on an older page never blocks the database's upgrade.

Other panels are handed a `KeptRuns` by page/main.py: `list_runs()` -> rows, `load_run(id)` -> the
results document, whole whichever way it was stored.
"""
from __future__ import annotations

import asyncio
import json

import js
from pyodide.ffi import create_proxy, to_js

DB_NAME, DB_VERSION = "toolproof", 1


def _obj(value: dict):
    return to_js(value, dict_converter=js.Object.fromEntries)


def _wait(request, *, events=("success", "error")):
    """A future for an IndexedDB request (or, with complete/error/abort, a transaction)."""
    future = asyncio.get_event_loop().create_future()
    proxies = []

    def settle(ok: bool):
        def handler(event):
            if not future.done():
                if ok:
                    future.set_result(getattr(request, "result", None))
                else:
                    error = getattr(request, "error", None)
                    future.set_exception(RuntimeError(str(getattr(error, "name", None) or "IndexedDB failed")))
            for proxy in proxies:
                proxy.destroy()
            proxies.clear()
        proxies.append(create_proxy(handler))
        return proxies[-1]
    ok_event, *bad_events = events
    setattr(request, "on" + ok_event, settle(True))
    for event in bad_events:
        setattr(request, "on" + event, settle(False))
    return future


class KeptRuns:
    """The kept runs' storage: rows (small, listed) and documents (the results files' JSON text)."""

    def __init__(self):
        self.db = None
        self.memory: dict = {"rows": {}, "docs": {}}    # where IndexedDB is refused (a private window)
        self.problem = ""
        self.opened = asyncio.Event()    # every call waits for open(): nothing goes to memory by mistake

    async def open(self) -> None:
        try:
            await self._open()
        finally:
            self.opened.set()

    async def _open(self) -> None:
        try:
            request = js.indexedDB.open(DB_NAME, DB_VERSION)

            def upgrade(event):
                db = request.result
                for store in ("rows", "docs"):
                    if not db.objectStoreNames.contains(store):
                        db.createObjectStore(store, _obj({"keyPath": "id"}))
            upgrade_proxy = create_proxy(upgrade)
            request.onupgradeneeded = upgrade_proxy
            self.db = await _wait(request)
        except Exception as exc:         # noqa: BLE001 - no IndexedDB here: kept for this visit only
            self.db, self.problem = None, f"runs are kept for this visit only (IndexedDB: {exc})"

    async def _tx(self, stores: list, mode: str, work):
        await self.opened.wait()
        tx = self.db.transaction(to_js(stores), mode)
        result = work(tx)
        await _wait(tx, events=("complete", "error", "abort"))
        return result

    async def list_runs(self) -> list[dict]:
        """Every kept run's row, newest first."""
        from toolproof.reports.kept_runs import listed

        await self.opened.wait()
        if self.db is None:
            return listed(list(self.memory["rows"].values()))
        request = self.db.transaction("rows", "readonly").objectStore("rows").getAll()
        items = await _wait(request)
        return listed([json.loads(str(item.json)) for item in items])

    async def load_run(self, run_id: str) -> dict:
        """The results document (or scorecard) of a kept run; KeyError if it is gone."""
        return (await self.load_kept(run_id))[0]

    async def load_kept(self, run_id: str) -> tuple[dict, int]:
        """(the document, how many of its stored batches could not be read: 0 for a whole file)."""
        from toolproof.limits import read_json
        from toolproof.reports.kept_runs import MAX_TOTAL_BYTES, assembled, parts_range

        await self.opened.wait()
        if self.db is None:
            item = self.memory["docs"].get(run_id)
            if item is None:
                raise KeyError(run_id)
            low, high = parts_range(run_id)
            parts = [text for key, (text, _) in sorted(self.memory["docs"].items()) if low <= key <= high]
            text, has_parts = item
        else:
            store = self.db.transaction("docs", "readonly").objectStore("docs")
            item = await _wait(store.get(run_id))
            if item is None or not hasattr(item, "text"):
                raise KeyError(run_id)
            text, has_parts = str(item.text), bool(getattr(item, "parts", False))
            parts = []
            if has_parts:
                found = await _wait(self.db.transaction("docs", "readonly").objectStore("docs")
                                    .getAll(js.IDBKeyRange.bound(*parts_range(run_id))))
                parts = [str(getattr(part, "text", "")) for part in found]
        if not has_parts:
            return json.loads(text), 0
        return assembled(read_json(text, what="stored run", max_bytes=MAX_TOTAL_BYTES), parts)

    async def put(self, row: dict, text: str | None, drop: list[str], *, parts: bool = False) -> None:
        """Store a row (and its document's text, unless only the row changed); delete `drop` first.
        A text replaces the run's stored batches; `parts` marks it as the head the batches go with."""
        await self.opened.wait()
        if self.db is None:
            for gone in drop:
                self._forget(gone)
            if text is not None:
                self._forget(row["id"])
                self.memory["docs"][row["id"]] = (text, parts)
            self.memory["rows"][row["id"]] = row
            return

        def work(tx):
            rows, docs = tx.objectStore("rows"), tx.objectStore("docs")
            for gone in drop:
                rows.delete(gone)
                docs.delete(gone)
                docs.delete(_parts(gone))
            rows.put(_obj({"id": row["id"], "json": json.dumps(row)}))
            if text is not None:
                docs.delete(_parts(row["id"]))
                docs.put(_obj({"id": row["id"], "text": text, **({"parts": True} if parts else {})}))
        await self._tx(["rows", "docs"], "readwrite", work)

    async def relabel(self, run_id: str, label: str) -> bool:
        """A kept run's name changed in its row as the store holds it, read and written in one
        transaction: a batch of a live run (its count) or the run's end stored meanwhile is never
        set back to the row the page last drew. False if the run is no longer kept."""
        await self.opened.wait()
        if self.db is None:
            row = self.memory["rows"].get(run_id)
            if row is not None:
                self.memory["rows"][run_id] = {**row, "label": label}
            return row is not None
        found = []

        def work(tx):
            rows = tx.objectStore("rows")
            request = rows.get(run_id)

            def got(event):
                item = request.result
                if item is not None:
                    row = {**json.loads(str(item.json)), "label": label}
                    rows.put(_obj({"id": run_id, "json": json.dumps(row)}))
                    found.append(row)
                proxy.destroy()
            proxy = create_proxy(got)
            request.onsuccess = proxy
        await self._tx(["rows"], "readwrite", work)
        return bool(found)

    def put_part(self, row: dict, key: str, text: str, drop: list[str]):
        """One more batch of a run kept as it goes, and its row brought up to date, in one
        transaction (so the row never counts conversations the store does not hold). Sent at once,
        in this call (only an open store is written this way: keeping.py begins only then), so a
        tab closed a moment later finds it committed; returns a future for its end."""
        if self.db is None:
            for gone in drop:
                self._forget(gone)
            self.memory["docs"][key] = (text, False)
            self.memory["rows"][row["id"]] = row
            done = asyncio.get_event_loop().create_future()
            done.set_result(None)
            return done
        # relaxed: stored once the browser has it, not once the disk has it (a batch is small and
        # the end stores the whole file again), so a queue of batches empties fast
        tx = self.db.transaction(to_js(["rows", "docs"]), "readwrite", _obj({"durability": "relaxed"}))
        rows, docs = tx.objectStore("rows"), tx.objectStore("docs")
        for gone in drop:
            rows.delete(gone)
            docs.delete(gone)
            docs.delete(_parts(gone))
        docs.put(_obj({"id": key, "text": text}))
        rows.put(_obj({"id": row["id"], "json": json.dumps(row)}))
        done = _wait(tx, events=("complete", "error", "abort"))
        if hasattr(tx, "commit"):
            # committed now, not once the worker's loop has run the requests' success events: a
            # worker busy grading (or a tab closing) never holds a sent batch back
            tx.commit()
        return done

    async def delete(self, run_id: str) -> None:
        await self.opened.wait()
        if self.db is None:
            self._forget(run_id)
            return

        def work(tx):
            tx.objectStore("rows").delete(run_id)
            tx.objectStore("docs").delete(run_id)
            tx.objectStore("docs").delete(_parts(run_id))
        await self._tx(["rows", "docs"], "readwrite", work)

    def _forget(self, run_id: str) -> None:
        """In memory: a run's row, its document and its batches."""
        from toolproof.reports.kept_runs import parts_range

        low, high = parts_range(run_id)
        self.memory["rows"].pop(run_id, None)
        for key in [k for k in self.memory["docs"] if k == run_id or low <= k <= high]:
            del self.memory["docs"][key]


def _parts(run_id: str):
    """The key range of a run's stored batches."""
    from toolproof.reports.kept_runs import parts_range

    return js.IDBKeyRange.bound(*parts_range(run_id))


# -- which runs are still going, in this tab or another (Web Locks: a tab's locks go with it)

LOCK_PREFIX = "toolproof-run:"


def hold_run(run_id: str):
    """Hold a lock named after a run while it runs; returns the function that lets it go. Where the
    browser has no Web Locks, nothing is held (a later visit then settles no run it cannot tell)."""
    locks = getattr(getattr(js, "navigator", None), "locks", None)
    if locks is None:
        return lambda: None
    release: list = []
    held = js.Promise.new(create_proxy(lambda resolve, reject: release.append(resolve)))
    locks.request(LOCK_PREFIX + run_id, create_proxy(lambda lock: held))
    return lambda: release[0]() if release else None


async def running_elsewhere() -> set[str] | None:
    """The ids of the runs some tab of this page holds the lock of (is running); None when the
    browser cannot tell (no Web Locks), so no run is taken for abandoned."""
    locks = getattr(getattr(js, "navigator", None), "locks", None)
    if locks is None:
        return None
    state = await locks.query()
    names = [str(lock.name) for lock in list(state.held) + list(state.pending)]
    return {name[len(LOCK_PREFIX):] for name in names if name.startswith(LOCK_PREFIX)}
