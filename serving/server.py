"""The local HTTP server: the site (serving/site.py's allow-list) on 127.0.0.1, for the page
and the browser tests.

For: make_server (a threading server for a root whose vendor/ passed its check, on host:port;
port 0 picks a free one) and server_url. Handler sends the MIME types Pyodide needs (.mjs as
text/javascript, .wasm as application/wasm), no caching but an ETag (the file's pinned sha256) on
vendor files so a second visit revalidates instead of downloading, the page's files as one
archive built from the repository as it is now (web/page-files.zip, serving/archive.py; it too
has an ETag), Pyodide's snapshot (web/pyodide-snapshot.gz, serving/snapshot.py; 404 when none
could be made: the page then starts Pyodide in full), the cross-origin isolation
headers (COOP, COEP) the page's worker needs, and index.html with the --connect origins in its
CSP; it logs only errors unless verbose.
Must not: answer anything outside the allow-list (404), any method but GET and HEAD (501), a
request whose Host header names another server (421: a DNS-rebinding page would send its own
name; see host_allowed),
start on a vendor/ that fails its check, or print a traceback for a browser that hangs up.
"""
from __future__ import annotations

import errno
import io
import os
import re
import sys
import threading
from collections.abc import Callable, Collection, Sequence
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, BinaryIO

from serving.archive import ARCHIVE, ArchiveCache
from serving.bytecode import note
from serving.errors import ListenError, ServingError, VendorError
from serving.site import check_origin, page_with_connect, request_path, site_file
from serving.snapshot import SNAPSHOT, ensure as ensure_snapshot, note as snapshot_note
from serving.vendor import MANIFEST_NAME, VENDOR_NAME, read_manifest, verify_vendor

MIME_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript",
    ".mjs": "text/javascript",
    ".css": "text/css",
    ".wasm": "application/wasm",
    ".json": "application/json",
    ".map": "application/json",
    ".whl": "application/zip",
    ".zip": "application/zip",
    ".py": "text/x-python; charset=utf-8",
    ".toml": "text/plain; charset=utf-8",
    ".md": "text/plain; charset=utf-8",
    ".txt": "text/plain; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
}


LOCAL_NAMES = frozenset({"localhost", "127.0.0.1", "[::1]"})
HOST = re.compile(r"(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::([0-9]{1,5}))?")


def host_allowed(header: str | None, bound_host: str, port: int) -> bool:
    """Does a request's Host header name this server: a localhost name or the literal address
    it is bound to, with no port or its own? A page on another name that DNS-rebinds to
    127.0.0.1 sends that other name, and is refused."""
    match = HOST.fullmatch((header or "").strip().lower())
    if match is None:
        return False
    name, given = match.group(1), match.group(2)
    if given is not None and int(given) != port:
        return False
    literal = f"[{bound_host}]" if ":" in bound_host else bound_host
    return name.rstrip(".") in LOCAL_NAMES | {literal.lower()}


class Handler(SimpleHTTPRequestHandler):
    """The site's files (see site_file) with the MIME types Pyodide needs, no caching, quiet by
    default. Everything else, and every method but GET and HEAD, is refused."""

    verbose = False
    root: Path                       # the site's folder: make_server sets it
    vendor_files: Collection[str] = frozenset()
    connect: tuple[str, ...] = ()    # extra origins for the page's connect-src (--connect)
    vendor_tags: dict[str, str] = {}   # vendor path -> sha256: its ETag (a second visit revalidates)
    archive: ArchiveCache            # web/page-files.zip: make_server sets it

    def guess_type(self, path: str | os.PathLike[str]) -> str:
        suffix = Path(os.fspath(path)).suffix.lower()
        return MIME_TYPES.get(suffix) or super().guess_type(path)

    def send_head(self) -> io.BytesIO | BinaryIO | None:
        host, port = self.server.server_address[:2]
        if not host_allowed(self.headers.get("Host"), str(host), int(port)):
            self.send_error(421, "Misdirected Request: the Host header does not name this server")
            return None
        rel = request_path(self.path)
        if rel == ARCHIVE:
            return self.send_archive()
        if rel == SNAPSHOT:
            return self.send_snapshot()
        target = None if rel is None else site_file(self.root, rel, self.vendor_files)
        if target is None:
            self.send_error(404, "File not found")
            return None
        if rel == "index.html" and self.connect:
            return self.send_bytes(page_with_connect(target, self.connect), MIME_TYPES[".html"])
        tag = self.vendor_tags.get(rel.split("/", 1)[1]) if rel.startswith(VENDOR_NAME + "/") else None
        etag = f'"{tag}"' if tag else None
        if etag and self.not_modified(etag):     # the browser's copy is the pinned file
            return None
        try:
            handle = target.open("rb")
        except OSError:
            self.send_error(404, "File not found")
            return None
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(target))
        self.send_header("Content-Length", str(os.fstat(handle.fileno()).st_size))
        if etag:
            self.send_header("ETag", etag)
        self.end_headers()
        return handle

    def send_archive(self) -> io.BytesIO | None:
        """The page's files as one archive (serving/archive.py), built from the repository as it
        is now; a second visit revalidates it by its ETag."""
        try:
            data, etag = self.archive.get()
        except VendorError as exc:
            sys.stderr.write(f"ToolProof: {exc}\n")     # before the answer: said by the time it arrives
            self.send_error(500, "The page's files could not be packed")
            return None
        if self.not_modified(etag):
            return None
        self.send_response(200)
        self.send_header("Content-Type", "application/zip")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("ETag", etag)
        self.end_headers()
        return io.BytesIO(data)

    def send_snapshot(self) -> BinaryIO | None:
        """Pyodide's memory after start-up, made once per pin (serving/snapshot.py; the first
        request after a fetch waits for Node.js); 404 when there is none, and the page starts
        Pyodide in full."""
        found = ensure_snapshot(self.root)
        try:
            handle = found.open("rb") if found else None
        except OSError:
            handle = None
        if handle is None:
            self.send_error(404, "No Pyodide snapshot here")
            return None
        stat = os.fstat(handle.fileno())
        size = stat.st_size
        etag = f'"{found.stem[:32]}-{size}-{stat.st_mtime_ns}"'
        if self.not_modified(etag):
            handle.close()
            return None
        self.send_response(200)
        self.send_header("Content-Type", "application/gzip")
        self.send_header("Content-Length", str(size))
        self.send_header("ETag", etag)
        self.end_headers()
        return handle

    def not_modified(self, etag: str) -> bool:
        """Answer 304 when the browser's copy has this ETag: it is not sent again."""
        if self.headers.get("If-None-Match") != etag:
            return False
        self.send_response(304)
        self.send_header("ETag", etag)
        self.end_headers()
        return True

    def send_bytes(self, data: bytes, mime: str) -> io.BytesIO:
        self.send_response(200)
        self.send_header("Content-Type", mime)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        return io.BytesIO(data)

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-cache")
        # Cross-origin isolation: the page's Python runs in a worker that reaches the page through
        # SharedArrayBuffer (docs/page.md#responsiveness). "credentialless" rather than
        # "require-corp": provider requests are CORS requests, which both allow, but only
        # credentialless lets the transport's bodiless no-cors probe tell "blocked by CORS" from
        # "nothing answered" (page/transport.py). A static host gets the same headers from sw.js.
        self.send_header("Cross-Origin-Opener-Policy", "same-origin")
        self.send_header("Cross-Origin-Embedder-Policy", "credentialless")
        super().end_headers()

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        status = int(code) if isinstance(code, int) else 0  # HTTPStatus is an int
        quiet_404 = status == 404 and self.path.startswith("/favicon.ico")
        if self.verbose or (status >= 400 and not quiet_404):
            super().log_request(code, size)

    def log_error(self, format: str, *args: Any) -> None:
        if self.verbose:  # log_request already reports the status line
            super().log_error(format, *args)


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        # A browser closing a connection early is normal; anything else gets a traceback.
        if isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError)):
            return
        super().handle_error(request, client_address)


def make_server(root: Path, host: str = "127.0.0.1", port: int = 8000, *, verbose: bool = False,
                connect: Sequence[str] = (),
                vendor_files: Collection[str] | None = None) -> ThreadingHTTPServer:
    """A server for root's site on host:port (port 0 picks a free one); raise ListenError if
    it cannot listen there (e.g. the port is busy), VendorError if vendor/ fails its check.
    vendor_files: a manifest ensure_vendor has just verified; without it the manifest is read
    and verified here."""
    if vendor_files is None:
        manifest = read_manifest(root / VENDOR_NAME)
        if manifest is None:
            raise VendorError(f"vendor/ has no {MANIFEST_NAME}; run `python serve.py --fetch-only`")
        verify_vendor(root / VENDOR_NAME, manifest["files"])
        vendor_files = manifest["files"]
    handler = type("RootHandler", (Handler,), {
        "verbose": verbose, "root": root, "vendor_files": frozenset(vendor_files),
        "vendor_tags": dict(vendor_files) if isinstance(vendor_files, dict) else {},
        "connect": tuple(check_origin(o) for o in connect), "archive": ArchiveCache(root)})
    try:
        server = Server((host, port), partial(handler, directory=str(root)))
        server.archive = handler.archive
        return server
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            raise ListenError(f"port {port} on {host} is already in use; stop the other "
                              "server or pick another port with --port N") from None
        raise ListenError(f"cannot listen on {host}:{port} ({exc.strerror or exc})") from None


def server_url(server: ThreadingHTTPServer) -> str:
    host, port = server.server_address[:2]
    shown = f"[{host}]" if ":" in str(host) else host
    return f"http://{shown}:{port}/"


def warm_up(server: ThreadingHTTPServer, root: Path, log: Callable[[str], None]) -> None:
    """Make Pyodide's snapshot and the page's archive now, in the background (in the order the
    page asks for them): Node.js taking the snapshot (serving/snapshot.py) and precompiling the
    page's Python (serving/bytecode.py) takes seconds, which the first visit then does not wait
    for. Says once when either could not be made, and why."""
    def work() -> None:
        if ensure_snapshot(root) is None and snapshot_note(root):
            log(f"serve.py: {snapshot_note(root)}")
        try:
            server.archive.get()
        except ServingError as exc:
            log(f"serve.py: {exc}")
            return
        if note(root):
            log(f"serve.py: {note(root)}")
    threading.Thread(target=work, name="toolproof-warm-up", daemon=True).start()
