"""Provider wire formats: building requests and reading replies, as pure functions.

`reply_from_body(provider, body)` is the one entry the grader uses; each provider module names
its functions by direction (`calls_from_openai`, later `openai_request`).
"""
from __future__ import annotations

from typing import Any

from ..reply import Reply
from .anthropic import ANTHROPIC_VERSION, anthropic_request, reply_from_anthropic
from .openai import openai_request, reply_from_openai

PROVIDERS = ("openai", "anthropic", "openai-compatible")


def reply_from_body(provider: str, body: Any) -> Reply:
    """Parse one response body of the given provider into a Reply (never raises)."""
    if provider == "anthropic":
        return reply_from_anthropic(body)
    return reply_from_openai(body)


ENDPOINTS = {
    "openai": "https://api.openai.com/v1/chat/completions",
    "anthropic": "https://api.anthropic.com/v1/messages",
}
SECRET_HEADERS = frozenset({"authorization", "x-api-key"})


def endpoint(provider: str, base_url: str = "") -> str:
    """Where a provider's requests go; OpenAI-compatible servers at `<base_url>/chat/completions`."""
    if provider == "openai-compatible":
        return base_url.rstrip("/") + "/chat/completions"
    return ENDPOINTS[provider]


def request_headers(provider: str, api_key: str) -> dict:
    """The headers of a request, credentials included (never stored: see public_headers)."""
    headers = {"content-type": "application/json"}
    if provider == "anthropic":
        headers.update({"x-api-key": api_key, "anthropic-version": ANTHROPIC_VERSION,
                        # Anthropic refuses browser-origin requests without this opt-in.
                        "anthropic-dangerous-direct-browser-access": "true"})
    elif api_key:
        headers["authorization"] = f"Bearer {api_key}"
    return headers


def public_headers(headers: dict) -> dict:
    """The headers as they may be stored, shown and exported: credentials removed."""
    return {k: v for k, v in headers.items() if k.lower() not in SECRET_HEADERS}


def request_body(provider: str, case, tools: list, *, model: str, first: Any = None,
                 mocks: dict | None = None) -> dict:
    """The request body for one turn of a case, in the provider's shape."""
    build = anthropic_request if provider == "anthropic" else openai_request
    return build(case, tools, model=model, first=first, mocks=mocks)
