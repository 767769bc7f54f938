"""The scorecard's parts: the view (summary, rates, cost, categories, exports) and the sections it
draws (diagnosis, wording, sweep chart, case list). Every panel that shows a scorecard imports
them from here; they may import each other and the page's shared helpers (page/dom.py), never a
panel. Empty on purpose: importing the package loads nothing a panel did not ask for.
"""
