"""The site: what a browser may fetch from the repository, and the page as it is served.

For: one allow-list (site_allows, site_file) that both the local server (per request) and
--bundle (every file) use: index.html, the lock, web/ assets, the toolproof/ modules and the
data/ files (suite, tools, fixtures, the format schemas) web/pyscript.json lists for the page's
archive (serving/archive.py), the vendor files vendor/'s manifest lists, and the bare-Pyodide
benchmark page. request_path turns a request line into a plain site path;
check_origin and page_with_connect add the --connect origins to the page's CSP.
Must not: serve or bundle anything else of the repository (.git/, tests/, serve.py, dotfiles,
build scripts, any other file under data/: a results file saved there stays private), follow a symbolic link below the root, or import the toolproof package (it
reads web/pyscript.json and lists toolproof/ files; it never runs them).
"""
from __future__ import annotations

import json
import re
import urllib.parse
from collections.abc import Collection, Sequence
from pathlib import Path, PurePosixPath

from serving.errors import VendorError
from serving.lock import LOCK_NAME
from serving.vendor import VENDOR_NAME

# The page's Python entry point (index.html: <script type="py" worker src=...>): PyScript fetches
# it on its own, beside the archive of the package that holds it too (serving/archive.py).
PAGE_SCRIPT = "toolproof/page/main.py"
WEB_SUFFIXES = frozenset({".html", ".mjs", ".js", ".css", ".json", ".svg", ".png", ".ico"})
BENCHMARK_SUFFIXES = frozenset({".html", ".mjs"})      # the bare-Pyodide page benchmarks load
BAD_CHARACTERS = re.compile(r"[\x00-\x1f\x7f\\:]")


def request_path(raw: str) -> str | None:
    """The site path a request line names ("/" is index.html), or None when it is anything but
    a plain path: '..', '.', empty or dot-leading segments, backslashes, control characters or
    bad UTF-8 after one round of percent-decoding all answer 404."""
    path = raw.split("?", 1)[0].split("#", 1)[0]
    try:
        path = urllib.parse.unquote(path, errors="strict")
    except UnicodeDecodeError:
        return None
    if path == "/":
        return "index.html"
    if not path.startswith("/") or BAD_CHARACTERS.search(path):
        return None
    parts = path[1:].split("/")
    if any(part in ("", ".", "..") or part.startswith(".") for part in parts):
        return None
    return "/".join(parts)


def page_files(root: Path) -> set[str]:
    """Every file of the page's archive (web/pyscript.json, "page_files"), as paths from the root;
    anything but a plain path below the root is left out."""
    try:
        config = json.loads((root / "web" / "pyscript.json").read_text(encoding="utf-8"))
        listed = config["page_files"]
    except (OSError, ValueError, KeyError, TypeError, RecursionError):
        return set()
    if not isinstance(listed, list):
        return set()
    return {rel for rel in listed if isinstance(rel, str) and request_path("/" + rel) == rel}


def page_modules(root: Path) -> set[str]:
    """The toolproof/ files of the page's archive, as paths from the root."""
    return {rel for rel in page_files(root) if rel.startswith("toolproof/") and rel.endswith(".py")}


def page_data(root: Path) -> set[str]:
    """The data/ files the page loads (its archive): nothing else under data/ is served."""
    return {rel for rel in page_files(root) if rel.startswith("data/") and rel.endswith(".json")}


def site_allows(root: Path, rel: str, vendor_files: Collection[str]) -> bool:
    """True when rel (from request_path) is part of the site."""
    top, _, rest = rel.partition("/")
    suffix = PurePosixPath(rel).suffix
    if not rest:
        # the page reads the lock for its wheels; sw.js must sit beside index.html to cover it
        return rel in ("index.html", LOCK_NAME, "sw.js")
    if top == "web":
        return suffix in WEB_SUFFIXES
    if top == "data":
        return rel in page_data(root)
    if top == "toolproof":
        return rel in page_modules(root)
    if top == VENDOR_NAME:
        return rest in vendor_files
    if top == "benchmarks":
        return "/" not in rest and suffix in BENCHMARK_SUFFIXES
    return False


def site_file(root: Path, rel: str, vendor_files: Collection[str]) -> Path | None:
    """The regular file behind an allowed site path, or None. No symbolic link is followed below
    the root (or below vendor/, which may itself be a link to a shared copy)."""
    if not site_allows(root, rel, vendor_files):
        return None
    parts = rel.split("/")
    base = root if parts[0] != VENDOR_NAME else root / VENDOR_NAME
    below = parts if parts[0] != VENDOR_NAME else parts[1:]
    try:
        base = base.resolve(strict=True)
        real = base.joinpath(*below).resolve(strict=True)
    except (OSError, RuntimeError):
        return None
    return real if real == base.joinpath(*below) and real.is_file() else None


# The page's CSP as served: a meta CSP cannot change at run time, so --connect widens its
# connect-src here (and in the bundle) for a remote OpenAI-compatible server.
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


def page_with_connect(index: Path, origins: Sequence[str]) -> bytes:
    """index.html as served and bundled: its CSP with the --connect origins added."""
    return allow_connect(index.read_text(encoding="utf-8"), origins).encode("utf-8")
