"""Cost counts the requests that were sent, once (issue 20): a counterfactual variant stores the
first turn it reused, and that turn was not sent again."""
from __future__ import annotations

import asyncio
import copy
import random

from scripted import Transport
from toolproof.datafiles import format_schema
from toolproof.grading.transcripts import parse_transcripts
from toolproof.running.runner import Run, RunSettings
from toolproof.scoring.cost import check_prices, cost
from toolproof.scoring.evaluate import evaluate

SCHEMA = format_schema("transcripts")


def live_run(bundle, scope: str) -> tuple[Run, dict]:
    run = Run(bundle.cases, bundle.tools, RunSettings("openai", "m", "k", "", scope, 1000, pause_s=0),
              Transport())
    asyncio.run(run.run())
    return run, run.document(created="2026-12-01T00:00:00+00:00")


def test_a_result_use_run_costs_the_requests_it_sent(bundle):
    # Before: requests_used 37 but cost.requests 58 (each variant's reused first turn again).
    run, doc = live_run(bundle, "result_use")
    card = evaluate(bundle.cases, bundle.tools, parse_transcripts(doc, SCHEMA))
    assert any(t.get("variants") for t in doc["transcripts"])
    sent = sum(a for t in doc["transcripts"] for a in
               [turn["attempts"] for turn in t["turns"]] +
               [turn["attempts"] for v in t.get("variants", []) for turn in v["turns"][1:]])
    assert card["cost"]["requests"] == run.used == doc["requests_used"] == sent
    answered = sum("response" in turn for t in doc["transcripts"] for turn in t["turns"]) + \
        sum("response" in turn for t in doc["transcripts"] for v in t.get("variants", []) for turn in v["turns"][1:])
    assert card["cost"]["latency_ms"]["answered"] == answered


def test_tokens_and_usd_count_the_reused_turn_once(bundle):
    _, doc = live_run(bundle, "result_use")
    with_variants = [t for t in doc["transcripts"] if t.get("variants")][0]
    for turn in with_variants["turns"] + [x for v in with_variants["variants"] for x in v["turns"]]:
        turn["response"]["usage"] = {"prompt_tokens": 1000, "completion_tokens": 10}
    alone = {**doc, "transcripts": [with_variants]}
    without = {**doc, "transcripts": [{k: v for k, v in with_variants.items() if k != "variants"}]}
    prices = check_prices(1.0, 1.0)
    one = evaluate(bundle.cases, bundle.tools, parse_transcripts(alone, SCHEMA), prices=prices)["cost"]
    base = evaluate(bundle.cases, bundle.tools, parse_transcripts(without, SCHEMA), prices=prices)["cost"]
    # before: the reused first turn's 1000 input tokens were counted again for every variant
    extra = len(with_variants["variants"])
    assert one["input_tokens"] == base["input_tokens"] + 1000 * extra
    assert one["output_tokens"] == base["output_tokens"] + 10 * extra
    assert one["usd"] == round((one["input_tokens"] + one["output_tokens"]) / 1e6, 6)
    assert one["requests"] == base["requests"] + extra


def test_a_variant_whose_first_turn_differs_was_sent_and_is_counted(bundle):
    # A hand-written file may give a variant its own first turn: that one was a request of its own.
    _, doc = live_run(bundle, "result_use")
    t = copy.deepcopy([t for t in doc["transcripts"] if t.get("variants")][0])
    t["variants"][0]["turns"][0]["elapsed_ms"] = 123456.0
    card = evaluate(bundle.cases, bundle.tools, parse_transcripts({**doc, "transcripts": [t]}, SCHEMA))
    assert card["cost"]["requests"] == sum(turn["attempts"] for turn in t["turns"]) + \
        len(t["variants"]) + 1


def test_usd_per_passing_run_is_named_for_what_it_divides_by(bundle):
    _, doc = live_run(bundle, "should_call")
    cost = evaluate(bundle.cases, bundle.tools, parse_transcripts(doc, SCHEMA),
                    prices=check_prices(2.0, 4.0))["cost"]
    assert "usd_per_pass" not in cost
    assert cost["usd_per_passing_run"] == round(cost["usd"] / cost["passing_runs"], 6)



def test_the_latency_mean_does_not_depend_on_the_order_the_transcripts_come_in(bundle):
    # A sweep's page card said mean 15.4 ms and the terminal's re-grade of its export 15.5: the
    # same latencies, summed in another order, rounded to another last digit.
    _, doc = live_run(bundle, "should_call")
    turns = [turn for t in doc["transcripts"] for turn in t["turns"] if "response" in turn]
    draw = random.Random(7)
    means = set()
    for _ in range(200):
        for turn in turns:
            turn["elapsed_ms"] = round(draw.uniform(5, 60), 1)
        transcripts = list(parse_transcripts(doc, SCHEMA).transcripts.values())[:8]   # an even count: means on a .x5 tie
        forward = cost(transcripts, 0)["latency_ms"]
        for seed in range(5):
            random.Random(seed).shuffle(transcripts)
            assert cost(transcripts, 0)["latency_ms"] == forward
        means.add(forward["mean"])
    assert len(means) > 100         # the values really varied
