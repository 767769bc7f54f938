"""MCP tool definitions: a `tools/list` result `{"tools": [{name, description, inputSchema,
annotations}]}`, the whole JSON-RPC response around it, or a bare array of such tools.

Also the JSON-RPC messages an MCP client sends to list a server's tools, and the reading of the
server's replies, so the stdio edge (toolproof/mcp_stdio.py) only moves bytes. Annotations
(readOnlyHint, destructiveHint, ...) are kept. Pure: no I/O.
"""
from __future__ import annotations

import json
from typing import Any

from toolproof import limits
from toolproof.errors import ToolProofError
from ._record import each_tool, need_dict, record, tool_list

PROTOCOL_VERSION = "2025-11-25"


def tools_from_mcp(doc: Any, *, keep_unread: bool = False) -> list[dict]:
    parts: list = []
    if isinstance(doc, dict) and "jsonrpc" in doc:
        doc = need_dict(doc.get("result"), ["result"], "the JSON-RPC 'result'")
        parts = ["result"]
    items, inner = tool_list(doc)
    return each_tool(items, parts + inner, lambda item, here: record(
        need_dict(item, here, "an MCP tool"), here, schema_key="inputSchema", annotations=True), keep_unread=keep_unread)


def initialize_request(request_id: int, client_version: str) -> dict:
    return {"jsonrpc": "2.0", "id": request_id, "method": "initialize",
            "params": {"protocolVersion": PROTOCOL_VERSION, "capabilities": {},
                       "clientInfo": {"name": "toolproof", "version": client_version}}}


def initialized_notification() -> dict:
    return {"jsonrpc": "2.0", "method": "notifications/initialized"}


def tools_list_request(request_id: int, cursor: str | None) -> dict:
    params = {} if cursor is None else {"cursor": cursor}
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/list", "params": params}


def encode(message: dict) -> bytes:
    """One stdio frame: the JSON on one line (MCP forbids embedded newlines)."""
    return json.dumps(message, separators=(",", ":")).encode("utf-8") + b"\n"


def parse_frame(line: bytes) -> dict:
    """One line the server wrote to stdout, as a JSON-RPC message, or a ToolProofError."""
    try:        # the one total reader: depth, digits, no NaN/Infinity, no 1e999 (the size is the client's)
        message = limits.read_json(bytes(line), what="the server's message", max_bytes=max(len(line), 1))
    except limits.ReadError as exc:
        said = "" if exc.decode_error is not None or "UTF-8" in exc.reason else f" ({exc.reason})"
        raise ToolProofError(f"the server wrote something that is not JSON-RPC on stdout{said}: "
                             f"{_preview(line)}") from None
    if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
        raise ToolProofError(f"the server wrote something that is not JSON-RPC 2.0 on stdout: {_preview(line)}")
    return message


def reply_for(message: dict) -> dict | None:
    """What to answer a request the server sends us: ping gets {}, anything else 'not found'."""
    if "method" not in message or "id" not in message:
        return None
    if message["method"] == "ping":
        return {"jsonrpc": "2.0", "id": message["id"], "result": {}}
    return {"jsonrpc": "2.0", "id": message["id"],
            "error": {"code": -32601, "message": "method not supported by this client"}}


def result_of(message: dict, method: str) -> dict:
    """The `result` object of a response, or a ToolProofError quoting the server's error."""
    if "error" in message:
        error = message["error"] if isinstance(message["error"], dict) else {}
        raise ToolProofError(f"{method} failed: the server answered error {error.get('code')!r}: "
                             f"{_preview(str(error.get('message', '')).encode())}")
    result = message.get("result")
    if not isinstance(result, dict):
        raise ToolProofError(f"{method}: the server's answer has no result object")
    return result


def next_cursor(result: dict, seen: set) -> str | None:
    """The cursor of the next tools/list page; refuses a cursor that repeats (an endless loop)."""
    cursor = result.get("nextCursor")
    if cursor is None:
        return None
    if not isinstance(cursor, str):
        raise ToolProofError(f"tools/list: nextCursor must be a string, not {type(cursor).__name__}")
    if cursor in seen:
        raise ToolProofError(f"tools/list: the server repeated the cursor {_preview(cursor.encode())}; "
                             "stopping instead of looping forever")
    seen.add(cursor)
    return cursor


def _preview(raw: bytes, limit: int = 80) -> str:
    """A short, printable quote of what a server said: never raw control characters."""
    text = raw.decode("utf-8", "replace").strip()
    short = text[:limit] + ("..." if len(text) > limit else "")
    return ascii(short)
