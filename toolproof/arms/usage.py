"""Reasoning tokens as each provider reports them in a response body, apart from the output
tokens they are part of: what the effort audit compares between arms (arms/audit.py).

- Chat Completions (and compatible servers that copy it): `usage.completion_tokens_details.reasoning_tokens`;
- Responses: `usage.output_tokens_details.reasoning_tokens`;
- Gemini: `usageMetadata.thoughtsTokenCount` (absent when the model did not think: read as 0
  once the body has a usageMetadata);
- Anthropic Messages reports none (thinking is billed inside output_tokens): None.

Pure: no I/O. Never raises: a body of any shape gives a count or None.
"""
from __future__ import annotations

from typing import Any

PATHS = {
    "openai": ("usage", "completion_tokens_details", "reasoning_tokens"),
    "openai-compatible": ("usage", "completion_tokens_details", "reasoning_tokens"),
    "openai-responses": ("usage", "output_tokens_details", "reasoning_tokens"),
    "gemini": ("usageMetadata", "thoughtsTokenCount"),
}


def reasoning_tokens(provider: str, body: Any) -> int | None:
    """The reply's reasoning tokens, or None when the provider did not report them."""
    path = PATHS.get(provider)
    if path is None or not isinstance(body, dict):
        return None
    node: Any = body
    for key in path[:-1]:
        node = node.get(key) if isinstance(node, dict) else None
    if not isinstance(node, dict):
        return None
    value = node.get(path[-1], 0 if provider == "gemini" else None)
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None
