"""A fake provider on 127.0.0.1 for the CLI tests, speaking all four wire formats.

By default it answers each request the way the committed fixture for that case answers (found
by the user's prompt; turn 2 when the conversation already holds tool results), converted to
the shape of the endpoint that was called: `/chat/completions` (OpenAI), `/v1/messages`
(Anthropic), `/responses` (OpenAI Responses) or `/models/{m}:generateContent` (Gemini). A
script can replace answers per case with any status, headers and body, and every request is
recorded (path, headers, body) for assertions.

Its replies read like real ones with tools (as a reasoning model answers): Messages replies carry
a signed thinking block and the response-only `tool_use.caller`, Chat Completions replies
DeepSeek's `reasoning_content` and Gemini 3's `extra_content.google.thought_signature` per call,
Responses replies an encrypted reasoning item before their calls. And like the real APIs, it
refuses a second turn that drops what the first handed out or echoes what it must not: a Gemini
turn 2 must repeat the model's content exactly (every thoughtSignature); a Messages turn 2 may
hold only request fields ("Extra inputs are not permitted") and must keep the thinking block; a
Chat Completions turn 2 must pass back `reasoning_content` and each call's `extra_content`; a
Responses turn 2 must answer each function_call by its call_id, with no server-side ids but a
reasoning item's and the ids of the calls after it (store is false).

With `background = True` it answers a Responses request `queued` and finishes it on the next
fetches of its id (GET /responses/{id}: `in_progress`, then the answer); `polls` scripts those
fetches by id, and an id it does not know answers 404, as the API does when nothing was stored.
"""
from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SUITE = json.loads((ROOT / "data" / "suite.json").read_text())["cases"]
# the base phrasing's fixtures (a phrasing's fixture answers the same case in other words); a
# scenario's fixture (`world`) is a conversation, answered by tests/fakeagent.py, not here
FIXTURES = {t["case_id"]: t for t in json.loads((ROOT / "data" / "fixtures.json").read_text())["transcripts"]
            if "phrasing" not in t and "world" not in t}
# each case is found by its prompt or by any of its phrasings' (answered as the case)
BY_PROMPT = {**{p["prompt"]: c["id"] for c in SUITE for p in c.get("phrasings", [])},
             **{c["prompt"]: c["id"] for c in SUITE}}


def openai_from_anthropic(body: dict) -> dict:
    calls = [{"id": b["id"], "type": "function",
              "function": {"name": b["name"], "arguments": json.dumps(b["input"])}}
             for b in body["content"] if b["type"] == "tool_use"]
    text = "\n".join(b["text"] for b in body["content"] if b["type"] == "text") or None
    finish = {"max_tokens": "length", "tool_use": "tool_calls"}.get(body["stop_reason"], "stop")
    message = {"role": "assistant", "content": text, **({"tool_calls": calls} if calls else {})}
    return {"id": body["id"], "object": "chat.completion", "model": "fake",
            "choices": [{"index": 0, "message": message, "finish_reason": finish}]}


def anthropic_from_openai(body: dict) -> dict:
    message = body["choices"][0]["message"]
    blocks = [{"type": "text", "text": message["content"]}] if message.get("content") else []
    for call in message.get("tool_calls") or []:
        try:
            arguments = json.loads(call["function"]["arguments"])
        except ValueError:
            arguments = call["function"]["arguments"]      # keeps an invalid-JSON fixture invalid
        blocks.append({"type": "tool_use", "id": call["id"], "name": call["function"]["name"], "input": arguments})
    stop = {"length": "max_tokens", "tool_calls": "tool_use"}.get(body["choices"][0]["finish_reason"], "end_turn")
    return {"id": body["id"], "type": "message", "role": "assistant", "model": "fake", "content": blocks,
            "stop_reason": stop}


def as_real_anthropic(body: dict) -> dict:
    """A Messages reply as a real one with tools reads: a thinking block (with its signature)
    before a tool_use, and the response-only `caller` on each tool_use."""
    if not any(b.get("type") == "tool_use" for b in body["content"]):
        return body
    blocks = [{"type": "thinking", "thinking": "The user needs a tool.", "signature": signature(body["id"])}]
    blocks += [{**b, "caller": {"type": "direct"}} if b.get("type") == "tool_use" else b for b in body["content"]]
    return {**body, "content": blocks}


def as_reasoning_chat(body: dict) -> dict:
    """A Chat Completions reply with calls as a reasoning server sends it: DeepSeek's
    `reasoning_content` on the message, Gemini 3's `extra_content.google.thought_signature` on
    each call (both must come back in turn 2)."""
    message = body["choices"][0]["message"]
    if not message.get("tool_calls"):
        return body
    calls = [{**c, "extra_content": {"google": {"thought_signature": signature(c["id"])}}} for c in message["tool_calls"]]
    message = {**message, "reasoning_content": "The user needs a tool.", "tool_calls": calls}
    return {**body, "choices": [{**body["choices"][0], "message": message}]}


def responses_from_openai(body: dict) -> dict:
    """The same answer as an OpenAI Responses body (text item first, then function_call items)."""
    choice = body["choices"][0]
    message = choice["message"]
    output = [{"type": "message", "id": f"msg_{body['id']}", "role": "assistant", "status": "completed",
               "content": [{"type": "output_text", "text": message["content"], "annotations": []}]}
              ] if message.get("content") else []
    if message.get("tool_calls"):       # a reasoning model's turn: its encrypted reasoning, then its calls
        output.append({"type": "reasoning", "id": f"rs_{body['id']}", "summary": [],
                       "encrypted_content": signature(body["id"])})
    output += [{"type": "function_call", "id": f"fc_{call['id']}", "call_id": call["id"], "status": "completed",
                "name": call["function"]["name"], "arguments": call["function"]["arguments"]}
               for call in message.get("tool_calls") or []]
    usage = body.get("usage", {})
    out = {"id": f"resp_{body['id']}", "object": "response", "model": "fake", "status": "completed",
           "output": output, "usage": {"input_tokens": usage.get("prompt_tokens", 0),
                                       "output_tokens": usage.get("completion_tokens", 0)}}
    if choice["finish_reason"] == "length":
        out.update(status="incomplete", incomplete_details={"reason": "max_output_tokens"})
    return out


def signature(call_id: str) -> str:
    """An opaque thought signature, different per call (a test checks each one comes back)."""
    return "c2lnLQ==" + "".join(f"{ord(ch):02x}" for ch in call_id)


def gemini_from_openai(body: dict) -> dict:
    """The same answer as a Gemini body. Arguments that are not JSON cannot be a functionCall:
    Gemini answers those with finishReason MALFORMED_FUNCTION_CALL, and so does the fake."""
    choice = body["choices"][0]
    message = choice["message"]
    parts = [{"text": message["content"]}] if message.get("content") else []
    usage = body.get("usage", {})
    meta = {"promptTokenCount": usage.get("prompt_tokens", 0), "candidatesTokenCount": usage.get("completion_tokens", 0)}
    for call in message.get("tool_calls") or []:
        try:
            args = json.loads(call["function"]["arguments"])
        except ValueError:
            return {"candidates": [{"finishReason": "MALFORMED_FUNCTION_CALL", "index": 0,
                                    "finishMessage": "Malformed function call: " + call["function"]["arguments"]}],
                    "usageMetadata": meta}
        parts.append({"functionCall": {"name": call["function"]["name"], "args": args},
                      "thoughtSignature": signature(call["id"])})
    finish = "MAX_TOKENS" if choice["finish_reason"] == "length" else "STOP"
    return {"candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": finish, "index": 0}],
            "usageMetadata": meta, "modelVersion": "fake"}


WIRES = ("openai", "anthropic", "openai-responses", "gemini")


def wire_of(path: str) -> str:
    """Which wire format an endpoint path speaks."""
    if path.endswith("/messages"):
        return "anthropic"
    if path.endswith("/responses"):
        return "openai-responses"
    if path.endswith(":generateContent"):
        return "gemini"
    return "openai"


def in_wire(body: dict, wire: str) -> dict:
    """A fixture body (OpenAI or Anthropic) in any of the four wire formats."""
    is_anthropic = "content" in body and "choices" not in body
    if wire == "anthropic":
        return as_real_anthropic(body if is_anthropic else anthropic_from_openai(body))
    chat = openai_from_anthropic(body) if is_anthropic else body
    if wire == "openai":
        return as_reasoning_chat(chat)
    return {"openai-responses": responses_from_openai, "gemini": gemini_from_openai}[wire](chat)


def case_and_turn(path: str, body: dict, more: dict | None = None) -> tuple[str | None, int]:
    """(case id, turn) of a request, the case found by its user message in BY_PROMPT or `more`."""
    found, turn = _case_and_turn(body)
    return (BY_PROMPT.get(found) or (more or {}).get(found) if found else None), turn


def _case_and_turn(body: dict) -> tuple[str | None, int]:
    """(the first user message, turn)."""
    if isinstance(body.get("contents"), list):                # Gemini
        contents = body["contents"]
        first = contents[0] if contents and isinstance(contents[0], dict) else {}
        parts = first.get("parts") or [{}]
        return parts[0].get("text", "") or None, 2 if len(contents) > 1 else 1
    if isinstance(body.get("input"), list):                   # OpenAI Responses
        items = [i for i in body["input"] if isinstance(i, dict)]
        prompt = next((i["content"] for i in items if i.get("role") == "user" and isinstance(i.get("content"), str)), "")
        turn = 2 if any(i.get("type") == "function_call_output" for i in items) else 1
        return prompt or None, turn
    messages = body.get("messages", [])
    prompt = next((m["content"] for m in messages if m.get("role") == "user" and isinstance(m["content"], str)), "")
    turn = 2 if len(messages) > (2 if messages and messages[0].get("role") == "system" else 1) else 1
    return prompt or None, turn


ECHO = "sk-fake-echo"      # in an error body: replaced by the key the request carried, as real APIs echo it


def sent_key(headers: dict) -> str:
    """The key a request carried in its auth header (what an error body may echo)."""
    low = {k.lower(): v for k, v in headers.items()}
    return (low.get("x-api-key") or low.get("x-goog-api-key") or low.get("authorization", "").removeprefix("Bearer ")).strip()


def fixture_answer(case_id: str, turn: int, wire: str) -> tuple[int, dict, str]:
    """(status, headers, body text) of the fixture's turn in a wire format (one of WIRES)."""
    fixture = FIXTURES[case_id]
    raw = fixture["turns"][turn - 1] if turn <= len(fixture["turns"]) else None
    if raw is None or "error" in raw:
        status = raw["error"]["status"] if raw else 500
        # "retry at once": a run's retries of a fixture's error wait no backoff (1 s, then 2 s each),
        # which is what most of a run that meets one spent (tests/cli/test_run_cap.py: 3 minutes)
        return status or 500, {"retry-after": "0"}, json.dumps({"error": {"message": f"fixture error, key {ECHO}"}})
    return 200, {}, json.dumps(in_wire(raw["response"], wire))


def second_turn_problem(case_id: str, wire: str, body: dict) -> str | None:
    """What a real API would refuse in a second turn that does not echo the first faithfully."""
    first = FIXTURES[case_id]["turns"][0].get("response")
    if first is None:
        return None
    sent = in_wire(first, wire)
    if wire == "gemini":
        if body["contents"][1] != sent["candidates"][0].get("content"):
            return "Function call is missing a thought_signature in functionCall parts."
        return None
    if wire == "anthropic":
        return anthropic_turn_problem(sent, body)
    if wire == "openai":
        return chat_turn_problem(sent, body)
    return responses_turn_problem(body)


ANTHROPIC_FIELDS = {"text": {"type", "text"}, "tool_use": {"type", "id", "name", "input"},
                    "thinking": {"type", "thinking", "signature"}, "redacted_thinking": {"type", "data"}}


def anthropic_turn_problem(sent: dict, body: dict) -> str | None:
    """The Messages API's refusals: a response-only field echoed, a thinking block lost."""
    echoed = body["messages"][1]["content"]
    for block in echoed:
        extra = set(block) - ANTHROPIC_FIELDS.get(block.get("type"), set())
        if extra:
            return f"messages.1.content.0.{block.get('type')}.{sorted(extra)[0]}: Extra inputs are not permitted"
    thinking = [b for b in sent["content"] if b["type"] == "thinking"]
    if thinking and [b for b in echoed if b.get("type") == "thinking"] != thinking:
        return "messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found `text`."
    return None


def chat_turn_problem(sent: dict, body: dict) -> str | None:
    """DeepSeek's and Gemini 3's refusals of a turn 2 that dropped what turn 1 handed out."""
    message = sent["choices"][0]["message"]
    echoed = next((m for m in body["messages"] if m.get("role") == "assistant"), {})
    if "reasoning_content" in message and echoed.get("reasoning_content") != message["reasoning_content"]:
        return "The reasoning_content in the thinking mode must be passed back to the API."
    got = {c.get("id"): c.get("extra_content") for c in echoed.get("tool_calls") or []}
    for call in message.get("tool_calls") or []:
        if "extra_content" in call and got.get(call["id"]) != call["extra_content"]:
            return "Function call is missing a thought_signature in functionCall parts."
    return None


def responses_turn_problem(body: dict) -> str | None:
    """The Responses API's refusals under store: false: an id it did not keep, a call whose
    reasoning item was dropped, a reasoning item without the call it led to, a call unanswered."""
    items = [i for i in body["input"] if isinstance(i, dict)]
    reasoning = None
    for item in items:
        kind = item.get("type")
        if kind == "reasoning":
            if not item.get("encrypted_content"):
                return "Item with id not found. Items are not persisted when `store` is set to false."
            reasoning = item
        elif "id" in item and kind != "function_call":
            return "Item with id not found. Items are not persisted when `store` is set to false."
        elif kind == "function_call" and "id" in item and reasoning is None:
            return f"Item '{item['id']}' of type 'function_call' was provided without its required 'reasoning' item."
        elif kind == "function_call" and reasoning is not None and "id" not in item:
            return f"Item '{reasoning['id']}' of type 'reasoning' was provided without its required following item."
    called = {i.get("call_id") for i in items if i.get("type") == "function_call"}
    answered = {i.get("call_id") for i in items if i.get("type") == "function_call_output"}
    if called != answered:
        return "No tool output found for function call."
    return None


def replay(case_id: str | None, turn: int, wire: str, body: dict) -> tuple[int, dict, str]:
    """The fake's default answer to a request in a wire format: the fixture's turn, or the 400 a
    real API gives for an unknown prompt or a second turn that drops what the first handed out.
    The HTTP fake below and the page-routed one (tests/routed.py) both answer with it."""
    if case_id is None:
        return 400, {}, json.dumps({"error": "unknown prompt"})
    problem = second_turn_problem(case_id, wire, body) if turn == 2 else None
    if problem:
        return 400, {}, json.dumps({"error": {"code": 400, "message": problem}})
    return fixture_answer(case_id, turn, wire)


class FakeProvider:
    def __init__(self) -> None:
        self.requests: list[dict] = []
        # case id, (case id, turn) or ("prompt", the user message: one phrasing of a case)
        #   -> [(status, headers, body text), ("sleep", s), ("hold",) or ("wait", reached, go)]:
        #   ("wait", reached, go) sets the threading.Event `reached`, waits (at most 60 s) for `go`,
        #   then answers as the fixture; ("hold",) never answers (until close): what a test of a
        #   timeout needs, so that the timeout's length never races with the fake's work on a busy machine
        self.script: dict = {}
        self.closing = threading.Event()
        self.prompts: dict = {}    # more user messages -> the case id they are answered as (a test suite's phrasings)
        # GET {base}/responses/{id} -> [(status, headers, body text), ...], one per fetch; unknown: 404
        self.polls: dict = {}
        # background: a Responses POST is answered `queued` (its own id), the first fetch of that
        # id `in_progress`, the next the answer it would have had (a gateway answering in the background)
        self.background = False
        self.lock = threading.Lock()
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):      # quiet
                pass

            def do_POST(self):
                length = int(self.headers.get("content-length", 0))
                body = json.loads(self.rfile.read(length) or b"{}")
                self.reply(*owner.answer(self.path, dict(self.headers), body))

            def do_GET(self):
                self.reply(*owner.fetch(self.path, dict(self.headers)))

            def reply(self, status: int, headers: dict, text: str) -> None:
                data = text.encode()
                try:
                    self.send_response(status)
                    for k, v in {"content-type": "application/json", **headers}.items():
                        self.send_header(k, v)
                    self.send_header("content-length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"

    def answer(self, path: str, headers: dict, body: dict) -> tuple[int, dict, str]:
        case_id, turn = case_and_turn(path, body, self.prompts)
        with self.lock:
            self.requests.append({"path": path, "headers": {k.lower(): v for k, v in headers.items()},
                                  "body": body, "case_id": case_id, "turn": turn})
            # a script keyed (case id, turn) answers that turn only, whichever repeat asks
            queue = self.script.get((case_id, turn)) or self.script.get(case_id) \
                or self.script.get(("prompt", _case_and_turn(body)[0]))
            step = queue.pop(0) if queue else None
        if step == ("hold",):
            self.closing.wait()
            return 503, {}, "{}"
        if step is not None and step[0] == "sleep":
            time.sleep(step[1])
            step = None
        elif step is not None and step[0] == "wait":
            step[1].set()
            step[2].wait(60)
            step = None
        status, extra, text = step if step is not None else replay(case_id, turn, wire_of(path.split("?")[0]), body)
        text = text.replace(ECHO, sent_key(headers) or ECHO)
        if self.background and status == 200 and wire_of(path.split("?")[0]) == "openai-responses":
            return self._queued(text)
        return status, extra, text

    def _queued(self, text: str) -> tuple[int, dict, str]:
        """The answer `text` as a background response: queued now, in_progress, then done."""
        with self.lock:
            ident = f"resp_bg{len(self.polls)}"
            done = {**json.loads(text), "id": ident}
            self.polls[ident] = [(200, {}, json.dumps({**done, "status": "in_progress", "output": []})),
                                 (200, {}, json.dumps(done))]
        return 200, {}, json.dumps({"id": ident, "object": "response", "status": "queued", "output": []})

    def fetch(self, path: str, headers: dict) -> tuple[int, dict, str]:
        """GET {base}/responses/{id}: the id's next scripted answer, else 404 as the API answers
        an id it did not store."""
        ident = path.split("?")[0].rstrip("/").rsplit("/", 1)[-1]
        with self.lock:
            self.requests.append({"path": path, "method": "GET", "headers": {k.lower(): v for k, v in headers.items()},
                                  "body": None, "case_id": None, "turn": 0})
            queue = self.polls.get(ident) if path.split("?")[0].rsplit("/", 2)[-2:-1] == ["responses"] else None
            step = queue.pop(0) if queue else None
        if step is None:
            return 404, {}, json.dumps({"error": {"message": f"Response with id '{ident}' not found."}})
        return step

    def close(self) -> None:
        self.closing.set()
        self.server.shutdown()
