"""`python -m toolproof grade`: grade a transcripts or results file (default data/fixtures.json)
against the suite and print the scorecard as text, JSON or one HTML file, with optional JUnit,
Markdown and HTML files. Scenario transcripts in the file are graded beside the cases, against the
bundled worlds (data/worlds/*.json) or the world files `--worlds` names.
A results file made before some of the suite's errata gets them on its card (`errata`), and the
text lists them, one line each.

Reads files and prints; the grading and scoring are the pure modules' (scoring.evaluate). It never
exits or catches ToolProofError: `run` in main.py turns that into one line and exit code 2.
"""
from __future__ import annotations

import argparse
from typing import TextIO

from .files import check_outputs
from .flags import (html_flag, parse_weights, price_flags, report_flags, report_outputs, suite_flags, suite_inputs,
                    worlds_flag, write_reports, write_text)
from toolproof.datafiles import (DATA, Bundle, bundle_from, bundled_worlds, load_errata, load_suite_files, load_world_files,
                                 read_documents)
from .arms import results_card
from toolproof.scoring.evaluate import evaluate
from toolproof.reports.scorecard import render_markdown, render_text, to_json
from toolproof.scoring.cost import check_prices
from toolproof.scoring.results_doc import with_errata
from toolproof.suite.errata import applying


def add_parser(commands) -> None:
    grade = commands.add_parser("grade", help="grade transcripts (default: data/fixtures.json)")
    grade.add_argument("--transcripts", metavar="FILE", help="transcripts or results file")
    suite_flags(grade)
    worlds_flag(grade)
    grade.add_argument("--errata", metavar="FILE",
                       help="errata file (default data/errata.json, read only with the default suite)")
    grade.add_argument("--weight", metavar="CATEGORY=W", action="append", default=[],
                       help="override a category weight (repeatable)")
    grade.add_argument("--format", choices=("text", "json", "html"), default="text",
                       help="html: the self-contained report --html writes (what the page's Export HTML saves)")
    price_flags(grade)
    report_flags(grade)
    html_flag(grade)


def handle(args: argparse.Namespace, stdout: TextIO, stderr: TextIO, environ: dict) -> int:
    # lazy: every verb loads with the parser; what only this verb uses loads when it runs
    from toolproof.reports.junit import junit_xml

    check_outputs(report_outputs(args), [("the transcripts file", args.transcripts or DATA / "fixtures.json"),
                                         *suite_inputs(args), ("the errata file", args.errata or DATA / "errata.json")])
    weights = parse_weights(args.weight)
    prices = check_prices(args.price_in, args.price_out)
    read = read_documents(tools=args.tools, suite=args.suite, transcripts=args.transcripts)
    worlds = load_world_files(args.worlds) if args.worlds else bundled_worlds()
    results = read["docs"]["transcripts"]
    if isinstance(results, dict) and "arms" in results:     # a run with arms: the baseline's card and the arms block
        bundle = load_suite_files(suite=args.suite, tools=args.tools)
        card = results_card(results, bundle, weights, prices, worlds, read["paths"]["transcripts"])
    else:
        bundle = bundle_from(read)
        card = evaluate(bundle.cases, bundle.tools, bundle.transcripts, weights, prices=prices, worlds=worlds)
    card = with_errata(card, errata_for(args, bundle, results))
    write_reports(args, junit_xml(card), render_markdown(card))
    if args.html or args.format == "html":
        # lazy: every verb loads with the parser; what only this verb uses loads when it runs
        from toolproof.reports.html_scorecard import scorecard_html

        html = scorecard_html(card, bundle.cases, worlds)
        if args.html:
            write_text(args.html, html, "--html")
    stdout.write({"json": to_json, "html": lambda _: html}.get(args.format, render_text)(card))
    return 0


def errata_for(args: argparse.Namespace, bundle: Bundle, results: dict) -> list:
    """The errata that apply to the graded file. data/errata.json records the committed suite's
    changes, so with a suite of one's own (--suite) it is not read unless --errata names a file."""
    if args.suite and not args.errata:
        return []
    return applying(results, load_errata(args.errata), bundle.documents["suite"])
