"""The command line run in-process, for the tests: one helper instead of a copy per test file.

`cli(*argv)` answers (exit code, stdout, stderr); `environ=` is the environment the command sees
(None: the process's own, as `toolproof` on a terminal). A file whose tests all run with one key
binds it once with `cli_with(ENV)` (a test may still pass its own `environ=`). `cli_output` is
for the tests that only want what a command printed: it asserts the exit code is one of `codes`
(stderr is the message when not) and answers stdout.

It must not start servers or touch files: the tests pass it the paths and the fake provider.
"""
from __future__ import annotations

import io
from typing import Callable

from toolproof.cli.main import run


def cli(*argv: str, environ: dict | None = None) -> tuple[int, str, str]:
    stdout, stderr = io.StringIO(), io.StringIO()
    code = run(list(argv), stdout=stdout, stderr=stderr, environ=environ)
    return code, stdout.getvalue(), stderr.getvalue()


def cli_with(default: dict) -> Callable[..., tuple[int, str, str]]:
    """`cli` whose environment is `default` unless a call passes its own (None: the default,
    so a helper can hand on an `environ=None` it was given)."""
    def bound(*argv: str, environ: dict | None = None) -> tuple[int, str, str]:
        return cli(*argv, environ=default if environ is None else environ)
    return bound


def cli_output(*argv: str, codes: tuple[int, ...] = (0,)) -> str:
    code, stdout, stderr = cli(*argv)
    assert code in codes, stderr
    return stdout
