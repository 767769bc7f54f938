"""How close `run --concurrency 8` comes to the ideal against a server that takes 300 ms per answer.

A local server on 127.0.0.1 answers every request after a fixed 300 ms with the committed
fixture's answer for that case and turn (tests/fakeprovider.py builds it); fixture turns that
are request errors are answered with a plain text reply instead, so no retry backoff distorts
the timing. The whole suite runs through the real CLI path (`python -m toolproof run`, urllib
transport, results file written after every case). Printed: the requests, the total time the
server spent answering, the wall time, and wall / (server time / concurrency): 1.0 is perfect
overlap; the goal is <= 1.3. These are timings of this machine, not a model's.

    python benchmarks/live_concurrency.py [--concurrency 8] [--repeats 1] [--delay 0.3]
"""
from __future__ import annotations

import argparse
import io
import json
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from fakeprovider import FIXTURES, case_and_turn, fixture_answer  # noqa: E402
from toolproof.cli.main import run  # noqa: E402

PLAIN = json.dumps({"id": "bench", "object": "chat.completion", "model": "bench", "choices": [
    {"index": 0, "message": {"role": "assistant", "content": "benchmark reply"}, "finish_reason": "stop"}]})


class SlowServer:
    """Every answer after `delay` seconds; records how long each request was held."""

    def __init__(self, delay: float):
        self.held: list[float] = []
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                started = time.monotonic()
                body = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))) or b"{}")
                case_id, turn = case_and_turn(self.path, body)
                time.sleep(delay)
                status, _, text = fixture_answer(case_id, turn, False) if case_id in FIXTURES else (200, {}, PLAIN)
                if status != 200:
                    status, text = 200, PLAIN
                data = text.encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
                owner.held.append(time.monotonic() - started)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def measure(concurrency: int, repeats: int, delay: float) -> dict:
    server = SlowServer(delay)
    try:
        with tempfile.TemporaryDirectory() as folder:
            out = str(Path(folder) / "results.json")
            stderr = io.StringIO()
            started = time.monotonic()
            code = run(["run", "--provider", "openai-compatible", "--base-url", server.base, "--model", "bench",
                        "--cap", "100000", "--repeats", str(repeats), "--concurrency", str(concurrency),
                        "--out", out, "--format", "json", "--allow-incomplete"],
                       stdout=io.StringIO(), stderr=stderr, environ={"TOOLPROOF_API_KEY": "sk-bench-not-a-key"})
            wall = time.monotonic() - started
    finally:
        server.close()
    if code not in (0, 1):
        raise SystemExit(f"run failed (exit {code}): {stderr.getvalue().strip().splitlines()[-1:]}")
    busy = sum(server.held)
    return {"requests": len(server.held), "server_s": busy, "wall_s": wall,
            "ideal_s": busy / concurrency, "ratio": wall / (busy / concurrency)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--delay", type=float, default=0.3)
    args = parser.parse_args()
    found = measure(args.concurrency, args.repeats, args.delay)
    print(f"requests {found['requests']} · server time {found['server_s']:.1f} s · "
          f"concurrency {args.concurrency} · wall {found['wall_s']:.2f} s · ideal {found['ideal_s']:.2f} s")
    print(f"wall / ideal = {found['ratio']:.2f} (goal <= 1.3)")


if __name__ == "__main__":
    main()
