"""serving/vendor.py: a fetch (faked: tests/fakeregistry.py) installs vendor/ and its manifest
once; every later start checks each file against it and refuses, with one line naming the file,
a vendor/ that changed, grew, shrank, holds a link or has a damaged manifest (and so do the
server and serve.py's main). No test touches the network or runs npm or pip."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

import serve
from fakeregistry import FakeFetch, no_fetch
from serving.errors import VendorError
from serving.lock import lock_digest
from serving.server import make_server
from serving.vendor import ensure_vendor


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
        make_server(root, "127.0.0.1", 0)            # nor does a server start without it
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
