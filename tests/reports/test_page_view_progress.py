"""The small texts of a live run (issue 23 item 8): the key hint, feed tags, the clock and its
estimate, the tally, the run label of "Your suite", and the run form kept in localStorage."""
from __future__ import annotations

import json

import pytest

from toolproof.reports.page_view import clock, clock_texts, feed_tag, kept_form, key_hint, run_label, tally, tally_label


@pytest.mark.parametrize("provider,key,hint", [
    ("openai", "sk-ant-api03-xyz", "an Anthropic key"),
    ("openai-responses", "AIzaSyXYZ", "a Google (Gemini) key"),
    ("anthropic", "sk-proj-abc", "an OpenAI key"),
    ("gemini", "sk-ant-x", "an Anthropic key"),
    ("gemini", "sk-abc", "an OpenAI key"),
])
def test_a_key_of_another_provider_is_named_by_its_prefix_only(provider, key, hint):
    line = key_hint(provider, key)
    assert hint in line and key[len(key) - 3:] not in line and "sent as it is" in line


@pytest.mark.parametrize("provider,key", [
    ("openai", "sk-proj-abc"), ("openai", "sk-abc"), ("anthropic", "sk-ant-abc"), ("gemini", "AIzaXYZ"),
    ("openai-compatible", "sk-ant-abc"),          # a compatible server takes any key
    ("anthropic", "gateway-token"), ("openai", ""),
])
def test_no_hint_for_a_key_that_fits_or_an_unknown_shape(provider, key):
    assert key_hint(provider, key) == ""


def test_feed_tags_tell_repeats_and_pad_levels_apart():
    assert feed_tag({"repeat": 1, "pad": 8}, 3, 2) == "repeat 2 of 3 · pad 8"
    assert feed_tag({"repeat": 0}, 1, 0) == ""
    assert feed_tag({"pad": 0}, 1, 2) == "pad 0"
    assert feed_tag({"repeat": "1", "pad": None}, 3, 2) == ""       # a hostile transcript: no tag
    # which conversation of its case: the phrasing too (two rows "repeat 1 of 2" looked the same)
    assert feed_tag({"phrasing": "terse", "repeat": 0}, 2, 0) == "phrasing terse · repeat 1 of 2"
    assert feed_tag({"phrasing": ["x"], "repeat": 0}, 1, 0) == ""     # not a string: no tag


def test_the_clock_and_the_estimate_by_the_requests_left():
    assert [clock(ms) for ms in (0, 7_400, 750_000, 3_723_000, -5)] == ["0:00", "0:07", "12:30", "1:02:03", "0:00"]
    assert clock_texts(4_000, 0, 10, running=True) == ("Elapsed 0:04",
                                                       "· estimating the time left after the first conversation…")
    # without request counts each conversation counts as one request
    assert clock_texts(12_000, 4, 16, running=True) == (
        "Elapsed 0:12", "· about 0:36 left (at most 12 requests to go, at the pace so far)")
    assert clock_texts(12_000, 4, 16, running=False) == ("Elapsed 0:12", "")
    assert clock_texts(12_000, 16, 16, running=True) == ("Elapsed 0:12", "")


def test_long_conversations_first_do_not_make_the_estimate_long():
    # 4 conversations of 4 requests took 16 s; 12 of 1 request are left: 12 s, not 48 s
    # (48 s is what the time per conversation said: the "11 minutes for a 3:40 run")
    assert clock_texts(16_000, 4, 16, running=True, planned_done=16, planned_left=12)[1] == \
        "· about 0:12 left (at most 12 requests to go, at the pace so far)"
    assert clock_texts(16_000, 4, 16, running=True, planned_done=16, planned_left=1)[1].startswith(
        "· about 0:01 left (at most 1 request to go")
    # nothing left to send (the cap is spent): no estimate rather than "0:00 left"
    assert clock_texts(16_000, 4, 16, running=True, planned_done=16, planned_left=0)[1] == ""
    # hostile counts (none done by requests): no division by zero
    assert clock_texts(16_000, 4, 16, running=True, planned_done=0, planned_left=5)[1] == ""


def test_the_tally_says_it_counts_conversations():
    assert [tally_label(n) for n in (0, 1, 9)] == [
        "0 conversations so far:", "1 conversation so far:", "9 conversations so far:"]


def test_the_tally_counts_every_verdict_in_order():
    assert tally(["PASS", "FAIL", "PASS", "ERROR", "bogus"]) == {"PASS": 2, "PARTIAL": 0, "FAIL": 1, "ERROR": 1}
    assert list(tally([])) == ["PASS", "PARTIAL", "FAIL", "ERROR"]


def test_a_run_of_the_draft_suite_is_labelled_so_not_scope_all():
    doc = {"provider": "openai", "model": "m", "created": "2026-12-01T10:00:00+00:00", "scope": "all",
           "requests_used": 3}
    assert "scope all" in run_label(doc)
    label = run_label({**doc, "label": "Your suite (3 cases)"})
    assert "Your suite (3 cases)" in label and "scope all" not in label


NAMES = ("provider", "model", "cap")


@pytest.mark.parametrize("raw,expected", [
    (json.dumps({"provider": "anthropic", "model": "m", "cap": "5", "api-key": "sk-x"}),
     {"provider": "anthropic", "model": "m", "cap": "5"}),        # an unknown name (the key) is dropped
    (json.dumps({"model": 3, "cap": ["5"]}), {}),                 # only strings
    (json.dumps({"model": "x" * 5000}), {}),                      # bounded values
    ("[" * 100_000, {}),                                          # deep: refused, never a crash
    ("not json", {}), ("[]", {}), ("NaN", {}), (None, {}), ("", {}),
])
def test_the_kept_form_takes_only_known_string_fields(raw, expected):
    assert kept_form(raw, NAMES) == expected
