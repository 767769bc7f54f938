"""Live runs of the newer wire formats in the real page, against routed (never real) providers.

`page.route` answers https://api.openai.com/v1/responses and Gemini's generateContent with the
committed fixtures converted by tests/fakeprovider.py (routed by tests/routed.py), and, like the
real APIs, refuses a second turn that drops a thought signature or echoes unstored item ids.
Scripted answers cover the endings (truncation, MALFORMED_FUNCTION_CALL, SAFETY, RECITATION),
errors and the key's whereabouts; an Anthropic-compatible gateway is routed at a local base URL.
"""
from __future__ import annotations

import json

import pytest

from fakeprovider import FIXTURES, fixture_answer
from livepage import (NEED, SUITE, assert_not_shown, assert_only_talked_to, card_cases, exports,  # noqa: F401
                      live, page, reasons, run, start)
from routed import LEAK, LEAKY_BODY
from toolproof.providers.catalog import CATALOGUE

pytestmark = pytest.mark.browser
pytest.importorskip("playwright.sync_api")

RESPONSES = "https://api.openai.com/v1/responses"
GEMINI_BASE = "https://generativelanguage.googleapis.com"
GATEWAY = "http://127.0.0.1:4999"                 # allowed by the CSP (local); routed, never reached


def gemini_url(model: str) -> str:
    return f"{GEMINI_BASE}/v1beta/models/{model}:generateContent"


@pytest.fixture
def routes(live, page):
    """`live` for a wire format: routes(pattern, wire); the base URL field emptied afterwards."""
    yield live
    page.evaluate("document.getElementById('base-url').value = ''")


def ids(category: str) -> list[str]:
    return [c for c, s in SUITE.items() if s["category"] == category]


def assert_key_only_in_header(page, posts: list[dict], key: str, header: str, provider: str) -> None:
    """The key's whereabouts: the auth header and this tab's sessionStorage, nowhere else."""
    storage = page.evaluate("() => Object.fromEntries(Object.entries(sessionStorage))")
    assert storage.get(f"toolproof.key.{provider}") == key
    assert key not in json.dumps(page.evaluate("() => Object.fromEntries(Object.entries(localStorage))"))
    assert key not in page.evaluate("document.cookie") and key not in page.evaluate("location.href")
    assert key not in page.evaluate("document.documentElement.outerHTML")
    assert not [m for m in page.console if key in m]
    doc, md = exports(page)
    assert doc["transcripts"] and key not in json.dumps(doc) and key not in md
    for post in posts:
        assert key not in post["url"] and key not in post["raw"] and "key=" not in post["url"]
        assert [name for name, value in post["headers"].items() if key in value] == [header]
    assert not [u for u in page.requests if key in u]


# ---------------------------------------------------------------- OpenAI Responses

def test_responses_happy_path_and_second_turns(page, routes):
    responses = routes(RESPONSES, "openai-responses")
    key = "sk-responses-5e1f"
    assert run(page, provider="openai-responses", model="gpt-5-mini", key=key, scope="multi_step",
               cap=NEED["multi_step"]) == "done"
    assert card_cases(page) == {c: FIXTURES[c]["intended_verdict"] for c in ids("multi_step")}
    assert "openai-responses" in page.text_content("#live-card .live-label")
    for post in responses.posts:
        assert post["url"] == RESPONSES and post["headers"]["authorization"] == f"Bearer {key}"
        body = post["body"]
        assert (body["store"], body["tool_choice"], body["parallel_tool_calls"]) == (False, "auto", False)
        assert [t["name"] for t in body["tools"]] == SUITE[post["case_id"]]["tools"]
    second = [p for p in responses.posts if p["turn"] == 2]
    assert len(second) >= 9
    for post in second:       # the model's items, then one output per call, matched by call_id
        items = post["body"]["input"]
        calls = [i["call_id"] for i in items if i["type"] == "function_call"]
        assert calls and calls == [i["call_id"] for i in items if i["type"] == "function_call_output"]
        # ids only where the API pairs them: the encrypted reasoning item and the calls after it
        assert [i["type"] for i in items if "id" in i][:1] in ([], ["reasoning"])
        assert not [i for i in items if "id" in i and i["type"] not in ("reasoning", "function_call")]
    assert_key_only_in_header(page, responses.posts, key, "authorization", "openai-responses")
    assert_only_talked_to(page, routes.server, RESPONSES)


def test_responses_incomplete_is_truncation(page, routes):
    responses = routes(RESPONSES, "openai-responses")
    first = ids("should_call")[0]
    body = {"id": "resp_t", "status": "incomplete", "incomplete_details": {"reason": "max_output_tokens"},
            "output": [{"type": "function_call", "call_id": "c1", "name": "create_reminder", "arguments": '{"te'}]}
    responses.script[first] = [(200, {}, json.dumps(body))]
    assert run(page, provider="openai-responses", model="gpt-5-mini", scope="should_call", cap=1) == "done"
    assert card_cases(page) == {first: "FAIL"}
    assert "turn 1: response truncated (max_output_tokens): the model ran out of tokens" in reasons(page, first)
    assert len(responses.posts) == 1
    assert_only_talked_to(page, routes.server, RESPONSES)


def test_responses_queued_reply_is_fetched_until_finished(page, routes):
    """A background answer in the page: `queued`, then GET .../responses/{id} (the page's fetch with
    no body) gives `in_progress`, then the answer; graded as the fixture intends. A second case's
    queued reply cannot be fetched (404): an ERROR saying it was not finished, never an empty answer."""
    responses = routes(RESPONSES, "openai-responses")
    first, second = ids("should_call")[:2]
    key = "sk-poll-page-7"
    _, _, done = fixture_answer(first, 1, "openai-responses")
    queued = {"id": "resp_bg1", "object": "response", "status": "queued", "output": []}
    responses.script[first] = [(200, {}, json.dumps(queued))]
    responses.polls["resp_bg1"] = [(200, {}, json.dumps({**queued, "status": "in_progress"})),
                                   (200, {}, json.dumps({**json.loads(done), "id": "resp_bg1"}))]
    responses.script[second] = [(200, {}, json.dumps({**queued, "id": "resp_gone"}))]
    assert run(page, provider="openai-responses", model="gpt-5-mini", key=key, scope="should_call", cap=2) == "done"
    cases = card_cases(page)
    assert (cases[first], cases[second]) == (FIXTURES[first]["intended_verdict"], "ERROR")
    assert "turn 1: reply not finished (status queued: the provider had not started the answer)" in reasons(page, second)
    assert [f["url"] for f in responses.fetches] == [f"{RESPONSES}/resp_bg1"] * 2
    assert all(f["headers"]["authorization"] == f"Bearer {key}" for f in responses.fetches)
    assert f"{RESPONSES}/resp_gone" in responses.probes          # fetched once: 404, kept as unfinished
    assert_only_talked_to(page, routes.server, RESPONSES, f"{RESPONSES}/resp_bg1", f"{RESPONSES}/resp_gone")


def test_responses_401_stops_and_keeps_the_body_out(page, routes):
    responses = routes(RESPONSES, "openai-responses")
    first = ids("should_call")[0]
    responses.script[first] = [(401, {}, LEAKY_BODY)]
    assert run(page, provider="openai-responses", model="gpt-5-mini", scope="should_call", cap=9) == "error"
    assert page.text_content("#run-message") == ("Run stopped: HTTP 401, unauthorized (check the API key) "
                                                 "Kept as “openai-responses / gpt-5-mini” in Runs.")
    assert len(responses.posts) == 1
    assert_not_shown(page, LEAK)
    assert_only_talked_to(page, routes.server, RESPONSES)


# ---------------------------------------------------------------- Gemini

def test_gemini_happy_path_thought_signatures_and_the_key(page, routes):
    gemini = routes(f"{GEMINI_BASE}/**", "gemini")
    key = "AIzaSyGeminiWhereabouts77"
    assert run(page, provider="gemini", model="gemini-2.5-flash", key=key, scope="multi_step",
               cap=NEED["multi_step"]) == "done"
    # the fake refuses a second turn without the exact model content, so these verdicts also
    # prove every thoughtSignature went back unchanged
    assert card_cases(page) == {c: FIXTURES[c]["intended_verdict"] for c in ids("multi_step")}
    url = gemini_url("gemini-2.5-flash")
    for post in gemini.posts:
        assert post["url"] == url
        assert post["headers"]["x-goog-api-key"] == key and "authorization" not in post["headers"]
        body = post["body"]
        assert body["toolConfig"] == {"functionCallingConfig": {"mode": "AUTO"}}
        assert [d["name"] for d in body["tools"][0]["functionDeclarations"]] == SUITE[post["case_id"]]["tools"]
    second = [p for p in gemini.posts if p["turn"] == 2]
    assert len(second) >= 9
    for post in second:
        contents = post["body"]["contents"]
        assert [c["role"] for c in contents] == ["user", "model", "user"]
        assert all("thoughtSignature" in p for p in contents[1]["parts"] if "functionCall" in p)
        assert all("functionResponse" in p for p in contents[2]["parts"])
    assert_key_only_in_header(page, gemini.posts, key, "x-goog-api-key", "gemini")
    assert_only_talked_to(page, routes.server, url)


def gemini_ending(finish: str, parts: list | None = None) -> tuple:
    candidate = {"finishReason": finish, "index": 0}
    if parts is not None:
        candidate["content"] = {"role": "model", "parts": parts}
    return (200, {}, json.dumps({"candidates": [candidate], "usageMetadata": {"promptTokenCount": 40}}))


def test_gemini_endings_fail_with_their_reason(page, routes):
    gemini = routes(f"{GEMINI_BASE}/**", "gemini")
    cases = ids("should_not_call")[:4]
    for case_id, step in zip(cases, [gemini_ending("MALFORMED_FUNCTION_CALL"), gemini_ending("SAFETY"),
                                     gemini_ending("RECITATION"), gemini_ending("MAX_TOKENS", [{"text": "It is"}])]):
        gemini.script[case_id] = [step]
    assert run(page, provider="gemini", model="gemini-3-pro-preview", scope="should_not_call",
               cap=NEED["should_not_call"]) == "done"
    verdicts = card_cases(page)
    # a malformed call where no call was needed is never a correct abstention
    assert [verdicts[c] for c in cases] == ["FAIL"] * 4
    assert "unreadable response (malformed tool call: finishReason MALFORMED_FUNCTION_CALL, the model tried " \
           "to call a tool but the call was malformed)" in reasons(page, cases[0])
    assert "finishReason SAFETY: the reply was blocked for safety" in reasons(page, cases[1])
    assert "finishReason RECITATION" in reasons(page, cases[2])
    assert "turn 1: response truncated (MAX_TOKENS): the model ran out of tokens" in reasons(page, cases[3])
    assert {c: verdicts[c] for c in ids("should_not_call")[4:]} == \
        {c: FIXTURES[c]["intended_verdict"] for c in ids("should_not_call")[4:]}
    assert_only_talked_to(page, routes.server, gemini_url("gemini-3-pro-preview"))


def test_gemini_errors_network_and_server(page, routes):
    gemini = routes(f"{GEMINI_BASE}/**", "gemini")
    first, second = ids("should_call")[:2]
    gemini.script[first] = [(500, {"retry-after": "0"}, LEAKY_BODY)] * 3
    gemini.script[second] = [("fail",)] * 3                  # retried twice, then kept as a failure
    # every request failed: the run ends in the error state, never "Run complete." (issue 14); the
    # network error, with nothing answered yet, stops it on that line (issue 9)
    assert run(page, provider="gemini", model="gemini-2.5-flash", scope="should_call", cap=6) == "error"
    assert len(gemini.posts) == 6
    assert page.text_content("#run-message").startswith("Run stopped: network error: no HTTP answer from ")
    assert "request failed (no response: network error" in reasons(page, second)
    assert "the connection was refused or the server is down" in reasons(page, second)   # the probe failed too
    assert "request failed (HTTP 500: server error, after " in reasons(page, first)
    assert_not_shown(page, LEAK)
    assert_only_talked_to(page, routes.server, gemini_url("gemini-2.5-flash"))


def test_a_model_name_cannot_smuggle_a_key_into_the_url(page, routes):
    gemini = routes(f"{GEMINI_BASE}/**", "gemini")
    assert run(page, provider="gemini", model="m?key=AIzaFromModel#x", scope="should_call", cap=1) == "done"
    assert [p["url"] for p in gemini.posts] == [gemini_url("m%3Fkey%3DAIzaFromModel%23x")]
    assert_only_talked_to(page, routes.server, gemini_url("m%3Fkey%3DAIzaFromModel%23x"))


# ---------------------------------------------------------------- base URLs

def test_anthropic_through_a_gateway_base_url(page, routes):
    gateway = routes(f"{GATEWAY}/**", "anthropic")
    page.select_option("#provider", "anthropic")
    assert page.is_visible("#base-url-field")
    assert run(page, provider="anthropic", model="claude-via-gateway", key="sk-gw-1", base_url=GATEWAY,
               scope="injection", cap=NEED["injection"]) == "done"
    assert card_cases(page) == {c: FIXTURES[c]["intended_verdict"] for c in ids("injection")}
    assert {p["url"] for p in gateway.posts} == {f"{GATEWAY}/v1/messages"}
    assert all(p["headers"]["x-api-key"] == "sk-gw-1" for p in gateway.posts)
    doc, _ = exports(page)
    assert doc["base_url"] == GATEWAY
    assert_only_talked_to(page, routes.server, f"{GATEWAY}/v1/messages")


def test_the_base_url_field_is_hidden_for_openai(page):
    page.select_option("#provider", "openai")
    assert page.is_hidden("#base-url-field")
    for provider in (p.name for p in CATALOGUE if not p.base_fixed):
        page.select_option("#provider", provider)
        assert page.is_visible("#base-url-field"), provider


@pytest.mark.parametrize("provider, base_url, says", [
    ("gemini", "https://generativelanguage.googleapis.com/v1beta?key=AIzaInUrl",
     "Base URL must not have a query (?...) or fragment (#...): give the key as the API key, never in a URL."),
    ("anthropic", "https://gw.example.net", "https://gw.example.net is not allowed by this page's Content-Security-Policy"),
])
def test_a_bad_or_disallowed_base_url_is_refused_before_any_request(page, routes, provider, base_url, says):
    seen = routes("**/*generateContent*", provider)
    start(page, provider=provider, model="m", key="k-1", base_url=base_url, scope="should_call", cap=1)
    page.wait_for_function("s => document.getElementById('run-message').textContent.includes(s)", arg=says)
    assert page.evaluate("document.body.dataset.run") == "idle" and seen.posts == []
    assert not [u for u in page.requests if "example.net" in u or "AIzaInUrl" in u]
    assert_only_talked_to(page, routes.server)


def test_switching_provider_clears_the_base_url(page):
    page.select_option("#provider", "openai-compatible")
    page.fill("#base-url", "http://localhost:11434/v1")
    page.select_option("#provider", "anthropic")
    # else the Anthropic key would go to the Ollama server typed a moment ago
    assert page.input_value("#base-url") == ""


# ---------------------------------------------------------------- run settings real servers need

def set_sampling(page, temperature: str = "", seed: str = "", headers: str = "") -> None:
    page.fill("#temperature", temperature)
    page.fill("#seed", seed)
    page.fill("#headers", headers)


def test_temperature_seed_and_headers_are_sent_recorded_and_the_endpoint_shown(page, routes):
    gateway = routes(f"{GATEWAY}/**", "anthropic")
    secret = "gw-token-9a8b7c6d5e"
    set_sampling(page, "0.2", "7", f"X-Team: evals\nX-Gateway-Token: {secret}")
    try:
        # a base URL ending in its version: once /v1/v1/messages
        assert run(page, provider="anthropic", model="claude-via-gateway", key="sk-gw-2",
                   base_url=f"{GATEWAY}/v1", scope="should_call", cap=1) == "done"
        [post] = gateway.posts
        assert post["url"] == f"{GATEWAY}/v1/messages"
        body = json.loads(post["raw"])
        assert body["temperature"] == 0.2 and "seed" not in body         # Messages has no seed field
        assert post["headers"]["x-team"] == "evals" and post["headers"]["x-gateway-token"] == secret
        doc, md = exports(page)
        assert doc["settings"]["temperature"] == 0.2 and doc["settings"]["seed"] is None
        assert doc["settings"]["headers"] == {"X-Team": "evals", "X-Gateway-Token": "[REDACTED]"}
        assert_not_shown(page, secret)
    finally:
        set_sampling(page)


def test_the_run_message_names_the_resolved_endpoint(page, routes):
    routes(f"{GATEWAY}/**", "anthropic")
    page.evaluate("window.__messages = []; new MutationObserver(() => window.__messages.push("
                  "document.getElementById('run-message').textContent)).observe("
                  "document.getElementById('run-message'), {childList: true, characterData: true, subtree: true})")
    assert run(page, provider="anthropic", model="m", key="sk-gw-3", base_url=GATEWAY, scope="should_call",
               cap=1) == "done"
    said = page.evaluate("window.__messages")
    assert f"Running should_call against anthropic / m at {GATEWAY}/v1/messages…" in said
    assert not [m for m in said if "sk-gw-3" in m]


@pytest.mark.parametrize("temperature, seed, headers, message", [
    ("5", "", "", "The temperature must be a number between 0 and 2 (blank: not sent)."),
    ("", "-3", "", "The seed must be a whole number between 0 and 2147483647 (blank: not sent)."),
    ("", "", "no colon here", "Extra headers: a header must be NAME:VALUE, with a name of letters, digits and -."),
    ("", "", "Authorization: Bearer x", "Extra headers: header 'Authorization' is set by ToolProof itself (give the key as the API key)."),
])
def test_bad_sampling_settings_are_one_clear_line(page, routes, temperature, seed, headers, message):
    openai = routes("https://api.openai.com/**", "openai")
    set_sampling(page, temperature, seed, headers)
    try:
        start(page, scope="should_call", cap=1)
        page.wait_for_function(f"document.getElementById('run-message').textContent === {json.dumps(message)}")
        assert openai.posts == []
    finally:
        set_sampling(page)


def test_a_server_that_did_not_show_the_tools_is_named_in_the_page(page, routes):
    openai = routes("https://api.openai.com/**", "openai")
    first = ids("should_call")[0]
    answer = {"id": "c", "object": "chat.completion", "model": "m", "usage": {"prompt_tokens": 26, "completion_tokens": 2},
              "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "Sure."}}]}
    openai.script[first] = [(200, {}, json.dumps(answer))]
    assert run(page, scope="should_call", cap=1) == "done"
    assert "warning: the server reported 26 input tokens" in reasons(page, first)
    assert "the server may not have shown the tools to the model" in page.text_content("#live-card")
