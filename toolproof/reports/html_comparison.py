"""A comparison of two runs (compare A B) as one self-contained HTML file: the same summary lines
as the terminal (who, scope, score delta with its interval, flips, verdict), each category's
delta with its interval drawn around 0, the flipped cases, and two sweeps level by level.

Pure: string building only; every string from a results file goes through html.esc.
"""
from __future__ import annotations

from toolproof.scoring.comparison import level_label
from .comparison import _summary, coverage_lines, sweep_lines
from .html import esc, legend, lines, page, pre, section, table, whisker
from .scenarios import COMPARE_HEAD, comparison_lines, comparison_part, comparison_rows
from .legends import comparison_legend
from .page_view import CATEGORY_LABELS


def _categories(c: dict) -> str:
    rows = []
    for key, row in c["categories"].items():
        rows.append([CATEGORY_LABELS.get(key, key), f"{100 * row['a']:.1f}%", f"{100 * row['b']:.1f}%",
                     f"{100 * row['delta']:+.1f}", f"{100 * row['low']:+.1f} to {100 * row['high']:+.1f}",
                     whisker(100 * row["delta"], 100 * row["low"], 100 * row["high"], lo=-100, hi=100, zero=0)])
    ci = f"{level_label(c['intervals']['level'])} CI over cases"
    return section("Categories (B − A, points)", [table(["Category", "A", "B", "Δ", ci, "Interval (−100 to 100)"],
                                                        rows, label="Categories, B − A", right={1, 2, 3})])


def _flips(c: dict) -> str:
    flipped = [r for r in c["cases"] if r["flip"]]
    rows = [[r["id"], CATEGORY_LABELS.get(r["category"], r["category"]),
             f"{r['a']['verdict']} ({r['a']['passes']}/{r['a']['repeats']})",
             f"{r['b']['verdict']} ({r['b']['passes']}/{r['b']['repeats']})", r["flip"]] for r in flipped]
    body = table(["Case", "Category", "A", "B", "Flip"], rows, label="Flipped cases") if rows else \
        "<p class=\"muted\">No case's verdict went from PASS to another or back.</p>"
    return section(f"Flipped cases ({len(rows)})", [body])


def _scenarios(c: dict) -> str:
    """Each run's scenario success rate with its interval (whiskers on 0 to 100) and the scenario flips."""
    part = comparison_part(c)
    if part is None:
        return ""
    sides = [part.get(name) if isinstance(part.get(name), dict) else {} for name in ("a", "b")]
    rows = []
    for cells, side in zip(comparison_rows(part), sides):
        bounds = side.get("interval") if isinstance(side.get("interval"), dict) else {}
        rate, low, high = side.get("success_rate"), bounds.get("low"), bounds.get("high")
        pct = [None if not isinstance(v, (int, float)) or isinstance(v, bool) else 100 * v for v in (rate, low, high)]
        rows.append(cells + [whisker(*pct)])
    return section("Scenarios (A and B)", [lines(comparison_lines(part)),
                                          table([h[:1].upper() + h[1:] for h in COMPARE_HEAD] + ["Interval (0–100)"],
                                                rows, label="Scenario success rate, A and B", right={1, 2})])


def _wording(c: dict) -> str:
    """Two runs of several phrasings: B − A per phrasing both used and on the worst-phrasing score."""
    found = c.get("robustness")
    if not found:
        return ""
    ci = f"{level_label(c['intervals']['level'])} CI over cases"
    rows = []
    for row in found["per_phrasing"] + [{**found["worst"], "phrasing": "worst phrasing"}]:
        few = row.get("interval_note")
        interval = ("too few cases" if few else "n/a" if row["low"] is None
                    else f"{row['low']:+.1f} to {row['high']:+.1f}")
        rows.append([row["phrasing"], "n/a" if row["a"] is None else f"{row['a']:.2f}",
                     "n/a" if row["b"] is None else f"{row['b']:.2f}",
                     "n/a" if row["delta"] is None else f"{row['delta']:+.2f}", interval, str(row["cases"]),
                     whisker(row["delta"], None if few else row["low"], None if few else row["high"],
                             lo=-100, hi=100, zero=0), "REGRESSION" if row.get("regression") else ""])
    return section("Wording (B − A per phrasing both runs used, points)",
                   [table(["Phrasing", "A", "B", "Δ", ci, "Cases", "Interval (−100 to 100)", ""], rows,
                          label="Wording, B − A per phrasing", right={1, 2, 3, 5}),
                    "<p class=\"muted\">The worst-phrasing row takes each case at its worst over the shared "
                    "phrasings. These rows inform; the gate reads the main score.</p>"])


def comparison_html(comparison: dict) -> str:
    """The whole HTML file for a comparison."""
    c = comparison["comparison"]
    s = c["score"]
    delta = "n/a" if s["delta"] is None else f"{s['delta']:+.2f}"
    interval = "" if s["low"] is None else f" · {level_label(c['intervals']['level'])} CI {s['low']:+.1f} to {s['high']:+.1f}"
    parts = ["<h1>ToolProof comparison (B − A)</h1>",
             f"<p class=\"headline\">Δ {esc(delta)}{esc(interval)}</p>",
             whisker(s["delta"], s["low"], s["high"], lo=-100, hi=100, zero=0, width=320),
             lines(_summary(c) + coverage_lines(c))]
    parts.append(_categories(c))
    scenarios = _scenarios(c)
    if scenarios:
        parts.append(scenarios)
    parts.append(_flips(c))
    if c["errored"]:
        parts.append(section("Not graded in both runs (ERROR)", [lines(c["errored"])]))
    wording = _wording(c)
    if wording:
        parts.append(wording)
    sweep = [line for line in sweep_lines(c) if line]
    if sweep:
        parts.append(section("Tool-count sweep, level by level", [pre("\n".join(sweep[1:]))]))
    parts.append(section("What the short heads mean", [legend(comparison_legend(c))], cls="legend-box"))
    return page("ToolProof comparison", parts + ["<p class=\"muted\">Made by ToolProof. No script, no external request.</p>"])
