"""The leaderboard as one self-contained HTML file: the ranked table with interval whiskers (SVG),
category scores, rates, cost and latency, the pairwise grid and the list of pairs. The same
numbers as `board --format text` (reports/board.py builds the cells), the frame from html.py.

Pure: string building only; every string from a results file goes through html.esc.
"""
from __future__ import annotations

from toolproof.errors import clip

from .board import (COST_TITLE, RATES_TITLE, UNRANKED_TITLE, cases_cell, grid_delta, has_scenarios, headline, interval,
                    num, pass_k, pct, run_date, run_name, score_cell, significant_cell, tables)
from .scenarios import BOARD_HEAD, board_cell
from .html import Raw, esc, legend, lines, page, scroll_box, section, table, whisker
from .legends import board_legend


def _runs_table(board: dict) -> str:
    rows, attrs = [], []
    scenarios = has_scenarios(board)
    for r in board["runs"]:
        i = r.get("interval") or {}
        rows.append([r["rank"]["label"], r["id"], clip(run_name(r), 120), run_date(r),
                     cases_cell(r), score_cell(r), interval(r),
                     whisker(r["score"], i.get("low"), i.get("high")), pass_k(r), pct(r["error_rate"]) + "%"]
                    + ([board_cell(r)] if scenarios else []))
        attrs.append(f" data-run-id=\"{esc(r['id'])}\"")
    head = ["Rank", "Run", "Name", "Date", "Cases graded", "Score", "95% CI", "Interval (0–100)", "pass^k", "Error"] \
        + ([BOARD_HEAD.capitalize()] if scenarios else [])
    return table(head, rows, label="Runs, ranked by score", right={4, 5, 9}, cls="board", row_attrs=attrs)


def _unranked_table(board: dict) -> str:
    """The runs with no score, apart from the ranking, each with why."""
    # the text table's cells, with the name clipped as the ranked table clips it
    rows = [row[:1] + [clip(run_name(r), 120)] + row[2:] for r, row in zip(board["unranked"], tables(board)[UNRANKED_TITLE][1:])]
    attrs = [f" data-run-id=\"{esc(r['id'])}\"" for r in board["unranked"]]
    head = ["Run", "Name", "Date", "Cases graded", "Why"] + ([BOARD_HEAD.capitalize()] if has_scenarios(board) else [])
    return table(head, rows, label=UNRANKED_TITLE, right={3},
                 cls="board unranked", row_attrs=attrs)


def _grid(board: dict) -> str:
    """Row run against column run: the column's score minus the row's, bold where the
    Holm-corrected test says the difference is real."""
    runs = board["runs"]
    by_pair = {}
    for p in board["pairs"]:
        by_pair[(p["a"], p["b"])] = (p, 1)
        by_pair[(p["b"], p["a"])] = (p, -1)
    head = "<tr><th scope=\"col\">row \\ column</th>" + "".join(f"<th scope=\"col\">{esc(r['id'])}</th>" for r in runs) + "</tr>"
    body = []
    for row in runs:
        cells = [f"<th scope=\"row\">{esc(row['id'])}</th>"]
        for col in runs:
            if row is col:
                cells.append("<td class=\"same\">—</td>")
                continue
            p, sign = by_pair[(row["id"], col["id"])]
            delta = "n/a" if p["delta"] is None else grid_delta(sign, p["delta"])
            mark = " *" if p["significant"] else ""
            cls = "sig" if p["significant"] else ""
            cells.append(f"<td class=\"{cls}\" data-a=\"{esc(row['id'])}\" data-b=\"{esc(col['id'])}\" "
                         f"data-significant=\"{'true' if p['significant'] else 'false'}\">{esc(delta + mark)}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    return (scroll_box(f"<table class=\"grid\"><thead>{head}</thead><tbody>{''.join(body)}</tbody></table>",
                       "Pairwise grid: the column run's score minus the row run's")
            + "<p class=\"note\">Each cell: the column run's score minus the row run's, in points; * marks a difference "
            "that stays significant after Holm's correction over every pair.</p>")


def _pairs_table(board: dict) -> str:
    rows = []
    for p in board["pairs"]:
        rows.append([p["a"], p["b"], num(p["delta"], 2),
                     "n/a" if p["low"] is None else f"{p['low']:+.1f} to {p['high']:+.1f}",
                     whisker(p["delta"], p["low"], p["high"], lo=-100, hi=100, zero=0), str(p["cases"]),
                     num(p["p_value"], 4), num(p["p_holm"], 4), num(p["mcnemar_p"], 4),
                     significant_cell(p)])
    head = ["A", "B", "Δ B − A", "95% CI", "Interval (−100 to 100)", "Cases", "p", "p (Holm)", "McNemar p", "Significant"]
    return table(head, rows, label="Every pair, tested", right={2, 5, 6, 7, 8})


def board_html(board: dict) -> str:
    """The whole HTML file for a board."""
    top = headline(board)
    wording = board["suite"].get("phrasings_note")
    parts = [f"<h1>{esc(top[0])}</h1>", lines([line for line in top[1:] if line != wording], "lines muted")]
    if board["suite"].get("note"):
        parts.append(f"<p class=\"note\"><strong>{esc(board['suite']['note'])}</strong></p>")
    if wording:
        parts.append(f"<p class=\"note\"><strong>{esc(wording)}</strong></p>")
    parts.append(section("Runs, ranked by score", [_runs_table(board)]))
    if board.get("unranked"):
        parts.append(section(UNRANKED_TITLE, [_unranked_table(board)]))
    titles = ("Category scores (%)", RATES_TITLE, COST_TITLE)
    for title, rows in tables(board).items():
        if title in titles and len(rows) > 1:
            parts.append(section(title, [table(rows[0], rows[1:], label=title, right=set(range(1, len(rows[0]))))]))
    if board["pairs"]:
        parts.append(section("Pairwise: which differences are real", [_grid(board), _pairs_table(board)]))
    parts.append(section("What the short heads mean", [legend(board_legend(board))], cls="legend-box"))
    return page("ToolProof leaderboard", parts + [Raw("<p class=\"muted\">Made by ToolProof. "
                                                      "No script, no external request.</p>")])
