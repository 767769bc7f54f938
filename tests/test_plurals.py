"""Counts in words (issue 37 item 6): one rule, `toolproof.plurals`, and no "case(s)" left anywhere
in what ToolProof writes: every string in the package and the page's own files is scanned."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from toolproof.plurals import counted, plural
from toolproof.scoring.comparison import verdict_line

ROOT = Path(__file__).resolve().parent.parent
# a noun with its plural ending in brackets: "case(s)", "entry(ies)", "match(es)"
HEDGED = re.compile(r"[A-Za-z]\((?:s|es|ies)\)")
EXPLAINS_THE_RULE = {"toolproof/plurals.py"}      # its docstring names what it replaces


def test_singular_only_for_exactly_one():
    assert counted(1, "case") == "1 case"
    assert counted(0, "case") == "0 cases"
    assert counted(2, "point") == "2 points"
    assert counted(1.5, "point") == "1.5 points"
    assert counted(1, "reply", "replies") == "1 reply"
    assert counted(3, "reply", "replies") == "3 replies"
    assert plural(1, "request") == "request"


def strings_in(path: Path) -> list[tuple[int, str]]:
    """Every string constant of a module (docstrings, f-string parts), with its line."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)]


def hedged_plurals(root: Path = ROOT) -> list[str]:
    found = []
    for path in sorted((root / "toolproof").rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        if rel not in EXPLAINS_THE_RULE:
            found += [f"{rel}:{line}: {m.group(0)}" for line, text in strings_in(path) for m in HEDGED.finditer(text)]
    for path in [root / "index.html", *sorted((root / "web").glob("*.mjs"))]:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            found += [f"{path.relative_to(root).as_posix()}:{number}: {m.group(0)}" for m in HEDGED.finditer(line)]
    return found


def test_no_hedged_plural_is_left():
    assert hedged_plurals() == []


def test_the_scan_finds_one(tmp_path):
    """The scan itself can fail: a module with "case(s)" in an f-string is reported."""
    (tmp_path / "toolproof").mkdir()
    (tmp_path / "web").mkdir()
    (tmp_path / "index.html").write_text("<label>Timeout (s)</label>")     # seconds, not a plural
    (tmp_path / "toolproof" / "m.py").write_text('n = 2\nline = f"{n} case(s) and 1 entry(ies)"\nk = len(s)\n')
    (tmp_path / "web" / "boot.mjs").write_text("// 3 op(s) queued\n")
    assert hedged_plurals(tmp_path) == ["toolproof/m.py:2: e(s)", "toolproof/m.py:2: y(ies)", "web/boot.mjs:1: p(s)"]


@pytest.mark.parametrize("low, high, says", [
    (-1.2, 3.0, "a drop of up to 1 point cannot be ruled out (nor a rise of up to 3)"),
    (-6.0, 3.0, "a drop of up to 6 points cannot be ruled out"),
    (-3.0, -1.0, "REGRESSION: B scores 1 to 3 points lower"),
    (0.6, 1.4, "improvement: B scores 1 point higher"),
])
def test_score_points_in_the_verdict(low, high, says):
    assert says in verdict_line({"low": low, "high": high})
