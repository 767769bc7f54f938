"""The page's entry point: boots in PyScript, grades the committed fixtures, wires the panels.

Everything shown is built with createElement and textContent (toolproof.page.dom), never from
HTML strings. No grading logic lives here: it calls the same `evaluate`, `scorecard` and
`to_json` the terminal uses. Loaded by index.html as the PyScript main script.
"""
from __future__ import annotations

import asyncio
import importlib.abc
import importlib.util
import json
import sys

from toolproof.page.dom import mark

mark("script")                 # before our own imports (benchmarks/page_load.py)

from toolproof.page.arms import ArmsField
from toolproof.page.board import BoardView
from toolproof.page.bridge import post_writes
from toolproof.page.card.scorecard import ScorecardView
from toolproof.page.compare import CompareView, remember_live
from toolproof.page.dom import (clear, document, el, flush, on, page_js, page_now, paint, set_stage,  # noqa: E402
                                task, when_visible)
from toolproof.page.editor import CaseEditor
from toolproof.page.inputs import publish as publish_input_bound
from toolproof.page.live import LiveController
from toolproof.page.own import OwnView
from toolproof.page.runform import RunForm
from toolproof.page.keeping import LiveKeeping
from toolproof.page.runs import RunsView
from toolproof.page.worldfile import WorldFileView
from toolproof.page.runstore import KeptRuns
from toolproof.plurals import counted


class _RpdsAlias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """`import rpds` gives the pure-Python pyrsistent_as_rpds (DESIGN.md: rpds-py has no
    WebAssembly wheel). Lazy: jsonschema, and so rpds, is only imported if a schema needs it."""

    def find_spec(self, name, path=None, target=None):
        return importlib.util.spec_from_loader(name, self) if name == "rpds" else None

    def create_module(self, spec):
        return importlib.import_module("pyrsistent_as_rpds.pure")

    def exec_module(self, module):
        return None


async def load_jsonschema() -> None:
    """Fetch and unpack the jsonschema wheels from vendor/. Only called when a schema needs more
    than the built-in checker: the committed data never does, and the wheels cost most of a
    second at start-up."""
    import io
    import site
    import zipfile
    from urllib.parse import urljoin

    from pyscript import fetch

    set_stage("packages", "Loading jsonschema: a schema uses keywords beyond the built-in checker…")
    await paint()
    # the worker's fetch: relative URLs are resolved against the page, not the worker's blob: URL
    base = str(page_js.location.href)
    lock = json.loads(await fetch(urljoin(base, "./vendor.lock.json")).text())
    target = site.getsitepackages()[0]
    for artifact in lock["artifacts"]:
        if artifact["source"] == "pip":
            response = await fetch(urljoin(base, f"./vendor/wheels/{artifact['file']}"))
            if not response.ok:
                raise RuntimeError(f"could not load vendor/wheels/{artifact['file']} (HTTP {response.status})")
            zipfile.ZipFile(io.BytesIO(await response.bytearray())).extractall(target)
    importlib.invalidate_caches()


# The panels never import each other; this module wires them, and hands each only what another
# panel does: the live result to Compare and the Leaderboard, a run as it goes to the kept runs, the
# kept runs' changes to Compare, the draft suite to the run form and the kept runs. What draws a
# scorecard (page/card/) is no panel: every panel imports it.

# The kept runs' storage: list_runs() -> rows, load_run(id) -> the results document. Other panels
# (Compare, a leaderboard) are handed this object, never the view.
KEPT = KeptRuns()


async def rank_kept_runs(board) -> None:
    """The Leaderboard's "Rank the kept runs": the kept runs of the bundled suite, newest first. A
    scorecard alone (no transcripts), a run of another suite ("Your suite") or one that records no
    suite fingerprint cannot be ranked here; those are left out and counted, never allowed to sink
    the ranking of the others."""
    from toolproof.reports.kept_runs import row_texts
    from toolproof.suite.fingerprint import suite_sha256

    ours = suite_sha256(board.bundle.documents["suite"])
    documents, scorecards, other_suite, unknown = [], 0, 0, 0
    for row in await KEPT.list_runs():
        if row.get("kind") == "scorecard":
            scorecards += 1
            continue
        if not row.get("suite_sha256"):    # the board cannot show it used the same suite
            unknown += 1
            continue
        if row["suite_sha256"] != ours:
            other_suite += 1
            continue
        try:
            documents.append((await KEPT.load_run(row["id"]), row_texts(row)["name"]))
        except Exception as exc:       # a run the browser lost: the others are still ranked
            page_js.console.warn(f"kept run {row['id']} could not be read: {exc}")
    left = [counted(n, noun) + what for n, noun, what in (
                (scorecards, "scorecard-only file", " (no transcripts in it)"),
                (other_suite, "run", " of another suite, e.g. Your suite"),
                (unknown, "run", " with no suite fingerprint, e.g. the fixtures")) if n]
    board.set_runs(documents, note="Left out of the kept runs: " + "; ".join(left) + "." if left else "")


async def load_bundle(read: dict):
    """Check the documents; if a schema needs jsonschema (not bundled at start-up), fetch it
    and check again. Each schema is compiled once on the usual path."""
    from toolproof.datafiles import bundle_from

    try:
        return bundle_from(read)
    except ModuleNotFoundError as exc:
        if (exc.name or "").split(".")[0] != "jsonschema":
            raise
    await load_jsonschema()
    return bundle_from(read)


async def bundled_worlds() -> dict:
    """The bundled worlds (datafiles.bundled_worlds: data/worlds/*.json through limits, checked by
    worlds/load.py), world id -> World; a bad bundled world stops the start in one line. As for the
    suite, jsonschema is fetched first only if a tool schema needs it."""
    from toolproof.datafiles import bundled_worlds as read

    try:
        return read()
    except ModuleNotFoundError as exc:
        if (exc.name or "").split(".")[0] != "jsonschema":
            raise
    await load_jsonschema()
    return read()


async def boot() -> None:
    mark("python")
    publish_input_bound()     # first: from here web/boot.mjs refuses text over it in any field
    sys.meta_path.append(_RpdsAlias())
    set_stage("packages", "Loading ToolProof…")
    await paint()
    from toolproof.datafiles import read_documents

    set_stage("suite", "Loading the suite, the worlds and the fixture transcripts…")
    await paint()
    mark("imports")
    read = read_documents()
    bundle = await load_bundle(read)
    worlds = await bundled_worlds()   # data/worlds/*.json: the Scenarios scope and the fixture scenarios
    mark("suite")
    scenarios = bundle.transcripts.scenarios or {}
    context = {"cases": {c.id: c for c in bundle.cases}, "tools": bundle.tools,
               "transcripts": bundle.transcripts.transcripts, "worlds": worlds, "scenarios": scenarios}
    board = BoardView(bundle, worlds)     # ranks uploaded files, the live result and, on request, the kept runs

    def shown_live(doc: dict) -> None:     # Compare and the Leaderboard may both use it
        remember_live(doc)
        board.remember_live(doc)

    arms = ArmsField(bundle)              # the run form's Arms field: a run with arms (page/arms.py)
    form = RunForm(bundle, worlds, arms)
    compare = CompareView(bundle, KEPT, worlds)
    runs = RunsView(KEPT, bundle, on_change=compare.offer, worlds=worlds)
    live = LiveController(bundle, context, form, remember_live=shown_live, keeping=LiveKeeping(runs))
    OwnView(_DraftTap(live, runs, arms), load_jsonschema, editor=CaseEditor)

    def offer_world(world) -> None:       # a world file that holds: Scenarios scopes, and its kept runs graded
        form.set_world(world)
        runs.worlds = compare.worlds = board.worlds = form.scenarios.worlds
    WorldFileView(offer_world, load_jsonschema)
    on(document.getElementById("board-use-kept"), "click",
       lambda _e: task(rank_kept_runs(board), board.fail))
    fixture_fold()
    mark("panels")
    # The fixture scorecard, last on the page, is graded the first time it is in view: grading the
    # fixtures and their diagnosis were about half of every start-up, most visits never scroll there.
    when_visible(document.getElementById("fixture"), lambda _e: task(fixture_card(bundle, worlds, context), fixture_failed))
    flush(wait=False)        # not paint(): no task may run before ready (the draft's restore waits)
    asyncio.ensure_future(runs.start())      # IndexedDB opens beside the start-up, not on its path
    document.getElementById("boot").setAttribute("hidden", "")
    post_writes(None)                   # from here, each flush is one trip, as handlers expect
    page_js.__readyMs = page_now()      # read by benchmarks/page_load.py
    import js                           # the worker's own globals: how web/runtime.mjs started Pyodide
    page_js.__runtime = str(getattr(js, "toolproofRuntime", "unknown"))
    document.body.dataset.ready = "true"
    await paint()
    if page_js.URLSearchParams.new(page_js.location.search).get("selftest") == "1":
        run_selftest(bundle)


class _DraftTap:
    """What the #own section is handed as its live controller: the draft suite goes to the run
    form's scope, and to the kept runs (a run of "Your suite" reopens on the draft's cases); its
    tools document to the Arms field (an arm that ablates "Your suite"'s tools ablates that)."""

    def __init__(self, live, runs, arms):
        self.live, self.runs, self.arms = live, runs, arms

    def set_own(self, cases, tools: dict, document: dict | None = None, tools_doc: dict | None = None) -> None:
        self.runs.draft = (cases, tools, document) if cases else None
        self.arms.own_doc = tools_doc if cases else None
        self.live.set_own(cases, tools, document)


FOLD_KEY = "toolproof.fixtures-open"


async def fixture_card(bundle, worlds: dict, context: dict) -> None:
    """Grade the fixtures, show their scorecard, then its diagnosis and intervals: #fixture-card
    says data-state "grading", then "graded" (and data-diagnosis "ready", as every card does)."""
    from toolproof.scoring.evaluate import grade_transcripts, source_of

    card = document.getElementById("fixture-card")
    scenarios = context["scenarios"]
    card.dataset.state = "grading"
    clear(card)
    card.appendChild(el("p", f"Grading the fixture transcripts of {counted(len(bundle.transcripts.transcripts), 'case')}"
                                 + (f" and {counted(len(scenarios), 'scenario')}…" if scenarios else "…"),
                            cls="muted", id="fixture-grading", role="status"))
    await paint()
    results = grade_transcripts(bundle.cases, bundle.tools, bundle.transcripts, worlds=worlds)   # every repeat
    view = ScorecardView(card, results, kind="fixture", source=source_of(bundle.transcripts), context=context,
                         diagnose_now=False)
    mark("graded")
    view.render()
    card.dataset.state = "graded"
    mark("rendered")
    await paint()
    view.add_diagnosis()
    mark("diagnosis")


def fixture_failed(message: str) -> None:
    card = document.getElementById("fixture-card")
    card.dataset.state = "error"
    clear(card)
    card.appendChild(el("p", f"The fixture scorecard could not be drawn: {message}", cls="error", role="alert"))


def fixture_fold() -> None:
    """The fixture scorecard folds; whether it is open is kept across a reload (localStorage)."""
    fold = document.getElementById("fixture-details")
    try:
        if page_js.localStorage.getItem(FOLD_KEY) == "false":
            fold.open = False
    except Exception:                    # noqa: BLE001 - storage refused: open, as it starts
        pass

    def keep(event) -> None:
        try:
            page_js.localStorage.setItem(FOLD_KEY, "true" if fold.open else "false")
        except Exception:                # noqa: BLE001
            pass
    on(fold, "toggle", keep)


def run_selftest(bundle) -> None:
    from toolproof.datafiles import format_schema
    from toolproof.selftest.checks import run_selftest as selftest

    schemas = {name: format_schema(name) for name in ("tools", "suite", "transcripts")}
    report = selftest(bundle.documents, schemas)
    for failure in report.failures:
        page_js.console.error(f"FAIL {failure}")
    page_js.console.log(report.summary())
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
    page_js.console.error(message)


async def main() -> None:
    # While the page starts, the writes are posted, not waited for (bridge.post_writes): the
    # worker grades and builds the next piece while the page lays out the last one.
    channel = getattr(page_js, "toolproofChannel", None)      # web/boot.mjs names it
    post_writes(channel if isinstance(channel, str) else None)
    try:
        await boot()
    except Exception as exc:  # shown to the user in one line, and in the console
        post_writes(None)
        show_boot_error(exc)


_task = asyncio.ensure_future(main())
