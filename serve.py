"""Fetch ToolProof's pinned browser runtime into vendor/, serve the page locally, or write it
out as a static site.

ToolProof's page runs Python in the browser (PyScript on Pyodide). Nothing may come from
a CDN, so this script brings the runtime in with the ordinary package clients:

    python serve.py                 # fetch on first run, then serve http://127.0.0.1:8000/
    python serve.py --port 8123     # another port
    python serve.py --fetch-only    # fetch and verify vendor/, then exit
    python serve.py --connect https://llm.example.net   # allow one more provider origin
    python serve.py --bundle _site [--force]            # the site for any static host

vendor.lock.json (committed; serving/lock.py) pins every artefact by version and sha256:
`npm pack` brings Pyodide and @pyscript/core, `pip download` brings the pure-Python wheels
that jsonschema needs in the browser (serving/fetch.py). Every download is checked against its
sha256 before vendor/ is touched; unpacking (serving/unpack.py) records the sha256 of every
file in vendor/.manifest.json (written last, so an interrupted fetch is redone). Every start
(serving, --fetch-only, --bundle) checks vendor/ against that manifest and refuses to go on,
naming the file, when a file changed, appeared or went missing (serving/vendor.py). An edited
lock makes the next run fetch again.

The server (serving/server.py) serves the site, not the repository: an allow-list of what the
page loads (serving/site.py). --bundle (serving/bundle.py) copies the same files, with only the
vendor files the page requests (the lock's "page_loads"), plus bundle.json.

Maintainer action, after changing a version in vendor.lock.json:

    python serve.py --update-lock   # fetch afresh, write file names and sha256 into the lock

Review the diff of vendor.lock.json before committing it: --update-lock trusts the registry.
Then re-record "page_loads" (tests/serving/test_bundle.py prints the list the page now requests).

This file holds only the flags and main, which turns a ServingError into one line and exit 1.
Must not: do any of the work itself (that is serving/, one module per part), import anything
but the standard library and serving/, or import the toolproof package.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from serving.bundle import size_text, write_bundle
from serving.bytecode import note as bytecode_note
from serving.errors import ServingError
from serving.fetch import update_lock
from serving.lock import LOCK_NAME, load_lock
from serving.server import make_server, server_url, warm_up
from serving.snapshot import note as snapshot_note
from serving.site import check_origin
from serving.vendor import ensure_vendor

ROOT = Path(__file__).resolve().parent


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
    add("--force", action="store_true", help="with --bundle: replace a bundle written to DIR before")
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
                  f" to {args.bundle}; publish that folder as it is (docs/publishing.md)",
                  flush=True)
            for why in (snapshot_note(ROOT), bytecode_note(ROOT)):
                if why:
                    stderr_line(f"serve.py: {why}")
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
        warm_up(server, ROOT, stderr_line)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
