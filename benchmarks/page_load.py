"""Page start-up cost: the full page until it has graded the fixtures vs a bare Pyodide boot.

In one Chromium, alternately loads index.html until `body[data-ready="true"]` and
benchmarks/bare_pyodide.html (the same vendored Pyodide, running `1+1`), each in a fresh browser
context (no HTTP cache carried over), and prints both medians and their ratio. Times are
`performance.now()` at ready, i.e. from navigation start; the page's own stages (Python
running, our imports, suite loaded, fixtures graded, scorecard rendered) are printed too.

    python benchmarks/page_load.py [--rounds 7]
"""
from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from browser import CHROMIUM, CHROMIUM_ARGS, READY_TIMEOUT_MS, start_server  # noqa: E402


STAGES = ("python", "imports", "suite", "graded", "rendered")   # then ready; "diagnosis" comes after


def load(browser, url: str, marker: str, stages: list | None = None) -> float:
    context = browser.new_context()
    page = context.new_page()
    page.goto(url)
    page.wait_for_function("document.body.dataset.ready === 'true'", timeout=READY_TIMEOUT_MS)
    ms = page.evaluate(marker)
    if stages is not None:
        stages.append(page.evaluate("Object.assign({}, window.__stages)"))
    context.close()
    return ms


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    server, url = start_server()
    page_ms, bare_ms, stages = [], [], []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        load(browser, url, "window.__readyMs")          # warm-up: OS file cache, JIT of the driver
        for _ in range(args.rounds):
            page_ms.append(load(browser, url, "window.__readyMs", stages))
            bare_ms.append(load(browser, url + "benchmarks/bare_pyodide.html", "window.__bootMs"))
        browser.close()
    server.shutdown()
    page_median, bare_median = statistics.median(page_ms), statistics.median(bare_ms)
    print(f"page ready (graded fixtures): median {page_median / 1000:.2f} s  "
          f"[{', '.join(f'{m / 1000:.2f}' for m in page_ms)}]")
    print(f"bare Pyodide boot (1+1):      median {bare_median / 1000:.2f} s  "
          f"[{', '.join(f'{m / 1000:.2f}' for m in bare_ms)}]")
    print(f"ratio page / bare: {page_median / bare_median:.2f}")
    print("page start-up, median ms at the end of each stage (from navigation start):")
    previous = 0.0
    for stage in STAGES:
        at = statistics.median(s[stage] for s in stages)
        print(f"  {stage:<9} {at:8.0f}  (+{at - previous:.0f})")
        previous = at
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
