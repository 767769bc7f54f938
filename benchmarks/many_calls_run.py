"""A live run against a server that answers every request with 50,000 tool calls: the results
file's size and the run's peak memory.

A reply within the 5 MB body limit can hold about 50,000 calls; a run keeps each reply's first
MAX_CALLS (128) of them (docs/formats.md, "What a turn keeps"). Runs `python -m toolproof run`
in a subprocess against tests/misbehaving.py's `calls` mode (every request, turn 2 and the
counterfactual variants included), then prints the file's size (as the results file is written),
its largest transcript (as compact JSON), the run's peak resident memory (the child's ru_maxrss)
and the seconds, beside the same run against a server that answers as the fixtures do, and a run
of the first case alone (cap 5: with scope result_use, a case with three variants). Figures,
never asserted: see docs/benchmarks.md.

    python benchmarks/many_calls_run.py                     # scope result_use (turn 2 and variants)
    python benchmarks/many_calls_run.py should_call 10      # another scope, another cap
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ONE_CASE = 5        # the requests of result_use's first case: turn 1, turn 2 and three variants
sys.path.insert(0, str(ROOT / "tests"))

from misbehaving import MANY_CALLS, MisbehavingServer  # noqa: E402


def run(base_url: str, scope: str, cap: int, out: Path) -> tuple[int, float, float]:
    """(exit code, peak resident MB of the run's process, seconds)."""
    argv = [sys.executable, "-m", "toolproof", "run", "--provider", "openai-compatible", "--base-url", base_url,
            "--model", "m", "--scope", scope, "--cap", str(cap), "--pause", "0", "--out", str(out),
            "--allow-incomplete", "--format", "json"]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TOOLPROOF_API_KEY": "local"}
    started = time.perf_counter()
    child = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - started
    child.returncode = os.waitstatus_to_exitcode(status)
    return child.returncode, usage.ru_maxrss / 1024, seconds


def largest_transcript(out: Path) -> int:
    doc = json.loads(out.read_text(encoding="utf-8"))
    return max((len(json.dumps(t)) for t in doc["transcripts"]), default=0)


def main(scope: str = "result_use", cap: int = 100) -> None:
    server = MisbehavingServer()
    try:
        with tempfile.TemporaryDirectory() as folder:
            print(f"scope {scope}, cap {cap}; a hostile reply holds {MANY_CALLS:,} calls")
            rows = (("fixture answers", "normal", cap), (f"{MANY_CALLS:,} calls per reply", "calls", cap),
                    ("the same, first case only", "calls", ONE_CASE))
            for label, mode, requests in rows:
                out = Path(folder) / f"{mode}-{requests}.json"
                code, peak_mb, seconds = run(server.url(mode), scope, requests, out)
                size = out.stat().st_size if out.exists() else 0
                biggest = largest_transcript(out) if size else 0
                print(f"  {label:>26} (cap {requests:>3}): exit {code}, file {size / 1e6:7.3f} MB, largest "
                      f"transcript {biggest / 1e6:6.3f} MB compact, peak memory {peak_mb:7.1f} MB, {seconds:5.1f} s")
    finally:
        server.close()


if __name__ == "__main__":
    main(*(sys.argv[1:2] or ["result_use"]), *(int(a) for a in sys.argv[2:3]))
