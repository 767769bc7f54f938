"""The browser edge: DOM, storage and fetch through PyScript. `main` is the page's script and wires
the panels (one module per panel); nothing below this folder imports it. This file imports
nothing: importing a panel must not start the page.
"""
