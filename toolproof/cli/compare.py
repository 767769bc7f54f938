"""`python -m toolproof compare A B`: grade two results files against the same suite and print
how B differs from A (text, JSON or one HTML file), with optional JUnit, Markdown and HTML files
and a regression gate.

Reads files and prints; pairing the runs, the statistics and the gate are the pure modules'
(scoring.comparison, reports.comparison). It never exits or catches ToolProofError: `run` in
main.py does. Exit codes: 0, 1 when --fail-on-regression trips.
"""
from __future__ import annotations

import argparse
from typing import TextIO

from .files import check_outputs
from .flags import (html_flag, report_flags, report_outputs, suite_flags, suite_inputs, worlds_flag, worlds_of,
                    write_reports, write_text)
from toolproof.datafiles import format_schema, load_suite_files, read_json
from toolproof.errors import ToolProofError
from toolproof.plurals import counted
from toolproof.safe_text import printable


def add_parser(commands) -> None:
    compare = commands.add_parser("compare", help="compare two results files (B against A)")
    compare.add_argument("a", metavar="A", help="results file or page export of the first run")
    compare.add_argument("b", metavar="B", help="results file or page export of the second run")
    compare.add_argument("--format", choices=("text", "json", "html"), default="text",
                         help="html: the self-contained report --html writes (what the page's Export HTML saves)")
    compare.add_argument("--fail-on-regression", action="store_true",
                         help="exit 1 when the score delta's 95%% interval lies entirely below 0")
    compare.add_argument("--arm", metavar="NAME", help="a results file with arms: compare this arm of it (default: "
                         "its baseline, the first arm)")
    compare.add_argument("--allow-mixed", action="store_true",
                         help="compare runs of different (or unrecorded) suites on their shared case ids")
    suite_flags(compare)
    worlds_flag(compare)
    report_flags(compare)
    html_flag(compare)


def handle(args: argparse.Namespace, stdout: TextIO, stderr: TextIO, environ: dict) -> int:
    # lazy: every verb loads with the parser; what only this verb uses loads when it runs
    from toolproof.reports.comparison import comparison_json, render_comparison_markdown, render_comparison_text
    from toolproof.reports.junit import comparison_junit
    from toolproof.scoring.comparison import compare_runs, graded_run, regression_gate
    from toolproof.arms.analysis import arm_document

    check_outputs(report_outputs(args), [("results file A", args.a), ("results file B", args.b), *suite_inputs(args),
                                         *(("the world file", w) for w in args.worlds)])
    bundle = load_suite_files(suite=args.suite, tools=args.tools)
    schema = format_schema("transcripts")
    worlds = worlds_of(args.worlds)
    docs = [read_json(path) for path in (args.a, args.b)]
    if args.arm is not None and not any(isinstance(d, dict) and "arms" in d for d in docs):
        raise ToolProofError("--arm picks an arm of a results file with arms; neither file holds arms")
    docs = [arm_document(d, args.arm, path) if isinstance(d, dict) and "arms" in d else d
            for d, path in zip(docs, (args.a, args.b))]
    runs = [graded_run(doc, bundle.cases, bundle.tools, schema, path, worlds) for doc, path in zip(docs, (args.a, args.b))]
    comparison = compare_runs(*runs, allow_mixed=args.allow_mixed)
    write_reports(args, comparison_junit(comparison), render_comparison_markdown(comparison))
    if args.html or args.format == "html":
        # lazy: every verb loads with the parser; what only this verb uses loads when it runs
        from toolproof.reports.html_comparison import comparison_html

        html = comparison_html(comparison)
        if args.html:
            write_text(args.html, html, "--html")
    stdout.write({"json": comparison_json, "html": lambda _: html}.get(args.format, render_comparison_text)(comparison))
    errored = comparison["comparison"]["errored"]
    if errored:      # the gate cannot see these: say so, so an endpoint outage is not read as "no regression"
        stderr.write(printable(f"toolproof: {counted(len(errored), 'case')} not graded in both runs (ERROR), left out "
                               f"of the comparison: {', '.join(errored)}") + "\n")
    failed = regression_gate(comparison) if args.fail_on_regression else None
    if failed:
        stderr.write(printable(f"toolproof: {failed}") + "\n")
        return 1
    return 0
