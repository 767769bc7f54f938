"""Which strings of a module name a catalogue entry (a provider, a category): how the record
tests find a table that should read the records instead of spelling them out."""
from __future__ import annotations

import ast
import re
from pathlib import Path


def strings_naming(path: Path, pattern: re.Pattern, *, tables_only: bool = False) -> list[str]:
    """The module's string constants `pattern` finds in (docstrings aside), in source order; with
    `tables_only`, only those in module-level assignments (a rule about one entry, inside a
    function, is then allowed)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant)}
    roots = [n.value for n in tree.body if isinstance(n, (ast.Assign, ast.AnnAssign)) and n.value] if tables_only else [tree]
    found = [n for root in roots for n in ast.walk(root) if isinstance(n, ast.Constant)
             and isinstance(n.value, str) and id(n) not in docstrings and pattern.search(n.value)]
    return [n.value for n in sorted(found, key=lambda n: (n.lineno, n.col_offset))]
