"""A live run: the plan of work items, the loop that sends them through a transport handed in by an
edge (the CLI's urllib, the page's fetch), retries and the cap. It does no I/O of its own.
"""
