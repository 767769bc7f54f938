"""Provider wire formats: building requests and reading replies, as pure functions.

`reply_from_body(provider, body)` is the one entry the grader uses; each provider module names
its functions by direction (`calls_from_openai`, later `openai_request`).
"""
from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from ..errors import ToolProofError
from ..reply import Reply
from .anthropic import ANTHROPIC_VERSION, MAX_TOKENS, anthropic_request, reply_from_anthropic
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


def check_base_url(base_url: str) -> str:
    """The base URL of an OpenAI-compatible server, parsed (never sliced), or ToolProofError.

    Only http and https with a host; no `user:pass@` (credentials belong in the key field, which
    is sent only in the auth header and never stored), no query or fragment (they would be lost
    or, worse, carry a key into the results file). The messages never repeat the URL: whatever
    secret it holds stays out of the terminal and the page.
    """
    text = base_url.strip()
    try:
        parts = urlsplit(text)
        parts.port                              # raises ValueError on a port that is not a number
    except ValueError as exc:
        reason = "port out of range" if "out of range" in str(exc) else "malformed host or port"
        raise ToolProofError(f"base URL cannot be read ({reason})") from None
    if parts.username is not None or parts.password is not None or "@" in parts.netloc:
        raise ToolProofError("base URL must not contain user:password@; put the key in the API key "
                             "field (or TOOLPROOF_API_KEY), which is sent only in the auth header")
    if parts.scheme not in ("http", "https"):
        raise ToolProofError("base URL must start with http:// or https://")
    if not parts.hostname:
        raise ToolProofError("base URL has no host")
    if parts.query or parts.fragment or "?" in text or "#" in text:
        raise ToolProofError("base URL must not have a query (?...) or fragment (#...)")
    return text


def endpoint(provider: str, base_url: str = "") -> str:
    """Where a provider's requests go; OpenAI-compatible servers at `<base_url>/chat/completions`."""
    if provider == "openai-compatible":
        parts = urlsplit(check_base_url(base_url))
        return parts._replace(path=parts.path.rstrip("/") + "/chat/completions").geturl()
    return ENDPOINTS[provider]


def origin_of(url: str) -> str:
    """`scheme://host[:port]/` of a URL (no userinfo, path or query): what a message may name."""
    try:
        parts = urlsplit(url)
        host, port = parts.hostname or "", parts.port
    except ValueError:
        return "an unreadable address"
    if not host:
        return "an unreadable address"
    host = f"[{host}]" if ":" in host else host
    return f"{parts.scheme}://{host}{f':{port}' if port else ''}/"


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
                 mocks: dict | None = None, max_tokens: int = MAX_TOKENS) -> dict:
    """The request body for one turn of a case, in the provider's shape, with the output-token
    limit in the field that provider reads (see openai_request and anthropic_request)."""
    if provider == "anthropic":
        return anthropic_request(case, tools, model=model, first=first, mocks=mocks, max_tokens=max_tokens)
    return openai_request(case, tools, model=model, first=first, mocks=mocks, max_tokens=max_tokens,
                          token_field="max_completion_tokens" if provider == "openai" else "max_tokens")
