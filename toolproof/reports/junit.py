"""JUnit XML for CI: a scorecard or a comparison as test suites a CI server can show.

A scorecard becomes one <testsuite> per category and one <testcase> per case named by its id:
FAIL and PARTIAL carry a <failure> with the reasons, ERROR an <error>. When less than the plan
was graded, the root's name says "N of M cases graded", and plan items that never started are
one <error> in a "coverage" suite; a run of several phrasings adds a "wording" suite where a case
fails when the test against chance names it wording-dependent. A comparison becomes one
<testsuite> per category where a regressed case is a <failure> and a case with no graded repeat
an <error>. Model text is hostile: everything is escaped, and characters XML 1.0 cannot hold
(control characters, lone surrogates, U+FFFE/U+FFFF) are written as visible \\uXXXX text, so the
document is always well-formed.

Pure: returns strings.
"""
from __future__ import annotations

from toolproof.suite.model import CATEGORIES
from .robustness import robustness_junit
from .scorecard import coverage_line

_ESCAPES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;"}
_ATTRIBUTE_ESCAPES = {**_ESCAPES, "\n": "&#10;", "\r": "&#13;", "\t": "&#9;"}


def _allowed(ch: str) -> bool:
    code = ord(ch)
    return (code >= 0x20 or ch in "\t\n\r") and not 0xD800 <= code <= 0xDFFF and code not in (0xFFFE, 0xFFFF)


def xml_text(value, *, attribute: bool = False) -> str:
    """Any value as XML character data (or an attribute value): escaped, always well-formed."""
    table = _ATTRIBUTE_ESCAPES if attribute else _ESCAPES
    return "".join(table.get(ch, ch) if _allowed(ch) else f"\\u{ord(ch):04x}" for ch in str(value))


def _attrs(**values) -> str:
    return "".join(f' {k}="{xml_text(v, attribute=True)}"' for k, v in values.items())


def _testcase(name: str, classname: str, kind: str | None, message: str, body: str) -> str:
    head = f"    <testcase{_attrs(name=name, classname=classname)}"
    if kind is None:
        return head + "/>"
    return (head + f">\n      <{kind}{_attrs(message=message, type=message.split(':')[0])}>"
            f"{xml_text(body)}</{kind}>\n    </testcase>")


def _document(name: str, suites: list[tuple[str, list[tuple[str, str | None, str, str]]]]) -> str:
    total = sum(len(cases) for _, cases in suites)
    failures = sum(k == "failure" for _, cases in suites for _, k, _, _ in cases)
    errors = sum(k == "error" for _, cases in suites for _, k, _, _ in cases)
    lines = ['<?xml version="1.0" encoding="UTF-8"?>',
             f"<testsuites{_attrs(name=name, tests=total, failures=failures, errors=errors)}>"]
    for suite, cases in suites:
        lines.append(f"  <testsuite{_attrs(name=suite, tests=len(cases), failures=sum(k == 'failure' for _, k, _, _ in cases), errors=sum(k == 'error' for _, k, _, _ in cases))}>")
        lines += [_testcase(cid, f"toolproof.{suite}", kind, message, body) for cid, kind, message, body in cases]
        lines.append("  </testsuite>")
    lines.append("</testsuites>")
    return "\n".join(lines) + "\n"


def _ordered(by_category: dict) -> list:
    return [(c, by_category[c]) for c in CATEGORIES if c in by_category] + \
        [(c, v) for c, v in by_category.items() if c not in CATEGORIES]


def junit_xml(card: dict) -> str:
    """The scorecard as JUnit XML: a testsuite per category, a testcase per case."""
    by_category: dict[str, list] = {}
    for case in card["cases"]:
        verdict, reasons = case["verdict"], "\n".join(case["reasons"])
        kind = {"PASS": None, "ERROR": "error"}.get(verdict, "failure")
        first = case["reasons"][0] if case["reasons"] else ""
        by_category.setdefault(case["category"], []).append((case["id"], kind, f"{verdict}: {first}", reasons))
    suites = _ordered(by_category) + robustness_junit(card)
    covered = coverage_line(card)
    cov = card.get("coverage") or {}
    if cov.get("not_started"):      # part of the plan never ran: a CI job must not go green on it
        suites.append(("coverage", [("plan", "error", f"NOT STARTED: {covered}",
                                     f"{covered}: the score rests on the graded part only")]))
    return _document(f"toolproof: {covered}" if covered else "toolproof", suites)


def comparison_junit(comparison: dict) -> str:
    """A comparison as JUnit XML: regressed cases fail, cases never graded in a run error."""
    c = comparison["comparison"]
    errored = set(c["errored"])
    by_category: dict[str, list] = {}
    for row in c["cases"]:
        change = (f"A {row['a']['verdict']} ({row['a']['passes']}/{row['a']['repeats']} pass) -> "
                  f"B {row['b']['verdict']} ({row['b']['passes']}/{row['b']['repeats']} pass)")
        if row["id"] in errored:
            entry = (row["id"], "error", "ERROR: not graded in both runs", change)
        elif row["flip"] == "regressed":
            entry = (row["id"], "failure", "REGRESSED: " + change, change)
        else:
            entry = (row["id"], None, "", "")
        by_category.setdefault(row["category"], []).append(entry)
    wording = c.get("robustness")
    if wording:                     # two runs of several phrasings: the worst-phrasing score's delta
        w = wording["worst"]
        line = f"worst-phrasing score {w['a']} -> {w['b']} (delta {w['delta']}, 95% CI {w['low']} to {w['high']})"
        by_category["wording"] = [("worst-phrasing", "failure" if w["regression"] else None,
                                   "REGRESSED: " + line if w["regression"] else "", line)]
    return _document("toolproof compare", _ordered(by_category))
