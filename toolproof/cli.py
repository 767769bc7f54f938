"""The terminal edge: `python -m toolproof selftest | grade` (and later `run`).

Reads files, parses flags, prints. All logic lives in the pure modules; `run()` takes its
streams so tests call it in-process. Exit codes: 0 ok, 1 gate failed, 2 usage or input error.
"""
from __future__ import annotations

import argparse
import contextlib
import sys
from typing import TextIO

from .datafiles import load_bundle
from .errors import ToolProofError
from .evaluate import evaluate
from .report import render_text, to_json
from .suite import CATEGORIES


class _UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one clear line instead of usage + message
        raise _UsageError(message)


def parse_weights(pairs: list[str]) -> dict:
    """["multi_step=30", ...] -> {"multi_step": 30.0}; refuse anything else with a reason."""
    weights = {}
    for pair in pairs:
        category, sep, value = pair.partition("=")
        if not sep or category not in CATEGORIES:
            raise ToolProofError(f"--weight wants CATEGORY=W with CATEGORY one of "
                                 f"{', '.join(CATEGORIES)}; got {pair!r}")
        try:
            weights[category] = float(value)
        except ValueError:
            raise ToolProofError(f"--weight {pair!r}: {value!r} is not a number") from None
    return weights


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m toolproof", description="Deterministic tool-call evaluation.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    commands.add_parser("selftest", help="run the built-in assertions on the committed data")
    grade = commands.add_parser("grade", help="grade transcripts (default: data/fixtures.json)")
    grade.add_argument("--transcripts", metavar="FILE", help="transcripts or results file")
    grade.add_argument("--suite", metavar="FILE", help="suite file (default data/suite.json)")
    grade.add_argument("--tools", metavar="FILE", help="tools file (default data/tools.json)")
    grade.add_argument("--weight", metavar="CATEGORY=W", action="append", default=[],
                       help="override a category weight (repeatable)")
    grade.add_argument("--format", choices=("text", "json"), default="text")
    return parser


def _grade(args: argparse.Namespace, stdout: TextIO) -> int:
    weights = parse_weights(args.weight)
    bundle = load_bundle(tools=args.tools, suite=args.suite, transcripts=args.transcripts)
    card = evaluate(bundle.cases, bundle.tools, bundle.transcripts, weights)
    stdout.write(to_json(card) if args.format == "json" else render_text(card))
    return 0


def _selftest(stdout: TextIO) -> int:
    from .selftest import run_selftest

    bundle = load_bundle()
    report = run_selftest(bundle.documents, schemas=_schemas())
    for failure in report.failures:
        stdout.write(f"FAIL {failure}\n")
    stdout.write(report.summary() + "\n")
    return 0 if not report.failures else 1


def _schemas() -> dict:
    from .datafiles import format_schema

    return {name: format_schema(name) for name in ("tools", "suite", "transcripts")}


def run(argv: list[str] | None = None, stdout: TextIO = sys.stdout, stderr: TextIO = sys.stderr) -> int:
    try:
        with contextlib.redirect_stdout(stdout):      # --help goes where the caller says
            args = _parser().parse_args(argv)
        if args.command == "selftest":
            return _selftest(stdout)
        return _grade(args, stdout)
    except _UsageError as exc:
        stderr.write(f"toolproof: usage error: {exc}\n")
        return 2
    except ToolProofError as exc:
        stderr.write(f"toolproof: {exc.line()}\n")
        return 2
    except SystemExit as exc:                          # argparse after --help
        return exc.code if isinstance(exc.code, int) else 0


def main(argv: list[str] | None = None) -> int:
    return run(argv)
