"""Write docs/images/page.png: the real page's fixture scorecard, as the README shows it.

Run from a checkout: `python docs/screenshot.py` (needs the `playwright` package and Debian's
Chromium at /usr/bin/chromium, as the browser tests do). The page is served exactly as the
browser tests serve it (tests/browser.py: serve.py's own server on a free 127.0.0.1 port, vendor/
fetched and verified first), and the picture is taken once the page says it is ready
(`document.body.dataset.ready == "true"`), never after a fixed delay. What it shows is the
scorecard of the committed fixtures: illustrative answers, not a real model's.

Not a test: it lives under docs/, outside pytest's testpaths.
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "images" / "page.png"
VIEWPORT = {"width": 1280, "height": 1200}
READY_TIMEOUT_MS = 120_000

sys.path.insert(0, str(ROOT / "tests"))
from browser import CHROMIUM, CHROMIUM_ARGS, start_server  # noqa: E402


def main() -> int:
    from playwright.sync_api import sync_playwright

    server, url = start_server()
    try:
        with sync_playwright() as p:
            chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                page = chromium.new_page(viewport=VIEWPORT)
                page.goto(url)
                page.wait_for_function("document.body.dataset.ready !== 'false'",
                                       timeout=READY_TIMEOUT_MS)
                if page.evaluate("document.body.dataset.ready") != "true":
                    print(f"screenshot: the page did not get ready: {page.text_content('#boot-error')}",
                          file=sys.stderr)
                    return 1
                # the intervals and the diagnosis are drawn just after ready: wait for them too,
                # so the picture does not show "working it out"
                page.wait_for_selector('#fixture-card[data-diagnosis="ready"]', timeout=READY_TIMEOUT_MS)
                # the run form comes first on the page now; the picture shows the fixture scorecard
                page.evaluate("document.getElementById('fixture').scrollIntoView()")
                OUT.parent.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(OUT), full_page=False)
            finally:
                chromium.close()
    finally:
        server.shutdown()
    print(f"screenshot: wrote {OUT.relative_to(ROOT)} ({OUT.stat().st_size:,} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
