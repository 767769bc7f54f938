"""Fetching an unfinished reply again (running/polling.py), with a scripted send and a sleep that
only counts: a `queued` or `in_progress` Responses reply is fetched by its id until it is
finished, within the run's timeout, and never longer; a failed fetch keeps the unfinished reply
(which then grades as ERROR, tests/providers/test_unfinished.py)."""
from __future__ import annotations

import asyncio
import json

import pytest

from toolproof.providers.dispatch import poll_url
from toolproof.running.polling import poll_target, settle
from toolproof.running.transport import HttpReply, TransportError

URL = "https://api.example/v1/responses"


def body(status: str, ident: str = "resp_1", **extra) -> HttpReply:
    return HttpReply(200, {}, json.dumps({"id": ident, "object": "response", "status": status, "output": [], **extra}), 20.0)


class Script:
    """send() answers from a list; sleep() adds up the waits."""

    def __init__(self, *answers):
        self.answers, self.sent, self.slept = list(answers), [], []

    async def send(self, url, headers, payload, timeout):
        self.sent.append((url, payload, timeout))
        answer = self.answers.pop(0) if self.answers else body("in_progress")
        if isinstance(answer, Exception):
            raise answer
        return answer

    async def sleep(self, seconds):
        self.slept.append(seconds)


def settled(first: HttpReply, script: Script, timeout_s: float = 45.0, provider: str = "openai-responses"):
    return asyncio.run(settle(first, provider=provider, url=URL, headers={"authorization": "Bearer k"},
                              timeout_s=timeout_s, send=script.send, sleep=script.sleep))


def test_a_queued_reply_is_fetched_by_its_id_until_it_is_finished():
    done = body("completed", output=[{"type": "message", "content": [{"type": "output_text", "text": "Hi"}]}])
    script = Script(body("in_progress"), done)
    reply, log = settled(body("queued"), script)
    assert reply is done
    assert [(url, payload) for url, payload, _ in script.sent] == [(f"{URL}/resp_1", None)] * 2     # GETs
    assert script.slept == [0.5, 1.0]
    assert [(e["poll"], e["status"]) for e in log] == [(True, 200), (True, 200)]


@pytest.mark.parametrize("first", [body("completed"), body("incomplete"), body("failed"), body("cancelled"),
                                   HttpReply(200, {}, "not json", 1.0), HttpReply(500, {}, '{"status": "queued", "id": "r"}', 1.0)])
def test_a_finished_or_unreadable_reply_is_never_fetched_again(first):
    script = Script()
    assert settled(first, script) == (first, []) and script.sent == []


@pytest.mark.parametrize("provider", ["openai", "anthropic", "gemini", "openai-compatible"])
def test_only_the_responses_api_is_polled(provider):
    script = Script()
    first = body("queued")
    assert settled(first, script, provider=provider) == (first, []) and script.sent == []


def test_a_reply_that_never_finishes_is_given_up_within_the_timeout():
    """A server that answers in_progress forever: the waits and the fetches stay inside the run's
    timeout, then the last unfinished reply is kept."""
    script = Script(*[body("in_progress") for _ in range(100)])
    reply, log = settled(body("queued"), script, timeout_s=10.0)
    assert json.loads(reply.text)["status"] == "in_progress"
    assert sum(script.slept) + sum(e["elapsed_ms"] for e in log) / 1000 <= 10.0 + 1e-9
    assert script.slept[:4] == [0.5, 1.0, 2.0, 4.0] and len(script.sent) == len(log) <= 5
    assert all(timeout <= 10.0 for _, _, timeout in script.sent)


def test_a_long_timeout_still_bounds_the_number_of_fetches():
    """--timeout 3600 and a reply that never finishes: at most MAX_POLLS fetches, then given up."""
    from toolproof.running.polling import MAX_POLLS

    script = Script(*[body("in_progress") for _ in range(500)])
    _, log = settled(body("queued"), script, timeout_s=3600.0)
    assert len(log) == len(script.sent) == MAX_POLLS and sum(script.slept) < 400


@pytest.mark.parametrize("answer, entry", [
    (HttpReply(404, {}, '{"error": {"message": "Response with id \'resp_1\' not found."}}', 3.0), {"status": 404}),
    (HttpReply(302, {"location": "http://elsewhere/"}, "", 3.0), {"status": 302}),
    (TransportError("timeout", "no complete answer within 45 s", 45000.0), {"error": "timeout"})])
def test_a_failed_fetch_keeps_the_unfinished_reply(answer, entry):
    """store: false keeps nothing to fetch (404); a redirect is never followed; a timeout ends it."""
    first = body("queued")
    reply, log = settled(first, Script(answer))
    assert reply is first
    assert len(log) == 1 and {k: log[0][k] for k in entry} == entry and log[0]["poll"] is True


@pytest.mark.parametrize("ident, tail", [
    ("resp_1", "/resp_1"), ("../../admin?key=1#x", "/..%2F..%2Fadmin%3Fkey%3D1%23x"), ("rés p", "/r%C3%A9s%20p")])
def test_the_id_cannot_leave_its_path_segment(ident, tail):
    """A hostile id (a path, a query, a fragment) is quoted into one segment under the endpoint."""
    assert poll_url("openai-responses", URL, {"status": "queued", "id": ident}) == URL + tail


def test_poll_target_reads_only_success_bodies():
    assert poll_target("openai-responses", URL, body("in_progress", "resp_7")) == f"{URL}/resp_7"
    assert poll_target("openai-responses", URL, HttpReply(200, {}, "[" * 100_000, 1.0)) == ""
