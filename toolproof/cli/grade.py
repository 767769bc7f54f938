"""`python -m toolproof grade`: grade a transcripts or results file (default data/fixtures.json)
against the suite and print the scorecard as text or JSON, with optional JUnit and Markdown files.

Reads files and prints; the grading and scoring are the pure modules' (scoring.evaluate). It never
exits or catches ToolProofError: `run` in main.py turns that into one line and exit code 2.
"""
from __future__ import annotations

import argparse
from typing import TextIO

from .flags import html_flag, parse_weights, price_flags, report_flags, suite_flags, write_reports, write_text
from toolproof.datafiles import load_bundle
from toolproof.scoring.evaluate import evaluate
from toolproof.reports.scorecard import render_markdown, render_text, to_json
from toolproof.scoring.cost import check_prices


def add_parser(commands) -> None:
    grade = commands.add_parser("grade", help="grade transcripts (default: data/fixtures.json)")
    grade.add_argument("--transcripts", metavar="FILE", help="transcripts or results file")
    suite_flags(grade)
    grade.add_argument("--weight", metavar="CATEGORY=W", action="append", default=[],
                       help="override a category weight (repeatable)")
    grade.add_argument("--format", choices=("text", "json"), default="text")
    price_flags(grade)
    report_flags(grade)
    html_flag(grade)


def handle(args: argparse.Namespace, stdout: TextIO, stderr: TextIO, environ: dict) -> int:
    # lazy: every verb loads with the parser; what only this verb uses loads when it runs
    from toolproof.reports.junit import junit_xml

    weights = parse_weights(args.weight)
    prices = check_prices(args.price_in, args.price_out)
    bundle = load_bundle(tools=args.tools, suite=args.suite, transcripts=args.transcripts)
    card = evaluate(bundle.cases, bundle.tools, bundle.transcripts, weights, prices=prices)
    write_reports(args, junit_xml(card), render_markdown(card))
    if args.html:
        # lazy: every verb loads with the parser; what only this verb uses loads when it runs
        from toolproof.reports.html_scorecard import scorecard_html

        write_text(args.html, scorecard_html(card, bundle.cases), "--html")
    stdout.write(to_json(card) if args.format == "json" else render_text(card))
    return 0
