"""`--bundle DIR`: the site as plain files for any static host, from any sub-path.

For: write_bundle copies what serving/site.py's allow-list lets through that the page requests:
index.html, sw.js, the lock, web/ assets, the page's Python entry point, its package and data
files as one archive (serving/archive.py), Pyodide's snapshot when Node.js could make it
(serving/snapshot.py), and only the vendor files the lock's "page_loads"
names (recorded in Chromium and held to the page by tests/serving/test_bundle.py), each
re-checked against vendor/'s verified manifest as it is read, plus bundle.json (every file's
sha256 and size) and .nojekyll. It is built in a staging folder beside DIR and moved in at the end, so a failure
leaves no half-written site.
Must not: delete anything but a bundle an earlier --bundle wrote (with --force, DIR must hold
its bundle.json and nothing it does not list), and never (whatever the flags) `/`, the home
folder or its parents, the repository or its parents, its sources or vendor/; take a symbolic
link or a file outside the site; import the toolproof package (its version is read from
toolproof/_version.py as text).
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

from serving.archive import ARCHIVE, archive_bytes, page_sources
from serving.bytecode import ensure
from serving.errors import VendorError
from serving.lock import LOCK_NAME, Lock
from serving.snapshot import SNAPSHOT, ensure as ensure_snapshot
from serving.site import PAGE_SCRIPT, check_origin, page_with_connect, request_path, site_allows, site_file
from serving.vendor import REPAIR, VENDOR_NAME

BUNDLE_MANIFEST = "bundle.json"
# GitHub Pages' branch publishing runs Jekyll, which drops files and folders starting with "_";
# none of ours does now (toolproof/__init__.py travels in the archive), but a site must reach the
# browser as written: this empty file turns Jekyll off. Other hosts ignore it.
NO_JEKYLL = ".nojekyll"


def bundle_vendor_files(lock: Lock) -> list[str]:
    """The vendor files the page requests, as paths below vendor/ (from the lock)."""
    loads = lock.get("page_loads")
    if not isinstance(loads, dict):
        raise VendorError(f"{LOCK_NAME} has no 'page_loads' (the vendor files the page requests); "
                          "restore it from git")
    return sorted({rel for group in ("boot", "on_demand") for rel in loads[group]})


def site_sources(root: Path, lock: Lock, vendor_files: dict[str, str]) -> dict[str, Path]:
    """Every file of the bundle but bundle.json and the page's archive (write_bundle packs it),
    by its path in the bundle."""
    candidates = ["index.html", LOCK_NAME, "sw.js", PAGE_SCRIPT]
    candidates += sorted(p.relative_to(root).as_posix() for p in (root / "web").rglob("*") if not p.is_dir())
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
    """Refuse a destination that is not an empty (or new) folder, unless --force and it holds
    a bundle an earlier --bundle wrote and nothing else; never (whatever the flags) `/`, the
    home folder or a folder holding it, the repository or a folder holding it, or its sources."""
    target = dest.resolve()
    if protected_folder(target, root.resolve()):
        raise VendorError(f"--bundle {dest}: refusing to replace the repository, its sources or "
                          "the home folder; choose a new folder, e.g. --bundle _site")
    if dest.is_symlink() or (dest.exists() and not dest.is_dir()):
        raise VendorError(f"--bundle {dest}: exists and is not a folder; choose another path")
    if not dest.is_dir() or not any(dest.iterdir()):
        return
    if not force:
        raise VendorError(f"--bundle {dest}: the folder is not empty; choose an empty one, or "
                          "add --force to replace a bundle written there before")
    stranger = not_a_bundle(dest)
    if stranger:
        raise VendorError(f"--bundle {dest}: --force replaces only a bundle written there before, "
                          f"and {stranger}; choose an empty or new folder")


def protected_folder(target: Path, repo: Path) -> bool:
    """Is `target` (resolved) a folder whose replacement would delete the repository, its
    sources, the home folder or the file-system root? Both sides resolved: no link gets past."""
    guarded = [repo]
    try:
        guarded.append(Path.home().resolve())
    except (RuntimeError, KeyError):      # no home folder known: nothing more to protect
        pass
    if any(target == g or target in g.parents for g in guarded) or target == Path(target.anchor):
        return True
    sources = [repo / name for name in ("web", "data", "toolproof", "serving", "tests", "docs",
                                        VENDOR_NAME, ".git")]
    return any(target == p or p in target.parents for p in sources)


def not_a_bundle(dest: Path) -> str | None:
    """Why `dest` is not only a bundle an earlier --bundle wrote (None when it is): it must hold
    that bundle's bundle.json, and every file in it must be one the manifest lists."""
    manifest = dest / BUNDLE_MANIFEST
    try:
        if manifest.is_symlink() or not manifest.is_file() or manifest.stat().st_size > 10_000_000:
            raise ValueError
        listed = json.loads(manifest.read_text(encoding="utf-8"))
        if listed.get("format") != "toolproof.bundle" or not isinstance(listed.get("files"), list):
            raise ValueError
        known = {e.get("path") for e in listed["files"] if isinstance(e, dict)}
    except (OSError, ValueError, AttributeError, RecursionError):
        return f"it holds no {BUNDLE_MANIFEST} written by --bundle"
    known |= {BUNDLE_MANIFEST, NO_JEKYLL}
    for path in sorted(dest.rglob("*")):
        rel = path.relative_to(dest).as_posix()
        if path.is_symlink() or (not path.is_dir() and rel not in known):
            return f"{ascii(rel)[1:-1]} is not part of it"
        if path.is_dir() and not any(k.startswith(rel + "/") for k in known):
            return f"{ascii(rel)[1:-1]}/ is not part of it"
    return None


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
        ensure(root, page_sources(root))         # precompiled Python, when Node.js can make it
        made = {NO_JEKYLL: b"", ARCHIVE: archive_bytes(root)}
        snapshot = ensure_snapshot(root)          # Pyodide's memory, when Node.js can take it
        if snapshot is not None:
            made[SNAPSHOT] = snapshot.read_bytes()
        for rel, source in sorted({**sources, **dict.fromkeys(made)}.items()):
            data = made[rel] if source is None else bundle_bytes(rel, source, vendor_files, connect)
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
