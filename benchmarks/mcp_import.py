"""`tools import --mcp-stdio` on a server listing 12 MB of tools in one answer: figures, not a test.

    python benchmarks/mcp_import.py [MB]          # default 12

The server is tests/fakemcp.py in its "big" mode. Prints the time to list the tools through the
pipe (toolproof.cli.mcp_stdio.list_tools_stdio, the part that read one byte a system call before
issue 19), the pipe's throughput, and the time of the whole `tools import` (which also checks
every schema as `run` would).
"""
from __future__ import annotations

import io
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from fakemcp import fake_server  # noqa: E402
from toolproof.cli.main import run  # noqa: E402
from toolproof.cli.mcp_stdio import list_tools_stdio  # noqa: E402


def main(argv: list[str]) -> int:
    mb = int(argv[0]) if argv else 12
    with tempfile.TemporaryDirectory() as folder:
        command = f"{fake_server(Path(folder))} big {mb}"
        started = time.perf_counter()
        listed = list_tools_stdio(command, timeout_s=120)
        listing = time.perf_counter() - started
        size = len(json.dumps({"tools": listed["tools"]}))
        print(f"list_tools_stdio: {len(listed['tools']):,} tools, {size / 1e6:.1f} MB in {listing:.2f} s "
              f"({size / 1e6 / listing:.1f} MB/s, server start and shutdown included)")
        out, err = io.StringIO(), io.StringIO()
        started = time.perf_counter()
        code = run(["tools", "import", "--mcp-stdio", command, "--timeout", "120", "--out",
                    str(Path(folder) / "tools.json")], stdout=out, stderr=err)
        whole = time.perf_counter() - started
        print(f"tools import --mcp-stdio: exit {code} in {whole:.2f} s: {err.getvalue().strip()[:120]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
