"""serve.py's parts: fetch ToolProof's pinned browser runtime into vendor/, check it, and serve or
bundle the site. serve.py itself keeps only the flags and main; each part is a module here:

    errors   ServingError, the one family main() turns into a line (VendorError, ListenError)
    lock     vendor.lock.json: the pins, read and checked
    fetch    npm pack / pip download into a temporary folder, each file against its sha256
    unpack   npm tarballs into vendor/, refusing members that could land outside it
    vendor   vendor/ and its manifest: fetch once, check every file on every start
    node     the vendored Pyodide run under Node.js, for what serve.py makes from it, when there is one
    bytecode the page's modules precompiled that way
    snapshot Pyodide's memory right after start-up, taken that way, which the page restores
    site     the allow-list of what a browser may load, and the page's CSP as served
    archive  web/page-files.zip: the page's package and data files (and bytecode) in one request
    server   the local HTTP server for the site
    bundle   --bundle DIR: the site as plain files for any static host

Each imports only the ones above it in this list (and the standard library).

Must not: import anything but the standard library, and never the toolproof package (serve.py
runs in a fresh clone with nothing installed, and reads toolproof/ only as files it serves);
print (but the server's request log) or exit (main does, once, from a ServingError); ship in
the wheel (setup.py packages toolproof* only; the sdist carries serving/ through MANIFEST.in).
tests/serving/test_imports.py holds every module to the imports, the order and the docstring.
"""
