"""Files the CLI writes: whole files written at once (the outputs of `tools import --out` and
`suite import-bfcl --out`, the results file's first and last text; cli/results_file.py keeps it
as a run goes), and which places may be written at all.

Only the writing (a temp file, fsync, os.replace) and the places that may be written: never the
project's own data/ (nor an installed package's), never over an existing file without --force.
What goes in a document is the callers' business, and nothing here prints.
"""
from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path

from toolproof.datafiles import DATA, package_folder
from toolproof.errors import ToolProofError


def write_atomic(path: str, text: str | bytes, *, keep_open: bool = False):
    """Replace `path` with `text` in one step: a temp file in the same folder, then os.replace,
    so a crash or kill mid-write leaves the previous complete file, never half of one.
    `keep_open`: return the written file open for reading and writing (unbuffered), so a writer
    that goes on appending writes to the very file it made, whatever the path names later."""
    folder = os.path.dirname(os.path.abspath(path))
    fd, temp = tempfile.mkstemp(prefix=".toolproof-", suffix=".tmp", dir=folder)
    data = text.encode("utf-8") if isinstance(text, str) else text
    try:
        handle = os.fdopen(fd, "r+b", buffering=0)
        try:
            write_all(handle, data)
            os.fsync(handle.fileno())
            os.replace(temp, path)
        except BaseException:
            handle.close()
            raise
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    if keep_open:
        return handle
    handle.close()
    return None


def write_all(handle, data: bytes) -> None:
    """Every byte of `data` through an unbuffered file (one write may take only part of it)."""
    view = memoryview(data)
    while view:
        view = view[handle.write(view):]


def guarded_data_folders() -> list[Path]:
    """The data/ folders ToolProof reads its own suite from: the one in use, the checkout's and
    the installed package's (both may exist), resolved."""
    package = package_folder()
    return sorted({Path(os.path.realpath(p)) for p in (DATA, package / "data", package.parent / "data")
                   if p.is_dir()})


def check_writable(paths: Iterable[str | Path], *, force: bool | None, flag: str = "--out") -> None:
    """Refuse to write any of `paths` inside ToolProof's own data/ (whatever the flags), or over
    an existing file (without --force), or over something that is not a regular file; one line
    naming the path and the fix."""
    guarded = guarded_data_folders()
    for path in map(Path, paths):
        real = Path(os.path.realpath(path))
        if any(real == g or g in real.parents for g in guarded):
            raise ToolProofError(f"{flag}: refusing to write into ToolProof's own data folder "
                                 "(the committed suite); choose another folder", source=str(path))
        if path.is_symlink() or (path.exists() and not path.is_file()):
            raise ToolProofError(f"{flag}: exists and is not a regular file; choose another path",
                                 source=str(path))
        if path.exists() and not force:     # force None: the command has no --force to offer
            fix = "choose a new path (run has no --force: a results file is never replaced)" if force is None else "choose a new path, or add --force to replace it"
            raise ToolProofError(f"{flag}: the file exists; {fix}", source=str(path))
