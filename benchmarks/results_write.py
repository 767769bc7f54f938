"""What `run --out` costs to write, measured in one run: bytes per conversation and the share of the
run's time spent writing the results file.

The whole bundled suite (by default `--repeats 20 --phrasings all`: 4,460 conversations) runs
through the real CLI path (`toolproof.cli.main.run`, urllib transport) against the fake provider of
tests/fakeprovider.py, started in a child process so that its answering does not share this
process's interpreter. The results file's saves are timed from inside (cli/results_file.py
`ResultsFile.save` and `finish`), as is the plan made before anything is sent. Printed:
- bytes per conversation of the file written (version 2) and of the same document as version 1
  wrote it (indented JSON, every request whole), and as compact JSON without references;
- the plan (running/results_size.py) beside the file's real size;
- bytes written over the run (each save appends) beside what rewriting the whole version 1 file
  after every case wrote (the sum of its sizes, computed, not run: it took over 14 minutes);
- the run's wall time, the time spent in saves, and its share.
These are timings of this machine, not a model's.

    python benchmarks/results_write.py [--provider anthropic] [--repeats 20] [--phrasings all] [--concurrency 8]
"""
from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from toolproof.cli import results_file  # noqa: E402
from toolproof.cli.main import run  # noqa: E402
from toolproof.datafiles import read_json  # noqa: E402
from toolproof.grading.results_refs import compact, expand  # noqa: E402
from toolproof.running import results_size  # noqa: E402

SERVER = ("import sys, time; sys.path.insert(0, 'tests'); from fakeprovider import FakeProvider; "
          "fake = FakeProvider(); print(fake.base, flush=True); time.sleep(10**6)")
BASES = {"openai-compatible": "/v1", "anthropic": "", "openai-responses": "/v1", "gemini": "/v1beta"}


class Timed:
    """Wraps a function and adds up the time spent in it."""

    def __init__(self, owner, name: str):
        self.owner, self.name, self.seconds, self.calls, self.result = owner, name, 0.0, 0, None
        self.inner = getattr(owner, name)

    def __enter__(self):
        inner, timed = self.inner, self

        def wrapper(*args, **kwargs):
            started = time.perf_counter()
            try:
                timed.result = inner(*args, **kwargs)
                return timed.result
            finally:
                timed.seconds += time.perf_counter() - started
                timed.calls += 1

        setattr(self.owner, self.name, wrapper)
        return self

    def __exit__(self, *exc):
        setattr(self.owner, self.name, self.inner)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--provider", default="anthropic", choices=sorted(BASES) + ["openai"])
    parser.add_argument("--repeats", default="20")
    parser.add_argument("--phrasings", default="all")
    parser.add_argument("--concurrency", default="8")
    args = parser.parse_args()
    server = subprocess.Popen([sys.executable, "-c", SERVER], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        base = server.stdout.readline().strip()
        with tempfile.TemporaryDirectory() as folder:
            measure(args, base, Path(folder) / "results.json")
    finally:
        server.kill()
        server.wait()


def measure(args, base: str, out: Path) -> None:
    argv = ["run", "--provider", args.provider, "--model", "bench", "--cap", "100000", "--pause", "0",
            "--repeats", args.repeats, "--phrasings", args.phrasings, "--concurrency", args.concurrency,
            "--out", str(out), "--allow-incomplete", "--format", "json"]
    if args.provider in BASES:
        argv += ["--base-url", base + BASES[args.provider]]
    os.environ.setdefault("TOOLPROOF_API_KEY", "sk-bench")
    written = []
    original_init = results_file.ResultsFile.__init__

    def init(self, *a, **k):             # keep the writer, to read its byte count afterwards
        original_init(self, *a, **k)
        written.append(self)

    results_file.ResultsFile.__init__ = init
    stdout, stderr = io.StringIO(), io.StringIO()
    with Timed(results_file.ResultsFile, "save") as save, Timed(results_file.ResultsFile, "finish") as finish, \
            Timed(results_size, "planned") as plan:
        started = time.perf_counter()
        code = run(argv, stdout=stdout, stderr=stderr)
        wall = time.perf_counter() - started
    results_file.ResultsFile.__init__ = original_init
    if code not in (0, 1, 3):
        sys.exit(f"run exited {code}: {stderr.getvalue()[-500:]}")
    size = out.stat().st_size
    doc = expand(read_json(out))
    n = len(doc["transcripts"])
    v1 = len((json.dumps({**doc, "version": 1}, ensure_ascii=False, indent=2) + "\n").encode("utf-8"))
    flat = len(compact({**doc, "version": 1}).encode("utf-8"))
    print(f"run --provider {args.provider} --repeats {args.repeats} --phrasings {args.phrasings} "
          f"--concurrency {args.concurrency}: {n} conversations")
    print(f"results file: {size / 1e6:.2f} MB, {size / n / 1000:.2f} KB per conversation "
          f"(version 1 indented: {v1 / n / 1000:.2f} KB; compact without references: {flat / n / 1000:.2f} KB)")
    per_case_v1 = v1 / n
    rewrite_all = sum(per_case_v1 * k for k in range(1, n + 1))
    print(f"bytes written over the run: {written[0].bytes_written / 1e6:.1f} MB "
          f"(rewriting version 1 after every case: about {rewrite_all / 1e9:.0f} GB)")
    print(f"plan made before the run: {plan.result.file_bytes / 1e6:.2f} MB planned in {plan.seconds:.2f} s "
          f"(the file: {size / 1e6:.2f} MB; its references stand for {plan.result.referred / 1e6:.0f} MB)")
    writing = save.seconds + finish.seconds
    print(f"wall {wall:.1f} s; writing {writing:.2f} s ({save.calls} saves {save.seconds:.2f} s, "
          f"last save {finish.seconds:.2f} s): {100 * writing / wall:.1f}% of the run")


if __name__ == "__main__":
    main()
