"""Cost ratios on hostile input, 16x apart: figures, not a test (issue 19 moved them out of tests/).

    python benchmarks/linear_cost.py

For each adversarial shape that was once quadratic (secret patterns, the JSON reader) it times the same work at two sizes 16x apart, alternately (so a burst of load hits both),
keeps each size's fastest of 3 runs and prints the ratio: linear is near 16, quadratic near 256.
On a loaded machine a ratio can reach 80 with linear code, which is why no test asserts one.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from toolproof.limits import read_json  # noqa: E402
from toolproof.secrets import find_secrets, redact_text  # noqa: E402

SCALE = 16


def cost_ratio(work: Callable[[int], Callable[[], object]], size: int, *, runs: int = 3) -> tuple[float, float, float]:
    """(ratio, small seconds, large seconds) for work(size) against work(SCALE * size)."""
    small, large = work(size), work(SCALE * size)
    best = [float("inf"), float("inf")]
    for _ in range(runs):
        for i, call in enumerate((small, large)):
            start = time.perf_counter()
            try:
                call()
            except Exception:       # noqa: BLE001 - a refusal is also work done
                pass
            best[i] = min(best[i], time.perf_counter() - start)
    return best[1] / max(best[0], 1e-6), best[0], best[1]


def secrets(unit: str):
    def work(size):
        text = unit * (size // len(unit))
        return lambda: (find_secrets(text), redact_text(text))
    return work, 25_000


def reader(unit: str):
    def work(size):
        text = "[" + unit * (size // len(unit)) + "1]"
        return lambda: read_json(text)
    return work, 80_000


def main() -> int:
    rows = [(f"secrets {u!r}", *secrets(u)) for u in
            ["eyJ-", "eyJaaaaaaaa.eyJ-", "sk-ant-", "sk-", "ghp_", "xoxb-", "sk_test_", "AIza ", "-----BEGIN A",
             "-----BEGIN PRIVATE KEY-----\n-----END A", "a" * 30 + "."]]
    rows += [(f"reader {u[:16]!r}", *reader(u)) for u in ["[", "[1,", '"[",', '{"a":', "1" * 299 + ","]]
    worst = 0.0
    for label, work, size in rows:
        ratio, small, large = cost_ratio(work, size)
        worst = max(worst, ratio)
        print(f"{label:<48} {SCALE}x the input: {ratio:6.1f}x the time ({small:.4f} s -> {large:.4f} s)")
    print(f"worst ratio {worst:.1f} (linear is {SCALE}, quadratic {SCALE * SCALE})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
