"""The one error family of serve.py's parts: a problem the user can fix, told in one line.

For: every part raises one of these with a message that names the file, value or port and the
fix; serve.py's main catches ServingError, prints `serve.py: <message>` and exits 1.
Must not: print, exit, or hold a newline or a traceback in a message; a bug is not a
ServingError (it keeps its traceback).
"""
from __future__ import annotations


class ServingError(Exception):
    """A problem the user can fix; main() prints it as one line, without a traceback."""


class VendorError(ServingError):
    """The lock, a download, vendor/ or the site's files are not what they must be (and, for
    now, a bad --connect origin or --bundle folder)."""


class ListenError(ServingError):
    """The server cannot listen on the host and port asked for (in use, or not allowed)."""
