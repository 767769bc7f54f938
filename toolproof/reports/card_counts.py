"""The counts a scorecard shows, each in one of three units, with what the unit is.

- A *case* is one of the suite's cases. The verdict pills, the categories table, "N cases" and the
  error rate count cases: a case's verdict is the most common of its phrasings' verdicts, each
  phrasing's the most common of its graded repeats (a tie to the worse), ERROR when none of its
  conversations was graded (scoring/repeats.py, scoring/robustness.py).
- A *conversation* is one case sent once: in one phrasing, one repeat (and, in a sweep, at one pad
  level). The plan and its coverage ("N of M graded", ERROR, not started) count conversations; an
  ERROR conversation is one whose request failed after its retries. A sweep's coverage counts
  every level's conversations; its cases are the main level's.
- A *request* is one request sent to the provider: each turn, each counterfactual variant's second
  turn, each retry. The cost counts requests.

A card that runs each case once has as many conversations as cases, and says only "cases". Every
view (the terminal, Markdown, HTML and the page) takes these lines from here, so one card never
shows two counts of one thing in two units without saying which is which.

Pure: returns strings.
"""
from __future__ import annotations

from toolproof.plurals import counted

from toolproof.scoring.coverage import dimensions, plan_unit  # noqa: F401  (the plan's unit: scoring says it, as no_score_reason does)

from .figures import percent
from .rates import RATE_INTERVAL_HEAD, rate_interval_text


def rows_named(card: dict) -> str:
    """The card's rows in words: '72 cases', '26 scenarios', or '72 cases and 26 scenarios' (a
    scenario is a row of `cases` with category "scenario": counts.cases holds both)."""
    total = card["counts"]["cases"]
    table = card.get("categories") or {}
    scenarios = table.get("scenario", {}).get("count", 0) if isinstance(table.get("scenario"), dict) else 0
    if not scenarios:
        return counted(total, "case")
    if scenarios == total:
        return counted(scenarios, "scenario")
    return f"{counted(total - scenarios, 'case')} and {counted(scenarios, 'scenario')}"


def verdicts_line(card: dict) -> str:
    """'3 cases: 2 PASS, 0 PARTIAL, 0 FAIL, 1 ERROR (0 truncated)': the verdict pills, in cases
    ('72 cases and 26 scenarios: ...' when the card holds scenarios too)."""
    counts = card["counts"]
    return (f"{rows_named(card)}: {counts['PASS']} PASS, {counts['PARTIAL']} PARTIAL, "
            f"{counts['FAIL']} FAIL, {counts.get('error', 0)} ERROR ({counts['truncated']} truncated)")


def verdict_rule(card: dict) -> str:
    """How a case's one verdict comes from its conversations (scoring/repeats.py `majority`,
    scoring/robustness.py `merge_phrasings`); '' when each case ran once."""
    found = dimensions(card)
    if not found:
        return ""
    repeats = "repeat" in found
    if found == ["pad level"]:
        return "A case's verdict is its verdict at the main pad level, the score's; the other levels are the sweep's."
    if "phrasing" in found:
        rule = ("A case's verdict is the most common of its phrasings' verdicts"
                + (", each phrasing's the most common of its graded repeats" if repeats else ""))
    else:
        rule = "A case's verdict is the most common of its graded repeats"
    level = " at the main pad level" if "pad level" in found else ""
    return f"{rule}{level} (a tie to the worse); ERROR when none of its conversations was graded."


def conversations_line(card: dict) -> str:
    """'28 conversations (case × phrasing × repeat): 7 graded, 7 ERROR, 14 not started'; '' when
    each case ran once (the coverage line then says it in cases)."""
    cov, found = card.get("coverage"), dimensions(card)
    if not cov or not found:
        return ""
    parts = " × ".join(["case"] + found)
    return (f"{counted(cov['planned'], 'conversation')} ({parts}): {cov['graded']} graded, "
            f"{cov['error']} ERROR, {cov['not_started']} not started")


def requests_label() -> str:
    """The cost tile's and the progress meter's name for requests."""
    return "Requests (turns and retries)"


def error_rate_line(card: dict) -> str:
    """'ERROR cases (no conversation graded): 1 of 3 cases (33.3%)' in the statistics; with one
    conversation per case, 'ERROR (request failed after retries, not graded): 1 of 3 cases (33.3%)'."""
    counts = card["counts"]
    what = "ERROR cases (no conversation graded)" if dimensions(card) else \
        "ERROR (request failed after retries, not graded)"
    ci = rate_interval_text(card, "error_rate")
    ci = f", {RATE_INTERVAL_HEAD} {ci}" if ci not in ("", "n/a") else ""
    return (f"{what}: {counts.get('error', 0)} of {rows_named(card)} "
            f"({percent(card.get('error_rate'))}{ci})")
