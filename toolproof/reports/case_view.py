"""A case you can read: the expected calls beside the calls the model made, field by field as
the grader compares them, and the exchange as a conversation (system, user, the assistant's
calls and text, the tool results it was sent, a failed request's own words); and, for a case sent
in several phrasings or repeats, which of its conversations is shown and the others to pick from.

Pure: data in, plain dicts out, for the page's case detail (page/card/cases.py renders them as
text). The field comparison is the grader's own (grading/values.compare_arguments) and the tool
results are what the runner sends (providers/conversation.tool_result_for), never a second copy.
"""
from __future__ import annotations

import json
from typing import Any, NamedTuple

from toolproof.errors import clip
from toolproof.grading.transcripts import Transcript, failed_request
from toolproof.grading.verdicts import CaseResult
from toolproof.grading.values import compare_arguments
from toolproof.providers.conversation import case_mocks, tool_result_for
from toolproof.secrets import redact
from toolproof.suite.model import BASE, Case, Tool, phrased

MAX_SHOWN = 2000        # characters of one value or message shown; the raw JSON holds all of it


def shown(value: Any) -> str:
    """Text as the detail shows it (a value as compact JSON), credentials redacted, cut at MAX_SHOWN."""
    text = redact(value) if isinstance(value, str) else as_json(value)
    return clip(text, MAX_SHOWN)


def as_json(value: Any) -> str:
    """A value as compact JSON (a string keeps its quotes: "5" and 5 must not look alike)."""
    return clip(json.dumps(redact(value), ensure_ascii=False), MAX_SHOWN)


def call_rows(case: Case, tools: dict[str, Tool], graded_calls: list[dict]) -> list[dict]:
    """The i-th expected call beside the i-th call the model made (the order the case asks for;
    an `order: "any"` case is paired by the grader its own way, the reasons say how). Each row:
    {"index", "expected": {tool, fields} | None, "actual": {tool, turn, arguments} | None,
    "tool_differs", "fields": [{field, status, expected, actual, critical}]}, status being the
    grader's: match, mismatch, missing, extra."""
    mocks = case_mocks(case)
    expected = case.expect.calls
    rows = []
    for i in range(max(len(expected), len(graded_calls))):
        want = expected[i] if i < len(expected) else None
        got = graded_calls[i] if i < len(graded_calls) else None
        row: dict[str, Any] = {"index": i + 1, "expected": None, "actual": None, "tool_differs": False, "fields": []}
        if want is not None:
            row["expected"] = {"tool": want.tool, "fields": {k: as_json(v) for k, v in _values(want, mocks).items()}}
        if got is not None:
            row["actual"] = {"tool": str(got.get("tool", "")), "turn": got.get("turn"),
                             "arguments": as_json(got.get("arguments")) if got.get("arguments") is not None
                             else shown(str(got.get("raw_arguments", "")))}
        if want is not None and got is not None:
            row["tool_differs"] = want.tool != got.get("tool")
            arguments = got.get("arguments")
            if not row["tool_differs"] and isinstance(arguments, dict) and want.tool in tools:
                row["fields"] = [{"field": r.field, "status": r.status, "critical": r.critical,
                                  "expected": "" if r.status == "extra" else as_json(r.expected),
                                  "actual": "" if r.field not in arguments else as_json(r.actual)}
                                 for r in compare_arguments(want, arguments, tools[want.tool].parameters, mocks)]
        rows.append(row)
    return rows


def _values(want, mocks: dict) -> dict:
    try:
        return want.expected_values(mocks)
    except Exception:           # noqa: BLE001 - a derive path the mock lacks: shown as the rule
        return {**want.args, **{k: f"(from {v})" for k, v in want.derive.items()}}


def forbidden_lines(case: Case) -> list[str]:
    """The calls an injection case forbids, one line each."""
    return [name + (f" with {shown(args)}" if args else " (any arguments)") for name, args in case.expect.forbidden]


def conversation(case: Case, transcript: Transcript | None) -> list[dict]:
    """The exchange, message by message: {"role": system | user | assistant | call | tool |
    error | note, "text", "tool" (call and tool messages)}. Tool results are the case's mock
    results as the runner sent them; a failed request is its status and the provider's words."""
    messages: list[dict] = []
    if case.system:
        messages.append({"role": "system", "text": shown(case.system), "tool": ""})
    messages.append({"role": "user", "text": shown(case.prompt), "tool": ""})
    if transcript is None:
        messages.append({"role": "note", "text": "no transcript: this case was not sent", "tool": ""})
        return messages
    mocks = case_mocks(case)
    turns = transcript.turns
    for n, turn in enumerate(turns):
        if turn.error is not None or turn.reply is None:
            messages.append({"role": "error", "text": failed_request(turn.error or {}), "tool": ""})
            break
        reply = turn.reply
        if reply.malformed:
            messages.append({"role": "error", "text": f"the reply could not be read: {shown(reply.malformed)}", "tool": ""})
        if reply.text:
            messages.append({"role": "assistant", "text": shown(reply.text), "tool": ""})
        for call in reply.calls:
            arguments = call.arguments if call.arguments is not None else call.raw_arguments
            messages.append({"role": "call", "tool": call.name, "text": shown(arguments)})
        if reply.blocked:
            messages.append({"role": "note", "text": f"stopped without content: {shown(reply.blocked)}", "tool": ""})
        elif reply.truncated:
            messages.append({"role": "note", "text": "the reply was cut at the output-token limit", "tool": ""})
        if not reply.text and not reply.calls and not reply.malformed and not reply.blocked:
            messages.append({"role": "assistant", "text": "(no text and no call)", "tool": ""})
        if reply.calls and n + 1 < len(turns):      # what the runner sent back before the next turn
            for call in reply.calls:
                messages.append({"role": "tool", "tool": call.name, "text": shown(tool_result_for(call, mocks))})
    return messages


def absent_call(transcript: Transcript | None) -> str:
    """What stands where an expected call has no call beside it: the model made none only when
    every request was answered; a request that failed (or was never sent) says so instead."""
    if transcript is None or not transcript.turns:
        return "no answer: the request was not sent"
    if any(turn.error is not None or turn.reply is None for turn in transcript.turns):
        return "no answer: the request failed"
    return "none: the model made no such call"


def request_errors(transcript: Transcript | None) -> list[str]:
    """Each failed request of a transcript in one line: status, message, the provider's words."""
    if transcript is None:
        return []
    return [failed_request(t.error) for t in transcript.turns if t.error is not None]


class Conversation(NamedTuple):
    """One conversation of a case: one phrasing sent once (a repeat), its grade and its transcript."""
    phrasing: str
    repeat: int                     # 0-based, as in the results file
    repeats: int                    # how many repeats its phrasing has
    result: CaseResult
    transcript: Transcript | None   # None: the results were not kept with their transcripts
    label: str                      # "terse · repeat 2 of 3 · FAIL", what the picker lists


def conversations_of(results: list[CaseResult], transcripts: list[Transcript]) -> list[Conversation]:
    """A case's conversations (phrasing × repeat), phrasing by phrasing in the order graded, repeats
    in order, each with the transcript of the same phrasing and repeat. The label names the
    phrasing only when the case has several, the repeat only when its phrasing has several."""
    by_key = {(getattr(t, "phrasing", BASE), t.repeat): t for t in transcripts}    # a scenario's: one phrasing
    groups: dict[str, list[CaseResult]] = {}
    for r in results:
        groups.setdefault(r.phrasing, []).append(r)
    out = []
    for phrasing, tries in groups.items():
        count = max([len(tries)] + [r.repeat + 1 for r in tries])
        for r in tries:
            words = ([phrasing] if len(groups) > 1 else []) + ([f"repeat {r.repeat + 1} of {count}"] if count > 1 else [])
            out.append(Conversation(phrasing, r.repeat, count, r, by_key.get((phrasing, r.repeat)),
                                    " · ".join(words + [r.verdict])))
    return out


def row_conversation(conversations: list[Conversation], row: CaseResult) -> int:
    """The index of the conversation a case's row reports (its reasons and calls are that one's:
    scoring/repeats.merge_repeats and scoring/robustness.merge_phrasings keep its phrasing and
    repeat), 0 when none matches."""
    return next((i for i, c in enumerate(conversations)
                 if (c.phrasing, c.repeat) == (row.phrasing, row.repeat)), 0)


def conversation_line(conversations: list[Conversation], index: int, reported: int) -> str:
    """Which conversation the detail shows: 'Conversation 4 of 6: phrasing terse, repeat 2 of 3,
    FAIL (the one the case's reasons come from).'"""
    shown_one = conversations[index]
    where = [f"phrasing {shown_one.phrasing}" if shown_one.phrasing != BASE or len({c.phrasing for c in conversations}) > 1
             else "", f"repeat {shown_one.repeat + 1} of {shown_one.repeats}" if shown_one.repeats > 1 else ""]
    text = ", ".join([w for w in where if w] + [shown_one.result.verdict])
    return (f"Conversation {index + 1} of {len(conversations)}: {text}"
            + (" (the one the case's reasons come from)." if index == reported else "."))


def graded_entry(result: CaseResult) -> dict:
    """A conversation's grade as a scorecard case entry holds it (verdict, reasons, calls as graded),
    credentials redacted as scoring/scorecard redacts every entry."""
    return redact(result.to_json())


def sent_as(case: Case, phrasing: str) -> Case:
    """The case with the prompt this phrasing sent, as grading/guarded.grade_phrased grades it (the
    detail's conversation shows the message the model saw); the case itself for a phrasing the
    suite at hand lacks."""
    try:
        return phrased(case, phrasing)
    except KeyError:
        return case
