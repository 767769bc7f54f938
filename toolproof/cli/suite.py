"""The terminal edge of `python -m toolproof suite validate | import-bfcl | errata`: read the files,
hand them to the pure loader (suite.load_tools / load_suite) or importer (importers/bfcl.py), print
or write the result. `suite errata` is errata.py's.

`suite validate` also takes a world file (format toolproof.world): it is loaded (a refusal is one
line, exit 2) and every gold and wrong path of every scenario replayed (grading/scenario_paths.py),
one line per path; exit 1 when a gold path does not PASS or a wrong path does not fail with its
`fails_with`.

An edge (files); the checks and the conversion are the pure modules', and it never exits:
main.py registers add_parser and dispatches to handle. Exit codes: validate 0 no problem, 2 any
problem (each listed on its own line with its JSON path), 1 a world's path that does not hold; import-bfcl 0 written, 2 input
(or an --out that is data/ or holds the files already, without --force); errata: see errata.py.
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TextIO

from toolproof.safe_text import printable
from toolproof.datafiles import DATA, format_schema, json_from_text, load_world_files, read_file_bytes, read_json
from toolproof.grading.scenario_paths import check_paths
from toolproof.worlds.model import FORMAT as WORLD_FORMAT
from toolproof.errors import ToolProofError
from toolproof.suite.load import load_suite, load_tools
from toolproof.plurals import counted, plural

from . import errata
from .files import check_outputs, check_writable, guarded_data_folders, write_atomic
from .folder import check_place


def add_parser(commands) -> None:
    """`suite validate` and `suite import-bfcl`, on the CLI's subcommand parser."""
    suite = commands.add_parser("suite", help="validate a suite, import BFCL categories as one, check the errata")
    verbs = suite.add_subparsers(dest="suite_command", required=True, parser_class=type(suite))
    check = verbs.add_parser("validate", help="list every problem of a suite (exit 2 if any), or check a world "
                                              "file and replay its scenarios' paths (exit 1 if one does not hold)")
    check.add_argument("suite", metavar="SUITE", help="a suite file, or a world file")
    check.add_argument("--tools", metavar="FILE", help="tools file (default data/tools.json)")
    bfcl = verbs.add_parser("import-bfcl", help="BFCL data files -> DIR/suite.json and DIR/tools.json")
    bfcl.add_argument("data_dir", metavar="DATA_DIR",
                      help="folder holding BFCL_v4_<category>.json and possible_answer/")
    bfcl.add_argument("--category", required=True, metavar="LIST",
                      help="comma-separated: simple_python,multiple,parallel,parallel_multiple,irrelevance,"
                           "live_simple,live_multiple,live_parallel,live_parallel_multiple,"
                           "live_irrelevance,live_relevance")
    bfcl.add_argument("--limit", type=int, metavar="N", help="first N entries of each category")
    bfcl.add_argument("--out", required=True, metavar="DIR")
    bfcl.add_argument("--force", action="store_true",
                      help="replace suite.json and tools.json already in DIR (never data/)")
    errata.add_parser(verbs)


def handle(args: argparse.Namespace, stdout: TextIO, stderr: TextIO, environ: dict) -> int:
    if args.suite_command == "validate":
        return _validate(args, stdout)
    if args.suite_command == "errata":
        return errata.handle(args, stdout, stderr)
    return _import_bfcl(args, stderr, environ)


def _validate(args: argparse.Namespace, stdout: TextIO) -> int:
    doc = read_json(args.suite)
    if isinstance(doc, dict) and doc.get("format") == WORLD_FORMAT:
        return _validate_world(args.suite, stdout)
    tools_path = args.tools or str(DATA / "tools.json")
    problems: list[tuple[str, str, str]] = []
    tools, found = load_tools(read_json(tools_path), format_schema("tools"), tools_path)
    problems += [(tools_path, path, reason) for path, reason in found]
    cases: list = []
    if tools:           # with no tool loaded every case would only repeat "unknown tool"
        cases, found = load_suite(doc, tools, format_schema("suite"))
        problems += [(args.suite, path, reason) for path, reason in found]
    for source, path, reason in problems:
        stdout.write(printable(ToolProofError(reason, source=source, path=path).line()) + "\n")
    if problems:
        stdout.write(f"suite validate: {counted(len(problems), 'problem')}\n")
        return 2
    stdout.write(f"suite validate: ok ({counted(len(cases), 'case')}, {counted(len(tools), 'tool')})\n")
    return 0


def _validate_world(path: str, stdout: TextIO) -> int:
    """A world file loaded, then each gold and wrong path of its scenarios replayed: one line each."""
    world = next(iter(load_world_files([path]).values()))
    checks = check_paths(world)
    for check in checks:
        stdout.write(printable(check.line) + "\n")
    wrong = sum(not c.holds for c in checks)
    scenarios = counted(len(world.scenarios), "scenario")
    if wrong:
        stdout.write(f"suite validate: {wrong} of {counted(len(checks), 'path')} {plural(wrong, 'does', 'do')} "
                     f"not hold ({scenarios})\n")
        return 1
    stdout.write(f"suite validate: ok (world {world.id}: {scenarios}, {counted(len(checks), 'path')} replayed)\n")
    return 0


def _import_bfcl(args: argparse.Namespace, stderr: TextIO, environ: dict) -> int:
    # lazy: every verb loads with the parser; what only this verb uses loads when it runs
    from toolproof.importers.bfcl import ANY_CALL, CATEGORY_OF, NO_CALL, suite_from_bfcl

    categories = [c.strip() for c in args.category.split(",") if c.strip()]
    unknown = [c for c in categories if c not in CATEGORY_OF]
    if not categories or unknown:
        raise ToolProofError(f"--category takes a comma-separated list of {', '.join(CATEGORY_OF)}"
                             + (f"; not {', '.join(map(repr, unknown))}" if unknown else ""))
    if args.limit is not None and args.limit < 1:
        raise ToolProofError(f"--limit must be at least 1, got {args.limit}")
    if args.out == "":
        raise ToolProofError("--out: an empty path; name a folder")
    out, folder = Path(args.out), Path(args.data_dir)
    # the root or the home folder (or a parent of it) would mix suite.json and tools.json with everything there
    check_place(out, environ=environ, data_folders=guarded_data_folders(), flag="--out")
    sources = {category: (folder / f"BFCL_v4_{category}.json",
                          None if category in NO_CALL | ANY_CALL      # these have no possible_answer/ file
                          else folder / "possible_answer" / f"BFCL_v4_{category}.json")
               for category in dict.fromkeys(categories)}
    check_outputs([("--out", out / "suite.json"), ("--out", out / "tools.json")],
                  [("a BFCL file", path) for pair in sources.values() for path in pair], makes_folders=True)
    check_writable([out / "suite.json", out / "tools.json"], force=args.force)
    entries, answers = {}, {}
    for category, (questions, truth_file) in sources.items():
        entries[category] = read_json_lines(questions)
        if truth_file is not None:
            truth = read_json_lines(truth_file)
            answers[category] = {e["id"]: e.get("ground_truth") for e in truth
                                 if isinstance(e, dict) and isinstance(e.get("id"), str)}
    imported = suite_from_bfcl(entries, answers, {k: format_schema(k) for k in ("tools", "suite")},
                               limit=args.limit)
    for case_id, reason in imported.skipped:       # one line per skipped entry, each with its reason
        stderr.write(printable(f"toolproof: skipped {case_id}: {reason}") + "\n")
    cases = imported.suite["cases"]
    if not cases:
        raise ToolProofError("no entry could be imported (see the skipped lines above)", source=args.data_dir)
    _write(out, imported.suite, imported.tools, force=args.force)
    stderr.write(f"toolproof: {counted(len(cases), 'case')} and {counted(len(imported.tools['tools']), 'tool')} "
                 "written to "
                 f"{printable(args.out)} (suite.json, tools.json); {len(imported.skipped)} skipped\n")
    return 0


def read_json_lines(path: Path) -> list:
    """A JSON-lines file (BFCL's format): one value a line, each within the reading limits, read
    as every input file is (datafiles.read_file_bytes: a regular file, within the size bound)."""
    try:
        text = read_file_bytes(path).decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ToolProofError(f"cannot read file ({exc.__class__.__name__})", source=str(path)) from None
    # split on "\n" only: a JSON string may hold U+2028 and other characters splitlines() splits on
    return [json_from_text(line, f"{path}:{n}") for n, line in enumerate(text.split("\n"), 1)
            if line.strip()]


def _write(folder: Path, suite: dict, tools: dict, *, force: bool) -> None:
    """Both files, each written atomically; checked again just before (the folder may have
    changed while the BFCL files were read)."""
    check_writable([folder / "suite.json", folder / "tools.json"], force=force)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for name, doc in (("tools.json", tools), ("suite.json", suite)):
            write_atomic(str(folder / name), json.dumps(doc, ensure_ascii=False, indent=2) + "\n")
    except OSError as exc:
        raise ToolProofError(f"cannot write ({exc.strerror or exc.__class__.__name__})", source=str(folder)) from None
