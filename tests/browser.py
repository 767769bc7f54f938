"""Shared pieces for the browser tests: the local server and Chromium launched by Playwright.

Debian's Chromium at /usr/bin/chromium (Playwright cannot download a browser here). The server is
serve.py's own (serving/server.py), on an ephemeral 127.0.0.1 port, after making sure vendor/ is fetched.
"""
from __future__ import annotations

import contextlib
import io
import re
import subprocess
import sys
import threading
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
READY_TIMEOUT_MS = 120_000
# The page's request timeout in every test whose subject is not the timeout itself (?timeout=, the
# #timeout field): a busy machine may need seconds for a routed answer; a test of the timeout
# gives a request that is never answered a short one of its own.
REQUEST_TIMEOUT_S = 60

sys.path.insert(0, str(ROOT))
from serving.lock import LOCK_NAME, load_lock  # noqa: E402
from serving.server import make_server, server_url  # noqa: E402
from serving.vendor import ensure_vendor  # noqa: E402


def start_server():
    """Fetch vendor/ if needed, then serve the repository on a free local port."""
    ensure_vendor(ROOT, load_lock(ROOT / LOCK_NAME), log=lambda line: None)
    server = make_server(ROOT, "127.0.0.1", 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, server_url(server)


@contextlib.contextmanager
def static_host(folder: Path):
    """`python -m http.server` serving `folder` on a free 127.0.0.1 port: a static host, with none
    of serve.py's headers (the bundle's own service worker must do). Yields its base URL."""
    host = subprocess.Popen([sys.executable, "-u", "-m", "http.server", "0", "--bind", "127.0.0.1"],
                            cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        port = re.search(r" port (\d+)", host.stdout.readline()).group(1)
        yield f"http://127.0.0.1:{port}/"
    finally:
        host.terminate()
        host.wait(10)


# The page's package and data files reach it as one archive (serving/archive.py); a test that
# gives the page other data routes this URL.
PAGE_FILES = "**/web/page-files.zip"


def repacked(data: bytes, replaced: dict[str, str]) -> bytes:
    """The page's archive with the members named by their repository path (e.g.
    "data/tools.json") holding other text."""
    source = zipfile.ZipFile(io.BytesIO(data))
    missing = set(replaced) - set(source.namelist())
    assert not missing, f"the page's archive holds no {sorted(missing)}"
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for info in source.infolist():
            archive.writestr(info, replaced[info.filename] if info.filename in replaced else source.read(info))
    return out.getvalue()


def page_files_with(replaced: dict[str, str]):
    """A route handler for PAGE_FILES: the archive as the server sends it, repacked."""
    def answer(route) -> None:
        response = route.fetch()
        route.fulfill(response=response, body=repacked(response.body(), replaced))
    return answer


def is_local(url: str, base: str) -> bool:
    return url.startswith(base) or url.startswith(("data:", "blob:"))


def booted(page) -> None:
    """Wait until the page has started or failed to (body[data-ready] leaves "false"), and fail
    with the page's own boot error unless it started."""
    page.wait_for_function("(document.body?.dataset.ready ?? 'false') !== 'false'", timeout=READY_TIMEOUT_MS)
    assert page.evaluate("document.body.dataset.ready") == "true", page.text_content("#boot-error")


def show_fixtures(page) -> None:
    """Scroll to the fixture scorecard, which the page grades the first time it is in view, and
    wait until it is drawn with its diagnosis (#fixture-card[data-diagnosis="ready"])."""
    page.locator("#fixture").scroll_into_view_if_needed()
    page.wait_for_function("['ready', 'error'].includes(document.getElementById('fixture-card').dataset.diagnosis"
                           " || document.getElementById('fixture-card').dataset.state)", timeout=READY_TIMEOUT_MS)
    assert page.evaluate("document.getElementById('fixture-card').dataset.state") == "graded", \
        page.text_content("#fixture-card")


def click_run(page) -> None:
    """Click Run once body[data-run] says "idle": the click's handler starts the run as a task of the
    worker's, after the click has settled, so a wait for the run's end ("done", "aborted", "error")
    right after the click must not find the state the page's last run left (a second run of one
    page once ended its test while still running)."""
    page.evaluate("document.body.dataset.run = 'idle'")
    page.click("#run-live")


SETTLED = "(document.body.dataset.pending || '0') === '0'"
ACTIONS = ("fill", "select_option", "click", "dblclick", "check", "uncheck", "set_checked", "set_input_files",
           "press", "type", "press_sequentially", "clear", "tap", "dispatch_event", "focus", "hover", "blur")


def settled(page) -> None:
    """Wait until the page's Python has answered every event so far (body[data-pending] is "0").
    The page's Python runs in a worker, so it answers an event after the browser has dispatched it."""
    page.wait_for_function(SETTLED, timeout=READY_TIMEOUT_MS)


def _settle_after_actions() -> None:
    """Every form action of a Page or a Locator (fill, click, check, ...) returns once the page's
    Python has answered it, as when the page's handlers ran on the main thread. Installed once, for
    every browser test: a test cannot forget it."""
    from playwright.sync_api import Locator, Page

    for cls, page_of in ((Page, lambda self: self), (Locator, lambda self: self.page)):
        for name in ACTIONS:
            action = getattr(cls, name, None)
            if action is None or getattr(action, "settles", False):
                continue

            def then_settle(self, *args, _action=action, _page_of=page_of, **kwargs):
                result = _action(self, *args, **kwargs)
                settled(_page_of(self))
                return result
            then_settle.settles = True
            setattr(cls, name, then_settle)


try:
    _settle_after_actions()
except ImportError:         # no Playwright: the browser tests are skipped anyway
    pass


@contextlib.contextmanager
def busy_loops(count: int = 2):
    """`count` Python processes spinning for the block's length: the loaded two-core machine (load
    7-10) on which a fast user's typing was overwritten and closed tabs lost runs."""
    loops = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]
    try:
        yield
    finally:
        for loop in loops:
            loop.kill()
            loop.wait()


def pages_per_width(browser, server: str, widths) -> dict:
    """{width: a booted page at that width}, its fixture diagnosis drawn and its stored draft
    cleared; each page collects its errors (`page.errors`) and the URLs it asked for
    (`page.requests`). The caller closes each page's context."""
    out = {}
    for width in widths:
        context = browser.new_context(viewport={"width": width, "height": 900}, accept_downloads=True)
        page = context.new_page()
        page.errors, page.requests = [], []
        page.on("pageerror", lambda e, p=page: p.errors.append(str(e)))
        page.on("request", lambda r, p=page: p.requests.append(r.url))
        page.goto(server + f"?timeout={REQUEST_TIMEOUT_S}")
        booted(page)
        show_fixtures(page)
        page.evaluate("localStorage.clear(); window.scrollTo(0, 0)")
        out[width] = page
    return out


# What the page keeps in IndexedDB (page/runstore.py): every row and stored document, read in the
# page (tests of kept runs: a closed tab keeps what it had).
STORED = """async () => {
    const db = await new Promise((ok, bad) => { const r = indexedDB.open('toolproof', 1);
                                                  r.onsuccess = () => ok(r.result); r.onerror = bad; });
    const all = async store => await new Promise(ok => {
        const r = db.transaction(store).objectStore(store).getAll(); r.onsuccess = () => ok(r.result); });
    const rows = (await all('rows')).map(r => JSON.parse(r.json));
    const docs = (await all('docs')).map(d => ({id: d.id, parts: !!d.parts, text: d.text}));
    db.close();
    return {rows, docs};
}"""
