"""Lint never raises, searched longer than CI does: figures, not a test.

    python benchmarks/lint_stress.py [SEEDS] [EXAMPLES]      # default 40 seeds x 200 examples

tests/authoring/test_lint.py::test_lint_never_raises runs 300 examples with a pinned seed
(`derandomize=True`), so CI sees the same examples on every machine. This script runs the same
property (tests/lintvalues.py: any JSON value where a schema keyword is expected) under many
seeds and prints what it found: the seeds that failed, with the first falsifying example, and the
number of examples tried. Exit 1 when any seed found a failure.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from hypothesis import HealthCheck, given, seed, settings  # noqa: E402

from lintvalues import ARGS, tool_record  # noqa: E402
from toolproof.authoring.lint import lint_tools  # noqa: E402


def main(argv: list[str]) -> int:
    seeds = int(argv[0]) if argv else 40
    examples = int(argv[1]) if len(argv) > 1 else 200
    tried = [0]

    def prop(parameters, name, description):
        tried[0] += 1
        lint_tools([tool_record(parameters, name, description)])

    failed = []
    started = time.perf_counter()
    for s in range(seeds):
        test = seed(s)(settings(max_examples=examples, deadline=None, database=None, derandomize=False,
                                suppress_health_check=list(HealthCheck))(given(*ARGS)(prop)))
        try:
            test()
        except Exception as exc:            # the falsifying example is in hypothesis's note
            failed.append((s, f"{type(exc).__name__}: {str(exc)[:300]}"))
    elapsed = time.perf_counter() - started
    print(f"lint stress: {seeds} seeds x up to {examples} examples, {tried[0]:,} tool definitions linted "
          f"in {elapsed:.0f} s; {len(failed)} seed(s) failed")
    for s, what in failed[:10]:
        print(f"  seed {s}: {what}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
