"""Pyodide's snapshot, both halves: serving/snapshot.py has the vendored Pyodide under Node.js copy
its memory once per pin (never overwriting, named by the pin, refused into a linked store, said
why when it cannot), serve.py serves it (404 without one, revalidated by ETag) and --bundle
writes it; web/runtime.mjs restores only a file whose gzip, header, Pyodide version and size all
hold, gives every start its own random state, and otherwise starts Pyodide in full, saying why."""
from __future__ import annotations

import gzip
import json
import shutil
import subprocess
import threading
import urllib.error
import urllib.request
import zlib
from pathlib import Path

import pytest

from fakesite import fake_repo
from serving import node as serving_node
from serving import snapshot
from serving.bundle import write_bundle
from serving.server import make_server, server_url
from serving.vendor import verify_vendor

ROOT = Path(__file__).resolve().parents[2]
REAL_PYODIDE = ROOT / "vendor" / "pyodide"
NEEDS_NODE = pytest.mark.skipif(shutil.which("node") is None or not (REAL_PYODIDE / "pyodide.mjs").is_file(),
                                reason="needs Node.js and the fetched vendor/pyodide")


@pytest.fixture(autouse=True)
def fresh_tries(monkeypatch) -> None:
    """Each test starts as a new serve.py would: no Node run remembered."""
    monkeypatch.setattr(snapshot, "_tried", set())
    monkeypatch.setattr(snapshot, "_notes", {})


def fake_node(tmp_path: Path, monkeypatch, body: str) -> Path:
    """A `node` on PATH that runs `body` (sh); its 6th argument is where a snapshot goes."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    (bin_dir / "node").write_text("#!/bin/sh\n" + body)
    (bin_dir / "node").chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}:/usr/bin:/bin")
    return bin_dir / "node"


def test_without_node_there_is_no_snapshot_and_the_reason_is_given(tmp_path: Path, monkeypatch) -> None:
    fake_repo(tmp_path)
    monkeypatch.setenv("PATH", str(tmp_path / "nowhere"))
    assert snapshot.ensure(tmp_path) is None
    assert snapshot.note(tmp_path).startswith("no Pyodide snapshot: Node.js is not on PATH, so the page "
                                              "starts Pyodide itself")
    assert not (tmp_path / snapshot.SNAPSHOT_DIR).exists()


def test_a_node_that_fails_or_hangs_is_named_and_run_once_per_pin(tmp_path: Path, monkeypatch) -> None:
    fake_repo(tmp_path)
    runs = tmp_path / "runs.txt"
    fake_node(tmp_path, monkeypatch, f"echo run >> {runs}\necho 'Error: no loadPyodide here' >&2\nexit 3\n")
    assert snapshot.ensure(tmp_path) is None
    assert snapshot.note(tmp_path) == "no Pyodide snapshot: Node.js exited 3 (Error: no loadPyodide here)"
    assert snapshot.ensure(tmp_path) is None
    assert runs.read_text().count("run") == 1
    # a Node that prints a size but wrote nothing
    monkeypatch.setattr(snapshot, "_tried", set())
    fake_node(tmp_path, monkeypatch, "echo 123\n")
    assert snapshot.ensure(tmp_path) is None
    assert snapshot.note(tmp_path) == "no Pyodide snapshot: Node.js wrote no snapshot (123)"
    # a Node that hangs is stopped
    monkeypatch.setattr(snapshot, "_tried", set())
    monkeypatch.setattr(serving_node, "NODE_SECONDS", 1)
    fake_node(tmp_path, monkeypatch, "exec sleep 30\n")
    assert snapshot.ensure(tmp_path) is None
    assert snapshot.note(tmp_path) == ("no Pyodide snapshot: Node.js could not run the vendored Pyodide "
                                       "(TimeoutExpired)")


def test_a_made_snapshot_is_kept_never_overwritten_and_named_by_the_pin(tmp_path: Path, monkeypatch) -> None:
    _, vendor = fake_repo(tmp_path)
    fake_node(tmp_path, monkeypatch, 'printf FIRST > "$6"\necho 5\n')
    made = snapshot.ensure(tmp_path)
    assert made is not None and made.read_bytes() == b"FIRST" and snapshot.note(tmp_path) == ""
    assert made.name == f"{snapshot.key_of(tmp_path)}.gz"
    fake_node(tmp_path, monkeypatch, 'printf SECOND > "$6"\necho 6\n')
    monkeypatch.setattr(snapshot, "_tried", set())
    assert snapshot.ensure(tmp_path).read_bytes() == b"FIRST"       # there already: Node not run
    snapshot.add_file(made, b"SECOND")
    assert made.read_bytes() == b"FIRST"                            # never overwritten
    verify_vendor(tmp_path / "vendor", vendor)                      # the store is not a vendor file
    # another pin (or recipe) is another file: the old one is left, never served
    lock = json.loads((tmp_path / "vendor.lock.json").read_text())
    lock["artifacts"][0]["sha256"] = "1" * 64
    (tmp_path / "vendor.lock.json").write_text(json.dumps(lock))
    assert snapshot.key_of(tmp_path) != made.name[:-3]
    assert snapshot.ensure(tmp_path).read_bytes() == b"SECOND"
    assert made.read_bytes() == b"FIRST"


def test_a_linked_store_is_neither_written_nor_read(tmp_path: Path, monkeypatch) -> None:
    fake_repo(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / f"{snapshot.key_of(tmp_path)}.gz").write_bytes(b"PLANTED")
    (tmp_path / snapshot.SNAPSHOT_DIR).symlink_to(elsewhere, target_is_directory=True)
    fake_node(tmp_path, monkeypatch, 'printf MADE > "$6"\necho 4\n')
    assert snapshot.snapshot_file(tmp_path) is None
    assert snapshot.ensure(tmp_path) is None
    assert "symbolic link" in snapshot.note(tmp_path)
    assert sorted(p.name for p in elsewhere.iterdir()) == [f"{snapshot.key_of(tmp_path)}.gz"]


def get(url: str, etag: str | None = None) -> tuple[int, bytes, dict]:
    request = urllib.request.Request(url, headers={"If-None-Match": etag} if etag else {})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, answer.read(), dict(answer.headers)
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read(), dict(exc.headers)


def test_the_server_sends_the_snapshot_with_an_etag_or_404_without_one(tmp_path: Path, monkeypatch) -> None:
    _, vendor = fake_repo(tmp_path)
    monkeypatch.setenv("PATH", str(tmp_path / "nowhere"))
    server = make_server(tmp_path, "127.0.0.1", 0, vendor_files=vendor)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = server_url(server) + snapshot.SNAPSHOT
        assert get(url)[0] == 404
        monkeypatch.setattr(snapshot, "_tried", set())
        fake_node(tmp_path, monkeypatch, 'printf GZ > "$6"\necho 2\n')
        status, body, headers = get(url)
        assert (status, body, headers["Content-Type"]) == (200, b"GZ", "application/gzip")
        assert headers["Cross-Origin-Embedder-Policy"] == "credentialless"
        assert get(url, headers["ETag"])[0] == 304
        assert get(server_url(server) + "vendor/snapshot/" + snapshot.snapshot_file(tmp_path).name)[0] == 404
    finally:
        server.shutdown()
        server.server_close()


def test_the_bundle_carries_the_snapshot_only_when_one_was_made(tmp_path: Path, monkeypatch) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    lock, vendor = fake_repo(repo)
    monkeypatch.setenv("PATH", str(tmp_path / "nowhere"))
    without = write_bundle(repo, tmp_path / "site1", lock, vendor)
    assert snapshot.SNAPSHOT not in {e["path"] for e in without["files"]}
    monkeypatch.setattr(snapshot, "_tried", set())
    fake_node(tmp_path, monkeypatch, 'printf GZ > "$6"\necho 2\n')
    with_one = write_bundle(repo, tmp_path / "site2", lock, vendor)
    assert snapshot.SNAPSHOT in {e["path"] for e in with_one["files"]}
    assert (tmp_path / "site2" / snapshot.SNAPSHOT).read_bytes() == b"GZ"


# --- the real thing: Node makes a snapshot, web/runtime.mjs restores it -----------------------

# Imports web/runtime.mjs (from a copy whose ../vendor is the real one) with `fetch` answering the
# snapshot request from a file (or 404), starts Pyodide through it and prints what it got.
HARNESS = r"""
import { pathToFileURL } from "node:url";
import { readFileSync } from "node:fs";
const [web, file, how] = process.argv.slice(1);
globalThis.fetch = async () => {
  if (how === "silent") return new Promise(() => {});                  // no answer, ever
  if (!file) return new Response("", { status: 404 });
  const data = readFileSync(file);
  if (how !== "stall") return new Response(data);
  let sent = false;                                                      // 4 kB, then nothing
  return new Response(new ReadableStream({ pull(c) {
    if (sent) return new Promise(() => {});
    sent = true;
    c.enqueue(data.subarray(0, 4096));
  } }));
};
const { loadPyodide } = await import(pathToFileURL(web + "/runtime.mjs").href);
const py = await loadPyodide({});
console.log(JSON.stringify({ runtime: globalThis.toolproofRuntime,
  random: py.runPython("import random; random.random()"), sum: py.runPython("1 + 1") }));
"""


@pytest.fixture(scope="module")
def real_snapshot(tmp_path_factory) -> tuple[Path, Path]:
    """(a folder with web/runtime.mjs beside the real vendor/, a snapshot Node made from it)."""
    repo = tmp_path_factory.mktemp("repo")
    (repo / "vendor").mkdir()
    (repo / "vendor" / "pyodide").symlink_to(REAL_PYODIDE, target_is_directory=True)
    (repo / "web").mkdir()
    shutil.copy(ROOT / "web" / "runtime.mjs", repo / "web" / "runtime.mjs")
    shutil.copy(ROOT / "vendor.lock.json", repo / "vendor.lock.json")
    snapshot._tried.clear()
    made = snapshot.ensure(repo)
    assert made is not None, snapshot.note(repo)
    return repo / "web", made


def start(web: Path, file: Path | None, how: str = "") -> subprocess.Popen:
    return subprocess.Popen(["node", "--input-type=module", "-e", HARNESS, str(web), str(file or ""), how],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def outcome(run: subprocess.Popen) -> dict:
    out, err = run.communicate(timeout=180)
    assert run.returncode == 0, err[-2000:]
    return json.loads(out.strip().splitlines()[-1])


def restore(web: Path, file: Path | None, how: str = "") -> dict:
    return outcome(start(web, file, how))


@NEEDS_NODE
def test_node_makes_a_snapshot_the_runtime_restores_each_time_with_fresh_random_state(real_snapshot) -> None:
    web, made = real_snapshot
    data = gzip.decompress(made.read_bytes())
    header, _, memory = data.partition(b"\n")
    assert (len(header) + 1) % 64 == 0                       # the memory starts aligned
    fields = json.loads(header)
    version = json.loads((REAL_PYODIDE / "package.json").read_text())["version"]
    assert fields == {"format": snapshot.FORMAT, "pyodide": version, "bytes": len(memory)}
    assert b"toolproof" not in memory.lower()                # nothing of ours is in it
    first, second = restore(web, made), restore(web, made)
    assert first["runtime"] == second["runtime"] == "restored from its snapshot"
    assert first["sum"] == second["sum"] == 2
    assert first["random"] != second["random"]               # not the state frozen in the copy


@NEEDS_NODE
@pytest.mark.parametrize("spoil, why", [
    ("none", "none is served here"),
    ("flip", "it was refused"),                      # gzip's CRC-32 (or its inflater) catches it
    ("version", "it was made by Pyodide 0.0.1, this is"),
    ("short", "it holds"),
    ("plain", "it was refused"),                     # not gzip at all
    ("bomb", "it unpacks to more than 256 MB"),      # 300 MB of zeros in 0.3 MB
    ("nan", "it has no snapshot header"),            # NaN and a control character: not JSON
])
def test_a_missing_or_spoiled_snapshot_is_refused_and_pyodide_starts_in_full(real_snapshot, tmp_path: Path,
                                                                             spoil: str, why: str) -> None:
    web, made = real_snapshot
    data = gzip.decompress(made.read_bytes())
    header, _, memory = data.partition(b"\n")
    file = tmp_path / "spoiled.gz"
    if spoil == "flip":
        raw = bytearray(made.read_bytes())
        raw[len(raw) // 2] ^= 0xFF
        file.write_bytes(bytes(raw))
    elif spoil == "version":
        fields = json.loads(header) | {"pyodide": "0.0.1"}
        file.write_bytes(gzip.compress(json.dumps(fields).encode() + b"\n" + memory, 1))
    elif spoil == "short":
        file.write_bytes(gzip.compress(header + b"\n" + memory[:-4096], 1))
    elif spoil == "plain":
        file.write_bytes(b"<html>not found</html>")
    elif spoil == "nan":
        bad = header.replace(b'"bytes":', b'"\x07bytes": NaN, "b":')
        file.write_bytes(gzip.compress(bad + b"\n" + memory, 1))
    elif spoil == "bomb":
        packer, zeros = zlib.compressobj(9, zlib.DEFLATED, 31), bytes(2 ** 20)
        file.write_bytes(packer.compress(header + b"\n") + b"".join(packer.compress(zeros) for _ in range(300))
                         + packer.flush())
    got = restore(web, None if spoil == "none" else file)
    assert got["runtime"].startswith("started in full (no snapshot: ")
    assert why in got["runtime"], got["runtime"]
    assert got["sum"] == 2


def test_the_bundle_and_the_server_agree_on_where_the_snapshot_lives() -> None:
    runtime = (ROOT / "web" / "runtime.mjs").read_text()
    assert f'"./{snapshot.SNAPSHOT.split("/")[-1]}"' in runtime and snapshot.SNAPSHOT.startswith("web/")
    assert f'"{snapshot.FORMAT}"' in runtime
    assert json.loads((ROOT / "web" / "pyscript.json").read_text())["interpreter"] == "./runtime.mjs"


@NEEDS_NODE
def test_a_server_that_goes_silent_is_not_waited_for_past_its_patience(real_snapshot) -> None:
    """No answer at all, or an answer whose body stops: after 30 s without a byte, Pyodide starts
    in full (the two run side by side: each waits out the real patience). No time is asserted:
    the reason given says which wait ran out."""
    web, made = real_snapshot
    silent, stalled = start(web, made, "silent"), start(web, made, "stall")
    for run, why in ((silent, "it could not be fetched (the server sent no answer for 30 s)"),
                     (stalled, "it was refused: it stalled for 30 s")):
        got = outcome(run)
        assert got["runtime"] == f"started in full (no snapshot: {why})"
        assert got["sum"] == 2
