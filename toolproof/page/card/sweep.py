"""The scorecard's tool-count sweep: #sweep-chart, the score at each padding level with its interval.

Drawn as SVG from `toolproof.reports.sweep.sweep_geometry`, which does every computation; this
module only makes the nodes. A part of the card (page/card/), drawn by the scorecard view; it never
imports a panel. An edge module (DOM).
"""
from __future__ import annotations

from ..dom import el, svg


def sweep_chart(card: dict, kind: str):
    """The sweep's curve: #sweep-chart, one point per level with its interval whisker."""
    from toolproof.reports.page_view import id_prefix
    from toolproof.reports.sweep import sweep_geometry

    if "sweep" not in card:
        return el("div", hidden=True)
    g, prefix = sweep_geometry(card["sweep"]), id_prefix(kind)
    chart = svg("svg", viewBox=f"0 0 {g['width']} {g['height']}", role="img",
                id="sweep-chart" if kind == "live" else f"{prefix}-sweep-chart",
                aria_label="Score by number of padding tools, with 95% intervals over cases")
    chart.setAttribute("class", "sweep-chart")
    title = svg("title")
    title.textContent = "Score (0-100) by padding level, 95% interval whiskers (over cases); input tokens per level below"
    chart.appendChild(title)
    for line in g["grid"]:
        rule = svg("line", x1=g["left"], x2=g["right"], y1=line["y"], y2=line["y"])
        rule.setAttribute("class", "sweep-grid")
        tick = svg("text", x=g["left"] - 8, y=line["y"] + 4, text_anchor="end")
        tick.setAttribute("class", "sweep-tick")
        tick.textContent = str(line["value"])
        chart.appendChild(rule)
        chart.appendChild(tick)
    if g["tool_path"]:                 # the correct-tool rate, dashed: it moves when the score sits at 0
        tool = svg("path", d=g["tool_path"], data_metric="correct_tool_rate")
        tool.setAttribute("class", "sweep-tool-line")
        chart.appendChild(tool)
    if g["path"]:
        curve = svg("path", d=g["path"])
        curve.setAttribute("class", "sweep-line")
        chart.appendChild(curve)
    for p in g["points"]:
        sweep_point(chart, p, g["baseline"])
    seed = card["sweep"].get("seed")
    note = el("p", "Each level is the whole scope run again with that many extra tools from other "
                   "domains" + (f" (pad seed {seed})" if seed is not None else "") + ". A difference "
                   "between levels smaller than their intervals means nothing. Solid: the score; "
                   "dashed: the correct-tool rate (%).", cls="muted small")
    partial = el("p", "Hollow points rest on fewer cases than planned: " + "; ".join(g["partial"]) + ".",
                 cls="small sweep-partial", id=f"{prefix}-sweep-partial") if g["partial"] else None
    return el("section", cls="block sweep", id=f"{prefix}-sweep", children=[
        el("h3", "Tool-count sweep"), el("figure", cls="chart-box", children=[chart]), partial, note])


def sweep_point(chart, p: dict, baseline: float) -> None:
    """One level on the chart: its whisker, its dot and score, its pad count and input tokens."""
    if p["whisker"]:
        w = svg("line", x1=p["x"], x2=p["x"], y1=p["whisker"]["y1"], y2=p["whisker"]["y2"], data_pad=p["pad"])
        w.setAttribute("class", "sweep-whisker")
        chart.appendChild(w)
    if p["y"] is not None:
        dot = svg("circle", cx=p["x"], cy=p["y"], r=5, data_pad=p["pad"], data_score=p["score"],
                  data_hollow="true" if p["hollow"] else "false")
        dot.setAttribute("class", "sweep-point hollow" if p["hollow"] else "sweep-point")
        chart.appendChild(dot)
        value = svg("text", x=p["x"] + 8, y=p["y"] - 8)
        value.setAttribute("class", "sweep-value")
        value.textContent = p["text"]
        chart.appendChild(value)
    for dy, text, cls in ((18, p["axis"], "sweep-axis"), (34, p["cost"], "sweep-cost")):
        label = svg("text", x=p["x"], y=baseline + dy, text_anchor="middle", data_pad=p["pad"])
        label.setAttribute("class", cls)
        label.textContent = text
        chart.appendChild(label)
