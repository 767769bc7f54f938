"""The docs stay true to the tree: every module has its line in docs/architecture.md, every file
path the README and docs/ name exists, and every relative link leads somewhere."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = sorted((ROOT / "docs").glob("*.md")) + [ROOT / "README.md"]
ARCHITECTURE = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
FOLDERS = ("toolproof", "serving", "tests", "benchmarks", "web", "data", "docs")
PACKAGE_FOLDERS = {p.name for p in (ROOT / "toolproof").iterdir() if (p / "__init__.py").exists()}


def modules() -> list[str]:
    found = [p.relative_to(ROOT / "toolproof").as_posix() for p in (ROOT / "toolproof").rglob("*.py")]
    found += [p.relative_to(ROOT).as_posix() for p in (ROOT / "serving").glob("*.py")]
    return sorted(m for m in found if not m.endswith("__init__.py") or m == "__init__.py")


@pytest.mark.parametrize("module", modules())
def test_every_module_is_in_the_architecture_page(module):
    # importers/ are described in one paragraph by file name
    names = [f"`{module}`"] + ([f"`{module.split('/', 1)[1]}`"] if module.startswith("importers/") else [])
    assert any(name in ARCHITECTURE for name in names), f"docs/architecture.md does not name {module}"


def named_paths(text: str) -> set[str]:
    """Paths like `toolproof/grading/grade.py`, `grading/grade.py`, `tests/run.py` in a text."""
    found = set()
    for match in re.finditer(r"(?<![\w./-])((?:[a-z_]+/)+[A-Za-z_]+\.(?:py|json|md|mjs|html|css|png))\b", text):
        path = match.group(1)
        head = path.split("/", 1)[0]
        if head in FOLDERS:
            found.add(path)
        elif head in PACKAGE_FOLDERS:
            found.add(f"toolproof/{path}")
    return found


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name if p.parent == ROOT else f"docs/{p.name}")
def test_every_named_path_exists(doc):
    text = doc.read_text(encoding="utf-8")
    # a path written with a placeholder (cli/<verb>.py) or one the page or a user creates is not ours
    missing = sorted(p for p in named_paths(text) if not (ROOT / p).exists()
                     and not p.startswith(("data/own", "docs/images/tmp")))
    assert missing == []


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name if p.parent == ROOT else f"docs/{p.name}")
def test_every_relative_link_leads_somewhere(doc):
    text = doc.read_text(encoding="utf-8")
    broken = []
    for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text):
        if re.match(r"[a-z]+:", target):
            continue
        if not (doc.parent / target).exists():
            broken.append(target)
    assert broken == []
