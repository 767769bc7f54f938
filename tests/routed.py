"""The fake provider inside the page: Playwright's `page.route` answers a provider's URLs.

One class for every wire format: by default it replays the committed fixtures converted to the
wire's shape and refuses an unfaithful second turn (tests/fakeprovider.py's `replay`), or answers
with a test's own function; a script per case id overrides either. It answers CORS preflights,
records every POST with its case and turn, and never lets a request reach the network.
"""
from __future__ import annotations

import json
import time
from typing import Callable

from fakeprovider import case_and_turn, replay

OPENAI = "https://api.openai.com/v1/chat/completions"
ANTHROPIC = "https://api.anthropic.com/v1/messages"
PREFLIGHT = {"access-control-allow-origin": "*", "access-control-allow-headers": "*",
             "access-control-allow-methods": "POST, GET"}
CORS = {"access-control-allow-origin": "*", "access-control-expose-headers": "retry-after",
        "content-type": "application/json"}
LEAK = "sk-test-key"         # an error body that echoes the key the page was given (livepage.start)
LEAKY_BODY = json.dumps({"error": {"message": f"boom {LEAK} <img src=x onerror=alert(1)>"}})

Answer = Callable[[str | None, int, dict], tuple[int, dict, str]]    # (case id, turn, body) -> reply


def openai_body(content=None, calls=(), finish=None) -> str:
    """An OpenAI chat completion as body text, for a scripted step; calls are (name, arguments text)."""
    message = {"role": "assistant", "content": content}
    if calls:
        message["tool_calls"] = [{"id": f"call_{i}", "type": "function",
                                  "function": {"name": name, "arguments": arguments}}
                                 for i, (name, arguments) in enumerate(calls)]
    return json.dumps({"id": "chatcmpl-test", "object": "chat.completion", "model": "gpt-test", "choices": [
        {"index": 0, "message": message, "finish_reason": finish or ("tool_calls" if calls else "stop")}]})


def wait_until(page, predicate: Callable[[], object], what: str, *, rounds: int = 3000) -> None:
    """Wait until `predicate()` holds for something the routed provider records (its route
    handlers run only while Playwright waits, so the page is pumped a few milliseconds a round).
    A state, never a delay: it returns as soon as the state is reached, and fails naming `what`
    if it never is (about a minute of rounds: a hang guard, not a time bound on the page)."""
    for _ in range(rounds):
        if predicate():
            return
        page.wait_for_timeout(20)
    raise AssertionError(f"never happened: {what}")


def origin_pattern(url: str) -> str:
    """The glob that routes everything at a provider URL's origin (its base, before /v1/)."""
    return url.split("/v1/")[0] + "/**"


class RoutedProvider:
    """A provider routed in `page` at a URL glob, speaking one wire format.

    Each POST takes the next step of `script[case_id]`: (status, headers, body text);
    ("sleep", seconds) before the default answer; ("hold",): never answered (the request stays
    in flight until the page gives up on it or the test fulfils `held`); ("fail",): the
    connection fails. Without a step, the default answer is `answer(case_id, turn, body)`, else
    the fixture replay in this wire, or with `forward` the request itself, sent on to a real
    local server, plus CORS headers. (A response without CORS headers cannot be faked here:
    Playwright adds them to fulfilled cross-origin answers; leave such a server unrouted.)
    """

    def __init__(self, page, pattern: str, wire: str = "openai", *, forward: bool = False,
                 answer: Answer | None = None):
        self.page, self.pattern, self.wire, self.forward = page, pattern, wire, forward
        self.answer = answer or self.replay
        self.posts: list[dict] = []
        self.script: dict[str, list] = {}
        self.held: list = []
        self.probes: list[str] = []  # GETs: the page asking whether anything answers at all
        # GET .../responses/{id} -> [(status, headers, body text), ...]: an unfinished reply fetched
        # again (running/polling.py), one step per fetch; each fetch is recorded in `fetches`
        self.polls: dict[str, list] = {}
        self.fetches: list[dict] = []
        self.refusing = False       # after a ("fail",) step, as a server that is down would
        self.in_flight = 0          # posts not yet answered, as the provider sees them
        self.peak_in_flight = 0     # the most at once: what a concurrency limit is checked on
        page.route(pattern, self.handle)

    def replay(self, case_id: str | None, turn: int, body: dict) -> tuple[int, dict, str]:
        return replay(case_id, turn, self.wire, body)

    def handle(self, route) -> None:
        request = route.request
        if request.method == "OPTIONS":
            route.fulfill(status=204, headers=PREFLIGHT)
            return
        ident = request.url.rstrip("/").rsplit("/", 1)[-1]
        if request.method == "GET" and self.polls.get(ident):
            self.fetches.append({"url": request.url, "headers": request.all_headers()})
            status, headers, text = self.polls[ident].pop(0)
            route.fulfill(status=status, headers={**CORS, **headers}, body=text)
            return
        if request.method == "GET":      # the page's no-cors probe after a failed POST (page/transport.py)
            self.probes.append(request.url)
            if self.refusing:
                route.abort("connectionrefused")
            else:
                route.fulfill(status=404, body="")
            return
        body = json.loads(request.post_data or "{}")
        case_id, turn = case_and_turn(request.url, body)
        self.posts.append({"url": request.url, "headers": request.all_headers(), "raw": request.post_data,
                           "body": body, "case_id": case_id, "turn": turn})
        self.in_flight += 1
        self.peak_in_flight = max(self.peak_in_flight, self.in_flight)
        queue = self.script.get(case_id)
        step = queue.pop(0) if queue else None
        if step == ("hold",):
            self.held.append(route)
            return
        self.in_flight -= 1
        try:
            self.refusing = step == ("fail",)
            if self.refusing:
                route.abort("failed")
                return
            if step is not None and step[0] == "sleep":
                time.sleep(step[1])
                step = None
            if step is None and self.forward:
                response = route.fetch()
                route.fulfill(response=response, headers={**response.headers, **CORS})
                return
            status, headers, text = step if step is not None else self.answer(case_id, turn, body)
            route.fulfill(status=status, headers={**CORS, **headers}, body=text)
        except Exception:           # the page already gave up on this request (timeout, abort)
            pass

    def release(self, route, **fulfil) -> None:
        """Answer a held request (route.fulfill's arguments)."""
        self.in_flight -= 1
        route.fulfill(**fulfil)

    def close(self) -> None:
        for route in self.held:
            try:
                route.abort()
            except Exception:
                pass
        self.page.unroute(self.pattern)
