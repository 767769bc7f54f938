"""errors.failure_line: any failure as the one line a page panel shows (issue 36 item 3)."""
from __future__ import annotations

from toolproof.errors import ToolProofError, failure_line


class JsException(Exception):
    """Named as Pyodide names a browser's error (pyodide.ffi.JsException is not importable here)."""


def test_a_refusal_keeps_its_own_line():
    assert failure_line(ToolProofError("file is 21.0 MB, over the 20 MB limit", source="t.json")) == \
        "t.json: file is 21.0 MB, over the 20 MB limit"


def test_a_browser_error_is_what_the_browser_said():
    assert failure_line(JsException("Error: the file went away")) == "the browser said: Error: the file went away"


def test_any_other_failure_is_its_kind_and_first_words_on_one_line():
    assert failure_line(ValueError("bad\nthing\r\n  here")) == "ValueError: bad thing here"
    assert failure_line(RuntimeError()) == "RuntimeError"
    assert failure_line(MemoryError()) == "not enough memory for this"
    long = failure_line(KeyError("x" * 100_000))
    assert len(long) < 400 and "more)" in long and "\n" not in long
