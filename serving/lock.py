"""vendor.lock.json: read it and check every field the fetch, the manifest and the bundle rely on.

For: load_lock (the committed pins, with their sha256), check_lock (also the half-filled lock
`--update-lock` starts from) and lock_digest (what vendor/'s manifest records, so an edited pin
fetches again). The lock pins each artefact (npm tarball or wheel) by version and sha256, names
the folder below vendor/ it lands in, and lists the vendor files the page loads ("page_loads").
Must not: fetch, write, or touch vendor/; a bad lock is a VendorError naming the file, the
entry and the fix.
"""
from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

from serving.errors import VendorError

LOCK_NAME = "vendor.lock.json"
Lock = dict[str, Any]           # a parsed lock (or one artefact of it, or a manifest)


def load_lock(path: Path) -> Lock:
    """Read and check the lock file; raise VendorError naming the file and the problem."""
    try:
        lock = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise VendorError(f"{path} not found; restore it from git") from None
    except (OSError, ValueError) as exc:
        raise VendorError(f"{path} is not valid JSON ({exc}); restore it from git") from None
    check_lock(lock, path, need_hashes=True)
    return lock


def check_lock(lock: Any, where: Path | str, *, need_hashes: bool) -> None:
    """Raise VendorError if the lock lacks a field the fetch relies on."""
    arts = lock.get("artifacts") if isinstance(lock, dict) else None
    if not isinstance(arts, list) or not arts:
        raise VendorError(f"{where}: expected an object with a non-empty list 'artifacts'")
    for i, art in enumerate(arts):
        check_artifact(art, f"{where}: artifacts[{i}]", need_hashes=need_hashes)
    if "page_loads" in lock:
        check_page_loads(lock["page_loads"], {a["dest"] for a in arts}, where)


def check_page_loads(loads: Any, dests: set[str], where: Path | str) -> None:
    """page_loads: {"boot": [...], "on_demand": [...]}, paths below vendor/ in a lock's dest."""
    if not isinstance(loads, dict):
        raise VendorError(f"{where}: 'page_loads' must be an object with lists 'boot' and 'on_demand'")
    for group in ("boot", "on_demand"):
        paths = loads.get(group)
        if not isinstance(paths, list):
            raise VendorError(f"{where}: page_loads.{group} must be a list of paths below vendor/")
        for i, rel in enumerate(paths):
            if not (isinstance(rel, str) and plain_relative(rel) and rel.split("/")[0] in dests):
                raise VendorError(f"{where}: page_loads.{group}[{i}] must be a path below one of "
                                  f"vendor/'s folders ({', '.join(sorted(dests))}), not {rel!r}")


def check_artifact(art: Any, where: str, *, need_hashes: bool) -> None:
    """Check one lock entry: names, source, destination folder, and (if needed) its pins."""
    if not isinstance(art, dict):
        raise VendorError(f"{where}: expected an object")
    required = ["name", "version", "source", "dest"] + (["file", "sha256"] if need_hashes else [])
    for key in required:
        if not isinstance(art.get(key), str) or not art[key]:
            raise VendorError(f"{where}: '{key}' must be a non-empty string")
    if art["source"] not in ("npm", "pip"):
        raise VendorError(f"{where}: 'source' must be \"npm\" or \"pip\", not {art['source']!r}")
    if art["source"] == "npm" and not isinstance(art.get("unpack"), str):
        raise VendorError(f"{where}: an npm artefact needs 'unpack' (a folder in the tarball)")
    # dest is a folder under vendor/ that a refetch deletes: keep it a plain name.
    if not re.fullmatch(r"[a-z0-9][a-z0-9_-]*", art["dest"]):
        raise VendorError(f"{where}: 'dest' must be a plain folder name, not {art['dest']!r}")
    if need_hashes and not re.fullmatch(r"[0-9a-f]{64}", art["sha256"]):
        raise VendorError(f"{where}: 'sha256' must be 64 lowercase hex digits")


def lock_digest(lock: Lock) -> str:
    """A hash of the pinned artefacts (not the formatting, not the page's file list): recorded
    in vendor/'s manifest, so an edited pin makes the next run fetch again."""
    canonical = json.dumps(lock["artifacts"], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def plain_relative(path: str) -> bool:
    """A forward-slash path below a folder: no '..', '.', empty, absolute or drive parts."""
    parts = path.split("/")
    return bool(path) and "\\" not in path and ":" not in path and all(
        part not in ("", ".", "..") for part in parts)
