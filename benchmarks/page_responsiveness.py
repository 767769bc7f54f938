"""Is the page answering while it works? The longest main-thread task and the worst input delay,
during boot and during a live run (with its re-grading), for this checkout and for another git
revision (by default `main`) side by side.

    python benchmarks/page_responsiveness.py [--before main] [--rounds 3] [--bundle]

Method. Each round loads the page in a fresh Chromium context (no HTTP cache carried over). An
init script, in place before the page's own scripts, records:
- every main-thread task over 50 ms (Long Tasks API, PerformanceObserver `longtask`), and
- for every key typed into the Model field, the delay from the key event's time stamp to its
  handler on the page, and to the next animation frame after it (`echo`: when the typed character
  can be on screen). Chromium stamps a key from the driver when it dispatches it in the page, so
  these two miss the time a key waited for a blocked main thread; the driver's own wait for each
  key (`key wait`: the browser acknowledges a key once the page has dispatched it) includes it.
The driver types one character every 50 ms from the first paint until the page is ready (boot),
then starts a live run of the should_call scope against the routed fake provider
(tests/routed.py, the committed fixtures replayed: no network) and types until the run's card is
drawn (`data-run` done: the run, its re-grading and rendering). Typing is checked in the page's
own field, so it measures the main thread, not Python. Figures are the worst over all rounds,
and the median of the per-round worst; N is the number of keys typed. `--bundle` serves the
bundle from `python -m http.server` under a sub-path (the service-worker path, second load).
Nothing here is asserted: tests/page/test_responsiveness.py checks the behaviour, this prints times.
"""
from __future__ import annotations

import argparse
import contextlib
import json
import os
import posixpath
import statistics
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from browser import CHROMIUM, CHROMIUM_ARGS, READY_TIMEOUT_MS, SETTLED, start_server, static_host  # noqa: E402
from routed import RoutedProvider, origin_pattern  # noqa: E402
from serving.server import make_server, server_url  # noqa: E402

PROBE = """
window.__long = []; window.__keys = [];
new PerformanceObserver(list => { for (const e of list.getEntries()) window.__long.push([e.startTime, e.duration]); })
  .observe({type: 'longtask', buffered: true});
addEventListener('input', event => {
  const handled = performance.now();
  requestAnimationFrame(() => window.__keys.push({at: event.timeStamp, delay: handled - event.timeStamp,
    echo: performance.now() - event.timeStamp, phase: window.__phase || 'boot'}));
}, true);
"""
GRACE_KEYS = 2000          # a hang guard on the typing loops (about 100 s of typing), not a time bound


def type_until(page, done: str, keys: int = GRACE_KEYS) -> list[float]:
    """Type into #model every 50 ms until the page-side condition `done` holds; return how long
    each key took from the driver's side (the browser acknowledges a key once the page's main
    thread has dispatched it: a blocked main thread shows here, before the key reaches the page)."""
    waits = []
    for n in range(keys):
        started = time.perf_counter()
        page.keyboard.type("x")
        waits.append((time.perf_counter() - started) * 1000)
        if n % 4 == 3 and page.evaluate(done):
            break
        page.wait_for_timeout(50)
    return waits


def one_round(browser, url: str, *, bundle: bool = False) -> dict:
    context = browser.new_context()
    page = context.new_page()
    page.add_init_script(PROBE)
    page.goto(url, wait_until="commit")
    if bundle:                # the first load installs the service worker and reloads
        page.wait_for_function("crossOriginIsolated || document.body?.dataset.ready === 'error'",
                               timeout=READY_TIMEOUT_MS)
    page.wait_for_selector("#model", state="visible", timeout=READY_TIMEOUT_MS)
    page.focus("#model")
    boot_waits = type_until(page, "document.body.dataset.ready !== 'false'")
    page.wait_for_function("document.body.dataset.ready !== 'false'", timeout=READY_TIMEOUT_MS)
    ready = page.evaluate("window.__readyMs")
    fcp = page.evaluate("performance.getEntriesByName('first-contentful-paint')[0]?.startTime || 0")
    boot_long = [d for s, d in page.evaluate("window.__long") if fcp <= s <= ready]
    boot_at = [(round(s), round(d)) for s, d in page.evaluate("window.__long") if fcp <= s <= ready and d > 200]
    provider = RoutedProvider(page, origin_pattern("https://api.openai.com/v1/chat/completions"))
    page.evaluate("window.__phase = 'live'; window.__long = []")
    for action, selector, value in (("select_option", "#provider", "openai"), ("fill", "#api-key", "sk-bench-key"),
                                    ("select_option", "#scope", "should_call"), ("fill", "#cap", "20")):
        getattr(page, action)(selector, value)
        page.wait_for_function(SETTLED, timeout=READY_TIMEOUT_MS)      # the worker answered (main: at once)
    page.click("#run-live")
    page.focus("#model")
    live_waits = type_until(page, "['done', 'aborted', 'error'].includes(document.body.dataset.run)")
    page.wait_for_function("['done', 'aborted', 'error'].includes(document.body.dataset.run)",
                           timeout=READY_TIMEOUT_MS)
    state = page.evaluate("document.body.dataset.run")
    live_long = [d for s, d in page.evaluate("window.__long")]
    keys = page.evaluate("window.__keys")
    provider.close()
    context.close()
    return {"ready": ready, "run": state, "requests": len(provider.posts), "boot_at": boot_at,
            "boot_waits": boot_waits, "live_waits": live_waits,
            "boot_long": boot_long, "live_long": live_long,
            "boot_keys": [k for k in keys if k["phase"] == "boot"],
            "live_keys": [k for k in keys if k["phase"] == "live"]}


@contextlib.contextmanager
def revision_site(ref: str) -> Iterator[str]:
    """The page as it is at git revision `ref` (read with git archive), with this checkout's
    vendor/, served by serve.py's server on a free port."""
    with tempfile.TemporaryDirectory(prefix="toolproof-before-") as tmp:
        archive = Path(tmp) / "site.tar"
        with archive.open("wb") as out:
            paths = ["index.html", "web", "toolproof", "data", "vendor.lock.json"] + (["sw.js"] if has_sw(ref) else [])
            subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", ref, *paths], check=True, stdout=out)
        site = Path(tmp) / "site"
        with tarfile.open(archive) as tar:
            tar.extractall(site, filter="data")
        os.symlink((ROOT / "vendor").resolve(), site / "vendor")
        older_page_list(site / "web" / "pyscript.json")
        server = make_server(site, "127.0.0.1", 0)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            yield server_url(server)
        finally:
            server.shutdown()


def older_page_list(config_path: Path) -> None:
    """A revision from before the page's archive (serving/archive.py) lists its files under
    "files" for PyScript to fetch one by one; this checkout's server allows what "page_files"
    lists, so the same files are listed there too (the page still fetches them one by one)."""
    config = json.loads(config_path.read_text(encoding="utf-8"))
    if "page_files" not in config:
        config["page_files"] = [posixpath.normpath(posixpath.join("web", src)) for src in config["files"]]
        config_path.write_text(json.dumps(config), encoding="utf-8")


def has_sw(ref: str) -> bool:
    found = subprocess.run(["git", "-C", str(ROOT), "cat-file", "-e", f"{ref}:sw.js"], capture_output=True)
    return found.returncode == 0


@contextlib.contextmanager
def this_site(bundle: bool) -> Iterator[str]:
    if not bundle:
        server, url = start_server()
        try:
            yield url
        finally:
            server.shutdown()
        return
    import serve
    with tempfile.TemporaryDirectory(prefix="toolproof-bench-") as tmp:
        folder = Path(tmp) / "team" / "toolproof"
        if serve.main(["--bundle", str(folder)]) != 0:
            raise SystemExit("could not write the bundle")
        with static_host(Path(tmp)) as base:
            yield base + "team/toolproof/"


def summary(rounds: list[dict], phase: str) -> str:
    longs = [max(r[f"{phase}_long"], default=0.0) for r in rounds]
    over = sum(sum(1 for d in r[f"{phase}_long"] if d > 200) for r in rounds)
    delays = [max((k["delay"] for k in r[f"{phase}_keys"]), default=0.0) for r in rounds]
    echoes = [max((k["echo"] for k in r[f"{phase}_keys"]), default=0.0) for r in rounds]
    waits = [max(r[f"{phase}_waits"], default=0.0) for r in rounds]
    keys = sum(len(r[f"{phase}_waits"]) for r in rounds)
    return (f"longest task {max(longs):5.0f} ms (median of rounds {statistics.median(longs):5.0f}), "
            f"tasks > 200 ms: {over}; worst key wait (driver) {max(waits):5.0f} ms "
            f"(median {statistics.median(waits):5.0f}); in the page: worst handler delay {max(delays):4.0f} ms, "
            f"echo {max(echoes):4.0f} ms; N = {keys} keys")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default="main", help="git revision to compare with (default main)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--bundle", action="store_true",
                        help="this checkout's page from a bundle under python -m http.server")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    results = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for label, site, bundle in ((f"before ({args.before})", revision_site(args.before), False),
                                    ("after (this checkout)", this_site(args.bundle), args.bundle)):
            with site as url:
                results[label] = [one_round(browser, url, bundle=bundle) for _ in range(args.rounds)]
        browser.close()
    print(f"load average: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f} "
          f"(2 shared cores: figures move with it); {args.rounds} rounds each")
    for label, rounds in results.items():
        ready = statistics.median(r["ready"] for r in rounds) / 1000
        runs = ", ".join(sorted({f"{r['run']} ({r['requests']} requests)" for r in rounds}))
        print(f"{label}: ready at median {ready:.2f} s; live runs: {runs}")
        print(f"  boot (first paint to ready): {summary(rounds, 'boot')}")
        print(f"    tasks > 200 ms at (ms from navigation, duration): {[r['boot_at'] for r in rounds]}")
        print(f"  live run (to its card drawn): {summary(rounds, 'live')}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
