"""The robustness section (scoring/robustness.py) as words: the line beside the headline, terminal
and Markdown blocks, and the JUnit suite where a case whose verdict depends on the wording fails.

Every view says the consistency as "N of M cases" with its interval, the worst-phrasing score with
its interval, and that the main score is the mean over each case's phrasings. Absent from every
view when the card has no `robustness` (a run of one phrasing).

Pure: returns strings and lists.
"""
from __future__ import annotations

from toolproof.scoring.coverage import below_half
from toolproof.scoring.repeats import majority

from .figures import interval_span, percent, score_text
from .markdown import md_text


def _ci(bounds: dict | None, scale: float = 1, unit: str = "") -> str:
    return f" (95% CI {interval_span(bounds, scale, unit)})" if bounds else ""


def consistency_text(found: dict) -> str:
    """'9 of 12 cases consistent across phrasings (75.0%, 95% CI 50%–92%)'."""
    bounds = found.get("consistency_interval")
    ci = f", 95% CI {interval_span(bounds, 100, '%')}" if bounds else ""
    return (f"{found['consistent_cases']} of {found['judged_cases']} cases consistent across phrasings "
            f"({percent(found['consistency_rate'])}{ci})")


def shown(card: dict) -> dict | None:
    """card["robustness"] as every view shows it. Below half of the plan graded the headline says
    "No score", so no score stands under it either: the worst-phrasing score and the score per
    phrasing are withheld (None, and `withheld` set); consistency, a count, stays."""
    found = card.get("robustness")
    if not found or not below_half(card.get("coverage")):
        return found
    return {**found, "withheld": True, "worst": {**found["worst"], "score": None, "interval": None},
            "per_phrasing": [{**p, "score": None, "interval": None, "interval_note": None}
                             for p in found["per_phrasing"]]}


def worst_text(found: dict) -> str:
    """'worst-phrasing score 58.3 / 100 (95% CI 49–67), 72 cases'; withheld below half of the plan."""
    worst = found["worst"]
    if found.get("withheld"):
        return f"no worst-phrasing score: below half of the plan graded ({_cases(worst['cases'])})"
    return f"worst-phrasing score {score_text(worst['score'])} / 100{_ci(worst.get('interval'))}, {_cases(worst['cases'])}"


def headline_line(card: dict) -> str:
    """The one line beside the score; '' for a card of one phrasing."""
    found = shown(card)
    if not found:
        return ""
    return (f"Wording: {consistency_text(found)}; {worst_text(found)}. The score is {found['main_score']} "
            f"({len(found['phrasings'])} phrasings: {', '.join(found['phrasings'])}).")


def phrasing_interval(row: dict) -> str:
    """' (95% CI 52–73)', ' (too few cases for an interval)' under 5 cases, or ''."""
    if row.get("interval_note"):
        return " (too few cases for an interval)"
    return _ci(row.get("interval"))


def phrasing_cases(row: dict) -> str:
    """'5 of 7 cases' (graded in the phrasing, of the cases the run planned in it), or '5 cases'."""
    planned = row.get("planned")
    return _cases(row["cases"]) if planned is None else f"{row['cases']} of {_cases(planned)}"


def per_phrasing_text(found: dict) -> list[str]:
    return [f"{p['phrasing']}: {score_text(p['score'])}{phrasing_interval(p)}, {phrasing_cases(p)}"
            for p in found["per_phrasing"]]


def _cases(n: int) -> str:
    return f"{n} case" if n == 1 else f"{n} cases"


def dependent_text(found: dict) -> list[str]:
    """'case-a: PASS in base, terse; FAIL in chatty' for each case whose verdict depends on the wording."""
    out = []
    for row in found["cases"]:
        if row["consistent"] is not False:
            continue
        groups: dict[str, list[str]] = {}
        for phrasing, verdict in row["verdicts"].items():
            if verdict is not None:
                groups.setdefault(verdict, []).append(phrasing)
        out.append(f"{row['id']}: " + "; ".join(f"{v} in {', '.join(ps)}" for v, ps in groups.items()))
    return out


def case_wording(case: dict) -> str:
    """A scorecard case entry's phrasings: 'base PASS · chatty FAIL (depends on the wording)', or ''
    for a case run in one phrasing. Phrasings are not repeats: their disagreement is never "flaky"."""
    found = case.get("phrasings")
    if not found:
        return ""
    verdicts = {majority(list(vs)) for vs in found.values()} - {"ERROR"}
    return (" · ".join(f"{p} {' '.join(vs)}" for p, vs in found.items())
            + (" (depends on the wording)" if len(verdicts) > 1 else ""))


def robustness_text(card: dict) -> list[str]:
    """The terminal block (after the statistics); [] for a card of one phrasing."""
    found = shown(card)
    if not found:
        return []
    method = found["interval_method"]
    lines = ["", "Wording sensitivity", f"  {consistency_text(found)}", f"  {worst_text(found)}",
             "  per phrasing: " + " · ".join(per_phrasing_text(found)),
             f"  intervals: {method['method']} ({method['resamples']} resamples, seed {method['seed']})"]
    dependent = dependent_text(found)
    lines.append("  verdict depends on the wording: " + ("none" if not dependent else str(len(dependent))))
    lines += [f"    {line}" for line in dependent]
    return lines


def robustness_markdown(card: dict) -> list[str]:
    """The Markdown section (model and file text through md_text)."""
    found = shown(card)
    if not found:
        return []
    lines = ["", "## Wording sensitivity", "", f"- {md_text(consistency_text(found))}", f"- {md_text(worst_text(found))}",
             f"- the score is {md_text(found['main_score'])}", "",
             "| phrasing | score | cases |", "|---|---:|---:|"]
    for p in found["per_phrasing"]:
        lines.append(f"| {md_text(p['phrasing'])} | {score_text(p['score'])}{phrasing_interval(p)} | {phrasing_cases(p)} |")
    phrasings = found["phrasings"]
    dependent = [row for row in found["cases"] if row["consistent"] is False]
    if dependent:
        lines += ["", "Cases whose verdict depends on the wording:", "",
                  "| case | " + " | ".join(md_text(p) for p in phrasings) + " |",
                  "|---|" + "---|" * len(phrasings)]
        for row in dependent:
            cells = [md_text(row["verdicts"][p]) if row["verdicts"].get(p) else "-" for p in phrasings]
            lines.append(f"| {md_text(row['id'])} | " + " | ".join(cells) + " |")
    return lines


def robustness_junit(card: dict) -> list[tuple[str, list]]:
    """A "wording" suite: one testcase per case run in several phrasings, failing when its verdict
    depends on the wording (a case that passes in one wording and fails in another is not ready)."""
    found = card.get("robustness")
    if not found:
        return []
    by_id = {row["id"]: text for row, text in zip([r for r in found["cases"] if r["consistent"] is False],
                                                 dependent_text(found))}
    cases = []
    for row in found["cases"]:
        if row["consistent"] is None:
            continue
        text = by_id.get(row["id"])
        cases.append((row["id"], None, "", "") if text is None else
                     (row["id"], "failure", f"WORDING: {text}", text))
    return [("wording", cases)] if cases else []
