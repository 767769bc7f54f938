"""Page start-up cost: the full page until it is ready vs a bare Pyodide boot (the fixtures are
graded later, once scrolled to).

In one Chromium, alternately loads index.html until `body[data-ready="true"]` and
benchmarks/bare_pyodide.html (the same vendored Pyodide, running `1+1`), each in a fresh browser
context (no HTTP cache carried over), and prints both medians and their ratio. With serve.py it
also loads benchmarks/pyscript_worker.html (the vendored PyScript starting Pyodide in a worker
through web/runtime.mjs, as the page does, and reaching the page once, nothing of ours), which splits the page's extra time into PyScript's
worker and our own. It says how many of the page's modules came precompiled (serving/bytecode.py,
which needs Node.js), and how Pyodide started in the page: restored from serve.py's snapshot
(serving/snapshot.py, also Node.js) or in full. With serve.py it also loads the page with the
snapshot's request answered 404, as a machine without Node.js would serve it, and prints that
median and ratio too. Times are `performance.now()` at ready, i.e. from navigation start; the page's own stages (Python
running, our imports, suite loaded, panels built) are printed too, and a
second visit in the same profile (HTTP cache kept: vendor files revalidate by ETag with serve.py;
with --bundle, the service worker is installed on the first visit).

    python benchmarks/page_load.py [--rounds 7]
    python benchmarks/page_load.py --bundle   # the page from `serve.py --bundle`, served by
                                              # `python -m http.server` under /team/toolproof/

Both pages come from the same server (the bare page from the repository via serve.py, or copied
next to the bundle), so the ratio compares like with like.
"""
from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import statistics
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

import serve  # noqa: E402
from browser import CHROMIUM, CHROMIUM_ARGS, READY_TIMEOUT_MS, start_server, static_host  # noqa: E402


STAGES = ("script", "python", "imports", "suite", "panels")   # then ready; the fixtures' "graded",
# "rendered" and "diagnosis" come once the Fixtures section is in view


def load(browser, url: str, marker: str, stages: list | None = None, second: list | None = None,
         runtimes: list | None = None, snapshot: bool = True) -> float:
    context = browser.new_context()
    if not snapshot:             # as served without Node.js: no snapshot, Pyodide starts in full
        context.route("**/web/pyodide-snapshot.gz", lambda route: route.fulfill(status=404, body=""))
    page = context.new_page()
    page.goto(url)
    page.wait_for_function("document.body.dataset.ready === 'true'", timeout=READY_TIMEOUT_MS)
    ms = page.evaluate(marker)
    if stages is not None:
        stages.append(page.evaluate("Object.assign({}, window.__stages)"))
    if runtimes is not None:
        runtimes.append(page.evaluate("window.__runtime"))
    if second is not None:        # a second visit in the same browser profile: its HTTP cache kept
        page.goto(url)
        page.wait_for_function("document.body.dataset.ready === 'true'", timeout=READY_TIMEOUT_MS)
        second.append(page.evaluate(marker))
    context.close()
    return ms


@contextlib.contextmanager
def repository_site() -> Iterator[tuple[str, str]]:
    """serve.py on the repository: (page URL, bare-Pyodide page URL, PyScript-worker page URL)."""
    server, url = start_server()
    try:
        yield url, url + "benchmarks/bare_pyodide.html", url + "benchmarks/pyscript_worker.html"
    finally:
        server.shutdown()


@contextlib.contextmanager
def bundle_site() -> Iterator[tuple[str, str]]:
    """A fresh bundle under /team/toolproof/ of a folder `python -m http.server` serves; the
    bare page sits in the bundle's benchmarks/ so it loads the bundle's vendor/ files."""
    with tempfile.TemporaryDirectory(prefix="toolproof-bench-") as tmp:
        folder = Path(tmp) / "team" / "toolproof"
        if serve.main(["--bundle", str(folder)]) != 0:
            raise SystemExit("could not write the bundle")
        (folder / "benchmarks").mkdir()
        for name in ("bare_pyodide.html", "bare_pyodide.mjs"):
            shutil.copy(ROOT / "benchmarks" / name, folder / "benchmarks" / name)
        with static_host(Path(tmp)) as base:
            url = base + "team/toolproof/"
            # no PyScript-worker baseline here: it needs the isolation headers sw.js adds to the page only
            yield url, url + "benchmarks/bare_pyodide.html", None


def precompiled() -> str:
    """How many of the page's modules the archive carries precompiled (serving/bytecode.py):
    without Node.js the page compiles them all, which the figures then include."""
    import io
    import zipfile

    from serving.archive import archive_bytes, page_sources
    from serving.bytecode import ensure

    why = ensure(ROOT, page_sources(ROOT))
    names = zipfile.ZipFile(io.BytesIO(archive_bytes(ROOT))).namelist()
    modules, pycs = sum(n.endswith(".py") for n in names), sum(n.endswith(".pyc") for n in names)
    return f"precompiled Python in the page's archive: {pycs} of {modules} modules" + (f" ({why})" if why else "")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--bundle", action="store_true",
                        help="load the page from a bundle served by python -m http.server")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    page_ms, bare_ms, worker_ms, stages, second_ms, runtimes, full_ms = [], [], [], [], [], [], []
    with (bundle_site() if args.bundle else repository_site()) as (url, bare_url, worker_url), \
            sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        load(browser, url, "window.__readyMs")          # warm-up: OS file cache, JIT of the driver
        for _ in range(args.rounds):
            page_ms.append(load(browser, url, "window.__readyMs", stages, second_ms, runtimes))
            bare_ms.append(load(browser, bare_url, "window.__bootMs"))
            if worker_url:
                worker_ms.append(load(browser, worker_url, "window.__bootMs"))
                full_ms.append(load(browser, url, "window.__readyMs", snapshot=False))
        browser.close()
    print(f"served from: {url} ({'bundle, python -m http.server' if args.bundle else 'serve.py'})")
    print(precompiled())
    page_median, bare_median = statistics.median(page_ms), statistics.median(bare_ms)
    print(f"page ready: median {page_median / 1000:.2f} s  "
          f"[{', '.join(f'{m / 1000:.2f}' for m in page_ms)}]")
    print(f"bare Pyodide boot (1+1):      median {bare_median / 1000:.2f} s  "
          f"[{', '.join(f'{m / 1000:.2f}' for m in bare_ms)}]")
    print(f"ratio page / bare: {page_median / bare_median:.2f}")
    restored = sum(r == "restored from its snapshot" for r in runtimes)
    print(f"Pyodide in the page: restored from its snapshot in {restored} of {len(runtimes)} loads"
          + ("" if restored == len(runtimes) else f" (else: {sorted(set(runtimes) - {'restored from its snapshot'})})"))
    if full_ms:
        full_median = statistics.median(full_ms)
        print(f"page ready, no snapshot (as without Node.js): median {full_median / 1000:.2f} s  "
              f"[{', '.join(f'{m / 1000:.2f}' for m in full_ms)}]  (ratio to bare {full_median / bare_median:.2f})")
    if worker_ms:
        worker_median = statistics.median(worker_ms)
        print(f"PyScript worker, nothing of ours: median {worker_median / 1000:.2f} s  "
              f"[{', '.join(f'{m / 1000:.2f}' for m in worker_ms)}]  (ratio to bare {worker_median / bare_median:.2f})")
    print(f"second visit (same profile): median {statistics.median(second_ms) / 1000:.2f} s  "
          f"[{', '.join(f'{m / 1000:.2f}' for m in second_ms)}]")
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print("page start-up, median ms at the end of each stage (from navigation start):")
    previous = 0.0
    for stage in STAGES:
        at = statistics.median(s[stage] for s in stages)
        print(f"  {stage:<9} {at:8.0f}  (+{at - previous:.0f})")
        previous = at
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
