"""Provider wire formats: building requests and reading replies, as pure functions.

`reply_from_body(provider, body)` is the one entry the grader uses; each provider module names
its functions by direction (`openai_request` going out, `reply_from_openai` coming in).
Wire formats: "openai" and "openai-compatible" (Chat Completions), "openai-responses"
(Responses API), "anthropic" (Messages, also at an Anthropic-compatible gateway's base URL) and
"gemini" (generateContent).
"""
from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from toolproof.errors import ToolProofError
from .conversation import mocks_by_name
from .reply import Reply
from .anthropic import ANTHROPIC_VERSION, MAX_TOKENS, anthropic_request, reply_from_anthropic
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

    OpenAI's own endpoint is fixed (a custom server is "openai-compatible", which needs a base
    URL); the others take a base URL for gateways. A base URL is parsed, never sliced (see
    check_base_url). The model is quoted into Gemini's path so no model name can add a path, a
    query or a fragment (the key never goes in a URL).
    """
    if provider == "openai" or (provider != "openai-compatible" and not base_url.strip()):
        base = BASES[provider]
    else:
        base = check_base_url(base_url)
    parts = urlsplit(base)
    path = parts.path.rstrip("/")
    if provider == "gemini":
        path += f"/models/{quote_segment(model.strip().removeprefix('models/'))}:generateContent"
    else:
        path += PATHS[provider]
    return parts._replace(path=path).geturl()


def base_url_problem(base_url: str) -> str | None:
    """Why a base URL cannot be used, or None.

    Parsed with urlsplit, never sliced. Only http and https with a host; no `user:pass@`
    (credentials belong in the key field, which is sent only in the auth header and never
    stored), no query or fragment (a key in a URL lands in logs, histories and results files).
    The messages never repeat the URL: whatever secret it holds stays out of the terminal and
    the page.
    """
    text = base_url.strip()
    if any(c.isspace() or not c.isprintable() for c in text):      # controls, bidi marks, NBSP
        return "base URL holds spaces or control characters"
    try:
        parts = urlsplit(text)
        port = parts.port                   # raises ValueError on a port that is not a number
    except ValueError as exc:
        reason = "port out of range" if "out of range" in str(exc) else "malformed host or port"
        return f"base URL cannot be read ({reason})"
    if parts.username is not None or parts.password is not None or "@" in parts.netloc:
        return ("base URL must not contain user:password@; put the key in the API key field "
                "(or TOOLPROOF_API_KEY), which is sent only in the auth header")
    if parts.scheme not in ("http", "https"):
        return "base URL must start with http:// or https://"
    if not parts.hostname:
        return "base URL has no host"
    if parts.query or parts.fragment or "?" in text or "#" in text:
        return ("base URL must not have a query (?...) or fragment (#...): give the key as the "
                "API key, never in a URL")
    if port == 0 or (parts.netloc.endswith(":") and port is None):
        return "base URL has no valid port"
    return None


def check_base_url(base_url: str) -> str:
    """The base URL, stripped, or ToolProofError saying why it cannot be used."""
    problem = base_url_problem(base_url)
    if problem:
        raise ToolProofError(problem)
    return base_url.strip()


def quote_segment(text: str) -> str:
    """Percent-encode everything but RFC 3986 unreserved characters (one path segment)."""
    safe = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
    return "".join(c if c in safe else "".join(f"%{b:02X}" for b in c.encode("utf-8")) for c in text)


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
    elif provider == "gemini":
        headers["x-goog-api-key"] = api_key         # never ?key= in the URL: URLs end up in logs
    elif api_key:
        headers["authorization"] = f"Bearer {api_key}"
    return headers


def public_headers(headers: dict) -> dict:
    """The headers as they may be stored, shown and exported: credentials removed."""
    return {k: v for k, v in headers.items() if k.lower() not in SECRET_HEADERS}


def request_body(provider: str, case, tools: list, *, model: str, first: Any = None,
                 mocks: dict | None = None, max_tokens: int = MAX_TOKENS) -> dict:
    """The request body for one turn of a case, in the provider's shape, with the output-token
    limit in the field that provider reads (see each builder)."""
    mocks = mocks_by_name(mocks, tools) if mocks else mocks
    if provider in BUILDERS and provider != "anthropic":
        return BUILDERS[provider](case, tools, model=model, first=first, mocks=mocks,
                                  max_tokens=max_tokens)
    if provider == "anthropic":
        return anthropic_request(case, tools, model=model, first=first, mocks=mocks, max_tokens=max_tokens)
    return openai_request(case, tools, model=model, first=first, mocks=mocks, max_tokens=max_tokens,
                          token_field="max_completion_tokens" if provider == "openai" else "max_tokens")
