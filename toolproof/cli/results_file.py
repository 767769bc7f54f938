"""The results file of `run --out` (and of each model in `--out-dir`), kept as the run goes.

The text is grading/results_text.py's (one transcript a line, what changes last); this module
only writes it, at a cost linear in what is saved:
- `save(document)` (before the first request, then after every case): the first time, the whole
  file, made as a temp file and renamed into place (cli/files.write_atomic), and kept open;
  afterwards the file is cut back to the end of its last transcript line and the new lines and
  the tail are written there in one write. So every byte is written about once, however long
  the run, and a run killed at any moment leaves the lines written before plus the first part
  of one write, which the readers recover (results_text.recover);
- `finish(document)`: the last save. Transcripts are appended in the order they finish; when
  several are in flight that is not the plan's order, so the file is then written whole once
  more, in plan order, atomically (a kill meanwhile leaves the appended file). The document is
  first fitted under the reading limit (results_text.fitted), so the file always reads back.
The file is flushed to the system after every save (a killed process loses nothing written) and
synced to the disk at most once per `SYNC_S` seconds and at the end (a power cut mid-run may
lose the last second; syncing every case cost more than the rest of the writing).

Nothing here prints; a write that fails is one ToolProofError naming the file.
"""
from __future__ import annotations

import os
import time

from toolproof.errors import ToolProofError
from toolproof.grading.results_refs import compact
from toolproof.grading.results_text import ResultsText, fitted, head_of
from toolproof import limits

from .files import write_atomic
from .folder import HeldPath, write_all

SYNC_S = 1.0


class ResultsFile:
    """One run's results file, written as the run goes (see the module's docstring)."""

    def __init__(self, path: str, *, limit: int | None = None, sync_s: float = SYNC_S, clock=time.monotonic,
                 replace: bool = False):
        self.path, self.sync_s, self.clock = path, sync_s, clock
        self.replace = replace         # --force: the first save may replace a file already there
        self._identity = None          # (device, inode) of the file this run made
        self.moved = False             # the path named another file (or none) when it was written again
        self.limit = limits.MAX_FILE_BYTES if limit is None else limit     # the readers' bound
        self._handle = None            # the file, open unbuffered, while the run appends
        self._text = ResultsText()     # the pieces of the file as written so far
        self._head = ""                # the first line's document part, to see it never changes
        self._written: dict[int, dict] = {}   # id -> transcript, each written (kept alive: ids stay unique)
        self._order: list[int] = []    # their ids in file order
        self._previous: list = []      # the document's transcripts at the last save
        self._end = 0                  # bytes up to the end of the last transcript line
        self._size = 0                 # bytes in the file
        self._synced = 0.0
        self.full = False              # a transcript did not fit under the limit: no more appends
        self.bytes_written = 0         # every byte written, over the run (what the linear-cost test reads)
        self.largest = 0               # the longest transcript line written, in bytes

    @property
    def size(self) -> int:
        return self._size

    def save(self, document: dict) -> None:
        """Keep the file up to date with `document` (the run's, as it stands)."""
        try:
            if self._handle is None or compact(head_of(document)) != self._head:
                self._rewrite(document)
            elif not self.full:
                self._append(document)
        except OSError as exc:
            raise _cannot_write(exc, self.path) from None

    def finish(self, document: dict) -> tuple[dict, int]:
        """The last save: the whole run, in the document's (plan) order, within the reading limit.
        Returns the document as written (without what did not fit) and how many transcripts were
        left out to fit (each listed in its `not_started`)."""
        try:
            if self._handle is not None and not self.full and compact(head_of(document)) == self._head \
                    and [id(t) for t in document["transcripts"]] == self._order and self._append(document):
                os.fsync(self._handle.fileno())     # already in plan order: only the tail changed
                return document, 0
            text, written, left_out = fitted(document, self.limit)
            data = text.encode("utf-8")
            if self._handle is not None and not self._ours():
                self._in_place(data)
            else:
                self.close()
                write_atomic(self.path, data)
            self.bytes_written += len(data)
            self._size = len(data)
            return written, left_out
        except OSError as exc:
            raise _cannot_write(exc, self.path) from None
        finally:
            self.close()

    def _ours(self) -> bool:
        """Does the path still name the file this run made? (Moved away, or replaced by another
        run's file, it does not: that file is never written over.)"""
        if self._identity is None or isinstance(self.path, HeldPath):
            return True
        try:
            info = os.stat(self.path, follow_symlinks=False)
        except OSError:
            return False
        return (info.st_dev, info.st_ino) == self._identity

    def _in_place(self, data: bytes) -> None:
        """The whole text written into the file this run made, through its handle, wherever that
        file now is (the path names another file, or none)."""
        self.moved = True
        handle = self._handle
        handle.seek(0)
        handle.truncate()
        write_all(handle, data)
        os.fsync(handle.fileno())

    def close(self) -> None:
        if self._handle is not None:
            handle, self._handle = self._handle, None
            handle.close()

    def _rewrite(self, document: dict) -> None:
        """The whole file at once, atomically, kept open (the first save, or a changed first line)."""
        self._text = ResultsText()
        lines = self._text.head(document) + "".join(self._text.item(t) for t in document["transcripts"])
        body = lines.encode("utf-8")
        data = body + self._text.close(document).encode("utf-8")
        if self._handle is not None and not self._ours():
            self._in_place(data)
        else:
            self.close()
            # the first save makes the file only if no file has its name (unless --force): two runs
            # started with one --out, or a file put there after the command's check, are never
            # overwritten; a held folder's file (--out-dir) is made that way by the folder
            exclusive = self._identity is None and not self.replace and not isinstance(self.path, HeldPath)
            try:
                self._handle = write_atomic(self.path, data, keep_open=True, exclusive=exclusive)
            except FileExistsError:
                raise ToolProofError("a file with this name appeared after the check (another run "
                                     "writing it?); it is left as it is: choose a new path", source=self.path) from None
            info = os.fstat(self._handle.fileno())
            self._identity = (info.st_dev, info.st_ino)
        self._head = compact(head_of(document))
        self._written = {id(t): t for t in document["transcripts"]}
        self._previous = list(document["transcripts"])
        self._order = [id(t) for t in document["transcripts"]]
        self._end, self._size, self._synced = len(body), len(data), self.clock()
        self.bytes_written += len(data)
        self.full = len(data) > self.limit

    def _append(self, document: dict) -> bool:
        """The new transcripts' lines and the tail, written after the last line in one write; False
        (nothing written, no more appends) when that would take the file over the limit."""
        transcripts = document["transcripts"]
        new = self._new(transcripts)
        self._previous = list(transcripts)
        lines = []
        for transcript in new:
            line = self._text.item(transcript).encode("utf-8")
            self.largest = max(self.largest, len(line))
            lines.append(line)
            self._written[id(transcript)] = transcript
            self._order.append(id(transcript))
        body = b"".join(lines)
        data = body + self._text.close(document).encode("utf-8")
        if self._end + len(data) > self.limit:
            self.full = True           # kept in memory: finish() writes what fits
            return False
        handle = self._handle
        handle.seek(self._end)
        handle.truncate()              # first cut back, then write: a kill leaves whole lines + part of one write
        write_all(handle, data)
        self._end += len(body)
        self._size = self._end + len(data) - len(body)
        self.bytes_written += len(data)
        if self.clock() - self._synced >= self.sync_s:
            os.fsync(handle.fileno())
            self._synced = self.clock()
        return True

    def _new(self, transcripts: list) -> list:
        """The transcripts not written yet, in the document's order. A run saves after each case,
        so the list is the last save's with one inserted: found by bisection (a scan of the whole
        list per save made a long run quadratic again); anything else is looked up in full."""
        before = self._previous
        if len(transcripts) == len(before) + 1:
            low, high = 0, len(before)
            while low < high:                   # the first place the two lists differ
                middle = (low + high) // 2
                if transcripts[middle] is before[middle]:
                    low = middle + 1
                else:
                    high = middle
            inserted = transcripts[low]
            if id(inserted) not in self._written and (low == len(before) or transcripts[low + 1] is before[low]):
                return [inserted]
        return [t for t in transcripts if id(t) not in self._written]


def _cannot_write(exc: OSError, path: str) -> ToolProofError:
    return ToolProofError(f"cannot write the results file ({exc.strerror or exc.__class__.__name__})", source=path)
