"""Downloads with the ordinary package clients, each checked against its pinned sha256.

For: fetch_all (`npm pack` for Pyodide and @pyscript/core, `pip download` for the pure-Python
wheels jsonschema needs in Pyodide), verify_file (a download against its pin), and
update_lock (the maintainers' `--update-lock`: fetch afresh and write the pins). A client that
is missing or fails is a VendorError with its most telling line and the fix.
Must not: touch vendor/ (serving/vendor.py installs only verified files), reach any URL itself
(only npm and pip do, from their own configuration), or run a package's install scripts.
"""
from __future__ import annotations

import hashlib
import importlib.util
import json
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from serving.errors import VendorError
from serving.lock import LOCK_NAME, Lock, check_lock

# Given to `pip download` so it picks wheels for Pyodide's Python, whatever runs this script.
PIP_TARGET = ["--platform", "any", "--python-version", "3.14", "--implementation", "py"]
Log = Callable[[str], None]      # where progress lines go (main: stderr)
# Downloads every artefact of a lock into a folder; returns artefact name -> file.
Fetcher = Callable[[Lock, Path], dict[str, Path]]


def sha256_file(path: Path) -> str:
    with path.open("rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


def verify_file(path: Path, art: Lock) -> None:
    """Raise VendorError unless the downloaded file has the pinned sha256."""
    actual = sha256_file(path)
    if actual != art["sha256"]:
        raise VendorError(
            f"sha256 mismatch for {path.name} ({art['name']} {art['version']}): "
            f"expected {art['sha256']}, got {actual}; delete vendor/ and run again, and if it "
            f"persists do not use this file (a maintainer may run `python serve.py --update-lock`)"
        )


def run_client(cmd: list[str], cwd: Path, what: str, fix: str) -> str:
    """Run a package client; return its stdout or raise VendorError saying why it failed."""
    try:
        done = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, check=False)
    except OSError as exc:
        raise VendorError(f"could not run {cmd[0]} ({exc}); {fix}") from None
    if done.returncode != 0:
        raise VendorError(f"{what} failed ({failure_reason(done)}); {fix}")
    return done.stdout


def failure_reason(done: subprocess.CompletedProcess[str]) -> str:
    """The most telling line of a failed client run: npm's JSON summary or pip's ERROR line."""
    try:
        return str(json.loads(done.stdout)["error"]["summary"])
    except (ValueError, KeyError, TypeError):
        pass
    lines = [ln.strip() for ln in done.stderr.splitlines()
             if ln.strip() and "complete log of this run" not in ln]
    errors = [ln for ln in lines if ln.startswith(("ERROR:", "npm error", "npm ERR!"))]
    reason = (errors or lines or [f"exit code {done.returncode}"])[-1]
    return reason if len(reason) <= 200 else reason[:197] + "..."


def npm_command() -> list[str]:
    npm = shutil.which("npm")
    if npm is None:
        raise VendorError(
            "npm not found on PATH; install Node.js/npm (Debian: apt-get install -y npm) "
            "and run again"
        )
    return [npm]


def pip_command() -> list[str]:
    """Prefer this interpreter's pip; fall back to a pip on PATH."""
    if importlib.util.find_spec("pip") is not None:
        return [sys.executable, "-m", "pip"]
    for name in ("pip3", "pip"):
        found = shutil.which(name)
        if found:
            return [found]
    raise VendorError(
        "pip not found (neither `python -m pip` nor pip on PATH); install pip "
        "(Debian: apt-get install -y python3-pip) and run again"
    )


def npm_pack(arts: list[Lock], into: Path) -> dict[str, Path]:
    """`npm pack name@version ...` into a folder; map artefact name -> tarball."""
    specs = [f"{a['name']}@{a['version']}" for a in arts]
    out = run_client(
        npm_command() + ["pack", "--json", "--ignore-scripts", *specs], into,
        "npm pack " + " ".join(specs),
        f"check the versions in {LOCK_NAME} and that the npm registry is reachable, then run again",
    )
    try:
        packed = {entry["name"]: into / entry["filename"] for entry in json.loads(out)}
    except (ValueError, KeyError, TypeError):
        raise VendorError("npm pack printed no JSON list of tarballs; use npm 7 or later") from None
    missing = [a["name"] for a in arts if a["name"] not in packed]
    if missing:
        raise VendorError(f"npm pack did not produce {', '.join(missing)}; run again")
    return {a["name"]: packed[a["name"]] for a in arts}


def canonical_name(name: str) -> str:
    return re.sub(r"[-_.]+", "_", name).lower()


def pip_download(arts: list[Lock], into: Path) -> dict[str, Path]:
    """`pip download` pure-Python wheels for Pyodide's Python; map artefact name -> wheel."""
    specs = [f"{a['name']}=={a['version']}" for a in arts]
    cmd = pip_command() + [
        "download", "--no-deps", "--only-binary=:all:", *PIP_TARGET,
        "--disable-pip-version-check", "--no-input", "-q", "-d", str(into), *specs,
    ]
    run_client(cmd, into, "pip download",
               f"check the versions in {LOCK_NAME} and that PyPI is reachable, then run again")
    found: dict[str, Path] = {}
    for wheel in into.glob("*.whl"):
        name, version = wheel.name.split("-")[:2]
        found[f"{canonical_name(name)}=={version}"] = wheel
    result: dict[str, Path] = {}
    for art in arts:
        key = f"{canonical_name(art['name'])}=={art['version']}"
        if key not in found:
            raise VendorError(f"pip download did not produce a wheel for {art['name']}; run again")
        result[art["name"]] = found[key]
    return result


def fetch_all(lock: Lock, into: Path) -> dict[str, Path]:
    """The real fetcher: npm for npm artefacts, pip for wheels, each in its own folder."""
    files: dict[str, Path] = {}
    for source, fetch in (("npm", npm_pack), ("pip", pip_download)):
        arts = [a for a in lock["artifacts"] if a["source"] == source]
        if arts:
            folder = into / source
            folder.mkdir()
            files.update(fetch(arts, folder))
    return files


def update_lock(lock_path: Path, *, log: Log, fetch: Fetcher = fetch_all) -> Lock:
    """Maintainer action: fetch every artefact afresh and write its file name and sha256."""
    try:
        lock = json.loads(lock_path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise VendorError(
            f"cannot read {lock_path} ({exc}); it must list the artefacts to pin"
        ) from None
    check_lock(lock, lock_path, need_hashes=False)
    with tempfile.TemporaryDirectory(prefix="toolproof-lock-") as tmp:
        files = fetch(lock, Path(tmp))
        for art in lock["artifacts"]:
            art["file"] = files[art["name"]].name
            art["sha256"] = sha256_file(files[art["name"]])
            log(f"  {art['sha256']}  {art['file']}")
    lock_path.write_text(json.dumps(lock, indent=2) + "\n", encoding="utf-8")
    log(f"ToolProof: wrote {lock_path}; review its diff, then delete vendor/ or just run serve.py")
    return lock
