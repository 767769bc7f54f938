"""serving/ and serve.py import the standard library and serving/ only, never toolproof, and
only downwards in serving/'s own order; every module says what it is for and stays small.

Why: serve.py must run in a fresh clone with nothing installed (it is what fetches the
runtime), and serving/ is left out of the wheel, so nothing installed may need it and it may
need nothing installed. Checked by parsing, so a lazy import inside a function counts too.
"""
from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# serving/__init__.py's list: a module may import only those before it.
ORDER = ["errors", "lock", "fetch", "unpack", "vendor", "node", "bytecode", "snapshot", "site", "archive", "server", "bundle"]
MODULES = sorted((ROOT / "serving").glob("*.py"))
MAX_LINES = 300


def imports(source: str) -> list[str]:
    """Every module a source imports: import statements and importlib/__import__ calls with a
    literal name; a relative import is reported as serving.<name>."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level:       # from . import x, from .x import y
            found += [f"serving.{node.module}"] if node.module else [f"serving.{a.name}" for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            found.append(node.module)
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if name in ("import_module", "__import__") and isinstance(node.args[0].value, str):
                found.append(node.args[0].value)
    return found


def outside(names: list[str]) -> list[str]:
    allowed = set(sys.stdlib_module_names) | {"serving"}
    return sorted({n for n in names if n.split(".")[0] not in allowed})


@pytest.mark.parametrize(("source", "bad"), [
    # the check itself must see each way a module can be pulled in
    ("import toolproof", ["toolproof"]),
    ("from toolproof.cli import run", ["toolproof.cli"]),
    ("def f():\n    import jsonschema", ["jsonschema"]),
    ("import importlib\nimportlib.import_module('toolproof.grade')", ["toolproof.grade"]),
    ("__import__('toolproof')", ["toolproof"]),
    ("import json, os.path\nfrom . import lock\nfrom serving.lock import LOCK_NAME", []),
    ("from .fetch import fetch_all\nfrom . import server", []),
])
def test_the_check_sees_every_import(source: str, bad: list[str]) -> None:
    assert outside(imports(source)) == bad


def test_relative_imports_are_named_for_the_order_check() -> None:
    found = imports("from . import lock, site\nfrom .fetch import x")
    assert found == ["serving.lock", "serving.site", "serving.fetch"]


@pytest.mark.parametrize("path", [*MODULES, ROOT / "serve.py"], ids=lambda p: p.relative_to(ROOT).as_posix())
def test_only_the_standard_library_and_serving(path: Path) -> None:
    names = imports(path.read_text(encoding="utf-8"))
    assert not [n for n in names if n.split(".")[0] == "toolproof"], "serving/ must never import toolproof"
    assert outside(names) == []


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_serving_imports_only_downwards(path: Path) -> None:
    if path.stem == "__init__":
        assert imports(path.read_text(encoding="utf-8")) == []
        return
    assert sorted(ORDER) == sorted(p.stem for p in MODULES if p.stem != "__init__"), "update ORDER"
    mine = ORDER.index(path.stem)
    ours = {n.split(".")[1] for n in imports(path.read_text(encoding="utf-8")) if n.startswith("serving.")}
    assert {m for m in ours if ORDER.index(m) >= mine} == set()


@pytest.mark.parametrize("path", [*MODULES, ROOT / "serve.py"], ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_module_says_what_it_is_for_and_stays_small(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    doc = ast.get_docstring(ast.parse(text))
    assert doc and "Must not" in doc
    assert len(text.splitlines()) <= MAX_LINES
