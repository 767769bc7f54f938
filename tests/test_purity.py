"""The core is pure: no I/O, no clock, no randomness, no browser imports. Checked by parsing.

Only the edges may touch the world: the CLI, the file reader, the web front end and the
transport. Everything else must run the same in a terminal, in Pyodide and in a test, so the
same transcripts always give the same scorecard.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "toolproof"
# cli_tools.py reads files for `tools import|lint`; mcp_stdio.py starts an MCP server process
# cli_suite.py reads files for `suite validate|import-bfcl`
# (the pure half of MCP, its messages and replies, is importers/mcp.py and is checked here).
EDGE_NAMES = {"cli.py", "cli_tools.py", "cli_suite.py", "mcp_stdio.py", "datafiles.py", "web.py", "transport.py", "__main__.py"}
FORBIDDEN_IMPORTS = {"os", "sys", "io", "pathlib", "socket", "urllib", "http", "subprocess", "time", "random",
                     "asyncio", "js", "pyodide", "pyscript"}
ALLOWED_BY_MODULE = {"runner.py": {"asyncio"}}          # the runner awaits, but its transport does the I/O
# string functions only: urllib.parse splits and joins URLs without touching the network
PURE_SUBMODULES = {"urllib.parse"}
FORBIDDEN_CALLS = {("datetime", "now"), ("datetime", "utcnow"), ("datetime", "today"), ("date", "today"),
                   ("time", "time"), ("time", "monotonic"), ("time", "perf_counter")}
FORBIDDEN_BUILTINS = {"open", "print", "input"}


def is_edge(path: Path) -> bool:
    # web.py and its web_* parts are the page's edge (DOM, storage); *_transport.py the network
    return path.name in EDGE_NAMES or path.name.endswith("_transport.py") or path.name.startswith("web_")


def core_modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if not is_edge(p))


def edge_stems() -> set[str]:
    return {p.stem for p in PACKAGE.rglob("*.py") if is_edge(p)} | {"cli", "datafiles", "web", "transport"}


def problems(source: str, name: str) -> list[str]:
    """Every impurity in one module's source, as 'name:line: what'."""
    allowed = ALLOWED_BY_MODULE.get(name, set())
    edges = edge_stems()
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            roots = [alias.name.split(".")[0] for alias in node.names if alias.name not in PURE_SUBMODULES]
        elif isinstance(node, ast.ImportFrom):
            if node.level:      # a relative import of one of our own edge modules is I/O by proxy
                inner = (node.module or "").split(".")[0]
                targets = [inner] if inner else [alias.name for alias in node.names]
                found += [f"{name}:{node.lineno}: imports the edge module {t!r}" for t in targets if t in edges]
                continue
            roots = [] if node.module in PURE_SUBMODULES else [node.module.split(".")[0]]
        elif isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name) and func.id in FORBIDDEN_BUILTINS:
                found.append(f"{name}:{node.lineno}: calls {func.id}()")
            elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) \
                    and (func.value.id, func.attr) in FORBIDDEN_CALLS:
                found.append(f"{name}:{node.lineno}: calls {func.value.id}.{func.attr}()")
            continue
        else:
            continue
        found += [f"{name}:{node.lineno}: imports {root}" for root in roots
                  if root in FORBIDDEN_IMPORTS and root not in allowed]
    return found


def test_there_are_core_modules_to_check():
    names = {p.name for p in core_modules()}
    assert {"grade.py", "score.py", "suite.py", "selftest.py", "openai.py", "anthropic.py"} <= names
    assert not names & {"cli.py", "datafiles.py", "__main__.py"}


@pytest.mark.parametrize("path", core_modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_core_module_is_pure(path):
    assert problems(path.read_text(encoding="utf-8"), str(path.relative_to(PACKAGE))) == []


def test_selftest_reads_no_files():
    # selftest runs in the page too: its data must be handed in, never read
    source = (PACKAGE / "selftest.py").read_text(encoding="utf-8")
    file_io = {"open", "read_text", "read_bytes", "write_text", "write_bytes", "read_json", "load_bundle",
               "format_schema"}
    names = [(n.lineno, n.attr if isinstance(n, ast.Attribute) else n.id)
             for n in ast.walk(ast.parse(source)) if isinstance(n, (ast.Name, ast.Attribute))]
    used = [f"selftest.py:{line}: uses {name}" for line, name in names if name in file_io]
    assert used == []
    assert problems(source, "selftest.py") == []


# The checker itself must catch what it claims to: each snippet has exactly one impurity.
@pytest.mark.parametrize("snippet, problem", [
    ("import os", "m.py:1: imports os"),
    ("import os.path as p", "m.py:1: imports os"),
    ("from urllib.request import urlopen", "m.py:1: imports urllib"),
    ("x = 1\nimport asyncio", "m.py:2: imports asyncio"),
    ("import js", "m.py:1: imports js"),
    ("from pyscript import fetch", "m.py:1: imports pyscript"),
    ("open('f')", "m.py:1: calls open()"),
    ("def f():\n    print('hi')", "m.py:2: calls print()"),
    ("from datetime import datetime\nnow = datetime.now()", "m.py:2: calls datetime.now()"),
    ("from datetime import date\nd = date.today()", "m.py:2: calls date.today()"),
    ("t = time.time()", "m.py:1: calls time.time()"),
    ("from .datafiles import read_json", "m.py:1: imports the edge module 'datafiles'"),
    ("from . import cli", "m.py:1: imports the edge module 'cli'"),
])
def test_checker_catches(snippet, problem):
    assert problems(snippet, "m.py") == [problem]


@pytest.mark.parametrize("snippet", [
    "from datetime import date\nd = date(2026, 3, 4)",     # building a date is fine, asking the clock is not
    "import json, re, math",
    "from .reply import Reply",
    "self.print_it()",
])
def test_checker_allows(snippet):
    assert problems(snippet, "m.py") == []


def test_importers_and_lint_are_in_the_core_set():
    names = {str(p.relative_to(PACKAGE)) for p in core_modules()}
    assert {"lint.py", "lint_text.py", "lint_schema.py", "lint_similar.py", "importers/mcp.py",
            "importers/detect.py", "importers/text.py", "importers/gemini.py"} <= names
    assert not names & {"cli_tools.py", "mcp_stdio.py"}


def test_asyncio_is_allowed_only_in_the_runner():
    assert problems("import asyncio", "runner.py") == []
    assert problems("import asyncio", "grade.py") == ["grade.py:1: imports asyncio"]


@pytest.mark.parametrize("source, found", [
    ("from urllib.parse import urlsplit", []),
    ("import urllib.parse", []),
    ("from urllib.request import urlopen", ["m.py:1: imports urllib"]),
    ("import urllib.request", ["m.py:1: imports urllib"]),
    ("import urllib", ["m.py:1: imports urllib"]),
])
def test_only_urllib_parse_is_pure(source, found):
    assert problems(source, "m.py") == found
