"""Tool names on the wire: the one mapping between a suite's tool names and what providers accept.

MCP allows tool names with `.` (and `-`), which OpenAI, Anthropic and Gemini refuse. A request
carries `wire_name(name)`: every character outside [A-Za-z0-9_-] replaced by `_`. A reply names
the wire form, and `name_from_wire` maps it back to the suite's name. The same function serves
both directions, so what a model was shown and what it is graded against cannot drift apart. Two
names with the same wire name could not be told apart in a reply: suite.load_tools refuses them.

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

