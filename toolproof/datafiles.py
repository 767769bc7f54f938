"""Read ToolProof's JSON files from disk: the one place the core's inputs touch the file system.

Used by the CLI and by the page (whose virtual file system holds the same data/ tree). Every
failure becomes a `ToolProofError` naming the path and the reason, so a bad file is refused
with one clear line instead of a traceback.
"""
from __future__ import annotations

import os
import stat
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import limits
from .errors import ToolProofError
from toolproof.suite.load import parse_suite, parse_tools
from toolproof.suite.model import Case, Tool
from toolproof.grading.results_text import recover
from toolproof.grading.transcripts import TranscriptSet, known_ids, parse_transcripts
from toolproof.worlds.load import load_worlds
from toolproof.worlds.shape import document_from_text


def locate_data(package: Path) -> Path:
    """The data/ tree of the `toolproof` package found at `package`.

    An installed wheel carries it inside the package (setup.py maps the repository's data/ to
    toolproof/data/). A checkout, and the page's virtual file system, hold toolproof/ and data/
    side by side. The packaged copy wins, so an installed toolproof never reads a stray `data`
    folder that another distribution left in site-packages. When neither exists, the packaged
    path is returned, so the "no such file" line names where the install should have put it.
    """
    packaged, beside = package / "data", package.parent / "data"
    return beside if not packaged.is_dir() and beside.is_dir() else packaged


def package_folder() -> Path:
    """Where the installed `toolproof` package lives, whatever the working directory.

    importlib.resources answers for any installed package. The page (Pyodide, sys.platform
    "emscripten") holds the package as plain files in its virtual file system, where the same
    folder is the module's own, and importing importlib.resources there would cost about 45 ms
    of start-up for that same answer.
    """
    if sys.platform == "emscripten":
        return Path(__file__).resolve().parent
    from importlib.resources import files       # lazy: 45 ms of the page's start-up (above)
    return Path(str(files("toolproof")))


DATA = locate_data(package_folder())
SCHEMAS = DATA / "schemas"
WORLDS = DATA / "worlds"


def read_json(path: str | Path) -> Any:
    """Parse a JSON file, or refuse it with the path and what is wrong.

    Only a regular file of at most 20 MB is read (a FIFO, a device or a directory is refused at
    once instead of hanging or filling memory), and its JSON goes through the same limits as a
    model's reply (toolproof.limits: depth, integer digits, no NaN)."""
    path = Path(path)
    data = read_file_bytes(path)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        if exc.end != len(data) or exc.reason != "unexpected end of data":
            raise not_utf8(exc, str(path)) from None
        # cut inside its last character (a results file whose last write was cut short): read
        # without it, as a browser reads such a file (the JSON then says what is missing)
        text = data[:exc.start].decode("utf-8")
    return json_from_text(text, str(path))


def not_utf8(exc: UnicodeDecodeError, source: str) -> ToolProofError:
    """The one refusal of a file that is not UTF-8: the first bad byte and where it is."""
    return ToolProofError(f"not UTF-8 text (byte 0x{exc.object[exc.start]:02X} at position {exc.start:,})",
                          source=source)


def json_from_text(text: str, source: str) -> Any:
    """A file's JSON text (read from disk, or chosen in the page) through the same limits as a
    model's reply, or a ToolProofError naming `source` and what is wrong. A results file cut
    short mid-write is read up to its last whole transcript (grading/results_text.recover),
    and says so (`"state": "cut short"`, shown by every scorecard as a note)."""
    try:
        return limits.read_json(text, what="file", max_bytes=limits.MAX_FILE_BYTES)
    except limits.ReadError as exc:
        # a results file whose last write was cut short (a killed run) reads back its whole lines
        found = recover(text) if exc.decode_error is not None and isinstance(text, str) else None
        if found is not None:
            try:
                return limits.read_json(found[0], what="file", max_bytes=limits.MAX_FILE_BYTES)
            except limits.ReadError:
                pass
        raise ToolProofError(exc.in_file(), source=source) from None


def refuse_larger(size: int, source: str) -> None:
    """Refuse a file over the input bound (limits.MAX_FILE_BYTES) by its size, before its text is
    parsed: the terminal's files, and the files chosen in the page (whose size is known first).
    The line names the size and the limit (limits.size_refusal)."""
    reason = limits.size_refusal(size)
    if reason:
        raise ToolProofError(f"file is {reason}", source=source)


_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a device"),
          (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket"))


def read_file_bytes(path: Path, *, dir_fd: int | None = None) -> bytes:
    """The bytes of a regular file of bounded size. Opened without blocking (a FIFO would wait
    for a writer) and checked on the open descriptor, so the file checked is the file read.
    `dir_fd`: `path` is relative to that folder's handle (run --out-dir reads its files so)."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags, dir_fd=dir_fd)
    except FileNotFoundError:
        raise ToolProofError("no such file", source=str(path)) from None
    except OSError as exc:
        raise ToolProofError(f"cannot read file ({exc.__class__.__name__}: {exc})", source=str(path)) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            kind = next((name for test, name in _KINDS if test(info.st_mode)), "not a file")
            raise ToolProofError(f"not a regular file ({kind})", source=str(path))
        limit = limits.MAX_FILE_BYTES
        refuse_larger(info.st_size, str(path))
        chunks, size = [], 0
        while size <= limit:                 # the file may grow after fstat: read one byte past
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        refuse_larger(size, str(path))
        return b"".join(chunks)
    except OSError as exc:
        raise ToolProofError(f"cannot read file ({exc.__class__.__name__}: {exc})", source=str(path)) from None
    finally:
        os.close(fd)


def format_schema(name: str) -> dict:
    """The JSON Schema of one of our formats: "tools", "suite", "transcripts", "scorecard" or
    "errata"."""
    return read_json(SCHEMAS / f"{name}.schema.json")


def load_errata(path: str | Path | None = None):
    """The errata (suite/errata.py `Errata`) of the committed suite, data/errata.json, or of `path`,
    checked."""
    # lazy: the page reads the errata only when a kept run is reopened, never at start-up
    from toolproof.suite.errata import parse_errata

    path = Path(path or DATA / "errata.json")
    return parse_errata(read_json(path), format_schema("errata"), str(path))


@dataclass(frozen=True)
class Bundle:
    """Everything a grading run reads: tools, cases and transcripts, plus their raw documents."""
    tools: dict[str, Tool]
    cases: list[Case]
    transcripts: TranscriptSet
    documents: dict


def read_documents(*, tools: str | Path | None = None, suite: str | Path | None = None,
                   transcripts: str | Path | None = None) -> dict:
    """Read the three files and the format schemas (data/ defaults), without checking them yet."""
    paths = {"tools": Path(tools or DATA / "tools.json"), "suite": Path(suite or DATA / "suite.json"),
             "transcripts": Path(transcripts or DATA / "fixtures.json")}
    return {"paths": {k: str(v) for k, v in paths.items()},
            "docs": {k: read_json(v) for k, v in paths.items()},
            "schemas": {k: format_schema(k) for k in paths}}


def bundle_from(read: dict) -> Bundle:
    """Check and cross-check what read_documents read."""
    docs, schemas, paths = read["docs"], read["schemas"], read["paths"]
    parsed_tools = parse_tools(docs["tools"], schemas["tools"], paths["tools"])
    cases = parse_suite(docs["suite"], parsed_tools, schemas["suite"], paths["suite"])
    parsed = parse_transcripts(docs["transcripts"], schemas["transcripts"], known_ids(cases),
                               paths["transcripts"])
    return Bundle(parsed_tools, cases, parsed, docs)


def load_bundle(*, tools: str | Path | None = None, suite: str | Path | None = None,
                transcripts: str | Path | None = None) -> Bundle:
    """Load and cross-check the three files (data/ defaults)."""
    return bundle_from(read_documents(tools=tools, suite=suite, transcripts=transcripts))


def load_suite_files(*, suite: str | Path | None = None, tools: str | Path | None = None) -> Bundle:
    """Tools and suite only (data/ defaults), for a run or a comparison: no transcripts are read,
    so a suite of one's own is not cross-checked against the committed fixtures (the bundle's
    transcripts are None)."""
    paths = {"tools": Path(tools or DATA / "tools.json"), "suite": Path(suite or DATA / "suite.json")}
    docs = {k: read_json(v) for k, v in paths.items()}
    parsed_tools = parse_tools(docs["tools"], format_schema("tools"), str(paths["tools"]))
    cases = parse_suite(docs["suite"], parsed_tools, format_schema("suite"), str(paths["suite"]))
    return Bundle(parsed_tools, cases, None, docs)


def read_world_doc(path: str | Path) -> Any:
    """A world file's document: a regular file within the input bound, UTF-8, its JSON within
    `limits`, no key twice in one object (worlds/shape.document_from_text)."""
    path = Path(path)
    data = read_file_bytes(path)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise not_utf8(exc, str(path)) from None
    return document_from_text(text, str(path))


def load_world_files(paths) -> dict:
    """{world id: World} of these world files, in the given order (worlds/load.load_worlds: world
    and scenario ids unique across them). A file is named after its world: <id>.json."""
    docs = {str(Path(p)): read_world_doc(p) for p in paths}
    worlds = load_worlds(docs)
    for source, world in zip(docs, worlds.values()):
        check_world_name(world, source)
    return worlds


def check_world_name(world, source: str) -> None:
    """A world file is named after its world, <id>.json (ToolProofError naming the file if not):
    the rule for files on disk and for a file chosen in the page alike."""
    if Path(source).name != f"{world.id}.json":
        raise ToolProofError(f"the world's id is {world.id!r}, so its file is named {world.id}.json",
                             source=source, path="$.id")


def bundled_worlds(folder: str | Path | None = None) -> dict:
    """{world id: World} of data/worlds/*.json (or `folder`), in file-name order; {} when the
    folder is missing (an install without scenarios still grades its cases)."""
    folder = Path(folder or WORLDS)
    if not folder.is_dir():
        return {}
    return load_world_files(sorted(folder.glob("*.json")))
