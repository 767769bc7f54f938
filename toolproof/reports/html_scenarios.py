"""The Scenarios section of the HTML scorecard: the success rate with its interval (a whisker) and
"N of M", each world, turns and calls used, recovery, asks, pass^k; then every scenario as a
`.case-row` to open: its reasons, the conversation turn by turn in the order the page shows it
(reports/scenario_view.conversation: the system prompt when the world is at hand, then each
turn after the user's message it answered, with its calls, their results and the state changes
they made, the model's answer, the turn's credit and notes), how it ended, and the end-state
difference as a table.

The words are reports/scenarios.py's (the text and Markdown reports print the same lines); this
module only lays them out. Pure: string building only; every string from a card goes through
html.esc (or html.table, which escapes every cell).
"""
from __future__ import annotations

from .html import Raw, esc, legend, lines, pre, section, table, whisker
from .legends import scenario_legend
from toolproof.grading.scripted_user import first_message
from toolproof.worlds.model import Scenario

from .scenario_view import conversation, ending_line
from .scenarios import (DIFF_HEAD, SCENARIO_HEAD, TITLE, WORLD_HEAD, block_of, call_line, diff_rows, entries_of,
                        scenario_row, summary_lines, world_rows)


def _head(text: str) -> str:
    """A column head as the HTML reports write them: its first letter up ('95% CI' kept)."""
    return text[:1].upper() + text[1:]


def _bounds(part: dict) -> tuple:
    found = part.get("interval") if isinstance(part.get("interval"), dict) else {}
    low, high = found.get("low"), found.get("high")
    ok = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (low, high))
    return (100 * low, 100 * high) if ok else (None, None)


def _rate(part: dict) -> float | None:
    rate = part.get("success_rate")
    return 100 * rate if isinstance(rate, (int, float)) and not isinstance(rate, bool) else None


def _turn(turn: dict) -> str:
    """One item of scenario_view.conversation: the user's message the turn answered, then the
    model's calls (each with its result and state changes), its words, its credit and notes."""
    parts = []
    if turn["user"]:
        parts.append(f"<p><span class=\"who user\">user{' (confirms)' if turn.get('confirms') else ''}</span>"
                     f"{esc(turn['user'])}</p>")
    if turn["n"] is not None:
        parts.append(f"<p class=\"muted\">turn {esc(turn['n'])} · credit {esc(turn['credit'])}</p>")
    for call in turn["calls"]:
        cls = " tool-error" if call["error"] else ""
        parts.append(f"<div class=\"scenario-call{cls}\"><span class=\"who\">call</span>" + pre(call_line(call)) + "</div>")
        parts += [f"<p class=\"state\"><span class=\"who\">state</span>{esc(change)}</p>" for change in call["changes"]]
    if turn["text"]:
        parts.append("<div><span class=\"who\">answer</span>" + pre(turn["text"]) + "</div>")
    parts += [f"<p class=\"muted\">note: {esc(note)}</p>" for note in turn["notes"]]
    return "<li>" + "".join(parts) + "</li>"


def _scenario(entry: dict, scenario: Scenario | None) -> str:
    row = scenario_row(entry)
    verdict = row[2]
    head = (f"<summary><span class=\"verdict {esc(verdict)}\">{esc(verdict)}</span> <code>{esc(row[0])}</code> "
            f"<span class=\"muted\">{esc(row[1])}" + (f" · {esc(scenario.title)}" if scenario is not None else "")
            + f" · {esc(row[4])} turns · turn credit {esc(row[5])}"
            + (f" · repeats {esc(row[3])}" if len(entry.get("repeats") or []) > 1 else "") + "</span></summary>")
    parts = [head]
    reasons = [str(r) for r in entry.get("reasons") or []]
    if reasons:
        parts.append("<p><strong>Reasons</strong></p>" + lines(reasons))
    system = [f"<li><p class=\"muted\">system</p>{pre(scenario.system)}</li>"] if scenario and scenario.system else []
    turns = conversation(entry, first_message(scenario) if scenario is not None else "")
    parts.append("<p><strong>Conversation</strong></p>" + (
        "<ol class=\"scenario-turns\">" + "".join(system + list(map(_turn, turns))) + "</ol>" if turns or system
        else "<p class=\"muted\">no turn was answered</p>"))
    ending = ending_line(entry.get("ended"))
    if ending:
        parts.append(f"<p class=\"muted\">{esc(ending)}</p>")
    diff = diff_rows(entry)
    if diff:
        parts.append("<p><strong>End state: expected against actual</strong></p>"
                     + table([_head(h) for h in DIFF_HEAD], diff, label=f"End-state difference of {row[0]}",
                             cls="scenario-diff"))
    return (f"<details class=\"case-row scenario-row\" data-case-id=\"{esc(row[0])}\" data-verdict=\"{esc(verdict)}\">"
            + "".join(parts) + "</details>")


def scenarios_html(card: dict, scenarios: dict[str, Scenario] | None = None) -> str:
    """The Scenarios section, or '' when the card has no `scenarios` block. `scenarios` (the
    records by id, from the worlds at hand) adds each one's title, system prompt and first message."""
    block = block_of(card)
    if block is None:
        return ""
    lines_ = summary_lines(block)
    parts = [f"<p><strong>{esc(lines_[0])}</strong></p>", whisker(_rate(block), *_bounds(block), width=320),
             lines(lines_[1:])]
    parts_by_world = [p if isinstance(p, dict) else {} for p in (block.get("by_world") or {}).values()]
    rows = [cells + [whisker(_rate(part), *_bounds(part))] for cells, part in zip(world_rows(block), parts_by_world)]
    if rows:
        parts.append(table([_head(h) for h in WORLD_HEAD] + ["Interval (0–100)"], rows,
                           label="Scenarios per world", right={1, 2}, cls="scenario-worlds"))
    entries = entries_of(card)
    if entries:
        rows = [[Raw(f"<span class=\"verdict {esc(c)}\">{esc(c)}</span>") if i == 2 else c for i, c in enumerate(row)]
                for row in map(scenario_row, entries)]
        parts.append(table([_head(h) for h in SCENARIO_HEAD], rows, label="Scenarios, one row each", right={4, 5},
                           cls="scenario-list"))
        parts += [_scenario(e, (scenarios or {}).get(str(e.get("id")))) for e in entries]
    return section(TITLE, parts + [legend(scenario_legend())], cls="scenarios")
