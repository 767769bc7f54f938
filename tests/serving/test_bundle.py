"""`python serve.py --bundle DIR` (serving/bundle.py): the site as plain files for any static host.

Offline tests build bundles from a small fake repository (and once from the real one) and check
what goes in, what stays out, and how a bad destination or a tampered vendor file is refused.
The browser tests publish a real bundle under a sub-path of a parent folder served by
`python -m http.server` (not serve.py: nothing may depend on its MIME table or headers), and
watch every request the page makes in Chromium.
"""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import serve
from browser import READY_TIMEOUT_MS, REQUEST_TIMEOUT_S, ROOT, booted, click_run, repacked, show_fixtures, static_host
from fakesite import PAGE_CONFIG, fake_repo, sha
from clirun import cli_output as cli
from serving.bundle import bundle_vendor_files, size_text, write_bundle
from serving.bytecode import note as bytecode_note
from serving.errors import VendorError
from serving.lock import LOCK_NAME, load_lock
from serving.site import PAGE_SCRIPT, page_modules, site_file
from serving.vendor import REPAIR, read_manifest


def _page_config_module():
    import importlib.util

    spec = importlib.util.spec_from_file_location("pyscript_config", ROOT / "web" / "pyscript_config.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module

LOCK = load_lock(ROOT / LOCK_NAME)


# --------------------------------------------------------------------------- a fake repository


@pytest.fixture
def repo(tmp_path: Path) -> tuple[Path, dict, dict[str, str]]:
    root = tmp_path / "repo"
    lock, vendor = fake_repo(root)
    return root, lock, vendor


EXPECTED = [".nojekyll", "index.html", "sw.js", "toolproof/page/main.py", "vendor.lock.json",
            "vendor/pyodide/pyodide.asm.wasm", "vendor/pyodide/pyodide.mjs",
            "vendor/wheels/a-1-py3-none-any.whl", "web/boot.mjs", "web/page-files.zip", "web/pyscript.json",
            "web/style.css"]


def test_bundle_holds_the_site_and_nothing_else(repo, tmp_path):
    root, lock, vendor = repo
    dest = tmp_path / "out" / "site"
    done = write_bundle(root, dest, lock, vendor)
    on_disk = sorted(p.relative_to(dest).as_posix() for p in dest.rglob("*") if p.is_file())
    assert on_disk == sorted(EXPECTED + ["bundle.json"])
    assert json.loads((dest / "bundle.json").read_text()) == done
    assert done["format"] == "toolproof.bundle" and done["version"] == 1
    assert done["toolproof_version"] == "9.8.7"
    assert [e["path"] for e in done["files"]] == EXPECTED
    for entry in done["files"]:
        data = (dest / entry["path"]).read_bytes()
        assert entry["sha256"] == sha(data) and entry["size"] == len(data)
    assert done["total_size"] == sum(e["size"] for e in done["files"])
    # The page's package and data files travel in one archive, each under its repository path.
    with zipfile.ZipFile(dest / "web" / "page-files.zip") as archive:
        assert archive.namelist() == sorted(PAGE_CONFIG["page_files"])
        assert all(archive.read(name) == (root / name).read_bytes() for name in archive.namelist())
    # Nothing is left beside the bundle (it is built in a staging folder, then moved).
    assert [p.name for p in dest.parent.iterdir()] == ["site"]


def test_non_empty_folder_needs_force_and_force_replaces_only_a_bundle(repo, tmp_path):
    root, lock, vendor = repo
    dest = tmp_path / "site"
    dest.mkdir()
    (dest / "stale.js").write_text("old")
    with pytest.raises(VendorError) as info:
        write_bundle(root, dest, lock, vendor)
    assert str(info.value) == (f"--bundle {dest}: the folder is not empty; choose an empty one, or "
                               "add --force to replace a bundle written there before")
    # --force is not enough: the folder holds no bundle, so nothing in it is ours to delete.
    with pytest.raises(VendorError) as info:
        write_bundle(root, dest, lock, vendor, force=True)
    assert str(info.value) == (f"--bundle {dest}: --force replaces only a bundle written there before, "
                               "and it holds no bundle.json written by --bundle; choose an empty or new folder")
    assert (dest / "stale.js").read_text() == "old"
    (dest / "stale.js").unlink()
    write_bundle(root, dest, lock, vendor)
    (dest / "index.html").write_text("edited")          # a file of the bundle may change
    write_bundle(root, dest, lock, vendor, force=True)
    assert (dest / "index.html").read_text() != "edited" and (dest / "bundle.json").exists()


@pytest.mark.parametrize("extra", ["notes.txt", "web/mine.css", "photos/a.jpg"])
def test_force_refuses_a_bundle_folder_that_holds_other_data(repo, tmp_path, extra):
    root, lock, vendor = repo
    dest = tmp_path / "site"
    write_bundle(root, dest, lock, vendor)
    (dest / extra).parent.mkdir(parents=True, exist_ok=True)
    (dest / extra).write_text("mine")
    with pytest.raises(VendorError, match="--force replaces only a bundle written there before, and "
                                          + re.escape(extra.split("/")[0])):
        write_bundle(root, dest, lock, vendor, force=True)
    assert (dest / extra).read_text() == "mine"


@pytest.mark.parametrize("manifest", ["", "null", "[]", '{"format": "x", "files": []}', '{"format": "toolproof.bundle"}',
                                      "[" * 100_000])
def test_force_refuses_a_malformed_or_foreign_bundle_json(repo, tmp_path, manifest):
    root, lock, vendor = repo
    dest = tmp_path / "site"
    dest.mkdir()
    (dest / "bundle.json").write_text(manifest)
    with pytest.raises(VendorError, match="it holds no bundle.json written by --bundle"):
        write_bundle(root, dest, lock, vendor, force=True)
    assert (dest / "bundle.json").read_text() == manifest


def test_an_empty_existing_folder_is_fine(repo, tmp_path):
    root, lock, vendor = repo
    (tmp_path / "empty").mkdir()
    write_bundle(root, tmp_path / "empty", lock, vendor)
    assert (tmp_path / "empty" / "bundle.json").exists()


@pytest.mark.parametrize("where", [".", "..", "web", "data/sub", "vendor", ".git", "toolproof/x"])
def test_never_replaces_the_repository_or_its_sources(repo, where):
    root, lock, vendor = repo
    with pytest.raises(VendorError) as info:
        write_bundle(root, root / where, lock, vendor, force=True)
    assert str(info.value) == (f"--bundle {root / where}: refusing to replace the repository, its "
                               "sources or the home folder; choose a new folder, e.g. --bundle _site")
    assert (root / "web" / "boot.mjs").exists() and (root / "serve.py").exists()


@pytest.mark.parametrize("where", ["home", "", "/"])
def test_never_replaces_the_home_folder_its_parents_or_the_root(repo, tmp_path, monkeypatch, where):
    # The finding: from a checkout outside home, `--bundle /home --force` deleted the folder
    # holding the home folder (only $HOME itself and the repository's parents were refused).
    root, lock, vendor = repo
    home = tmp_path / "parent" / "home"
    (home / "notes").mkdir(parents=True)
    monkeypatch.setattr(Path, "home", classmethod(lambda cls: home))
    dest = {"home": home, "": home.parent, "/": Path("/")}[where]
    with pytest.raises(VendorError, match="refusing to replace the repository, its sources or the home folder"):
        write_bundle(root, dest, lock, vendor, force=True)
    assert (home / "notes").is_dir()


def test_serve_bundle_home_parent_with_force_is_refused(tmp_path):
    """The reproduction as a user runs it: serve.py from a checkout outside HOME, a temporary
    HOME below the folder named, --bundle that folder --force: exit 1, one line, nothing gone."""
    home = tmp_path / "users" / "me"
    (home / "notes").mkdir(parents=True)
    (home / "notes" / "a.txt").write_text("keep")
    done = subprocess.run([sys.executable, str(ROOT / "serve.py"), "--bundle", str(tmp_path / "users"), "--force"],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path,
                          env={"HOME": str(home), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 1, done.stderr
    assert "refusing to replace the repository, its sources or the home folder" in done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert (home / "notes" / "a.txt").read_text() == "keep"


def test_a_folder_inside_the_repository_is_allowed_and_never_served(repo):
    root, lock, vendor = repo
    write_bundle(root, root / "_site", lock, vendor)
    assert (root / "_site" / "index.html").exists()
    assert site_file(root, "_site/index.html", vendor) is None


def test_a_file_or_link_as_destination_is_refused(repo, tmp_path):
    root, lock, vendor = repo
    (tmp_path / "file").write_text("x")
    (tmp_path / "link").symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    for name in ("file", "link"):
        with pytest.raises(VendorError, match=f"--bundle {tmp_path / name}: exists and is not a folder"):
            write_bundle(root, tmp_path / name, lock, vendor, force=True)


def test_connect_applies_to_the_bundled_page(repo, tmp_path):
    root, lock, vendor = repo
    write_bundle(root, tmp_path / "s", lock, vendor, connect=["https://llm.example.net:8443/"])
    assert (tmp_path / "s" / "index.html").read_text() == (
        "<meta content=\"connect-src 'self' https://llm.example.net:8443 https://api.openai.com\">")
    with pytest.raises(VendorError, match="--connect wants an origin"):
        write_bundle(root, tmp_path / "t", lock, vendor, connect=["javascript:alert(1)"])
    assert not (tmp_path / "t").exists()


def test_a_vendor_file_changed_after_the_check_is_not_bundled(repo, tmp_path):
    root, lock, vendor = repo
    (root / "vendor" / "pyodide" / "pyodide.mjs").write_text("export {evil}")
    with pytest.raises(VendorError) as info:
        write_bundle(root, tmp_path / "s", lock, vendor)
    assert str(info.value) == f"vendor/pyodide/pyodide.mjs changed while it was bundled; {REPAIR}"
    assert not (tmp_path / "s").exists() and list(tmp_path.iterdir()) == [root]


def test_page_loads_must_name_vendored_files(repo, tmp_path):
    root, lock, vendor = repo
    lock["page_loads"]["boot"].append("pyodide/gone.js")
    with pytest.raises(VendorError) as info:
        write_bundle(root, tmp_path / "s", lock, vendor)
    assert str(info.value) == ("vendor.lock.json: page_loads names vendor/pyodide/gone.js, which the "
                               "pinned packages do not contain; re-record the list (docs/publishing.md)")


def test_a_module_the_config_lists_but_the_repository_lacks_is_named(repo, tmp_path):
    root, lock, vendor = repo
    (root / "toolproof" / "web.py").unlink()
    with pytest.raises(VendorError, match=r"^toolproof/web.py is missing or a symbolic link"):
        write_bundle(root, tmp_path / "s", lock, vendor)


def test_a_symbolic_link_in_the_site_is_refused(repo, tmp_path):
    root, lock, vendor = repo
    (tmp_path / "secret.css").write_text("secret")
    (root / "web" / "leak.css").symlink_to(tmp_path / "secret.css")
    with pytest.raises(VendorError, match=r"^web/leak.css is missing or a symbolic link"):
        write_bundle(root, tmp_path / "s", lock, vendor)


# --------------------------------------------------------------------------- the real repository


def test_the_committed_page_list_names_vendored_files():
    manifest = read_manifest(ROOT / "vendor")
    assert manifest is not None, "run python serve.py --fetch-only"
    listed = bundle_vendor_files(LOCK)
    assert listed and set(listed) <= set(manifest["files"])
    wheels = {f"wheels/{a['file']}" for a in LOCK["artifacts"] if a["source"] == "pip"}
    assert set(LOCK["page_loads"]["on_demand"]) == wheels   # toolproof/page/main.py fetches every wheel


def test_main_bundles_the_real_site_and_prints_its_size(tmp_path, capsys):
    dest = tmp_path / "site"
    assert serve.main(["--bundle", str(dest)]) == 0
    done = json.loads((dest / "bundle.json").read_text())
    out = capsys.readouterr().out
    assert out == (f"ToolProof: wrote {len(done['files'])} files, {size_text(done['total_size'])}, "
                   f"to {dest}; publish that folder as it is (docs/publishing.md)\n")
    paths = {e["path"] for e in done["files"]}
    assert {p for p in paths if p.startswith("vendor/")} == {f"vendor/{r}" for r in bundle_vendor_files(LOCK)}
    # the modules the page loads: every one but the terminal-only ones web/pyscript_config.py names
    modules = {f"toolproof/{p.relative_to(ROOT / 'toolproof').as_posix()}" for p in (ROOT / "toolproof").rglob("*.py")}
    modules = {m for m in modules if _page_config_module().in_page(m)}
    assert "toolproof/grading/grade.py" in modules and modules == page_modules(ROOT)
    with zipfile.ZipFile(dest / "web" / "page-files.zip") as archive:
        packed = set(archive.namelist())
    assert {p for p in packed if p.startswith("toolproof/") and not p.endswith(".pyc")} == modules
    # beside each module its precompiled form, when Node.js could make it (serving/bytecode.py)
    beside = {f"{m.rpartition('/')[0]}/__pycache__/{m.rpartition('/')[2][:-3]}.cpython-314.pyc" for m in modules}
    compiled = {p for p in packed if p.endswith(".pyc")}
    assert compiled <= beside and (compiled == beside or bytecode_note(ROOT))
    config = _page_config_module()
    assert {p for p in packed if p.startswith("data/")} == set(config.DATA + config.worlds())
    assert "data/worlds/bank.json" in packed      # the bundled worlds: the page runs scenarios offline too
    # only in the archive, but for the entry point PyScript fetches itself (index.html names it)
    assert {p for p in paths if p.startswith(("toolproof/", "data/"))} == {PAGE_SCRIPT}
    assert f'<script type="py" worker src="./{PAGE_SCRIPT}"' in (ROOT / "index.html").read_text()
    assert not any(p.startswith(("tests/", "benchmarks/", ".git")) or p.endswith(("serve.py", ".toml", ".md"))
                   for p in paths)
    assert serve.main(["--bundle", str(dest)]) == 1
    assert capsys.readouterr().err.startswith(f"serve.py: --bundle {dest}: the folder is not empty")


def test_an_unwritable_destination_is_one_line(tmp_path, capsys):
    (tmp_path / "file").write_text("x")
    assert serve.main(["--bundle", str(tmp_path / "file" / "site")]) == 1
    err = capsys.readouterr().err
    assert err == f"serve.py: File exists: {tmp_path / 'file'}\n"


# --------------------------------------------------------------------------- in Chromium


@pytest.fixture(scope="module")
def host(tmp_path_factory):
    """A bundle at /team/toolproof/ of a parent folder that `python -m http.server` serves, and a
    copy at /team/toolproof-own/ whose tools.json has a schema that needs jsonschema (the page's
    service worker answers its same-origin requests, so a test cannot route them)."""
    parent = tmp_path_factory.mktemp("host")
    (parent / "secret.txt").write_text("outside the bundle")
    folder = parent / "team" / "toolproof"
    assert serve.main(["--bundle", str(folder)]) == 0
    own = parent / "team" / "toolproof-own"
    shutil.copytree(folder, own)
    archive = own / "web" / "page-files.zip"
    archive.write_bytes(repacked(archive.read_bytes(), {"data/tools.json": json.dumps(tools_needing_jsonschema())}))
    with static_host(parent) as base:
        yield base + "team/"


@pytest.fixture(scope="module")
def published(host):
    return host + "toolproof/"


def load(browser, url: str, *, selftest: bool = False) -> dict:
    """Open url until ready; return what the page showed and every request with its status."""
    context = browser.new_context()
    page = context.new_page()
    seen: list[tuple[str, int | None]] = []
    page.on("requestfinished", lambda r: seen.append((r.url, r.response().status if r.response() else None)))
    page.on("requestfailed", lambda r: seen.append((r.url, None)))
    page.goto(url + ("?selftest=1" if selftest else ""))
    page.wait_for_function("(document.body?.dataset.ready ?? 'false') !== 'false'", timeout=READY_TIMEOUT_MS)
    if page.evaluate("document.body.dataset.ready") == "true":
        show_fixtures(page)          # graded once in view
    result = {"base": url, "ready": page.evaluate("document.body.dataset.ready"), "error": page.text_content("#boot-error"),
              "verdicts": page.eval_on_selector_all(
                  ".case-row", "rows => rows.map(r => [r.dataset.caseId, r.dataset.verdict])"),
              "score": page.evaluate("document.querySelector('#fixture .score-value')?.textContent"),
              "runtime": page.evaluate("window.__runtime")}
    if selftest:
        page.wait_for_function("document.getElementById('selftest-result').textContent !== ''",
                               timeout=READY_TIMEOUT_MS)
        result["selftest"] = json.loads(page.text_content("#selftest-result"))
    page.wait_for_load_state("networkidle")
    result["requests"] = list(seen)
    context.close()
    return result


def tools_needing_jsonschema() -> dict:
    tools = json.loads((ROOT / "data" / "tools.json").read_text())
    tools["tools"].append({"name": "lookup_anything", "domain": "files", "description": "Test only.",
                           "parameters": {"type": "object", "properties": {
                               "key": {"anyOf": [{"type": "string"}, {"type": "integer"}]}}}})
    return tools


@pytest.fixture(scope="module")
def loads(browser, published, host):
    return {"plain": load(browser, published), "selftest": load(browser, published, selftest=True),
            "jsonschema": load(browser, host + "toolproof-own/")}


@pytest.mark.browser
def test_the_published_page_is_ready_and_grades_the_fixtures(loads):
    card = json.loads(cli("grade", "--format", "json"))
    for name in ("plain", "jsonschema"):
        assert loads[name]["ready"] == "true", loads[name]["error"]
        assert loads[name]["verdicts"] == [[c["id"], c["verdict"]] for c in card["cases"]]
        assert loads[name]["score"] == f"{card['score']:.2f}"
        # --bundle wrote Pyodide's snapshot (Node.js made it) and the page restored it
        if shutil.which("node"):
            assert loads[name]["runtime"] == "restored from its snapshot", loads[name]["runtime"]


@pytest.mark.browser
def test_the_published_selftest_matches_the_terminal(loads):
    terminal = cli("selftest").strip().splitlines()[-1]
    passed = int(re.fullmatch(r"selftest: (\d+) passed, 0 failed", terminal).group(1))
    assert loads["selftest"]["selftest"] == {"passed": passed, "failed": 0}


@pytest.mark.browser
def test_every_request_stays_in_the_bundle_folder_and_succeeds(loads, published):
    for name, result in loads.items():
        assert result["requests"], name
        outside = [u for u, _ in result["requests"] if not u.startswith((result["base"], "data:", "blob:"))]
        assert outside == [], name
        failed = [(u, s) for u, s in result["requests"] if u.startswith(result["base"]) and (s is None or s >= 400)]
        assert failed == [], name


@pytest.mark.browser
def test_page_loads_is_exactly_what_the_page_requests(loads, published):
    """The bundle's vendor list (vendor.lock.json page_loads) against recorded requests: a file the
    page needs but the list lacks would 404 on a static host; a listed file the page never
    requests is dead weight in every bundle."""
    def vendor(result):
        prefix = result["base"] + "vendor/"
        return {u[len(prefix):].split("?")[0] for u, _ in result["requests"] if u.startswith(prefix)}
    listed = LOCK["page_loads"]
    message = "update page_loads in vendor.lock.json to: " + json.dumps(
        {"boot": sorted(vendor(loads["plain"])),
         "on_demand": sorted(vendor(loads["jsonschema"]) - vendor(loads["plain"]))})
    assert vendor(loads["plain"]) == set(listed["boot"]), message
    assert vendor(loads["selftest"]) == set(listed["boot"]), message
    assert vendor(loads["jsonschema"]) == set(listed["boot"]) | set(listed["on_demand"]), message


KEY = "sk-bundle-secret-4242"
STORED = """async () => {
    const found = [];
    for (const name of await caches.keys()) {
        const cache = await caches.open(name);
        for (const request of await cache.keys()) {
            const response = await cache.match(request);
            found.push(request.url + JSON.stringify([...request.headers]) + JSON.stringify([...response.headers])
                       + await response.text());
        }
    }
    const text = v => (v instanceof ArrayBuffer || ArrayBuffer.isView(v)) ? new TextDecoder().decode(v) : v;
    const stored = [];
    for (const {name} of await indexedDB.databases()) {
        const db = await new Promise((ok, no) => { const r = indexedDB.open(name); r.onsuccess = () => ok(r.result); r.onerror = () => no(r.error); });
        for (const store of db.objectStoreNames) {
            const all = await new Promise((ok, no) => {
                const r = db.transaction(store).objectStore(store).getAll(); r.onsuccess = () => ok(r.result); r.onerror = () => no(r.error); });
            stored.push(name + JSON.stringify(all, (k, v) => text(v)));
        }
        db.close();
    }
    return {cached: found, databases: stored,
            session: JSON.stringify(Object.entries(sessionStorage)), local: JSON.stringify(Object.entries(localStorage)),
            isolated: crossOriginIsolated, controlled: !!navigator.serviceWorker.controller};
}"""


@pytest.mark.browser
def test_the_key_stays_in_the_pages_session_storage_only(browser, published):
    """On a static host the page is isolated by its service worker (sw.js) and works offline from
    its cache; a live run's key is in the page's sessionStorage and the provider's header, never
    in the service worker's cache, in any IndexedDB (a worker's storage) or in localStorage."""
    from routed import RoutedProvider, origin_pattern

    context = browser.new_context()
    page = context.new_page()
    page.goto(published)
    booted(page)
    provider = RoutedProvider(page, origin_pattern("https://api.openai.com/v1/chat/completions"))
    page.select_option("#provider", "openai")
    page.fill("#model", "gpt-test")
    page.fill("#api-key", KEY)
    page.select_option("#scope", "should_call")
    page.fill("#cap", "2")
    click_run(page)
    page.wait_for_function("['done', 'aborted', 'error'].includes(document.body?.dataset.run)",
                           timeout=READY_TIMEOUT_MS)
    assert provider.posts and all(p["headers"]["authorization"] == f"Bearer {KEY}" for p in provider.posts)
    stored = page.evaluate(STORED)
    assert stored["isolated"] and stored["controlled"]
    assert stored["cached"] and not [entry for entry in stored["cached"] if KEY in entry]
    assert not [entry for entry in stored["databases"] if KEY in entry]       # PyScript's own IndexedDB
    assert KEY in stored["session"] and KEY not in stored["local"]
    provider.close()
    context.set_offline(True)                 # offline after the first load: from the worker's cache
    page.reload()
    booted(page)
    if shutil.which("node"):                  # the snapshot too comes from the cache
        assert page.evaluate("window.__runtime") == "restored from its snapshot"
    context.close()


@pytest.mark.browser
def test_on_a_static_host_a_server_without_cors_is_told_from_one_that_is_down(browser, published):
    """Under the service worker's embedder policy ("credentialless" where the browser knows it) the
    page still tells a local server that answers without CORS headers (with the fix) from one that
    does not answer at all, as it does under python serve.py."""
    from fakeprovider import FakeProvider

    fake = FakeProvider()             # answers, with no CORS headers
    context = browser.new_context()
    page = context.new_page()
    page.goto(published + f"?timeout={REQUEST_TIMEOUT_S}")
    booted(page)
    assert page.evaluate("!!navigator.serviceWorker.controller")

    def run_against(base: str) -> str:
        page.select_option("#provider", "openai-compatible")
        page.fill("#model", "qwen-test")
        page.fill("#base-url", base)
        page.select_option("#scope", "should_call")
        page.fill("#cap", "1")
        click_run(page)
        # this run's card, not the last one's: its reason names this base URL
        page.wait_for_function("url => ['done', 'aborted', 'error'].includes(document.body?.dataset.run) && "
                               "document.querySelector('#live-card').textContent.includes(url)",
                               arg=base + "/chat/completions", timeout=READY_TIMEOUT_MS)
        return page.text_content("#live-card")

    base = f"{fake.base}/v1"
    assert f"{base}/chat/completions answered, but the browser blocked the answer" in run_against(base)
    fake.close()
    import socket
    with socket.socket() as free:             # a port nothing listens on
        free.bind(("127.0.0.1", 0))
        down = f"http://127.0.0.1:{free.getsockname()[1]}/v1"
    assert f"no HTTP answer from {down}/chat/completions: the connection was refused" in run_against(down)
    context.close()
