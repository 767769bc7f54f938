"""Cost ratios for linearity checks: time the same work at two sizes within one run.

Never an absolute time. The two sizes are timed alternately (so a burst of load on the shared
machine hits both), each keeps its fastest run, and the sizes are 16x apart: linear cost gives
a ratio near 16, quadratic near 256, so a bound of 64 leaves room for noise either way.
"""
from __future__ import annotations

import time
from typing import Callable

SCALE = 16
BOUND = 64


def cost_ratio(work: Callable[[int], Callable[[], object]], size: int, *, runs: int = 5) -> tuple[float, float, float]:
    """(ratio, small seconds, large seconds) for work(size) against work(SCALE * size).
    `work(n)` prepares the input and returns the call to time (exceptions count as done)."""
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
