"""Tool names on the wire: the one mapping between a suite's tool names and what providers accept.

MCP allows tool names with `.` (and `-`), which OpenAI, Anthropic and Gemini refuse. A request
carries `wire_name(name)`: every character outside [A-Za-z0-9_-] replaced by `_`. A reply names
the wire form, and `name_from_wire` maps it back to the suite's name. The same function serves
both directions, so what a model was shown and what it is graded against cannot drift apart.

A catalogue entry has an id (what cases reference) and a name (what the model sees); several
entries may share a name. So the mapping back is per case: `id_from_wire` reads a reply's name
against the case's offer {id: name}. Two offered entries whose names have the same wire form could
not be told apart in a reply: suite.load refuses such a case (`wire_clash`), not the catalogue.

Pure: no I/O.
"""
from __future__ import annotations

import re
from typing import Iterable

_UNSAFE = re.compile(r"[^A-Za-z0-9_-]")


def wire_name(name: str) -> str:
    """The name as providers receive it: 'git.status' -> 'git_status'; safe names unchanged."""
    return _UNSAFE.sub("_", name)


def name_from_wire(wire: str, names: Iterable[str]) -> str:
    """The suite's name a reply's tool name stands for: itself when it is one of `names`, else
    the one name whose wire form it is, else unchanged (a hallucinated tool keeps its name)."""
    names = list(names)
    if wire in names:
        return wire
    for name in names:
        if wire_name(name) == wire:
            return name
    return wire



def id_from_wire(wire: str, offer: dict[str, str]) -> str | None:
    """The offered entry (its id) a reply's tool name stands for, given the case's offer
    {id: name}: the entry whose name it is, else the one whose name's wire form it is, else None
    (a tool the case did not offer, whatever ids the catalogue holds)."""
    for tool_id, name in offer.items():
        if wire == name:
            return tool_id
    for tool_id, name in offer.items():
        if wire_name(name) == wire:
            return tool_id
    return None


def wire_clash(offer: Iterable[tuple[str, str]]) -> tuple[str, str, str] | None:
    """The first two offered entries (id, name) whose names reach providers as one wire name:
    (earlier id, later id, wire name), or None when a reply can name each one apart."""
    seen: dict[str, str] = {}
    for tool_id, name in offer:
        wire = wire_name(name)
        if wire in seen:
            return seen[wire], tool_id, wire
        seen[wire] = tool_id
    return None
