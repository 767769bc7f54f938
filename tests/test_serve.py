"""Tests for serve.py's offline parts: the lock, hashing, safe unpacking, the vendor/
marker, the package-client wrappers (with the clients faked) and the HTTP server on an
ephemeral 127.0.0.1 port. No test touches the network or runs npm or pip."""

from __future__ import annotations

import hashlib
import importlib.util
import io
import json
import socket
import subprocess
import sys
import tarfile
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parent.parent


def _load_serve() -> Any:
    spec = importlib.util.spec_from_file_location("serve", REPO / "serve.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["serve"] = module
    spec.loader.exec_module(module)
    return module


serve = _load_serve()
VendorError = serve.VendorError


# --------------------------------------------------------------------------- helpers


def make_tgz(path: Path, members: dict[str, bytes], *, extra: list[tarfile.TarInfo] = ()) -> Path:
    with tarfile.open(path, "w:gz") as tar:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
        for info in extra:
            tar.addfile(info)
    return path


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def artefacts(tmp_path: Path) -> tuple[dict, dict[str, Path]]:
    """A lock for one npm tarball and one wheel, plus the files a fetch would produce."""
    src = tmp_path / "src"
    src.mkdir()
    tgz = make_tgz(src / "demo-1.0.0.tgz", {"package/dist/core.js": b"export {};\n",
                                             "package/README.md": b"readme\n"})
    whl = src / "demo_wheel-2.0-py3-none-any.whl"
    whl.write_bytes(b"PK fake wheel")
    lock = {"artifacts": [
        {"name": "demo", "version": "1.0.0", "source": "npm", "unpack": "package/dist/",
         "dest": "demo", "file": tgz.name, "sha256": sha(tgz)},
        {"name": "demo-wheel", "version": "2.0", "source": "pip", "dest": "wheels",
         "file": whl.name, "sha256": sha(whl)},
    ]}
    return lock, {"demo": tgz, "demo-wheel": whl}


class FakeFetch:
    """Stands in for fetch_all: copies prepared files into the temp folder, counts calls."""

    def __init__(self, files: dict[str, Path]) -> None:
        self.files = files
        self.calls = 0

    def __call__(self, lock: dict, into: Path) -> dict[str, Path]:
        self.calls += 1
        out = {}
        for name, path in self.files.items():
            copy = into / path.name
            copy.write_bytes(path.read_bytes())
            out[name] = copy
        return out


def no_fetch(lock: dict, into: Path) -> dict[str, Path]:
    raise AssertionError("fetch must not be called when vendor/ is complete")


# --------------------------------------------------------------------------- the lock


def test_committed_lock_is_valid_and_pins_every_artefact() -> None:
    lock = serve.load_lock(REPO / "vendor.lock.json")
    names = {a["name"]: a for a in lock["artifacts"]}
    assert names["pyodide"]["version"] == "314.0.7"
    assert names["@pyscript/core"]["version"] == "0.7.31"
    assert {a["source"] for a in lock["artifacts"]} == {"npm", "pip"}
    wheels = [a for a in lock["artifacts"] if a["source"] == "pip"]
    assert len(wheels) == 7 and all(a["file"].endswith(".whl") for a in wheels)


@pytest.mark.parametrize(("change", "message"), [
    # Why: dest is rmtree'd on refetch, so it must never climb out of vendor/.
    ({"dest": "../etc"}, "'dest' must be a plain folder name, not '../etc'"),
    ({"sha256": "abc"}, "'sha256' must be 64 lowercase hex digits"),
    ({"source": "conda"}, "'source' must be \"npm\" or \"pip\", not 'conda'"),
    ({"version": ""}, "'version' must be a non-empty string"),
    ({"unpack": None}, "an npm artefact needs 'unpack' (a folder in the tarball)"),
])
def test_bad_lock_entries_are_named(tmp_path: Path, artefacts: Any, change: dict,
                                    message: str) -> None:
    lock, _ = artefacts
    lock["artifacts"][0].update(change)
    path = tmp_path / "vendor.lock.json"
    path.write_text(json.dumps(lock))
    with pytest.raises(VendorError) as info:
        serve.load_lock(path)
    assert str(info.value) == f"{path}: artifacts[0]: {message}"


def test_missing_and_broken_lock_files(tmp_path: Path) -> None:
    with pytest.raises(VendorError, match="not found; restore it from git"):
        serve.load_lock(tmp_path / "nope.json")
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    with pytest.raises(VendorError, match="is not valid JSON"):
        serve.load_lock(broken)
    broken.write_text('{"artifacts": []}')
    with pytest.raises(VendorError, match="non-empty list 'artifacts'"):
        serve.load_lock(broken)


def test_lock_digest_ignores_key_order() -> None:
    a = {"artifacts": [{"name": "x", "version": "1"}]}
    b = {"artifacts": [{"version": "1", "name": "x"}]}
    assert serve.lock_digest(a) == serve.lock_digest(b)
    assert serve.lock_digest(a) != serve.lock_digest({"artifacts": [{"name": "x", "version": "2"}]})


def test_hash_mismatch_gives_one_clear_line(tmp_path: Path) -> None:
    file = tmp_path / "attrs-26.1.0-py3-none-any.whl"
    file.write_bytes(b"tampered")
    art = {"name": "attrs", "version": "26.1.0", "sha256": "0" * 64}
    with pytest.raises(VendorError) as info:
        serve.verify_file(file, art)
    text = str(info.value)
    assert text.startswith("sha256 mismatch for attrs-26.1.0-py3-none-any.whl (attrs 26.1.0): "
                           f"expected {'0' * 64}, got {hashlib.sha256(b'tampered').hexdigest()}")
    assert "\n" not in text


# --------------------------------------------------------------------------- unpacking


@pytest.mark.parametrize("bad_name", ["../evil.js", "package/../../evil.js", "/etc/evil",
                                      "package\\..\\evil.js", "C:/evil.js"])
def test_tar_with_traversal_is_refused_before_writing(tmp_path: Path, bad_name: str) -> None:
    tgz = make_tgz(tmp_path / "bad.tgz", {"package/ok.js": b"1", bad_name: b"2"})
    dest = tmp_path / "out"
    dest.mkdir()
    with pytest.raises(VendorError, match="unsafe path"):
        serve.extract_tar(tgz, "package/", dest)
    assert list(dest.iterdir()) == []


def test_tar_with_link_is_refused(tmp_path: Path) -> None:
    link = tarfile.TarInfo("package/link.js")
    link.type = tarfile.SYMTYPE
    link.linkname = "/etc/passwd"
    tgz = make_tgz(tmp_path / "link.tgz", {"package/ok.js": b"1"}, extra=[link])
    with pytest.raises(VendorError, match="is a link or special file"):
        serve.extract_tar(tgz, "package/", tmp_path / "out")


def test_tar_prefix_is_stripped_and_other_members_skipped(tmp_path: Path) -> None:
    tgz = make_tgz(tmp_path / "p.tgz", {"package/dist/core.js": b"js",
                                        "package/dist/sub/a.css": b"css",
                                        "package/src/core.js": b"src"})
    dest = tmp_path / "out"
    assert serve.extract_tar(tgz, "package/dist/", dest) == 2
    assert (dest / "core.js").read_bytes() == b"js"
    assert (dest / "sub" / "a.css").read_bytes() == b"css"
    with pytest.raises(VendorError, match="has no files under 'nothing/'"):
        serve.extract_tar(tgz, "nothing/", tmp_path / "empty")


# --------------------------------------------------------------------------- vendor/ marker


def test_second_ensure_vendor_does_not_fetch(tmp_path: Path, artefacts: Any) -> None:
    lock, files = artefacts
    fetch = FakeFetch(files)
    serve.ensure_vendor(tmp_path, lock, log=lambda _: None, fetch=fetch)
    assert fetch.calls == 1
    vendor = tmp_path / "vendor"
    assert (vendor / "demo" / "core.js").read_bytes() == b"export {};\n"
    assert (vendor / "wheels" / "demo_wheel-2.0-py3-none-any.whl").exists()
    assert (vendor / ".complete").read_text().strip() == serve.lock_digest(lock)
    serve.ensure_vendor(tmp_path, lock, log=lambda _: None, fetch=no_fetch)


def test_changed_lock_or_missing_marker_fetches_again(tmp_path: Path, artefacts: Any) -> None:
    lock, files = artefacts
    fetch = FakeFetch(files)
    serve.ensure_vendor(tmp_path, lock, log=lambda _: None, fetch=fetch)
    (tmp_path / "vendor" / ".complete").unlink()  # as after an interrupted fetch
    serve.ensure_vendor(tmp_path, lock, log=lambda _: None, fetch=fetch)
    lock["_comment"] = "edited"
    serve.ensure_vendor(tmp_path, lock, log=lambda _: None, fetch=fetch)
    assert fetch.calls == 3


def test_hash_mismatch_leaves_vendor_untouched(tmp_path: Path, artefacts: Any) -> None:
    lock, files = artefacts
    serve.ensure_vendor(tmp_path, lock, log=lambda _: None, fetch=FakeFetch(files))
    lock["artifacts"][1]["sha256"] = "f" * 64
    with pytest.raises(VendorError, match="sha256 mismatch for demo_wheel-2.0"):
        serve.ensure_vendor(tmp_path, lock, log=lambda _: None, fetch=FakeFetch(files))
    assert (tmp_path / "vendor" / "demo" / "core.js").exists()


def test_main_second_run_invokes_no_client(tmp_path: Path, artefacts: Any,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    lock, files = artefacts
    (tmp_path / "vendor.lock.json").write_text(json.dumps(lock))
    serve.ensure_vendor(tmp_path, lock, log=lambda _: None, fetch=FakeFetch(files))

    def forbidden(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("no subprocess on a second run")

    monkeypatch.setattr(serve, "ROOT", tmp_path)
    monkeypatch.setattr(subprocess, "run", forbidden)
    monkeypatch.setattr(serve.shutil, "which", forbidden)
    assert serve.main(["--fetch-only"]) == 0


# --------------------------------------------------------------------------- clients (faked)


def test_missing_npm_is_one_line_and_exit_1(tmp_path: Path, artefacts: Any,
                                            monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    lock, _ = artefacts
    (tmp_path / "vendor.lock.json").write_text(json.dumps(lock))
    monkeypatch.setattr(serve, "ROOT", tmp_path)
    monkeypatch.setattr(serve.shutil, "which", lambda name: None)
    assert serve.main(["--fetch-only"]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err[-1] == ("serve.py: npm not found on PATH; install Node.js/npm "
                       "(Debian: apt-get install -y npm) and run again")
    assert not any("Traceback" in line for line in err)


def test_npm_pack_maps_names_from_its_json(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    printed = json.dumps([{"name": "@pyscript/core", "filename": "pyscript-core-0.7.31.tgz"},
                          {"name": "pyodide", "filename": "pyodide-314.0.7.tgz"}])
    monkeypatch.setattr(serve, "npm_command", lambda: ["npm"])
    monkeypatch.setattr(serve, "run_client", lambda *a, **k: printed)
    arts = [{"name": "pyodide", "version": "314.0.7"},
            {"name": "@pyscript/core", "version": "0.7.31"}]
    assert serve.npm_pack(arts, tmp_path) == {
        "pyodide": tmp_path / "pyodide-314.0.7.tgz",
        "@pyscript/core": tmp_path / "pyscript-core-0.7.31.tgz",
    }


def test_pip_download_matches_normalised_wheel_names(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    def fake_run(cmd: list[str], cwd: Path, what: str, fix: str) -> str:
        assert "--no-deps" in cmd and "--only-binary=:all:" in cmd and "3.14" in cmd
        (cwd / "jsonschema_specifications-2025.9.1-py3-none-any.whl").write_bytes(b"")
        (cwd / "typing_extensions-4.16.0-py3-none-any.whl").write_bytes(b"")
        return ""

    monkeypatch.setattr(serve, "run_client", fake_run)
    arts = [{"name": "jsonschema-specifications", "version": "2025.9.1"},
            {"name": "typing-extensions", "version": "4.16.0"}]
    found = serve.pip_download(arts, tmp_path)
    assert found["typing-extensions"].name == "typing_extensions-4.16.0-py3-none-any.whl"
    with pytest.raises(VendorError, match="did not produce a wheel for attrs"):
        serve.pip_download([{"name": "attrs", "version": "26.1.0"}], tmp_path)


@pytest.mark.parametrize(("stdout", "stderr", "reason"), [
    ('{"error": {"code": "ETARGET", "summary": "No matching version found for pyodide@9."}}',
     "npm error code ETARGET\nnpm error A complete log of this run can be found in: x.log\n",
     "No matching version found for pyodide@9."),
    ("", "WARNING: x\nERROR: Could not find a version\n"
         "ERROR: No matching distribution found for a==9\n",
     "ERROR: No matching distribution found for a==9"),
    ("", "", "exit code 1"),
])
def test_failure_reason_picks_the_telling_line(stdout: str, stderr: str, reason: str) -> None:
    done = subprocess.CompletedProcess(["x"], 1, stdout=stdout, stderr=stderr)
    assert serve.failure_reason(done) == reason


# --------------------------------------------------------------------------- serving


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    tmp_path = tmp_path_factory.mktemp("site")
    for name in ["index.html", "a.mjs", "a.js", "a.wasm", "a.json", "a.whl", "a.zip", "a.css"]:
        (tmp_path / name).write_bytes(b"x")
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "HEAD").write_text("ref")
    server = serve.make_server(tmp_path, "127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield serve.server_url(server)
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize(("name", "mime"), [
    ("a.mjs", "text/javascript"), ("a.js", "text/javascript"), ("a.wasm", "application/wasm"),
    ("a.json", "application/json"), ("a.whl", "application/zip"), ("a.zip", "application/zip"),
    ("a.css", "text/css"), ("index.html", "text/html; charset=utf-8"),
])
def test_server_sends_right_type_and_no_cache(site: str, name: str, mime: str) -> None:
    assert site.startswith("http://127.0.0.1:")
    with urllib.request.urlopen(site + name, timeout=5) as response:
        assert response.headers["Content-Type"] == mime
        assert response.headers["Cache-Control"] == "no-cache"
        assert response.read() == b"x"


@pytest.mark.parametrize("path", [".git/HEAD", "%2egit/HEAD"])
def test_server_hides_dotfiles(site: str, path: str) -> None:
    with pytest.raises(urllib.error.HTTPError) as info:
        urllib.request.urlopen(site + path, timeout=5)
    assert info.value.code == 404


def test_port_in_use_is_a_clear_error(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        with pytest.raises(VendorError) as info:
            serve.make_server(tmp_path, "127.0.0.1", port)
    assert str(info.value) == (f"port {port} on 127.0.0.1 is already in use; stop the other "
                               "server or pick another port with --port N")


# --connect: the page's CSP can only be widened where it is served (a meta CSP cannot change at
# run time), so serve.py adds the origins a user names for a remote OpenAI-compatible server.
def test_connect_origins_are_added_to_the_served_csp(tmp_path):
    import urllib.request
    (tmp_path / "index.html").write_text('<meta content="connect-src \'self\' https://api.openai.com; x">')
    server = serve.make_server(tmp_path, "127.0.0.1", 0, connect=["https://llm.example.net:8443/"])
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        page = urllib.request.urlopen(serve.server_url(server)).read().decode()
    finally:
        server.shutdown()
    assert "connect-src 'self' https://llm.example.net:8443 https://api.openai.com" in page


@pytest.mark.parametrize("origin", ["llm.example.net", "https://x.net/v1", "https://a b", "javascript:alert(1)"])
def test_connect_refuses_what_is_not_an_origin(origin):
    with pytest.raises(serve.VendorError, match="--connect wants an origin"):
        serve.check_origin(origin)
