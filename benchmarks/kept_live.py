"""How soon a finished page run is safe: from its last answer to its whole results file in IndexedDB.

In one Chromium, runs the page against a routed provider (the committed fixtures replayed) and
measures, per round, the time from the last answer fulfilled to the run's row reading a final
state in IndexedDB (the whole file stored: page/keeping.py's end, before "Run complete." shows),
and to every conversation being stored as it went (the batches), idle and with two busy loops. Printed, never asserted (tests/page/test_kept_live.py
checks the outcome: a tab closed 0.5 s after the last answer finds the run complete).

    python benchmarks/kept_live.py [--rounds 3] [--scope injection]
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from browser import CHROMIUM, CHROMIUM_ARGS, REQUEST_TIMEOUT_S, booted, start_server  # noqa: E402
from livepage import NEED, open_advanced, start  # noqa: E402
from routed import OPENAI, RoutedProvider, origin_pattern  # noqa: E402

WATCH = """() => {
    // polled on the page every 10 ms, stamped with the wall clock the test's route handler reads too
    window.__keptAt = {};
    const look = async () => {
        const db = await new Promise((ok, bad) => { const r = indexedDB.open('toolproof', 1);
                                                      r.onsuccess = () => ok(r.result); r.onerror = bad; });
        const all = store => new Promise(ok => { const r = db.transaction(store).objectStore(store).getAll();
                                                 r.onsuccess = () => ok(r.result); });
        const rows = (await all('rows')).map(x => JSON.parse(x.json));
        const docs = await all('docs');
        db.close();
        const now = Date.now();
        if (rows.length) {
            const row = rows[0];
            const stored = docs.filter(d => d.id.startsWith(row.id + '/'))
                               .reduce((n, d) => n + JSON.parse(d.text).length, 0);
            if (!window.__keptAt.stored && (row.state !== 'running' || stored === row.planned))
                window.__keptAt.stored = now;
            if (row.state !== 'running') { window.__keptAt.kept = now; return; }
        }
        setTimeout(look, 10);
    };
    look();
}"""


def one_round(browser, server: str, scope: str) -> tuple[float, float]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(server + f"?timeout={REQUEST_TIMEOUT_S}")
    booted(page)
    page.wait_for_selector("#kept[data-settled=true]", timeout=120_000)
    open_advanced(page)
    provider = RoutedProvider(page, origin_pattern(OPENAI))
    answered: list[float] = []
    handle = provider.handle

    def timed(route):
        handle(route)
        answered.append(time.time() * 1000)
    page.unroute(provider.pattern)
    page.route(provider.pattern, timed)
    page.evaluate(WATCH)
    start(page, scope=scope, cap=NEED[scope])
    page.wait_for_function("window.__keptAt.kept !== undefined", timeout=300_000)
    at = page.evaluate("window.__keptAt")
    context.close()
    return at["stored"] - answered[-1], at["kept"] - answered[-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--scope", default="injection", choices=sorted(NEED))
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    server, url = start_server()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for label, loops in (("idle", 0), ("two busy loops", 2)):
                busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(loops)]
                try:
                    times = [one_round(browser, url, args.scope) for _ in range(args.rounds)]
                finally:
                    for loop in busy:
                        loop.kill()
                        loop.wait()
                stored, kept = zip(*times)
                print(f"{label}: scope {args.scope} ({NEED[args.scope]} requests), {args.rounds} rounds, "
                      f"from the last answer: every conversation stored, median {statistics.median(stored):.0f} ms "
                      f"(max {max(stored):.0f}); the whole results file kept, median "
                      f"{statistics.median(kept):.0f} ms (max {max(kept):.0f})")
            browser.close()
    finally:
        server.shutdown()


if __name__ == "__main__":
    main()
