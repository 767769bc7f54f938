"""The Arms card of a run with arms, and the one door through which the page grades a results
document that holds arms (a live run's, a kept run's, an opened file's; Compare takes its baseline
and the Leaderboard one run per arm, as `compare` and `board` do).

A run with arms sent the same plan under several settings; its results file holds one transcript
per arm for each conversation, which the plain reading refuses. The page routes such a document
here: the scorecard it draws is the baseline arm's (its own document, arms/analysis.arm_document,
read as any results file), and the card's `arms` block is arms/analysis.arms_card's, drawn with
the rows and lines every report prints (reports/arms.py): a table (`#arms-table` on the live
card, `#<prefix>-arms-table` on another; one `tr.arm-row[data-arm][data-significant][data-refused]`
per arm), then what each arm's row cannot hold, then the method. Nothing is worked out here.

A part of the card (page/card/): it never imports a panel. An edge module (DOM).
"""
from __future__ import annotations

import json

from ..dom import el, scroller

RIGHT = {2, 3, 4, 5}          # the columns that hold figures (reports/arms.py's HTML table says the same)


def has_arms(doc) -> bool:
    return isinstance(doc, dict) and "arms" in doc


def baseline_document(doc: dict, source: str) -> dict:
    """A plain document as it is; one with arms as its baseline's own results document, which
    every plain reader reads (a ToolProofError naming `source` for a malformed arms block)."""
    if not has_arms(doc):
        return doc
    from toolproof.arms.analysis import arm_document
    from toolproof.scoring.results_doc import evidence

    return arm_document(evidence(doc), None, source)


class ArmsBlock:
    """The `arms` block of a results document with arms, for the weights shown: graded again (as
    `grade` does) only when the weights change, and kept for the weights it was graded at."""

    def __init__(self, doc: dict, cases, tools: dict, *, prices: dict | None = None, source: str = "the run"):
        from toolproof.scoring.results_doc import evidence

        self.doc, self.cases, self.tools = evidence(doc), list(cases), tools
        self.prices, self.source = prices, source
        self._at: tuple[str, list] | None = None

    def __call__(self, weights: dict) -> list:
        from toolproof.arms.analysis import arms_card
        from toolproof.datafiles import format_schema

        key = json.dumps(weights, sort_keys=True)
        if self._at is None or self._at[0] != key:
            card = arms_card(self.doc, self.cases, self.tools, format_schema("transcripts"), weights=weights,
                             prices=self.prices, source=self.source)
            self._at = (key, card["arms"])
        return self._at[1]


def results_card(doc: dict, cases, tools: dict, source: str, *, worlds: dict | None = None) -> dict:
    """The scorecard of a results document as the kept runs list it (scoring/results_doc.py's
    card_of_results for a plain one; with arms, the baseline's card and the `arms` block)."""
    from toolproof.datafiles import format_schema
    from toolproof.scoring.results_doc import card_of_results, evidence

    if not has_arms(doc):
        return card_of_results(doc, cases, tools, format_schema("transcripts"), source, worlds=worlds)
    from toolproof.arms.analysis import arms_card

    return arms_card(evidence(doc), list(cases), tools, format_schema("transcripts"), source=source)


def arm_runs(runs: list) -> list:
    """[(document, name)] with each results document holding arms as one run per arm that ran,
    named "NAME (arm ARM)": what `board` ranks for such a file (arms/analysis.arm_documents)."""
    if not any(has_arms(doc) for doc, _ in runs):
        return runs
    from toolproof.arms.analysis import arm_documents
    from toolproof.scoring.results_doc import evidence

    return [run for doc, name in runs for run in (arm_documents(evidence(doc), name) if has_arms(doc) else [(doc, name)])]


def arms_section(card: dict, kind: str):
    """The card's Arms section, or None when the card has no arms block."""
    from toolproof.reports.arms import HEAD, METHOD, TITLE, arm_lines, present, rows
    from toolproof.reports.page_view import card_name, id_prefix

    block = present(card)
    if block is None:
        return None
    prefix = id_prefix(kind)
    table_id = "arms-table" if prefix == "live" else f"{prefix}-arms-table"
    body = el("tbody")
    for arm, cells in zip(block, rows(block)):
        refused = bool(arm.get("refused"))
        row = el("tr", cls="arm-row" + (" arm-baseline" if arm.get("baseline") else ""), data_arm=str(arm["name"]),
                 data_significant="true" if arm.get("significant") is True else "false",
                 data_refused="true" if refused else "false")
        row.appendChild(el("th", cells[0], scope="row", cls="arm-name"))
        for i, cell in enumerate(cells[1:], start=1):
            row.appendChild(el("td", cell, cls="num" if i in RIGHT else ("arm-settings" if i == 1 else None)))
        body.appendChild(row)
    table = el("table", cls="arms-table", id=table_id, children=[
        el("thead", children=[el("tr", children=[el("th", h, scope="col", cls="num" if i in RIGHT else None)
                                                 for i, h in enumerate(HEAD)])]), body])
    base = next((a for a in block if a.get("baseline")), block[0])
    section = el("section", cls="block arms-block", id=f"{prefix}-arms", data_arms=str(len(block)))
    section.appendChild(el("h3", f"{TITLE} (the first is the baseline)"))
    section.appendChild(el("p", f"The score, rates, categories and cases of this card are the baseline arm's "
                                f"({base['name']}); each other arm is set against it, case by case.",
                           cls="muted small arms-intro"))
    section.appendChild(scroller(f"{card_name(kind)}: arms against the baseline", table))
    lines = [(arm, line) for arm in block for line in arm_lines(arm)]
    if lines:
        section.appendChild(el("ul", cls="arm-lines small", children=[
            el("li", cls="arm-line", data_arm=str(arm["name"]), children=[
                el("strong", str(arm["name"])), el("span", f": {line}")]) for arm, line in lines]))
    section.appendChild(el("p", f"Method: {METHOD}.", cls="muted small arms-method"))
    return section
