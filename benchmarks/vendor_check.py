"""Start-up cost of verifying vendor/: serve.py hashes every file against vendor/.manifest.json
on every start. Prints the median of several checks of the real vendor/ (warm OS file cache, as
on any start after the first) with the file count and bytes hashed.

    python benchmarks/vendor_check.py [--rounds 9]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from serving.lock import LOCK_NAME, load_lock  # noqa: E402
from serving.vendor import VENDOR_NAME, ensure_vendor  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=9)
    args = parser.parse_args(argv)
    lock = load_lock(ROOT / LOCK_NAME)
    files = ensure_vendor(ROOT, lock, log=print)      # fetches first if needed
    size = sum((ROOT / VENDOR_NAME / rel).stat().st_size for rel in files)
    times = []
    for _ in range(args.rounds):
        started = time.perf_counter()
        ensure_vendor(ROOT, lock, log=print)
        times.append(time.perf_counter() - started)
    print(f"vendor/ check: {len(files)} files, {size / 1e6:.1f} MB hashed; median "
          f"{statistics.median(times) * 1000:.1f} ms over {args.rounds} runs "
          f"[{', '.join(f'{t * 1000:.1f}' for t in times)}]")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
