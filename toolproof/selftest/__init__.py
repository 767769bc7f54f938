"""The self-check that runs the same assertions in the terminal (`python -m toolproof selftest`)
and in the page (`?selftest=1`). It never reads files: its data is handed in.
"""
from __future__ import annotations

from .checks import run_selftest

__all__ = ['run_selftest']
