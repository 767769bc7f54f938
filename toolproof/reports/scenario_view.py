"""A scenario's conversation as the page's detail reads it: each model turn after the user's message
it answered (the scenario's first message, then the scripted user's reply to the turn before), then
the model's calls with their results and state changes, its text, the turn's credit and notes; a
reply that no request carried (the turn limit came first) closes it; and how the conversation ended.

Pure: the scorecard's entry in (grading/scenario_grade.py writes its `turns`: calls as replayed,
the user's reply after each turn, credit, notes), plain dicts of text out. The words are every
report's (reports/scenarios.turn_views); this module only says which user message comes before
which turn. It grades nothing and must not read the transcript for what the entry already holds.
"""
from __future__ import annotations

from typing import Any

from .scenarios import turn_views

ENDINGS = {"answer": "The conversation ended with the model's answer.",
           "turn_limit": "The turn limit cut the conversation.",
           "error": "A request failed: the conversation stopped there.",
           "aborted": "The run was aborted during this conversation.",
           "unreadable": "The model's reply could not be read, or the provider blocked it: the conversation stopped there."}


def conversation(entry: dict, first_user: str = "") -> list[dict]:
    """turn_views(entry), each with "user" the message that turn answered (the scenario's first
    message, then the reply the scripted user gave after the turn before) and "confirms"; a last item
    with "n" None holds a reply no request carried."""
    raw = [t if isinstance(t, dict) else {} for t in entry.get("turns") or []]
    views, said, confirms = turn_views(entry), first_user, False
    for view, turn in zip(views, raw):
        view["user"], view["confirms"] = said, confirms
        reply = turn.get("user") if isinstance(turn.get("user"), dict) else {}     # {"say", "confirms", ...}
        said = reply.get("say") if isinstance(reply.get("say"), str) else ""
        confirms = reply.get("confirms") is True
    if said:
        views.append({"n": None, "user": said, "confirms": confirms, "calls": [], "text": "", "credit": "",
                      "notes": ["no request followed: the conversation ended here"]})
    return views


def ending_line(ended: Any) -> str:
    """How the conversation ended, as the entry's `ended` says ('' when it does not say)."""
    return ENDINGS.get(ended, "") if isinstance(ended, str) else ""
