"""The terminal edge: argv, files, stdout, urllib and MCP servers. `main` parses and dispatches to
one module per verb; nothing below this folder imports it.
"""
from __future__ import annotations

from .main import main, run

__all__ = ['main', 'run']
