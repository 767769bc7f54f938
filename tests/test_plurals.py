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


# a count written straight before its noun in an f-string: f"{n} cases" says "1 cases" for one
BARE_COUNT = re.compile(r"^ (cases|requests|conversations|phrasings|repeats|runs|tools|calls)\b")
# counts a condition keeps above 1 where they are written ("each of the N cases" when N != 1) and
# a word that is no count ("{case.category} cases need mock_results")
ABOVE_ONE = {"toolproof/authoring/tool_offer.py", "toolproof/reports/page_view.py:203",
             "toolproof/suite/load.py"}


def bare_counts(root: Path = ROOT) -> list[str]:
    """Every f-string in the package that puts a variable count right before a plural noun; a
    constant (MAX_CASES, all capitals) is never 1 and passes."""
    found = []
    for path in sorted((root / "toolproof").rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.JoinedStr):
                continue
            for value, after in zip(node.values, node.values[1:]):
                if (isinstance(value, ast.FormattedValue) and isinstance(after, ast.Constant)
                        and isinstance(after.value, str) and BARE_COUNT.match(after.value)
                        and not (isinstance(value.value, ast.Name) and value.value.id.isupper())
                        and rel not in ABOVE_ONE and f"{rel}:{node.lineno}" not in ABOVE_ONE):
                    found.append(f"{rel}:{node.lineno}: {{{ast.unparse(value.value)}}}{BARE_COUNT.match(after.value).group(1)}")
    return found


def test_no_count_meets_a_plural_noun_by_hand():
    assert bare_counts() == []


def test_the_count_scan_finds_one(tmp_path):
    (tmp_path / "toolproof").mkdir()
    (tmp_path / "toolproof" / "m.py").write_text(
        'n, MAX = 1, 9\na = f"Your suite ({n} cases)"\nb = f"at most {MAX} cases"\nc = f"{len(n)} requests, ok"\n')
    assert bare_counts(tmp_path) == ["toolproof/m.py:2: {n}cases", "toolproof/m.py:4: {len(n)}requests"]
