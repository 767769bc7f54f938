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


def shortfalls(transcript) -> tuple[list[tuple[int, int]], int]:
    """(reported, needed) for each answered request whose reported input tokens are fewer than its
    tool definitions take, and how many answered requests the transcript holds."""
    raw_turns = transcript.raw.get("turns") if isinstance(transcript.raw, dict) else None
    out, answered = [], 0
    for index, turn in enumerate(transcript.turns):
        raw = raw_turns[index] if isinstance(raw_turns, list) and index < len(raw_turns) else None
        request = raw.get("request") if isinstance(raw, dict) else None
        if turn.reply is None:
            continue
        answered += 1
        if not isinstance(request, dict):
            continue
        reported = turn.reply.usage.get("input")
        needed = tool_tokens(request.get("body"))
        if isinstance(reported, int) and needed >= MIN_ESTIMATE and reported < needed:
            out.append((reported, needed))
    return out, answered


def case_warning(transcripts: list) -> str | None:
    """One line for a case, over all its conversations (phrasings, repeats) and their turns: a
    server that drops the tools does it on every request, so one line per turn said the same
    thing eight times. None when no request fell short."""
    short, answered = [], 0
    for transcript in transcripts:
        found, n = shortfalls(transcript)
        short += found
        answered += n
    if not short:
        return None
    reported, needed = min(short)
    if len(short) == 1:
        where = "" if answered == 1 else f"in 1 of {counted(answered, 'answered request')} "
        return (f"{where}the server reported {reported} input tokens, fewer than the ~{needed} its tool "
                f"definitions take at least: {WARNING}")
    return (f"in {len(short)} of {counted(answered, 'answered request')} the server reported fewer input "
            f"tokens than the tool definitions take (as few as {reported}, where they take ~{needed} at "
            f"least): {WARNING}")


def add_warnings(card: dict, transcripts: list) -> dict:
    """The scorecard with one warning line per warned case (`cases[].warnings`, over every
    phrasing, repeat and turn) and one line naming the warned cases in `warnings`; unchanged when
    there is nothing to warn about."""
    by_case: dict[str, list] = {}
    for transcript in transcripts:
        by_case.setdefault(transcript.case_id, []).append(transcript)
    found = {cid: [line] for cid, ts in by_case.items() if (line := case_warning(ts)) is not None}
    if not found:
        return card
    for case in card.get("cases", []):
        if case.get("id") in found:
            case["warnings"] = found[case["id"]]
    card["warnings"] = [f"{counted(len(found), 'case')}: the reported input tokens were fewer than the tool "
                        f"definitions sent: {WARNING} ({', '.join(sorted(found)[:5])}"
                        f"{', ...' if len(found) > 5 else ''})"]
    return card
