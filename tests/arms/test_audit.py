"""The honouring audit: each rule counts the replies that show a knob was ignored, and says how
many it looked at; the effort rule's sign test; reasoning tokens as each provider reports them."""
from __future__ import annotations

import json

import pytest

from toolproof.arms.audit import audit_arm, effort_findings, sign_test
from toolproof.arms.usage import reasoning_tokens
from toolproof.datafiles import format_schema
from toolproof.grading.transcripts import parse_transcripts


def body(*calls, reasoning=None):
    usage = {"prompt_tokens": 10, "completion_tokens": 5}
    if reasoning is not None:
        usage["completion_tokens_details"] = {"reasoning_tokens": reasoning}
    message = {"role": "assistant", "content": None if calls else "done",
               "tool_calls": [{"id": f"c{i}", "type": "function", "function": {"name": n, "arguments": json.dumps(a)}}
                              for i, (n, a) in enumerate(calls)] or None}
    return {"choices": [{"message": message, "finish_reason": "tool_calls" if calls else "stop"}], "usage": usage}


def transcripts(*bodies, case="c1"):
    doc = {"format": "toolproof.transcripts", "version": 1, "kind": "live", "provider": "openai",
           "transcripts": [{"case_id": f"{case}-{i}", "turns": [{"response": b}]} for i, b in enumerate(bodies)]}
    return list(parse_transcripts(doc, format_schema("transcripts")).transcripts.values())


REMIND = ("create_reminder", {"text": "x", "remind_on": "2026-01-01", "remind_at": "09:00"})
BALANCE = ("get_account_balance", {"account_id": "ACC-1"})


def rules(findings):
    return {f["rule"]: (f["count"], f["of"]) for f in findings}


def test_each_rule_counts_what_shows_the_knob_ignored(bundle):
    ts = transcripts(body(REMIND, BALANCE), body(REMIND), body())
    assert rules(audit_arm({"parallel_tool_calls": False}, ts, bundle.tools, schemas_sent=True)) == {"parallel_ignored": (1, 3)}
    assert rules(audit_arm({"tool_choice": "required"}, ts, bundle.tools, schemas_sent=True)) == {"required_ignored": (1, 3)}
    assert rules(audit_arm({"tool_choice": "none"}, ts, bundle.tools, schemas_sent=True)) == {"none_ignored": (2, 3)}
    assert rules(audit_arm({"tool_choice": "create_reminder"}, ts, bundle.tools, schemas_sent=True)) == {"named_ignored": (2, 3)}
    assert audit_arm({}, ts, bundle.tools, schemas_sent=True) == []          # a knob not set is not audited
    assert audit_arm({"parallel_tool_calls": True, "tool_choice": "auto"}, ts, bundle.tools, schemas_sent=True) == []


def test_strict_counts_calls_outside_the_schema_or_unreadable(bundle):
    bad = ("create_reminder", {"text": "x"})                      # required fields missing
    ts = transcripts(body(REMIND), body(bad))
    found = audit_arm({"strict": True}, ts, bundle.tools, schemas_sent=True)
    assert rules(found) == {"strict_ignored": (1, 2)} and found[0]["checked"] is True
    unchecked = audit_arm({"strict": True}, ts, bundle.tools, schemas_sent=False)
    assert unchecked[0]["checked"] is False and unchecked[0]["count"] == 0


def test_a_truncated_or_blocked_reply_is_no_evidence(bundle):
    cut = body()
    cut["choices"][0]["finish_reason"] = "length"
    ts = transcripts(cut, body(REMIND))
    assert rules(audit_arm({"tool_choice": "required"}, ts, bundle.tools, schemas_sent=True)) == {"required_ignored": (0, 1)}


@pytest.mark.parametrize("a, b, p", [
    ([0, 0, 0], [0, 0, 0], 1.0),                  # every pair tied: no difference at all
    ([1] * 10, [2] * 10, 0.001953),               # ten of ten up
    ([1, 2, 3], [2, 1, 3], 1.0),
    ([], [], None),
])
def test_the_sign_test(a, b, p):
    assert sign_test(a, b) == p


def arm(name, effort=None, provider="openai", model="m"):
    return {"name": name, "provider": provider, "model": model, "refused": None,
            "settings": {} if effort is None else {"reasoning_effort": effort}}


def test_effort_levels_whose_reasoning_tokens_do_not_differ_are_flagged():
    same = {"low": transcripts(*(body(reasoning=100) for _ in range(8))),
            "high": transcripts(*(body(reasoning=100) for _ in range(8)))}
    found = effort_findings([arm("low", "low"), arm("high", "high")], same)
    (finding,) = found["high"]
    assert finding["rule"] == "effort_ignored" and finding["count"] == 8 and finding["p_value"] == 1.0
    differ = {"low": transcripts(*(body(reasoning=100 + i) for i in range(8))),
              "high": transcripts(*(body(reasoning=900 + i) for i in range(8)))}
    (finding,) = effort_findings([arm("low", "low"), arm("high", "high")], differ)["high"]
    assert finding["count"] == 0 and finding["p_value"] < 0.01
    assert finding["reasoning_tokens"] == {"against": 103.5, "this": 903.5}


def test_no_reasoning_tokens_reported_is_said_not_guessed():
    none = {"a": transcripts(body()), "b": transcripts(body())}
    found = effort_findings([arm("a"), arm("b", "high")], none)
    assert [f["rule"] for f in found["b"]] == ["effort_unreported"]


def test_other_models_or_the_same_effort_are_not_compared():
    ts = {n: transcripts(body(reasoning=5)) for n in ("a", "b", "c")}
    found = effort_findings([arm("a", "low"), arm("b", "low"), arm("c", "high", model="other")], ts)
    assert found == {}


@pytest.mark.parametrize("provider, body_, tokens", [
    ("openai", {"usage": {"completion_tokens_details": {"reasoning_tokens": 64}}}, 64),
    ("openai-compatible", {"usage": {"completion_tokens": 3}}, None),
    ("openai-responses", {"usage": {"output_tokens_details": {"reasoning_tokens": 7}}}, 7),
    ("gemini", {"usageMetadata": {"thoughtsTokenCount": 12}}, 12),
    ("gemini", {"usageMetadata": {"candidatesTokenCount": 12}}, 0),
    ("gemini", {}, None),
    ("anthropic", {"usage": {"output_tokens": 50}}, None),
    ("openai", {"usage": {"completion_tokens_details": {"reasoning_tokens": True}}}, None),
    ("openai", {"usage": {"completion_tokens_details": {"reasoning_tokens": -3}}}, None),
    ("openai", "not a body", None),
    ("openai", {"usage": ["junk"]}, None),
])
def test_reasoning_tokens_per_provider(provider, body_, tokens):
    assert reasoning_tokens(provider, body_) == tokens
