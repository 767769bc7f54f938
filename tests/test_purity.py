"""The core is pure: no I/O, no clock, no randomness, no browser imports. Checked by parsing.

Only the edges may touch the world: the CLI, the file reader, the web front end and the
transport. Everything else must run the same in a terminal, in Pyodide and in a test, so the
same transcripts always give the same scorecard.
"""
from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "toolproof"
# The edges are folders: cli/ (argv, files, stdout, urllib, the MCP server process) and page/ (DOM,
# storage, fetch), plus the disk reader shared by both and the `python -m toolproof` entry.
# (The pure half of MCP, its messages and replies, is importers/mcp.py and is checked here.)
EDGE_FOLDERS = {"cli", "page"}
EDGE_FILES = {"datafiles.py", "__main__.py"}
FORBIDDEN_IMPORTS = {"os", "sys", "io", "pathlib", "socket", "urllib", "http", "subprocess", "time", "random",
                     "asyncio", "js", "pyodide", "pyscript"}
ALLOWED_BY_MODULE = {"running/runner.py": {"asyncio"}}   # the runner awaits, but its transport does the I/O
# string functions only: urllib.parse splits and joins URLs without touching the network
PURE_SUBMODULES = {"urllib.parse"}
FORBIDDEN_CALLS = {("datetime", "now"), ("datetime", "utcnow"), ("datetime", "today"), ("date", "today"),
                   ("time", "time"), ("time", "monotonic"), ("time", "perf_counter")}
FORBIDDEN_BUILTINS = {"open", "print", "input"}
EDGE_MODULES = {"toolproof.cli", "toolproof.page", "toolproof.datafiles", "toolproof.__main__"}


def is_edge(path: Path) -> bool:
    rel = path.relative_to(PACKAGE)
    return rel.parts[0] in EDGE_FOLDERS or rel.as_posix() in EDGE_FILES


def core_modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if not is_edge(p))


def absolute(module: str | None, level: int, name: str) -> str:
    """The dotted module a `from ... import` names, from a module at toolproof/NAME."""
    if not level:
        return module or ""
    package = ["toolproof", *name.split("/")[:-1]]
    base = package[:len(package) - (level - 1)]
    return ".".join(base + ([module] if module else []))


def is_edge_module(dotted: str) -> bool:
    return any(dotted == edge or dotted.startswith(edge + ".") for edge in EDGE_MODULES)


def problems(source: str, name: str) -> list[str]:
    """Every impurity in one module's source, as 'name:line: what'."""
    allowed = ALLOWED_BY_MODULE.get(name, set())
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            roots = [alias.name.split(".")[0] for alias in node.names if alias.name not in PURE_SUBMODULES]
            found += [f"{name}:{node.lineno}: imports the edge module {alias.name!r}" for alias in node.names
                      if is_edge_module(alias.name)]
        elif isinstance(node, ast.ImportFrom):
            # one of our own edge modules is I/O by proxy, however it is named
            target = absolute(node.module, node.level, name)
            targets = [target] if node.module else [f"{target}.{alias.name}" for alias in node.names]
            found += [f"{name}:{node.lineno}: imports the edge module {t.rsplit('.', 1)[-1]!r}"
                      for t in targets if is_edge_module(t)]
            if node.level or target.startswith("toolproof"):
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
    names = {p.relative_to(PACKAGE).as_posix() for p in core_modules()}
    assert {"grading/grade.py", "scoring/scorecard.py", "suite/load.py", "selftest/checks.py",
            "providers/openai.py", "providers/anthropic.py", "running/runner.py"} <= names
    assert not {n for n in names if n.startswith(("cli/", "page/"))}
    assert not names & {"datafiles.py", "__main__.py"}


@pytest.mark.parametrize("path", core_modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_core_module_is_pure(path):
    assert problems(path.read_text(encoding="utf-8"), str(path.relative_to(PACKAGE))) == []


def test_selftest_reads_no_files():
    # selftest runs in the page too: its data must be handed in, never read
    source = "\n".join(p.read_text(encoding="utf-8") for p in sorted((PACKAGE / "selftest").glob("*.py")))
    file_io = {"open", "read_text", "read_bytes", "write_text", "write_bytes", "read_json", "load_bundle",
               "format_schema"}
    names = [(n.lineno, n.attr if isinstance(n, ast.Attribute) else n.id)
             for n in ast.walk(ast.parse(source)) if isinstance(n, (ast.Name, ast.Attribute))]
    used = [f"selftest/:{line}: uses {name}" for line, name in names if name in file_io]
    assert used == []
    assert problems(source, "selftest/checks.py") == []


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
    ("from toolproof.cli.main import run", "m.py:1: imports the edge module 'main'"),
    ("from toolproof.page import dom", "m.py:1: imports the edge module 'page'"),
    ("import toolproof.datafiles", "m.py:1: imports the edge module 'toolproof.datafiles'"),
])
def test_checker_catches(snippet, problem):
    assert problems(snippet, "m.py") == [problem]


@pytest.mark.parametrize("snippet", [
    "from datetime import date\nd = date(2026, 3, 4)",     # building a date is fine, asking the clock is not
    "import json, re, math",
    "from .reply import Reply",
    "from toolproof.grading.grade import grade_case",
    "self.print_it()",
])
def test_checker_allows(snippet):
    assert problems(snippet, "m.py") == []


def test_importers_and_lint_are_in_the_core_set():
    names = {p.relative_to(PACKAGE).as_posix() for p in core_modules()}
    assert {"authoring/lint.py", "authoring/lint_text.py", "authoring/lint_schema.py", "authoring/lint_similar.py",
            "importers/mcp.py", "importers/detect.py", "importers/openai.py", "importers/gemini.py"} <= names
    assert not names & {"cli/tools.py", "cli/mcp_stdio.py"}


def test_asyncio_is_allowed_only_in_the_runner():
    assert problems("import asyncio", "running/runner.py") == []
    assert problems("import asyncio", "grading/grade.py") == ["grading/grade.py:1: imports asyncio"]


@pytest.mark.parametrize("source, found", [
    ("from urllib.parse import urlsplit", []),
    ("import urllib.parse", []),
    ("from urllib.request import urlopen", ["m.py:1: imports urllib"]),
    ("import urllib.request", ["m.py:1: imports urllib"]),
    ("import urllib", ["m.py:1: imports urllib"]),
])
def test_only_urllib_parse_is_pure(source, found):
    assert problems(source, "m.py") == found


# Arrows run one way: each layer imports only from layers below it, or from its own folder.
# foundation < suite < providers, importers, worlds < grading < scoring < arms < running, reports, authoring,
# selftest, datafiles (the disk, shared by both edges) < the edges (cli/, page/, the package face)
# < __main__.
RANK = {"errors": 0, "limits": 0, "secrets": 0, "safe_text": 0, "plurals": 0, "_version": 0,
        "suite": 1, "providers": 2, "importers": 2, "worlds": 2, "grading": 3, "scoring": 4, "arms": 4.5,
        "running": 5, "reports": 5, "authoring": 5, "selftest": 5,
        "datafiles": 5, "cli": 6, "page": 6, "__init__": 6, "__main__": 7}


def layer_of(dotted: str) -> str:
    parts = dotted.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def imports_in(source: str, name: str) -> list[tuple[int, str, tuple[str, ...]]]:
    """(line, dotted module, the names imported from it) for every import of our own package in
    one module's source, at any depth: an import inside a function is an arrow too."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):
            target = absolute(node.module, node.level, name)
            if target == "toolproof":
                found += [(node.lineno, f"toolproof.{alias.name}", ()) for alias in node.names]
            elif target.startswith("toolproof."):
                found.append((node.lineno, target, tuple(alias.name for alias in node.names)))
        elif isinstance(node, ast.Import):
            found += [(node.lineno, alias.name, ()) for alias in node.names if alias.name.startswith("toolproof.")]
    return found


def own_imports(path: Path) -> list[tuple[int, str]]:
    """(line, dotted module) for every import of our own package in one file."""
    return [(line, target) for line, target, _ in imports_in(path.read_text(encoding="utf-8"),
                                                             path.relative_to(PACKAGE).as_posix())]


def arrows_against_the_layers(path: Path) -> list[str]:
    rel = path.relative_to(PACKAGE)
    own = rel.parts[0] if len(rel.parts) > 1 else rel.stem
    wrong = []
    for line, target in own_imports(path):
        other = layer_of(target)
        if other != own and RANK[other] >= RANK[own]:
            wrong.append(f"{rel.as_posix()}:{line}: {own} imports {target} ({other} is not below it)")
    return wrong


def test_an_import_inside_a_function_is_an_arrow_too():
    source = "import json\n\ndef f():\n    if x:\n        from toolproof.cli.main import run\n    from . import sweep"
    assert sorted(imports_in(source, "reports/m.py")) == [(5, "toolproof.cli.main", ("run",)),
                                                          (6, "toolproof.reports", ("sweep",))]


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_arrows_run_one_way(path):
    rel = path.relative_to(PACKAGE)
    assert (rel.parts[0] if len(rel.parts) > 1 else rel.stem) in RANK, f"{rel}: a new layer? add it to RANK"
    assert arrows_against_the_layers(path) == []


# The page's panels never import each other: page/main.py wires them. A panel may use the DOM
# helpers (page/dom.py, on page/bridge.py), the fields' bound and big reads (page/inputs.py), the
# notices that stay until dismissed (page/notices.py), the one module that touches js.fetch
# (page/transport.py), the kept runs' storage (page/runstore.py: IndexedDB, no DOM) and the scorecard's parts (page/card/, which import each other and those
# helpers, never a panel).
PAGE_SHARED = {"toolproof.page.dom", "toolproof.page.bridge", "toolproof.page.batches", "toolproof.page.transport",
               "toolproof.page.inputs", "toolproof.page.notices", "toolproof.page.runstore",
               "toolproof.page.scenario_scope"}
PAGE_CARD = "toolproof.page.card"


def page_shared(target: str) -> bool:
    return target in PAGE_SHARED or target == PAGE_CARD or target.startswith(PAGE_CARD + ".")


@pytest.mark.parametrize("path", sorted((PACKAGE / "page").rglob("*.py")),
                         ids=lambda p: p.relative_to(PACKAGE / "page").as_posix())
def test_panels_do_not_import_each_other(path):
    rel = path.relative_to(PACKAGE / "page").as_posix()
    if rel in {"main.py", "__init__.py"}:
        return
    others = [f"{rel}:{line}: imports {target}" for line, target in own_imports(path)
              if target.startswith("toolproof.page") and not page_shared(target)]
    assert others == []


@pytest.mark.parametrize("target, shared", [
    ("toolproof.page.dom", True), ("toolproof.page.card", True), ("toolproof.page.card.cases", True),
    ("toolproof.page.runs", False), ("toolproof.page.cardinal", False), ("toolproof.page.main", False),
])
def test_what_a_panel_may_import(target, shared):
    assert page_shared(target) is shared


def test_no_module_is_too_long_and_the_top_stays_small():
    long = [f"{p.relative_to(PACKAGE)}: {n} lines" for p in PACKAGE.rglob("*.py")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > 450]
    assert long == []
    top = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert len(top) <= 12, top


# No circles, not even inside a folder: module A imports B (at the top or inside a function) and B,
# by any path, imports A. Each such circle is one strongly connected set of modules in the graph.
# A circle named here is known and awaited: the check fails both when another appears and when
# this one is gone (then empty the set).


def module_of(name: str) -> str:
    """'reports/scorecard.py' -> 'toolproof.reports.scorecard'; 'reports/__init__.py' -> 'toolproof.reports'."""
    parts = ["toolproof", *name.removesuffix(".py").split("/")]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph(sources: dict[str, str]) -> dict[str, set[str]]:
    """Module -> the modules it imports, for sources named as under toolproof/ ('cli/live.py').
    `from .pkg import mod` points at the module; `from .mod import name` at mod; a name that is
    no module points at the nearest module above it (a package's __init__)."""
    modules = {module_of(name) for name in sources}

    def nearest(dotted: str) -> str | None:
        while dotted and dotted not in modules:
            dotted = dotted.rpartition(".")[0]
        return dotted or None

    graph: dict[str, set[str]] = {}
    for name, source in sources.items():
        arrows = graph.setdefault(module_of(name), set())
        for _, target, names in imports_in(source, name):
            subs = [f"{target}.{n}" for n in names if f"{target}.{n}" in modules]
            arrows |= {m for m in [*subs, *([nearest(target)] if len(subs) < len(names) or not names else [])] if m}
    return graph


def circles(graph: dict[str, set[str]]) -> list[tuple[str, ...]]:
    """Every set of modules that import each other round a circle (a module importing itself is
    one too), each as its sorted names."""
    def reach(start: str) -> set[str]:
        seen, todo = set(), [start]
        while todo:
            for nxt in graph.get(todo.pop(), ()):
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return seen

    reached = {m: reach(m) for m in graph}
    found = {tuple(sorted({m} | {o for o in reached[m] if m in reached.get(o, ())})) for m in graph if m in reached[m]}
    return sorted(found)


@functools.cache
def package_graph() -> dict[str, set[str]]:
    return import_graph({p.relative_to(PACKAGE).as_posix(): p.read_text(encoding="utf-8")
                         for p in sorted(PACKAGE.rglob("*.py"))})


FOLDERS = sorted({p.parent.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("*.py")})


@pytest.mark.parametrize("folder", FOLDERS)
def test_no_circles_inside_a_folder(folder):
    graph = package_graph()
    inside = {module_of(p.relative_to(PACKAGE).as_posix()) for p in (PACKAGE / folder).glob("*.py")}
    assert [c for c in circles({m: graph[m] & inside for m in inside})] == []


def test_no_circles_in_the_package():
    found = circles(package_graph())
    assert found == []


@pytest.mark.parametrize("sources, found", [
    ({"a.py": "from .b import x", "b.py": "def f():\n    from .a import y"}, [("toolproof.a", "toolproof.b")]),
    ({"r/a.py": "from . import b", "r/b.py": "from toolproof.r.c import x", "r/c.py": "import toolproof.r.a"},
     [("toolproof.r.a", "toolproof.r.b", "toolproof.r.c")]),
    ({"a.py": "from toolproof import a"}, [("toolproof.a",)]),
    ({"p/__init__.py": "from .m import f", "p/m.py": "from toolproof.p import g"}, [("toolproof.p", "toolproof.p.m")]),
    ({"a.py": "from .b import x", "b.py": "from .c import y", "c.py": "import json"}, []),
    ({"p/__init__.py": "from .m import f", "p/m.py": "from .n import g", "p/n.py": ""}, []),
])
def test_circle_checker_catches(sources, found):
    assert circles(import_graph(sources)) == found


# Outside page/ (where a late import buys start-up time and is the rule), an import inside a
# function says why it waits: `# lazy: <why>` at the end of its line, or in the comment just above
# it; either one, on the first import of an unbroken run of imports, speaks for the whole run, e.g.
#     # lazy: jsonschema costs a second of the page's start-up; most schemas never need it
#     from jsonschema import Draft202012Validator
REASON = "# lazy:"


def _has_reason(line: str) -> bool:
    text = line.partition("#")[2]
    return ("#" + text).startswith(REASON) and bool(text.removeprefix(REASON[1:]).strip())


def unreasoned_imports(source: str, name: str) -> list[str]:
    """Every import inside a function without a `# lazy:` reason, as 'name:line: ...'."""
    lines = source.splitlines()
    found = []
    for func in ast.walk(ast.parse(source)):
        if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for block in ast.walk(func):
            body = [s for field in ("body", "orelse", "finalbody") if isinstance(getattr(block, field, None), list)
                    for s in getattr(block, field)]
            first = None
            for i, stmt in enumerate(body):
                if not isinstance(stmt, (ast.Import, ast.ImportFrom)):
                    first = None
                    continue
                joined = i and first is not None and body[i - 1].end_lineno == stmt.lineno - 1
                first = first if joined else stmt.lineno
                comment, above = [lines[first - 1]], first - 2      # the run's first line, and the comments above it
                while above >= 0 and lines[above].strip().startswith("#"):
                    comment.append(lines[above])
                    above -= 1
                if not (_has_reason(lines[stmt.lineno - 1]) or any(_has_reason(c) for c in comment)):
                    what = ", ".join(a.name for a in stmt.names) if isinstance(stmt, ast.Import) \
                        else "." * stmt.level + (stmt.module or "")
                    found.append(f"{name}:{stmt.lineno}: imports {what} inside a function with no '{REASON} why'")
    return sorted(set(found), key=lambda f: int(f.split(":")[1]))


@pytest.mark.parametrize("path", [p for p in sorted(PACKAGE.rglob("*.py")) if p.relative_to(PACKAGE).parts[0] != "page"],
                         ids=lambda p: str(p.relative_to(PACKAGE)))
def test_a_late_import_says_why(path):
    name = path.relative_to(PACKAGE).as_posix()
    assert unreasoned_imports(path.read_text(encoding="utf-8"), name) == []


@pytest.mark.parametrize("snippet, found", [
    ("def f():\n    import os", ["m.py:2: imports os inside a function with no '# lazy: why'"]),
    ("def f():\n    from .x import y  # lazy only f needs it", ["m.py:2: imports .x inside a function with no '# lazy: why'"]),
    ("def f():\n    from toolproof.x import y  # lazy:", ["m.py:2: imports toolproof.x inside a function with no '# lazy: why'"]),
    ("class A:\n    async def m(self):\n        if x:\n            import re", ["m.py:4: imports re inside a function with no '# lazy: why'"]),
    ("def f():\n    # lazy: only f needs it\n    import os\n\n    import re", ["m.py:5: imports re inside a function with no '# lazy: why'"]),
    ("def f():\n    # lazy: only f\n    x = 1\n    import os", ["m.py:4: imports os inside a function with no '# lazy: why'"]),
    ("def f():\n    import os  # lazy: only f needs it", []),
    ("def f():\n    # lazy: only f needs them\n    import os\n    from .x import (a,\n        b)\n    import re", []),
    ("def f():\n    # the parser, and\n    # lazy: it costs a second\n    import os", []),
    ("def f():\n    import os  # lazy: only f needs them\n    import re", []),
    ("def f():\n    import os\n    import re  # lazy: only f needs it", ["m.py:2: imports os inside a function with no '# lazy: why'"]),
    ("import os\nfrom .x import y", []),
])
def test_reason_checker_catches(snippet, found):
    assert unreasoned_imports(snippet, "m.py") == found
