"""vendor/: fetch the pinned runtime into it once, and prove on every start that it still holds
exactly what the pinned packages contained.

For: ensure_vendor (fetch when there is no manifest for this lock, then check every file),
read_manifest/write_manifest (vendor/.manifest.json: the sha256 of every file installed,
written last so an interrupted fetch is redone) and verify_vendor (a file that changed,
appeared, went missing or became a link is a VendorError naming it, with the repair).
Must not: install a download that failed its pin, delete anything but the lock's own dest
folders below vendor/, or let a start go on with a vendor/ that differs from its manifest.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
from pathlib import Path

from serving.errors import VendorError
from serving.fetch import Fetcher, Log, fetch_all, sha256_file, verify_file
from serving.lock import Lock, lock_digest, plain_relative
from serving.unpack import extract_tar

VENDOR_NAME = "vendor"
MANIFEST_NAME = ".manifest.json"
SHA256 = re.compile(r"[0-9a-f]{64}")
REPAIR = "to repair, delete vendor/ and run `python serve.py --fetch-only` (it fetches the pinned files again)"


def install_artifacts(vendor: Path, lock: Lock, files: dict[str, Path]) -> dict[str, str]:
    """Replace every dest folder named in the lock with the verified files; return the sha256
    of each file installed, by its path below vendor/ (the manifest)."""
    for dest in {a["dest"] for a in lock["artifacts"]}:
        shutil.rmtree(vendor / dest, ignore_errors=True)
    hashes: dict[str, str] = {}
    for art in lock["artifacts"]:
        dest = vendor / art["dest"]
        dest.mkdir(parents=True, exist_ok=True)
        if art["source"] == "npm":
            unpacked = extract_tar(files[art["name"]], art["unpack"], dest)
            hashes.update({f"{art['dest']}/{rel}": sha for rel, sha in unpacked.items()})
        else:
            shutil.copy2(files[art["name"]], dest / art["file"])
            hashes[f"{art['dest']}/{art['file']}"] = art["sha256"]
    return hashes


# Fetching verifies the downloads against the lock; the manifest carries that check forward to
# every unpacked file, so each start (serve, --fetch-only, --bundle) proves that vendor/ still
# holds exactly what the pinned packages contained. It lives in vendor/ itself: it catches a
# corrupted, edited, added or deleted file, not someone who rewrites the manifest as well
# (deleting vendor/ and fetching again rebuilds both from the pinned packages).


def read_manifest(vendor: Path) -> Lock | None:
    """vendor/'s manifest, or None when there is none (first run, interrupted fetch)."""
    path = vendor / MANIFEST_NAME
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        raise VendorError(f"vendor/{MANIFEST_NAME} is damaged ({exc}); {REPAIR}") from None
    files = manifest.get("files") if isinstance(manifest, dict) else None
    if not isinstance(files, dict) or not isinstance(manifest.get("lock"), str) or not all(
            isinstance(sha, str) and SHA256.fullmatch(sha) and plain_relative(rel)
            for rel, sha in files.items()):
        raise VendorError(f"vendor/{MANIFEST_NAME} is damaged (not a manifest of relative "
                          f"paths and sha256 digests); {REPAIR}")
    return manifest


def write_manifest(vendor: Path, lock: Lock, hashes: dict[str, str]) -> None:
    """Written last and atomically: a manifest means a complete fetch of this lock."""
    manifest = {"_comment": "Written by serve.py when it fetched vendor/; checked on every start.",
                "lock": lock_digest(lock), "files": dict(sorted(hashes.items()))}
    partial_file = vendor / (MANIFEST_NAME + ".tmp")
    partial_file.write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    os.replace(partial_file, vendor / MANIFEST_NAME)


# What serve.py makes from the pinned files, not fetched: vendor/bytecode/ (the page's modules
# precompiled by serving/bytecode.py, each named by the hash of its source and checked against it
# in the page) and vendor/snapshot/ (Pyodide's memory after start-up, serving/snapshot.py, named
# by the pin). Neither is served as a file, and neither is in the manifest.
BYTECODE_SUBDIR = "bytecode"
SNAPSHOT_SUBDIR = "snapshot"
MADE_SUBDIRS = (BYTECODE_SUBDIR, SNAPSHOT_SUBDIR)


def files_on_disk(vendor: Path) -> set[str]:
    """Every regular file below vendor/ (paths relative to it) but the folders serve.py makes
    (MADE_SUBDIRS); refuse links and special files."""
    found: set[str] = set()
    for folder, dirs, names in os.walk(vendor):
        for made in MADE_SUBDIRS:
            if Path(folder) == vendor and made in dirs and not (vendor / made).is_symlink():
                dirs.remove(made)
        for name in sorted(dirs) + sorted(names):
            full = Path(folder, name)
            rel = full.relative_to(vendor).as_posix()
            if full.is_symlink():
                raise VendorError(f"vendor/{rel} is a symbolic link, which the pinned packages "
                                  f"never contain; {REPAIR}")
            if name in names and not full.is_file():
                raise VendorError(f"vendor/{rel} is not a regular file; {REPAIR}")
            if name in names:
                found.add(rel)
    return found


def verify_vendor(vendor: Path, expected: dict[str, str]) -> None:
    """Raise VendorError naming the first file that is extra, missing or changed."""
    on_disk = files_on_disk(vendor) - {MANIFEST_NAME}
    for problem, paths in (("is not part of the pinned packages", on_disk - expected.keys()),
                           ("is missing", expected.keys() - on_disk)):
        if paths:
            first, *others = sorted(paths)
            more = f" (and {len(others)} more)" if others else ""
            raise VendorError(f"vendor/{first} {problem}{more}; refusing to serve; {REPAIR}")
    for rel, want in sorted(expected.items()):
        got = sha256_file(vendor / rel)
        if got != want:
            raise VendorError(f"vendor/{rel} has changed since it was fetched (sha256 {got}, "
                              f"expected {want}); refusing to serve it; {REPAIR}")


def ensure_vendor(root: Path, lock: Lock, *, log: Log, fetch: Fetcher = fetch_all) -> dict[str, str]:
    """Make root/vendor/ match the lock and prove it; return the manifest (path -> sha256).

    Fetches when there is no manifest for this lock (first run, edited pins, interrupted
    fetch); then checks every file against the manifest, on every start, and raises VendorError
    on any difference instead of serving it.
    """
    vendor = root / VENDOR_NAME
    manifest = read_manifest(vendor)
    if manifest is None or manifest["lock"] != lock_digest(lock):
        fetch_vendor(vendor, lock, log=log, fetch=fetch)
        manifest = read_manifest(vendor)
        assert manifest is not None  # fetch_vendor wrote it
    verify_vendor(vendor, manifest["files"])
    return manifest["files"]


def fetch_vendor(vendor: Path, lock: Lock, *, log: Log, fetch: Fetcher) -> None:
    """Fetch and install the pinned artefacts. Nothing in vendor/ changes until every download
    matched its sha256; the manifest is written last, so an interrupted run is redone."""
    log(f"ToolProof: fetching the pinned browser runtime into {vendor} ...")
    vendor.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="toolproof-fetch-") as tmp:
        files = fetch(lock, Path(tmp))
        for art in lock["artifacts"]:
            verify_file(files[art["name"]], art)
        for stale in (MANIFEST_NAME, MANIFEST_NAME + ".tmp", ".complete"):  # .complete: older marker
            (vendor / stale).unlink(missing_ok=True)
        hashes = install_artifacts(vendor, lock, files)
    write_manifest(vendor, lock, hashes)
    log(f"ToolProof: vendor/ ready ({len(lock['artifacts'])} artefacts verified, "
        f"{len(hashes)} files recorded in vendor/{MANIFEST_NAME})")
