"""The terminal edge of `python -m toolproof tools import | lint | ablate`: read the source (a file, or a
live MCP server over stdio), hand it to the pure importers and lint, write or print the result.

An edge (files, a child process through mcp_stdio); the conversion and the lint rules are the
pure modules', and it never exits: main.py registers add_parser and dispatches to handle.
Exit codes: import 0 written, 1 written without the tools that cannot be read (each listed on
stderr, the page's rule: never a whole file lost for one tool), 2 input (no tool readable, an
--out in data/, or existing without --force); lint 0 no error finding, 1 an error finding, 2
unreadable input.
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TextIO

from toolproof.datafiles import format_schema, json_from_text, read_file_bytes
from toolproof.errors import ToolProofError
from toolproof.safe_text import printable
from toolproof.importers import LABELS, merged_records, tools_from_any, unique_labels
from toolproof.importers.toolproof import map_to_source, tools_document
from toolproof.running.settings import checked
from toolproof.plurals import counted
from toolproof.suite.load import parse_tools

from .files import check_outputs, check_writable, write_atomic


def add_parser(commands) -> None:
    """`tools import` and `tools lint`, on the CLI's subcommand parser."""
    tools = commands.add_parser("tools", help="import or lint tool definitions (any common shape)")
    verbs = tools.add_subparsers(dest="tools_command", required=True, parser_class=type(tools))
    imp = verbs.add_parser("import", help="convert tool definitions to tools.json")
    imp.add_argument("source", nargs="*", metavar="SOURCE",
                     help="MCP tools/list, OpenAI chat or Responses, Anthropic, Gemini or tools.json; "
                          "several sources go into one file, same-named tools apart by id")
    imp.add_argument("--mcp-stdio", metavar='"COMMAND ARGS"', action="append", default=[],
                     help="list the tools of an MCP server over stdio (repeatable)")
    imp.add_argument("--out", metavar="FILE", help="where to write tools.json (default: stdout)")
    imp.add_argument("--force", action="store_true", help="replace an existing --out FILE (never in data/)")
    imp.add_argument("--timeout", type=float, default=30.0, metavar="S",
                     help="--mcp-stdio: overall deadline in seconds (default 30)")
    ablate = verbs.add_parser("ablate", help="write what an arm with ablate=... shows the model (docs/arms.md)")
    ablate.add_argument("file", metavar="FILE", help="a tools.json (the bundled data/tools.json, an import, a BFCL import)")
    ablate.add_argument("--ablate", required=True, metavar="OPS", help="operators joined with +: descriptions, "
                        "param_descriptions, names, param_names, enums, types, order")
    ablate.add_argument("--ablate-seed", type=int, default=0, metavar="N", help="the order operator's seed (default 0)")
    ablate.add_argument("--out", metavar="FILE", help="where to write it (default: stdout)")
    ablate.add_argument("--force", action="store_true", help="replace an existing --out FILE (never in data/)")
    lint = verbs.add_parser("lint", help="find what will confuse a model or be refused")
    lint.add_argument("file", metavar="FILE")
    lint.add_argument("--format", choices=("text", "json"), default="text")


def handle(args: argparse.Namespace, stdout: TextIO, stderr: TextIO, environ: dict) -> int:
    try:
        if args.tools_command == "import":
            return _import(args, stdout, stderr)
        if args.tools_command == "ablate":
            return _ablate(args, stdout, stderr)
        return _lint(args, stdout)
    except ToolProofError as exc:       # names and paths come from the user's file: make them inert
        raise ToolProofError(printable(exc.reason), source=exc.source and printable(exc.source),
                             path=exc.path and printable(exc.path)) from None


def read_source(path: str) -> object:
    """A tool definition file as JSON, read like every other input file: a regular file only (a
    FIFO is refused, not waited on), within toolproof.limits (size, depth, digits, no NaN or
    Infinity, no number out of range)."""
    raw = read_file_bytes(Path(path))
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ToolProofError(f"not UTF-8 text (byte {exc.start})", source=path) from None
    return json_from_text(text, path)


def _records(path: str) -> tuple[str, list[dict]]:
    return _strict(read_source(path), path)


def _strict(doc: object, source: str) -> tuple[str, list[dict]]:
    """(shape, records) of a document every tool of which can be read, or its first problem."""
    try:
        return tools_from_any(doc)
    except ToolProofError as exc:
        raise ToolProofError(exc.reason, source=source, path=exc.path) from None


def _import(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    if not args.source and not args.mcp_stdio:
        raise ToolProofError("tools import needs SOURCE (a file) or --mcp-stdio \"COMMAND ARGS\" (several may be given)")
    if args.mcp_stdio:          # the one bound of a deadline, as run's --timeout has it
        _, problem = checked({"timeout_s": args.timeout})
        if problem:
            raise ToolProofError(problem.terminal("--timeout"))
    check_outputs([("--out", args.out)], [("a SOURCE file", source) for source in args.source])
    read = [(source, source, read_source(source)) for source in args.source]
    read += [(command, "--mcp-stdio" if len(args.mcp_stdio) == 1 else f"tools/list result of {command!r}",
              _mcp_listed(command, args.timeout)) for command in args.mcp_stdio]
    if len(read) == 1:
        _, source, doc = read[0]
        imported, document, refused = _kept(doc, source, stderr)
        what = LABELS[imported.shape]
    else:
        document, refused, what = _merged(read, stderr)
        source = "the merged tools"
    text = _readable(document, source)
    written = len(document["tools"])
    shown = f"{written} of {counted(written + len(refused), 'tool')}" if refused else counted(written, "tool")
    if args.out:
        check_writable([args.out], force=args.force)
        try:
            write_atomic(args.out, text)
        except OSError as exc:
            raise ToolProofError(f"cannot write ({exc.strerror or exc})", source=args.out) from None
        stderr.write(f"toolproof: {shown} from {printable(what)} written to {printable(args.out)}"
                     + (_refused_tail(refused) if refused else "") + "\n")
    else:
        stdout.write(text)
        if refused:
            stderr.write(f"toolproof: printed {shown} from {printable(what)}" + _refused_tail(refused) + "\n")
    return 1 if refused else 0


def _ablate(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    """The tools file as an arm with these operators shows it: only what they name differs, and
    the same seed gives the same bytes (what `run --arm NAME:ablate=OPS,ablate_seed=N` sends)."""
    # lazy: only this verb ablates
    from toolproof.arms.ablation import ablate_document, parse_ablate

    operators = parse_ablate(args.ablate)
    _, problem = checked({"pad_seed": args.ablate_seed})       # the one bound of a seed a page reads back
    if problem:
        raise ToolProofError(problem.terminal("--ablate-seed"))
    if args.ablate_seed and "order" not in operators:
        raise ToolProofError("--ablate-seed seeds the order operator: add order to --ablate")
    check_outputs([("--out", args.out)], [("the tools file", args.file)])
    doc = read_source(args.file)
    parse_tools(doc, format_schema("tools"), args.file)      # a tools.json that loads, or its first problem
    text = json.dumps(ablate_document(doc, operators, args.ablate_seed), ensure_ascii=False, indent=2) + "\n"
    if not args.out:
        stdout.write(text)
        return 0
    check_writable([args.out], force=args.force)
    try:
        write_atomic(args.out, text)
    except OSError as exc:
        raise ToolProofError(f"cannot write ({exc.strerror or exc})", source=args.out) from None
    stderr.write(f"toolproof: {printable(args.file)} with ablate={'+'.join(operators)} written to {printable(args.out)}\n")
    return 0


def _refused_tail(refused: list) -> str:
    return f"; {counted(len(refused), 'tool')} not imported (listed above); exit 1"


def _kept(doc: object, source: str, stderr: TextIO) -> tuple:
    """(the import, our tools.json of every tool of one source that loads, those left out, each
    said on stderr): the page's rule (authoring.tool_offer.import_document). None loads: refused
    with the one reason, as before, or every tool's when there are several."""
    # lazy: every verb loads with the parser; what only this verb uses loads when it runs
    from toolproof.authoring.tool_offer import import_document

    imported = import_document(doc, format_schema("tools"), source)
    if imported.document is None and len(imported.refused) <= 1:     # the one reason, with its place
        if imported.records:
            _checked(imported.records, imported.shape, source)
        _strict(doc, source)
    _say_refused(imported.refused, stderr)
    if imported.document is None:
        raise ToolProofError(f"no tool imported: {_every(len(imported.refused))} refused (listed above)", source=source)
    return imported, imported.document, imported.refused


def _every(n: int) -> str:
    return "the tool was" if n == 1 else f"all {counted(n, 'tool')} were"


MAX_REFUSED_LINES = 50


def _say_refused(refused: list, stderr: TextIO) -> None:
    for r in refused[:MAX_REFUSED_LINES]:
        stderr.write(f"toolproof: {printable(r.line)}\n")
    if len(refused) > MAX_REFUSED_LINES:
        stderr.write(f"toolproof: … ({len(refused) - MAX_REFUSED_LINES} more not imported)\n")


def _mcp_listed(command: str, timeout: float) -> dict:
    from .mcp_stdio import list_tools_stdio      # lazy: only --mcp-stdio starts a server

    return {"tools": list_tools_stdio(command, timeout_s=timeout)["tools"]}


def _merged(read: list[tuple[str, str, object]], stderr: TextIO) -> tuple[dict, list, str]:
    """Several sources as one tools document: each source's tools that load kept and the rest
    refused (so a refusal names its file and place; a source none of whose tools loads stops the
    import), then merged with same-named tools apart by id (importers/merge.py)."""
    # lazy: every verb loads with the parser; what only this verb uses loads when it runs
    from toolproof.authoring.tool_offer import loadable_records

    kept, refused = [], []
    for _, named, doc in read:
        imported, _, lost = _kept(doc, named, stderr)
        good = imported.records
        if lost:
            good, _ = loadable_records(good, LABELS[imported.shape], format_schema("tools"), named)
        kept.append(good)
        refused += lost
    labels = unique_labels([source for source, _, _ in read])
    records = merged_records(list(zip(labels, kept)))
    what = f"{len(read)} sources ({', '.join(labels)})"
    document = tools_document(records, what)
    parse_tools(document, format_schema("tools"), "the merged tools")
    shared = sum(1 for r in records if "id" in r)
    if shared:
        what += f"; {shared} share a name with another source's tool, kept apart by id"
    return document, refused, what


def _checked(records: list[dict], shape: str, source: str) -> dict:
    """The tools.json document, refused (with a path in the source) unless it loads for a run:
    the format schema, unique names, and every schema compiled or accepted by jsonschema."""
    try:
        document = tools_document(records, LABELS[shape])
        parse_tools(document, format_schema("tools"), source)
    except ToolProofError as exc:
        raise ToolProofError(exc.reason, source=source, path=map_to_source(records, exc.path)) from None
    return document


def _readable(document: dict, source: str) -> str:
    """The tools.json text, refused at import unless `grade`, `run` and `suite validate` will
    read it: the very text goes through the same reader (limits) they use. Wrapping a schema in
    tools.json adds levels, so a source within the limits can still come out too deep."""
    try:
        text = json.dumps(document, ensure_ascii=False, indent=2, allow_nan=False) + "\n"
    except ValueError:                  # NaN/Infinity: only a value parsed by someone else
        raise ToolProofError("holds NaN or Infinity, which is not JSON", source=source) from None
    try:
        json_from_text(text, "the imported tools.json")
    except ToolProofError as exc:
        raise ToolProofError(f"its tools.json would not load ({exc.reason}); simplify the schema",
                             source=source) from None
    return text


def _lint(args: argparse.Namespace, stdout: TextIO) -> int:
    # lazy: every verb loads with the parser; what only this verb uses loads when it runs
    from toolproof.authoring.lint import has_errors, lint_tools

    _, records = _records(args.file)
    findings = lint_tools(records)
    if args.format == "json":
        stdout.write(json.dumps({"findings": [f.to_json() for f in findings]}, ensure_ascii=True, indent=2) + "\n")
    else:
        for f in findings:
            stdout.write(f"{f.severity:<7} {f.code:<26} {printable(f.tool)}  {printable(f.path)}\n"
                         f"        {printable(f.message)}\n")
        errors = sum(f.severity == "error" for f in findings)
        stdout.write(f"lint: {counted(len(records), 'tool')}, {counted(errors, 'error')}, "
                     f"{counted(len(findings) - errors, 'warning')}\n")
    return 1 if has_errors(findings) else 0
