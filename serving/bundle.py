"""`--bundle DIR`: the site as plain files for any static host, from any sub-path.

For: write_bundle copies what serving/site.py's allow-list lets through, with only the vendor
files the page requests (the lock's "page_loads", recorded in Chromium and held to the page by
tests/serving/test_bundle.py), each re-checked against vendor/'s verified manifest as it is
read, plus bundle.json (every file's sha256 and size) and .nojekyll. It is built in a staging
folder beside DIR and moved in at the end, so a failure leaves no half-written site.
Must not: replace a non-empty folder without --force, and never (even with --force) the
repository, its sources, vendor/ or the home folder; take a symbolic link or a file outside
the site; import the toolproof package (its version is read from toolproof/_version.py as text).
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path

from serving.errors import VendorError
from serving.lock import LOCK_NAME, Lock
from serving.site import (check_origin, page_modules, page_with_connect, request_path, site_allows,
                          site_file)
from serving.vendor import REPAIR, VENDOR_NAME

BUNDLE_MANIFEST = "bundle.json"
# GitHub Pages' branch publishing runs Jekyll, which drops files starting with "_" (our
# toolproof/__init__.py); this empty file turns that off. Other hosts ignore it.
NO_JEKYLL = ".nojekyll"


def bundle_vendor_files(lock: Lock) -> list[str]:
    """The vendor files the page requests, as paths below vendor/ (from the lock)."""
    loads = lock.get("page_loads")
    if not isinstance(loads, dict):
        raise VendorError(f"{LOCK_NAME} has no 'page_loads' (the vendor files the page requests); "
                          "restore it from git")
    return sorted({rel for group in ("boot", "on_demand") for rel in loads[group]})


def site_sources(root: Path, lock: Lock, vendor_files: dict[str, str]) -> dict[str, Path]:
    """Every file of the bundle but bundle.json, by its path in the bundle."""
    candidates = ["index.html", LOCK_NAME, *sorted(page_modules(root))]
    for folder in ("web", "data"):
        candidates += sorted(p.relative_to(root).as_posix() for p in (root / folder).rglob("*")
                             if not p.is_dir())
    wanted = [f"{VENDOR_NAME}/{rel}" for rel in bundle_vendor_files(lock)]
    for rel in wanted:
        if rel.split("/", 1)[1] not in vendor_files:
            raise VendorError(f"{LOCK_NAME}: page_loads names {rel}, which the pinned packages "
                              "do not contain; re-record the list (docs/publishing.md)")
    sources: dict[str, Path] = {}
    for rel in candidates + wanted:
        if request_path("/" + rel) != rel or not site_allows(root, rel, vendor_files):
            continue                        # not part of the site (web/*.py, dotfiles, ...)
        found = site_file(root, rel, vendor_files)
        if found is None:
            raise VendorError(f"{rel} is missing or a symbolic link; the bundle takes regular "
                              "files inside the repository only (web/pyscript.json lists it? "
                              "run `python web/pyscript_config.py`)")
        sources[rel] = found
    return sources


def bundle_bytes(rel: str, source: Path, vendor_files: dict[str, str],
                 connect: Sequence[str]) -> bytes:
    """A bundle file's content: vendor files re-checked as read, index.html with --connect."""
    if rel == "index.html":
        return page_with_connect(source, connect)
    data = source.read_bytes()
    if rel.startswith(VENDOR_NAME + "/"):
        got = hashlib.sha256(data).hexdigest()
        if got != vendor_files[rel.split("/", 1)[1]]:
            raise VendorError(f"{rel} changed while it was bundled; {REPAIR}")
    return data


def check_bundle_dest(dest: Path, root: Path, *, force: bool) -> None:
    """Refuse a destination that is not an empty (or new) folder, unless --force; never one
    whose replacement would delete the repository, its sources or a home folder."""
    target = dest.resolve()
    repo = root.resolve()
    protected = [repo / name for name in ("web", "data", "toolproof", VENDOR_NAME, ".git")]
    try:
        home = Path.home().resolve()
    except (RuntimeError, KeyError):      # no home folder known: nothing to protect there
        home = repo
    if (target in (repo, home) or target in repo.parents
            or any(target == p or p in target.parents for p in protected)):
        raise VendorError(f"--bundle {dest}: refusing to replace the repository, its sources or "
                          "the home folder; choose a new folder, e.g. --bundle _site")
    if dest.is_symlink() or (dest.exists() and not dest.is_dir()):
        raise VendorError(f"--bundle {dest}: exists and is not a folder; choose another path")
    if dest.is_dir() and any(dest.iterdir()) and not force:
        raise VendorError(f"--bundle {dest}: the folder is not empty; choose an empty one, or "
                          "add --force to replace its contents")


def write_bundle(root: Path, dest: Path, lock: Lock, vendor_files: dict[str, str], *,
                 force: bool = False, connect: Sequence[str] = ()) -> Lock:
    """Write the site into dest (built beside it, then moved in); return bundle.json's content."""
    connect = [check_origin(o) for o in connect]
    check_bundle_dest(dest, root, force=force)
    sources = site_sources(root, lock, vendor_files)
    dest.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".toolproof-bundle-", dir=dest.parent))
    try:
        entries = []
        for rel, source in sorted({**sources, NO_JEKYLL: None}.items()):
            data = b"" if source is None else bundle_bytes(rel, source, vendor_files, connect)
            target = staging.joinpath(*rel.split("/"))
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
            entries.append({"path": rel, "sha256": hashlib.sha256(data).hexdigest(),
                            "size": len(data)})
        manifest = {"format": "toolproof.bundle", "version": 1,
                    "toolproof_version": toolproof_version(root), "files": entries,
                    "total_size": sum(e["size"] for e in entries)}
        (staging / BUNDLE_MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n",
                                               encoding="utf-8")
        if dest.is_dir():
            shutil.rmtree(dest)
        os.replace(staging, dest)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return manifest


def toolproof_version(root: Path) -> str:
    """The package version, read from toolproof/_version.py without importing the package."""
    text = (root / "toolproof" / "_version.py").read_text(encoding="utf-8")
    found = re.search(r'^__version__ = "([^"]+)"', text, re.M)
    if not found:
        raise VendorError("toolproof/_version.py has no __version__ line; restore it from git")
    return found.group(1)


def size_text(size: int) -> str:
    return f"{size / 1_000_000:.1f} MB ({size:,} bytes)"
