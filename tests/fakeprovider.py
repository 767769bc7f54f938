"""A fake OpenAI-compatible and Anthropic-compatible server on 127.0.0.1 for the CLI tests.

By default it answers each request the way the committed fixture for that case answers (found
by the user's prompt; turn 2 when the conversation already holds tool results), converted to
the shape of the endpoint that was called. A script can replace answers per case with any
status, headers and body, and every request is recorded (path, headers, body) for assertions.
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


def case_and_turn(path: str, body: dict) -> tuple[str | None, int]:
    messages = body.get("messages", [])
    prompt = next((m["content"] for m in messages if m.get("role") == "user" and isinstance(m["content"], str)), "")
    turn = 2 if len(messages) > (2 if messages and messages[0].get("role") == "system" else 1) else 1
    return BY_PROMPT.get(prompt), turn


def fixture_answer(case_id: str, turn: int, anthropic: bool) -> tuple[int, dict, str]:
    fixture = FIXTURES[case_id]
    raw = fixture["turns"][turn - 1] if turn <= len(fixture["turns"]) else None
    if raw is None or "error" in raw:
        status = raw["error"]["status"] if raw else 500
        return status or 500, {}, json.dumps({"error": {"message": "fixture error, key sk-fake-echo"}})
    body = raw["response"]
    is_anthropic = "content" in body and "choices" not in body
    if anthropic and not is_anthropic:
        body = anthropic_from_openai(body)
    elif not anthropic and is_anthropic:
        body = openai_from_anthropic(body)
    return 200, {}, json.dumps(body)


class FakeProvider:
    def __init__(self) -> None:
        self.requests: list[dict] = []
        self.script: dict[str, list] = {}     # case id -> [(status, headers, body text) or ("sleep", s)]
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
            queue = self.script.get(case_id)
            step = queue.pop(0) if queue else None
        if step is not None and step[0] == "sleep":
            time.sleep(step[1])
            step = None
        if step is not None:
            return step
        if case_id is None:
            return 400, {}, json.dumps({"error": "unknown prompt"})
        return fixture_answer(case_id, turn, path.endswith("/messages"))

    def close(self) -> None:
        self.server.shutdown()
