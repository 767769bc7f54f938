"""JUnit XML for CI: a scorecard or a comparison as test suites a CI server can show.

A scorecard becomes one <testsuite> per category and one <testcase> per case named by its id:
FAIL and PARTIAL carry a <failure> with the reasons, ERROR an <error>. The root's name is the text
headline's score line (with "N of M cases graded" when less than the plan was graded, or "No
score: " and the card's `no_score_reason`) and its verdict counts; plan items that never started
are one <error> in a "coverage" suite; a run of several phrasings adds a "wording" suite where a case
fails when the test against chance names it wording-dependent; scenarios are one "scenarios" suite,
a testcase per scenario whose message is its verdict and first reason (reports/scenarios.py words
it, and the suite's <system-out> holds the block's success rate as every view says it). A comparison becomes one
<testsuite> per category where a case that fell from PASS is a <failure> only when the regression
gate fails (else a passing test case saying so), a case with no graded repeat an <error>, and a
"gate" suite with the gate's verdict. Model text is hostile: everything is escaped, and characters XML 1.0 cannot hold
(control characters, lone surrogates, U+FFFE/U+FFFF) are written as visible \\uXXXX text, so the
document is always well-formed.

Pure: returns strings.
"""
from __future__ import annotations

from toolproof.scoring.comparison import overall_verdict, regression_gate
from toolproof.suite.model import CATEGORIES
from .robustness import robustness_junit
from .card_counts import verdicts_line
from .scenarios import (block_of, comparison_lines, comparison_part, diff_lines, entries_of, first_reason, is_scenario,
                        summary_lines)
from .scorecard import coverage_line, score_line

SCENARIOS_SUITE = "scenarios"

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
    if kind == "system-out":        # a passing case with a note (JUnit's own element for it)
        return head + f">\n      <system-out>{xml_text(body)}</system-out>\n    </testcase>"
    return (head + f">\n      <{kind}{_attrs(message=message, type=message.split(':')[0])}>"
            f"{xml_text(body)}</{kind}>\n    </testcase>")


def _document(name: str, suites: list[tuple[str, list[tuple[str, str | None, str, str]]]],
              notes: dict[str, str] | None = None) -> str:
    """The XML; `notes` gives a suite its own <system-out> (the scenarios suite's success rate)."""
    total = sum(len(cases) for _, cases in suites)
    failures = sum(k == "failure" for _, cases in suites for _, k, _, _ in cases)
    errors = sum(k == "error" for _, cases in suites for _, k, _, _ in cases)
    lines = ['<?xml version="1.0" encoding="UTF-8"?>',
             f"<testsuites{_attrs(name=name, tests=total, failures=failures, errors=errors)}>"]
    for suite, cases in suites:
        lines.append(f"  <testsuite{_attrs(name=suite, tests=len(cases), failures=sum(k == 'failure' for _, k, _, _ in cases), errors=sum(k == 'error' for _, k, _, _ in cases))}>")
        lines += [_testcase(cid, f"toolproof.{suite}", kind, message, body) for cid, kind, message, body in cases]
        if (notes or {}).get(suite):
            lines.append(f"    <system-out>{xml_text(notes[suite])}</system-out>")
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
        if is_scenario(case):
            continue
        verdict, reasons = case["verdict"], "\n".join(case["reasons"])
        kind = {"PASS": None, "ERROR": "error"}.get(verdict, "failure")
        first = case["reasons"][0] if case["reasons"] else ""
        by_category.setdefault(case["category"], []).append((case["id"], kind, f"{verdict}: {first}", reasons))
    suites = _ordered(by_category) + _scenarios(card) + robustness_junit(card)
    covered = coverage_line(card)
    cov = card.get("coverage") or {}
    if cov.get("not_started"):      # part of the plan never ran: a CI job must not go green on it
        suites.append(("coverage", [("plan", "error", f"NOT STARTED: {covered}",
                                     f"{covered}: the score rests on the graded part only")]))
    block = block_of(card)
    return _document(root_name(card), suites, {SCENARIOS_SUITE: "\n".join(summary_lines(block))} if block else None)


def _scenarios(card: dict) -> list:
    """The "scenarios" suite: one testcase per scenario, FAIL and PARTIAL a <failure> whose
    message is the verdict and the first reason (the first difference), ERROR an <error>; the
    body holds every reason and the end-state difference."""
    entries = entries_of(card)
    if not entries and block_of(card) is None:
        return []
    cases = []
    for entry in entries:
        verdict = str(entry.get("verdict", ""))
        kind = {"PASS": None, "ERROR": "error"}.get(verdict, "failure")
        body = "\n".join([str(r) for r in entry.get("reasons") or []] + diff_lines(entry))
        cases.append((str(entry.get("id", "")), kind, f"{verdict}: {first_reason(entry)}", body))
    return [(SCENARIOS_SUITE, cases)]


def root_name(card: dict) -> str:
    """The root's name: the headline's score line (or 'No score: ' and why) and the verdict counts,
    as the other views word them ('toolproof: Score: 61.90 / 100 strict (95% CI 52–73 over cases);
    72 cases: 40 PASS, …')."""
    counts = [verdicts_line(card)] if "counts" in card else []
    return "toolproof: " + "; ".join([score_line(card), *counts])


def comparison_junit(comparison: dict) -> str:
    """A comparison as JUnit XML. A case that fell from PASS is a <failure> only when the
    regression gate fails (scoring.comparison.regression_gate, what --fail-on-regression acts on):
    flips within noise are passing test cases with the change in <system-out>, so the file and the
    gate never disagree. A "gate" suite holds the gate's own verdict (it can fail with no case
    flipped from PASS: a drop in partial credit); a case never graded in a run is an <error>."""
    c = comparison["comparison"]
    gate = regression_gate(comparison)
    errored = set(c["errored"])
    by_category: dict[str, list] = {}
    for row in c["cases"]:
        change = (f"A {row['a']['verdict']} ({row['a']['passes']}/{row['a']['repeats']} pass) -> "
                  f"B {row['b']['verdict']} ({row['b']['passes']}/{row['b']['repeats']} pass)")
        if row["id"] in errored:
            entry = (row["id"], "error", "ERROR: not graded in both runs", change)
        elif row["flip"] == "regressed" and gate:
            entry = (row["id"], "failure", "REGRESSED: " + change, f"{change}\n{gate}")
        elif row["flip"] == "regressed":
            entry = (row["id"], "system-out", "", f"REGRESSED within noise (the regression gate passes): {change}")
        else:
            entry = (row["id"], None, "", "")
        suite = SCENARIOS_SUITE if is_scenario(row) else row["category"]
        by_category.setdefault(suite, []).append(entry)
    by_category["gate"] = [("regression", "failure", "GATE FAILED: " + gate, gate) if gate else
                           ("regression", "system-out", "", overall_verdict(c))]
    wording = c.get("robustness")
    if wording:                     # two runs of several phrasings: the worst-phrasing score's delta
        w = wording["worst"]
        line = f"worst-phrasing score {w['a']} -> {w['b']} (delta {w['delta']}, 95% CI {w['low']} to {w['high']})"
        by_category["wording"] = [("worst-phrasing", "failure" if w["regression"] else None,
                                   "REGRESSED: " + line if w["regression"] else "", line)]
    part = comparison_part(c)
    return _document("toolproof compare", _ordered(by_category),
                     {SCENARIOS_SUITE: "\n".join(comparison_lines(part))} if part else None)
