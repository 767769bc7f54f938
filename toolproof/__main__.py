"""`python -m toolproof`: hands over to the CLI edge."""
from __future__ import annotations

from .cli import main

raise SystemExit(main())
