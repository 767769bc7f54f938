"""`python -m toolproof`: hands over to the CLI edge, the same `main` as the `toolproof` script.

Guarded, so importing this module (a doc tool, a test walking the package) never exits.
"""
from __future__ import annotations

from toolproof.cli.main import main

if __name__ == "__main__":
    raise SystemExit(main())
