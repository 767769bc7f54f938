"""The robustness section (scoring/robustness.py) as words: the line beside the headline, terminal
and Markdown blocks, the JUnit suite where a case whose verdict depends on the wording fails, and
each case's own phrasings with their verdicts and prompts (the page's wording view).

Every view says the consistency as "N of M cases" with its interval, the worst-phrasing score with
its interval and the worst-phrasing score chance alone would give, the test against chance
(scoring/wording_test.py: does wording matter at all, which cases), and that the main score is the
mean over each case's phrasings. A case "depends on the wording" only when the test names it
(`wording_dependent_cases`); phrasings that merely disagree are said to differ "within chance".
Absent from every view when the card has no `robustness` (a run of one phrasing).

Pure: returns strings and lists.
"""
from __future__ import annotations

from toolproof.plurals import counted
from toolproof.scoring.withhold import UNWEIGHTED
from toolproof.scoring.repeats import majority
from toolproof.suite.model import phrased

from .case_view import shown as shown_text
from .figures import interval_span, percent, score_text
from .markdown import md_text

# A case's row in the wording view: data-wording, and what it says (scoring/robustness.case_table's
# `consistent`: False, True, or None with fewer than two graded phrasings; "depends" only for a case
# the test against chance names, `wording_dependent`)
WORDING_STATES = {False: "differs", True: "consistent", None: "single"}
STATE_TEXT = {"depends": "verdict depends on the wording", "differs": "verdicts differ, within chance",
              "consistent": "one verdict in every phrasing", "single": "fewer than two phrasings graded"}


def state_of(row: dict) -> str:
    """A case table row's state: depends (named by the test), differs, consistent or single."""
    return "depends" if row.get("wording_dependent") else WORDING_STATES[row["consistent"]]


def _ci(bounds: dict | None, scale: float = 1, unit: str = "") -> str:
    return f" (95% CI {interval_span(bounds, scale, unit)})" if bounds else ""


def consistency_text(found: dict) -> str:
    """'9 of 12 cases consistent across phrasings (75.0%, 95% CI 50%–92%)'."""
    bounds = found.get("consistency_interval")
    ci = f", 95% CI {interval_span(bounds, 100, '%')}" if bounds else ""
    return (f"{found['consistent_cases']} of {counted(found['judged_cases'], 'case')} consistent across phrasings "
            f"({percent(found['consistency_rate'])}{ci})")


def shown(card: dict) -> dict | None:
    """card["robustness"] as every view shows it. Below half of the plan graded the headline says
    "No score", so no score stands under it either: the worst-phrasing score and the score per
    phrasing are withheld (None, and `withheld` set); consistency, a count, stays."""
    found = card.get("robustness")
    # the card's own fields say it (scoring/withhold.py nulled the numbers and gave the reason)
    if not found or card.get("score") is not None or card.get("no_score_reason") in (None, UNWEIGHTED):
        return found
    gap = found.get("language_gap")
    return {**found, "withheld": True, "worst_phrasing_expected_by_chance": None,
            "worst": {**found["worst"], "score": None, "interval": None},
            "per_phrasing": [{**p, "score": None, "interval": None, "interval_note": None}
                             for p in found["per_phrasing"]],
            **({"per_language": [{**p, "score": None, "interval": None, "interval_note": None}
                                 for p in found["per_language"]]} if found.get("per_language") else {}),
            **({"language_gap": {**gap, "english": None, "other": None, "delta": None, "interval": None,
                                 "interval_note": None}} if gap else {})}


def worst_text(found: dict) -> str:
    """'worst-phrasing score 58.3 / 100 (95% CI 49–67), 72 cases; chance alone would give 57.9';
    withheld below half of the plan."""
    worst = found["worst"]
    if found.get("withheld"):
        return f"no worst-phrasing score: below half of the plan graded ({_cases(worst['cases'])})"
    chance = found.get("worst_phrasing_expected_by_chance")
    return (f"worst-phrasing score {score_text(worst['score'])} / 100{phrasing_interval(worst)}, {_cases(worst['cases'])}"
            + ("" if chance is None else f"; chance alone would give {score_text(chance)}"))


def method_text(method: dict) -> str:
    """How the section's intervals were made: the scores', and consistency's (a card made before
    issue 38 names its bootstrap's resamples and seed)."""
    draws = f" ({method['resamples']} resamples, seed {method['seed']})" if "resamples" in method else ""
    return method["method"] + draws + (f"; consistency: {method['consistency']}" if method.get("consistency") else "")


def intervals_note(found: dict) -> str:
    """The section's interval methods (method_text), and the language gap's when the card has one."""
    gap = found.get("language_gap")
    return method_text(found["interval_method"]) + (f"; language gap: {gap['method']}" if gap else "")


def _p(p: float) -> str:
    return "p < 0.001" if p < 0.001 else f"p = {p:.3g}"


def test_text(found: dict) -> list[str]:
    """The test against chance in words: whether wording matters at all, then what can be said of
    single cases. [] for a card made before the test existed."""
    test = found.get("wording_test")
    if not test:
        return []
    differ = sum(row["consistent"] is False for row in found["cases"])
    differ_text = (f"verdicts differ between phrasings in {_cases(differ)}, "
                   if differ else "")
    if not test["decidable"]:
        return [f"wording cannot be told from chance: {differ_text + 'but ' if differ else ''}with one graded try "
                "per phrasing only repeats could show how much a case varies on its own (run 2 or more repeats); "
                "no case is named wording-dependent"]
    level = test["level"]
    lead = (f"wording matters for this model ({_p(test['p'])}, level {level:g})" if test["p"] <= level else
            f"no evidence that wording matters beyond chance ({_p(test['p'])}, level {level:g})")
    named = found.get("wording_dependent_cases") or []
    tested = test["cases_tested"]
    if not tested:
        cases = "no case with repeats gave differing verdicts, so no case is named"
    elif named:
        cases = (f"{_cases(len(named))} {'depends' if len(named) == 1 else 'depend'} on the wording "
                 f"({test['correction']}-corrected across {_cases(tested)} tested)")
    elif not test["cases_reachable"]:
        cases = (f"no single case can be named at this many repeats: the smallest p any case could reach is "
                 f"{test['smallest_possible_p']:.2g}, the {test['correction']}-corrected level needs "
                 f"{test['threshold']:.2g} or less ({level:g} / {_cases(tested)} tested)")
    elif test["p"] > level:
        cases = "no case is named (cases are named only when wording matters at all)"
    else:
        cases = f"no single case passes the {test['correction']}-corrected test ({_cases(tested)} tested)"
    return [f"{lead}; {differ_text}{cases}"]


def headline_line(card: dict) -> str:
    """The one line beside the score; '' for a card of one phrasing."""
    found = shown(card)
    if not found:
        return ""
    test = test_text(found)
    return (f"Wording: {consistency_text(found)}; {worst_text(found)}. "
            + (f"Against chance: {test[0]}. " if test else "")
            + f"The score is {found['main_score']} "
            f"({counted(len(found['phrasings']), 'phrasing')}: {', '.join(found['phrasings'])}).")


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
    return counted(n, "case")


LANG_NAMES = {"en": "English", "pt": "Portuguese", "es": "Spanish"}


def lang_name(code: str) -> str:
    """'Portuguese' for "pt" (the code itself for a language this list lacks)."""
    return LANG_NAMES.get(code, code)


def language_rows(found: dict) -> list[dict]:
    """The card's `per_language` rows when the card holds more than one language, else [] (one
    language's row would repeat the score per phrasing)."""
    rows = found.get("per_language") or []
    return rows if len(rows) > 1 else []


def language_text(row: dict) -> str:
    """'Portuguese 81.80 (95% CI 55–100), 45 of 67 cases, 55 conversations'."""
    return (f"{lang_name(row['lang'])} {score_text(row['score'])}{phrasing_interval(row)}, {phrasing_cases(row)}, "
            f"{counted(row['conversations'], 'conversation')}")


def _signed(value: float | None, places: int = 2) -> str:
    return "n/a" if value is None else f"{value:+.{places}f}"


def gap_text(found: dict) -> str:
    """'English minus Portuguese, Spanish: -15.55 points (95% CI -41 to +10), on 70 of 136 cases
    graded in both'; '' when no case was graded in English and in another language."""
    gap = found.get("language_gap")
    if not gap:
        return ""
    bounds = gap.get("interval")
    ci = (" (too few cases for an interval)" if gap.get("interval_note") else
          f" (95% CI {_signed(bounds['low'], 0)} to {_signed(bounds['high'], 0)})" if bounds else "")
    return (f"English minus {', '.join(lang_name(code) for code in gap['langs'])}: {_signed(gap['delta'])} points{ci}, "
            f"on {gap['cases']} of {_cases(gap['of'])} graded in both")


def verdict_groups(row: dict) -> str:
    """A case table row's verdicts grouped: 'PASS in base, terse; FAIL in chatty'."""
    groups: dict[str, list[str]] = {}
    for phrasing, verdict in row["verdicts"].items():
        if verdict is not None:
            groups.setdefault(verdict, []).append(phrasing)
    return "; ".join(f"{v} in {', '.join(ps)}" for v, ps in groups.items())


def dependent_rows(found: dict) -> list[dict]:
    """The case table rows the test against chance names (never a case whose phrasings merely differ)."""
    return [row for row in found["cases"] if state_of(row) == "depends"]


def dependent_text(found: dict) -> list[str]:
    """'case-a: PASS in base, terse; FAIL in chatty (p 0.0004)' for each case the test names."""
    return [f"{row['id']}: {verdict_groups(row)}" + (f" ({_p(row['p'])})" if row.get("p") is not None else "")
            for row in dependent_rows(found)]


def case_phrasings(found: dict, card_cases: list[dict], cases: dict | None = None) -> list[dict]:
    """Each case with only its own phrasings (those it was run in), side by side: [{"id", "state",
    "state_text", "phrasings": [{"phrasing", "verdict", "repeats", "worse", "prompt"}]}], the cases
    whose verdict depends on the wording first, then in the card's order. `repeats` lists every
    repeat's verdict in that phrasing; `worse` marks a phrasing below the case's best; `prompt` is
    the phrasing's first user message as the case detail shows it, from `cases` ({id: Case}), None
    where the suite at hand lacks the case or the phrasing (a card opened without its suite)."""
    entries = {c.get("id"): c for c in card_cases}
    out = []
    for row in found["cases"]:
        entry = entries.get(row["id"], {})
        tries = entry.get("phrasings") or {}
        case = (cases or {}).get(row["id"])
        phrasings = []
        for p, verdict in row["verdicts"].items():
            if verdict is None:                 # a phrasing of another case: not this case's
                continue
            repeats = tries.get(p) if tries else entry.get("repeats")     # one phrasing: the row's own
            phrasings.append({"phrasing": p, "verdict": verdict, "worse": p in row.get("worse_in", []),
                              "repeats": [str(v) for v in repeats] if isinstance(repeats, list) and repeats
                              else [verdict], "prompt": _prompt(case, p)})
        state = state_of(row)
        out.append({"id": row["id"], "state": state, "state_text": STATE_TEXT[state], "phrasings": phrasings})
    return sorted(out, key=lambda r: ("depends", "differs").index(r["state"]) if r["state"] in ("depends", "differs") else 2)


def _prompt(case, phrasing: str) -> str | None:
    if case is None:
        return None
    try:
        return shown_text(phrased(case, phrasing).prompt)
    except KeyError:
        return None


def dependent_ids(card: dict) -> set[str]:
    """The ids of the cases the test against chance names wording-dependent in this card."""
    return set((card.get("robustness") or {}).get("wording_dependent_cases") or [])


def case_wording(case: dict, dependent: set[str] | frozenset = frozenset()) -> str:
    """A scorecard case entry's phrasings: 'base PASS · chatty FAIL (depends on the wording)' when
    the test names it (its id in `dependent`, see dependent_ids), '... (differs, within chance)'
    when its phrasings disagree no more than chance explains, '' for a case run in one phrasing.
    Phrasings are not repeats: their disagreement is never "flaky"."""
    found = case.get("phrasings")
    if not found:
        return ""
    verdicts = {majority(list(vs)) for vs in found.values()} - {"ERROR"}
    note = (" (depends on the wording)" if case.get("id") in dependent
            else " (differs, within chance)" if len(verdicts) > 1 else "")
    return " · ".join(f"{p} {' '.join(vs)}" for p, vs in found.items()) + note


def robustness_text(card: dict) -> list[str]:
    """The terminal block (after the statistics); [] for a card of one phrasing."""
    found = shown(card)
    if not found:
        return []
    lines = ["", "Wording sensitivity", f"  {consistency_text(found)}", f"  {worst_text(found)}",
             "  per phrasing: " + " · ".join(per_phrasing_text(found))]
    if language_rows(found):
        lines.append("  per language: " + " · ".join(language_text(row) for row in language_rows(found)))
    if gap_text(found):
        lines.append(f"  language gap: {gap_text(found)}")
    lines.append(f"  intervals: {intervals_note(found)}")
    lines += [f"  against chance: {line}" for line in test_text(found)]
    test = found.get("wording_test")
    if test:
        lines.append(f"  test: {test['method']} ({test['draws']} draws, seed {test['seed']})")
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
             *[f"- against chance: {md_text(line)}" for line in test_text(found)],
             f"- the score is {md_text(found['main_score'])}", "",
             "| phrasing | score | cases |", "|---|---:|---:|"]
    for p in found["per_phrasing"]:
        lines.append(f"| {md_text(p['phrasing'])} | {score_text(p['score'])}{phrasing_interval(p)} | {phrasing_cases(p)} |")
    if language_rows(found):
        lines += ["", "| language | score | cases | conversations |", "|---|---:|---:|---:|"]
        lines += [f"| {md_text(lang_name(p['lang']))} | {score_text(p['score'])}{phrasing_interval(p)} | "
                  f"{phrasing_cases(p)} | {p['conversations']} |" for p in language_rows(found)]
    if gap_text(found):
        lines += ["", f"- language gap: {md_text(gap_text(found))}"]
    dependent = dependent_rows(found)
    if dependent:                       # one row per case, its own phrasings only (never a column per phrasing)
        lines += ["", "Cases whose verdict depends on the wording:", "",
                  "| case | verdict by phrasing | worse in |", "|---|---|---|"]
        for row in dependent:
            lines.append(f"| {md_text(row['id'])} | {md_text(verdict_groups(row))} | "
                         f"{md_text(', '.join(row['worse_in']))} |")
    return lines


def robustness_junit(card: dict) -> list[tuple[str, list]]:
    """A "wording" suite: one testcase per case run in several phrasings, failing when the test
    against chance names it wording-dependent (phrasings that differ within chance pass: repeats
    differ as much)."""
    found = card.get("robustness")
    if not found:
        return []
    by_id = {row["id"]: text for row, text in zip(dependent_rows(found), dependent_text(found))}
    cases = []
    for row in found["cases"]:
        if row["consistent"] is None:
            continue
        text = by_id.get(row["id"])
        cases.append((row["id"], None, "", "") if text is None else
                     (row["id"], "failure", f"WORDING: {text}", text))
    return [("wording", cases)] if cases else []
