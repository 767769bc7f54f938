"""Write web/pyscript.json: the files PyScript puts into the page's virtual file system.

    python web/pyscript_config.py          # after adding or removing a module in toolproof/

"page_files" lists them by their path in the repository; serve.py and --bundle pack them into one
archive, web/page-files.zip (serving/archive.py), which PyScript unpacks into Pyodide's working
directory, so the page sees the same `toolproof/` and `data/` tree as the terminal. The
jsonschema wheels are not listed: the page fetches them only if a schema needs them
(toolproof/page/main.py, load_jsonschema), which the committed data never does.
tests/test_page.py fails when the committed file differs from what this script writes.
"""
from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ["data/tools.json", "data/suite.json", "data/fixtures.json", "data/errata.json",
        "data/schemas/tools.schema.json", "data/schemas/suite.schema.json", "data/schemas/transcripts.schema.json",
        "data/schemas/errata.schema.json"]


# Package files the page does not load. Every listed file makes the archive fetched before Python
# starts bigger, so the terminal's edge stays out: toolproof/cli/ (argv, files, urllib, and mcp_stdio, which starts
# a process, as a page cannot) and __main__.py, which only starts the CLI. The importers and lint
# serve the page's "Your tools and cases" section; they are fetched with the rest (about 60 kB from
# the page's own origin) but imported only when that section is used.
NOT_IN_PAGE = ("toolproof/cli/", "toolproof/__main__.py")


def in_page(rel: str) -> bool:
    return not rel.startswith(NOT_IN_PAGE)


def worlds() -> list[str]:
    """The bundled worlds (data/worlds/*.json) and their schema, when there: the page runs and
    checks scenarios as the terminal does (datafiles.bundled_worlds reads the same folder)."""
    found = [p.relative_to(ROOT).as_posix() for p in sorted((ROOT / "data" / "worlds").glob("*.json"))]
    schema = ROOT / "data" / "schemas" / "world.schema.json"
    return found + ([schema.relative_to(ROOT).as_posix()] if schema.is_file() else [])


def config() -> dict:
    files = [path.relative_to(ROOT).as_posix() for path in sorted((ROOT / "toolproof").rglob("*.py"))]
    files = [rel for rel in files if in_page(rel)] + DATA + worlds()
    # PyScript's optional plugins (editor, terminal, game, error overlay, ...) are not used by the
    # page; not loading them keeps them off the start-up path. Errors go to our own #boot-error.
    plugins = ["!error", "!py-editor", "!py-terminal", "!py-game", "!deprecations-manager", "!donkey"]
    # The page's Python runs in a worker (index.html: `<script type="py" worker>`), where PyScript
    # resolves "interpreter", like "files", against this file's address (web/): both stay
    # relative, so the page works from any sub-path. "interpreter" is web/runtime.mjs, the vendored
    # Pyodide restored from serve.py's snapshot of its memory when there is one. "files": one archive of the package and data
    # files (serving/archive.py builds it from "page_files"), unpacked into the working directory.
    return {"interpreter": "./runtime.mjs", "plugins": plugins,
            "files": {"./page-files.zip": "./*"}, "page_files": files}


def text() -> str:
    return json.dumps(config(), indent=2) + "\n"


if __name__ == "__main__":
    (ROOT / "web" / "pyscript.json").write_text(text())
    print("wrote web/pyscript.json")
