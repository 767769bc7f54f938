"""serving/server.py on an ephemeral 127.0.0.1 port over a fake repository (tests/fakesite.py):
it serves the site and nothing else (404 for the repository, traversal in every encoding,
links out, control characters), with the MIME types Pyodide needs and no caching, refuses other
methods, will not start without a checked vendor/ or on a busy port, and adds --connect origins
to the served CSP."""
from __future__ import annotations

import http.client
import io
import socket
import threading
import urllib.request
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

import serve
from fakesite import FILES, PAGE_CONFIG, fake_repo
from serving.errors import ListenError, VendorError
from serving.server import make_server, server_url

# a request to the local server gets what a busy machine needs to answer it, not a guess at a quick one
BUSY_S = 60


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
    server = make_server(root, "127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield server_url(server)
    finally:
        server.shutdown()
        server.server_close()


def fetch_raw(site: str, path: str, method: str = "GET", host_header: str | None = None) -> tuple[int, str, bytes]:
    """One request with the path sent exactly as given (no client-side normalisation); the Host
    header is the client's own unless `host_header` says otherwise."""
    host, port = site[len("http://"):].rstrip("/").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=BUSY_S)
    try:
        conn.putrequest(method, path, skip_host=host_header is not None, skip_accept_encoding=True)
        if host_header is not None:
            conn.putheader("Host", host_header)
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
    "/.git/HEAD", "/%2egit/HEAD", "/.env", "/%2Eenv", "/serve.py", "/serving/server.py",
    "/pyproject.toml", "/README.md", "/tests/test_x.py", "/web/pyscript_config.py", "/toolproof/cli.py",
    "/toolproof/_version.py",
    "/data/notes.txt", "/data/.secret.json", "/data/results.json", "/benchmarks/b.py", "/vendor/.manifest.json",
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
    # an absolute-form request names its own host (http.client sends it as Host): 421
    assert status == (421 if path.startswith("http://") else 404)
    assert b"secret" not in data and b"# server" not in data and b"KEY=1" not in data


@pytest.mark.parametrize(("name", "mime"), [
    ("vendor/pyodide/pyodide.mjs", "text/javascript"), ("web/boot.mjs", "text/javascript"),
    ("vendor/pyodide/pyodide.asm.wasm", "application/wasm"), ("data/tools.json", "application/json"),
    ("vendor/wheels/a-1-py3-none-any.whl", "application/zip"), ("web/style.css", "text/css"),
    ("index.html", "text/html; charset=utf-8"), ("toolproof/web.py", "text/x-python; charset=utf-8"),
])
def test_server_sends_right_type_and_no_cache(site: str, name: str, mime: str) -> None:
    assert site.startswith("http://127.0.0.1:")
    with urllib.request.urlopen(site + name, timeout=BUSY_S) as response:
        assert response.headers["Content-Type"] == mime
        assert response.headers["Cache-Control"] == "no-cache"


def test_every_answer_carries_the_isolation_headers(site: str) -> None:
    for name in ("index.html", "web/boot.mjs", "vendor/pyodide/pyodide.mjs", "data/tools.json"):
        with urllib.request.urlopen(site + name, timeout=BUSY_S) as response:
            assert response.headers["Cross-Origin-Opener-Policy"] == "same-origin"
            assert response.headers["Cross-Origin-Embedder-Policy"] == "credentialless"


def revalidate(site: str, path: str, tag: str) -> tuple[int, str | None, bytes]:
    host, port = site[len("http://"):].rstrip("/").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=BUSY_S)
    try:
        conn.request("GET", path, headers={"If-None-Match": tag})
        response = conn.getresponse()
        return response.status, response.headers.get("ETag"), response.read()
    finally:
        conn.close()


@pytest.mark.parametrize("tag", ['"nope"', "", "*", '"' + "a" * 5000 + '"', "\u00e9\x7f", 'W/"x", "y"'])
def test_a_vendor_file_is_sent_again_unless_its_own_etag_comes_back(site: str, tag: str) -> None:
    status, etag, body = revalidate(site, "/vendor/pyodide/pyodide.mjs", tag.encode("latin-1", "replace").decode("latin-1"))
    assert (status, body) == (200, b"export {}") and etag and etag.startswith('"')
    assert revalidate(site, "/vendor/pyodide/pyodide.mjs", etag) == (304, etag, b"")   # the pinned sha256 matches


def test_only_vendor_files_have_an_etag(site: str) -> None:
    status, etag, body = revalidate(site, "/index.html", '"anything"')
    assert status == 200 and etag is None and body


def test_the_pages_files_come_as_one_archive_with_its_own_etag(site: str) -> None:
    status, etag, body = revalidate(site, "/web/page-files.zip", '"nope"')
    assert status == 200 and etag and etag.startswith('"')
    with zipfile.ZipFile(io.BytesIO(body)) as archive:
        assert archive.namelist() == sorted(PAGE_CONFIG["page_files"])
        assert {name: archive.read(name).decode() for name in archive.namelist()} == \
            {name: FILES[name] for name in PAGE_CONFIG["page_files"]}
    assert revalidate(site, "/web/page-files.zip", etag) == (304, etag, b"")
    for hostile in ('"' + "a" * 5000 + '"', "\u00e9\x7f", etag[:-1], etag + ", " + etag, "*"):
        assert revalidate(site, "/web/page-files.zip", hostile)[:2] == (200, etag)
    assert fetch_raw(site, "/web/page-files.zip?v=2")[:2] == (200, "application/zip")
    assert fetch_raw(site, "/web/page-files.zip", "HEAD")[:2] == (200, "application/zip")
    assert fetch_raw(site, "/web/other.zip")[0] == 404


def test_the_archive_follows_an_edit_and_a_missing_file_is_a_500_and_a_line(
        tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    _, vendor = fake_repo(tmp_path)
    server = make_server(tmp_path, "127.0.0.1", 0, vendor_files=vendor)
    threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True).start()
    site = server_url(server)
    try:
        first = revalidate(site, "/web/page-files.zip", "")[1]
        (tmp_path / "toolproof" / "web.py").write_text("# edited, a longer line than before")
        status, second, body = revalidate(site, "/web/page-files.zip", first)
        assert status == 200 and second != first     # the old copy is not sent as current
        assert zipfile.ZipFile(io.BytesIO(body)).read("toolproof/web.py") == b"# edited, a longer line than before"
        (tmp_path / "data" / "tools.json").unlink()
        assert fetch_raw(site, "/web/page-files.zip")[0] == 500
        err = capsys.readouterr().err
        assert "ToolProof: data/tools.json is missing or a symbolic link" in err and "Traceback" not in err
        assert fetch_raw(site, "/index.html")[0] == 200            # the rest of the site is served
    finally:
        server.shutdown()
        server.server_close()


def test_server_refuses_other_methods(site: str) -> None:
    assert fetch_raw(site, "/index.html", "POST")[0] == 501
    assert fetch_raw(site, "/index.html", "PUT")[0] == 501


def test_server_without_a_fetched_vendor_does_not_start(tmp_path: Path) -> None:
    with pytest.raises(VendorError) as info:
        make_server(tmp_path, "127.0.0.1", 0)
    assert str(info.value) == "vendor/ has no .manifest.json; run `python serve.py --fetch-only`"


def test_port_in_use_is_a_clear_error(tmp_path: Path) -> None:
    fake_repo(tmp_path)
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        with pytest.raises(ListenError) as info:
            make_server(tmp_path, "127.0.0.1", port)
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
    server = make_server(tmp_path, "127.0.0.1", 0, connect=["https://llm.example.net:8443/"])
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        for path in ("/", "/index.html?x=1"):
            assert fetch_raw(server_url(server), path)[2].decode() == (
                "<meta content=\"connect-src 'self' https://llm.example.net:8443 https://api.openai.com\">")
    finally:
        server.shutdown()
        server.server_close()




@pytest.mark.parametrize("header", ["127.0.0.1", "127.0.0.1:{port}", "localhost", "localhost:{port}",
                                    "LOCALHOST:{port}", "localhost.", "[::1]:{port}"])
def test_server_answers_localhost_names_and_its_address(site: str, header: str) -> None:
    port = site.rstrip("/").rsplit(":", 1)[1]
    assert fetch_raw(site, "/index.html", host_header=header.format(port=port))[0] == 200


@pytest.mark.parametrize("header", [
    # found by review: the Host header was not checked, so a DNS-rebinding page could read the site
    "evil.example", "evil.example:{port}", "127.0.0.1.evil.example", "localhost:1", "127.0.0.1:{port}0",
    "", "127.0.0.1:{port}@evil.example", "10.0.0.5:{port}", "localhost\x00", "a" * 5000,
])
def test_server_answers_421_to_another_host(site: str, header: str) -> None:
    port = site.rstrip("/").rsplit(":", 1)[1]
    for path in ("/index.html", "/data/tools.json", "/nope"):
        status, _, data = fetch_raw(site, path, host_header=header.format(port=port))
        assert status == 421 and b"connect-src" not in data and b"{}" != data


def test_data_holds_only_what_the_page_loads(site: str) -> None:
    # found by review: any .json under data/ was served (a results file saved there was readable)
    assert fetch_raw(site, "/data/tools.json")[0] == 200
    assert fetch_raw(site, "/data/schemas/tools.schema.json")[0] == 200
    status, _, data = fetch_raw(site, "/data/results.json")
    assert status == 404 and b"private" not in data


def test_host_allowed_table() -> None:
    from serving.server import host_allowed
    assert host_allowed("localhost:8000", "127.0.0.1", 8000) and host_allowed("127.0.0.1", "127.0.0.1", 8000)
    assert host_allowed("[::1]:8000", "::1", 8000) and host_allowed("192.168.1.9:8000", "192.168.1.9", 8000)
    assert not host_allowed(None, "127.0.0.1", 8000) and not host_allowed("localhost:8001", "127.0.0.1", 8000)
    assert not host_allowed("rebind.example:8000", "127.0.0.1", 8000)
    assert not host_allowed("192.168.1.9:8000", "127.0.0.1", 8000)
