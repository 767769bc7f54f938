"""Accepted tool patterns on hostile text: how search time grows from 300 to 1,000 characters.

    python benchmarks/regex_safety.py [EXAMPLES]      # default 300

Draws patterns from the grammar of tests/suite/test_regex_safety.py (nesting, alternation, runs in
a row, anchors over {a, b}), keeps those toolproof/suite/regex_safety.py accepts, and times each on
the texts that make a backtracking engine work hardest. Quadratic is about 11x, cubic 37x. Prints
the slowest patterns and their ratios; asserts nothing (the test only checks that they finish).
"""
from __future__ import annotations

import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "tests" / "suite")]

from hypothesis import HealthCheck, given, settings  # noqa: E402

from test_regex_safety import hostile_texts, patterns  # noqa: E402
from toolproof.suite.regex_safety import unsafe_reason  # noqa: E402


def best(compiled: re.Pattern, text: str) -> float:
    times = []
    for _ in range(3):
        start = time.perf_counter()
        compiled.search(text)
        times.append(time.perf_counter() - start)
    return min(times)


def main(argv: list[str]) -> int:
    examples = int(argv[0]) if argv else 300
    rows: list[tuple[float, float, str]] = []

    @settings(max_examples=examples, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(pattern=patterns)
    def measure(pattern):
        if unsafe_reason(pattern) is not None:
            return
        compiled = re.compile(pattern)
        for small, large in zip(hostile_texts(300), hostile_texts(1000)):
            base, slow = best(compiled, small), best(compiled, large)
            rows.append((slow, slow / max(base, 1e-6), pattern))

    measure()
    rows.sort(reverse=True)
    print(f"{len(rows)} searches of accepted patterns; slowest on 1,000 characters:")
    for slow, ratio, pattern in rows[:8]:
        print(f"  {pattern!r:<40} {slow * 1000:8.2f} ms, {ratio:6.1f}x the 300-character time")
    print(f"largest ratio among searches over 1 ms: {max((r for s, r, _ in rows if s > 0.001), default=0):.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
