"""A scenario's detail in the case list: its verdict with the first reason, the conversation turn by
turn (the user's messages, each call with its arguments, the result it got and the change it made,
the model's text, a failed request), each turn's credit and notes, and the end-state difference as a
table; the raw request and response JSON one click away.

What it shows is the scorecard's entry, worded by reports/scenarios.py (through
reports/scenario_view.py, which says which user message comes before which turn); the verdict,
reasons, credits, calls as replayed and the difference are the grader's, never worked out here. A part of the card (page/card/): it never imports a panel. An edge module (DOM).
"""
from __future__ import annotations

from ..dom import el, scroller
from toolproof.plurals import counted


def scenario_record(worlds: dict, world_id: str, scenario_id: str):
    """The scenario's record in its world (worlds/model.py), or None when the world is not at hand."""
    world = (worlds or {}).get(world_id)
    for scenario in getattr(world, "scenarios", ()) or ():
        if getattr(scenario, "id", None) == scenario_id:
            return scenario
    return None


def scenario_detail(entry: dict, transcript, scenario, name: str, *, fixture: bool = False):
    """The detail of one scenario (a scorecard `cases` entry of category scenario): its verdict and
    first reason, the conversation its entry holds, the end-state difference; the raw JSON from its
    transcript (grading/transcripts.ScenarioTranscript; None: not at hand), the system prompt and
    first message from its record `scenario` (None: its world is not at hand); a fixture's note
    (what makes it illustrative) before the verdict."""
    from toolproof.grading.scripted_user import first_message
    from toolproof.reports.scenario_view import conversation, ending_line
    from toolproof.reports.scenarios import diff_rows, first_reason

    box = el("div", cls="scenario-detail", data_world=str(entry.get("world", "")))
    if scenario is not None:
        box.appendChild(el("p", scenario.title, cls="case-title"))
        if scenario.why:
            box.appendChild(el("p", scenario.why, cls="muted small"))
    note = transcript.raw.get("note") if fixture and transcript is not None else None
    if isinstance(note, str) and note:
        box.appendChild(el("p", f"Fixture note: {note}", cls="fixture-note small"))
    box.appendChild(el("p", cls="scenario-verdict", children=[
        el("span", entry["verdict"], cls=f"badge verdict-{entry['verdict'].lower()}"),
        el("span", first_reason(entry), cls="scenario-first-reason")]))
    credit = entry.get("turn_credit")
    if isinstance(credit, (int, float)) and not isinstance(credit, bool):
        box.appendChild(el("p", f"Credit per turn, on average: {credit:.2f}", cls="muted small turn-credit"))
    box.appendChild(el("h4", "Conversation, turn by turn"))
    turns = el("ol", cls="scenario-turns")
    if scenario is not None and scenario.system:
        turns.appendChild(el("li", cls="scenario-system", children=[
            el("span", "System", cls="msg-role"), el("div", scenario.system, cls="msg-text")]))
    views = conversation(entry, first_message(scenario) if scenario is not None else "")
    for turn in views:
        turns.appendChild(turn_item(turn))
    if not views:
        turns.appendChild(el("li", "No model turn was recorded.", cls="muted small"))
    box.appendChild(turns)
    ending = ending_line(entry.get("ended"))
    if ending:
        box.appendChild(el("p", ending, cls="small scenario-ending", data_ended=str(entry.get("ended"))))
    box.appendChild(diff_table(diff_rows(entry), name, stopped=entry["verdict"] == "ERROR"))
    if transcript is not None:
        box.appendChild(raw_json(transcript.raw, name))
    return box


def turn_item(turn: dict):
    """One turn: the user's message it answered, then the model's calls (each with its result and
    state change) and text, its credit and notes."""
    n = turn["n"]
    item = el("li", cls="scenario-turn", data_turn=str(n) if n is not None else "end")
    if turn["user"]:
        item.appendChild(el("div", cls="msg msg-user", data_role="user", children=[
            el("span", "User" + (" (confirms)" if turn.get("confirms") else ""), cls="msg-role"),
            el("div", turn["user"], cls="msg-text")]))
    if n is not None:
        calls = len(turn["calls"])
        head = [f"Turn {n}"] + ([f"{counted(calls, 'call')} in one turn"] if calls > 1 else []) \
            + ([f"credit {turn['credit']}"] if turn["credit"] not in ("", "n/a") else [])
        item.appendChild(el("p", " · ".join(head), cls="turn-head", data_calls=str(calls)))
    for call in turn["calls"]:
        item.appendChild(call_item(call))
    if turn["text"]:
        item.appendChild(el("div", cls="msg msg-assistant", data_role="assistant", children=[
            el("span", "Assistant", cls="msg-role"), el("div", turn["text"], cls="msg-text")]))
    failed = [note for note in turn["notes"] if note.startswith("request failed")]
    for note in failed:
        item.appendChild(el("div", cls="msg msg-error", data_role="error", children=[
            el("span", "Request failed", cls="msg-role"), el("div", note, cls="msg-text")]))
    notes = [note for note in turn["notes"] if note not in failed]
    if notes:
        item.appendChild(el("ul", cls="turn-notes small", children=[el("li", note) for note in notes]))
    return item


def call_item(call: dict):
    """A call: the tool and its arguments; the result (a tool error marked so); the changes it made."""
    parts = [el("span", "Assistant calls · " + call["tool"], cls="msg-role"),
             el("div", call["arguments"], cls="msg-text call-args")]
    if call["result"]:
        parts.append(el("div", cls="call-result" + (" call-error" if call["error"] else ""), children=[
            el("span", "Tool error" if call["error"] else "Result", cls="msg-role"),
            el("div", call["result"], cls="msg-text")]))
    if call["changes"]:               # a read changes nothing: no line for it
        parts.append(el("ul", cls="state-change", aria_label="State change", children=[
            el("li", line) for line in call["changes"]]))
    return el("div", cls="msg msg-call scenario-call", data_role="call", data_tool=call["tool"],
              data_error="true" if call["error"] else "false", children=parts)


def diff_table(rows: list[list[str]], name: str, *, stopped: bool = False):
    """The end-state difference: one row per field that differs (the grader's own list, in the
    cells every report shows: reports/scenarios.DIFF_HEAD); `stopped` (an ERROR): the tables as
    they were when a request failed."""
    from toolproof.reports.scenarios import DIFF_HEAD

    block = el("div", cls="end-state")
    block.appendChild(el("h4", "End state, when the conversation stopped" if stopped else "End state"))
    if not rows:                        # ERROR: the grader compared the tables as they were at the stop
        block.appendChild(el("p", "The tables were as expected when the conversation stopped." if stopped
                             else "The tables ended as expected.", cls="small end-state-same"))
        return block
    table = el("table", cls="fields end-state-diff", children=[el("thead", children=[el("tr", children=[
        el("th", t[:1].upper() + t[1:], scope="col") for t in DIFF_HEAD])])])
    body = el("tbody")
    heads = [t[:1].upper() + t[1:] for t in DIFF_HEAD]
    for cells in rows:
        table_name, key, field = cells[:3]
        body.appendChild(el("tr", data_table=table_name, data_key=key, data_field=field, children=[
            el("td", text, data_label=head, **({"cls": "differs"} if i == len(cells) - 1 else {}))
            for i, (head, text) in enumerate(zip(heads, cells))]))
    table.appendChild(body)
    block.appendChild(scroller(f"{name}: end-state difference", table))
    return block


def raw_json(raw: dict, name: str):
    """Every request and response of the conversation, as recorded, one click away."""
    from toolproof.reports.page_view import pretty

    box = el("details", cls="raw-json", children=[el("summary", "Raw request and response JSON")])
    for i, turn in enumerate(raw.get("turns") or []):
        if not isinstance(turn, dict):
            continue
        box.appendChild(el("p", f"Turn {i + 1}: request", cls="raw-head"))
        box.appendChild(scroller(f"{name}, turn {i + 1}: request JSON", tag="pre", text=pretty(turn.get("request")),
                                 cls="json"))
        failed = turn.get("error") is not None
        box.appendChild(el("p", f"Turn {i + 1}: " + ("request failed" if failed else "response"), cls="raw-head"))
        box.appendChild(scroller(f"{name}, turn {i + 1}: {'request failed' if failed else 'response'}, JSON", tag="pre",
                                 text=pretty(turn.get("error") if failed else turn.get("response")),
                                 cls="json" + (" error" if failed else "")))
    return box


def scenarios_section(card: dict, kind: str):
    """The card's Scenarios section (`#<prefix>-scenarios`), when the card has a `scenarios` block:
    its lines (success rate with its interval, "N of M", turns, calls, recovery, asks, pass^k) and
    one row per world, in reports/scenarios.py's words, as every report shows them. None without."""
    from toolproof.reports.page_view import card_name, id_prefix
    from toolproof.reports.scenarios import WORLD_HEAD, block_of, summary_lines, world_rows

    block = block_of(card)
    if block is None:
        return None
    lines = summary_lines(block)
    section = el("section", cls="block scenarios-block", id=f"{id_prefix(kind)}-scenarios",
                 data_passed=str(block.get("passed", "")), data_graded=str(block.get("graded", "")),
                 data_planned=str(block.get("planned", "")))
    section.appendChild(el("h3", "Scenarios"))
    section.appendChild(el("p", lines[0], cls="scenarios-headline"))
    section.appendChild(el("ul", cls="scenarios-lines small", children=[el("li", line) for line in lines[1:]]))
    rows = world_rows(block)
    if rows:
        table = el("table", cls="fields scenario-worlds", children=[el("thead", children=[el("tr", children=[
            el("th", head[:1].upper() + head[1:], scope="col") for head in WORLD_HEAD])])])
        body = el("tbody")
        for row in rows:
            body.appendChild(el("tr", data_world=row[0], children=[el("td", cell) for cell in row]))
        table.appendChild(body)
        section.appendChild(scroller(f"{card_name(kind)}: scenarios by world", table))
    return section
