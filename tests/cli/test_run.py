"""`python -m toolproof run`, in-process, against the fake provider in tests/fakeprovider.py.

The fake replays the committed fixtures over real HTTP, so a full run must reproduce every
fixture's intended verdict and its results file must re-grade offline to the same scorecard.
The key travels only in request headers: never in stdout, stderr or the results file.
"""
from __future__ import annotations

import json
import re

import pytest

from fakeprovider import FIXTURES
from clirun import cli_with
from toolproof.cli.live import api_key
from toolproof.datafiles import load_bundle
from toolproof.errors import ToolProofError
from toolproof.limits import ReadError, read_json
from toolproof.providers.catalog import PROVIDERS
from toolproof.suite.categories import CASE_CATEGORIES
from toolproof.suite.model import requests_needed, scoped

KEY = "sk-cli-secret-42"
ENV = {"TOOLPROOF_API_KEY": KEY, "OPENAI_API_KEY": "sk-openai-other", "ANTHROPIC_API_KEY": "sk-ant-other"}
CASES = load_bundle().cases
NOW = {"retry-after": "0"}      # retry at once: the runner's default backoff is 1 s, then 2 s


cli = cli_with(ENV)


BASES = {"openai-compatible": "/v1", "anthropic": "", "openai-responses": "/v1", "gemini": "/v1beta"}


def live(fake, *argv: str, provider: str = "openai-compatible", environ: dict | None = None,
         allow_incomplete: bool = True):
    base = ["--base-url", fake.base + BASES[provider]] if provider in BASES else []
    # partial plans (a small --cap) are not most tests' point (exit 3: tests/cli/test_run_incomplete.py)
    partial = ["--allow-incomplete"] if allow_incomplete else []
    return cli("run", "--provider", provider, *base, "--model", "fake", "--pause", "0", *partial,
               *argv, environ=environ)


def fast_fixture_errors(fake) -> None:
    """Fixture turns that are request errors: answered with Retry-After 0 so the run stays fast."""
    for case_id, fixture in FIXTURES.items():
        for k, turn in enumerate(fixture["turns"]):
            if "error" in turn:
                fake.script[case_id] = [("sleep", 0)] * k + [
                    (turn["error"]["status"] or 500, NOW, '{"error": "fixture error, key %s"}' % KEY)] * 3


def assert_no_key(*texts: str) -> None:
    for text in texts:
        assert KEY not in text
        assert "sk-fake-echo" not in text


def full_run(fake, tmp_path, provider: str):
    fast_fixture_errors(fake)
    out = tmp_path / "results.json"
    code, stdout, stderr = live(fake, "--cap", "2000", "--format", "json", "--out", str(out), provider=provider)
    assert code == 0, stderr
    # the fixtures hold one case whose request fails (intended ERROR): part of the plan got no verdict
    assert stderr.endswith(f"toolproof: incomplete: 1 of {len(CASES)} planned conversations got no verdict (1 ERROR, "
                           "0 not started); accepted (--allow-incomplete)\n")
    need = requests_needed(CASES)
    # the maximum allows for every retry (two per request), so a run there never leaves a case out
    assert f"toolproof: cap lowered to {3 * need}: all that scope all needs ({need}), with every retry allowed for\n" in stderr
    assert len(fake.requests) <= 3 * need
    card = json.loads(stdout)
    verdicts = {c["id"]: c["verdict"] for c in card["cases"]}
    assert verdicts == {cid: f["intended_verdict"] for cid, f in FIXTURES.items()}
    # the results file re-grades offline to the very same scorecard
    code, regraded, err = cli("grade", "--transcripts", str(out), "--format", "json")
    assert (code, err) == (0, "")
    assert regraded == stdout
    text = out.read_text(encoding="utf-8")
    doc = json.loads(text)
    assert (doc["kind"], doc["provider"], doc["model"], doc["state"]) == ("live", provider, "fake", "done")
    assert_no_key(stdout, stderr, text)
    return doc


def test_full_run_against_an_openai_compatible_server(fake, tmp_path):
    doc = full_run(fake, tmp_path, "openai-compatible")
    assert doc["base_url"] == f"{fake.base}/v1"
    assert {r["path"] for r in fake.requests} == {"/v1/chat/completions"}
    assert {r["headers"].get("authorization") for r in fake.requests} == {f"Bearer {KEY}"}


def test_full_run_against_an_anthropic_compatible_gateway(fake, tmp_path):
    doc = full_run(fake, tmp_path, "anthropic")
    assert doc["base_url"] == fake.base
    assert fake.requests and {r["path"] for r in fake.requests} == {"/v1/messages"}
    for request in fake.requests:
        headers = request["headers"]
        assert headers["x-api-key"] == KEY       # TOOLPROOF_API_KEY over ANTHROPIC_API_KEY
        assert headers["anthropic-version"] == "2023-06-01"
        assert headers["anthropic-dangerous-direct-browser-access"] == "true"
        assert "authorization" not in headers


def test_full_run_against_openai_responses(fake, tmp_path):
    doc = full_run(fake, tmp_path, "openai-responses")
    assert {r["path"] for r in fake.requests} == {"/v1/responses"}
    assert {r["headers"].get("authorization") for r in fake.requests} == {f"Bearer {KEY}"}
    # every second turn echoed the calls by call_id, without server-side ids (the fake refuses
    # anything else with a 400, which would have broken the intended verdicts above)
    seconds = [r for r in fake.requests if r["turn"] == 2]
    assert seconds and all(r["body"]["store"] is False for r in fake.requests)
    assert all(any(i["type"] == "function_call_output" for i in r["body"]["input"]) for r in seconds)
    assert all("error" not in t for tr in doc["transcripts"] for t in tr["turns"][1:]
               if FIXTURES[tr["case_id"]]["turns"][1:] and "error" not in FIXTURES[tr["case_id"]]["turns"][1])


def test_full_run_against_gemini(fake, tmp_path):
    doc = full_run(fake, tmp_path, "gemini")
    assert {r["path"] for r in fake.requests} == {"/v1beta/models/fake:generateContent"}
    for request in fake.requests:
        assert request["headers"]["x-goog-api-key"] == KEY
        assert "authorization" not in request["headers"] and "key=" not in request["path"]
    seconds = [r for r in fake.requests if r["turn"] == 2]
    signatures = [p["thoughtSignature"] for r in seconds for p in r["body"]["contents"][1]["parts"]
                  if "functionCall" in p]
    assert seconds and len(signatures) >= len(seconds)       # echoed, and the fake checked them
    assert all(r["body"]["contents"][2]["role"] == "user" and all(
        "functionResponse" in p for p in r["body"]["contents"][2]["parts"]) for r in seconds)
    assert doc["base_url"] == fake.base + "/v1beta"


def test_a_gemini_second_turn_that_drops_a_signature_is_refused_like_the_real_api(fake):
    from fakeprovider import second_turn_problem

    case_id = "mst-refund-latest-order"
    request = next(r for r in fake_run_requests(fake, "multi_step") if r["case_id"] == case_id and r["turn"] == 2)
    body = json.loads(json.dumps(request["body"]))
    assert second_turn_problem(case_id, "gemini", body) is None
    del body["contents"][1]["parts"][0]["thoughtSignature"]
    assert second_turn_problem(case_id, "gemini", body) == \
        "Function call is missing a thought_signature in functionCall parts."


def fake_run_requests(fake, scope: str) -> list[dict]:
    code, _, stderr = live(fake, "--scope", scope, "--cap", "99", provider="gemini")
    assert code == 0, stderr
    return list(fake.requests)


NOT_RUN = re.compile(r"^toolproof: (\d+) cases? not run: the cap of 7 requests could not cover them$", re.M)


def test_the_cap_bounds_what_reaches_the_server(fake, tmp_path):
    out = tmp_path / "r.json"
    code, stdout, stderr = live(fake, "--scope", "injection", "--cap", "7", "--format", "json", "--out", str(out),
                                allow_incomplete=False)
    # issue 20: a run the cap cut short exited 0 like a complete one; now 3, saying what is missing
    assert code == 3, stderr
    assert 0 < len(fake.requests) <= 7
    match = NOT_RUN.search(stderr)
    assert match, stderr
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert doc["requests_used"] == len(fake.requests)
    missing = len(scoped(CASES, "injection")) - len(doc["transcripts"])
    assert int(match.group(1)) == missing > 0
    assert len(json.loads(stdout)["cases"]) == len(doc["transcripts"])
    assert [m["case_id"] for m in doc["not_started"]] == [c.id for c in scoped(CASES, "injection")][-missing:]
    assert {m["reason"] for m in doc["not_started"]} == {"the request cap (7) could not cover its requests"}
    card = json.loads(stdout)
    assert card["coverage"]["not_started"] == missing
    assert stderr.endswith(f"toolproof: incomplete: {missing} of {len(scoped(CASES, 'injection'))} planned conversations got no verdict "
                           f"(0 ERROR, {missing} not started); exit 3 (--allow-incomplete accepts a partial run)\n")
    fake.requests.clear()
    code, _, stderr = live(fake, "--scope", "injection", "--cap", "7", "--allow-incomplete")
    assert code == 0 and stderr.splitlines()[-1].endswith("accepted (--allow-incomplete)")


# ---- the key ---------------------------------------------------------------------------------

@pytest.mark.parametrize("provider, environ, key", [
    ("openai", {"TOOLPROOF_API_KEY": "a", "OPENAI_API_KEY": "b"}, "a"),
    ("openai", {"OPENAI_API_KEY": "b"}, "b"),
    ("anthropic", {"TOOLPROOF_API_KEY": "a", "ANTHROPIC_API_KEY": "c"}, "a"),
    ("anthropic", {"ANTHROPIC_API_KEY": "c", "OPENAI_API_KEY": "b"}, "c"),
    ("openai-compatible", {"OPENAI_API_KEY": "b"}, ""),     # never sent to a server merely pointed at
    ("openai-compatible", {}, ""),          # local servers often need none
    ("openai-responses", {"OPENAI_API_KEY": "b", "GEMINI_API_KEY": "g"}, "b"),
    ("gemini", {"OPENAI_API_KEY": "b", "GEMINI_API_KEY": "g"}, "g"),
    ("gemini", {"TOOLPROOF_API_KEY": "a", "GEMINI_API_KEY": "g"}, "a"),
    ("openai", {"TOOLPROOF_API_KEY": "", "OPENAI_API_KEY": "b"}, "b"),
])
def test_api_key(provider, environ, key):
    assert api_key(provider, environ) == key


@pytest.mark.parametrize("provider, variable", [("openai", "OPENAI_API_KEY"), ("anthropic", "ANTHROPIC_API_KEY")])
def test_api_key_missing(provider, variable):
    with pytest.raises(ToolProofError) as caught:
        api_key(provider, {"OPENAI_API_KEY" if provider == "anthropic" else "ANTHROPIC_API_KEY": "x"})
    assert caught.value.line() == f"no API key: set TOOLPROOF_API_KEY or {variable}"


def test_toolproof_api_key_wins_on_the_wire(fake):
    code, stdout, stderr = live(fake, "--scope", "must_ask", "--cap", "2", "--allow-incomplete")
    assert code == 0, stderr
    assert [r["headers"]["authorization"] for r in fake.requests] == [f"Bearer {KEY}"] * 2
    assert_no_key(stdout, stderr)


def test_no_key_for_a_compatible_server_sends_no_authorization(fake):
    code, _, stderr = live(fake, "--scope", "must_ask", "--cap", "1", "--allow-incomplete", environ={})
    assert code == 0, stderr
    assert len(fake.requests) == 1 and "authorization" not in fake.requests[0]["headers"]


def test_missing_key_for_openai_is_refused_before_any_request(fake):
    code, stdout, stderr = cli("run", "--provider", "openai", "--model", "gpt-x", environ={"ANTHROPIC_API_KEY": "x"})
    assert (code, stdout, stderr) == (2, "", "toolproof: no API key: set TOOLPROOF_API_KEY or OPENAI_API_KEY\n")
    assert fake.requests == []


# ---- gate and refusals -----------------------------------------------------------------------

def test_fail_under_above_the_score_exits_1_and_still_prints(fake):
    # the whole scope (cap 3 graded 3 of 9: below half, no score, tests/cli/test_run_incomplete.py)
    code, stdout, stderr = live(fake, "--scope", "must_ask", "--cap", "30", "--format", "json", "--fail-under", "100")
    card = json.loads(stdout)
    assert code == 1 and card["score"] is not None and card["score"] < 100
    assert f"toolproof: score {card['score']} is below --fail-under 100.0\n" in stderr


def test_fail_under_zero_passes(fake):
    code, stdout, stderr = live(fake, "--scope", "must_ask", "--cap", "30", "--fail-under", "0")
    assert code == 0, stderr
    assert "Score:" in stdout


@pytest.mark.parametrize("argv, line", [
    (["run", "--provider", "openai-compatible", "--model", "m"],
     "toolproof: --base-url is required for openai-compatible (e.g. http://localhost:11434/v1)"),
    (["run", "--provider", "openai", "--model", "m", "--cap", "0"], "toolproof: --cap must be at least 1, got 0"),
    (["run", "--provider", "openai", "--model", "m", "--cap", "-3"], "toolproof: --cap must be at least 1, got -3"),
    (["run", "--provider", "mistral", "--model", "m"],
     "toolproof: usage error: argument --provider: invalid choice: 'mistral' "
     f"(choose from {', '.join(map(repr, PROVIDERS))})"),
    (["run", "--provider", "openai", "--base-url", "http://127.0.0.1:9/v1", "--model", "m"],
     "toolproof: --base-url does not apply to openai (its endpoint is fixed); "
     "use --provider openai-compatible for another server"),
    (["run", "--provider", "gemini", "--base-url", "https://g.example/v1beta?key=AIzaLEAK", "--model", "m"],
     "toolproof: base URL must not have a query (?...) or fragment (#...): give the key as the API key, never in a URL"),
    (["run", "--provider", "anthropic", "--base-url", "https://u:p@gw.example", "--model", "m"],
     "toolproof: base URL must not contain user:password@; put the key in the API key field (or TOOLPROOF_API_KEY), "
     "which is sent only in the auth header"),
    (["run", "--provider", "openai-responses", "--base-url", "http://gw.example/\x00v1", "--model", "m"],
     "toolproof: base URL holds spaces or control characters"),
    (["run", "--provider", "openai", "--model", "m", "--scope", "bogus"],
     "toolproof: usage error: argument --scope: invalid choice: 'bogus' (use all, one of "
     + ", ".join(CASE_CATEGORIES) + ", scenarios or scenarios:<world>)"),
    (["run", "--provider", "openai"], "toolproof: usage error: the following arguments are required: --model"),
])
def test_usage_errors(fake, argv, line):
    code, stdout, stderr = cli(*argv)
    assert (code, stdout) == (2, "")
    assert stderr == line + "\n"
    assert fake.requests == []


# ---- a failing provider ----------------------------------------------------------------------

def test_a_server_error_is_an_error_turn_with_the_providers_words(fake, tmp_path):
    first = scoped(CASES, "should_call")[0]
    body = json.dumps({"error": {"message": f"upstream exploded near {KEY}\x1b[2J BODY-TEXT-991" + "x" * 400}})
    fake.script[first.id] = [(500, NOW, body)] * 3
    out = tmp_path / "r.json"
    code, stdout, stderr = live(fake, "--scope", "should_call", "--allow-incomplete", "--cap", "5", "--out", str(out))
    assert code == 0, stderr
    text = out.read_text(encoding="utf-8")
    doc = json.loads(text)
    turn = doc["transcripts"][0]["turns"][0]
    assert doc["transcripts"][0]["case_id"] == first.id
    assert turn["error"]["status"] == 500 and turn["attempts"] == 3
    assert re.fullmatch(r"server error, after \d+ ms", turn["error"]["message"])
    assert [a["status"] for a in turn["attempt_log"]] == [500, 500, 500]
    assert len(doc["transcripts"]) == 3 and doc["requests_used"] == len(fake.requests) == 5
    # the provider's own words are kept and shown: the key redacted by value, control
    # characters escaped, the first 300 characters only
    said = turn["error"]["provider_message"]
    assert said.startswith("upstream exploded near [REDACTED:api-key]\\x1b[2J BODY-TEXT-991xxx")
    assert len(said) <= 300 + 3 + len("… (99,999 more)") and "x" * 300 not in said
    assert re.search(r"x… \(\d[\d,]* more\)$", said)          # says how much of the message was cut
    assert "; the provider said: upstream exploded near [REDACTED:api-key]\\x1b[2J" in stdout
    assert_no_key(text, stdout, stderr)


def test_a_401_stops_the_run(fake, tmp_path):
    first = scoped(CASES, "should_call")[0]
    fake.script[first.id] = [(401, {}, '{"error": "bad key sk-fake-echo"}')]
    out = tmp_path / "r.json"
    _, stdout, stderr = live(fake, "--scope", "should_call", "--cap", "5", "--out", str(out))
    assert "toolproof: run stopped: HTTP 401, unauthorized (check the API key)\n" in stderr
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert (doc["state"], len(doc["transcripts"]), len(fake.requests)) == ("error", 1, 1)
    assert_no_key(stdout, stderr, out.read_text(encoding="utf-8"))


# ---- the newer wire formats: hostile answers ------------------------------------------------

HOSTILE_GEMINI = {
    "nan": '{"candidates": [{"content": {"role": "model", "parts": [{"functionCall": {"name": "create_reminder", '
           '"args": {"text": NaN, "remind_on": Infinity}}}]}, "finishReason": "STOP"}]}',
    "huge": json.dumps({"candidates": [{"content": {"role": "model", "parts": [{"text": "x" * 3_000_000}]},
                                        "finishReason": "STOP"}]}),
    "control": json.dumps({"candidates": [{"content": {"role": "model", "parts": [{"text": "\u0000\u001b[2J\u202e"}]},
                                           "finishReason": "STOP"}]}),
    "junk": '{"candidates": [{"content": {"parts": "nope"}, "finishReason": 7}], "usageMetadata": []}',
    "malformed-call": '{"candidates": [{"finishReason": "MALFORMED_FUNCTION_CALL", "finishMessage": "Malformed function call: x("}]}',
}
HOSTILE_RESPONSES = {
    "nan": '{"status": "completed", "output": [{"type": "function_call", "call_id": "c", "name": "create_reminder", '
           '"arguments": "{\\"text\\": NaN}"}]}',
    "control": json.dumps({"status": "completed", "output": [
        {"type": "message", "content": [{"type": "output_text", "text": "\u0000\u001b[2J"}]}]}),
    "junk": '{"status": ["x"], "output": [null, 3, {"type": "function_call", "arguments": {"a": []}}]}',
}


@pytest.mark.parametrize("provider, body", [("gemini", b) for b in HOSTILE_GEMINI.values()]
                         + [("openai-responses", b) for b in HOSTILE_RESPONSES.values()],
                         ids=[f"gemini-{k}" for k in HOSTILE_GEMINI] + [f"responses-{k}" for k in HOSTILE_RESPONSES])
def test_hostile_answers_in_the_new_formats_are_graded_not_raised(fake, tmp_path, provider, body):
    first = scoped(CASES, "should_call")[0]
    fake.script[first.id] = [(200, {}, body)]
    out = tmp_path / "r.json"
    code, stdout, stderr = live(fake, "--scope", "should_call", "--allow-incomplete", "--cap", "1", "--format", "json", "--out", str(out),
                                provider=provider)
    try:
        read_json(body)
        readable = True
    except ReadError:
        readable = False
    # a body past the reader's limits is no answer at all: with nothing else sent, the run
    # ends "no request succeeded" (exit 2), still graded and written
    assert code == (0 if readable else 2), stderr
    assert readable or "no request succeeded" in stderr
    assert "Traceback" not in stderr
    case = json.loads(stdout)["cases"][0]
    # an unreadable body is a failed request (ERROR); a readable one with hostile content a FAIL
    assert (case["id"], case["verdict"]) == (first.id, "FAIL" if readable else "ERROR")
    # the results file re-grades offline to the same scorecard
    code, regraded, err = cli("grade", "--transcripts", str(out), "--format", "json")
    assert (code, err, regraded) == (0, "", stdout)
    assert_no_key(stdout, stderr, out.read_text(encoding="utf-8"))


def test_a_slow_gemini_answer_times_out_and_the_run_goes_on(fake):
    # The first case is never answered, so the timeout's length races with no work; the second is
    # real work under the same timeout, which a busy machine may need seconds for. Both start at
    # once and hold the whole cap of 2, so no request is left for a retry: one wait of 30 s.
    first, second = scoped(CASES, "should_call")[:2]
    fake.script[first.id] = [("hold",)]
    code, stdout, stderr = live(fake, "--scope", "should_call", "--allow-incomplete", "--cap", "2", "--concurrency", "2",
                                "--timeout", "30", "--format", "json", provider="gemini")
    assert code == 0, stderr
    cases = {c["id"]: c for c in json.loads(stdout)["cases"]}
    assert cases[first.id]["reasons"] == ["turn 1: request failed (no response: no complete answer within 30 s)"]
    assert cases[second.id]["verdict"] == FIXTURES[second.id]["intended_verdict"]
