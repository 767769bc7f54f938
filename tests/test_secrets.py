"""Credential patterns: each finds a realistic fake, redaction reaches every string of a JSON
value (keys too), and ordinary text is left alone.

Every fake below is built by concatenation and spelled FAKE so that no secret scanner takes
this file for a leak; none of them is a working key.
"""
from __future__ import annotations

import json

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from toolproof.secrets import MUST_HAVE, PATTERNS, find_secrets, redact, redact_text, secrets_in

FAKES = {
    "anthropic-key": "sk-" + "ant-api03-" + "FAKE" * 8 + "-fake_0000",
    "openai-key": "sk-" + "proj-" + "TESTFAKE" * 4,
    "aws-access-key-id": "AKIA" + "FAKEFAKEFAKE0000",
    "github-token": "ghp_" + "FAKE" * 9,
    "slack-token": "xoxb-" + "000000000000-000000000000-" + "FAKE" * 6,
    "google-api-key": "AIza" + "Sy" + "FAKE" * 8 + "0",
    "stripe-key": "sk_" + "test_" + "FAKE" * 6,
    "private-key": "-----BEGIN RSA " + "PRIVATE KEY-----\nMIIEowFAKEfakeFAKEfake\n-----END RSA PRIVATE KEY-----",
    "jwt": "eyJhbGciOiJIUzI1NiJ9" + ".eyJzdWIiOiJmYWtlIn0" + ".FAKEFAKEsignature",
}
# Other spellings of the same kinds that people paste.
MORE = [
    ("openai-key", "sk-" + "FAKE" * 12),                          # legacy, no prefix
    ("openai-key", "sk-" + "svcacct-" + "FAKE_fake-" * 3),
    ("aws-access-key-id", "ASIA" + "FAKEFAKEFAKE0000"),           # temporary credentials
    ("github-token", "github_pat_" + "FAKE" * 5 + "_" + "fake" * 6),
    ("stripe-key", "rk_" + "live_" + "FAKE" * 5),
    ("private-key", "-----BEGIN " + "PRIVATE KEY-----"),
]


def test_every_pattern_has_a_fake():
    assert [kind for kind, _ in PATTERNS] == list(FAKES)


@pytest.mark.parametrize("kind, fake", list(FAKES.items()) + MORE)
def test_a_fake_is_found_and_redacted(kind, fake):
    text = f"Here you go: {fake} (keep it safe)"
    assert kind in find_secrets(text)
    assert redact_text(text).startswith(f"Here you go: [REDACTED:{kind}]")
    assert "FAKE" not in redact_text(text).split("\n")[0]


@pytest.mark.parametrize("kind, fake", [(k, v) for k, v in FAKES.items() if k not in ("anthropic-key",)])
def test_a_fake_is_one_finding_of_its_own_kind(kind, fake):
    assert secrets_in({"body": f"key: {fake}"}) == [("body", kind)]


def test_an_anthropic_key_is_one_finding():
    # One pasted Anthropic key is one credential, not also an OpenAI-looking one.
    assert secrets_in({"body": FAKES["anthropic-key"]}) == [("body", "anthropic-key")]


def test_a_private_key_block_is_redacted_whole():
    # The key material and the footer go too, not only the BEGIN line.
    redacted = redact_text(f"key:\n{FAKES['private-key']}\nbye")
    assert redacted == "key:\n[REDACTED:private-key]\nbye"


def test_redact_reaches_lists_dict_values_and_keys():
    openai_key, aws = FAKES["openai-key"], FAKES["aws-access-key-id"]
    value = {openai_key: [1, None, True, f"id {aws}", {"nested": openai_key}], "plain": "ORD-123456"}
    assert redact(value) == {
        "[REDACTED:openai-key]": [1, None, True, "id [REDACTED:aws-access-key-id]",
                                  {"nested": "[REDACTED:openai-key]"}],
        "plain": "ORD-123456",
    }


def test_redact_leaves_non_strings_and_does_not_mutate():
    value = {"n": 5, "f": 1.5, "b": False, "z": None, "s": [FAKES["jwt"]]}
    assert redact(value) == {"n": 5, "f": 1.5, "b": False, "z": None, "s": ["[REDACTED:jwt]"]}
    assert value["s"] == [FAKES["jwt"]]
    assert redact(7) == 7 and redact(None) is None


def test_secrets_in_names_paths_in_pattern_order():
    args = {"to": ["a@example.com", FAKES["github-token"]],
            "meta": {"auth": f"{FAKES['aws-access-key-id']} {FAKES['openai-key']}"}}
    assert secrets_in(args) == [("to[1]", "github-token"), ("meta.auth", "openai-key"),
                                ("meta.auth", "aws-access-key-id")]
    assert secrets_in(FAKES["slack-token"]) == [("$", "slack-token")]


@pytest.mark.parametrize("text", [
    "ORD-123456",
    "123e4567-e89b-12d3-a456-426614174000",              # a UUID
    "sk-",
    "sk-abc",                                            # too short to be a key
    "prefix keys with sk- or sk_live_",
    "risk-assessment-for-the-quarterly-plan",            # "sk-" inside a word
    "AKIA1234",
    "github_pat_short",
    "xoxb-123",
    "eyJhbGciOi.eyJzdWIi.abc",                           # JWT-shaped but too short
    "ana.silva@example.com, +351 912 345 678, 2026-03-04 17:30",
])
def test_ordinary_text_is_not_flagged(text):
    assert find_secrets(text) == []
    assert redact_text(text) == text


# ---- linear cost on adversarial text ------------------------------------------------------
# Each shape starts a candidate match every few characters; the old JWT pattern rescanned the
# rest of the run from each one (1 MB: minutes). Here each shape, at 400 KB, finds nothing and
# redacts nothing; the cost ratios are benchmarks/linear_cost.py's (a timing ratio failed this
# test at 77.8x on a loaded machine: time is not an outcome).
ADVERSARIAL = ["eyJ-", "eyJaaaaaaaa.eyJ-", "sk-ant-", "sk-", "ghp_", "xoxb-", "sk_test_", "AIza ",
               "-----BEGIN A", "-----BEGIN PRIVATE KEY-----\n-----END A", "a" * 30 + "."]


@pytest.mark.parametrize("unit", ADVERSARIAL)
def test_adversarial_text_is_scanned_to_the_end(unit):
    text = unit * (400_000 // len(unit))
    found = find_secrets(text)
    assert redact_text(text) == text if not found else "[REDACTED" in redact_text(text)


def test_a_token_glued_to_other_token_characters_is_not_a_new_match():
    # The price of linearity: a match starts only where a run of token characters starts.
    assert find_secrets("x-eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJmYWtlIn0.FAKEFAKEsignature") == []
    assert find_secrets("token=" + FAKES["jwt"]) == ["jwt"]
@pytest.mark.parametrize("text, kinds", [
    ("key [REDACTED:openai-key] here", ["openai-key"]),
    ("[REDACTED:api-key] and [REDACTED:aws-access-key-id] [REDACTED:openai-key]",
     ["openai-key", "aws-access-key-id", "api-key"]),
    ("[REDACTED:] [REDACTED:Upper] [redacted:api-key]", []),
])
def test_a_redaction_mark_is_still_a_credential(text, kinds):
    # results files are stored redacted: re-grading them must find the same leaks
    assert find_secrets(text) == kinds


KEY = "local-key-for-value-redaction"


@pytest.mark.parametrize("text, expected", [
    (f"Authorization: Bearer {KEY}", "Authorization: [REDACTED:api-key]"),
    (f"{KEY}{KEY}", "[REDACTED:api-key][REDACTED:api-key]"),
    ("nothing here", "nothing here"),
])
def test_the_configured_key_is_redacted_by_value(text, expected):
    assert redact_text(text, keys=(KEY,)) == expected
    assert redact({"k": [text], text: 1}, keys=(KEY,)) == {"k": [expected], expected: 1}


def test_short_or_empty_keys_are_not_redacted_by_value():
    assert redact_text("abc abc", keys=("", "abc")) == "abc abc"
    assert redact_text("sk-abcdefghijklmnopqrstuv") == "[REDACTED:openai-key]"    # patterns unchanged


@settings(max_examples=200, deadline=None)
@given(st.text(min_size=4, max_size=40).filter(lambda k: "[REDACTED:api-key]" not in k and k.strip() == k),
       st.lists(st.text(max_size=20), max_size=5))
def test_the_key_never_survives_redaction_by_value(key, parts):
    text = key.join(parts) + f" Bearer {key} " + key
    assume("[REDACTED" not in key and "]" not in key and "[" not in key)
    assert key not in redact_text(text, keys=(key,))
    redacted = redact({"a": [text], text: text}, keys=(key,))
    # every string in the structure (JSON escaping could spell the key by itself: "\u0000")
    assert all(key not in s for s in [*redacted["a"], *redacted.keys(), *redacted.values()] if isinstance(s, str))


def _slow_redact(text: str) -> str:
    """redact_text without its gate: every pattern tried."""
    for kind, pattern in PATTERNS:
        text = pattern.sub(f"[REDACTED:{kind}]", text)
    return text


def test_every_pattern_has_what_it_cannot_match_without():
    """redact_text skips the patterns when a text holds none of MUST_HAVE: a new pattern needs
    its entry, and each entry is a necessary part of its pattern (every fake holds it)."""
    assert list(MUST_HAVE) == [kind for kind, _ in PATTERNS]
    import re
    for kind, fake in list(FAKES.items()) + MORE:
        assert re.search(MUST_HAVE[kind], fake), kind


_PIECES = st.sampled_from(["sk-", "ant-", "proj-", "AKIA", "ASIA", "ghp_", "github_pat_", "xoxb-", "AIza", "sk_",
                           "rk_", "live_", "test_", "-----BEGIN ", "PRIVATE KEY-----", "-----END ", "eyJ", ".", "_",
                           "-", " ", "\n", "FAKE", "0000", "fake", "A", "z", "9"])


@settings(max_examples=400, deadline=None)
@given(st.lists(st.one_of(_PIECES, st.text(max_size=6)), max_size=40).map("".join))
def test_the_gate_never_changes_what_is_redacted(text):
    assert redact_text(text) == _slow_redact(text)
