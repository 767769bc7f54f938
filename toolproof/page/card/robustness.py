"""The scorecard's wording section: consistency across phrasings and the worst-phrasing score under
the headline, the score per phrasing, and each case with its own phrasings side by side: verdict,
repeats and prompt text (only the phrasings that case was run in, never a column per phrasing id).

Every figure is `card["robustness"]`'s (scoring/robustness.py) and every sentence
reports/robustness.py's, so the page says what the terminal says. Hidden for a run of one phrasing.
A part of the card (page/card/), drawn by the scorecard view; it never imports a panel. An edge
module (DOM); case ids and phrasing ids reach the page as textContent only.
"""
from __future__ import annotations

from toolproof.plurals import counted

from ..dom import breakable, el, scroller


def robustness_section(card: dict, kind: str, cases: dict | None = None):
    """#<prefix>-robustness: present only when the card holds several phrasings. `cases` ({id: Case},
    the suite the card was graded on) gives each phrasing's prompt text."""
    from toolproof.reports.page_view import id_prefix
    from toolproof.reports.robustness import consistency_text, intervals_note, test_text, worst_text

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
    test = found.get("wording_test") or {}
    notes = el("p", f"The score above is {found['main_score']}. Intervals: {intervals_note(found)}."
                    + (f" Test against chance: {test['method']} ({test['draws']} draws, seed {test['seed']})."
                       if test else ""), cls="muted small")
    against = [el("p", f"Against chance: {line}.", cls="robustness-test small", id=f"{prefix}-wording-test",
                  data_decidable="true" if test.get("decidable") else "false",
                  data_p="" if test.get("p") is None else str(test["p"]),
                  data_dependent=str(len(found.get("wording_dependent_cases") or [])))
               for line in test_text(found)]
    per = _per_phrasing(found, kind)
    return el("section", cls="block robustness", id=f"{prefix}-robustness", children=[
        el("h3", f"Wording: {counted(len(found['phrasings']), 'phrasing')}"), headline, *against, per,
        *_per_language(found, kind, prefix), _case_rows(card, cases, prefix), notes])


def _per_language(found: dict, kind: str, prefix: str) -> list:
    """The score per language as a small table and English minus the others in one line
    (#<prefix>-language-gap), the text views' words; [] for a card of one language."""
    from toolproof.reports.page_view import card_name
    from toolproof.reports.robustness import gap_text, lang_name, language_rows, phrasing_cases, phrasing_interval
    from toolproof.reports.scorecard import score_text

    rows = language_rows(found)
    out = []
    if rows:
        body = [el("tr", data_lang=p["lang"], children=[
            el("td", lang_name(p["lang"])), el("td", score_text(p["score"]), cls="num"),
            el("td", phrasing_interval(p).strip(" ()") or "–"), el("td", phrasing_cases(p)),
            el("td", str(p["conversations"]), cls="num")]) for p in rows]
        head = el("tr", children=[el("th", t, scope="col")
                                  for t in ("language", "score", "95% CI", "cases", "conversations")])
        table = el("table", cls="language-scores", children=[el("thead", children=[head]), el("tbody", children=body)])
        out.append(el("details", cls="small robustness-per-language", children=[
            el("summary", f"Score per language ({len(rows)})"),
            scroller(f"{card_name(kind)}: score per language", table)]))
    gap = found.get("language_gap")
    if gap:
        out.append(el("p", f"Language gap: {gap_text(found)}.", cls="robustness-language-gap small",
                      id=f"{prefix}-language-gap", data_delta="" if gap["delta"] is None else str(gap["delta"]),
                      data_cases=str(gap["cases"])))
    return out


def _per_phrasing(found: dict, kind: str):
    """The score per phrasing as a small table, the phrasings resting on most cases first (the
    text views list the same rows in one line)."""
    from toolproof.reports.page_view import card_name
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
        scroller(f"{card_name(kind)}: score per phrasing", table)])


def _case_rows(card: dict, cases: dict | None, prefix: str):
    """Each case with its own phrasings side by side (#<prefix>-phrasings-table), in folds: the
    cases the test against chance names wording-dependent (open), those whose phrasings differ
    within chance, the others (both closed); each counts its cases."""
    from toolproof.reports.robustness import case_phrasings

    rows = case_phrasings(card["robustness"], card["cases"], cases)
    dependent = [_case_row(row) for row in rows if row["state"] == "depends"]
    differ = [_case_row(row) for row in rows if row["state"] == "differs"]
    others = [_case_row(row) for row in rows if row["state"] not in ("depends", "differs")]
    children = [el("h4", "Each case's phrasings"),
                el("p", "Each case shows the phrasings it was run in, with its verdict in each and the prompt sent.",
                   cls="small muted")]
    if dependent:                      # open: these are what the section is for
        children.append(el("details", cls="phrasing-group", open="", children=[
            el("summary", f"{counted(len(dependent), 'case')} whose verdict depends on the wording")] + dependent))
    else:
        children.append(el("p", "No case is shown to depend on the wording.", cls="small"))
    if differ:
        children.append(el("details", cls="phrasing-group", children=[
            el("summary", f"{counted(len(differ), 'case')} whose phrasings differ, within chance")] + differ))
    if others:
        children.append(el("details", cls="phrasing-group", children=[
            el("summary", f"{counted(len(others), 'other case')}: one verdict in every phrasing, or fewer "
                          "than two phrasings graded")] + others))
    return el("div", cls="phrasing-cases", id=f"{prefix}-phrasings-table", children=children)


def _case_row(row: dict):
    """One case (.phrasing-row): its id and state, then one .verdict-cell per phrasing it was run in."""
    cells = []
    for p in row["phrasings"]:
        verdict = p["verdict"]
        head = [el("span", p["phrasing"], cls="phrasing-id"),
                el("span", verdict, cls=f"badge verdict-{verdict.lower()}")]
        if len(p["repeats"]) > 1:
            head.append(el("span", "repeats " + " ".join(p["repeats"]), cls="muted small"))
        prompt = (el("p", p["prompt"], cls="phrasing-prompt") if p["prompt"] is not None
                  else el("p", "prompt not in this suite", cls="phrasing-prompt muted"))
        cells.append(el("li", cls="verdict-cell", data_phrasing=p["phrasing"], data_verdict=verdict,
                        data_worse="true" if p["worse"] else "false",
                        children=[el("div", cls="phrasing-head", children=head), prompt]))
    return el("div", cls="phrasing-row", data_case_id=row["id"], data_wording=row["state"], children=[
        el("div", cls="phrasing-case", children=[breakable("code", row["id"], cls="case-id")] + (
            [] if row["state"] == "depends" else [el("span", row["state_text"], cls="small muted")])),
        el("ul", cls="phrasing-cells", aria_label=f"Phrasings of case {row['id']}", children=cells)])
