"""Provider wire formats: building requests and reading replies, as pure functions.

`reply_from_body(provider, body)` is the one entry the grader uses; each provider module names
its functions by direction (`calls_from_openai`, later `openai_request`).
"""
from __future__ import annotations

from typing import Any

from ..reply import Reply
from .anthropic import reply_from_anthropic
from .openai import reply_from_openai

PROVIDERS = ("openai", "anthropic", "openai-compatible")


def reply_from_body(provider: str, body: Any) -> Reply:
    """Parse one response body of the given provider into a Reply (never raises)."""
    if provider == "anthropic":
        return reply_from_anthropic(body)
    return reply_from_openai(body)
