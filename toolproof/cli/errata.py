"""The terminal edge of `python -m toolproof suite errata`: check the errata file against the suite,
print a case's fingerprint, or fill in the fingerprints of entries written by hand.

    suite errata                       every case whose expectation changed without an entry (exit 1 if any)
    suite errata CASE_ID...            each case's fingerprint, to paste as an entry's expect_sha256
    suite errata --entries FILE...     the entries (JSON lists without expect_sha256) as one JSON list
                                       with it filled in from the suite, ready to paste into "entries"

It only reads and prints: it never writes a file, data/errata.json least of all (an entry is
pasted by hand, so a person reads it). The fingerprints and the check are suite/errata.py's.
Exit codes: 0 ok, 1 a case changed without an entry, 2 input (a bad file, an unknown case).
"""
from __future__ import annotations

import argparse
import json
from dataclasses import replace
from typing import TextIO

from toolproof.datafiles import DATA, format_schema, load_errata, read_json
from toolproof.errors import ToolProofError
from toolproof.plurals import counted, plural
from toolproof.safe_text import printable
from toolproof.suite.errata import fingerprinted, fingerprints, parse_entries, unrecorded

COMMAND = "python -m toolproof suite errata"


def add_parser(verbs) -> None:
    """`suite errata`, on the `suite` verb's subcommand parser."""
    errata = verbs.add_parser("errata", help="check data/errata.json against the suite; print fingerprints")
    errata.add_argument("cases", nargs="*", metavar="CASE_ID", help="print these cases' fingerprints")
    errata.add_argument("--entries", nargs="+", metavar="FILE",
                        help="JSON lists of entries (case, date, changed, why): print them as one list "
                             "with expect_sha256 filled in from the suite")
    errata.add_argument("--suite", metavar="FILE", help="suite file (default data/suite.json)")
    errata.add_argument("--errata", metavar="FILE", help="errata file (default data/errata.json)")


def handle(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    suite_doc = read_json(args.suite or DATA / "suite.json")
    if args.cases and args.entries:
        raise ToolProofError("give case ids or --entries, not both")
    if args.entries:
        return _fill(args, suite_doc, stdout, stderr)
    if args.cases:
        return _print(args.cases, suite_doc, stdout)
    return _check(args, suite_doc, stdout)


def _print(cases: list[str], suite_doc: dict, stdout: TextIO) -> int:
    found = fingerprints(suite_doc)
    unknown = [c for c in cases if c not in found]
    if unknown:
        raise ToolProofError(f"the suite has no case {', '.join(map(repr, unknown))}")
    for case_id in cases:
        stdout.write(f"{case_id} {found[case_id]}\n")
    return 0


def _check(args: argparse.Namespace, suite_doc: dict, stdout: TextIO) -> int:
    errata = load_errata(args.errata)
    found = unrecorded(errata, suite_doc)
    for item in found:
        stdout.write(printable(f"{item.case} {item.fingerprint or '-'}: {item.reason}") + "\n")
    if found:
        stdout.write(f"suite errata: {counted(len(found), 'case')} without the entry "
                     f"{plural(len(found), 'its', 'their')} change needs; write each "
                     f"one (case, date, changed, why) and fill in expect_sha256 with `{COMMAND} --entries FILE`\n")
        return 1
    stdout.write(f"suite errata: ok ({counted(len(fingerprints(suite_doc)), 'case')}, "
                 f"{counted(len(errata.entries), 'entry', 'entries')})\n")
    return 0


def _fill(args: argparse.Namespace, suite_doc: dict, stdout: TextIO, stderr: TextIO) -> int:
    schema = format_schema("errata")
    entries = []
    for path in args.entries:
        entries += fingerprinted(parse_entries(read_json(path), schema, path), suite_doc, path)
    stdout.write(json.dumps([e.to_json() for e in entries], ensure_ascii=False, indent=2) + "\n")
    # What would still be missing once these are in: said on stderr, so stdout stays the list.
    errata = load_errata(args.errata)
    after = replace(errata, entries=errata.entries + tuple(entries))
    left = [item.case for item in unrecorded(after, suite_doc)]
    if left:
        stderr.write(printable(f"toolproof: still without an entry once these are added: {', '.join(left)}") + "\n")
    return 0
