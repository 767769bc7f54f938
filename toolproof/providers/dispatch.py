"""Provider wire formats: building requests and reading replies, as pure functions.

`reply_from_body(provider, body)` is the one entry the grader uses; each provider module names
its functions by direction (`openai_request` going out, `reply_from_openai` coming in). What
differs per provider (reader, builder, base, path, key header, sampling fields) is read from its
record in catalog.py, never from a table here.
"""
from __future__ import annotations

import re
from typing import Any

from toolproof.errors import ToolProofError
from toolproof.secrets import redact_text
from .conversation import mocks_by_name
from .reply import Reply
from .anthropic import MAX_TOKENS
from .catalog import CATALOGUE, PROVIDER, PROVIDERS  # noqa: F401 - PROVIDERS: the names, re-exported
from .openai import reply_from_openai, trim_openai


def urlsplit(url: str):
    """urllib.parse.urlsplit, imported when first needed: the page grades its fixtures without
    it, and urllib.parse (with ipaddress) is a tenth of a second of the page's start-up."""
    # lazy: urllib.parse (with ipaddress) is a tenth of a second of the page's start-up
    from urllib.parse import urlsplit as split

    return split(url)


def reply_from_body(provider: str, body: Any) -> Reply:
    """Parse one response body of the given provider into a Reply (never raises); a transcript of
    no known provider is read as Chat Completions."""
    spec = PROVIDER.get(provider)
    return (spec.reader if spec else reply_from_openai)(body)


def trim_body(provider: str, body: Any) -> tuple[Any, dict]:
    """(what a run keeps of one response body, what it dropped: {"calls": n, "characters": m},
    only counts that are not zero): the body trimmed to what its reader reads (see
    trimming.py); a transcript of no known provider is read as Chat Completions."""
    spec = PROVIDER.get(provider)
    return (spec.trimmer if spec else trim_openai)(body)


# Every provider's key header: never stored, shown or exported.
SECRET_HEADERS = frozenset(p.key_header for p in CATALOGUE)


def endpoint(provider: str, base_url: str = "", model: str = "") -> str:
    """Where a provider's requests go: `<base>/chat/completions`, `<base>/responses`,
    `<base>/v1/messages` or `<base>/models/<model>:generateContent` (the record's path).

    OpenAI's own endpoint is fixed (a custom server is "openai-compatible", which has no default
    base and needs a base URL); the others take a base URL for gateways. A base URL is parsed,
    never sliced (see check_base_url). The model is quoted into a path that names it (Gemini's)
    so no model name can add a path, a query or a fragment (the key never goes in a URL).
    """
    spec = PROVIDER[provider]
    if spec.base_fixed or (spec.base and not base_url.strip()):
        base = spec.base
    else:
        base = check_base_url(base_url)
    parts = urlsplit(base)
    path = versioned(provider, parts.path.rstrip("/"))
    if "{model}" in spec.path:
        path += spec.path.format(model=quote_segment(model.strip().removeprefix("models/")))
    else:
        path += spec.path
    return parts._replace(path=path).geturl()


def poll_url(provider: str, url: str, body: Any) -> str:
    """Where a reply the provider has not finished is fetched again (GET), or "" when it is
    finished or the wire format has no such fetch: the Responses API's `{endpoint}/{id}`
    (`/v1/responses/resp_1`), the id quoted into one path segment like a model name."""
    spec = PROVIDER.get(provider)
    ident = spec.pending(body) if spec is not None and spec.pending is not None else ""
    return f"{url.rstrip('/')}/{quote_segment(ident)}" if ident else ""


VERSION = re.compile(r"/v\d+(?:(?:alpha|beta)\d*)?$")


def versioned(provider: str, path: str) -> str:
    """A base URL's path with the API's version segment: the base may be given with it or without
    (`http://host:8000` and `http://host:8000/v1` mean the same server; an Anthropic base ending
    in /v1 gave /v1/v1/messages). A path that ends in a version (`/v1`, `/v1beta`) is kept.
    Anthropic and Gemini paths always end in their version, so a gateway's prefix
    (`/anthropic`) gets it added; an OpenAI-style server's path is the user's (Gemini's
    `/v1beta/openai`, Snowflake's `/api/v2/cortex/v1`) and only an empty one gets `/v1`."""
    spec = PROVIDER[provider]
    if VERSION.search(path) or path and not spec.version_always:
        return path
    return path + spec.version


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


def request_headers(provider: str, api_key: str, extra: tuple = ()) -> dict:
    """The headers of a request, credentials included (never stored: see public_headers), then
    the user's extra (name, value) headers (parse_header refused the ones set here)."""
    spec = PROVIDER[provider]
    headers = {"content-type": "application/json"}
    if spec.key_header != "authorization":
        headers[spec.key_header] = api_key
    elif api_key:
        headers["authorization"] = f"Bearer {api_key}"
    headers.update(spec.fixed_headers)
    for name, value in extra:
        headers[name.lower()] = value
    return headers


def public_headers(headers: dict, extra: tuple = ()) -> dict:
    """The headers as they may be stored, shown and exported: credentials removed, and the value
    of a secret-looking extra header (--header) replaced."""
    hidden = {name.lower() for name, value in extra if header_is_secret(name, value)}
    return {k: "[REDACTED]" if k.lower() in hidden else v for k, v in headers.items()
            if k.lower() not in SECRET_HEADERS}


def request_body(provider: str, case, tools: list, *, model: str, first: Any = None,
                 mocks: dict | None = None, max_tokens: int = MAX_TOKENS,
                 temperature: float | None = None, seed: int | None = None) -> dict:
    """The request body for one turn of a case, in the provider's shape, with the output-token
    limit in the field that provider reads (see each builder), and the temperature and seed
    where the provider has a field for them (see sampling)."""
    mocks = mocks_by_name(mocks, tools) if mocks else mocks
    body = PROVIDER[provider].builder(case, tools, model=model, first=first, mocks=mocks, max_tokens=max_tokens)
    return sampling(provider, body, temperature, seed)


def sampling(provider: str, body: dict, temperature: float | None, seed: int | None) -> dict:
    """The body with the temperature and seed, each only when given (None: the server's default,
    which then goes unrecorded: llama-cpp-python's is 0.8) and only where the provider reads it
    (its record's `sends`: Anthropic Messages and the Responses API have no seed field), in the
    field the record names (Gemini's `generationConfig`)."""
    spec = PROVIDER[provider]
    given = {"temperature": temperature, "seed": seed}
    fields = {k: v for k, v in given.items() if v is not None and k in spec.sends}
    if spec.sampling_under and fields:
        body[spec.sampling_under] = {**body.get(spec.sampling_under, {}), **fields}
    else:
        body.update(fields)
    return body


def sends_seed(provider: str) -> bool:
    return "seed" in PROVIDER[provider].sends


# Headers a user may not set with --header: the ones ToolProof sets itself, and the key's.
RESERVED_HEADERS = SECRET_HEADERS | {"content-type", "content-length", "host",
                                     "anthropic-dangerous-direct-browser-access"}
SECRET_WORDS = ("auth", "key", "token", "secret", "password", "cookie", "session", "signature", "credential")
HEADER_NAME = re.compile(r"^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}$")


def parse_header(text: str) -> tuple[str, str]:
    """`NAME:VALUE` as (name, value), or ToolProofError naming what is wrong (never the value)."""
    name, sep, value = text.partition(":")
    name, value = name.strip(), value.strip()
    if not sep or not HEADER_NAME.match(name):
        raise ToolProofError("a header must be NAME:VALUE, with a name of letters, digits and -")
    if name.lower() in RESERVED_HEADERS:
        raise ToolProofError(f"header {name!r} is set by ToolProof itself (give the key as the API key)")
    if len(value) > 4096 or any(ord(c) < 32 or ord(c) == 127 for c in value):
        raise ToolProofError(f"header {name!r} has a value with control characters or over 4096 characters")
    return name, value


def header_is_secret(name: str, value: str) -> bool:
    """Does a header look like a credential (by its name, or a value in a known key format)? Its
    value is then never shown, recorded or exported, and is redacted by value everywhere."""
    return any(word in name.lower() for word in SECRET_WORDS) or redact_text(value) != value


def shown_headers(headers: tuple) -> dict:
    """Extra headers as they may be recorded: a secret-looking one's value replaced."""
    return {name: "[REDACTED]" if header_is_secret(name, value) else value for name, value in headers}
