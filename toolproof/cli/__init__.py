"""The terminal edge: argv, files, stdout, urllib and MCP servers. `main` parses and dispatches to
one module per verb; nothing below this folder imports it. This file imports nothing, as page/'s
does: re-exporting the function `main` here hid the module `toolproof.cli.main` behind it, and
importing one verb's module should not load every other.
"""
