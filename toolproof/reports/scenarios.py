"""Scenarios in words: the lines, table rows and turn-by-turn view every report shows for a
scorecard's `scenarios` block and its scenario case entries, and for the scenario part of a
comparison and of a leaderboard row.

One wording for every view: text, Markdown, HTML, JUnit, compare and the board take their lines
and cells from here, so no two of them say a scenario figure two ways. Nothing here decides
anything: the success rate, its interval, the verdicts, the reasons, the per-turn credit, the
end-state difference, recovery, asks and pass^k are the scorecard's fields
(scoring/scenarios.py and grading/scenario_grade.py compute them); this module only words them.
A field a card lacks reads "n/a" (an old card, a card with no scenario), never a guessed number.

Strings come out plain: each view escapes them its own way (reports/markdown.md_text,
reports/html.esc, safe_text.printable through the text report's `_lines`, junit.xml_text).
Pure: returns strings and lists of strings.
"""
from __future__ import annotations

import json
from typing import Any

from toolproof.errors import clip
from toolproof.plurals import counted
from toolproof.suite.categories import CATEGORY

from .figures import percent
from .markdown import md_text

CATEGORY_ID = CATEGORY["scenario"].id      # a scenario's entry in `cases` has this category
TITLE = "Scenarios"
MAX_VALUE = 300                    # characters of one value (an argument, a result, a state value) shown
INTERVAL_HEAD = "95% CI"
WORLD_HEAD = ["world", "success rate", INTERVAL_HEAD, "passed", "graded of planned"]
SCENARIO_HEAD = ["scenario", "world", "verdict", "repeats", "turns", "turn credit", "first reason"]
DIFF_HEAD = ["table", "key", "field", "expected", "actual"]
COMPARE_HEAD = ["run", "success rate", INTERVAL_HEAD, "passed"]


def _dict(value: Any) -> dict:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list:
    return value if isinstance(value, list) else []


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _num(value: Any, places: int = 1) -> str:
    return f"{value:.{places}f}" if isinstance(value, (int, float)) and not isinstance(value, bool) else "n/a"


def block_of(card: dict) -> dict | None:
    """The card's `scenarios` block, or None when the card has none (a run of cases alone)."""
    found = card.get("scenarios") if isinstance(card, dict) else None
    return found if isinstance(found, dict) and found else None


def entries_of(card: dict) -> list[dict]:
    """The scenario entries of the card's `cases`, in the card's order."""
    return [c for c in _list(card.get("cases")) if isinstance(c, dict) and c.get("category") == CATEGORY_ID]


def is_scenario(entry: dict) -> bool:
    return isinstance(entry, dict) and entry.get("category") == CATEGORY_ID


# ---------------------------------------------------------------- figures of the block

def interval_text(interval: Any) -> str:
    """'30.6–86.3%' (one decimal, as the rate), or 'n/a' when the block holds no interval."""
    found = _dict(interval)
    if not all(isinstance(found.get(end), (int, float)) for end in ("low", "high")):
        return "n/a"
    return f"{100 * found['low']:.1f}–{100 * found['high']:.1f}%"


def rate_text(part: dict) -> str:
    """'62.5%', or 'n/a' (nothing graded)."""
    rate = part.get("success_rate")
    return percent(rate) if isinstance(rate, (int, float)) and not isinstance(rate, bool) else "n/a"


def of_text(numerator: Any, denominator: Any, noun: str = "scenario") -> str:
    """'5 of 8 scenarios' ('n/a' for a count the block lacks)."""
    if _int(numerator) is None or _int(denominator) is None:
        return "n/a"
    return f"{numerator} of {counted(denominator, noun)}"


def passed_text(part: dict) -> str:
    """'5 of 8 scenarios passed': passed of graded (ERROR is in no denominator)."""
    return f"{of_text(part.get('passed'), part.get('graded'))} passed"


def graded_text(part: dict) -> str:
    """'8 of 10 planned': graded of planned."""
    return f"{of_text(part.get('graded'), part.get('planned'))} graded"


def method_text(block: dict) -> str:
    method = _dict(block.get("interval")).get("method")
    return str(method) if isinstance(method, str) and method else "clopper-pearson"


def success_line(block: dict) -> str:
    """'Scenario success rate: 62.5% (95% CI 30.6–86.3%, clopper-pearson), 5 of 8 scenarios passed'."""
    return (f"Scenario success rate: {rate_text(block)} ({INTERVAL_HEAD} {interval_text(block.get('interval'))}, "
            f"{method_text(block)}), {passed_text(block)}")


def verdicts_line(block: dict) -> str:
    """'10 scenarios planned: 5 PASS, 1 PARTIAL, 2 FAIL, 2 ERROR; 8 of 10 scenarios graded'."""
    counts = ", ".join(f"{_int(block.get(key)) if _int(block.get(key)) is not None else 'n/a'} {verdict}"
                       for key, verdict in (("passed", "PASS"), ("partial", "PARTIAL"), ("failed", "FAIL"),
                                            ("error", "ERROR")))
    planned = _int(block.get("planned"))
    head = "Scenarios planned: n/a" if planned is None else f"{counted(planned, 'scenario')} planned"
    return f"{head}: {counts}; {graded_text(block)}"


def usage_line(block: dict) -> str:
    """'Turns used: mean 3.2, max 6; tool calls: mean 4.1, max 9; per-turn credit 0.83'."""
    turns, calls = _dict(block.get("turns_used")), _dict(block.get("calls_used"))
    return (f"Turns used: mean {_num(turns.get('mean'))}, max {_num(turns.get('max'), 0)}; "
            f"tool calls: mean {_num(calls.get('mean'))}, max {_num(calls.get('max'), 0)}; "
            f"per-turn credit {_num(block.get('turn_credit'), 2)}")


def recovery_line(block: dict) -> str:
    """'Recovery after a tool error: 2 of 3 errors recovered (66.7%)', or that none was seen."""
    found = _dict(block.get("recovery"))
    seen = _int(found.get("errors_seen"))
    if seen == 0:
        return "Recovery after a tool error: no tool error seen"
    rate = found.get("rate")
    shown = percent(rate) if isinstance(rate, (int, float)) and not isinstance(rate, bool) else "n/a"
    return f"Recovery after a tool error: {of_text(found.get('recovered'), seen, 'error')} recovered ({shown})"


def asks_line(block: dict) -> str:
    """'Questions to the user: 4 asked, 3 answered by the scripted user, 2 answers used'."""
    found = _dict(block.get("asks"))
    asked, answered, used = (_int(found.get(k)) for k in ("asked", "answered", "used"))
    if asked is None:
        return "Questions to the user: n/a"
    return (f"Questions to the user: {asked} asked, {'n/a' if answered is None else answered} answered by the "
            f"scripted user, {'n/a' if used is None else counted(used, 'answer')} used in a later call")


def pass_k_text(block: dict) -> str:
    """'pass^1 0.62 · pass^3 0.41' (every k the block holds), or '' without repeats."""
    hats = _dict(block.get("pass_hat_k"))
    return " · ".join(f"pass^{k} {_num(v, 2)}" for k, v in hats.items())


def summary_lines(block: dict) -> list[str]:
    """The block in lines, the order every view prints them."""
    hats = pass_k_text(block)
    return [success_line(block), verdicts_line(block), usage_line(block), recovery_line(block), asks_line(block)] + \
        ([f"Reliability over repeats: {hats}"] if hats else [])


def world_rows(block: dict) -> list[list[str]]:
    """One row per world (WORLD_HEAD), in the block's order."""
    rows = []
    for world, part in _dict(block.get("by_world")).items():
        part = _dict(part)
        rows.append([str(world), rate_text(part), interval_text(part.get("interval")),
                     of_text(part.get("passed"), part.get("graded")), of_text(part.get("graded"), part.get("planned"))])
    return rows


# ---------------------------------------------------------------- one scenario

def first_reason(entry: dict) -> str:
    """The entry's first reason (the first difference), or what a PASS means."""
    reasons = [str(r) for r in _list(entry.get("reasons"))]
    return reasons[0] if reasons else ("every check held" if entry.get("verdict") == "PASS" else "")


def scenario_row(entry: dict) -> list[str]:
    """The entry in the cells of SCENARIO_HEAD."""
    repeats = " ".join(str(v) for v in _list(entry.get("repeats"))) or str(entry.get("verdict", ""))
    return [str(entry.get("id", "")), str(entry.get("world", "")), str(entry.get("verdict", "")),
            repeats + (" (flaky)" if entry.get("flaky") else ""), str(len(_list(entry.get("turns")))),
            _num(entry.get("turn_credit"), 2), first_reason(entry)]


def value_text(value: Any) -> str:
    """A value as compact JSON, a string in quotes as itself (so "5" and 5 differ, and a control
    character is left for the view's escaper to show as every other text shows it), cut at MAX_VALUE."""
    if isinstance(value, str):
        return clip(f'"{value}"', MAX_VALUE)
    try:
        text = json.dumps(value, ensure_ascii=False, default=str)
    except ValueError:                  # a circular or non-finite value cannot come from JSON; shown, not raised
        text = repr(value)
    return clip(text, MAX_VALUE)


def _place(value: Any) -> str:
    """A table, key or field of the difference; '—' where it has none (an expected row never inserted)."""
    return "—" if value is None or value == "" else str(value)


def diff_rows(entry: dict) -> list[list[str]]:
    """The end-state difference, one row per field (DIFF_HEAD): where it is, what was expected, what was there."""
    return [[_place(d.get("table")), _place(d.get("key")), _place(d.get("field")),
             value_text(d.get("expected")), value_text(d.get("actual"))]
            for d in map(_dict, _list(entry.get("end_state_diff")))]


def change_text(change: Any) -> str:
    """A state change in one line: 'accounts ACC-1 update: balance 1250.0 → 350.0',
    'transfers TR-1001 insert: {...}', 'payees P-2 delete'."""
    c = _dict(change)
    head = f"{c.get('table', '?')} {c.get('key', '?')} {c.get('op', '?')}"
    fields = _dict(c.get("fields"))
    if fields:
        return head + ": " + "; ".join(
            f"{name} {value_text(pair[0])} → {value_text(pair[1])}" if isinstance(pair, list) and len(pair) == 2
            else f"{name} {value_text(pair)}" for name, pair in fields.items())
    if "row" in c and c.get("op") == "insert":
        return f"{head}: {value_text(c['row'])}"
    return head


def _call(call: Any) -> dict:
    c = _dict(call)
    changes = c.get("changes", c.get("change"))
    return {"tool": str(c.get("tool", "")), "arguments": value_text(c.get("arguments")),
            "result": value_text(c.get("result")) if "result" in c else "",
            "error": c.get("error") is True, "changes": [change_text(x) for x in _list(changes)]}


def turn_views(entry: dict) -> list[dict]:
    """The conversation turn by turn, as the entry's `turns` hold it (grading/scenario_grade.py):
    {"n", "calls": [{"tool", "arguments", "result", "error", "changes": [lines]}], "text" (the
    model's words), "credit" ('1.00', 'n/a' for a failed request), "notes": [lines]}. Which user
    message comes before which turn is reports/scenario_view.conversation's."""
    out = []
    for i, turn in enumerate(map(_dict, _list(entry.get("turns"))), 1):
        out.append({"n": turn.get("n", i), "calls": [_call(c) for c in _list(turn.get("calls"))],
                    "text": "" if turn.get("text") is None else str(turn.get("text")),
                    "credit": _num(turn.get("credit"), 2), "notes": [str(n) for n in _list(turn.get("notes"))]})
    return out


def call_line(call: dict) -> str:
    """'transfer_funds({"amount": 900}) → {"transfer_id": "TR-1001"}' ('→ error: ...' for a tool error)."""
    result = f" → {'error: ' if call['error'] else ''}{call['result']}" if call["result"] else ""
    return f"{call['tool']}({call['arguments']}){result}"


# ---------------------------------------------------------------- compare and board

def comparison_part(c: dict) -> dict | None:
    """A comparison's `scenarios` part, or None when neither run had scenarios."""
    found = c.get("scenarios") if isinstance(c, dict) else None
    return found if isinstance(found, dict) and found else None


def side_text(side: Any) -> str:
    """'62.5% (95% CI 30.6–86.3%), 5 of 8 scenarios passed', or 'no scenarios'."""
    s = _dict(side)
    if not s:
        return "no scenarios"
    return f"{rate_text(s)} ({INTERVAL_HEAD} {interval_text(s.get('interval'))}), {passed_text(s)}"


def comparison_lines(part: dict) -> list[str]:
    """'Scenario success rate: A … → B …' and the scenario flips, for every comparison view."""
    flips = _dict(part.get("flips"))
    regressed, improved = [str(x) for x in _list(flips.get("regressed"))], [str(x) for x in _list(flips.get("improved"))]
    return [f"Scenario success rate: A {side_text(part.get('a'))} → B {side_text(part.get('b'))}",
            f"Scenario flips (verdict PASS in one run only): {len(regressed)} regressed"
            + (f" ({', '.join(regressed)})" if regressed else "") + f", {len(improved)} improved"
            + (f" ({', '.join(improved)})" if improved else "")]


def comparison_rows(part: dict) -> list[list[str]]:
    """Two rows (COMPARE_HEAD): A and B."""
    return [[name.upper(), rate_text(_dict(part.get(name))), interval_text(_dict(part.get(name)).get("interval")),
             of_text(_dict(part.get(name)).get("passed"), _dict(part.get(name)).get("graded"))] for name in ("a", "b")]


BOARD_HEAD = "scenarios"


def board_cell(row: dict) -> str:
    """A board row's scenario cell: '62.5% (30.6–86.3%) 5 of 8', or 'n/a' when the run had none."""
    s = _dict(row.get("scenarios"))
    if not s:
        return "n/a"
    return f"{rate_text(s)} ({interval_text(s.get('interval'))}) {s.get('passed', 'n/a')} of {s.get('graded', 'n/a')}"


# ---------------------------------------------------------------- text and Markdown blocks

def diff_lines(entry: dict) -> list[str]:
    """The end-state difference in lines: 'accounts ACC-1 balance: expected 350, actual 400'."""
    return [f"end state {t} {k} {f}: expected {e}, actual {a}" for t, k, f, e, a in diff_rows(entry)]


def _columns(rows: list[list[str]]) -> list[str]:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]


def scenarios_text(card: dict) -> list[str]:
    """The terminal's Scenarios block: the summary lines and the table per world ([] without scenarios)."""
    block = block_of(card)
    if block is None:
        return []
    lines = ["", TITLE] + [f"  {line}" for line in summary_lines(block)]
    worlds = world_rows(block)
    if worlds:
        lines += [""] + [f"  {line}" for line in _columns([WORLD_HEAD] + [[clip(c, 48) for c in r] for r in worlds])]
    return lines


def scenarios_markdown(card: dict) -> list[str]:
    """The Markdown Scenarios section: summary, per world, every scenario with its first reason,
    and each end-state difference ([] without scenarios). Every text through md_text."""
    block = block_of(card)
    if block is None:
        return []

    def table(head: list[str], rows: list[list[str]]) -> list[str]:
        return ["", "| " + " | ".join(head) + " |", "|" + "---|" * len(head)] + \
            ["| " + " | ".join(md_text(c) for c in r) + " |" for r in rows]

    lines = ["", f"## {TITLE}", ""] + [f"- {md_text(line)}" for line in summary_lines(block)]
    worlds = world_rows(block)
    if worlds:
        lines += table(WORLD_HEAD, worlds)
    entries = entries_of(card)
    if entries:
        lines += table(SCENARIO_HEAD, [scenario_row(e) for e in entries])
    diffs = [[str(e.get("id", ""))] + row for e in entries for row in diff_rows(e)]
    if diffs:
        lines += ["", "### End-state differences"] + table(["scenario"] + DIFF_HEAD, diffs)
    return lines
