"""`run`: a plan that did not all get a verdict exits 3; where the key comes from and where the
requests go are said before anything is sent; an endpoint that fails everything stops early.

Found by review: a run whose server died mid-way (most cases ERROR or never started) exited 0, so a
CI job without --fail-under passed it; with --base-url the provider's usual key (OPENAI_API_KEY,
ANTHROPIC_API_KEY) was sent to whatever server was named, with nothing printed; an endpoint
answering 500 to everything used up the whole cap.
"""
from __future__ import annotations


import json

import pytest

from fakeprovider import SUITE
from misbehaving import MisbehavingServer
from suitefigures import in_category
from clirun import cli_with
from toolproof.cli.live import incomplete_line, key_variables

KEY = "sk-incomplete-secret-7"
ASK = in_category("must_ask")           # the cases of the runs below (scope must_ask)


@pytest.fixture(scope="module")
def bad():
    server = MisbehavingServer()
    yield server
    server.close()


cli = cli_with({"TOOLPROOF_API_KEY": KEY})


def compatible(base: str, *argv: str, environ: dict | None = None):
    return cli("run", "--provider", "openai-compatible", "--base-url", base, "--model", "m", "--pause", "0",
               *argv, environ=environ)


# ---- exit 3 ----------------------------------------------------------------------------------

def test_incomplete_line_counts_errors_and_items_never_started():
    assert incomplete_line(4, ["PASS", "FAIL", "PARTIAL", "PASS"]) is None
    assert incomplete_line(5, ["PASS", "ERROR"]) == ("toolproof: incomplete: 4 of 5 planned conversations got "
                                                     "no verdict (1 ERROR, 3 not started)")
    assert incomplete_line(0, []) is None


def test_a_server_that_dies_mid_way_exits_3_and_says_how_many(bad):
    base = bad.url("broken", after=2)             # two answers, then 500 to everything
    code, stdout, stderr = compatible(base, "--scope", "must_ask", "--cap", "100")
    assert code == 3 and stdout.startswith("ToolProof")
    last = stderr.splitlines()[-1]
    # the cap (lowered to the plan's need with every retry allowed for) covers the retries, so every
    # case starts and the dead server's cases end in ERROR (issue 20: a full run completes in full)
    assert last == (f"toolproof: incomplete: {ASK - 2} of {ASK} planned conversations got no verdict ({ASK - 2} ERROR, "
                    "0 not started); exit 3 (--allow-incomplete accepts a partial run)")


def test_allow_incomplete_accepts_a_partial_run_and_still_says_so(fake):
    code, _, stderr = compatible(fake.base + "/v1", "--scope", "must_ask", "--cap", "3", "--allow-incomplete")
    assert code == 0
    assert stderr.splitlines()[-1] == (f"toolproof: incomplete: {ASK - 3} of {ASK} planned conversations got no verdict "
                                       f"(0 ERROR, {ASK - 3} not started); accepted (--allow-incomplete)")


def test_a_cap_below_the_plan_leaves_cases_not_started_exit_3(fake):
    code, _, stderr = compatible(fake.base + "/v1", "--scope", "must_ask", "--cap", "3")
    assert code == 3 and f"(0 ERROR, {ASK - 3} not started); exit 3" in stderr.splitlines()[-1]


def test_a_whole_plan_graded_exits_0_without_the_line(fake):
    code, _, stderr = compatible(fake.base + "/v1", "--scope", "must_ask", "--cap", "100")
    assert code == 0 and "incomplete" not in stderr


def test_the_fail_under_gate_still_exits_1_first(fake):
    code, _, stderr = compatible(fake.base + "/v1", "--scope", "must_ask", "--cap", "3", "--fail-under", "100")
    assert code == 1 and f"toolproof: no score (only 3 of {ASK} cases graded ({ASK - 3} not started), below half of the plan): " \
        "--fail-under 100.0 needs a score" in stderr


# ---- early stop ------------------------------------------------------------------------------

@pytest.mark.parametrize("concurrency", ["1", "8"])
def test_an_endpoint_answering_500_to_everything_stops_after_5_conversations(bad, concurrency):
    base = bad.url("broken")
    before = len(bad.requests)
    code, stdout, stderr = compatible(base, "--scope", "all", "--cap", "400", "--concurrency", concurrency)
    assert code == 2
    # five conversations, each after its two retries; at most those in flight besides (no retry once
    # stopped): not the cap's 400
    assert 15 <= len(bad.requests) - before <= 3 * (5 + int(concurrency) - 1)
    assert ("toolproof: run stopped: at least 5 conversations failed with HTTP 500: server error, each after its retries; "
            "nothing succeeded, so no further request is sent") in stderr.splitlines()
    assert KEY not in stdout + stderr


def test_a_server_refusing_the_first_requests_of_each_prompt_completes_the_run(fake):
    # Found by the third hostile-input round: at --concurrency 8 with repeats and phrasings, a
    # server answering 503 to the first two requests of each conversation stopped the run (exit 2,
    # 48 of 56 not started) though every retry would have succeeded. The fake cannot tell a
    # conversation's repeats apart (they send the same body), so it refuses each prompt's first two
    # requests: every conversation meets at most two, and the first eight in flight all fail.
    prompts = 0
    for case in (c for c in SUITE if c["category"] == "must_ask"):
        for prompt in [case["prompt"]] + [p["prompt"] for p in case["phrasings"]]:
            fake.script[("prompt", prompt)] = [(503, {"retry-after": "0"}, "{}")] * 2
            prompts += 1
    runs = 2 * prompts                          # every prompt, twice (two repeats)
    code, stdout, stderr = compatible(fake.base + "/v1", "--scope", "must_ask", "--phrasings", "all", "--repeats",
                                      "2", "--concurrency", "8", "--cap", "500", "--format", "json")
    assert code == 0, stderr
    assert "run stopped" not in stderr and f"[{runs}/{runs}]" in stderr
    assert len(fake.requests) == 2 * prompts + runs        # two refused per prompt, then each conversation answered
    card = json.loads(stdout)
    assert card["coverage"] == {"planned": runs, "graded": runs, "error": 0, "not_started": 0}


# ---- the key and the endpoint ----------------------------------------------------------------

@pytest.mark.parametrize("provider, base, names", [
    ("openai", "", ("TOOLPROOF_API_KEY", "OPENAI_API_KEY")),
    ("anthropic", "", ("TOOLPROOF_API_KEY", "ANTHROPIC_API_KEY")),
    ("anthropic", "https://api.anthropic.com/", ("TOOLPROOF_API_KEY", "ANTHROPIC_API_KEY")),
    ("anthropic", "https://gateway.example/anthropic", ("TOOLPROOF_API_KEY",)),
    ("gemini", "http://127.0.0.1:9/v1beta", ("TOOLPROOF_API_KEY",)),
    ("openai-responses", "http://proxy.example/v1", ("TOOLPROOF_API_KEY",)),
    ("openai-compatible", "http://127.0.0.1:11434/v1", ("TOOLPROOF_API_KEY",)),
])
def test_the_usual_variable_only_for_the_providers_own_endpoint(provider, base, names):
    assert key_variables(provider, base) == names
    assert key_variables(provider, base, "MY_KEY") == ("MY_KEY",)


def test_openai_api_key_is_never_sent_to_a_compatible_server(fake):
    fake.requests.clear()
    code, _, stderr = compatible(fake.base + "/v1", "--scope", "must_ask", "--cap", "1", "--allow-incomplete",
                                 environ={"OPENAI_API_KEY": "sk-openai-do-not-send"})
    assert code == 0 and fake.requests and "authorization" not in fake.requests[0]["headers"]
    assert stderr.splitlines()[0] == (f"toolproof: endpoint {fake.base}/v1/chat/completions; "
                                      f"no key (none of TOOLPROOF_API_KEY is set)")


def test_anthropic_gateway_refuses_the_usual_key_before_any_request(fake):
    fake.requests.clear()
    code, stdout, stderr = cli("run", "--provider", "anthropic", "--base-url", fake.base, "--model", "m",
                               environ={"ANTHROPIC_API_KEY": "sk-ant-do-not-send"})
    assert (code, stdout) == (2, "") and fake.requests == []
    assert stderr == ("toolproof: no API key: set TOOLPROOF_API_KEY (with --base-url, ANTHROPIC_API_KEY is not "
                      "sent to another server), or name a variable with --api-key-env\n")


def test_api_key_env_names_the_variable_and_the_run_says_so_before_sending(fake):
    fake.requests.clear()
    code, stdout, stderr = cli("run", "--provider", "anthropic", "--base-url", fake.base, "--model", "m",
                               "--pause", "0", "--scope", "must_ask", "--cap", "1", "--allow-incomplete",
                               "--api-key-env", "GATEWAY_KEY",
                               environ={"GATEWAY_KEY": "sk-gw-1", "ANTHROPIC_API_KEY": "sk-ant-2"})
    assert code == 0
    assert [r["headers"].get("x-api-key") for r in fake.requests] == ["sk-gw-1"]
    assert stderr.splitlines()[0] == f"toolproof: endpoint {fake.base}/v1/messages; key from GATEWAY_KEY"
    assert "sk-gw-1" not in stdout + stderr


@pytest.mark.parametrize("name, message", [
    ("", "--api-key-env wants an environment variable name"),
    ("A B\x1b[2J", "--api-key-env wants an environment variable name"),
    ("X" * 10_000, "--api-key-env wants an environment variable name"),
    ("UNSET_VAR", "no API key: UNSET_VAR (named by --api-key-env) is not set"),
])
def test_a_bad_or_unset_api_key_env_is_one_line(fake, name, message):
    code, stdout, stderr = cli("run", "--provider", "anthropic", "--base-url", fake.base, "--model", "m",
                               "--api-key-env", name, environ={"ANTHROPIC_API_KEY": "x"})
    assert (code, stdout) == (2, "") and stderr.startswith(f"toolproof: {message}") and stderr.count("\n") == 1
    assert "\x1b" not in stderr and len(stderr) < 300
