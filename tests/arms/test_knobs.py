"""Arm knobs: each knob lands in the field its provider documents (docs/providers.md, "Arm
knobs"), no knobs send the plain body byte for byte, the body handed in is never changed, and what
a provider has no field for is refused before sending with a sentence naming knob, provider, value."""
from __future__ import annotations

import copy
import json

import pytest

from toolproof.arms.knobs import EFFORTS, KNOBS, apply_knobs, knob_problem
from toolproof.datafiles import load_suite_files
from toolproof.errors import ToolProofError
from toolproof.providers.catalog import PROVIDERS
from toolproof.providers.dispatch import request_body

BUNDLE = load_suite_files()
# A case with a system prompt and several tools: every builder then fills every part of its body.
CASE = next(c for c in BUNDLE.cases if c.system and len(c.tools) >= 2)
TOOLS = [BUNDLE.tools[t] for t in CASE.tools]
NAMED = TOOLS[1].name           # a tool the case offers, to force by name
CHAT = ("openai", "openai-compatible")


def plain(provider: str, **options) -> dict:
    """The body a plain run sends for the case's first turn."""
    return request_body(provider, CASE, TOOLS, model="m", **options)


def test_the_knob_names_are_fixed():
    assert KNOBS == ("strict", "tool_choice", "parallel_tool_calls", "reasoning_effort")


@pytest.mark.parametrize("provider", PROVIDERS)
def test_no_knobs_send_the_plain_body_byte_for_byte(provider):
    body = plain(provider)
    out = apply_knobs(provider, body, {})
    assert out == body and json.dumps(out) == json.dumps(body)     # same keys, same order
    assert knob_problem(provider, {}) is None


# (provider, knobs, the top-level field it changes, that field's exact value afterwards)
MAPPINGS = [
    *[(p, {"tool_choice": "auto"}, "tool_choice", "auto") for p in CHAT],
    *[(p, {"tool_choice": "required"}, "tool_choice", "required") for p in CHAT],
    *[(p, {"tool_choice": "none"}, "tool_choice", "none") for p in CHAT],
    *[(p, {"tool_choice": NAMED}, "tool_choice", {"type": "function", "function": {"name": NAMED}}) for p in CHAT],
    *[(p, {"parallel_tool_calls": True}, "parallel_tool_calls", True) for p in CHAT],
    *[(p, {"parallel_tool_calls": False}, "parallel_tool_calls", False) for p in CHAT],
    ("openai", {"reasoning_effort": "minimal"}, "reasoning_effort", "minimal"),
    ("openai", {"reasoning_effort": "xhigh"}, "reasoning_effort", "xhigh"),
    # a compatible server's own word goes through as it is (DeepSeek, vLLM, Ollama differ)
    ("openai-compatible", {"reasoning_effort": "turbo"}, "reasoning_effort", "turbo"),
    ("openai-responses", {"tool_choice": "required"}, "tool_choice", "required"),
    ("openai-responses", {"tool_choice": "none"}, "tool_choice", "none"),
    ("openai-responses", {"tool_choice": NAMED}, "tool_choice", {"type": "function", "name": NAMED}),
    ("openai-responses", {"parallel_tool_calls": True}, "parallel_tool_calls", True),
    ("openai-responses", {"reasoning_effort": "none"}, "reasoning", {"effort": "none"}),
    ("anthropic", {"tool_choice": "auto"}, "tool_choice", {"type": "auto"}),
    ("anthropic", {"tool_choice": "required"}, "tool_choice", {"type": "any"}),
    ("anthropic", {"tool_choice": "none"}, "tool_choice", {"type": "none"}),
    ("anthropic", {"tool_choice": NAMED}, "tool_choice", {"type": "tool", "name": NAMED}),
    ("anthropic", {"parallel_tool_calls": False}, "tool_choice", {"type": "auto", "disable_parallel_tool_use": True}),
    ("anthropic", {"parallel_tool_calls": True}, "tool_choice", {"type": "auto"}),   # the default: no flag
    ("anthropic", {"tool_choice": "required", "parallel_tool_calls": False}, "tool_choice",
     {"type": "any", "disable_parallel_tool_use": True}),
    ("anthropic", {"tool_choice": NAMED, "parallel_tool_calls": False}, "tool_choice",
     {"type": "tool", "name": NAMED, "disable_parallel_tool_use": True}),
    ("anthropic", {"tool_choice": "none", "parallel_tool_calls": True}, "tool_choice", {"type": "none"}),
    ("anthropic", {"reasoning_effort": "low"}, "output_config", {"effort": "low"}),
    ("gemini", {"tool_choice": "auto"}, "toolConfig", {"functionCallingConfig": {"mode": "AUTO"}}),
    ("gemini", {"tool_choice": "required"}, "toolConfig", {"functionCallingConfig": {"mode": "ANY"}}),
    ("gemini", {"tool_choice": "none"}, "toolConfig", {"functionCallingConfig": {"mode": "NONE"}}),
    ("gemini", {"tool_choice": NAMED}, "toolConfig",
     {"functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": [NAMED]}}),
    # merged with what the builder put there: the output-token limit stays
    ("gemini", {"reasoning_effort": "medium"}, "generationConfig",
     {"maxOutputTokens": 1024, "thinkingConfig": {"thinkingLevel": "MEDIUM"}}),
]


@pytest.mark.parametrize("provider, knobs, field, expected", MAPPINGS,
                         ids=[f"{m[0]}-{json.dumps(m[1], sort_keys=True)}" for m in MAPPINGS])
def test_each_knob_lands_in_the_documented_field_and_nowhere_else(provider, knobs, field, expected):
    body = plain(provider)
    out = apply_knobs(provider, body, knobs)
    assert out[field] == expected
    assert {k: v for k, v in out.items() if k != field} == {k: v for k, v in body.items() if k != field}


@pytest.mark.parametrize("provider, value", [(p, v) for p in CHAT for v in (True, False)])
def test_chat_strict_goes_inside_every_function(provider, value):
    body = plain(provider)
    out = apply_knobs(provider, body, {"strict": value})
    assert [t["function"]["strict"] for t in out["tools"]] == [value] * len(TOOLS)
    # only the flag: the schema is sent as it is, strict mode or not (a refusal is a finding)
    assert [{k: v for k, v in t["function"].items() if k != "strict"} for t in out["tools"]] == \
        [t["function"] for t in body["tools"]]


@pytest.mark.parametrize("provider", ["openai-responses", "anthropic"])
def test_flat_tools_get_strict_beside_their_name(provider):
    body = plain(provider)
    out = apply_knobs(provider, body, {"strict": True})
    assert [t["strict"] for t in out["tools"]] == [True] * len(TOOLS)
    assert [{k: v for k, v in t.items() if k != "strict"} for t in out["tools"]] == body["tools"]


def test_responses_effort_is_merged_into_a_reasoning_object_the_body_holds():
    body = {**plain("openai-responses"), "reasoning": {"summary": "auto"}}
    assert apply_knobs("openai-responses", body, {"reasoning_effort": "high"})["reasoning"] == \
        {"summary": "auto", "effort": "high"}


def test_anthropic_effort_is_merged_into_an_output_config_the_body_holds():
    body = {**plain("anthropic"), "output_config": {"format": {"type": "json_schema"}}}
    assert apply_knobs("anthropic", body, {"reasoning_effort": "max"})["output_config"] == \
        {"format": {"type": "json_schema"}, "effort": "max"}


def test_gemini_effort_without_a_generation_config_makes_one():
    body = plain("gemini", max_tokens=None)
    assert "generationConfig" not in body
    assert apply_knobs("gemini", body, {"reasoning_effort": "high"})["generationConfig"] == \
        {"thinkingConfig": {"thinkingLevel": "HIGH"}}


def test_gemini_choice_drops_a_named_tool_it_no_longer_forces():
    named = apply_knobs("gemini", plain("gemini"), {"tool_choice": NAMED})
    assert apply_knobs("gemini", named, {"tool_choice": "auto"})["toolConfig"] == \
        {"functionCallingConfig": {"mode": "AUTO"}}


@pytest.mark.parametrize("provider, field, expected", [
    ("openai", "tool_choice", {"type": "function", "function": {"name": "git_status"}}),
    ("openai-responses", "tool_choice", {"type": "function", "name": "git_status"}),
    ("anthropic", "tool_choice", {"type": "tool", "name": "git_status"}),
    ("gemini", "toolConfig", {"functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": ["git_status"]}}),
])
def test_a_named_tool_goes_out_in_its_wire_form_like_the_tool_definitions(provider, field, expected):
    # the builders send wire_name(name) ('git.status' -> 'git_status'): the forced name must match it
    assert apply_knobs(provider, plain(provider), {"tool_choice": "git.status"})[field] == expected


EVERY_KNOB = {
    "openai": {"strict": True, "tool_choice": NAMED, "parallel_tool_calls": True, "reasoning_effort": "low"},
    "openai-compatible": {"strict": False, "tool_choice": "required", "parallel_tool_calls": True,
                          "reasoning_effort": "high"},
    "openai-responses": {"strict": True, "tool_choice": NAMED, "parallel_tool_calls": True,
                         "reasoning_effort": "medium"},
    "anthropic": {"strict": True, "tool_choice": NAMED, "parallel_tool_calls": False, "reasoning_effort": "xhigh"},
    "gemini": {"tool_choice": NAMED, "reasoning_effort": "low"},
}


@pytest.mark.parametrize("provider", PROVIDERS)
def test_the_body_handed_in_is_never_changed_and_only_changed_parts_are_copied(provider):
    body = plain(provider)
    before = copy.deepcopy(body)
    out = apply_knobs(provider, body, EVERY_KNOB[provider])
    assert body == before and out != body
    conversation = {"openai-responses": "input", "gemini": "contents"}.get(provider, "messages")
    assert out[conversation] is body[conversation]          # untouched parts are shared, not copied
    assert apply_knobs(provider, out, EVERY_KNOB[provider]) == out       # turning a knob twice: same body
    json.dumps(out, allow_nan=False)


def test_every_knob_at_once_on_chat_completions():
    out = apply_knobs("openai", plain("openai"), EVERY_KNOB["openai"])
    assert (out["tool_choice"], out["parallel_tool_calls"], out["reasoning_effort"]) == \
        ({"type": "function", "function": {"name": NAMED}}, True, "low")
    assert all(t["function"]["strict"] is True for t in out["tools"])


@pytest.mark.parametrize("provider, effort", [(p, e) for p, values in EFFORTS.items() for e in values])
def test_every_documented_effort_is_taken(provider, effort):
    assert knob_problem(provider, {"reasoning_effort": effort}) is None
    assert apply_knobs(provider, plain(provider), {"reasoning_effort": effort}) != plain(provider)


def test_efforts_are_listed_for_every_provider_with_a_documented_list():
    assert set(EFFORTS) == set(PROVIDERS) - {"openai-compatible"}


# Exact refusals: each names the knob, the provider (where the provider is the reason) and the value.
REFUSALS = [
    ("gemini", {"strict": True}, "gemini has no field for strict (asked for strict true): generateContent has "
     "no strict flag for a function declaration"),
    ("gemini", {"strict": False}, "gemini has no field for strict (asked for strict false): generateContent has "
     "no strict flag for a function declaration"),
    ("gemini", {"parallel_tool_calls": False}, "gemini has no field for parallel_tool_calls (asked for "
     "parallel_tool_calls false): generateContent has no switch for parallel function calls"),
    ("anthropic", {"tool_choice": "none", "parallel_tool_calls": False}, "anthropic cannot send "
     "parallel_tool_calls false with tool_choice \"none\": Messages takes disable_parallel_tool_use only with "
     "tool_choice auto, any or tool"),
    ("openai", {"reasoning_effort": "ultra"}, "openai does not document reasoning_effort 'ultra': its values are "
     "none, minimal, low, medium, high, xhigh, max"),
    ("openai-responses", {"reasoning_effort": "High"}, "openai-responses does not document reasoning_effort "
     "'High': its values are none, minimal, low, medium, high, xhigh, max"),
    ("anthropic", {"reasoning_effort": "minimal"}, "anthropic does not document reasoning_effort 'minimal': its "
     "values are low, medium, high, xhigh, max"),
    ("gemini", {"reasoning_effort": "none"}, "gemini does not document reasoning_effort 'none': its values are "
     "minimal, low, medium, high"),
    ("openai-compatible", {"reasoning_effort": "Very High"}, "openai-compatible takes reasoning_effort as 1 to 20 "
     "lower-case letters (a-z), not 'Very High'"),
    ("openai-compatible", {"reasoning_effort": "a" * 21}, "openai-compatible takes reasoning_effort as 1 to 20 "
     f"lower-case letters (a-z), not '{'a' * 21}'"),
    ("openai-compatible", {"reasoning_effort": ""}, "openai-compatible takes reasoning_effort as 1 to 20 "
     "lower-case letters (a-z), not ''"),
]


@pytest.mark.parametrize("provider, knobs, message", REFUSALS, ids=[f"{r[0]}-{list(r[1].values())}" for r in REFUSALS])
def test_what_a_provider_has_no_field_for_is_refused_before_sending(provider, knobs, message):
    assert knob_problem(provider, knobs) == message
    body = plain(provider)
    with pytest.raises(ToolProofError) as caught:
        apply_knobs(provider, body, knobs)
    assert caught.value.reason == message and body == plain(provider)


TOOL_NAME_RULE = "is not \"auto\", \"required\" or \"none\", nor a plausible tool name (1 to 128 letters, digits, _ . : or -)"
BAD = [
    # a control character, shown escaped (the refusal is one line that obeys nothing)
    ({"tool_choice": "get\x00weather"}, f"knob tool_choice 'get\\x00weather' {TOOL_NAME_RULE}"),
    ({"tool_choice": "\u202eevil"}, f"knob tool_choice '\\u202eevil' {TOOL_NAME_RULE}"),
    # `$` would let a trailing newline through; the rule is the whole string
    ({"tool_choice": "lookup\n"}, f"knob tool_choice 'lookup\\n' {TOOL_NAME_RULE}"),
    ({"tool_choice": ""}, f"knob tool_choice '' {TOOL_NAME_RULE}"),
    ({"tool_choice": "get weather"}, f"knob tool_choice 'get weather' {TOOL_NAME_RULE}"),
    # 10,000 characters: refused, and quoted cut to 120 characters, saying how many were left out
    ({"tool_choice": "a" * 10_000}, f"knob tool_choice '{'a' * 119}… (9,882 more) {TOOL_NAME_RULE}"),
    ({"tool_choice": "a" * 129}, f"knob tool_choice '{'a' * 119}… (11 more) {TOOL_NAME_RULE}"),
    ({"strict": "yes"}, "knob strict must be true or false, not 'yes' (a string)"),
    ({"strict": None}, "knob strict must be true or false, not null"),
    ({"parallel_tool_calls": 1}, "knob parallel_tool_calls must be true or false, not 1 (a number)"),
    ({"parallel_tool_calls": "false"}, "knob parallel_tool_calls must be true or false, not 'false' (a string)"),
    ({"tool_choice": 3}, "knob tool_choice must be \"auto\", \"required\", \"none\" or a tool's name, not 3 (a number)"),
    ({"tool_choice": {"type": "auto"}}, "knob tool_choice must be \"auto\", \"required\", \"none\" or a tool's "
     "name, not {'type': 'auto'} (an object)"),
    ({"reasoning_effort": ["low"]}, "knob reasoning_effort must be a string, not ['low'] (an array)"),
    ({"reasoning_effort": True}, "knob reasoning_effort must be a string, not true"),
    ({"temperature": 0}, "unknown knob 'temperature': the knobs are strict, tool_choice, parallel_tool_calls, "
     "reasoning_effort"),
    ({"Strict": True}, "unknown knob 'Strict': the knobs are strict, tool_choice, parallel_tool_calls, "
     "reasoning_effort"),
    ({"x" * 5000: True}, f"unknown knob '{'x' * 119}… (4,882 more): the knobs are strict, tool_choice, "
     "parallel_tool_calls, reasoning_effort"),
    # the names come first: an unknown knob beside a bad value is named as unknown
    ({"strict": "yes", "seed": 1}, "unknown knob 'seed': the knobs are strict, tool_choice, parallel_tool_calls, "
     "reasoning_effort"),
]


@pytest.mark.parametrize("provider", PROVIDERS)
@pytest.mark.parametrize("knobs, message", BAD, ids=[repr(b[0])[:40] for b in BAD])
def test_malformed_and_hostile_knobs_are_refused_the_same_for_every_provider(provider, knobs, message):
    assert knob_problem(provider, knobs) == message
    assert "\n" not in message and "\x00" not in message
    with pytest.raises(ToolProofError):
        apply_knobs(provider, plain(provider), knobs)


@pytest.mark.parametrize("provider, knobs, message", [
    ("mistral", {}, "unknown provider 'mistral': the providers are " + ", ".join(PROVIDERS)),
    ("openai", ["strict"], "knobs must be an object of knob names and values, not ['strict'] (an array)"),
    ("openai", None, "knobs must be an object of knob names and values, not null"),
])
def test_an_unknown_provider_or_a_knobs_value_that_is_no_object_is_refused(provider, knobs, message):
    assert knob_problem(provider, knobs) == message


@pytest.mark.parametrize("name", ["create_event", "git.status", "mcp:server.tool", "a-b_c", "A" * 128, "AUTO"])
def test_a_plausible_tool_name_is_taken_as_a_named_choice(name):
    assert knob_problem("openai", {"tool_choice": name}) is None

