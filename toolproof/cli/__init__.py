"""The terminal edge: argv, files, stdout, urllib and MCP servers. `main` parses and dispatches to
one module per verb; nothing below this folder imports it. This file re-exports nothing: the
name `toolproof.cli.main` must stay the module (the console script is `toolproof.cli.main:main`).
"""
