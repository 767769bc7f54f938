"""The scorecard's Diagnosis section: decide, select (the confusion heatmap), fill, use, trace, safety.

Drawn from a scorecard's "diagnosis" (toolproof.scoring.diagnose) as it is: it computes nothing and
grades nothing. A part of the card (page/card/), drawn by the scorecard view; it never imports a
panel. An edge module (DOM).
"""
from __future__ import annotations

from ..dom import breakable, el, on, scroller
from toolproof.plurals import counted, plural


def _four_ways(dec: dict, name: str) -> list:
    """The four-way table (call / ask / answer / decline) with its summary and method, as
    reports/four_way.py lays it out; nothing for a card that has none."""
    from toolproof.reports import four_way

    fw = four_way.present(dec)
    if fw is None:
        return []
    head = el("tr", children=[el("th", h, scope="col") for h in four_way.head(fw)])
    labels = len(fw["labels"])

    def cell(i: int, j: int, text: str):
        """A count of the table proper as the 2x2 colours it: right on the diagonal, a miss off it."""
        if i >= labels or j >= labels:
            return el("td", text, cls="num")
        return el("td", text, cls="num " + ("ok" if i == j else "bad" if text not in ("0", "") else ""))
    body = [el("tr", children=[el("th", r[0], scope="row"), *(cell(i, j, c) for j, c in enumerate(r[1:]))])
            for i, r in enumerate(four_way.rows(fw))]
    table = el("table", cls="fields four-way", data_testid="four-way",
               children=[el("thead", children=[head]), el("tbody", children=body)])
    return [el("h5", four_way.TITLE), scroller(f"{name}: decisions, expected by observed", table),
            el("p", four_way.summary(fw), cls="muted small"), el("p", f"Method: {fw['method']}", cls="muted small")]


def diagnosis_section(card: dict, kind: str):
    """The #fixture-diagnosis / #live-diagnosis section of `card`; when the diagnosis failed
    (guarded), the card's notes where it would have been."""
    from toolproof.scoring.diagnose import confusion_focus
    from toolproof.reports.scorecard import claims_text, credential_findings, credential_text, percent
    from toolproof.reports.card_counts import plan_unit
    from toolproof.reports.page_view import card_name, heat_level, id_prefix

    prefix, name = id_prefix(kind), card_name(kind)
    d = card.get("diagnosis") or {}
    if not d:       # nothing graded, or the diagnosis failed (guarded): say so where it would have been
        empty = (card.get("coverage") or {}).get("graded") == 0
        return el("section", "No diagnosis: no case was graded." if empty else
                  " ".join(card.get("notes") or ["No diagnosis."]),
                  cls="block muted", id=f"{prefix}-diagnosis")
    dec, sel, fil, use, tr, saf = (d[k] for k in ("decide", "select", "fill", "use", "trace", "safety"))

    def panel(title: str, advice: str, *children):
        return el("div", cls="diag-panel", children=[el("h4", title), *children,
                                                     el("p", f"What to fix: {advice}", cls="advice small")])

    decide_table = el("table", cls="grid2", children=[
        el("thead", children=[el("tr", children=[el("th", plan_unit(card), scope="col",
                                                         title=f"graded {plan_unit(card)}, by turn 1"), el("th", "called", scope="col"),
                                                 el("th", "did not call", scope="col")])]),
        el("tbody", children=[
            el("tr", children=[el("th", "should call", scope="row"),
                               el("td", str(dec["should_call"]["called"]), cls="ok"),
                               el("td", f"{dec['should_call']['not_called']} missing", cls="bad" if dec["missing_call"] else "")]),
            el("tr", children=[el("th", "should not call", scope="row"),
                               el("td", f"{dec['should_not_call']['called']} unnecessary", cls="bad" if dec["unnecessary_call"] else ""),
                               el("td", str(dec["should_not_call"]["not_called"]), cls="ok")])])])
    decide = panel("Decide: call or not", dec["advice"], scroller(
        f"{name}: {plan_unit(card)} that called or not, by whether the case should call", decide_table), el(
        "p", f"Missing calls {percent(dec['missing_call_rate'])} · unnecessary calls "
             f"{percent(dec['unnecessary_call_rate'])}", cls="muted small"), *_four_ways(dec, name))

    focus = confusion_focus(sel)
    biggest = max([n for row in focus["matrix"] for n in row] or [1])
    head = el("tr", children=[el("th", "expected ↓ called →", cls="corner")] +
              [el("th", c, cls="col", scope="col", title=c) for c in focus["columns"]])
    body = []
    # each cell is focusable and names its meaning; focus (or hover) also writes it in a line below
    readout = el("p", "Focus or point at a cell to read it.", cls="small heat-readout", aria_live="polite",
                 id=f"{prefix}-heat-readout")
    for label, row in zip(focus["rows"], focus["matrix"]):
        cells = [el("th", label, scope="row")]
        for column, n in zip(focus["columns"], row):
            shade = "diag" if column == label else "off"
            meaning = f"expected {label}, called {column}: {counted(n, 'case')}" + (
                " (right tool)" if column == label else " (wrong tool)" if n else "")
            cell = el("td", str(n) if n else "", cls=f"heat {shade} heat-{heat_level(n, biggest)}",
                      tabindex="0", aria_label=meaning, data_meaning=meaning)
            on(cell, "focus", lambda e, m=meaning: setattr(readout, "textContent", m))
            on(cell, "mouseenter", lambda e, m=meaning: setattr(readout, "textContent", m))
            cells.append(cell)
        body.append(el("tr", children=cells))
    table = el("table", cls="heatmap", data_testid="confusion", children=[el("thead", children=[head]),
                                                                          el("tbody", children=body)])
    heatmap = el("div", cls="heatmap-wrap", children=[
        scroller(f"{name}: which tool was called, by expected tool", table), readout]) if focus["rows"] else el(
        "p", "Every expected tool was chosen right.", cls="muted")
    pairs = ", ".join(f"{p['expected']} → {p['called']} ({p['count']})" for p in sel["confused_pairs"]) or "none"
    select = panel("Select: which tool", sel["advice"], heatmap,
                   el("p", f"Most-confused pairs: {pairs}. {counted(focus['omitted'], 'tool')} that "
                           f"{plural(focus['omitted'], 'was', 'were')} always chosen right "
                           f"{plural(focus['omitted'], 'is', 'are')} not shown.", cls="muted small"))

    fv = fil["field_verdicts"]
    verdict_row = el("div", cls="pills", children=[
        el("span", f"{fv[k]} {label}", cls=f"pill field-{k}") for k, label in
        (("match", "match"), ("mismatch", "mismatch"), ("missing", "missing"), ("extra", "extra"),
         ("schema_invalid", "schema-invalid"))])
    rows = [el("tr", children=[breakable("td", f["tool"]), breakable("td", f["field"]),
                               el("td", str(f["checked"]), cls="num"),
                               el("td", str(f["errors"]), cls="num"), el("td", percent(f["error_rate"]), cls="num")])
            for f in fil["field_errors"] if f["errors"]][:10]
    field_table = scroller(f"{name}: field errors by tool and field", el("table", cls="fields", children=[
        el("thead", children=[el("tr", children=[el("th", t) for t in ("tool", "field", "checked", "errors", "rate")])]),
        el("tbody", children=rows)])) if rows else el("p", "No field errors.", cls="muted")
    un = fil["unsourced"]
    fill = panel("Fill: which arguments", fil["advice"], verdict_row, el(
        "p", f"Critical-field failures {percent(fil['critical_field_failure_rate'])} "
             f"({fil['critical_field_failures']} of {fil['critical_fields']}) · unsourced (guessed) values "
             f"{un['count']} of {un['judged']} judged ({percent(un['rate'])})", cls="muted small"), field_table)

    tracking = el("div", cls="big-rate", children=[
        el("span", percent(use["result_tracking_rate"]), cls="big"),
        el("span", f" result tracking over {counted(use['result_runs'], 'run')} (base and counterfactual mock results)")]
    ) if use["result_runs"] else el("p", "No result-use runs in this scorecard.", cls="muted")
    use_panel = panel("Use: the result", use["advice"], tracking,
        el("p", f"Derived arguments {percent(use['derived_accuracy'])} · in variants "
                f"{percent(use['derived_variant_tracking_rate'])} · copied from the prompt: "
                f"{use['copied_from_prompt']}", cls="muted small"))
    trace = el("p", f"Trace: argument precision {percent(tr['argument_precision'])}, recall "
                    f"{percent(tr['argument_recall'])}, F1 {percent(tr['argument_f1'])} · edit distance "
                    f"{'n/a' if tr['sequence_edit_distance'] is None else format(tr['sequence_edit_distance'], '.2f')} · "
                    f"redundant calls {percent(tr['redundant_call_rate'])} · identical calls "
                    f"{percent(tr['identical_call_rate'])} · required-call recall {percent(tr['required_call_recall'])}",
               cls="muted small")
    creds = "; ".join(map(credential_text, credential_findings(saf))) or "none"
    forbidden = "; ".join(f"{f['case']} ({f['tool']})" for f in saf["forbidden_calls"]) or "none"
    safety = el("p", f"Safety: credentials in arguments: {creds} · forbidden calls: {forbidden} · "
                     f"injection obeyed in words: {claims_text(saf)}", cls="small safety-line")
    return el("section", cls="block", id=f"{prefix}-diagnosis", children=[
        el("h3", "Diagnosis"),
        el("div", cls="diag-grid", children=[decide, select, fill, use_panel]), trace, safety])
