"""Writing your own tools and cases: lint for tool definitions and the page's draft suite.
Pure; files are read by the edges (cli/, page/).
"""
