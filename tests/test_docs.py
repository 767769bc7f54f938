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


def layout_tree() -> dict[str, set[str]]:
    """The ```toolproof/``` block of docs/architecture.md: folder ("" for the package root) -> the
    words of its line and the lines under it."""
    block = ARCHITECTURE.split("```\ntoolproof/\n", 1)[1].split("```", 1)[0]
    tree: dict[str, set[str]] = {}
    folder = ""
    parents: list[str] = []       # the folders above the current one, by depth (a sub-folder is indented 2 more)
    for line in block.splitlines():
        head = re.match(r"(  +)([a-z_]+/)\s", line)
        if head:
            depth = len(head.group(1)) // 2 - 1
            parents = parents[:depth]
            folder = "".join(parents) + head.group(2)
            parents.append(head.group(2))
        elif not line.startswith("   "):      # a line of its own, not a folder's continuation
            folder = ""
        tree.setdefault(folder, set()).update(re.findall(r"[A-Za-z_][A-Za-z_0-9]*", line))
    return tree


def package_folders() -> dict[str, list[str]]:
    """Every folder of the package that holds modules -> their names, as the tree writes them."""
    found: dict[str, list[str]] = {}
    for path in sorted((ROOT / "toolproof").rglob("*.py")):
        folder = path.parent.relative_to(ROOT / "toolproof").as_posix()
        folder = "" if folder == "." else folder + "/"
        if path.stem != "__init__" or not folder:
            found.setdefault(folder, []).append(path.stem)
    return found


@pytest.mark.parametrize("folder", package_folders(), ids=lambda f: f or "toolproof/")
def test_the_layout_tree_lists_every_module_of_each_folder(folder):
    tree = layout_tree()
    assert folder in tree, f"the toolproof/ tree in docs/architecture.md has no line for {folder}"
    missing = [m for m in package_folders()[folder] if m not in tree[folder]]
    assert missing == [], f"the toolproof/ tree's {folder or 'root'} line does not name {missing}"


def test_the_helper_table_lists_every_helper_module_in_tests():
    helpers = sorted(p.name for p in (ROOT / "tests").glob("*.py") if not p.name.startswith("test_"))
    section = ARCHITECTURE.split("\n## Tests\n", 1)[1].split("\n## ", 1)[0]
    assert [h for h in helpers if f"`tests/{h}`" not in section] == []


def _constant(module: str, name: str):
    import importlib

    return getattr(importlib.import_module(module), name)


# A figure a doc quotes, tied to the code that decides it: (file in docs/, the sentence with {} for the
# figure, the module and name holding it, how the sentence writes it).
FIGURES = [
    ("architecture.md", "messages of at most {} new nodes (`MESSAGE_NODES`", "toolproof.page.batches",
     "MESSAGE_NODES", "{:,}"),
    ("architecture.md", "keeps a reply's first `MAX_CALLS` ({}) calls", "toolproof.providers.reply", "MAX_CALLS", "{}"),
    ("architecture.md", "read up to `MAX_CALLS`, {}, in `providers/reply.py`", "toolproof.providers.reply",
     "MAX_CALLS", "{}"),
    ("architecture.md", "the {} rates", "toolproof.scoring.scorecard", "METRIC_KEYS", "words"),
    ("architecture.md", "which of the {} shapes a document is", "toolproof.importers.detect", "SHAPES", "words"),
    ("own-tools.md", "in any of the {} shapes", "toolproof.importers.detect", "SHAPES", "words"),
    ("README.md", "its {} categories", "toolproof.suite.categories", "CASE_CATEGORIES", "words"),
    ("statistics.md", "The {} rates", "toolproof.scoring.scorecard", "METRIC_KEYS", "words"),
    ("statistics.md", '`intervals` = `{{"method": "{}",', "toolproof.scoring.intervals", "METHOD", "{}"),
    ("security.md", "| nesting depth (arrays and objects) | {} levels |", "toolproof.limits", "MAX_DEPTH", "{}"),
    ("security.md", "| integer size | {} digits |", "toolproof.limits", "MAX_DIGITS", "{}"),
    ("security.md", "| response body | {} MB |", "toolproof.limits", "MAX_BYTES", "MB"),
    ("security.md", "a regular file of at most {} MB", "toolproof.limits", "MAX_FILE_BYTES", "MB"),
    ("formats.md", "At most {} phrasings a case", "toolproof.limits", "MAX_PHRASINGS", "{}"),
    ("formats.md", "each prompt at most {} characters", "toolproof.limits", "MAX_PHRASING_CHARS", "{:,}"),
    ("formats.md", "A sequence lists at most {} expected calls", "toolproof.authoring.case_form", "MAX_CALLS", "{}"),
    ("formats.md", "only the first {} calls", "toolproof.grading.matching", "MAX_PAIRED", "{}"),
    ("formats.md", "a reply's first {} calls are read", "toolproof.providers.reply", "MAX_CALLS", "{}"),
    ("formats.md", "the reply's first {} tool calls and the first", "toolproof.providers.reply", "MAX_CALLS", "{}"),
    ("formats.md", "the first {} characters of its text", "toolproof.providers.reply", "MAX_TEXT", "{:,}"),
    ("grading.md", "A reply's first {} calls are read and graded", "toolproof.providers.reply", "MAX_CALLS", "{}"),
    ("grading.md", "A reply's text is read up to its first **{} characters**", "toolproof.providers.reply",
     "MAX_TEXT", "{:,}"),
    ("providers.md", "A `Retry-After` above {} s is not slept", "toolproof.running.retries", "MAX_RETRY_WAIT_S",
     "{:.0f}"),
    ("providers.md", "When {} different conversations have", "toolproof.running.runner", "SAME_STATUS_STOP", "{}"),
    ("sweeps.md", "levels are whole numbers 0-{}", "toolproof.running.sweep", "MAX_PAD", "{}"),
    ("sweeps.md", "0-500, at most {};", "toolproof.scoring.sweep", "MAX_LEVELS", "{}"),
    ("cli.md", "At most {} files.", "toolproof.scoring.board", "MAX_RUNS", "{}"),
    ("page.md", "at most {} runs and", "toolproof.reports.kept_runs", "MAX_RUNS", "{}"),
    ("page.md", "runs and {} MB together", "toolproof.reports.kept_runs", "MAX_TOTAL_BYTES", "MB"),
]
WORDS = {4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine", 10: "ten", 12: "twelve"}


@pytest.mark.parametrize("doc, sentence, module, name, written", FIGURES,
                         ids=[f"{f[0]}:{f[3]}" for f in FIGURES])
def test_a_figure_the_docs_quote_is_the_codes(doc, sentence, module, name, written):
    value = _constant(module, name)
    if written == "words":          # a count of a table's entries, in words
        figure = WORDS[len(value)]
    elif written == "MB":
        figure = f"{value / 1_000_000:g}"
    else:
        figure = written.format(value)
    text = (ROOT / "docs" / doc).read_text(encoding="utf-8")
    text = re.sub(r"\s+", " ", text)         # a sentence may wrap
    assert sentence.format(figure) in text, f"{doc} should say {sentence.format(figure)!r} ({module}.{name})"
