"""Arm knobs: the request settings an arm may turn (strict schemas, tool choice, parallel calls,
reasoning effort), each written into the field its provider documents.

An arm is the plain run with a few knobs turned. `knob_problem` says, before anything is sent, why
a set of knobs cannot go to a provider: a knob its wire format has no field for, a value it does
not document, a value of the wrong kind. `apply_knobs` writes the knobs into a body the provider's
builder made; with no knobs it changes nothing, so an arm without knobs sends exactly what a plain
run sends. Where each knob goes, and the page of documentation each field rests on:
docs/providers.md, "Arm knobs".

What this module must not do: judge whether a model takes a value (gpt-4.1 refuses any
reasoning_effort, strict mode wants every property required and `additionalProperties: false`).
Such a request is sent as asked and the provider's refusal is a finding the run records, so a
schema is never rewritten to please strict mode, and no model name is read here.

Pure: no I/O; never mutates the body it is given.
"""
from __future__ import annotations

import re
from typing import Any, Callable

from toolproof.errors import ToolProofError, kind_of, quoted
from toolproof.providers.catalog import PROVIDERS
from toolproof.suite.toolnames import wire_name

KNOBS = ("strict", "tool_choice", "parallel_tool_calls", "reasoning_effort")
CHOICES = ("auto", "required", "none")     # any other tool_choice names the one tool to call

# The effort values each API's reference lists (checked December 2026; sources in
# docs/providers.md). Which model takes which value is the provider's answer, not ours.
_OPENAI_EFFORTS = ("none", "minimal", "low", "medium", "high", "xhigh", "max")
EFFORTS: dict[str, tuple[str, ...]] = {
    "openai": _OPENAI_EFFORTS,                              # reasoning_effort
    "openai-responses": _OPENAI_EFFORTS,                    # reasoning.effort
    "anthropic": ("low", "medium", "high", "xhigh", "max"),  # output_config.effort
    "gemini": ("minimal", "low", "medium", "high"),         # generationConfig.thinkingConfig.thinkingLevel
}
# OpenAI-compatible servers each document their own words (DeepSeek, vLLM, Ollama differ), so
# any short lower-case word goes, as `reasoning_effort`; the server accepts or refuses it.
COMPATIBLE_EFFORT = re.compile(r"[a-z]{1,20}")
# A name a tool could have: what Gemini allows in a function name (the widest of the four APIs).
TOOL_NAME = re.compile(r"[A-Za-z0-9_.:-]{1,128}")

# Knobs a wire format has no request field for, and why (the second half of the refusal).
NO_FIELD = {
    ("gemini", "strict"): "generateContent has no strict flag for a function declaration",
    ("gemini", "parallel_tool_calls"): "generateContent has no switch for parallel function calls",
}


def _shown(value: Any) -> str:
    """A value as a refusal names it: JSON's words for null and booleans, else its repr (cut,
    control characters escaped) and its kind."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return f"{quoted(value)} ({kind_of(value)})"


def _value_problem(knob: str, value: Any) -> str | None:
    """Why one knob's value is of no use to any provider, or None."""
    if knob in ("strict", "parallel_tool_calls"):
        return None if isinstance(value, bool) else f"knob {knob} must be true or false, not {_shown(value)}"
    if not isinstance(value, str):
        wanted = "\"auto\", \"required\", \"none\" or a tool's name" if knob == "tool_choice" else "a string"
        return f"knob {knob} must be {wanted}, not {_shown(value)}"
    # fullmatch, not ^...$: `$` lets a trailing newline through
    if knob == "tool_choice" and value not in CHOICES and not TOOL_NAME.fullmatch(value):
        return (f"knob tool_choice {quoted(value)} is not \"auto\", \"required\" or \"none\", nor a "
                "plausible tool name (1 to 128 letters, digits, _ . : or -)")
    return None


def _effort_problem(provider: str, effort: str) -> str | None:
    if provider in EFFORTS:
        if effort in EFFORTS[provider]:
            return None
        return (f"{provider} does not document reasoning_effort {quoted(effort)}: its values are "
                f"{', '.join(EFFORTS[provider])}")
    if COMPATIBLE_EFFORT.fullmatch(effort):
        return None
    return f"{provider} takes reasoning_effort as 1 to 20 lower-case letters (a-z), not {quoted(effort)}"


def knob_problem(provider: str, knobs: dict) -> str | None:
    """Why these knobs cannot be sent to this provider, for a user (naming the knob, the provider
    and the value), or None when every knob has a documented field there. The first problem in a
    fixed order: the knobs' names, their values, then what the provider has no field for."""
    if not isinstance(knobs, dict):
        return f"knobs must be an object of knob names and values, not {_shown(knobs)}"
    if provider not in PROVIDERS:
        return f"unknown provider {quoted(provider)}: the providers are {', '.join(PROVIDERS)}"
    for name in knobs:
        if name not in KNOBS:
            return f"unknown knob {quoted(name)}: the knobs are {', '.join(KNOBS)}"
    for knob in KNOBS:
        problem = _value_problem(knob, knobs[knob]) if knob in knobs else None
        if problem:
            return problem
    for knob in KNOBS:
        if knob in knobs and (provider, knob) in NO_FIELD:
            return (f"{provider} has no field for {knob} (asked for {knob} {_shown(knobs[knob])}): "
                    f"{NO_FIELD[provider, knob]}")
    if "reasoning_effort" in knobs:
        problem = _effort_problem(provider, knobs["reasoning_effort"])
        if problem:
            return problem
    # Messages' tool_choice "none" is {"type": "none"} alone: it takes no disable_parallel_tool_use.
    if provider == "anthropic" and knobs.get("tool_choice") == "none" and knobs.get("parallel_tool_calls") is False:
        return ("anthropic cannot send parallel_tool_calls false with tool_choice \"none\": Messages "
                "takes disable_parallel_tool_use only with tool_choice auto, any or tool")
    return None


def apply_knobs(provider: str, body: dict, knobs: dict) -> dict:
    """A new body: `body` with each knob in the field the provider documents (see the module
    docstring; docs/providers.md, "Arm knobs"). Only the objects on a changed path are copied; the
    argument is never mutated. No knobs: a body equal to `body`. ToolProofError when
    knob_problem refuses the knobs (check it first: a refused arm is a finding, not a crash)."""
    problem = knob_problem(provider, knobs)
    if problem:
        raise ToolProofError(problem)
    out = dict(body)
    writers = _WRITERS[provider]
    for knob in KNOBS:          # a fixed order: Anthropic's parallel flag goes inside the tool choice
        if knob in knobs:
            writers[knob](out, knobs[knob])
    return out


# ---------------------------------------------------------------- one writer per knob and wire format
# Each writer sets one knob on `out`, a shallow copy of the body: it may assign top-level keys, and
# replaces (never edits) any nested object it changes.

def _tools(out: dict, change: Callable[[dict], dict | None]) -> None:
    """Each tool definition through `change` (None: left as it is)."""
    tools = out.get("tools")
    if isinstance(tools, list):
        out["tools"] = [(change(t) if isinstance(t, dict) else None) or t for t in tools]


def _chat_strict(out: dict, value: bool) -> None:
    _tools(out, lambda t: {**t, "function": {**t["function"], "strict": value}}
           if isinstance(t.get("function"), dict) else None)


def _chat_choice(out: dict, value: str) -> None:
    out["tool_choice"] = value if value in CHOICES else {"type": "function", "function": {"name": wire_name(value)}}


def _top(field: str) -> Callable[[dict, Any], None]:
    def write(out: dict, value: Any) -> None:
        out[field] = value
    return write


def _responses_strict(out: dict, value: bool) -> None:
    """`strict` beside the name of each function tool (Responses tools are flat)."""
    _tools(out, lambda t: {**t, "strict": value} if t.get("type") == "function" else None)


def _anthropic_strict(out: dict, value: bool) -> None:
    """`strict` beside the name of each tool with an input_schema (a client tool, not a server one)."""
    _tools(out, lambda t: {**t, "strict": value} if "input_schema" in t else None)


def _responses_choice(out: dict, value: str) -> None:
    out["tool_choice"] = value if value in CHOICES else {"type": "function", "name": wire_name(value)}


def _merged(out: dict, field: str, **values: Any) -> None:
    """`out[field]` as an object with `values` set, whatever else it held kept (the builder may
    have put something there: Gemini's maxOutputTokens)."""
    held = out.get(field)
    out[field] = {**(held if isinstance(held, dict) else {}), **values}


def _responses_effort(out: dict, value: str) -> None:
    _merged(out, "reasoning", effort=value)


_ANTHROPIC_CHOICE = {"auto": "auto", "required": "any", "none": "none"}


def _anthropic_choice(out: dict, value: str) -> None:
    out["tool_choice"] = {"type": _ANTHROPIC_CHOICE[value]} if value in CHOICES else \
        {"type": "tool", "name": wire_name(value)}


def _anthropic_parallel(out: dict, value: bool) -> None:
    """false: `disable_parallel_tool_use: true` in the tool choice; true: the flag left out (its
    documented default is false, and tool_choice none takes no flag at all)."""
    held = out.get("tool_choice")
    choice = dict(held) if isinstance(held, dict) else {"type": "auto"}
    if value:
        choice.pop("disable_parallel_tool_use", None)
        if not isinstance(held, dict):
            return              # nothing to say: parallel use is the default
    else:
        choice["disable_parallel_tool_use"] = True
    out["tool_choice"] = choice


def _anthropic_effort(out: dict, value: str) -> None:
    _merged(out, "output_config", effort=value)


_GEMINI_MODE = {"auto": "AUTO", "required": "ANY", "none": "NONE"}


def _gemini_choice(out: dict, value: str) -> None:
    """functionCallingConfig.mode; a named tool is mode ANY limited to that one function."""
    held = out.get("toolConfig")
    config = dict(held) if isinstance(held, dict) else {}
    calling = config.get("functionCallingConfig")
    calling = {k: v for k, v in calling.items() if k != "allowedFunctionNames"} if isinstance(calling, dict) else {}
    calling["mode"] = _GEMINI_MODE.get(value, "ANY")
    if value not in CHOICES:
        calling["allowedFunctionNames"] = [wire_name(value)]
    config["functionCallingConfig"] = calling
    out["toolConfig"] = config


def _gemini_effort(out: dict, value: str) -> None:
    """thinkingLevel as the API reference's enum names it (LOW), as Google's own SDK sends it."""
    held = out.get("generationConfig")
    thinking = held.get("thinkingConfig") if isinstance(held, dict) else None
    _merged(out, "generationConfig",
            thinkingConfig={**(thinking if isinstance(thinking, dict) else {}), "thinkingLevel": value.upper()})


_CHAT = {"strict": _chat_strict, "tool_choice": _chat_choice,
         "parallel_tool_calls": _top("parallel_tool_calls"), "reasoning_effort": _top("reasoning_effort")}
_WRITERS: dict[str, dict[str, Callable[[dict, Any], None]]] = {
    "openai": _CHAT,
    "openai-compatible": _CHAT,
    "openai-responses": {"strict": _responses_strict, "tool_choice": _responses_choice,
                         "parallel_tool_calls": _top("parallel_tool_calls"), "reasoning_effort": _responses_effort},
    "anthropic": {"strict": _anthropic_strict, "tool_choice": _anthropic_choice,
                  "parallel_tool_calls": _anthropic_parallel, "reasoning_effort": _anthropic_effort},
    # strict and parallel_tool_calls: no field (NO_FIELD), so knob_problem stops them before a writer
    "gemini": {"tool_choice": _gemini_choice, "reasoning_effort": _gemini_effort},
}
