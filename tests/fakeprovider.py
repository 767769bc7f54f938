"""A fake provider on 127.0.0.1 for the CLI tests, speaking all four wire formats.

By default it answers each request the way the committed fixture for that case answers (found
by the user's prompt; turn 2 when the conversation already holds tool results), converted to
the shape of the endpoint that was called: `/chat/completions` (OpenAI), `/v1/messages`
(Anthropic), `/responses` (OpenAI Responses) or `/models/{m}:generateContent` (Gemini). A
script can replace answers per case with any status, headers and body, and every request is
recorded (path, headers, body) for assertions.

Like the real APIs, it refuses a second turn that drops what the first handed out: a Gemini
turn 2 must repeat the model's content exactly (every thoughtSignature), and a Responses turn 2
must answer each function_call by its call_id without server-side item ids (store is false).
"""
from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SUITE = json.loads((ROOT / "data" / "suite.json").read_text())["cases"]
FIXTURES = {t["case_id"]: t for t in json.loads((ROOT / "data" / "fixtures.json").read_text())["transcripts"]}
BY_PROMPT = {c["prompt"]: c["id"] for c in SUITE}


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


def responses_from_openai(body: dict) -> dict:
    """The same answer as an OpenAI Responses body (text item first, then function_call items)."""
    choice = body["choices"][0]
    message = choice["message"]
    output = [{"type": "message", "id": f"msg_{body['id']}", "role": "assistant", "status": "completed",
               "content": [{"type": "output_text", "text": message["content"], "annotations": []}]}
              ] if message.get("content") else []
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
        return body if is_anthropic else anthropic_from_openai(body)
    chat = openai_from_anthropic(body) if is_anthropic else body
    if wire == "openai":
        return chat
    return {"openai-responses": responses_from_openai, "gemini": gemini_from_openai}[wire](chat)


def case_and_turn(path: str, body: dict) -> tuple[str | None, int]:
    if isinstance(body.get("contents"), list):                # Gemini
        contents = body["contents"]
        first = contents[0] if contents and isinstance(contents[0], dict) else {}
        parts = first.get("parts") or [{}]
        return BY_PROMPT.get(parts[0].get("text", "")), 2 if len(contents) > 1 else 1
    if isinstance(body.get("input"), list):                   # OpenAI Responses
        items = [i for i in body["input"] if isinstance(i, dict)]
        prompt = next((i["content"] for i in items if i.get("role") == "user" and isinstance(i.get("content"), str)), "")
        turn = 2 if any(i.get("type") == "function_call_output" for i in items) else 1
        return BY_PROMPT.get(prompt), turn
    messages = body.get("messages", [])
    prompt = next((m["content"] for m in messages if m.get("role") == "user" and isinstance(m["content"], str)), "")
    turn = 2 if len(messages) > (2 if messages and messages[0].get("role") == "system" else 1) else 1
    return BY_PROMPT.get(prompt), turn


def fixture_answer(case_id: str, turn: int, wire: str) -> tuple[int, dict, str]:
    """(status, headers, body text) of the fixture's turn in a wire format (one of WIRES)."""
    fixture = FIXTURES[case_id]
    raw = fixture["turns"][turn - 1] if turn <= len(fixture["turns"]) else None
    if raw is None or "error" in raw:
        status = raw["error"]["status"] if raw else 500
        return status or 500, {}, json.dumps({"error": {"message": "fixture error, key sk-fake-echo"}})
    return 200, {}, json.dumps(in_wire(raw["response"], wire))


def second_turn_problem(case_id: str, wire: str, body: dict) -> str | None:
    """What a real API would refuse in a second turn that does not echo the first faithfully."""
    first = FIXTURES[case_id]["turns"][0].get("response")
    if first is None or wire not in ("gemini", "openai-responses"):
        return None
    sent = in_wire(first, wire)
    if wire == "gemini":
        if body["contents"][1] != sent["candidates"][0].get("content"):
            return "Function call is missing a thought_signature in functionCall parts."
        return None
    items = [i for i in body["input"] if isinstance(i, dict)]
    if any("id" in i for i in items):
        return "Item with id not found. Items are not persisted when `store` is set to false."
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
        self.script: dict = {}     # case id or (case id, turn) -> [(status, headers, body text) or ("sleep", s)]
        self.lock = threading.Lock()
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):      # quiet
                pass

            def do_POST(self):
                length = int(self.headers.get("content-length", 0))
                body = json.loads(self.rfile.read(length) or b"{}")
                status, headers, text = owner.answer(self.path, dict(self.headers), body)
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
        case_id, turn = case_and_turn(path, body)
        with self.lock:
            self.requests.append({"path": path, "headers": {k.lower(): v for k, v in headers.items()},
                                  "body": body, "case_id": case_id, "turn": turn})
            # a script keyed (case id, turn) answers that turn only, whichever repeat asks
            queue = self.script.get((case_id, turn)) or self.script.get(case_id)
            step = queue.pop(0) if queue else None
        if step is not None and step[0] == "sleep":
            time.sleep(step[1])
            step = None
        if step is not None:
            return step
        return replay(case_id, turn, wire_of(path.split("?")[0]), body)

    def close(self) -> None:
        self.server.shutdown()
