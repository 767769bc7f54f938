"""Pyodide's memory right after it started, so the page restores it instead of starting Python.

For: most of the page's wait is Pyodide starting its interpreter (about 2.3 of 3.1 s on a 2-core
machine; the page is ready 1.3-2.5 s sooner with the copy: docs/benchmarks.md). Pyodide can restore a copy of its memory taken right after start-up
(loadPyodide's `_loadSnapshot`; the copy from `_makeSnapshot` and makeMemorySnapshot). When
Node.js is on PATH, this module has the vendored Pyodide under Node take that copy once per pin,
with the page's own program name (serving/node.py), so the restored runtime sees what a fresh one
sees; nothing of ours is in it, no module beyond Pyodide's own start-up and no data. serve.py serves
it as web/pyodide-snapshot.gz and --bundle writes it there; web/runtime.mjs restores it, checks its
header first, and starts Pyodide the usual way when the file is absent or refused.
The file: gzip of one JSON header line (FORMAT, the Pyodide version, the memory's size; padded with
spaces to a multiple of 64 bytes, so the memory after it is aligned as Pyodide reads it) and the
memory. gzip's CRC-32 means a damaged copy is refused as it is unpacked, never restored.
Optional: with no `node`, or a Node that fails, there is no file and the page starts as before;
`note()` says why.
Writes: vendor/snapshot/ only, new files only: nothing there is deleted or overwritten.
Must not: import toolproof.
"""
from __future__ import annotations

import hashlib
import tempfile
import threading
from pathlib import Path

from serving.node import NodeFailed, NodeMissing, add_file, pyodide_pin, run_pyodide
from serving.vendor import SNAPSHOT_SUBDIR, VENDOR_NAME

SNAPSHOT = "web/pyodide-snapshot.gz"          # the URL path the page fetches it from
SNAPSHOT_DIR = f"{VENDOR_NAME}/{SNAPSHOT_SUBDIR}"
FORMAT = "toolproof.pyodide-snapshot"
# Bumped when the way the copy is taken changes: an older file is then never served.
RECIPE = "2"

# Run by `node --input-type=module -e`: start the vendored Pyodide ready to be copied, copy its
# memory, write the header and the memory gzipped to the given path; print the memory's size.
NODE_SCRIPT = r"""
import { pathToFileURL } from "node:url";
import { writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
const [pyodideDir, out] = process.argv.slice(2);
const { loadPyodide, version } = await import(pathToFileURL(pyodideDir + "/pyodide.mjs").href);
const py = await loadPyodide({ indexURL: pyodideDir + "/", _makeSnapshot: true });
const memory = py.makeMemorySnapshot();
let header = JSON.stringify({ format: "%FORMAT%", pyodide: version, bytes: memory.length });
header = header.padEnd(Math.ceil((header.length + 1) / 64) * 64 - 1) + "\n";
writeFileSync(out, gzipSync(Buffer.concat([Buffer.from(header), memory]), { level: 6 }));
console.log(memory.length);
""".replace("%FORMAT%", FORMAT)

_lock = threading.Lock()
_notes: dict[str, str] = {}          # root -> why there is no snapshot ("" when there is one)
_tried: set = set()                  # (root, key) Node was run for


def key_of(root: Path) -> str:
    """The snapshot's name: the pinned Pyodide and this module's recipe ("" before a fetch)."""
    pin = pyodide_pin(root)
    return hashlib.sha256(f"{pin}\0{RECIPE}".encode()).hexdigest() if pin else ""


def snapshot_file(root: Path) -> Path | None:
    """The snapshot made before for this pin, if any (never a link, nor below one)."""
    key = key_of(root)
    path = root / SNAPSHOT_DIR / f"{key}.gz"
    if not key or (root / SNAPSHOT_DIR).is_symlink() or path.is_symlink() or not path.is_file():
        return None
    return path


def note(root: Path) -> str:
    """Why the page starts Pyodide the slow way ("" when a snapshot was made or nothing tried)."""
    return _notes.get(str(root), "")


def ensure(root: Path) -> Path | None:
    """The snapshot for this pin, made now by Node.js if it can be (once per pin and server)."""
    with _lock:
        found = snapshot_file(root)
        if found is not None:
            _notes[str(root)] = ""
            return found
        attempt = (str(root), key_of(root))
        if attempt not in _tried:
            _tried.add(attempt)
            _notes[str(root)] = _make(root)
        return snapshot_file(root)


def _make(root: Path) -> str:
    store = root / SNAPSHOT_DIR
    if store.is_symlink():
        return f"no Pyodide snapshot: {SNAPSHOT_DIR} is a symbolic link, which serve.py does not write into"
    with tempfile.TemporaryDirectory(prefix="toolproof-snapshot-") as tmp:
        out = Path(tmp) / "snapshot.gz"
        try:
            size = run_pyodide(root, NODE_SCRIPT, str(out))
        except NodeFailed as exc:
            then = (", so the page starts Pyodide itself (about 2 s more on a 2-core machine)"
                    if isinstance(exc, NodeMissing) else "")
            return f"no Pyodide snapshot: {exc}{then}"
        if not size.isdigit() or not out.is_file():
            return f"no Pyodide snapshot: Node.js wrote no snapshot ({size[:200]})"
        store.mkdir(parents=True, exist_ok=True)
        add_file(store / f"{key_of(root)}.gz", out.read_bytes())
    return ""
