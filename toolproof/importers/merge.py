"""Several sources in one tools file (`tools import A B --mcp-stdio C`): two MCP servers that both
expose `search` keep both, apart by id, and neither is renamed (the model sees `search` either
way; a case offers one of them).

A tool whose name no other source uses keeps its name as its id, so one source alone, or sources
with distinct names, import exactly as before. A name that two or more sources use gets
`<name>@<source label>` as id in every source that has it: the label is the file's stem
(`servers/github.json` -> `github`) or, for an MCP command, its program: the first word that is
neither a flag nor a launcher (`npx -y @modelcontextprotocol/server-github` -> `server-github`,
`python -m mcp_server_time` -> `mcp_server_time`), with characters outside
an id's replaced by `_`, made unique by `-2`, `-3`. Two tools of one name inside one source stay
what they were: refused when the file loads, since nothing tells them apart.

Pure: no I/O.
"""
from __future__ import annotations

import re

_NOT_ID = re.compile(r"[^A-Za-z0-9_.:@/+-]")
_LAUNCHER = re.compile(r"^(python[0-9.]*|node|npx|uvx|uv|run|deno|bun|bunx|pipx|docker|java|sh|bash|cmd|env)$",
                       re.IGNORECASE)
MAX_LABEL = 60


def source_label(source: str) -> str:
    """A short label for a source: a file path's stem, or an MCP command's program (its first
    word that is neither a flag nor a launcher such as python, node, npx or uvx)."""
    words = [w for w in re.split(r"\s+", source.strip()) if w and not w.startswith("-")]
    stems = [_stem(w) for w in words]
    named = [s for s in stems if s and not _LAUNCHER.match(s)]
    label = _NOT_ID.sub("_", named[0] if named else (stems[0] if stems else "")).replace("@", "_")[:MAX_LABEL]
    return label or "source"


def _stem(word: str) -> str:
    stem = re.split(r"[\\/]", word.rstrip("/\\"))[-1]
    return re.sub(r"\.(json|jsonl|js|mjs|cjs|ts|py|exe|txt)$", "", stem, flags=re.IGNORECASE).strip(".")


def unique_labels(sources: list[str]) -> list[str]:
    """One label per source, in order; a repeated label gets -2, -3 ..."""
    seen: dict[str, int] = {}
    out = []
    for source in sources:
        label = source_label(source)
        seen[label] = seen.get(label, 0) + 1
        out.append(label if seen[label] == 1 else f"{label}-{seen[label]}")
    return out


def merged_records(sources: list[tuple[str, list[dict]]]) -> list[dict]:
    """Records of every source, in order, each tool whose name another source also uses given
    the id `<name>@<label>`. `sources`: (label, records) pairs, labels already unique."""
    used_by: dict[str, set[str]] = {}
    for label, records in sources:
        for record in records:
            used_by.setdefault(record["name"], set()).add(label)
    out = []
    for label, records in sources:
        for record in records:
            if len(used_by[record["name"]]) > 1 and "id" not in record:
                record = {**record, "id": f"{record['name']}@{label}"[:200]}
            out.append(record)
    return out
