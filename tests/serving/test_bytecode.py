"""serving/bytecode.py: the page's modules precompiled by the vendored Pyodide under Node.js, and
carried by the archive only beside the very source each was made from. Without Node (or with one
that fails) the archive is the sources alone and the reason is given; nothing in the store is ever
overwritten; vendor/'s check leaves the store alone but still refuses a link in its place."""
from __future__ import annotations

import _imp
import io
import json
import shutil
import zipfile
from pathlib import Path

import pytest

from fakesite import fake_repo
from serving import bytecode, node as serving_node
from serving.archive import archive_bytes, page_sources
from serving.errors import VendorError
from serving.vendor import verify_vendor

ROOT = Path(__file__).resolve().parents[2]
REAL_PYODIDE = ROOT / "vendor" / "pyodide"


def members(root: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(archive_bytes(root))) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def stored(root: Path, source: bytes, data: bytes, tag: str = "cpython-314") -> Path:
    """A .pyc in the store, as a Node run would have left it for this source."""
    store = root / bytecode.BYTECODE_DIR
    store.mkdir(parents=True, exist_ok=True)
    path = store / f"{tag}-{bytecode.key_of(source, bytecode.pyodide_pin(root))}.pyc"
    path.write_bytes(data)
    return path


def test_a_pyc_travels_beside_the_source_it_was_made_from_and_no_other(tmp_path: Path) -> None:
    fake_repo(tmp_path)
    source = (tmp_path / "toolproof" / "web.py").read_bytes()
    stored(tmp_path, source, b"PYC OF web.py")
    stored(tmp_path, b"# some other source", b"PYC OF ANOTHER")
    got = members(tmp_path)
    assert got["toolproof/__pycache__/web.cpython-314.pyc"] == b"PYC OF web.py"
    assert [n for n in got if n.endswith(".pyc")] == ["toolproof/__pycache__/web.cpython-314.pyc"]
    (tmp_path / "toolproof" / "web.py").write_text("# page, edited")       # stale: no longer carried
    assert not [n for n in members(tmp_path) if n.endswith(".pyc")]


def test_another_pyodide_pin_makes_every_pyc_stale(tmp_path: Path) -> None:
    fake_repo(tmp_path)
    stored(tmp_path, (tmp_path / "toolproof" / "web.py").read_bytes(), b"PYC")
    lock = json.loads((tmp_path / "vendor.lock.json").read_text())
    lock["artifacts"][0]["version"] = "2"
    (tmp_path / "vendor.lock.json").write_text(json.dumps(lock))
    assert not [n for n in members(tmp_path) if n.endswith(".pyc")]


def test_odd_files_and_a_linked_store_are_never_carried(tmp_path: Path) -> None:
    fake_repo(tmp_path)
    source = (tmp_path / "toolproof" / "web.py").read_bytes()
    key = bytecode.key_of(source, bytecode.pyodide_pin(tmp_path))
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / f"cpython-314-{key}.pyc").write_bytes(b"FROM A LINK")
    store = tmp_path / bytecode.BYTECODE_DIR
    store.mkdir()
    (store / f"cpython-314-{key}.pyc").symlink_to(outside / f"cpython-314-{key}.pyc")
    (store / f"evil-{key}.pyc").write_bytes(b"NOT OURS")
    (store / f"cpython-314-{key}.pyc.123.part").write_bytes(b"HALF WRITTEN")
    assert not [n for n in members(tmp_path) if n.endswith(".pyc")]
    shutil.rmtree(store)
    store.symlink_to(outside, target_is_directory=True)
    assert not [n for n in members(tmp_path) if n.endswith(".pyc")]


def test_without_node_the_archive_is_source_only_and_says_why(tmp_path: Path, monkeypatch) -> None:
    fake_repo(tmp_path)
    monkeypatch.setenv("PATH", str(tmp_path / "no-bin"))
    why = bytecode.ensure(tmp_path, page_sources(tmp_path))
    assert why.startswith("no precompiled Python: Node.js is not on PATH") and bytecode.note(tmp_path) == why
    assert not [n for n in members(tmp_path) if n.endswith(".pyc")]
    assert not (tmp_path / bytecode.BYTECODE_DIR).exists()


def test_a_node_that_fails_is_named_and_not_run_again_for_the_same_sources(tmp_path: Path, monkeypatch) -> None:
    fake_repo(tmp_path)                  # its vendor/pyodide/pyodide.mjs exports nothing
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    runs = tmp_path / "runs.txt"
    node = bin_dir / "node"
    node.write_text(f"#!/bin/sh\necho run >> {runs}\necho 'Error: no loadPyodide here' >&2\nexit 3\n")
    node.chmod(0o755)
    monkeypatch.setenv("PATH", str(bin_dir))
    first = bytecode.ensure(tmp_path, page_sources(tmp_path))
    assert first == "no precompiled Python: Node.js exited 3 (Error: no loadPyodide here)"
    assert bytecode.ensure(tmp_path, page_sources(tmp_path)) == first
    assert runs.read_text().count("run") == 1
    assert not [n for n in members(tmp_path) if n.endswith(".pyc")]


def test_a_node_that_hangs_is_stopped_and_named(tmp_path: Path, monkeypatch) -> None:
    fake_repo(tmp_path)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "node").write_text("#!/bin/sh\nexec sleep 30\n")
    (bin_dir / "node").chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}:/usr/bin:/bin")
    monkeypatch.setattr(serving_node, "NODE_SECONDS", 1)
    why = bytecode.ensure(tmp_path, page_sources(tmp_path))
    assert why == "no precompiled Python: Node.js could not run the vendored Pyodide (TimeoutExpired)"
    assert not [n for n in members(tmp_path) if n.endswith(".pyc")]


def test_the_vendor_check_leaves_the_store_alone_but_refuses_a_link_in_its_place(tmp_path: Path) -> None:
    _, vendor = fake_repo(tmp_path)
    stored(tmp_path, b"x = 1\n", b"PYC")
    verify_vendor(tmp_path / "vendor", vendor)            # no complaint about vendor/bytecode/
    shutil.rmtree(tmp_path / bytecode.BYTECODE_DIR)
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / bytecode.BYTECODE_DIR).symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    with pytest.raises(VendorError, match="vendor/bytecode is a symbolic link"):
        verify_vendor(tmp_path / "vendor", vendor)


@pytest.mark.skipif(shutil.which("node") is None or not (REAL_PYODIDE / "pyodide.mjs").is_file(),
                    reason="needs Node.js and the fetched vendor/pyodide")
def test_node_makes_checked_hash_pycs_of_exactly_these_sources_and_never_overwrites(tmp_path: Path) -> None:
    (tmp_path / "vendor").mkdir()
    (tmp_path / "vendor" / "pyodide").symlink_to(REAL_PYODIDE, target_is_directory=True)
    shutil.copy(ROOT / "vendor.lock.json", tmp_path / "vendor.lock.json")
    sources = {"toolproof/a.py": b"A = 'a'\n", "toolproof/b.py": b"def b():\n    return 2\n",
               "toolproof/text.py": "X = 'caf\u00e9 \U0001f600'\n".encode()}
    broken = {"toolproof/broken.py": b"def (:\n"}                # no pyc: the page reports the error
    assert bytecode.ensure(tmp_path, {**sources, **broken}) == ""
    assert bytecode.key_of(broken["toolproof/broken.py"], bytecode.pyodide_pin(tmp_path)) not in bytecode.made(tmp_path)
    pin = bytecode.pyodide_pin(tmp_path)
    found = bytecode.made(tmp_path)
    for data in sources.values():
        tag, path = found[bytecode.key_of(data, pin)]
        pyc = path.read_bytes()
        assert tag == "cpython-314"
        assert int.from_bytes(pyc[4:8], "little") == 0b11              # PEP 552: hash-based, checked
        # the hash Python in the page compares with the source beside it
        assert pyc[8:16] == _imp.source_hash(int.from_bytes(pyc[:4], "little"), data)
    before = {p.name: (p.stat().st_mtime_ns, p.read_bytes()) for p in (tmp_path / bytecode.BYTECODE_DIR).iterdir()}
    assert bytecode.ensure(tmp_path, sources) == ""                        # all there: Node not run
    assert {p.name: (p.stat().st_mtime_ns, p.read_bytes()) for p in (tmp_path / bytecode.BYTECODE_DIR).iterdir()} == before
    assert not [p for p in (tmp_path / bytecode.BYTECODE_DIR).iterdir() if p.name.endswith(".part")]
