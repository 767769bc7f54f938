"""Secret patterns on adversarial text: time per pattern at 1 MB and 2 MB, and the ratio.

Linear is 2.0; the old JWT pattern was quadratic (ratio ~4, minutes at 1 MB). Prints figures,
asserts nothing (no test asserts a ratio: see benchmarks/linear_cost.py).

    python benchmarks/secret_patterns.py
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from toolproof.secrets import PATTERNS, redact_text  # noqa: E402

# Runs that start a candidate match at every few characters and never complete one.
SHAPES = {
    "jwt prefix and dash": "eyJ-",
    "jwt two segments": "eyJaaaaaaaa.eyJ-",
    "anthropic prefix": "sk-ant-",
    "openai prefix": "sk-",
    "private-key header": "-----BEGIN A",
    "open private-key block": "-----BEGIN PRIVATE KEY-----\n-----END A",
    "google prefix": "AIza ",
    "slack prefix": "xoxb-",
    "token characters": "a" * 30 + ".",
}


def best_of(runs: int, func, *args) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        func(*args)
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    print(f"{'shape':<24} {'pattern':<18} {'1 MB s':>8} {'2 MB s':>8} {'ratio':>6}")
    for shape, unit in SHAPES.items():
        small, large = unit * (1_000_000 // len(unit)), unit * (2_000_000 // len(unit))
        for kind, pattern in PATTERNS:
            a, b = best_of(5, pattern.findall, small), best_of(5, pattern.findall, large)
            print(f"{shape:<24} {kind:<18} {a:8.4f} {b:8.4f} {b / a:6.2f}")
        a, b = best_of(5, redact_text, small), best_of(5, redact_text, large)
        print(f"{shape:<24} {'redact_text (all)':<18} {a:8.4f} {b:8.4f} {b / a:6.2f}")


if __name__ == "__main__":
    main()
