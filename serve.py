"""Fetch ToolProof's pinned browser runtime into vendor/ and serve the page locally.

ToolProof's page runs Python in the browser (PyScript on Pyodide). Nothing may come from
a CDN, so this script brings the runtime in with the ordinary package clients and serves
the repository root on 127.0.0.1:

    python serve.py                 # fetch on first run, then serve http://127.0.0.1:8000/
    python serve.py --port 8123     # another port
    python serve.py --fetch-only    # fetch and verify vendor/, then exit
    python serve.py --connect https://llm.example.net   # allow one more provider origin

vendor.lock.json (committed) pins every artefact by version and sha256:
`npm pack` brings Pyodide and @pyscript/core, `pip download` brings the pure-Python wheels
that jsonschema needs in the browser. Every file is checked against its sha256 before
vendor/ is touched; vendor/.complete records which lock the tree was built from, so a
second run starts serving at once without invoking npm or pip, and an edited lock (or an
interrupted fetch) makes the next run fetch again.

Maintainer action, after changing a version in vendor.lock.json:

    python serve.py --update-lock   # fetch afresh, write file names and sha256 into the lock

Review the diff of vendor.lock.json before committing it: --update-lock trusts the registry.

Standard library only; it must not import anything from the toolproof package.
"""

from __future__ import annotations

import argparse
import errno
import hashlib
import importlib.util
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import urllib.parse
from collections.abc import Callable, Sequence
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path, PurePosixPath
from typing import Any, BinaryIO

ROOT = Path(__file__).resolve().parent
LOCK_NAME = "vendor.lock.json"
VENDOR_NAME = "vendor"
MARKER_NAME = ".complete"

# Given to `pip download` so it picks wheels for Pyodide's Python, whatever runs this script.
PIP_TARGET = ["--platform", "any", "--python-version", "3.14", "--implementation", "py"]

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

Log = Callable[[str], None]
Lock = dict[str, Any]
# Downloads every artefact of a lock into a folder; returns artefact name -> file.
Fetcher = Callable[[Lock, Path], dict[str, Path]]


class VendorError(Exception):
    """A problem the user can fix; main() prints it as one line, without a traceback."""


# --------------------------------------------------------------------------- the lock


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
    """A hash of the lock's content (not its formatting): the marker's content."""
    canonical = json.dumps(lock, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(partial(handle.read, 1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def verify_file(path: Path, art: Lock) -> None:
    """Raise VendorError unless the downloaded file has the pinned sha256."""
    actual = sha256_file(path)
    if actual != art["sha256"]:
        raise VendorError(
            f"sha256 mismatch for {path.name} ({art['name']} {art['version']}): "
            f"expected {art['sha256']}, got {actual}; delete vendor/ and run again, and if it "
            f"persists do not use this file (a maintainer may run `python serve.py --update-lock`)"
        )


# --------------------------------------------------------------------------- fetching


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


# --------------------------------------------------------------------------- unpacking


def safe_member_path(name: str) -> PurePosixPath:
    """Refuse tar member names that could land outside the destination folder."""
    path = PurePosixPath(name)
    if name.startswith(("/", "\\")) or path.is_absolute() or ".." in path.parts:
        raise VendorError(f"unsafe path {name!r} in tarball; refusing to unpack it")
    if "\\" in name or re.match(r"^[A-Za-z]:", name):
        raise VendorError(f"unsafe path {name!r} in tarball; refusing to unpack it")
    return path


def extract_tar(tarball: Path, prefix: str, dest: Path) -> int:
    """Unpack the members under `prefix` (e.g. "package/dist/") into dest; return file count.

    Every member is checked before anything is written; links and device files are refused.
    """
    with tarfile.open(tarball, "r:gz") as tar:
        members = tar.getmembers()
        for member in members:
            safe_member_path(member.name)
            if not (member.isfile() or member.isdir()):
                raise VendorError(f"{tarball.name}: {member.name!r} is a link or special "
                                  "file; refusing to unpack it")
        count = 0
        for member in members:
            relative = strip_prefix(member.name, prefix)
            if relative is None or not member.isfile():
                continue
            target = dest.joinpath(*relative.parts)
            target.parent.mkdir(parents=True, exist_ok=True)
            source = tar.extractfile(member)
            assert source is not None  # a regular file always has content
            with source, target.open("wb") as out:
                shutil.copyfileobj(source, out)
            count += 1
    if count == 0:
        raise VendorError(
            f"{tarball.name} has no files under {prefix!r}; check 'unpack' in {LOCK_NAME}"
        )
    return count


def strip_prefix(name: str, prefix: str) -> PurePosixPath | None:
    """The member's path below prefix, or None if it is not below it."""
    parts = safe_member_path(name).parts
    want = PurePosixPath(prefix).parts if prefix.strip("/") else ()
    if len(parts) <= len(want) or tuple(parts[: len(want)]) != tuple(want):
        return None
    return PurePosixPath(*parts[len(want):])


def install_artifacts(vendor: Path, lock: Lock, files: dict[str, Path]) -> None:
    """Replace every dest folder named in the lock with the verified files."""
    for dest in {a["dest"] for a in lock["artifacts"]}:
        shutil.rmtree(vendor / dest, ignore_errors=True)
    for art in lock["artifacts"]:
        dest = vendor / art["dest"]
        dest.mkdir(parents=True, exist_ok=True)
        if art["source"] == "npm":
            extract_tar(files[art["name"]], art["unpack"], dest)
        else:
            shutil.copy2(files[art["name"]], dest / art["file"])


# --------------------------------------------------------------------------- vendor/


def vendor_is_complete(vendor: Path, lock: Lock) -> bool:
    """True if vendor/ was fully built from this very lock and its folders are still there."""
    marker = vendor / MARKER_NAME
    try:
        recorded = marker.read_text(encoding="utf-8").strip()
    except OSError:
        return False
    if recorded != lock_digest(lock):
        return False
    return all((vendor / a["dest"]).is_dir() for a in lock["artifacts"])


def ensure_vendor(root: Path, lock: Lock, *, log: Log, fetch: Fetcher = fetch_all) -> None:
    """Make root/vendor/ match the lock: no-op if it already does, else fetch and verify.

    Nothing in vendor/ changes until every downloaded file has matched its sha256; the
    marker is written last, so an interrupted run is redone from scratch next time.
    """
    vendor = root / VENDOR_NAME
    if vendor_is_complete(vendor, lock):
        return
    log(f"ToolProof: fetching the pinned browser runtime into {vendor} (first run) ...")
    vendor.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="toolproof-fetch-") as tmp:
        files = fetch(lock, Path(tmp))
        for art in lock["artifacts"]:
            verify_file(files[art["name"]], art)
        (vendor / MARKER_NAME).unlink(missing_ok=True)
        install_artifacts(vendor, lock, files)
    (vendor / MARKER_NAME).write_text(lock_digest(lock) + "\n", encoding="utf-8")
    log(f"ToolProof: vendor/ ready ({len(lock['artifacts'])} artefacts verified)")


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


# --------------------------------------------------------------------------- serving


class Handler(SimpleHTTPRequestHandler):
    """Static files with the MIME types Pyodide needs, no caching, quiet by default."""

    verbose = False

    def guess_type(self, path: str | os.PathLike[str]) -> str:
        suffix = Path(os.fspath(path)).suffix.lower()
        return MIME_TYPES.get(suffix) or super().guess_type(path)

    connect: tuple[str, ...] = ()    # extra origins for the page's connect-src (--connect)

    def send_head(self) -> io.BytesIO | BinaryIO | None:
        # Dotfiles (.git/, vendor/.complete) are not part of the site.
        path = urllib.parse.unquote(urllib.parse.urlsplit(self.path).path)
        if any(part.startswith(".") for part in path.replace("\\", "/").split("/")):
            self.send_error(404, "File not found")
            return None
        if self.connect and path in ("/", "/index.html"):
            return self.send_page()
        return super().send_head()

    def send_page(self) -> io.BytesIO:
        """index.html with the --connect origins added to its Content-Security-Policy."""
        data = allow_connect((Path(self.directory) / "index.html").read_text(encoding="utf-8"),
                             self.connect).encode("utf-8")
        self.send_response(200)
        self.send_header("Content-Type", MIME_TYPES[".html"])
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        return io.BytesIO(data)

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        status = int(code) if isinstance(code, int) else 0  # HTTPStatus is an int
        quiet_404 = status == 404 and self.path.startswith("/favicon.ico")
        if self.verbose or (status >= 400 and not quiet_404):
            super().log_request(code, size)

    def log_error(self, format: str, *args: Any) -> None:
        if self.verbose:  # log_request already reports the status line
            super().log_error(format, *args)


ORIGIN = re.compile(r"^https?://[A-Za-z0-9.-]+(:[0-9]{1,5})?$")


def check_origin(origin: str) -> str:
    """An origin for connect-src, e.g. https://llm.example.net:8443; anything else is refused."""
    origin = origin.rstrip("/")
    if not ORIGIN.match(origin):
        raise VendorError(f"--connect wants an origin like https://llm.example.net:8443, got {origin!r}")
    return origin


def allow_connect(page: str, origins: Sequence[str]) -> str:
    """Add origins to the connect-src directive of the page's CSP meta tag."""
    if not origins:
        return page
    marker = "connect-src 'self'"
    if marker not in page:
        raise VendorError("index.html has no connect-src 'self' directive to extend")
    return page.replace(marker, " ".join([marker, *origins]), 1)


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        # A browser closing a connection early is normal; anything else gets a traceback.
        if isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError)):
            return
        super().handle_error(request, client_address)


def make_server(root: Path, host: str = "127.0.0.1", port: int = 8000, *,
                verbose: bool = False, connect: Sequence[str] = ()) -> ThreadingHTTPServer:
    """A server for root on host:port (port 0 picks a free one); raise VendorError if busy."""
    handler = type("RootHandler", (Handler,), {"verbose": verbose,
                                               "connect": tuple(check_origin(o) for o in connect)})
    try:
        return Server((host, port), partial(handler, directory=str(root)))
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            raise VendorError(f"port {port} on {host} is already in use; stop the other "
                              "server or pick another port with --port N") from None
        raise VendorError(f"cannot listen on {host}:{port} ({exc.strerror or exc})") from None


def server_url(server: ThreadingHTTPServer) -> str:
    host, port = server.server_address[:2]
    shown = f"[{host}]" if ":" in str(host) else host
    return f"http://{shown}:{port}/"


# --------------------------------------------------------------------------- command line


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="serve.py",
        description="Fetch ToolProof's pinned browser runtime into vendor/ and serve the page.",
    )
    add = parser.add_argument
    add("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    add("--port", type=int, default=8000, help="port (default 8000; 0 picks a free one)")
    add("--fetch-only", action="store_true", help="fetch and verify vendor/, then exit")
    add("--verbose", action="store_true", help="log every request, not only errors")
    add("--connect", action="append", default=[], metavar="ORIGIN",
        help="also let the page connect to ORIGIN (an OpenAI-compatible server that is not on "
             "localhost), e.g. https://llm.example.net:8443; repeatable")
    add("--update-lock", action="store_true",
        help=f"maintainers: fetch afresh and rewrite the file names and sha256 in {LOCK_NAME}")
    return parser.parse_args(argv)


def stderr_line(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        if args.update_lock:
            update_lock(ROOT / LOCK_NAME, log=stderr_line)
            return 0
        ensure_vendor(ROOT, load_lock(ROOT / LOCK_NAME), log=stderr_line)
        if args.fetch_only:
            return 0
        server = make_server(ROOT, args.host, args.port, verbose=args.verbose, connect=args.connect)
    except VendorError as exc:
        stderr_line(f"serve.py: {exc}")
        return 1
    except KeyboardInterrupt:
        stderr_line("serve.py: interrupted; vendor/ will be fetched again on the next run")
        return 130
    with server:
        print(f"ToolProof: serving {ROOT} at {server_url(server)} (Ctrl-C to stop)", flush=True)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
