"""A small fake repository for serve.py's tests: the page's files, things that must never be
served or published (.git/, tests/, serve.py and serving/, .env, a build script, a module the
page does not load, a symbolic link out), and a vendor/ with a manifest as a fetch would have
written it."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

from serving.lock import LOCK_NAME
from serving.vendor import write_manifest

PAGE_CONFIG = {"files": {"./page-files.zip": "./*"},
               "page_files": ["toolproof/__init__.py", "toolproof/page/main.py", "toolproof/web.py",
                              "data/tools.json", "data/schemas/tools.schema.json"]}
FILES = {
    "index.html": "<meta content=\"connect-src 'self' https://api.openai.com\">",
    "sw.js": "// service worker", "web/boot.mjs": "// boot", "web/style.css": "body{}", "web/pyscript_config.py": "# build",
    "web/pyscript.json": json.dumps(PAGE_CONFIG),
    "toolproof/__init__.py": "", "toolproof/web.py": "# page", "toolproof/page/main.py": "# the page's entry", "toolproof/cli.py": "# not loaded",
    "toolproof/_version.py": '__version__ = "9.8.7"\n',
    "data/tools.json": "{}", "data/schemas/tools.schema.json": "{}", "data/notes.txt": "no",
    "data/results.json": '{"model": "a results file saved here stays private"}',
    "data/.secret.json": "{}", "serve.py": "# server", "serving/server.py": "# server",
    "pyproject.toml": "", "README.md": "", ".env": "KEY=1", "tests/test_x.py": "", ".git/HEAD": "ref",
    "benchmarks/bare.html": "<p>",
    "benchmarks/b.py": "", "vendor/pyodide/pyodide.mjs": "export {}", "vendor/pyodide/pyodide.asm.wasm": "\0asm",
    "vendor/pyodide/unused.js": "u", "vendor/wheels/a-1-py3-none-any.whl": "PK",
}
LOCK = {"artifacts": [{"name": "pyodide", "version": "1", "source": "npm", "unpack": "package/",
                       "dest": "pyodide", "file": "p.tgz", "sha256": "0" * 64},
                      {"name": "a", "version": "1", "source": "pip", "dest": "wheels",
                       "file": "a-1-py3-none-any.whl", "sha256": "1" * 64}],
        "page_loads": {"boot": ["pyodide/pyodide.mjs", "pyodide/pyodide.asm.wasm"],
                       "on_demand": ["wheels/a-1-py3-none-any.whl"]}}


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def fake_repo(root: Path) -> tuple[dict, dict[str, str]]:
    """Write the fake repository under root; return (lock, vendor manifest files)."""
    for rel, text in FILES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    lock = json.loads(json.dumps(LOCK))
    (root / LOCK_NAME).write_text(json.dumps(lock))
    vendor = {rel.split("/", 1)[1]: sha((root / rel).read_bytes())
              for rel in FILES if rel.startswith("vendor/")}
    write_manifest(root / "vendor", lock, vendor)
    return lock, vendor
