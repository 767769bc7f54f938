"""The scorecard's wording section: consistency across phrasings and the worst-phrasing score under
the headline, the score per phrasing, and each case's phrasings side by side with their verdicts.

Every figure is `card["robustness"]`'s (scoring/robustness.py) and every sentence
reports/robustness.py's, so the page says what the terminal says. Hidden for a run of one phrasing.
A part of the card (page/card/), drawn by the scorecard view; it never imports a panel. An edge
module (DOM); case ids and phrasing ids reach the page as textContent only.
"""
from __future__ import annotations

from ..dom import el
from toolproof.plurals import counted


def robustness_section(card: dict, kind: str):
    """#<prefix>-robustness: present only when the card holds several phrasings."""
    from toolproof.reports.page_view import id_prefix
    from toolproof.reports.robustness import consistency_text, worst_text

    found = card.get("robustness")
    if not found:
        return el("div", hidden=True)
    prefix = id_prefix(kind)
    headline = el("div", cls="robustness-headline", children=[
        el("span", consistency_text(found), cls="robustness-consistency", id=f"{prefix}-consistency",
           data_consistent=str(found["consistent_cases"]), data_judged=str(found["judged_cases"])),
        el("span", " · "),
        el("span", worst_text(found), cls="robustness-worst", id=f"{prefix}-worst-score",
           data_score="" if found["worst"]["score"] is None else str(found["worst"]["score"]))])
    method = found["interval_method"]
    notes = el("p", f"The score above is {found['main_score']}. Intervals: {method['method']} "
                    f"({method['resamples']} resamples, seed {method['seed']}).", cls="muted small")
    per = _per_phrasing(found)
    return el("section", cls="block robustness", id=f"{prefix}-robustness", children=[
        el("h3", f"Wording: {len(found['phrasings'])} phrasings"), headline, per, _table(found, prefix), notes])


def _per_phrasing(found: dict):
    """The score per phrasing as a small table, the phrasings resting on most cases first (the
    text views list the same rows in one line)."""
    from toolproof.reports.robustness import phrasing_cases, phrasing_interval
    from toolproof.reports.scorecard import score_text

    rows = sorted(found["per_phrasing"], key=lambda p: (p["phrasing"] != "base", -p["cases"]))
    body = [el("tr", data_phrasing=p["phrasing"], children=[
        el("td", p["phrasing"]), el("td", score_text(p["score"]), cls="num"),
        el("td", phrasing_interval(p).strip(" ()") or "–"), el("td", phrasing_cases(p))]) for p in rows]
    head = el("tr", children=[el("th", t, scope="col") for t in ("phrasing", "score", "95% CI", "cases")])
    table = el("table", cls="phrasing-scores", children=[el("thead", children=[head]), el("tbody", children=body)])
    return el("details", cls="small robustness-per-phrasing", children=[
        el("summary", f"Score per phrasing ({len(rows)})"),
        el("div", cls="table-scroll", tabindex="0", role="region", aria_label="Score per phrasing", children=[table])])


def _table(found: dict, prefix: str):
    """Each case's phrasings side by side: the cases whose verdict depends on the wording first."""
    phrasings = found["phrasings"]
    rows = sorted(found["cases"], key=lambda row: row["consistent"] is not False)
    head = el("tr", children=[el("th", "case")] + [el("th", p, cls="phrasing-id") for p in phrasings])
    body = []
    for row in rows:
        cells = [el("td", row["id"], cls="case-id")]
        for p in phrasings:
            verdict = row["verdicts"].get(p)
            cells.append(el("td", verdict or "–", cls=f"verdict-cell verdict-{(verdict or 'none').lower()}",
                            data_phrasing=p, title=f"{row['id']} in phrasing {p}"))
        state = {True: "consistent", False: "depends", None: "single"}[row["consistent"]]
        body.append(el("tr", cls="phrasing-row", data_case_id=row["id"], data_wording=state, children=cells))
    dependent = sum(row["consistent"] is False for row in rows)
    caption = el("caption", f"{counted(dependent, 'case')} whose verdict depends on the wording, listed first",
                 cls="small muted")
    return el("div", cls="table-scroll", tabindex="0", role="region", aria_label="Each case's phrasings side by side",
              children=[el("table", cls="phrasing-table", id=f"{prefix}-phrasings-table",
                                                      children=[caption, el("thead", children=[head]),
                                                                el("tbody", children=body)])])
