"""Flags that several verbs share: the report files (--junit, --markdown, --html), the suite files
(--suite, --tools), prices and --weight, added to a verb's parser and read back from its args
(report_outputs and suite_inputs list them for files.check_outputs).

Only argparse and the report writes that the flags ask for; no verb's own logic, no printing:
a bad value raises ToolProofError for `run` in main.py to show.
"""
from __future__ import annotations

import argparse
from pathlib import Path

from toolproof.datafiles import DATA
from toolproof.errors import ToolProofError
from toolproof.scoring.scorecard import check_weights
from toolproof.suite.model import CATEGORIES


def parse_weights(pairs: list[str]) -> dict:
    """["multi_step=30", ...] -> {"multi_step": 30.0}; refuse anything else with a reason, and
    weights the score cannot use (scorecard.check_weights), before a run sends anything."""
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
    check_weights(weights)
    return weights


def suite_inputs(args: argparse.Namespace) -> list[tuple[str, Path]]:
    """The suite, tools, world and arms files a verb reads (the defaults when not given), named as
    files.check_outputs names an input: no output may replace one (`run --worlds w.json --out
    w.json --force` overwrote the world it ran)."""
    return [("the suite file", Path(args.suite or DATA / "suite.json")),
            ("the tools file", Path(args.tools or DATA / "tools.json")),
            *(("the world file", Path(w)) for w in getattr(args, "worlds", None) or []),
            *(("the arms file", Path(a)) for a in [getattr(args, "arms", None)] if a)]


def report_outputs(args: argparse.Namespace) -> list[tuple[str, str | None]]:
    """(flag, path) of every report file a verb's flags ask for (--junit, --markdown, --html)."""
    return [(flag, getattr(args, flag[2:], None)) for flag in ("--junit", "--markdown", "--html")]


def suite_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--suite", metavar="FILE", help="suite file (default data/suite.json)")
    parser.add_argument("--tools", metavar="FILE", help="tools file (default data/tools.json)")


def worlds_flag(parser: argparse.ArgumentParser) -> None:
    """--worlds FILE (repeatable): the world files whose scenario transcripts a results file holds."""
    parser.add_argument("--worlds", metavar="FILE", action="append", default=[],
                        help="a world file whose scenarios the runs ran (repeatable; default the bundled "
                             "data/worlds/*.json)")


def worlds_of(files: list[str]) -> dict:
    """The World records by id: the files named, else the bundled worlds (as `grade` takes them)."""
    # lazy: the world files are read only by the verbs that grade scenarios, when they run
    from toolproof.datafiles import bundled_worlds, load_world_files

    return load_world_files(files) if files else bundled_worlds()


def price_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--price-in", type=float, metavar="USD", help="USD per million input tokens (adds cost.usd)")
    parser.add_argument("--price-out", type=float, metavar="USD", help="USD per million output tokens")


def report_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--junit", metavar="FILE", help="also write a JUnit XML report")
    parser.add_argument("--markdown", metavar="FILE", help="also write the Markdown report "
                        "(e.g. --markdown \"$GITHUB_STEP_SUMMARY\")")


def write_reports(args: argparse.Namespace, junit: str, markdown: str) -> None:
    """--junit and --markdown files; a file that cannot be written is an input error."""
    for path, text in ((args.junit, junit), (args.markdown, markdown)):
        if not path:
            continue
        try:
            Path(path).write_text(text, encoding="utf-8")
        except OSError as exc:
            raise ToolProofError(f"cannot write report ({exc.__class__.__name__}: {exc.strerror or exc})",
                                 source=path) from None


def html_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--html", metavar="FILE", help="also write one self-contained HTML report "
                        "(inline CSS and SVG, no script, no external request)")


def write_text(path: str, text: str, flag: str) -> None:
    """A report file the user named; a file that cannot be written is an input error."""
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise ToolProofError(f"{flag}: cannot write ({exc.__class__.__name__}: {exc.strerror or exc})",
                             source=path) from None
