"""How a tool-count sweep is shown: the chart's geometry (score per pad level with its 95%
interval, the input-token cost of each level as a label under its point) and the same numbers as
terminal and Markdown lines.

Returns plain numbers and strings; the page (web_scorecard) turns them into SVG nodes, so the
chart is tested in CPython. Pure: no I/O, no DOM.
"""
from __future__ import annotations

from toolproof.plurals import counted, plural
from .markdown import md_text

WIDTH, HEIGHT = 560, 260
LEFT, RIGHT, TOP, BOTTOM = 96, 96, 16, 52     # room for the axis labels and the cost labels


def _x(pad: int, low: int, high: int) -> float:
    span = WIDTH - LEFT - RIGHT
    if high == low:
        return LEFT + span / 2
    return round(LEFT + span * (pad - low) / (high - low), 1)


def _y(score: float) -> float:
    return round(TOP + (HEIGHT - TOP - BOTTOM) * (1 - max(0.0, min(score, 100.0)) / 100), 1)


def tokens_text(value: float | None) -> str:
    """Mean input tokens of a level's first requests, for a label ("n/a" without usage)."""
    return "tokens n/a" if value is None else f"{value:,.0f} input tok"


def cases_text(row: dict) -> str:
    """'56 of 62 cases' (what a level's point rests on); '' for a row that does not say."""
    if row.get("cases") is None:
        return ""
    planned = row.get("cases_planned", row["cases"])
    return f"{row['cases']} of {counted(planned, 'case')}" if planned != row["cases"] else counted(row["cases"], "case")


def partial_levels(sweep: dict) -> list[str]:
    """'pad 8: 56 of 62 cases' for each level whose point rests on fewer cases than it planned,
    with ' (no score)' when the level's row has none (its `no_score_reason`)."""
    return [f"pad {row['pad']}: {cases_text(row)}" + (" (no score)" if row.get("no_score_reason") else "")
            for row in sweep.get("levels") or []
            if row.get("cases") is not None and row["cases"] < row.get("cases_planned", row["cases"])]


def sweep_geometry(sweep: dict) -> dict:
    """{"width", "height", "points": [...], "path", "tool_path", "grid": [...], "baseline",
    "partial"} for `sweep.levels`: one point per level at (pad, score), a whisker from low to high
    when the interval is known, a label with the score, and under the axis the cases it rests on,
    the tools offered and the input tokens. A level graded on fewer cases than it planned is
    `hollow` and named in `partial`; `tool_path` draws the correct-tool rate (0-100%), which
    still moves when the score sits at 0."""
    levels = sweep.get("levels") or []
    pads = [row["pad"] for row in levels]
    low, high = (min(pads), max(pads)) if pads else (0, 0)
    points = []
    for row in levels:
        x, score = _x(row["pad"], low, high), row["score"]
        point = {"pad": row["pad"], "x": x, "score": score, "y": None if score is None else _y(score),
                 "text": ("no score" if row.get("no_score_reason") else "n/a") if score is None else f"{score:.1f}",
                 "whisker": None,
                 "axis": f"pad {row['pad']}" + (f" · {cases_text(row)}" if cases_text(row) else ""),
                 "hollow": row.get("cases") is not None and row["cases"] < row.get("cases_planned", row["cases"]),
                 "tool_y": None if row.get("correct_tool_rate") is None else _y(100 * row["correct_tool_rate"]),
                 "cost": (f"{row['tools_offered_mean']:g} {plural(row['tools_offered_mean'], 'tool')} · " if row.get("tools_offered_mean") is not None
                          else "") + tokens_text(row.get("input_tokens_mean"))}
        if score is not None and row.get("low") is not None and row.get("high") is not None:
            point["whisker"] = {"y1": _y(row["high"]), "y2": _y(row["low"])}
        points.append(point)
    drawn = [p for p in points if p["y"] is not None]
    path = " ".join(f"{'M' if i == 0 else 'L'}{p['x']},{p['y']}" for i, p in enumerate(drawn))
    rated = [p for p in points if p["tool_y"] is not None]
    tool_path = " ".join(f"{'M' if i == 0 else 'L'}{p['x']},{p['tool_y']}" for i, p in enumerate(rated))
    grid = [{"value": v, "y": _y(v)} for v in (0, 25, 50, 75, 100)]
    return {"width": WIDTH, "height": HEIGHT, "left": LEFT, "right": WIDTH - RIGHT, "points": points,
            "path": path, "tool_path": tool_path, "grid": grid, "baseline": HEIGHT - BOTTOM,
            "partial": partial_levels(sweep)}


def _cells(row: dict) -> list[str]:
    def num(v, fmt):
        return "n/a" if v is None else format(v, fmt)
    interval = "n/a" if row["low"] is None else f"{row['low']:.0f}–{row['high']:.0f}"
    rate = "n/a" if row["correct_tool_rate"] is None else f"{100 * row['correct_tool_rate']:.1f}%"
    cases = "n/a" if row.get("cases") is None else f"{row['cases']}/{row.get('cases_planned', row['cases'])}"
    return [str(row["pad"]), num(row["score"], ".1f"), interval, rate, cases,
            num(row["tools_offered_mean"], "g"), num(row["input_tokens_mean"], ",.0f")]


HEADERS = ["pad", "score", "95% CI over cases", "correct tool", "cases", "tools offered", "input tokens"]
WIDTHS = [5, 7, 13, 13, 9, 13, 13]
NOISE = "a difference between levels smaller than their intervals means nothing"


def sweep_text(card: dict) -> list[str]:
    """The sweep as terminal lines (nothing for a run that is not a sweep)."""
    sweep = card.get("sweep")
    if not sweep:
        return []
    seed = "n/a" if sweep.get("seed") is None else sweep["seed"]
    lines = ["", f"Tool-count sweep (pad seed {seed}; {NOISE})",
             " ".join(f"{h:>{w}}" for h, w in zip(HEADERS, WIDTHS))]
    lines += [" ".join(f"{c:>{w}}" for c, w in zip(_cells(row), WIDTHS)) for row in sweep["levels"]]
    partial = partial_levels(sweep)
    return lines + ([f"Levels graded on fewer cases than planned (compare them with care): {'; '.join(partial)}"]
                    if partial else [])


def sweep_markdown(card: dict) -> list[str]:
    sweep = card.get("sweep")
    if not sweep:
        return []
    return (["", "## Tool-count sweep", "", f"Pad seed {'n/a' if sweep.get('seed') is None else md_text(sweep['seed'])}; {NOISE}.", "",
             "| " + " | ".join(HEADERS) + " |", "|" + "---:|" * len(HEADERS)]
            + ["| " + " | ".join(md_text(c) for c in _cells(row)) + " |" for row in sweep["levels"]]
            + (["", f"Levels graded on fewer cases than planned (compare them with care): "
                    f"{'; '.join(partial_levels(sweep))}."] if partial_levels(sweep) else []))
