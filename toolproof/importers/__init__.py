"""Tool definitions from any common shape, as plain records (see _record.py): one module per
source, `tools_from_<source>(doc) -> list[dict]`, plus `detect` to pick the source. Text becomes
JSON before it reaches them, through datafiles.json_from_text (the one file-JSON reader). Shared
by the CLI (`tools import`, `tools lint`) and the page. Pure: no I/O; the MCP stdio client that starts a server lives at the edge (mcp_stdio.py).
"""
from __future__ import annotations

from typing import Any

from toolproof.errors import ToolProofError

from .anthropic import tools_from_anthropic
from .detect import LABELS, SHAPES, detect_shape
from .gemini import tools_from_gemini
from .mcp import tools_from_mcp
from .merge import merged_records, source_label, unique_labels
from .openai import tools_from_openai_chat, tools_from_openai_responses
from .toolproof import tools_from_toolproof

IMPORTERS = {"mcp": tools_from_mcp, "openai-chat": tools_from_openai_chat,
             "openai-responses": tools_from_openai_responses, "anthropic": tools_from_anthropic,
             "gemini": tools_from_gemini, "toolproof": tools_from_toolproof}


def tools_from_any(doc: Any) -> tuple[str, list[dict]]:
    """(shape, records) for a document of any of the six shapes; the first tool that cannot be
    read raises (lint reads a whole file or says why not)."""
    shape = detect_shape(doc)
    return shape, IMPORTERS[shape](doc)


def readable_tools(doc: Any) -> tuple[str, list[dict], list[tuple[str, ToolProofError]]]:
    """(shape, the records of every tool that can be read, (name, why) of each that cannot): what
    an import keeps, in the page and the terminal alike. Raises only for a document that is not
    tool definitions at all (no shape, no tool list)."""
    shape = detect_shape(doc)
    records = IMPORTERS[shape](doc, keep_unread=True)
    return (shape, [r for r in records if "unread" not in r],
            [(r["name"], r["unread"]) for r in records if "unread" in r])


__all__ = ["IMPORTERS", "LABELS", "SHAPES", "detect_shape", "merged_records", "readable_tools", "source_label",
           "unique_labels", "tools_from_any",
           "tools_from_anthropic", "tools_from_gemini", "tools_from_mcp", "tools_from_openai_chat",
           "tools_from_openai_responses", "tools_from_toolproof"]
