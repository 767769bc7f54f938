"""A folder held open by its handle, for `run --out-dir`: every results file of a run with several
models is written (and read back for the board) through that handle, and where such a folder may
be is checked on the handle itself, so the folder checked is the folder written.

The folder is opened once, without following a symlink in its last part (O_NOFOLLOW). If it is
then moved, or swapped for a symlink to another place, the files still land in the folder that was
checked, and nothing is written outside it. Each file is written as files.write_atomic writes
(a temp file, fsync, a rename), but by name relative to the handle (dir_fd).

Where a folder may be (`place_problem`): never the file-system root, the user's home folder or one
of its parents, never inside ToolProof's own data/. The home folder is HOME when that is an
absolute path, and also, always, the one the password database gives for the current user (an
empty HOME is unknown, not "no home": it let a parent of the home folder through). Folders are
compared by identity (device and inode), whatever links lead to them.

An edge (the file system); no printing. It does not import files.py (which imports it for
write_atomic): the callers hand it the data folders.
"""
from __future__ import annotations

import contextlib
import errno
import os
import secrets
from collections.abc import Iterable, Mapping
from pathlib import Path

from toolproof.datafiles import json_from_text, read_file_bytes
from toolproof.errors import ToolProofError

try:
    import pwd
except ImportError:                 # no password database (Windows): HOME alone names the home folder
    pwd = None

# Every call the handle needs takes dir_fd here (Linux, macOS, the BSDs); elsewhere the folder is
# written by its path as before.
HELD = all(hasattr(os, name) for name in ("O_DIRECTORY", "O_NOFOLLOW")) and \
    {os.open, os.rename, os.unlink, os.stat} <= os.supports_dir_fd

TOO_BROAD = ("is the home folder, one of its parents or the file-system root; choose a folder of its own, "
             "e.g. runs/")
IN_DATA = "refusing to write into ToolProof's own data folder (the committed suite); choose another folder"

Key = tuple[int, int]


def home_folders(environ: Mapping[str, str]) -> list[Path]:
    """The current user's home folders: HOME when it is an absolute path (empty or relative:
    unknown) and the password database's, when the platform has one."""
    found = []
    home = environ.get("HOME") or ""
    if os.path.isabs(home):
        found.append(Path(home))
    if pwd is not None:
        with contextlib.suppress(KeyError, OSError):       # a uid with no entry (a container's)
            found.append(Path(pwd.getpwuid(os.getuid()).pw_dir))
    return found


def _key(info: os.stat_result) -> Key:
    return info.st_dev, info.st_ino


def _keys_of(paths: Iterable[Path]) -> set[Key]:
    keys = set()
    for path in paths:
        with contextlib.suppress(OSError, ValueError):
            keys.add(_key(os.stat(path)))
    return keys


def broad_keys(environ: Mapping[str, str]) -> set[Key]:
    """The folders a folder of results may not be: the root, each home folder and its parents."""
    chains = [[home, *home.parents] for home in home_folders(environ)]
    return _keys_of([Path(os.path.abspath(os.sep)), *(p for chain in chains for p in chain)])


def chain(fd: int) -> list[Key]:
    """The folder open at `fd`, then each of its parents up to the root, by identity: found by
    `..` through handles, so no path (and no link on one) is read again. A parent that cannot be
    opened (no search permission) ends the chain there."""
    keys: list[Key] = []
    current = os.dup(fd)
    try:
        while True:
            key = _key(os.fstat(current))
            if key in keys:             # the root is its own parent
                return keys
            keys.append(key)
            try:                        # O_PATH (Linux) needs no read permission on the parent
                parent = os.open("..", getattr(os, "O_PATH", os.O_RDONLY) | os.O_DIRECTORY, dir_fd=current)
            except OSError:
                return keys
            os.close(current)
            current = parent
    finally:
        os.close(current)


def path_chain(folder: Path) -> list[Key]:
    """chain() for a folder named by a path, before any handle is held: its real path, then each
    parent of that, by identity (only search permission is needed, as for any write)."""
    real = Path(os.path.realpath(folder))
    return [_key(os.stat(p)) for p in (real, *real.parents)]


def place_problem(keys: list[Key], *, exists: bool, environ: Mapping[str, str],
                  data_folders: Iterable[Path]) -> str | None:
    """Why a folder (keys: itself, then its parents) may not receive results, or None. `exists`
    False: the keys are the nearest existing parent's, the folder is still to be made (so it can
    be none of the broad ones, only inside data/)."""
    if exists and keys and keys[0] in broad_keys(environ):
        return TOO_BROAD
    if _keys_of(data_folders) & set(keys):
        return IN_DATA
    return None


def refuse_nul(path: str | Path, flag: str) -> None:
    """A NUL character ends a name for the system: no file can be called that (only a caller
    in-process can pass one; a shell cannot), so it is refused before any check reads it."""
    if "\0" in str(path):
        raise ToolProofError(f"{flag}: a file name cannot hold a NUL character", source=str(path))


def check_place(folder: Path, *, environ: Mapping[str, str], data_folders: Iterable[Path],
                flag: str = "--out-dir") -> None:
    """place_problem for a folder named by its path (it may not exist yet): the nearest existing
    folder on its path, with the links on the way followed as a write would follow them, and its
    parents. The folder itself may not be a symlink: HeldFolder opens it without following one."""
    refuse_nul(folder, flag)
    try:
        if Path(folder).is_symlink():
            raise ToolProofError(f"{flag}: is a symbolic link; name the folder it points to", source=str(folder))
        target, exists = Path(folder), True
        while not target.is_dir():
            if target.exists() or target.is_symlink():      # a file (or a broken link) where a folder must be
                where = "" if target == Path(folder) else f" ({target} on its path)"
                raise ToolProofError(f"{flag}: exists and is not a folder{where}", source=str(folder))
            target, exists = target.parent, False
        keys = path_chain(target)
    except OSError as exc:              # a name too long, a folder on the way not searchable
        raise ToolProofError(f"{flag}: cannot use this path ({exc.strerror or exc.__class__.__name__})",
                             source=str(folder)) from None
    problem = place_problem(keys, exists=exists, environ=environ, data_folders=data_folders)
    if problem:
        raise ToolProofError(f"{flag}: {problem}", source=str(folder))


def fill_temp(fd: int, text: str | bytes, *, rename, unlink, keep_open: bool):
    """The second half of an atomic write, the same for a path and for a held folder: `text` into
    the temp file open as `fd`, synced, then `rename` puts it in place; on any failure the temp
    file goes (`unlink`). Returns the file open (unbuffered, read and write) when `keep_open`."""
    data = text.encode("utf-8") if isinstance(text, str) else text
    try:
        handle = os.fdopen(fd, "r+b", buffering=0)
        try:
            write_all(handle, data)
            os.fsync(handle.fileno())
            rename()
        except BaseException:
            handle.close()
            raise
    except BaseException:
        with contextlib.suppress(OSError):
            unlink()
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


class HeldPath(str):
    """A file in a held folder: the path as shown (a str, so lines and documents print it as
    before), with the folder whose handle its writes and reads go through."""
    folder: HeldFolder
    name: str

    def __new__(cls, folder: HeldFolder, name: str) -> HeldPath:
        self = super().__new__(cls, os.path.join(folder.shown, name))
        self.folder, self.name = folder, name
        return self


class HeldFolder:
    """A folder opened once; files are made, replaced and read in it by name through its handle."""

    def __init__(self, folder: Path, flag: str = "--out-dir") -> None:
        self.shown, self.flag = str(folder), flag
        self._made: set[str] = set()        # the files this handle made: only those are ever replaced
        try:
            self.fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0))
        except OSError as exc:          # ELOOP: the folder is now a symlink; ENOTDIR: now a file
            changed = "; it changed after it was checked" if exc.errno in (errno.ELOOP, errno.ENOTDIR) else ""
            raise ToolProofError(f"{flag}: cannot open the folder ({exc.strerror or exc.__class__.__name__})"
                                 f"{changed}", source=self.shown) from None

    def __enter__(self) -> HeldFolder:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        with contextlib.suppress(OSError):
            os.close(self.fd)

    def path(self, name: str) -> HeldPath:
        return HeldPath(self, name)

    def check(self, *, environ: Mapping[str, str], data_folders: Iterable[Path]) -> None:
        """place_problem on the handle: the folder that will be written, not the one a path names now."""
        problem = place_problem(chain(self.fd), exists=True, environ=environ, data_folders=data_folders)
        if problem:
            raise ToolProofError(f"{self.flag}: {problem}", source=self.shown)

    def write_atomic(self, name: str, text: str | bytes, *, keep_open: bool = False):
        """Replace `name` in the folder with `text` in one step: a new temp file beside it (never
        one that exists, never through a link), fsync, then a rename, all through the handle. The
        first write of a name makes it only if it does not exist (FileExistsError: a file that
        appeared after the check is not replaced); later writes replace what this handle made.
        `keep_open`, as files.write_atomic's: the written file is returned open (unbuffered, read
        and write), so appending goes on in the very file made here."""
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
        if name not in self._made:
            os.close(os.open(name, flags, 0o600, dir_fd=self.fd))       # FileExistsError when taken
            self._made.add(name)
        for _ in range(100):
            temp = f".toolproof-{secrets.token_hex(8)}.tmp"
            try:
                fd = os.open(temp, flags & ~os.O_WRONLY | os.O_RDWR, 0o600, dir_fd=self.fd)
                break
            except FileExistsError:
                continue
        else:
            raise FileExistsError(f"no free temp name in {self.shown}")
        return fill_temp(fd, text, keep_open=keep_open,          # the rename replaces a link, never follows it
                         rename=lambda: os.rename(temp, name, src_dir_fd=self.fd, dst_dir_fd=self.fd),
                         unlink=lambda: os.unlink(temp, dir_fd=self.fd))

    def read_json(self, name: str) -> object:
        """A file of the folder as JSON, read as datafiles.read_json reads any file (a regular file,
        within the limits), through the handle."""
        shown = str(self.path(name))
        try:
            data = read_file_bytes(Path(name), dir_fd=self.fd)
            return json_from_text(data.decode("utf-8"), shown)
        except UnicodeDecodeError as exc:
            raise ToolProofError(f"cannot read file ({exc.__class__.__name__}: {exc})", source=shown) from None
        except ToolProofError as exc:
            if exc.source == shown:
                raise
            raise ToolProofError(exc.reason, source=shown, path=exc.path) from None

