"""The providers ToolProof speaks to: one frozen record per provider, data only, in the order the
terminal lists them (`run --provider` choices, the page's select, every refusal that names them).

Every table keyed by provider reads these records: dispatch.py (readers, builders, endpoints,
headers, which sampling fields go where), the terminal's key variables and base-URL checks, the
page's placeholders and hints, the key-prefix hint. Adding a provider is one record here plus the
code that truly differs (its reader and builder, in a wire-format module of this folder).

Pure: no I/O, no behaviour beyond looking a record up.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any, Callable

from .anthropic import ANTHROPIC_VERSION, anthropic_request, reply_from_anthropic, trim_anthropic
from .gemini import gemini_request, reply_from_gemini, trim_gemini
from .openai import openai_request, reply_from_openai, trim_openai
from .reply import Reply
from .responses import pending_id, reply_from_responses, responses_request, trim_responses


@dataclass(frozen=True, slots=True)
class Provider:
    name: str                               # `--provider NAME`, the page's option value, results files
    label: str                              # the page's option text
    reader: Callable[[Any], Reply]          # one response body to a Reply (never raises)
    trimmer: Callable[[Any], tuple]         # a body to (what a run keeps of it, dropped counts): trimming.py
    builder: Callable[..., dict]            # (case, tools, *, model, first, mocks, max_tokens) -> body
    base: str                               # default base URL; "" none: the user must give one
    base_fixed: bool                        # the endpoint is fixed: no base URL is taken at all
    path: str                               # after the versioned base; {model} is the quoted model
    version: str                            # the version segment a base without one gets
    version_always: bool                    # a gateway's prefix gets the version too (else only an empty path)
    key_variable: str                       # the usual environment variable, read for the own endpoint only
    key_optional: bool                      # local servers often need no key
    key_header: str                         # where the key goes ("authorization": as a Bearer token)
    fixed_headers: tuple[tuple[str, str], ...]   # sent on every request, after the key
    key_prefix: str                         # how the provider's consoles start a key ("" any key)
    key_issuer: str                         # who issues the keys, as a hint names them
    key_kind: str                           # "an OpenAI key": a key with this prefix, in a hint
    placeholder: str                        # the page's model field placeholder
    base_hint: str                          # the page's base-URL placeholder ("" the field is hidden)
    sends: frozenset[str]                   # sampling fields the wire format reads
    sampling_under: str = ""                # the body field the sampling fields go in ("" top level)
    # a reply body to the id its finished form is fetched by (GET {endpoint}/{id}), "" when it is
    # finished or cannot be fetched; None: the wire format has no replies to fetch again
    pending: Callable[[Any], str] | None = None


_OPENAI_BASE = "https://api.openai.com/v1"
_SAMPLING = frozenset({"temperature", "seed"})

# The order is the page's provider list (and the terminal's --provider choices): OpenAI's two
# APIs first, then by maker, and any OpenAI-compatible server last.
CATALOGUE: tuple[Provider, ...] = (
    Provider(
        name="openai", label="OpenAI", reader=reply_from_openai, trimmer=trim_openai,
        # OpenAI's reasoning models refuse `max_tokens`; compatible servers read only that one.
        builder=partial(openai_request, token_field="max_completion_tokens"),
        base=_OPENAI_BASE, base_fixed=True, path="/chat/completions", version="/v1", version_always=False,
        key_variable="OPENAI_API_KEY", key_optional=False, key_header="authorization", fixed_headers=(),
        key_prefix="sk-", key_issuer="OpenAI", key_kind="an OpenAI key",
        placeholder="e.g. gpt-4.1-mini", base_hint="", sends=_SAMPLING),
    Provider(
        name="openai-responses", label="OpenAI Responses API", reader=reply_from_responses,
        trimmer=trim_responses,
        builder=responses_request,
        base=_OPENAI_BASE, base_fixed=False, path="/responses", version="/v1", version_always=False,
        key_variable="OPENAI_API_KEY", key_optional=False, key_header="authorization", fixed_headers=(),
        key_prefix="sk-", key_issuer="OpenAI", key_kind="an OpenAI key",
        placeholder="e.g. gpt-5-mini", base_hint=f"optional: default {_OPENAI_BASE}",
        sends=frozenset({"temperature"}),            # the Responses API has no seed field
        pending=pending_id),                         # a queued or in_progress reply is fetched again
    Provider(
        name="anthropic", label="Anthropic (or an Anthropic-compatible gateway)", reader=reply_from_anthropic,
        trimmer=trim_anthropic,
        builder=anthropic_request,
        base="https://api.anthropic.com/v1", base_fixed=False, path="/messages", version="/v1",
        version_always=True, key_variable="ANTHROPIC_API_KEY", key_optional=False, key_header="x-api-key",
        # Anthropic refuses browser-origin requests without this opt-in.
        fixed_headers=(("anthropic-version", ANTHROPIC_VERSION), ("anthropic-dangerous-direct-browser-access", "true")),
        key_prefix="sk-ant-", key_issuer="Anthropic", key_kind="an Anthropic key",
        placeholder="e.g. claude-sonnet-4-5", base_hint="optional gateway: default https://api.anthropic.com",
        sends=frozenset({"temperature"})),           # Messages has no seed field
    Provider(
        name="gemini", label="Google Gemini", reader=reply_from_gemini, trimmer=trim_gemini, builder=gemini_request,
        base="https://generativelanguage.googleapis.com/v1beta", base_fixed=False,
        path="/models/{model}:generateContent", version="/v1beta", version_always=True,
        # The key goes in a header, never ?key= in the URL: URLs end up in logs.
        key_variable="GEMINI_API_KEY", key_optional=False, key_header="x-goog-api-key", fixed_headers=(),
        key_prefix="AIza", key_issuer="Google Gemini", key_kind="a Google (Gemini) key",
        placeholder="e.g. gemini-2.5-flash",
        base_hint="optional: default https://generativelanguage.googleapis.com/v1beta",
        sends=_SAMPLING, sampling_under="generationConfig"),
    Provider(
        name="openai-compatible", label="OpenAI-compatible (Ollama, vLLM, llama.cpp, LM Studio)",
        reader=reply_from_openai, trimmer=trim_openai, builder=partial(openai_request, token_field="max_tokens"),
        base="", base_fixed=False, path="/chat/completions", version="/v1", version_always=False,
        key_variable="OPENAI_API_KEY", key_optional=True, key_header="authorization", fixed_headers=(),
        key_prefix="", key_issuer="", key_kind="",
        placeholder="e.g. qwen2.5:7b", base_hint="http://localhost:11434/v1", sends=_SAMPLING),
)

PROVIDER: dict[str, Provider] = {p.name: p for p in CATALOGUE}
PROVIDERS: tuple[str, ...] = tuple(PROVIDER)


def takes_base_url(name: str) -> bool:
    """Does this provider take a base URL (required or a gateway)? Not one whose endpoint is fixed."""
    spec = PROVIDER.get(name)
    return spec is None or not spec.base_fixed
