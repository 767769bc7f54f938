"""The provider's error message as kept and shown: its own words, bounded, the key redacted by
value before the cut, control characters escaped. Bodies are hand-written in each provider's
documented error shape (OpenAI/Anthropic/Gemini `error.message`, vLLM/llama.cpp `message` or
`detail`, plain text from a proxy)."""
from __future__ import annotations

import json

import pytest

from toolproof.running.retries import provider_message

KEY = "sk-proj-secretKEY-0123"


@pytest.mark.parametrize("body, said", [
    ('{"error": {"message": "This model does not support tools", "type": "invalid_request_error"}}',
     "This model does not support tools"),
    ('{"type": "error", "error": {"type": "invalid_request_error", "message": "prompt is too long: 210000 tokens > 200000 maximum"}}',
     "prompt is too long: 210000 tokens > 200000 maximum"),
    ('{"error": {"code": 404, "message": "models/gemini-9 is not found", "status": "NOT_FOUND"}}',
     "models/gemini-9 is not found"),
    ('{"object": "error", "message": "The model `x` does not exist.", "code": 404}', "The model `x` does not exist."),
    ('{"detail": "Not Found"}', "Not Found"),
    ('{"error": "unknown model"}', "unknown model"),
    ("<html><body>502 Bad Gateway</body></html>", "<html><body>502 Bad Gateway</body></html>"),
    ('{}', ""), ("", ""), ("   ", ""), ('{"error": {"code": 1}}', ""), ("[1, 2]", ""),
])
def test_the_providers_own_words(body, said):
    assert provider_message(body, (KEY,)) == said


def test_the_key_is_redacted_by_value_before_the_cut():
    # the key straddles the 300th character: cut first, half of it would be shown
    body = json.dumps({"error": {"message": "x" * 290 + KEY + " tail"}})
    said = provider_message(body, (KEY,))
    assert said.startswith("x" * 290 + "[REDACTED") and said.endswith(" more)")       # the cut says so
    assert len(said) == 300 + len(said.split("…", 1)[1]) + 1
    assert "sk-proj" not in said and "secretKEY" not in said


@pytest.mark.parametrize("body", [
    json.dumps({"error": {"message": "line\x1b[2J\nnext\u202eevil\x00"}}),
    "plain\x07text \u200b with controls",
])
def test_control_and_invisible_characters_are_escaped(body):
    said = provider_message(body)
    assert said.isprintable() and "\x1b" not in said and "\u202e" not in said and "\n" not in said


@pytest.mark.parametrize("body", [
    "[" * 100_000,                                        # deeply nested
    '{"error": {"message": NaN}}',
    '{"error": {"message": "' + "m" * 6_000_000 + '"}}',  # beyond the reading limit: raw text
    "\udcff broken surrogate",
    json.dumps({"error": {"message": ["a", {"b": 1}]}}),
])
def test_hostile_bodies_never_raise_and_stay_bounded(body):
    said = provider_message(body, (KEY,))
    assert isinstance(said, str) and len(said) <= 300 * 10        # escapes may lengthen, never unbounded
