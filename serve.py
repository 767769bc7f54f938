"""Fetch ToolProof's pinned browser runtime into vendor/, serve the page locally, or write it
out as a static site.

ToolProof's page runs Python in the browser (PyScript on Pyodide). Nothing may come from
a CDN, so this script brings the runtime in with the ordinary package clients:

    python serve.py                 # fetch on first run, then serve http://127.0.0.1:8000/
    python serve.py --port 8123     # another port
    python serve.py --fetch-only    # fetch and verify vendor/, then exit
    python serve.py --connect https://llm.example.net   # allow one more provider origin
    python serve.py --bundle _site [--force]            # the site for any static host

vendor.lock.json (committed) pins every artefact by version and sha256:
`npm pack` brings Pyodide and @pyscript/core, `pip download` brings the pure-Python wheels
that jsonschema needs in the browser. Every download is checked against its sha256 before
vendor/ is touched; unpacking records the sha256 of every file in vendor/.manifest.json
(written last, so an interrupted fetch is redone). Every start (serving, --fetch-only,
--bundle) checks vendor/ against that manifest and refuses to go on, naming the file, when a
file changed, appeared or went missing. An edited lock makes the next run fetch again.

The server serves the site, not the repository: an allow-list (site_allows) of what the page
loads. --bundle copies the same files, with only the vendor files the page requests (the lock's
"page_loads"), plus bundle.json.

Maintainer action, after changing a version in vendor.lock.json:

    python serve.py --update-lock   # fetch afresh, write file names and sha256 into the lock

Review the diff of vendor.lock.json before committing it: --update-lock trusts the registry.
Then re-record "page_loads" (tests/test_bundle.py prints the list the page now requests).

Standard library only; it must not import anything from the toolproof package.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from serving.errors import ServingError, VendorError
from serving.fetch import update_lock
from serving.lock import LOCK_NAME, Lock, load_lock
from serving.site import check_origin, page_modules, page_with_connect, request_path, site_allows, site_file
from serving.server import make_server, server_url
from serving.vendor import REPAIR, VENDOR_NAME, ensure_vendor

ROOT = Path(__file__).resolve().parent


# --------------------------------------------------------------------------- the bundle
# `--bundle DIR`: the site as plain files for any static host, from any sub-path. Vendor files:
# only those the page requests (the lock's "page_loads", recorded in Chromium and held to the
# page by tests/test_bundle.py), each checked against vendor/'s verified manifest.

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
                              "do not contain; re-record the list (README: Publishing)")
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


# --------------------------------------------------------------------------- command line


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="serve.py",
        description="Fetch ToolProof's pinned browser runtime into vendor/ and serve the page.",
    )
    add = parser.add_argument
    add("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    add("--port", type=int, default=8000, help="port (default 8000; 0 picks a free one)")
    add("--verbose", action="store_true", help="log every request, not only errors")
    add("--connect", action="append", default=[], metavar="ORIGIN",
        help="also let the page connect to ORIGIN (an OpenAI-compatible server that is not on "
             "localhost), e.g. https://llm.example.net:8443; repeatable; applies to --bundle too")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--fetch-only", action="store_true",
                      help="fetch and verify vendor/, then exit")
    mode.add_argument("--bundle", metavar="DIR", type=Path,
                      help="write the site into DIR for any static host, then exit")
    mode.add_argument("--update-lock", action="store_true",
                      help=f"maintainers: fetch afresh and rewrite the sha256 pins in {LOCK_NAME}")
    add("--force", action="store_true", help="with --bundle: replace a non-empty DIR")
    args = parser.parse_args(argv)
    if args.force and args.bundle is None:
        parser.error("--force only applies to --bundle DIR")
    return args


def stderr_line(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        if args.update_lock:
            update_lock(ROOT / LOCK_NAME, log=stderr_line)
            return 0
        connect = [check_origin(o) for o in args.connect]
        lock = load_lock(ROOT / LOCK_NAME)
        vendor_files = ensure_vendor(ROOT, lock, log=stderr_line)
        if args.fetch_only:
            return 0
        if args.bundle is not None:
            done = write_bundle(ROOT, args.bundle, lock, vendor_files, force=args.force,
                                connect=connect)
            print(f"ToolProof: wrote {len(done['files'])} files, {size_text(done['total_size'])},"
                  f" to {args.bundle}; publish that folder as it is (README: Publishing)",
                  flush=True)
            return 0
        server = make_server(ROOT, args.host, args.port, verbose=args.verbose, connect=connect,
                             vendor_files=vendor_files)
    except ServingError as exc:
        stderr_line(f"serve.py: {exc}")
        return 1
    except OSError as exc:        # e.g. --bundle into a read-only or full disk
        stderr_line(f"serve.py: {exc.strerror or exc}: {exc.filename or ''}".rstrip(": "))
        return 1
    except KeyboardInterrupt:
        stderr_line("serve.py: interrupted; nothing half-done is kept (an unfinished fetch runs "
                    "again next time, an unfinished bundle is removed)")
        return 130
    with server:
        print(f"ToolProof: serving the site in {ROOT} at {server_url(server)} (Ctrl-C to stop)",
              flush=True)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
