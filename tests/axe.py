"""axe-core for the accessibility tests: fetched from the npm registry (`npm pack`), pinned by
version and sha256, kept in tests/.axe/ (git-ignored, test-only) and injected by the test into a
page it drives. The page itself never loads it, and the local server never serves tests/.

`python tests/run.py` fetches it before pytest runs; `ensure_axe()` does the same on first use, so
a single test file run also works. It writes only tests/.axe/axe-<version>.min.js (and a temporary
folder it removes), never anything it did not write.
"""
from __future__ import annotations

import hashlib
import io
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

VERSION = "4.14.1"
TARBALL_SHA256 = "e6b0ce02b84d892e2e33e403485e7f3d6c29e2be6df65daf44d89ba564139745"
HOME = Path(__file__).resolve().parent / ".axe"
SCRIPT = HOME / f"axe-{VERSION}.min.js"


def ensure_axe() -> Path:
    """The pinned axe.min.js, fetched once with `npm pack axe-core@VERSION` and checked."""
    if SCRIPT.is_file():
        return SCRIPT
    with tempfile.TemporaryDirectory(prefix="toolproof-axe-") as tmp:
        done = subprocess.run(["npm", "pack", f"axe-core@{VERSION}", "--pack-destination", tmp, "--silent"],
                              capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"npm pack axe-core@{VERSION} failed: {done.stderr.strip()[-300:]}")
        data = (Path(tmp) / f"axe-core-{VERSION}.tgz").read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    if digest != TARBALL_SHA256:
        raise RuntimeError(f"axe-core-{VERSION}.tgz has sha256 {digest}, expected {TARBALL_SHA256}")
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        source = tar.extractfile("package/axe.min.js").read()
    HOME.mkdir(exist_ok=True)
    partial = SCRIPT.with_suffix(".part")
    partial.write_bytes(source)
    partial.replace(SCRIPT)
    return SCRIPT


def axe_violations(page, *, include: str | None = None) -> list[dict]:
    """Run axe in `page` (injected by evaluation, never by the page) and return its violations
    as {id, impact, help, targets}."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(ensure_axe().read_text(encoding="utf-8") + "\n;0")
    result = page.evaluate("""async (include) => {
        const r = await axe.run(include ? {include: [include]} : document, {resultTypes: ['violations']});
        return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
                                       targets: v.nodes.slice(0, 5).map(n => n.target.join(' '))}));
    }""", include)
    return result


def serious(violations: list[dict]) -> list[dict]:
    return [v for v in violations if v["impact"] in ("critical", "serious")]


if __name__ == "__main__":
    print(ensure_axe())
    sys.exit(0)
