"""A run with arms, driven with the in-memory transport (tests/scripted.py): every arm runs the
same items, one probe per arm first, the need and the cap count them all, a refused arm is a
finding that never sinks the others, knobs reach the request bodies, an ablated arm is graded in
the catalogue's names, and the results file says it all (re-graded offline to the same card)."""
from __future__ import annotations

import asyncio
import json

import pytest

from scripted import Transport
from toolproof.arms.analysis import arms_card, split_arms
from toolproof.datafiles import format_schema
from toolproof.errors import ToolProofError
from toolproof.grading.transcripts import parse_transcripts
from toolproof.running.arm_plan import arm_run
from toolproof.running.arm_spec import parse_arm
from toolproof.running.runner import Run, RunSettings
from toolproof.running.transport import HttpReply
from toolproof.suite.model import scoped

KEY = "sk-live-KEY-789"
OTHER_KEY = "sk-ant-OTHERKEY-4567890123456789"


def settings(provider="openai", scope="parallel", cap=10_000, **extra) -> RunSettings:
    return RunSettings(provider, "fake-model", KEY, "", scope, cap, pause_s=0, backoff_s=0.01, **extra)


def arms_of(bundle, base: RunSettings, *texts: str, keys: dict | None = None) -> list:
    schema = format_schema("tools")
    return [arm_run(parse_arm(t), base, bundle.documents["tools"], bundle.tools, schema,
                    api_key=(keys or {}).get(parse_arm(t).settings.get("provider")))
            for t in texts]


def run_with(bundle, transport, *texts, scope="parallel", provider="openai", cap=10_000, keys=None, **extra) -> Run:
    base = settings(provider, scope, cap, **extra)
    run = Run(bundle.cases, bundle.tools, base, transport, suite_sha256="ab" * 32, arms=arms_of(bundle, base, *texts, keys=keys))
    asyncio.run(run.run())
    return run


class Refusing(Transport):
    """The scripted transport, but a request whose body carries `marker` (a path of keys) is
    answered 400 with the provider's words, as a provider refuses a setting it does not take."""

    def __init__(self, test):
        super().__init__()
        self.test = test

    async def __call__(self, url, headers, body, timeout):
        if self.test(body):
            self.calls.append({"url": url, "headers": headers, "body": body, "case_id": None, "turn": 1})
            text = json.dumps({"error": {"message": "strict mode is not supported with parallel tool calls"}})
            return HttpReply(400, {}, text, 5.0)
        return await super().__call__(url, headers, body, timeout)


def strict_in(body) -> bool:
    return any(t.get("function", {}).get("strict") for t in body.get("tools", []))


def test_every_arm_runs_the_same_items_after_one_probe_each(bundle):
    transport = Transport()
    run = run_with(bundle, transport, "base", "strict:strict=true", "serial:parallel_tool_calls=false")
    items = len(scoped(bundle.cases, "parallel"))
    assert run.state == "done"
    assert [t["arm"] for t in run.transcripts] == ["base", "strict", "serial"] * items     # arm after arm
    assert {t["case_id"] for t in run.transcripts if t["arm"] == "strict"} == {c.id for c in scoped(bundle.cases, "parallel")}
    doc = run.document(created="2026-12-06T00:00:00+00:00")
    assert doc["probes"] == 3 and [a["probe"]["state"] for a in doc["arms"]] == ["accepted"] * 3
    # requests sent = the items' requests of every arm + the probes, as the file states
    assert len(transport.calls) == run.used == doc["requests_used"] == run.need
    assert run.need == 3 * sum(c.requests for c in scoped(bundle.cases, "parallel")) + 3


def test_knobs_reach_each_arms_bodies_and_nothing_else_changes(bundle):
    transport = Transport()
    run_with(bundle, transport, "base", "strict:strict=true,parallel_tool_calls=false,tool_choice=required")
    first = [c for c in transport.calls if c["turn"] == 1]
    plain = [c["body"] for c in first if not strict_in(c["body"])]
    knobbed = [c["body"] for c in first if strict_in(c["body"])]
    assert plain and knobbed and len(plain) == len(knobbed)
    for a, b in zip(plain, knobbed):
        assert b["tool_choice"] == "required" and b["parallel_tool_calls"] is False
        assert all(t["function"]["strict"] is True for t in b["tools"])
        stripped = {**b, "tools": [{**t, "function": {k: v for k, v in t["function"].items() if k != "strict"}}
                                   for t in b["tools"]],
                    "tool_choice": a["tool_choice"], "parallel_tool_calls": a["parallel_tool_calls"]}
        assert stripped == a                   # an arm that sets no other knob sends what a plain run sends


def test_a_forced_tool_choice_goes_on_the_first_turn_only(bundle):
    transport = Transport()
    run_with(bundle, transport, "base", "forced:tool_choice=required", scope="multi_step")
    forced_second = [c["body"] for c in transport.calls if c["turn"] == 2 and c["body"].get("tool_choice") == "required"]
    forced_first = [c["body"] for c in transport.calls if c["turn"] == 1 and c["body"].get("tool_choice") == "required"]
    assert forced_first and not forced_second


def test_a_refused_arm_is_a_finding_and_the_other_arms_run(bundle):
    transport = Refusing(strict_in)
    run = run_with(bundle, transport, "base", "strict:strict=true", "serial:parallel_tool_calls=false")
    assert run.state == "done" and run.error == ""
    doc = run.document(created="2026-12-06T00:00:00+00:00")
    strict = doc["arms"][1]
    assert strict["probe"]["state"] == "refused" and strict["probe"]["status"] == 400
    assert strict["refused"] == "strict mode is not supported with parallel tool calls"
    assert not any(t["arm"] == "strict" for t in doc["transcripts"])
    assert sum(strict_in(c["body"]) for c in transport.calls) == 1          # the probe alone
    assert "not_started" not in doc                                           # a finding, not a missing item
    card = arms_card(doc, bundle.cases, bundle.tools, format_schema("transcripts"))
    row = card["arms"][1]
    assert row["refused"] == strict["refused"] and row["score"] is None and row["delta"] is None
    assert card["arms"][2]["holm_p"] == card["arms"][2]["mcnemar_p"]           # one arm compared: Holm is McNemar


def test_a_knob_with_no_field_is_refused_before_anything_is_sent(bundle):
    transport = Transport()
    run = run_with(bundle, transport, "base", "strict:strict=true", provider="gemini")
    doc = run.document(created="2026-12-06T00:00:00+00:00")
    assert doc["arms"][1]["refused"].startswith("gemini") and doc["arms"][1]["probe"] is None
    assert doc["probes"] == 1 and run.need == sum(c.requests for c in scoped(bundle.cases, "parallel")) + 1
    assert len(transport.calls) == run.used


def test_a_named_tool_choice_runs_only_the_cases_that_offer_it(bundle):
    transport = Transport()
    run = run_with(bundle, transport, "base", "named:tool_choice=create_reminder", scope="all")
    offering = [c for c in bundle.cases if "create_reminder" in c.tools]
    named = [t for t in run.transcripts if t["arm"] == "named"]
    assert len(named) == len(offering) and {t["case_id"] for t in named} == {c.id for c in offering}
    doc = run.document(created="2026-12-06T00:00:00+00:00")
    assert doc["arms"][1]["planned"] == len(offering)
    card = arms_card(doc, bundle.cases, bundle.tools, format_schema("transcripts"))
    assert card["arms"][1]["coverage"]["planned"] == len(offering)


def test_the_baseline_cannot_name_a_tool(bundle):
    from toolproof.running.arm_spec import check_arms
    with pytest.raises(ToolProofError, match="baseline"):
        check_arms([parse_arm("b:tool_choice=create_reminder"), parse_arm("x")])


def test_an_ablated_arm_is_graded_in_the_catalogues_names(bundle):
    transport = Transport()      # the replay answers in the real names: under ablate=names, unshown names
    run = run_with(bundle, transport, "base", "opaque:ablate=names")
    shown = [c["body"] for c in transport.calls if c["turn"] == 1 and c["body"]["tools"][0]["function"]["name"].startswith("tool_")]
    assert shown, "the opaque arm's tools go out as tool_N"
    doc = run.document(created="2026-12-06T00:00:00+00:00")
    assert doc["arms"][1]["unmask"]
    card = arms_card(doc, bundle.cases, bundle.tools, format_schema("transcripts"))
    # a call by a name the arm never showed is a call to a tool not offered
    assert card["arms"][1]["score"] == 0 and card["arms"][0]["score"] > 0
    kinds = {m["to"] for m in card["arms"][1]["migration"]}
    assert kinds == {"unoffered_tool"}


def test_an_opaque_name_the_model_uses_is_graded_as_the_tool(bundle):
    """The replay answers with the real name; an arm's answer in the shown name grades as the real call."""
    class Shown(Transport):
        async def __call__(self, url, headers, body, timeout):
            answer = await super().__call__(url, headers, body, timeout)
            names = {t["function"]["name"] for t in body.get("tools", [])}
            if not any(n.startswith("tool_") for n in names):
                return answer
            mapping = {json.dumps(tool_name_of(bundle, n)): json.dumps(n) for n in names}
            text = answer.text
            for real, shown in mapping.items():
                text = text.replace(f"\"name\": {real}", f"\"name\": {shown}").replace(f"\"name\":{real}", f"\"name\":{shown}")
            return HttpReply(answer.status, answer.headers, text, answer.elapsed_ms)
    run = run_with(bundle, Shown(), "base", "opaque:ablate=names")
    card = arms_card(run.document(created="2026-12-06T00:00:00+00:00"), bundle.cases, bundle.tools,
                     format_schema("transcripts"))
    assert card["arms"][1]["score"] == card["arms"][0]["score"]
    assert card["arms"][1]["delta"]["delta"] == 0


def tool_name_of(bundle, shown: str) -> str:
    from toolproof.arms.ablation import unmask_map
    return unmask_map(bundle.documents["tools"], ("names",))[shown]["name"]


def test_another_providers_key_is_redacted_everywhere(bundle):
    transport = Transport()
    run = run_with(bundle, transport, "base", "claude:provider=anthropic,model=claude-x",
                   keys={"anthropic": OTHER_KEY})
    anthropic = [c for c in transport.calls if c["url"].endswith("/messages")]
    assert anthropic and all(c["headers"]["x-api-key"] == OTHER_KEY for c in anthropic)
    assert all(c["headers"].get("authorization") == f"Bearer {KEY}" for c in transport.calls if c not in anthropic)
    text = json.dumps(run.document(created="2026-12-06T00:00:00+00:00"))
    assert OTHER_KEY not in text and KEY not in text
    assert OTHER_KEY in run.secrets() and KEY in run.secrets()


def test_the_results_file_regrades_offline_to_the_same_card(bundle):
    transport = Transport()
    run = run_with(bundle, transport, "base", "strict:strict=true", "serial:parallel_tool_calls=false", repeats=2)
    doc = json.loads(json.dumps(run.document(created="2026-12-06T00:00:00+00:00")))
    one = arms_card(doc, bundle.cases, bundle.tools, format_schema("transcripts"))
    two = arms_card(doc, bundle.cases, bundle.tools, format_schema("transcripts"))
    assert one == two and [a["name"] for a in one["arms"]] == ["base", "strict", "serial"]
    assert all(a["coverage"]["graded"] == a["coverage"]["planned"] for a in one["arms"])
    # each arm's own document reads as a plain run
    for entry, own in split_arms(doc, "r.json"):
        assert len(parse_transcripts(own, format_schema("transcripts")).all_repeats()) == len(scoped(bundle.cases, "parallel"))


def test_the_plain_reader_refuses_a_file_with_arms_naming_what_to_use(bundle):
    run = run_with(bundle, Transport(), "base", "strict:strict=true")
    with pytest.raises(ToolProofError, match="holds a run with arms"):
        parse_transcripts(run.document(created="x"), format_schema("transcripts"))


def test_the_cap_cuts_whole_items_and_lists_the_rest_by_arm(bundle):
    items = scoped(bundle.cases, "parallel")
    cap = 2 + 2 * 3                    # two probes, then three items of both arms
    run = run_with(bundle, Transport(), "base", "strict:strict=true", cap=cap)
    doc = run.document(created="x")
    assert run.used <= cap
    counts = {arm: sum(t["arm"] == arm for t in doc["transcripts"]) for arm in ("base", "strict")}
    assert counts["base"] == counts["strict"] == 3
    missing = doc["not_started"]
    assert {m["arm"] for m in missing} == {"base", "strict"} and len(missing) == 2 * (len(items) - 3)
