"""Tests for serve.py's offline parts: the lock, hashing, safe unpacking, vendor/'s manifest and
its check on every start, the package-client wrappers (with the clients faked) and the HTTP
server's allow-list on an ephemeral 127.0.0.1 port. No test touches the network or runs npm or
pip. (--bundle: tests/test_bundle.py.)"""

from __future__ import annotations

import hashlib
import http.client
import json
import shutil
import socket
import subprocess
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser import serve  # the repository's serve.py (browser.py puts the root on sys.path)
from fakeregistry import FakeFetch, no_fetch
from fakesite import FILES, fake_repo
from serving.lock import lock_digest
from serving.vendor import ensure_vendor

VendorError = serve.VendorError
ListenError = serve.ListenError


# --------------------------------------------------------------------------- vendor/ marker


def test_second_ensure_vendor_does_not_fetch(tmp_path: Path, artefacts: Any) -> None:
    lock, files = artefacts
    fetch = FakeFetch(files)
    ensure_vendor(tmp_path, lock, log=lambda _: None, fetch=fetch)
    assert fetch.calls == 1
    vendor = tmp_path / "vendor"
    assert (vendor / "demo" / "core.js").read_bytes() == b"export {};\n"
    assert (vendor / "wheels" / "demo_wheel-2.0-py3-none-any.whl").exists()
    manifest = json.loads((vendor / ".manifest.json").read_text())
    assert manifest["lock"] == lock_digest(lock)
    assert manifest["files"] == {"demo/core.js": hashlib.sha256(b"export {};\n").hexdigest(),
                                 "wheels/demo_wheel-2.0-py3-none-any.whl": lock["artifacts"][1]["sha256"]}
    assert ensure_vendor(tmp_path, lock, log=lambda _: None, fetch=no_fetch) == manifest["files"]


def test_changed_lock_or_missing_marker_fetches_again(tmp_path: Path, artefacts: Any) -> None:
    lock, files = artefacts
    fetch = FakeFetch(files)
    ensure_vendor(tmp_path, lock, log=lambda _: None, fetch=fetch)
    (tmp_path / "vendor" / ".manifest.json").unlink()  # as after an interrupted fetch
    ensure_vendor(tmp_path, lock, log=lambda _: None, fetch=fetch)
    lock["_comment"] = "edited"                        # not a pin: nothing to fetch
    lock["page_loads"] = {"boot": ["demo/core.js"], "on_demand": []}
    ensure_vendor(tmp_path, lock, log=lambda _: None, fetch=fetch)
    assert fetch.calls == 2
    lock["artifacts"][0]["version"] = "1.0.1"          # an edited pin
    ensure_vendor(tmp_path, lock, log=lambda _: None, fetch=fetch)
    assert fetch.calls == 3


def test_hash_mismatch_leaves_vendor_untouched(tmp_path: Path, artefacts: Any) -> None:
    lock, files = artefacts
    ensure_vendor(tmp_path, lock, log=lambda _: None, fetch=FakeFetch(files))
    lock["artifacts"][1]["sha256"] = "f" * 64
    with pytest.raises(VendorError, match="sha256 mismatch for demo_wheel-2.0"):
        ensure_vendor(tmp_path, lock, log=lambda _: None, fetch=FakeFetch(files))
    assert (tmp_path / "vendor" / "demo" / "core.js").exists()


def test_main_second_run_invokes_no_client(tmp_path: Path, artefacts: Any,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    lock, files = artefacts
    (tmp_path / "vendor.lock.json").write_text(json.dumps(lock))
    ensure_vendor(tmp_path, lock, log=lambda _: None, fetch=FakeFetch(files))

    def forbidden(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("no subprocess on a second run")

    monkeypatch.setattr(serve, "ROOT", tmp_path)
    monkeypatch.setattr(subprocess, "run", forbidden)
    monkeypatch.setattr(shutil, "which", forbidden)
    assert serve.main(["--fetch-only"]) == 0


@pytest.fixture
def fetched(tmp_path: Path, artefacts: Any) -> tuple[Path, dict]:
    """A root whose vendor/ was fetched (faked) from the demo lock; the lock file is written too."""
    lock, files = artefacts
    (tmp_path / "vendor.lock.json").write_text(json.dumps(lock))
    ensure_vendor(tmp_path, lock, log=lambda _: None, fetch=FakeFetch(files))
    return tmp_path, lock


REPAIR = ("to repair, delete vendor/ and run `python serve.py --fetch-only` (it fetches the "
          "pinned files again)")


def tamper_content(vendor: Path) -> None:
    (vendor / "demo" / "core.js").write_bytes(b"export {evil};\n")


def tamper_extra(vendor: Path) -> None:
    (vendor / "demo" / "extra.js").write_bytes(b"")
    (vendor / "demo" / "more.js").write_bytes(b"")


def tamper_missing(vendor: Path) -> None:
    (vendor / "wheels" / "demo_wheel-2.0-py3-none-any.whl").unlink()


def tamper_link(vendor: Path) -> None:
    (vendor / "demo" / "core.js").unlink()
    (vendor / "demo" / "core.js").symlink_to("/etc/passwd")


def tamper_dir_link(vendor: Path) -> None:
    (vendor / "demo" / "up").symlink_to(vendor.parent, target_is_directory=True)


def tamper_manifest(vendor: Path) -> None:
    (vendor / ".manifest.json").write_text("{")


def tamper_manifest_paths(vendor: Path) -> None:
    manifest = json.loads((vendor / ".manifest.json").read_text())
    manifest["files"]["../../etc/passwd"] = "0" * 64
    (vendor / ".manifest.json").write_text(json.dumps(manifest))


@pytest.mark.parametrize(("tamper", "message"), [
    (tamper_content, "vendor/demo/core.js has changed since it was fetched (sha256 "
                     f"{hashlib.sha256(b'export {evil};' + bytes([10])).hexdigest()}, expected "
                     f"{hashlib.sha256(b'export {};' + bytes([10])).hexdigest()}); refusing to serve it; {REPAIR}"),
    (tamper_extra, f"vendor/demo/extra.js is not part of the pinned packages (and 1 more); refusing to serve; {REPAIR}"),
    (tamper_missing, f"vendor/wheels/demo_wheel-2.0-py3-none-any.whl is missing; refusing to serve; {REPAIR}"),
    (tamper_link, f"vendor/demo/core.js is a symbolic link, which the pinned packages never contain; {REPAIR}"),
    (tamper_dir_link, f"vendor/demo/up is a symbolic link, which the pinned packages never contain; {REPAIR}"),
    (tamper_manifest, "vendor/.manifest.json is damaged (Expecting property name enclosed in double "
                      f"quotes: line 1 column 2 (char 1)); {REPAIR}"),
    (tamper_manifest_paths, "vendor/.manifest.json is damaged (not a manifest of relative paths and "
                            f"sha256 digests); {REPAIR}"),
])
def test_every_start_refuses_a_changed_vendor(fetched: Any, tamper: Any, message: str,
                                              monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    root, lock = fetched
    tamper(root / "vendor")
    with pytest.raises(VendorError) as info:
        ensure_vendor(root, lock, log=lambda _: None, fetch=no_fetch)
    assert str(info.value) == message
    with pytest.raises(VendorError):
        serve.make_server(root, "127.0.0.1", 0)            # nor does a server start without it
    monkeypatch.setattr(serve, "ROOT", root)
    # ensure_vendor binds fetch_all as a default, so patching a module's fetch_all would not
    # reach it: stop the package clients themselves.
    monkeypatch.setattr(subprocess, "run", lambda *a, **k: pytest.fail("no client may run"))
    for argv in (["--fetch-only"], ["--port", "0"], ["--bundle", str(root / "_site")]):
        assert serve.main(argv) == 1
        assert capsys.readouterr().err == f"serve.py: {message}\n"
    assert not (root / "_site").exists()


def test_an_old_vendor_without_manifest_is_fetched_again(fetched: Any, artefacts: Any) -> None:
    root, lock = fetched
    (root / "vendor" / ".manifest.json").unlink()
    (root / "vendor" / ".complete").write_text("marker of an older serve.py\n")
    fetch = FakeFetch(artefacts[1])
    ensure_vendor(root, lock, log=lambda _: None, fetch=fetch)
    assert fetch.calls == 1 and not (root / "vendor" / ".complete").exists()


# --------------------------------------------------------------------------- serving


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """serve.py's server on the fake repository, with a secret beside it and links out of it."""
    outside = tmp_path_factory.mktemp("outside")
    (outside / "secret.txt").write_text("secret")
    (outside / "data").mkdir()
    (outside / "data" / "x.json").write_text('{"secret": 1}')
    root = outside / "repo"
    _, vendor = fake_repo(root)
    (root / "web" / "leak.css").symlink_to(outside / "secret.txt")
    (root / "web" / "inner.css").symlink_to(root / "serve.py")         # inside, but not the site
    (root / "data" / "linked").symlink_to(outside / "data", target_is_directory=True)
    server = serve.make_server(root, "127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield serve.server_url(server)
    finally:
        server.shutdown()
        server.server_close()


def fetch_raw(site: str, path: str, method: str = "GET") -> tuple[int, str, bytes]:
    """One request with the path sent exactly as given (no client-side normalisation)."""
    host, port = site[len("http://"):].rstrip("/").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=5)
    try:
        conn.putrequest(method, path, skip_accept_encoding=True)
        conn.endheaders()
        response = conn.getresponse()
        return response.status, response.headers.get("Content-Type", ""), response.read()
    finally:
        conn.close()


@pytest.mark.parametrize(("path", "body"), [
    ("/", FILES["index.html"]), ("/index.html", FILES["index.html"]),
    ("/?selftest=1", FILES["index.html"]), ("/web/boot.mjs", "// boot"),
    ("/web/pyscript.json", FILES["web/pyscript.json"]), ("/toolproof/web.py", "# page"),
    ("/data/schemas/tools.schema.json", "{}"), ("/vendor.lock.json", None),
    ("/vendor/pyodide/pyodide.mjs", "export {}"), ("/vendor/pyodide/unused.js", "u"),
    ("/benchmarks/bare.html", "<p>"), ("/web/%62oot.mjs", "// boot"),
])
def test_server_serves_the_site(site: str, path: str, body: str | None) -> None:
    status, _, data = fetch_raw(site, path)
    assert status == 200
    assert body is None or data == body.encode()
    assert fetch_raw(site, path, "HEAD")[:2] == (200, fetch_raw(site, path)[1])


@pytest.mark.parametrize("path", [
    # the repository, not the site
    "/.git/HEAD", "/%2egit/HEAD", "/.env", "/%2Eenv", "/serve.py", "/pyproject.toml", "/README.md",
    "/tests/test_x.py", "/web/pyscript_config.py", "/toolproof/cli.py", "/toolproof/_version.py",
    "/data/notes.txt", "/data/.secret.json", "/benchmarks/b.py", "/vendor/.manifest.json",
    "/vendor/", "/web/", "/web", "/toolproof/", "/vendor.lock.json/", "/index.html/",
    # out of the root: raw, encoded, double-encoded, backslashes, absolute-form, links
    "/../secret.txt", "/%2e%2e/secret.txt", "/%2E%2E%2Fsecret.txt", "/web/%2e%2e/serve.py",
    "/web/..%2f..%2fsecret.txt", "/%252e%252e/secret.txt", "//etc/passwd", "/web\\..\\serve.py",
    "/web/%5c..%5cserve.py", "/./index.html", "/web//boot.mjs", "http://evil.example/index.html",
    "/web/leak.css", "/web/inner.css", "/data/linked/x.json",
    # control characters, bad UTF-8, Windows names
    "/index.html%00.css", "/%ff.json", "/web/boot.mjs%0a", "/C:/Windows/win.ini", "/web/style.css:x",
])
def test_server_answers_404_for_everything_else(site: str, path: str) -> None:
    status, _, data = fetch_raw(site, path)
    assert status == 404
    assert b"secret" not in data and b"# server" not in data and b"KEY=1" not in data


@pytest.mark.parametrize(("name", "mime"), [
    ("vendor/pyodide/pyodide.mjs", "text/javascript"), ("web/boot.mjs", "text/javascript"),
    ("vendor/pyodide/pyodide.asm.wasm", "application/wasm"), ("data/tools.json", "application/json"),
    ("vendor/wheels/a-1-py3-none-any.whl", "application/zip"), ("web/style.css", "text/css"),
    ("index.html", "text/html; charset=utf-8"), ("toolproof/web.py", "text/x-python; charset=utf-8"),
])
def test_server_sends_right_type_and_no_cache(site: str, name: str, mime: str) -> None:
    assert site.startswith("http://127.0.0.1:")
    with urllib.request.urlopen(site + name, timeout=5) as response:
        assert response.headers["Content-Type"] == mime
        assert response.headers["Cache-Control"] == "no-cache"


def test_server_refuses_other_methods(site: str) -> None:
    assert fetch_raw(site, "/index.html", "POST")[0] == 501
    assert fetch_raw(site, "/index.html", "PUT")[0] == 501


def test_server_without_a_fetched_vendor_does_not_start(tmp_path: Path) -> None:
    with pytest.raises(VendorError) as info:
        serve.make_server(tmp_path, "127.0.0.1", 0)
    assert str(info.value) == "vendor/ has no .manifest.json; run `python serve.py --fetch-only`"


def test_port_in_use_is_a_clear_error(tmp_path: Path) -> None:
    fake_repo(tmp_path)
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        with pytest.raises(ListenError) as info:
            serve.make_server(tmp_path, "127.0.0.1", port)
    assert str(info.value) == (f"port {port} on 127.0.0.1 is already in use; stop the other "
                               "server or pick another port with --port N")


def test_port_in_use_is_one_line_and_exit_1(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    # ListenError is not a VendorError: main catches the family's base, ServingError.
    fake_repo(tmp_path)
    monkeypatch.setattr(serve, "ROOT", tmp_path)
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert serve.main(["--port", str(port)]) == 1
    assert capsys.readouterr().err == (f"serve.py: port {port} on 127.0.0.1 is already in use; "
                                       "stop the other server or pick another port with --port N\n")


# --connect: the page's CSP can only be widened where it is served (a meta CSP cannot change at
# run time), so serve.py adds the origins a user names for a remote OpenAI-compatible server.
def test_connect_origins_are_added_to_the_served_csp(tmp_path: Path) -> None:
    fake_repo(tmp_path)
    server = serve.make_server(tmp_path, "127.0.0.1", 0, connect=["https://llm.example.net:8443/"])
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        for path in ("/", "/index.html?x=1"):
            assert fetch_raw(serve.server_url(server), path)[2].decode() == (
                "<meta content=\"connect-src 'self' https://llm.example.net:8443 https://api.openai.com\">")
    finally:
        server.shutdown()
        server.server_close()


