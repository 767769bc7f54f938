"""`run`'s settings that real servers need: --temperature, --seed (sent where the provider has the
field), --header NAME:VALUE (a secret-looking value never printed or recorded), base URLs with or
without their version segment, and the resolved endpoint printed before anything is sent.
Against the fake provider of tests/fakeprovider.py, in-process."""
from __future__ import annotations

import json

import pytest

from clirun import cli_with

KEY = "sk-cli-settings-77"
ENV = {"TOOLPROOF_API_KEY": KEY}
SECRET = "gw-token-5f1c2a9e77"


cli = cli_with(ENV)


def live(fake, provider: str, base: str, *argv: str):
    fake.requests.clear()
    return cli("run", "--provider", provider, "--base-url", fake.base + base, "--model", "fake",
               "--pause", "0", "--scope", "should_call", "--cap", "2", "--allow-incomplete", *argv)


@pytest.mark.parametrize("provider, base, path", [
    ("anthropic", "/v1", "/v1/messages"),                # once /v1/v1/messages
    ("anthropic", "", "/v1/messages"),
    ("openai-compatible", "", "/v1/chat/completions"),
    ("openai-compatible", "/v1", "/v1/chat/completions"),
    ("gemini", "", "/v1beta/models/fake:generateContent"),
    ("gemini", "/v1beta", "/v1beta/models/fake:generateContent"),
    ("openai-responses", "", "/v1/responses"),
])
def test_base_urls_with_or_without_the_version(fake, provider, base, path):
    code, _, stderr = live(fake, provider, base)
    assert code == 0, stderr
    assert {r["path"] for r in fake.requests} == {path}
    # the resolved endpoint is printed before the first request, never the key
    assert f"toolproof: sending to {fake.base}{path} (temperature not sent (the server's default))\n" in stderr
    assert KEY not in stderr


@pytest.mark.parametrize("provider, base, where", [
    ("openai-compatible", "/v1", lambda b: (b.get("temperature"), b.get("seed"))),
    ("gemini", "", lambda b: (b["generationConfig"].get("temperature"), b["generationConfig"].get("seed"))),
    ("anthropic", "", lambda b: (b.get("temperature"), b.get("seed"))),
    ("openai-responses", "", lambda b: (b.get("temperature"), b.get("seed"))),
])
def test_temperature_and_seed_are_sent_where_the_provider_has_the_field(fake, tmp_path, provider, base, where):
    out = tmp_path / "r.json"
    code, _, stderr = live(fake, provider, base, "--temperature", "0", "--seed", "7", "--out", str(out))
    assert code == 0, stderr
    seeded = provider in ("openai-compatible", "gemini")
    assert {where(r["body"]) for r in fake.requests} == {(0, 7 if seeded else None)}
    settings = json.loads(out.read_text())["settings"]
    assert (settings["temperature"], settings["seed"]) == (0, 7 if seeded else None)
    assert ("seed 7 (not sent: " in stderr) is not seeded


def test_headers_are_sent_and_a_secret_one_never_shown(fake, tmp_path):
    out = tmp_path / "r.json"
    code, stdout, stderr = live(fake, "openai-compatible", "/v1", "--header", "X-Team: evals",
                                "--header", f"X-Gateway-Token: {SECRET}", "--out", str(out))
    assert code == 0, stderr
    for request in fake.requests:
        assert request["headers"]["x-team"] == "evals" and request["headers"]["x-gateway-token"] == SECRET
    text = out.read_text()
    doc = json.loads(text)
    assert doc["settings"]["headers"] == {"X-Team": "evals", "X-Gateway-Token": "[REDACTED]"}
    assert doc["transcripts"][0]["turns"][0]["request"]["headers"]["x-gateway-token"] == "[REDACTED]"
    assert "header X-Team: evals; header X-Gateway-Token: [REDACTED]" in stderr
    for output in (text, stdout, stderr):
        assert SECRET not in output and KEY not in output


def test_an_error_body_echoing_a_secret_header_is_redacted(fake, tmp_path):
    from toolproof.datafiles import load_bundle
    from toolproof.suite.model import scoped
    first = scoped(load_bundle().cases, "should_call")[0]
    fake.script[first.id] = [(400, {}, json.dumps({"error": {"message": f"bad gateway token {SECRET}"}}))]
    out = tmp_path / "r.json"
    code, stdout, stderr = live(fake, "openai-compatible", "/v1", "--header", f"X-Gateway-Token: {SECRET}",
                                "--out", str(out))
    text = out.read_text()
    assert "bad gateway token [REDACTED:api-key]" in text
    for output in (text, stdout, stderr):
        assert SECRET not in output


@pytest.mark.parametrize("argv, message", [
    (["--temperature", "nan"], "--temperature must be between 0 and 2, got nan"),
    (["--temperature", "3"], "--temperature must be between 0 and 2, got 3"),
    (["--seed", "-1"], "--seed must be between 0 and 2147483647, got -1"),
    (["--header", "no colon"], "a header must be NAME:VALUE, with a name of letters, digits and -"),
    (["--header", "Bad Name: x"], "a header must be NAME:VALUE, with a name of letters, digits and -"),
    (["--header", "Authorization: Bearer sk-other"], "header 'Authorization' is set by ToolProof itself (give the key as the API key)"),
    (["--header", "X-A: line\x1b[2Jbreak"], "header 'X-A' has a value with control characters or over 4096 characters"),
    (["--header", "X-A: " + "v" * 5000], "header 'X-A' has a value with control characters or over 4096 characters"),
    (["--header", "X-A: 1"] * 33, "at most 32 --header flags, got 33"),
])
def test_malformed_and_hostile_settings_are_one_line(fake, argv, message):
    code, stdout, stderr = live(fake, "openai-compatible", "/v1", *argv)
    assert (code, stdout) == (2, "")
    assert stderr == f"toolproof: {message}\n"
    assert fake.requests == []               # refused before anything is sent


def test_a_server_that_did_not_show_the_tools_is_named(fake, tmp_path):
    # a real local server reported 26 input tokens for a request carrying 3 tool schemas
    from toolproof.datafiles import load_bundle
    from toolproof.suite.model import scoped
    first = scoped(load_bundle().cases, "should_call")[0]
    answer = {"id": "c", "object": "chat.completion", "model": "fake", "usage": {"prompt_tokens": 26, "completion_tokens": 5},
              "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "Sure."}}]}
    fake.script[first.id] = [(200, {}, json.dumps(answer))]
    out = tmp_path / "r.json"
    code, stdout, stderr = live(fake, "openai-compatible", "/v1", "--out", str(out))
    assert "Warning: 1 case: the reported input tokens were fewer than the tool definitions sent: " \
           f"the server may not have shown the tools to the model ({first.id})" in stdout
    _, regraded, _ = cli("grade", "--transcripts", str(out), "--format", "json")
    row = next(c for c in json.loads(regraded)["cases"] if c["id"] == first.id)
    assert row["warnings"][0].startswith("the server reported 26 input tokens, fewer than the ~")
