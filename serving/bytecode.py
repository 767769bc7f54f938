"""The page's Python modules precompiled, so the worker unmarshals them instead of compiling.

For: the page compiles about 12,000 lines of our source on every visit before it is ready (Pyodide
ships no compiler but its own Python, 3.14; this machine's CPython cannot write 3.14 bytecode).
When Node.js is on PATH, this module runs the vendored Pyodide under Node once per source
version and keeps each module's `.pyc`; the archive (serving/archive.py) then carries them beside
the sources (docs/benchmarks.md: about 0.2-0.5 s less start-up on a 2-core machine).
Optional: with no `node`, or a Node that fails, the archive carries source only and the page
compiles it, exactly as before; `note()` says which, and why.
Never stale: each .pyc is stored under the SHA-256 of its source and of the pinned Pyodide, and it
is a checked-hash pyc (PEP 552): Python in the page hashes the source beside it and recompiles if
they differ, so even a repacked archive can only be slower, never wrong.
Writes: vendor/bytecode/ only (vendor/ is not committed), new files only: nothing there is deleted
or overwritten.
Must not: import toolproof.
"""
from __future__ import annotations

import hashlib
import shutil
import tempfile
import threading
from pathlib import Path

from serving.node import NodeFailed, NodeMissing, add_file, pyodide_pin, run_pyodide
from serving.vendor import BYTECODE_SUBDIR, VENDOR_NAME

BYTECODE_DIR = f"{VENDOR_NAME}/{BYTECODE_SUBDIR}"

# Run by `node --input-type=module -e`: the vendored Pyodide compiles every .py below the work
# folder into checked-hash .pyc files beside them and prints Python's cache tag. A module that
# does not compile (a syntax error) gets none: the page then reports that error as before.
NODE_SCRIPT = r"""
import { pathToFileURL } from "node:url";
const [pyodideDir, work] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(pyodideDir + "/pyodide.mjs").href);
const py = await loadPyodide({ indexURL: pyodideDir + "/" });
py.FS.mkdirTree("/work");
py.FS.mount(py.FS.filesystems.NODEFS, { root: work }, "/work");
console.log(py.runPython(`
import compileall, py_compile, sys
compileall.compile_dir("/work", quiet=2, legacy=False,
                       invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH)
sys.implementation.cache_tag
`));
"""

WITHOUT = ", so the page compiles its modules at start-up (about 0.2-0.5 s more)"

_lock = threading.Lock()
_notes: dict[str, str] = {}          # root -> why the last try made no bytecode ("" when it did)
_tried: set = set()                  # (root, node, the missing sources' keys) Node was run for


def key_of(source: bytes, pin: str) -> str:
    return hashlib.sha256(pin.encode() + b"\0" + source).hexdigest()


def made(root: Path) -> dict[str, tuple[str, Path]]:
    """Every .pyc made before: key -> (cache tag, file); one listing of the folder."""
    found = {}
    if (root / BYTECODE_DIR).is_symlink():
        return found
    try:
        entries = list((root / BYTECODE_DIR).iterdir())
    except OSError:
        return found
    for path in entries:
        tag, _, rest = path.name.rpartition("-")
        if tag.startswith("cpython-") and rest.endswith(".pyc") and path.is_file() and not path.is_symlink():
            found[rest[:-4]] = (tag, path)
    return found


def note(root: Path) -> str:
    """Why the archive carries source only ("" when bytecode was made or nothing was tried)."""
    return _notes.get(str(root), "")


def ensure(root: Path, sources: dict[str, bytes]) -> str:
    """Make the bytecode of every source (path -> bytes) that has none yet; "" when all have it,
    else one line saying why not. Safe to call from several threads: one Node run at a time."""
    with _lock:
        pin = pyodide_pin(root)
        have = made(root)
        missing = {rel: data for rel, data in sources.items() if key_of(data, pin) not in have}
        if not missing:
            _notes[str(root)] = ""
            return ""
        attempt = (str(root), shutil.which("node"), frozenset(key_of(d, pin) for d in missing.values()))
        if attempt not in _tried:                   # the same sources and Node: not run twice
            _tried.add(attempt)
            _notes[str(root)] = _compile(root, missing, pin)
        return _notes[str(root)]


def _compile(root: Path, missing: dict[str, bytes], pin: str) -> str:
    with tempfile.TemporaryDirectory(prefix="toolproof-bytecode-") as tmp:
        work = Path(tmp)
        names = {}
        for number, (rel, data) in enumerate(sorted(missing.items())):
            name = f"m{number}.py"               # flat: no package __init__ runs, nothing collides
            (work / name).write_bytes(data)
            names[name] = data
        try:
            tag = run_pyodide(root, NODE_SCRIPT, tmp)
        except NodeFailed as exc:
            return f"no precompiled Python: {exc}" + (WITHOUT if isinstance(exc, NodeMissing) else "")
        if not tag.startswith("cpython-"):
            return f"no precompiled Python: Node.js printed no cache tag ({tag[:200]})"
        store = root / BYTECODE_DIR
        store.mkdir(parents=True, exist_ok=True)
        for name, data in names.items():
            made = work / "__pycache__" / f"{name[:-3]}.{tag}.pyc"
            if made.is_file():
                add_file(store / f"{tag}-{key_of(data, pin)}.pyc", made.read_bytes())
    return ""
