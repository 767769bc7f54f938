"""Render a comparison of two runs: the JSON `compare --format json` prints (and the page
exports byte for byte), a terminal text and Markdown for a CI step summary.

Pure: returns strings. Every text and Markdown line goes through `safe_text.printable` (a
results file's model, label and case ids are whatever the file says: NUL, ESC and backspace are
shown escaped, never sent to a terminal or a Markdown viewer raw).
"""
from __future__ import annotations

import json

from toolproof.errors import clip, clip_list
from toolproof.scoring.comparison import level_label, overall_verdict
from toolproof.plurals import counted

from .markdown import md_block, md_text
from .scenarios import comparison_lines, comparison_part
from .scorecard import _lines


def comparison_json(comparison: dict) -> str:
    """The exact text `compare --format json` prints and `#export-compare` downloads."""
    return json.dumps(comparison, ensure_ascii=False, indent=2) + "\n"


def _who(label: dict) -> str:
    parts = [label.get("provider", ""), label.get("model", ""), label.get("arm") and f"arm {label['arm']}",
             label.get("created", "")]
    return " / ".join(clip(str(p)) for p in parts if p) + f" ({counted(label['repeats'], 'repeat')} per case)"


def _num(value, places: int = 2) -> str:
    return "n/a" if value is None else f"{value:.{places}f}"


def _signed(value, places: int = 2) -> str:
    return "n/a" if value is None else f"{value:+.{places}f}"


def _summary(c: dict) -> list[str]:
    s, m = c["score"], c["mcnemar"]
    suite = c["suite"]
    scope = (f"{_shared(suite, 'shared case')} (mixed suites: {suite['only_a']} only in A, "
             f"{suite['only_b']} only in B)" if suite["mixed"] else f"{_shared(suite, 'case')}, same suite")
    if c["errored"]:        # the page shows this paragraph alone: say here what was left out
        left = len(c["errored"])
        scope += (f"; {counted(left, 'case')} left out, ERROR in a run "
                  f"({clip_list(c['errored'], 5)})")
    # the verdict leads: it says first whether any case changed verdict, then what the interval showed
    return [f"A: {_who(c['runs']['a'])}", f"B: {_who(c['runs']['b'])}", f"Compared: {scope}",
            "Verdict: " + overall_verdict(c),
            f"Score: A {_num(s['a'])} → B {_num(s['b'])}, delta {_signed(s['delta'])} "
            f"({_ci(c)} {_signed(s['low'], 1)} to {_signed(s['high'], 1)}, {c['intervals']['method']})",
            f"Flips (verdict PASS in one run only): {len(c['flips']['regressed'])} regressed, "
            f"{len(c['flips']['improved'])} improved; " + _flip_test(m)] + \
        ([f"Phrasings: {c['phrasings_note']}"] if c.get("phrasings_note") else []) + \
        ([f"Worlds: {c['worlds_note']}"] if c.get("worlds_note") else [])


def _shared(suite: dict, noun: str) -> str:
    """'72 cases', '8 scenarios' or '72 cases and 8 scenarios': what both runs hold, as the
    comparison's `suite` counts it (scenarios are entries of its cases)."""
    played = suite.get("shared_scenarios") or 0
    cases = suite["shared_cases"] - played
    parts = ([counted(cases, noun)] if cases or not played else []) + ([counted(played, "scenario")] if played else [])
    return " and ".join(parts)


def _ci(c: dict) -> str:
    """'95% CI', or for two sweeps the Bonferroni level, e.g. '98.33% CI'."""
    return f"{level_label(c['intervals']['level'])} CI"


def _flip_test(m: dict) -> str:
    if m["p_value"] is None:
        return "McNemar " + m["note"]
    line = f"McNemar exact p = {m['p_value']} (a second test, on flips only; the verdict rests on the score interval)"
    return line + (f"; {m['note']}" if m.get("note") else "")


def coverage_lines(c: dict) -> list[str]:
    """'Run A is incomplete: 10 of 72 graded (...)' and the cases that ran on one side only."""
    cov = c.get("coverage") or {}
    lines = []
    for name in ("a", "b"):
        run = cov.get(name)
        if run and run["graded"] != run["planned"]:
            parts = [f"{run['error']} ERROR"] if run["error"] else []
            parts += [f"{run['not_started']} not started"] if run["not_started"] else []
            lines.append(f"Run {name.upper()} is incomplete: {run['graded']} of {run['planned']} planned conversations "
                         f"graded ({', '.join(parts)})")
    for name in ("a", "b"):
        ids = cov.get(f"only_{name}") or []
        if ids:
            shown = ", ".join(ids[:20]) + (f", and {len(ids) - 20} more" if len(ids) > 20 else "")
            lines.append(f"Ran in {name.upper()} only ({len(ids)}, not compared): {shown}")
    return lines


def render_comparison_text(comparison: dict) -> str:
    c = comparison["comparison"]
    lines = ["ToolProof comparison (B - A)"] + _summary(c) + coverage_lines(c) + scenario_lines(c) + ["", f"  {'category':<16} {'A':>7} {'B':>7} {'delta':>8}  {_ci(c)} over cases"]
    for category, row in c["categories"].items():
        lines.append(f"  {category:<16} {100 * row['a']:>6.1f}% {100 * row['b']:>6.1f}% {100 * row['delta']:>+7.1f}%  "
                     f"{100 * row['low']:+.1f} to {100 * row['high']:+.1f}")
    for kind in ("regressed", "improved"):
        ids = c["flips"][kind]
        lines += ["", f"{kind.capitalize()} ({len(ids)})"] + [f"  {cid}" for cid in ids]
    if c["errored"]:
        lines += ["", f"Not graded in both runs (ERROR): {', '.join(c['errored'])}"]
    lines += sweep_lines(c) + wording_lines(c)
    return _lines(lines)


def scenario_lines(c: dict) -> list[str]:
    """The scenarios' success rate A → B with intervals and the scenario flips ([] without scenarios)."""
    part = comparison_part(c)
    return comparison_lines(part) if part else []


def wording_lines(c: dict) -> list[str]:
    """Two runs of several phrasings: B - A per phrasing and at each case's worst phrasing."""
    found = c.get("robustness")
    if not found:
        return []
    lines = ["", f"Per phrasing (the phrasings both runs used), {_ci(c)} over cases",
             f"  {'phrasing':<16} {'A':>7} {'B':>7} {'delta':>8}  interval         cases"]
    for row in found["per_phrasing"] + [{**found["worst"], "phrasing": "(worst)"}]:
        lines.append(f"  {clip(row['phrasing']):<16} {_num(row['a']):>7} {_num(row['b']):>7} {_signed(row['delta']):>8}  "
                     + (f"{'too few cases':<16}" if row.get("interval_note") else
                        f"{_signed(row['low'], 1)} to {_signed(row['high'], 1):<8}") + f" {row['cases']:>5}"
                     + ("  REGRESSION" if row.get("regression") else ""))
    return lines


def sweep_lines(c: dict) -> list[str]:
    """Two sweeps, level by level (nothing for plain runs)."""
    rows = c.get("sweep", {}).get("levels", [])
    if not rows:
        return []
    lines = ["", "Tool-count sweep, level by level (a delta inside its interval is noise)",
             f"  {'pad':>4} {'A':>7} {'B':>7} {'delta':>8}  {_ci(c)} over cases flips"]
    for row in rows:
        s = row["score"]
        lines.append(f"  {row['pad']:>4} {_num(s['a']):>7} {_num(s['b']):>7} {_signed(s['delta']):>8}  "
                     f"{_signed(s['low'], 1)} to {_signed(s['high'], 1):<8} -{len(row['flips']['regressed'])} "
                     f"+{len(row['flips']['improved'])}" + ("  REGRESSION" if row["regression"] else ""))
    return lines


def render_comparison_markdown(comparison: dict) -> str:
    c = comparison["comparison"]
    lines = ["# ToolProof comparison (B - A)", ""] + [f"- {md_text(x)}" for x in _summary(c) + coverage_lines(c)
                                                      + scenario_lines(c)]
    lines += ["", f"| category | A | B | delta | {_ci(c)} over cases |", "|---|---:|---:|---:|---:|"]
    for category, row in c["categories"].items():
        lines.append(f"| {md_text(category)} | {100 * row['a']:.1f}% | {100 * row['b']:.1f}% | {100 * row['delta']:+.1f}% | "
                     f"{100 * row['low']:+.1f} to {100 * row['high']:+.1f} |")
    flipped = [r for r in c["cases"] if r["flip"]]
    if flipped:
        lines += ["", "| case | category | A | B | flip |", "|---|---|---|---|---|"]
        lines += [f"| {md_text(r['id'])} | {md_text(r['category'])} | {md_text(r['a']['verdict'])} "
                  f"({r['a']['passes']}/{r['a']['repeats']}) | {md_text(r['b']['verdict'])} "
                  f"({r['b']['passes']}/{r['b']['repeats']}) | {md_text(r['flip'])} |" for r in flipped]
    wording = wording_lines(c)
    if wording:
        lines += [""] + md_block(wording[1:])
    return _lines(lines)
