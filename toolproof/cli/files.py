"""Files the CLI writes: the results file of `run --out` (written whole or not at all, after
every case), and the outputs of `tools import --out` and `suite import-bfcl --out`.

Only the writing (a temp file, fsync, os.replace), the results file's exact text, and which
places may be written at all: never the project's own data/ (nor an installed package's), never
over an existing file without --force. What goes in a document is the callers' business, and
nothing here prints.
"""
from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path

from toolproof.datafiles import DATA, package_folder
from toolproof.errors import ToolProofError


def write_atomic(path: str, text: str) -> None:
    """Replace `path` with `text` in one step: a temp file in the same folder, then os.replace,
    so a crash or kill mid-write leaves the previous complete file, never half of one."""
    folder = os.path.dirname(os.path.abspath(path))
    fd, temp = tempfile.mkstemp(prefix=".toolproof-", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise


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


class ResultsText:
    """The results file's text, `json.dumps(document, indent=2)` exactly, with each transcript
    encoded once: the file is rewritten after every case, and re-encoding every transcript each
    time made a run with repeats quadratic (minutes for 72 cases x 4)."""

    def __init__(self) -> None:
        self._texts: dict[int, tuple[dict, str]] = {}     # id -> (the transcript, kept alive; its text)

    def _item(self, transcript: dict) -> str:
        cached = self._texts.get(id(transcript))
        if cached is None or cached[0] is not transcript:
            text = json.dumps(transcript, ensure_ascii=False, indent=2, allow_nan=False)
            cached = self._texts[id(transcript)] = (transcript, "\n".join("    " + line for line in text.split("\n")))
        return cached[1]

    def __call__(self, document: dict) -> str:
        head = json.dumps({k: v for k, v in document.items() if k != "transcripts"},
                          ensure_ascii=False, indent=2, allow_nan=False)
        items = [self._item(t) for t in document["transcripts"]]
        listing = "[\n" + ",\n".join(items) + "\n  ]" if items else "[]"
        return head[:-2] + ',\n  "transcripts": ' + listing + "\n}\n"       # head ends "\n}"


def save(path: str, document: dict, text: ResultsText | None = None) -> None:
    """Write the results file, or say in one line why it cannot be written."""
    try:
        write_atomic(path, (text or ResultsText())(document))
    except OSError as exc:
        raise ToolProofError(f"cannot write the results file ({exc.strerror or exc.__class__.__name__})",
                             source=path) from None
