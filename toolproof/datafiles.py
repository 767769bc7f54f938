"""Read ToolProof's JSON files from disk: the one place the core's inputs touch the file system.

Used by the CLI and by the page (whose virtual file system holds the same data/ tree). Every
failure becomes a `ToolProofError` naming the path and the reason, so a bad file is refused
with one clear line instead of a traceback.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import ToolProofError
from .suite import Case, Tool, parse_suite, parse_tools
from .transcripts import TranscriptSet, parse_transcripts

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data"
SCHEMAS = DATA / "schemas"


def read_json(path: str | Path) -> Any:
    """Parse a JSON file, or refuse it with the path and what is wrong."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ToolProofError("no such file", source=str(path)) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ToolProofError(f"cannot read file ({exc.__class__.__name__}: {exc})", source=str(path)) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ToolProofError(f"not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})",
                             source=str(path)) from None
    except RecursionError:
        raise ToolProofError("JSON nested too deeply to read", source=str(path)) from None


def format_schema(name: str) -> dict:
    """The JSON Schema of one of our file formats: "tools", "suite" or "transcripts"."""
    return read_json(SCHEMAS / f"{name}.schema.json")


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
    parsed = parse_transcripts(docs["transcripts"], schemas["transcripts"], {c.id for c in cases},
                               paths["transcripts"])
    return Bundle(parsed_tools, cases, parsed, docs)


def load_bundle(*, tools: str | Path | None = None, suite: str | Path | None = None,
                transcripts: str | Path | None = None) -> Bundle:
    """Load and cross-check the three files (data/ defaults)."""
    return bundle_from(read_documents(tools=tools, suite=suite, transcripts=transcripts))
