"""`python -m toolproof selftest`: run the built-in assertions (selftest.checks) on the committed
data files and their format schemas, print each failure and a summary.

Reads the committed data and prints; the assertions themselves are pure and live in
toolproof/selftest/. It takes no flags and never exits: exit code 0 all held, 1 any failed.
"""
from __future__ import annotations

import argparse
from typing import TextIO

from toolproof.datafiles import format_schema, load_bundle
from toolproof.safe_text import printable


def add_parser(commands) -> None:
    commands.add_parser("selftest", help="run the built-in assertions on the committed data")


def handle(args: argparse.Namespace, stdout: TextIO, stderr: TextIO, environ: dict) -> int:
    # lazy: every verb loads with the parser; what only this verb uses loads when it runs
    from toolproof.selftest.checks import run_selftest

    bundle = load_bundle()
    report = run_selftest(bundle.documents, schemas=_schemas())
    for failure in report.failures:
        stdout.write(printable(f"FAIL {failure}") + "\n")
    stdout.write(report.summary() + "\n")
    return 0 if not report.failures else 1


def _schemas() -> dict:
    return {name: format_schema(name) for name in ("tools", "suite", "transcripts")}
