"""Provider wire formats: building requests and reading replies, as pure functions.

`reply_from_body(provider, body)` is the one entry the grader uses; each provider module names
its functions by direction (`openai_request` going out, `reply_from_openai` coming in).
Wire formats: "openai" and "openai-compatible" (Chat Completions), "openai-responses"
(Responses API), "anthropic" (Messages, also at an Anthropic-compatible gateway's base URL) and
"gemini" (generateContent).
"""
from __future__ import annotations

from typing import Any

from ..reply import Reply
from .anthropic import ANTHROPIC_VERSION, anthropic_request, reply_from_anthropic
from .gemini import gemini_request, reply_from_gemini
from .openai import openai_request, reply_from_openai
from .responses import reply_from_responses, responses_request

PROVIDERS = ("openai", "anthropic", "openai-compatible", "openai-responses", "gemini")
READERS = {"anthropic": reply_from_anthropic, "openai-responses": reply_from_responses,
           "gemini": reply_from_gemini}
BUILDERS = {"anthropic": anthropic_request, "openai-responses": responses_request,
            "gemini": gemini_request}


def reply_from_body(provider: str, body: Any) -> Reply:
    """Parse one response body of the given provider into a Reply (never raises)."""
    return READERS.get(provider, reply_from_openai)(body)


# Default bases; a user-given base URL replaces them (required for openai-compatible).
BASES = {
    "openai": "https://api.openai.com/v1",
    "openai-responses": "https://api.openai.com/v1",
    "anthropic": "https://api.anthropic.com",
    "gemini": "https://generativelanguage.googleapis.com/v1beta",
}
PATHS = {"openai": "/chat/completions", "openai-compatible": "/chat/completions",
         "openai-responses": "/responses", "anthropic": "/v1/messages"}
SECRET_HEADERS = frozenset({"authorization", "x-api-key", "x-goog-api-key"})


def endpoint(provider: str, base_url: str = "", model: str = "") -> str:
    """Where a provider's requests go: `<base>/chat/completions`, `<base>/responses`,
    `<base>/v1/messages` or `<base>/models/<model>:generateContent`.

    OpenAI's own endpoint is fixed (a custom server is "openai-compatible"); the others take a
    base URL for gateways. The model is quoted into Gemini's path so no model name can add a
    path, a query or a fragment (the key never goes in a URL).
    """
    base = BASES["openai"] if provider == "openai" else (base_url.strip() or BASES.get(provider, ""))
    base = base.rstrip("/")
    if provider == "gemini":
        name = model.strip().removeprefix("models/")
        return f"{base}/models/{quote_segment(name)}:generateContent"
    return base + PATHS[provider]


def base_url_problem(base_url: str) -> str | None:
    """Why a base URL cannot be used, or None. Credentials, a query or a fragment are refused:
    a key belongs in the auth header only, never in a URL that lands in logs and exports."""
    url = base_url.strip()
    if any(c.isspace() or not c.isprintable() for c in url):      # controls, bidi marks, NBSP
        return f"base URL {base_url!r} holds spaces or control characters"
    scheme, sep, rest = url.partition("://")
    authority = rest.split("/", 1)[0]
    if scheme.lower() not in ("http", "https") or not sep or not authority.strip("@:"):
        return f"base URL {base_url!r} is not an http(s) URL with a host"
    if "?" in url or "#" in url:
        return "the base URL has a query or fragment: give the key as the API key, never in a URL"
    if "@" in authority:
        return "the base URL holds credentials (user:password@): give the key as the API key instead"
    host, colon, port = authority.rpartition(":") if not authority.endswith("]") else (authority, "", "")
    if colon and not (port.isdigit() and port.isascii() and 0 < int(port) < 65536 and host):
        return f"base URL {base_url!r} has no valid port"
    return None


def quote_segment(text: str) -> str:
    """Percent-encode everything but RFC 3986 unreserved characters (one path segment)."""
    safe = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
    return "".join(c if c in safe else "".join(f"%{b:02X}" for b in c.encode("utf-8")) for c in text)


def request_headers(provider: str, api_key: str) -> dict:
    """The headers of a request, credentials included (never stored: see public_headers)."""
    headers = {"content-type": "application/json"}
    if provider == "anthropic":
        headers.update({"x-api-key": api_key, "anthropic-version": ANTHROPIC_VERSION,
                        # Anthropic refuses browser-origin requests without this opt-in.
                        "anthropic-dangerous-direct-browser-access": "true"})
    elif provider == "gemini":
        headers["x-goog-api-key"] = api_key         # never ?key= in the URL: URLs end up in logs
    elif api_key:
        headers["authorization"] = f"Bearer {api_key}"
    return headers


def public_headers(headers: dict) -> dict:
    """The headers as they may be stored, shown and exported: credentials removed."""
    return {k: v for k, v in headers.items() if k.lower() not in SECRET_HEADERS}


def request_body(provider: str, case, tools: list, *, model: str, first: Any = None,
                 mocks: dict | None = None, max_tokens: int | None = None) -> dict:
    """The request body for one turn of a case, in the provider's shape."""
    if provider in ("openai-responses", "gemini"):
        return BUILDERS[provider](case, tools, model=model, first=first, mocks=mocks,
                                  max_tokens=max_tokens)
    build = anthropic_request if provider == "anthropic" else openai_request
    return build(case, tools, model=model, first=first, mocks=mocks)
