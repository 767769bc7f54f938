"""The terminal edge: `python -m toolproof selftest | grade | compare | run`.

Reads files, parses flags, prints. All logic lives in the pure modules; `run()` takes its
streams so tests call it in-process. Exit codes: 0 ok, 1 gate failed, 2 usage or input error.
"""
from __future__ import annotations

import argparse
import contextlib
import os
import sys
from typing import TextIO

from toolproof._version import __version__
from . import compare, grade, live, selftest
from .suite import add_suite_verbs, run_suite
from .tools import add_tools_verbs, run_tools
from toolproof.errors import ToolProofError
from toolproof.reports.scorecard import printable


class _UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one clear line instead of usage + message
        raise _UsageError(message)


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m toolproof", description="Deterministic tool-call evaluation.")
    parser.add_argument("--version", action="version", version=f"toolproof {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    selftest.add_parser(commands)
    grade.add_parser(commands)
    compare.add_parser(commands)
    live.add_parser(commands)
    add_tools_verbs(commands)                 # `tools import | lint`: toolproof/cli/tools.py
    add_suite_verbs(commands)                 # `suite validate | import-bfcl`: toolproof/cli/suite.py
    return parser


def run(argv: list[str] | None = None, stdout: TextIO = sys.stdout, stderr: TextIO = sys.stderr,
        environ: dict | None = None) -> int:
    try:
        with contextlib.redirect_stdout(stdout):      # --help goes where the caller says
            args = _parser().parse_args(argv)
        if args.command == "selftest":
            return selftest.handle(args, stdout, stderr, environ)
        if args.command == "run":
            return live.handle(args, stdout, stderr, dict(os.environ) if environ is None else environ)
        if args.command == "tools":
            return run_tools(args, stdout, stderr)
        if args.command == "suite":
            return run_suite(args, stdout, stderr)
        if args.command == "compare":
            return compare.handle(args, stdout, stderr, environ)
        return grade.handle(args, stdout, stderr, environ)
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
