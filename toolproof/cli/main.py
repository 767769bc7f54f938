"""The terminal edge: `python -m toolproof selftest | grade | compare | board | run | tools | suite`.

Only the top-level parser, the table of verbs and the one place errors become a line and an exit
code. Each verb lives in its own module (grade.py, compare.py, board.py, selftest.py, run_verb.py for `run`,
tools.py, suite.py) with `add_parser(commands)` and `handle(args, stdout, stderr, environ)`; no
verb's flags or logic belong here. `run()` takes its streams so tests call it in-process; only
`main` is for the console script. Exit codes: 0 ok, 1 gate failed, 2 usage or input error.
"""
from __future__ import annotations

import argparse
import contextlib
import os
import sys
from typing import TextIO

from toolproof._version import __version__
from . import board, compare, grade, run_verb, selftest, suite, tools
from toolproof.errors import ToolProofError
from toolproof.safe_text import printable

# command -> its module; the order is the order `--help` lists them in
VERBS = {"selftest": selftest, "grade": grade, "compare": compare, "board": board, "run": run_verb, "tools": tools, "suite": suite}


class _UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one clear line instead of usage + message
        raise _UsageError(message)


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m toolproof", description="Deterministic tool-call evaluation.")
    parser.add_argument("--version", action="version", version=f"toolproof {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for verb in VERBS.values():
        verb.add_parser(commands)
    return parser


def run(argv: list[str] | None = None, stdout: TextIO = sys.stdout, stderr: TextIO = sys.stderr,
        environ: dict | None = None) -> int:
    try:
        with contextlib.redirect_stdout(stdout):      # --help goes where the caller says
            args = _parser().parse_args(argv)
        environ = dict(os.environ) if environ is None else environ
        return VERBS[args.command].handle(args, stdout, stderr, environ)
    except _UsageError as exc:
        stderr.write(printable(f"toolproof: usage error: {exc}") + "\n")
        return 2
    except ToolProofError as exc:       # the line may quote a file: shown escaped, one line
        stderr.write(printable(f"toolproof: {exc.line()}") + "\n")
        return 2
    except SystemExit as exc:                          # argparse after --help
        return exc.code if isinstance(exc.code, int) else 0


def main(argv: list[str] | None = None) -> int:
    return run(argv)
