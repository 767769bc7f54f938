"""Files the CLI writes: whole files written at once (the outputs of `tools import --out` and
`suite import-bfcl --out`, the results file's first and last text; cli/results_file.py keeps it
as a run goes), and which places may be written at all.

Only the writing (a temp file, fsync, os.replace) and the places that may be written: never the
project's own data/ (nor an installed package's), never over an existing file without --force,
never over a file the same command reads (check_outputs, which every verb with an output flag
calls before it starts). What goes in a document is the callers' business, and nothing here prints.
"""
from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Iterable
from pathlib import Path

from toolproof.datafiles import DATA, package_folder
from toolproof.errors import ToolProofError

from .folder import IN_DATA, HeldPath, fill_temp, refuse_nul


def write_atomic(path: str, text: str | bytes, *, keep_open: bool = False, exclusive: bool = False):
    """Replace `path` with `text` in one step: a temp file in the same folder, then os.replace,
    so a crash or kill mid-write leaves the previous complete file, never half of one.
    `keep_open`: return the written file open for reading and writing (unbuffered), so a writer
    that goes on appending writes to the very file it made, whatever the path names later. A file
    of a held folder (run --out-dir: folder.HeldPath) is written the same way through its handle.
    `exclusive`: only if no file has the name (FileExistsError otherwise): the temp file is linked
    in, never renamed over, so the file appears whole or not at all and nothing is replaced."""
    if isinstance(path, HeldPath):
        return path.folder.write_atomic(path.name, text, keep_open=keep_open)
    folder = os.path.dirname(os.path.abspath(path))
    fd, temp = tempfile.mkstemp(prefix=".toolproof-", suffix=".tmp", dir=folder)
    return fill_temp(fd, text, keep_open=keep_open, unlink=lambda: os.unlink(temp),
                     rename=(lambda: _link_in(temp, path)) if exclusive else (lambda: os.replace(temp, path)))


def _link_in(temp: str, path: str) -> None:
    os.link(temp, path)              # FileExistsError when the name is taken: nothing is replaced
    os.unlink(temp)


def guarded_data_folders() -> list[Path]:
    """The data/ folders ToolProof reads its own suite from: the one in use, the checkout's and
    the installed package's (both may exist), resolved."""
    package = package_folder()
    return sorted({Path(os.path.realpath(p)) for p in (DATA, package / "data", package.parent / "data")
                   if p.is_dir()})


def in_data_folder(path: str | Path) -> bool:
    """Is `path` (through every link) inside one of ToolProof's own data/ folders, or a hard link
    to one of their files (another name for the same inode)?"""
    real = Path(os.path.realpath(path))
    if any(real == g or g in real.parents for g in guarded_data_folders()):
        return True
    key = file_key(path)
    return key[0] == "inode" and key in _data_file_keys()


def _data_file_keys() -> set:
    """The device and inode of every file in ToolProof's own data/ folders (a few dozen files)."""
    keys = set()
    for folder in guarded_data_folders():
        for where, _, names in os.walk(folder):
            keys.update(file_key(os.path.join(where, name)) for name in names)
    return keys


def _refuse_unwritable(path: str | Path, flag: str, makes_folders: bool) -> None:
    """A file that could not be written after the run is refused before it: an empty name, or a
    new file whose folder does not exist (unless the command makes it) or cannot be written."""
    if str(path) == "":
        raise ToolProofError(f"{flag}: an empty path; name a file", source="''")
    if os.path.lexists(path):
        return
    folder = os.path.dirname(os.path.abspath(path))
    while makes_folders and not os.path.lexists(folder) and folder != os.path.dirname(folder):
        folder = os.path.dirname(folder)       # the nearest folder that exists must take the new ones
    if not os.path.isdir(folder):
        raise ToolProofError(f"{flag}: no such folder ({folder}); make it first or choose another path",
                             source=str(path))
    if not os.access(folder, os.W_OK | os.X_OK):
        raise ToolProofError(f"{flag}: the folder cannot be written ({folder})", source=str(path))


def _refuse_data_folder(path: str | Path, flag: str) -> None:
    if in_data_folder(path):
        raise ToolProofError(f"{flag}: {IN_DATA}", source=str(path))


def file_key(path: str | Path) -> tuple:
    """What makes two names one file, however each is spelt (`x`, `./x`, absolute, a symlink, a
    hard link): the device and inode of a file that exists; else its real path (a file yet to
    be written, reached through its folders' symlinks or a dangling link's target)."""
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        try:
            return ("path", os.path.realpath(path))
        except (OSError, ValueError):       # a NUL in the name: nothing on disk can match it
            return ("path", str(path))
    return ("inode", info.st_dev, info.st_ino)


def _keeps_one_text(path: str) -> bool:
    """Would a second write to `path` replace the first? (A regular file or a new one; not a
    terminal, /dev/null or a pipe, which take both.)"""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return True


def check_outputs(writes: Iterable[tuple[str, str | Path | None]],
                  reads: Iterable[tuple[str, str | Path | None]] = (), *, makes_folders: bool = False) -> None:
    """Refuse, in one line and before a command reads, sends or writes anything, what would
    overwrite an input or lose an output: every verb with an output flag calls this first.

    `writes` are (flag, path) pairs and `reads` (what the line calls the input, path) pairs,
    defaults included (data/suite.json when --suite is not given); a None path is a flag not
    given. Refused: an empty path, a new file in a folder that does not exist (`makes_folders`:
    the command makes it, so the nearest that exists) or cannot be written (found after the run otherwise), an output that is one of the inputs (by file_key:
    one file through links, relative or absolute), two outputs that are one file (the second
    would replace the first), and an output inside ToolProof's own data/ folder or hard-linked
    to one of its files."""
    inputs: dict[tuple, str] = {}
    for what, path in reads:
        if path:
            inputs.setdefault(file_key(path), what)
    outputs: dict[tuple, str] = {}
    for flag, path in writes:
        if path is None:
            continue
        refuse_nul(path, flag)
        _refuse_unwritable(path, flag, makes_folders)
        key = file_key(path)
        if key in inputs:
            raise ToolProofError(f"{flag} names {inputs[key]} this command reads; choose another path",
                                 source=str(path))
        _refuse_data_folder(path, flag)
        if key in outputs and _keeps_one_text(str(path)):
            raise ToolProofError(f"{flag} and {outputs[key]} name the same file; choose a path for each",
                                 source=str(path))
        outputs.setdefault(key, flag)


def check_writable(paths: Iterable[str | Path], *, force: bool | None, flag: str = "--out") -> None:
    """Refuse to write any of `paths` inside ToolProof's own data/ (whatever the flags), or over
    an existing file (without --force), or over something that is not a regular file; one line
    naming the path and the fix."""
    for path in map(Path, paths):
        _refuse_data_folder(path, flag)
        if path.is_symlink() or (path.exists() and not path.is_file()):
            raise ToolProofError(f"{flag}: exists and is not a regular file; choose another path",
                                 source=str(path))
        if path.exists() and not force:     # force None: the command has no --force to offer
            fix = "choose a new path (run has no --force: a results file is never replaced)" if force is None else "choose a new path, or add --force to replace it"
            raise ToolProofError(f"{flag}: the file exists; {fix}", source=str(path))
