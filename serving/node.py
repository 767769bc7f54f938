"""Running the vendored Pyodide under Node.js, for what serve.py makes from it ahead of the page:
the page's modules precompiled (serving/bytecode.py) and Pyodide's memory after start-up
(serving/snapshot.py).

For: run_pyodide (one `node --input-type=module -e SCRIPT` run, bounded in time, its last line of
output or a NodeFailed naming why in one line), pyodide_pin (what anything made from the runtime
depends on) and add_file (the one way a made file is stored).
Optional by design: with no `node`, or a Node that fails or hangs, the callers serve what they
would serve without it; never a reason for serve.py to stop.
Must not: import toolproof, or overwrite a file.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

# Node boots Pyodide (3-8 s here) and does its work; a hung Node must not hold the page long
NODE_SECONDS = 60
# Emscripten takes the program's name from Node's first argument: the browser's own, so a runtime
# started here sees the sys.executable and environment it sees in the page
PROGRAM = "./this.program"


class NodeFailed(Exception):
    """Node.js is missing, failed or hung: one line saying which."""


class NodeMissing(NodeFailed):
    """No `node` on PATH (the usual case without Node.js, not a fault)."""


def pyodide_pin(root: Path) -> str:
    """The pinned Pyodide (vendor.lock.json): what anything made from it depends on."""
    try:
        lock = json.loads((root / "vendor.lock.json").read_text(encoding="utf-8"))
        return next(f"{a['name']} {a['version']} {a['sha256']}" for a in lock["artifacts"] if a["name"] == "pyodide")
    except (OSError, ValueError, KeyError, TypeError, StopIteration):
        return ""


def run_pyodide(root: Path, script: str, *args: str) -> str:
    """Run `script` (an ES module) under Node with the vendored Pyodide's folder and `args` as
    process.argv.slice(2); return its last line of output, or raise NodeFailed."""
    node = shutil.which("node")
    pyodide = root / "vendor" / "pyodide"
    if not pyodide_pin(root) or not (pyodide / "pyodide.mjs").is_file():
        raise NodeFailed("vendor/pyodide is not fetched yet")
    if node is None:
        raise NodeMissing("Node.js is not on PATH")
    try:
        done = subprocess.run([node, "--input-type=module", "-e", script, PROGRAM, str(pyodide), *args],
                              capture_output=True, text=True, timeout=NODE_SECONDS)
    except (OSError, subprocess.SubprocessError) as exc:
        raise NodeFailed(f"Node.js could not run the vendored Pyodide ({exc.__class__.__name__})") from None
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1][:200]
        raise NodeFailed(f"Node.js exited {done.returncode} ({last})")
    return lines[-1]


def add_file(path: Path, data: bytes) -> None:
    """A new file, written whole (a temporary file, then renamed); an existing one is kept."""
    if path.exists():
        return
    part = path.with_name(f"{path.name}.{os.getpid()}.part")
    part.write_bytes(data)
    part.replace(path)
