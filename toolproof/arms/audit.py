"""The honouring audit: did the provider do what an arm's knobs asked? A provider may take a
setting and ignore it; these rules count the replies that show it, per arm (docs/arms.md):

- `parallel_ignored`: parallel_tool_calls=false, but a reply with more than one call;
- `required_ignored`: tool_choice=required, but a first-turn reply with no call;
- `none_ignored`: tool_choice=none, but a first-turn reply with a call;
- `named_ignored`: tool_choice=<a tool>, but a first-turn reply without that call or with another;
- `strict_ignored`: strict=true, but a call whose arguments are not JSON or fail the tool's schema
  (checked only where the arm shows the catalogue's own schemas: after `ablate=enums` or `types`,
  or with a variant tools file, the schema sent is not the one the grader holds: `checked` false);
- `effort_ignored`: two arms on one provider and model whose reasoning_effort differs, whose
  reasoning-token counts do not differ: an exact two-sided sign test over the cases both answered
  (first turns), p >= 0.05, or every pair tied (zero against zero included); `effort_unreported`:
  the provider reported no reasoning tokens at all (Anthropic's Messages never does), so the rule
  could not look.
First turns are what tool_choice governs (arm_plan sends a forced choice on the first turn only).
A reply that is truncated, blocked, malformed or unfinished is no evidence either way.

Pure: no I/O.
"""
from __future__ import annotations

from math import comb

from .usage import reasoning_tokens

CHOICES = ("auto", "required", "none")
EFFORT_LEVEL = 0.05


def _evidence(reply) -> bool:
    return reply is not None and not (reply.truncated or reply.blocked or reply.malformed or reply.unfinished)


def _replies(transcripts: list, first_only: bool) -> list:
    """The replies that are evidence: first turns only, or every turn (a variant's second turn
    too: its first is the case's own, already counted)."""
    out = []
    for t in transcripts:
        turns = t.turns[:1] if first_only else [*t.turns, *(turn for _, v in t.variants for turn in v[1:])]
        out += [turn.reply for turn in turns if _evidence(turn.reply)]
    return out


def _finding(rule: str, count: int, of: int, **more) -> dict:
    return {"rule": rule, "count": count, "of": of, **more}


def audit_arm(settings: dict, transcripts: list, tools: dict, *, schemas_sent: bool) -> list[dict]:
    """The findings of one arm's knobs over its transcripts (unmasked: catalogue names). Each is
    {rule, count (replies or calls that show it), of (replies or calls looked at)}; a rule whose
    knob the arm does not set is not listed; a rule with a count of 0 is listed (it looked)."""
    out = []
    firsts = _replies(transcripts, first_only=True)
    if settings.get("parallel_tool_calls") is False:
        every = _replies(transcripts, first_only=False)
        out.append(_finding("parallel_ignored", sum(len(r.calls) > 1 for r in every), len(every)))
    choice = settings.get("tool_choice")
    if choice == "required":
        out.append(_finding("required_ignored", sum(not r.calls for r in firsts), len(firsts)))
    elif choice == "none":
        out.append(_finding("none_ignored", sum(bool(r.calls) for r in firsts), len(firsts)))
    elif choice is not None and choice not in CHOICES:
        name = tools[choice].name if choice in tools else choice
        out.append(_finding("named_ignored", sum(not r.calls or any(c.name != name for c in r.calls) for r in firsts),
                            len(firsts)))
    if settings.get("strict") is True:
        calls = [c for r in _replies(transcripts, first_only=False) for c in r.calls]
        if not schemas_sent:
            out.append({**_finding("strict_ignored", 0, len(calls)), "checked": False})
        else:
            by_name = {tool.name: tool for tool in tools.values()}
            bad = sum(c.arguments is None or c.name in by_name and not by_name[c.name].schema.is_valid(c.arguments)
                      for c in calls)
            out.append({**_finding("strict_ignored", bad, len(calls)), "checked": True})
    return out


def first_turn_tokens(transcripts: list, provider: str) -> dict:
    """{(case id, repeat, phrasing): reasoning tokens of the first turn} where the provider said."""
    out = {}
    for t in transcripts:
        turn = t.raw.get("turns", [{}])[0] if t.raw.get("turns") else {}
        tokens = reasoning_tokens(provider, turn.get("response"))
        if tokens is not None:
            out[(t.case_id, t.repeat, t.phrasing)] = tokens
    return out


def sign_test(a: list[int], b: list[int]) -> float | None:
    """The exact two-sided sign test's p over paired counts (ties dropped); None with no pair
    left; 1.0 when every pair is tied (no difference at all)."""
    up = sum(x < y for x, y in zip(a, b))
    down = sum(x > y for x, y in zip(a, b))
    n = up + down
    if not a:
        return None
    if n == 0:
        return 1.0
    tail = sum(comb(n, i) for i in range(min(up, down) + 1)) / 2 ** n
    return round(min(1.0, 2 * tail), 6)


def effort_findings(arms: list[dict], transcripts: dict) -> dict:
    """{arm name: [effort findings]} for arms that set reasoning_effort: each against every earlier
    arm on the same provider and model with another effort (or none set). `arms`: the results
    file's arm entries; `transcripts`: {arm name: its Transcripts}."""
    out: dict = {}
    for j, arm in enumerate(arms):
        effort = arm["settings"].get("reasoning_effort")
        if effort is None or arm.get("refused"):
            continue
        mine = first_turn_tokens(transcripts.get(arm["name"], []), arm["provider"])
        if not mine:
            n = sum(1 for _ in transcripts.get(arm["name"], []))
            out.setdefault(arm["name"], []).append(_finding("effort_unreported", n, n))
            continue
        for other in arms[:j]:
            if other.get("refused") or (other["provider"], other["model"]) != (arm["provider"], arm["model"]) \
                    or other["settings"].get("reasoning_effort") == effort:
                continue
            theirs = first_turn_tokens(transcripts.get(other["name"], []), other["provider"])
            shared = sorted(set(mine) & set(theirs))
            p = sign_test([theirs[k] for k in shared], [mine[k] for k in shared])
            if p is None:
                continue
            a_mean, b_mean = (round(sum(d[k] for k in shared) / len(shared), 1) for d in (theirs, mine))
            ignored = p >= EFFORT_LEVEL
            out.setdefault(arm["name"], []).append(_finding(
                "effort_ignored", len(shared) if ignored else 0, len(shared), against=other["name"],
                p_value=p, reasoning_tokens={"against": a_mean, "this": b_mean}))
    return out
