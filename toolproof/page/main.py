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

from pyscript import window

_SCRIPT_START = window.performance.now()      # before our own imports (benchmarks/page_load.py)

from toolproof.page.cases import CaseList, case_row
from toolproof.page.compare import CompareView, remember_live
from toolproof.page.diagnosis import diagnosis_section
from toolproof.page.dom import document, page_js, page_now, paint, set_stage
from toolproof.page.live import LiveController
from toolproof.page.own import OwnView
from toolproof.page.scorecard import ScorecardView, Sections
from toolproof.page.sweep import sweep_chart


_STAGES = page_js.Object.new()
window.__stages = _STAGES


setattr(_STAGES, "script", _SCRIPT_START)


def mark(stage: str) -> None:
    """Record when a start-up stage ended (benchmarks/page_load.py prints the breakdown)."""
    setattr(_STAGES, stage, page_now())


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
    base = str(window.location.href)
    lock = json.loads(await fetch(urljoin(base, "./vendor.lock.json")).text())
    target = site.getsitepackages()[0]
    for artifact in lock["artifacts"]:
        if artifact["source"] == "pip":
            response = await fetch(urljoin(base, f"./vendor/wheels/{artifact['file']}"))
            if not response.ok:
                raise RuntimeError(f"could not load vendor/wheels/{artifact['file']} (HTTP {response.status})")
            zipfile.ZipFile(io.BytesIO(await response.bytearray())).extractall(target)
    importlib.invalidate_caches()


# The panels never import each other; this module wires them. The scorecard view is handed the
# sections other panels draw (diagnosis, sweep chart, case list); the live controller is handed
# `scorecard_view`, `case_row` for its feed and the Compare section's `remember_live`.
SECTIONS = Sections(diagnosis=diagnosis_section, sweep=sweep_chart, cases=CaseList)


def scorecard_view(root, results, **options) -> ScorecardView:
    """A scorecard view (not yet rendered) with its sections: the fixtures', and each live run's."""
    return ScorecardView(root, results, sections=SECTIONS, **options)


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


async def boot() -> None:
    mark("python")
    sys.meta_path.append(_RpdsAlias())
    set_stage("packages", "Loading ToolProof…")
    await paint()
    from toolproof.datafiles import read_documents
    from toolproof.scoring.evaluate import grade_transcripts, source_of

    set_stage("suite", "Loading the suite and the fixture transcripts…")
    await paint()
    mark("imports")
    read = read_documents()
    bundle = await load_bundle(read)
    mark("suite")
    set_stage("grade", f"Grading {len(bundle.transcripts.transcripts)} fixture transcripts…")
    await paint()
    results = grade_transcripts(bundle.cases, bundle.tools, bundle.transcripts)   # every repeat
    context = {"cases": {c.id: c for c in bundle.cases}, "tools": bundle.tools,
               "transcripts": bundle.transcripts.transcripts}
    view = scorecard_view(document.getElementById("fixture-card"), results, kind="fixture",
                          source=source_of(bundle.transcripts), context=context, diagnose_now=False)
    mark("graded")
    view.render()
    mark("rendered")
    live = LiveController(bundle, context, scorecard_view=scorecard_view, case_row=case_row,
                          remember_live=remember_live)
    mark("live")
    OwnView(live, load_jsonschema)
    mark("own")
    CompareView(bundle)
    mark("compare")
    document.getElementById("boot").setAttribute("hidden", "")
    window.__readyMs = page_now()      # read by benchmarks/page_load.py
    document.body.dataset.ready = "true"
    await paint()
    view.add_diagnosis()
    mark("diagnosis")
    if page_js.URLSearchParams.new(window.location.search).get("selftest") == "1":
        run_selftest(bundle)


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
    try:
        await boot()
    except Exception as exc:  # shown to the user in one line, and in the console
        show_boot_error(exc)


_task = asyncio.ensure_future(main())
