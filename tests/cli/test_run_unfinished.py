"""`run --provider openai-responses` against a server that answers in the background: a reply
with status `queued` or `in_progress` is fetched again (GET /v1/responses/{id}) until it is
finished, within the run's timeout; one that never finishes, or that cannot be fetched, makes its
case an ERROR saying so, never an empty answer graded as the model's.

Over real HTTP with tests/fakeprovider.py and the terminal's transport (urllib).
"""
from __future__ import annotations

import json

import pytest

from clirun import cli_with
from fakeprovider import FIXTURES, SUITE
import toolproof.running.polling as polling

cli = cli_with({"TOOLPROOF_API_KEY": "sk-poll-secret"})
SCOPE = "multi_step"        # two turns a case: turn 2 echoes a reply that was fetched, not posted
FIRST = next(c["id"] for c in SUITE if c["category"] == SCOPE)


@pytest.fixture
def quick(monkeypatch):
    monkeypatch.setattr(polling, "POLL_WAITS_S", (0.0,))       # the waits are polling.py's own test's


def run_json(fake, tmp_path, *argv: str) -> tuple[int, dict, dict, str]:
    out = tmp_path / "results.json"
    code, stdout, stderr = cli("run", "--provider", "openai-responses", "--base-url", fake.base + "/v1",
                               "--model", "gpt-5-mini", "--pause", "0", "--allow-incomplete", "--scope", SCOPE,
                               "--format", "json", "--out", str(out), *argv)
    return code, json.loads(stdout) if stdout else {}, json.loads(out.read_text(encoding="utf-8")), stderr


def test_a_background_server_grades_as_if_it_had_answered_at_once(fake, tmp_path, quick):
    fake.background = True
    code, card, doc, stderr = run_json(fake, tmp_path)
    assert code == 0, stderr
    assert {c["id"]: c["verdict"] for c in card["cases"]} == \
        {cid: f["intended_verdict"] for cid, f in FIXTURES.items() if cid in {c["id"] for c in card["cases"]}}
    gets = [r for r in fake.requests if r.get("method") == "GET"]
    posts = [r for r in fake.requests if r.get("method") != "GET"]
    assert gets and len(gets) == 2 * len(posts)                 # in_progress, then the answer
    assert all(r["path"].startswith("/v1/responses/resp_bg") and r["headers"]["authorization"].startswith("Bearer ")
               for r in gets)
    turns = [t for tr in doc["transcripts"] for t in tr["turns"]]
    assert all(t["response"]["status"] == "completed" for t in turns)
    assert all(t["attempts"] == 1 and [a.get("poll", False) for a in t["attempt_log"]] == [False, True, True]
               for t in turns)
    # the file re-grades to the same scorecard
    code, regraded, err = cli("grade", "--transcripts", str(tmp_path / "results.json"), "--format", "json")
    assert (code, json.loads(regraded)["score"]) == (0, card["score"])


def test_a_reply_the_server_cannot_fetch_again_is_an_error_with_its_reason(fake, tmp_path, quick):
    """store: false: the API keeps nothing, so a queued reply's id answers 404: ERROR, not an empty answer."""
    case_id = FIRST
    fake.script[case_id] = [(200, {}, json.dumps({"id": "resp_gone", "object": "response", "status": "queued",
                                                   "output": []}))]
    code, card, doc, stderr = run_json(fake, tmp_path)
    case = next(c for c in card["cases"] if c["id"] == case_id)
    assert case["verdict"] == "ERROR"
    assert case["reasons"] == ["turn 1: reply not finished (status queued: the provider had not started the answer)"]
    turn = next(t for t in doc["transcripts"] if t["case_id"] == case_id)["turns"][0]
    assert [a.get("status") for a in turn["attempt_log"]] == [200, 404] and turn["attempts"] == 1
    assert "1 ERROR" in stderr


def test_a_reply_that_never_finishes_is_given_up_at_the_timeout(fake, tmp_path):
    """in_progress forever: the fetches stop within --timeout (real waits: 0.5 s, 1 s, ...)."""
    case_id = FIRST
    running = json.dumps({"id": "resp_slow", "object": "response", "status": "in_progress", "output": []})
    fake.script[case_id] = [(200, {}, running)]
    fake.polls["resp_slow"] = [(200, {}, running)] * 50
    code, card, doc, stderr = run_json(fake, tmp_path, "--timeout", "2")
    case = next(c for c in card["cases"] if c["id"] == case_id)
    assert case["verdict"] == "ERROR" and "reply not finished (status in_progress" in case["reasons"][0]
    assert 1 <= len([r for r in fake.requests if r.get("method") == "GET"]) <= 3
