"""Did the server show the tools to the model? A warning when a reply's reported input tokens are
fewer than the tool definitions sent in that request could take.

A server that drops the tools (a chat template without tool support, a proxy that strips the
field) looks exactly like a weak model: it never calls. A real local server reported 26 input
tokens for a request carrying 3 tool schemas. The estimate is deliberately low, so a warning
means something: the tools' JSON as sent, at 4 characters a token, then halved (tokenizers and
chat templates differ; none packs a JSON schema into fewer tokens than that).

Pure: no I/O. Must not change a verdict: it only warns.
"""
from __future__ import annotations

import json
from typing import Any

from toolproof.plurals import counted

CHARS_PER_TOKEN = 4
MARGIN = 0.5                  # the estimate is halved: only a clear shortfall warns
MIN_ESTIMATE = 16             # tools this small are not worth a warning
WARNING = "the server may not have shown the tools to the model"


def tool_tokens(body: Any) -> int:
    """The fewest input tokens a request's tool definitions could take (0 without tools)."""
    tools = body.get("tools") if isinstance(body, dict) else None
    if not tools:
        return 0
    try:
        text = json.dumps(tools, ensure_ascii=False, separators=(",", ":"))
    except (TypeError, ValueError):
        return 0
    return int(len(text) / CHARS_PER_TOKEN * MARGIN)


def unseen_tools(transcript) -> list[str]:
    """One warning per answered turn whose reported input tokens are fewer than its tools take."""
    raw_turns = transcript.raw.get("turns") if isinstance(transcript.raw, dict) else None
    out = []
    for index, turn in enumerate(transcript.turns):
        raw = raw_turns[index] if isinstance(raw_turns, list) and index < len(raw_turns) else None
        request = raw.get("request") if isinstance(raw, dict) else None
        if turn.reply is None or not isinstance(request, dict):
            continue
        reported = turn.reply.usage.get("input")
        needed = tool_tokens(request.get("body"))
        if isinstance(reported, int) and needed >= MIN_ESTIMATE and reported < needed:
            out.append(f"turn {index + 1}: the server reported {reported} input tokens, fewer than the "
                       f"~{needed} its tool definitions take at least: {WARNING}")
    return out


def add_warnings(card: dict, transcripts: list) -> dict:
    """The scorecard with each case's warnings (`cases[].warnings`, every repeat's) and one
    line per warned case in `warnings`; unchanged when there is nothing to warn about."""
    found: dict[str, list[str]] = {}
    for transcript in transcripts:
        for line in unseen_tools(transcript):
            repeat = f" (repeat {transcript.repeat + 1})" if transcript.repeat else ""
            found.setdefault(transcript.case_id, []).append(line + repeat)
    if not found:
        return card
    for case in card.get("cases", []):
        if case.get("id") in found:
            case["warnings"] = found[case["id"]]
    card["warnings"] = [f"{counted(len(found), 'case')}: the reported input tokens were fewer than the tool "
                        f"definitions sent: {WARNING} ({', '.join(sorted(found)[:5])}"
                        f"{', ...' if len(found) > 5 else ''})"]
    return card
