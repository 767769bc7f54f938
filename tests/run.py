"""The one test command: `python tests/run.py` (README "Start"; CI runs it too).

It sets up what the tests need, then runs pytest:
1. installs this package with its test extras (`pip install -e ".[test]"`);
2. makes sure Chromium is at /usr/bin/chromium: as root with apt-get, it installs Debian's
   `chromium` package; otherwise it says what to install and stops;
3. fetches the pinned browser runtime into vendor/ (`python serve.py --fetch-only`);
4. fetches axe-core for the accessibility tests into tests/.axe/ (`npm pack`, pinned; tests/axe.py);
5. runs `python -m pytest` with any arguments given here (e.g. `-k page`, `-x`). With none, the
   whole suite runs as two pytest processes side by side: the browser tests (most of their time
   is spent waiting on the page's worker, a fake provider or a held request) and the rest (pure
   CPU), which then runs the browser files of LATE_BROWSER so that neither core idles. The rest's
   output is printed when it ends; the exit status is the worse of the two.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = Path("/usr/bin/chromium")


def step(what: str, cmd: list[str]) -> None:
    print(f"tests/run.py: {what}: {' '.join(cmd)}", flush=True)
    done = subprocess.run(cmd, cwd=ROOT)
    if done.returncode != 0:
        sys.exit(f"tests/run.py: {what} failed (exit {done.returncode})")


def ensure_chromium() -> None:
    if CHROMIUM.exists():
        return
    if hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("apt-get"):
        step("installing Chromium", ["apt-get", "update", "-qq"])
        step("installing Chromium", ["apt-get", "install", "-y", "-qq", "chromium"])
        return
    sys.exit("tests/run.py: the browser tests need Chromium at /usr/bin/chromium; "
             "install it (Debian/Ubuntu: sudo apt-get install -y chromium) and run again")


def main(argv: list[str]) -> int:
    step("installing ToolProof and its test tools",
         [sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-e", ".[test]"])
    ensure_chromium()
    step("fetching the pinned browser runtime", [sys.executable, "serve.py", "--fetch-only"])
    step("fetching axe-core for the accessibility tests", [sys.executable, str(ROOT / "tests" / "axe.py")])
    if argv:
        return subprocess.run([sys.executable, "-m", "pytest", *argv], cwd=ROOT).returncode
    return whole_suite()


# Browser test files the other process runs once its own tests are done: the browser tests take
# longer than the rest, so the core that finishes first takes these instead of idling. Measured on
# a clean clone: 21.3 min of browser tests against 15 min of the rest before the first three moved;
# test_kept_live.py moved once the rest lost 4 minutes of retry backoff, and test_own.py at 19.8 min
# against 16.7. Each server is on its own ephemeral port, each Chromium its own.
LATE_BROWSER = ("tests/page/test_typed.py", "tests/page/test_sweep.py", "tests/page/test_stats.py",
                "tests/page/test_kept_live.py", "tests/page/test_own.py")


def whole_suite() -> int:
    """The browser tests and the others at once, as two pytest processes; both must pass."""
    pytest = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider"]
    print("tests/run.py: running the browser tests and the other tests side by side", flush=True)
    late = [*pytest, "-m", "browser", *LATE_BROWSER]
    with tempfile.TemporaryFile("w+", encoding="utf-8") as rest_out:
        # the rest, then the late browser files: one shell-free chain, its exit the worse of the two
        rest = subprocess.Popen([sys.executable, "-c", _CHAIN, repr([[*pytest, "-m", "not browser"], late])],
                                cwd=ROOT, stdout=rest_out, stderr=subprocess.STDOUT, text=True)
        try:
            browser = subprocess.run([*pytest, "-m", "browser", *(f"--ignore={f}" for f in LATE_BROWSER)],
                                     cwd=ROOT).returncode
        finally:
            rest_code = rest.wait()
        rest_out.seek(0)
        print("tests/run.py: the tests outside the browser:", flush=True)
        print(rest_out.read(), flush=True)
    print(f"tests/run.py: browser tests exit {browser}, the others exit {rest_code}", flush=True)
    return max(browser, rest_code)


# Runs each command in turn (all of them, whatever each returns) and exits with the worst status.
_CHAIN = """
import ast, subprocess, sys
codes = [subprocess.run(cmd).returncode for cmd in ast.literal_eval(sys.argv[1])]
sys.exit(max(codes))
"""


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
