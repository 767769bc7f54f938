"""serve.py's parts: fetch ToolProof's pinned browser runtime into vendor/, check it, and serve or
bundle the site. serve.py itself keeps only the flags and main; each part is a module here.

Must not: import anything but the standard library, and never the toolproof package (serve.py
runs in a fresh clone with nothing installed, and reads toolproof/ only as files it serves);
print or exit (main does, once, from a ServingError); ship in the wheel (setup.py packages
toolproof* only; the sdist carries serving/ through MANIFEST.in).
"""
