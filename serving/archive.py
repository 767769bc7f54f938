"""The page's Python package and data files as one archive: web/page-files.zip.

For: PyScript unpacks it into the worker's file system before the page's Python runs
(web/pyscript.json: "files": {"./page-files.zip": "./*"}). One request instead of 120-odd,
which on a 2-core machine took 0.4 s of the start-up (docs/benchmarks.md, "Page responsiveness").
The members are the files web/pyscript.json lists under "page_files", each under its path in
the repository, so the worker sees the same toolproof/ and data/ tree as the terminal. The
bytes depend only on the members' contents (sorted, fixed times), so the ETag serve.py sends
stays the same until a file changes. serve.py builds it when asked (ArchiveCache: again after a
listed file changes); --bundle writes it.
Must not: take a file the site's allow-list refuses or a symbolic link (site_file), or import
the toolproof package.
"""
from __future__ import annotations

import hashlib
import io
import threading
import zipfile
from pathlib import Path

from serving.bytecode import ensure, key_of, made
from serving.node import pyodide_pin
from serving.errors import VendorError
from serving.site import page_files, site_file

ARCHIVE = "web/page-files.zip"
FIXED_TIME = (1980, 1, 1, 0, 0, 0)       # zip's earliest date: the bytes never depend on when


def archive_bytes(root: Path) -> bytes:
    """The archive of every file web/pyscript.json lists under "page_files", and beside each
    module its precompiled .pyc when serving/bytecode.py has made one for this very source."""
    members = sorted(page_files(root))
    pin, compiled = pyodide_pin(root), made(root)
    if not members:
        raise VendorError("web/pyscript.json lists no page files (\"page_files\"); run "
                          "`python web/pyscript_config.py`")
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for rel in members:
            if not rel.startswith(("toolproof/", "data/")):
                raise VendorError(f"web/pyscript.json lists {rel} for the page's archive, which takes "
                                  "toolproof/ and data/ files only; run `python web/pyscript_config.py`")
            source = site_file(root, rel, ())
            if source is None:
                raise VendorError(f"{rel} is missing or a symbolic link; the page's archive takes "
                                  "regular files inside the repository only (web/pyscript.json "
                                  "lists it? run `python web/pyscript_config.py`)")
            info = zipfile.ZipInfo(rel, FIXED_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            data = source.read_bytes()
            archive.writestr(info, data)
            pyc = compiled.get(key_of(data, pin)) if pin and rel.endswith(".py") else None
            if pyc is not None:
                folder, _, name = rel.rpartition("/")
                info = zipfile.ZipInfo(f"{folder}/__pycache__/{name[:-3]}.{pyc[0]}.pyc", FIXED_TIME)
                info.compress_type = zipfile.ZIP_DEFLATED
                info.external_attr = 0o644 << 16
                archive.writestr(info, pyc[1].read_bytes())
    return out.getvalue()


def page_sources(root: Path) -> dict[str, bytes]:
    """The page's modules as they are now (path -> bytes): what serving/bytecode.py compiles."""
    out = {}
    for rel in page_files(root):
        source = site_file(root, rel, ()) if rel.endswith(".py") else None
        if source is not None:
            out[rel] = source.read_bytes()
    return out


def _stamps(root: Path) -> tuple:
    """What the archive depends on: the config and every listed file, by size and change time."""
    stamps = []
    for rel in ["web/pyscript.json", *sorted(page_files(root))]:
        try:
            found = (root / rel).lstat()
            stamps.append((rel, found.st_size, found.st_mtime_ns))
        except OSError:
            stamps.append((rel, None, None))
    return tuple(stamps)


class ArchiveCache:
    """serve.py's copy of the archive and its ETag, rebuilt when a file it holds changes (an
    edit shows on the next reload, as with the files served one by one)."""

    def __init__(self, root: Path):
        self.root = root
        self._lock = threading.Lock()
        self._key: tuple | None = None
        self._value: tuple[bytes, str] | None = None

    def get(self) -> tuple[bytes, str]:
        """(the archive, its ETag); raises VendorError when a listed file is missing."""
        with self._lock:
            key = _stamps(self.root)
            if key != self._key or self._value is None:
                ensure(self.root, page_sources(self.root))     # Node.js makes what is missing, if it can
                data = archive_bytes(self.root)
                self._key, self._value = key, (data, f'"{hashlib.sha256(data).hexdigest()}"')
            return self._value
