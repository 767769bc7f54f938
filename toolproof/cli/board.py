"""`python -m toolproof board RESULTS...`: grade several results files against the same suite and
print the leaderboard (text, JSON, Markdown or HTML), to stdout or to --out, with --html beside.

Reads files and prints; the ranking, the pairwise tests and the rendering are the pure modules'
(scoring.board, reports.board, reports.html_board). It never exits or catches ToolProofError:
`run` in main.py turns it into one line and exit code 2.
"""
from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TextIO

from toolproof.datafiles import format_schema, load_suite_files, read_json
from toolproof.errors import ToolProofError
from .files import check_outputs
from .flags import html_flag, suite_flags, suite_inputs, worlds_flag, worlds_of, write_text


def add_parser(commands) -> None:
    board = commands.add_parser("board", help="rank several results files: scores, intervals, pairwise tests")
    board.add_argument("results", metavar="RESULTS", nargs="+", help="results files or page exports, one per run")
    board.add_argument("--format", choices=("text", "json", "markdown", "html"), default="text")
    board.add_argument("--out", metavar="FILE", help="write the board to FILE instead of printing it")
    board.add_argument("--allow-mixed", action="store_true",
                       help="rank runs of different (or unrecorded) suites on the case ids all of them hold")
    suite_flags(board)
    worlds_flag(board)
    html_flag(board)


def render(board: dict, form: str) -> str:
    """The board in one of the four formats."""
    # lazy: every verb loads with the parser; what only this verb uses loads when it runs
    from toolproof.reports.board import board_json, render_board_markdown, render_board_text
    from toolproof.reports.html_board import board_html

    return {"text": render_board_text, "json": board_json, "markdown": render_board_markdown,
            "html": board_html}[form](board)


def board_of(paths: list[str], *, suite: str | None, tools: str | None, allow_mixed: bool,
             read: Callable[[str], object] = read_json, worlds: list[str] | None = None) -> dict:
    """Read the files and build the board (run --model a,b,c calls this on what it wrote, `read`
    through its folder's handle); `worlds`: the world files (default the bundled ones)."""
    # lazy: every verb loads with the parser; what only this verb uses loads when it runs
    from toolproof.scoring.board import MAX_RUNS, build_board
    from toolproof.arms.analysis import arm_documents

    if len(paths) > MAX_RUNS:           # before reading any of them
        raise ToolProofError(f"at most {MAX_RUNS} results files on one board, got {len(paths)}")
    bundle = load_suite_files(suite=suite, tools=tools)
    runs = []
    for path in paths:                  # a results file with arms: one row per arm that was run
        doc = read(path)
        runs += arm_documents(doc, path) if isinstance(doc, dict) and "arms" in doc else [(doc, path)]
    return build_board(runs, bundle.cases, bundle.tools, format_schema("transcripts"), allow_mixed=allow_mixed,
                       worlds=worlds_of(worlds or []))


def handle(args: argparse.Namespace, stdout: TextIO, stderr: TextIO, environ: dict) -> int:
    # lazy: every verb loads with the parser; what only this verb uses loads when it runs
    from toolproof.reports.html_board import board_html

    check_outputs([("--out", args.out), ("--html", args.html)],
                  [*(("one of the results files", p) for p in args.results), *suite_inputs(args),
                   *(("the world file", w) for w in args.worlds)])
    board = board_of(args.results, suite=args.suite, tools=args.tools, allow_mixed=args.allow_mixed,
                     worlds=args.worlds)
    text = render(board, args.format)
    if args.html:
        write_text(args.html, board_html(board), "--html")
    if args.out:
        write_text(args.out, text, "--out")
    else:
        stdout.write(text)
    return 0
