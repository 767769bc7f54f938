"""A fake multi-turn model on 127.0.0.1 for scenario runs, speaking all five wire formats.

Each conversation is found by the user's first message; its model turns come from a script (one
entry per model turn: a path turn `{"calls": [...]}` / `{"say": ...}` rendered by
providers/scripted.reply_body, or `{"status": 500}` for a failed request, or `{"forever": call}`
for a model that repeats one call at every turn). Which turn to answer is read from the request
itself (how many model turns the conversation already holds), so repeats and concurrent
conversations need no server-side state, as with a real API.

Like the real APIs, it refuses (400) a request whose last model turn's calls are not each
answered, by id, in the same turn: Chat Completions a `role: tool` message per `tool_call`;
Anthropic one user message of `tool_result` blocks per `tool_use` (and no response-only field);
Gemini one `functionResponse` per `functionCall`; Responses a `function_call_output` per
`function_call`. Every request is recorded (method, path, body) for assertions.
"""
from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from fakeprovider import wire_of
from toolproof.providers.scripted import reply_body

PATHS = {"openai": "/v1/chat/completions", "openai-compatible": "/v1/chat/completions",
         "anthropic": "/v1/messages", "openai-responses": "/v1/responses"}


def provider_of(path: str) -> str:
    """The wire format an endpoint path speaks (fakeprovider.wire_of), "" for no known endpoint."""
    known = path.endswith(("/chat/completions", "/messages", "/responses", ":generateContent"))
    return wire_of(path) if known else ""


def conversation(provider: str, body: dict) -> tuple[str, list]:
    """(the first user message, the model turns so far as lists of call ids ([] for text)) and
    raises ValueError naming what a real API would refuse."""
    if provider == "gemini":
        contents = body["contents"]
        first = contents[0]["parts"][0]["text"]
        turns = []
        for k, content in enumerate(contents):
            if content["role"] == "model":
                calls = [p["functionCall"]["name"] for p in content["parts"] if "functionCall" in p]
                turns.append(calls)
                if calls:
                    answer = contents[k + 1]["parts"] if k + 1 < len(contents) else []
                    answered = [p["functionResponse"]["name"] for p in answer if "functionResponse" in p]
                    if answered != calls:
                        raise ValueError(f"functionResponse parts {answered} do not answer {calls}")
        return first, turns
    if provider == "openai-responses":
        items = body["input"]
        first = items[0]["content"]
        turns, current, outputs = [], None, []
        for item in items:
            model_side = item.get("type") == "function_call" or item.get("role") == "assistant"
            if model_side:
                if current is None:
                    current = []
                    turns.append(current)
                if item.get("type") == "function_call":
                    current.append(item["call_id"])
                if "id" in item:
                    raise ValueError("an id was echoed with store: false")
            else:
                current = None
                if item.get("type") == "function_call_output":
                    outputs.append(item["call_id"])
        wanted = [c for t in turns for c in t]
        if wanted != outputs:
            raise ValueError(f"function_call_output {outputs} do not answer {wanted}")
        return first, turns
    messages = body["messages"]
    if provider == "openai":
        messages = [m for m in messages if m["role"] != "system"]
    first = messages[0]["content"]
    turns = []
    for k, message in enumerate(messages):
        if message["role"] != "assistant":
            continue
        if provider == "anthropic":
            calls = [b["id"] for b in message["content"] if b["type"] == "tool_use"]
            for block in message["content"]:
                if set(block) - {"type", "id", "name", "input", "text", "thinking", "signature"}:
                    raise ValueError("Extra inputs are not permitted")
            answered = [b["tool_use_id"] for b in messages[k + 1]["content"]] if calls else []
        else:
            if not isinstance(message.get("content", ""), str):      # llama-cpp-python's request model
                raise ValueError("assistant content must be a string")
            calls = [c["id"] for c in message.get("tool_calls", [])]
            if "tool_calls" in message and not message["tool_calls"]:
                raise ValueError("empty array: tool_calls")
            answered = []
            for later in messages[k + 1:]:
                if later["role"] != "tool":
                    break
                answered.append(later["tool_call_id"])
        if answered != calls:
            raise ValueError(f"tool results {answered} do not answer the calls {calls}")
        turns.append(calls)
    return first, turns


class FakeAgent:
    """Start with `with FakeAgent(scripts) as fake:`; `fake.base` is the base URL to give."""

    def __init__(self, scripts: dict):
        self.scripts = scripts          # first user message -> [turn, ...]
        self.requests: list[dict] = []
        self.lock = threading.Lock()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["content-length"])))
                with fake.lock:
                    fake.requests.append({"path": self.path, "body": body, "host": self.headers.get("host")})
                status, answer = fake.answer(self.path, body)
                data = json.dumps(answer).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"

    def answer(self, path: str, body: dict) -> tuple[int, dict]:
        provider = provider_of(path)
        try:
            first, turns = conversation(provider, body)
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            return 400, {"error": {"message": f"invalid request: {exc}"}}
        script = self.scripts.get(first)
        if script is None:
            return 404, {"error": {"message": f"no script for {first!r}"}}
        number = len(turns) + 1
        step = script[min(len(turns), len(script) - 1)]
        if "status" in step:
            return step["status"], {"error": {"message": "scripted failure"}}
        if "forever" in step:
            step = {"calls": [step["forever"]]}
        return 200, reply_body(provider, step, number=number)

    def __enter__(self) -> "FakeAgent":
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()
