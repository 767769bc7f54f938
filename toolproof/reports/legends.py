"""What the short column heads of the reports mean, as (head, meaning) pairs: the verdicts, the
board's short category and rate names, the statistics' abbreviations. A report prints them under
its tables (reports/html*.py), so no head is left for the reader to guess.

The long names come from where they are defined (suite/categories.py's labels, page_view's rate
labels, the interval method a scorecard or comparison records); this module only pairs them with
the short heads. Pure: data and strings.
"""
from __future__ import annotations

from toolproof.grading.verdicts import ERROR, FAIL, PARTIAL, PASS
from toolproof.scoring.intervals import CATEGORY_METHOD
from toolproof.scoring.scorecard import METRIC_KEYS
from toolproof.suite.categories import CATEGORIES, CATEGORY

from .board import RATE_SHORT
from .page_view import METRIC_LABELS
from .scorecard import better

VERDICT_MEANING = {
    PASS: "every check held",
    PARTIAL: "partly right (a non-critical field off, or part of a multi-step task), half credit",
    FAIL: "a wrong decision, tool or critical field",
    ERROR: ("the request failed after its retries (in every conversation of the case, with phrasings or "
            "repeats), so the case is not graded and left out of every score"),
}


SCENARIO_CELL = ("the run's scenario success rate (scenarios that passed, of those graded), its 95% interval "
                 "(Clopper-Pearson) and the count: \"n/a\" for a run with no scenario")


def scenario_legend() -> list[tuple[str, str]]:
    """The Scenarios section's heads: success rate, its interval, the counts, the per-turn credit."""
    return [("Success rate", "the scenarios that passed (every check held), of those graded; an ERROR scenario "
                             "(a request failed) is in no denominator"),
            ("95% CI", "the 95% interval of the success rate (Clopper-Pearson): other scenarios like these "
                       "could succeed at any rate in it"),
            ("Graded of planned", "the scenarios with a verdict, of those the run planned"),
            ("Turns", "the model requests the conversation took"),
            ("Turn credit", "the mean credit of the scenario's turns (1 for a turn that broke no rule)"),
            ("First reason", "the first difference the grader found: a table, row and field of the end state, "
                             "a milestone missed, a minefield hit or a rule broken")] + \
        [(verdict, meaning) for verdict, meaning in SCENARIO_VERDICTS.items()]


SCENARIO_VERDICTS = {
    PASS: "the end state, the milestones, the rules and the answer all held",
    PARTIAL: "the end state is right and no rule broken, but the answer misses a required fact or a budget is exceeded",
    FAIL: ("a minefield hit, a policy rule broken, the end state differs, a milestone missed or out of order, a "
           "dataflow broken, a false claim in the answer, or the turn limit cut the task"),
    ERROR: "a request failed before the conversation ended (not the model's fault): left out of the success rate",
}


def verdict_legend() -> str:
    """The verdicts in one line, as the page prints it under the verdict pills."""
    return " · ".join(f"{verdict}: {meaning}" for verdict, meaning in VERDICT_MEANING.items()) + "."


def _level(found: dict | None) -> int:
    level = (found or {}).get("level")
    return round(100 * level) if isinstance(level, (int, float)) else 95


def _method(found: dict | None, fallback: str) -> str:
    method = (found or {}).get("method")
    return str(method).removeprefix("over cases: ") if isinstance(method, str) and method else fallback


def scorecard_legend(card: dict) -> list[tuple[str, str]]:
    """The scorecard's categories table: its interval, weight and verdict columns."""
    level = _level(card.get("intervals"))
    return [(f"{level}% CI", f"the {level}% interval of the category's score over its cases ({CATEGORY_METHOD}): other "
                             "cases like these could score anywhere in it"),
            ("Weight", "the category's share of the weighted score: Score = 100 × Σ(weight × category "
                       "score) / Σ(weight)"),
            ("Cases", "the suite's cases of that category in this run")] + \
        [(verdict, meaning) for verdict, meaning in VERDICT_MEANING.items()]


def comparison_legend(comparison: dict) -> list[tuple[str, str]]:
    """A comparison's tables: the two runs, the difference and its interval, a flip."""
    found = comparison.get("intervals")
    level = _level(found)
    return [("A, B", "the first and the second run's score (per category: the share of credit, in %)"),
            ("Δ", "B − A, in points: above 0, B scored higher"),
            (f"{level}% CI over cases", f"the {level}% interval of Δ over the cases graded in both runs "
                                       f"({_method(found, 'paired t')})"),
            ("Flip", "a case whose verdict went from PASS to another (regressed) or back (fixed)"),
            (ERROR, VERDICT_MEANING[ERROR])]


def board_legend(board: dict) -> list[tuple[str, str]]:
    """The leaderboard's short heads: rank, the statistics, each short category and rate name,
    the cost columns and the pairwise tests."""
    method = board.get("method") if isinstance(board.get("method"), dict) else {}
    level = _level(method)
    return ([("Rank", "runs that cannot be told apart share a rank (\"1–3\")"),
             ("Cases graded", "the board's cases with a verdict (one of their conversations graded), of those "
                              "the run is ranked on; each case counts once, whatever its phrasings and repeats"),
             ("Conversations", "the plan's conversations (case × phrasing × repeat × pad level) that got a verdict, "
                               "of those planned"),
             (f"{level}% CI", f"the {level}% interval of the score over cases"),
             ("pass^k", "the chance that k repeats of a case all pass (tau-bench's estimator)"),
             ("Error", "the share of the run graded ERROR (" + VERDICT_MEANING[ERROR].split(", so")[0] + ")")]
            + [(CATEGORY[c].short, CATEGORY[c].label) for c in CATEGORIES]
            + [(f"{RATE_SHORT[k]} {better(k)[0]}", f"{METRIC_LABELS[k]}, {better(k)[2:]}") for k in METRIC_KEYS]
            + ([("Scenarios", SCENARIO_CELL)] if any(isinstance(r.get("scenarios"), dict) for r in
                                                      board.get("runs", []) + board.get("unranked", [])) else [])
            + [("USD/1k req", "cost per 1,000 requests"), ("USD/pass", "cost per passing conversation (every repeat and phrasing that passed)"),
               ("p50 ms, p95 ms", "the median and the 95th percentile of a request's latency, in milliseconds"),
               ("Δ", "the column run's (or B's) score minus the row run's (or A's), in points"),
               ("p", "the p-value of the test behind the pair's interval (paired t over the cases graded in both)"),
               ("p (Holm)", "the p-value corrected for the number of pairs (Holm's step-down method)"),
               ("McNemar p", "McNemar's exact two-sided test over the flipped cases")])
