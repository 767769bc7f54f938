"""How long the 2,000-resample bootstrap takes for 72 cases x 5 repeats, in CPython and in the
page's Python (Pyodide in headless Chromium). Goal: under 1 s in the page.

    python benchmarks/bootstrap_time.py

Prints the best of 3 rounds for the scorecard's bootstrap and for compare's paired bootstrap.
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "benchmarks"))

import bootstrap_timing  # noqa: E402


def in_page() -> dict:
    from playwright.sync_api import sync_playwright

    from browser import CHROMIUM, CHROMIUM_ARGS, READY_TIMEOUT_MS, start_server

    server, url = start_server()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page()
            # the local server serves no benchmarks/*.py (its allow-list: serving/site.py), so the
            # timing code the page imports is handed over here, from disk
            timing = (ROOT / "benchmarks" / "bootstrap_timing.py").read_text(encoding="utf-8")
            page.route("**/benchmarks/bootstrap_timing.py",
                       lambda route: route.fulfill(body=timing, content_type="text/plain"))
            page.goto(url + "benchmarks/bootstrap_time.html")
            page.wait_for_function("document.body.dataset.ready === 'true'", timeout=READY_TIMEOUT_MS)
            result = page.evaluate("window.__bootstrap")
            browser.close()
    finally:
        server.shutdown()
    return result


def main() -> int:
    cpython = bootstrap_timing.measure()
    page = in_page()
    print("bootstrap, 2000 resamples, 72 cases x 5 repeats (best of 3)")
    for label, r in (("CPython", cpython), ("page (Pyodide)", page)):
        print(f"  {label:<15} scorecard {r['bootstrap_s']:.3f} s   paired (compare) {r['paired_s']:.3f} s")
    print("closed-form intervals shipped since issue 20 (scoring/intervals.py), same inputs (best of 3)")
    for label, r in (("CPython", cpython), ("page (Pyodide)", page)):
        print(f"  {label:<15} scorecard {1000 * r['intervals_s']:.2f} ms  paired (compare) "
              f"{1000 * r['paired_intervals_s']:.2f} ms")
    verdict = "met" if page["bootstrap_s"] < 1.0 else "NOT met"
    print(f"goal: under 1 s in the page: {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
