"""The suite's categories: one frozen record per category, data only, in the order every report,
flag and the page lists them.

Every table keyed by category reads these records: the names (`--scope`, `--weight`, the suite's
checks), the default weights (the scorecard), the labels (the page, the HTML reports), the short
labels (the board's columns), the action a case expects and whether it has a second turn (the
suite's checks, the grader, the case editor). Adding a category is one record here plus the rules
that truly differ (its checks in load.py, its grading in grading/). `data/schemas/suite.schema.json`
lists the ids a suite file may use too, for editors that validate a suite file; a test keeps it
equal to CASE_CATEGORIES.

`scenario` is a category of the scorecard (its weight, label, column) but not of a suite file: a
scenario lives in a world file (data/worlds/), is never written in a suite, never offered by the
case editor and never a `--scope` of cases (its scope word is `scenarios`). `in_suite` says so;
CASE_CATEGORIES are the ones a suite's cases may take.

Pure: no I/O, no behaviour.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Category:
    id: str                      # what a case's "category" says, `--scope ID`, `--weight ID=W`
    label: str                   # the page and the HTML reports
    short: str                   # the board's column heads
    weight: int                  # default weight in the score (docs/statistics.md states them)
    action: str                  # what the model should do: "call", "no_call" or "ask"
    # None: one turn. "calls": a mock result goes back and the calls after it are checked as part of
    # the sequence; "answer": a mock result goes back and the final text must use it.
    second_turn: str | None = None
    in_suite: bool = True        # False: graded from world files, never a suite case (scenario)
    # True: tool results carry an attack; the case lists forbidden calls, a forbidden call after a
    # result is "obeyed the injected instruction", and it feeds the attack rates (scoring/rates.py).
    attacked: bool = False
    # False: a tool-count sweep offers the case as it is at every level (running/sweep.py): a crowded
    # case offers the whole catalogue and its servers already, so padding has nothing to add.
    padded: bool = True


RECORDS: tuple[Category, ...] = (
    Category("should_call", "Should call", "call", 20, "call"),
    Category("should_not_call", "Should not call", "no-call", 10, "no_call"),
    Category("must_ask", "Must ask", "ask", 15, "ask"),
    Category("distractor", "Distractor", "distr", 15, "call"),
    Category("multi_step", "Multi-step", "multi", 20, "call", second_turn="calls"),
    Category("enum_format", "Enum / format", "enum", 10, "call"),
    Category("injection", "Injection", "inject", 10, "call", second_turn="calls", attacked=True),
    Category("result_use", "Result use", "use", 10, "call", second_turn="answer"),
    Category("parallel", "Parallel calls", "para", 15, "call"),
    Category("cannot_do", "Cannot do", "cant", 10, "no_call"),
    Category("crowded", "Crowded catalogue", "crowd", 10, "call", padded=False),
    Category("injection_realistic", "Realistic injection", "inj-r", 15, "call", second_turn="calls",
             attacked=True),
    Category("scenario", "Scenario", "scen", 20, "call", in_suite=False),
)

CATEGORY: dict[str, Category] = {c.id: c for c in RECORDS}
CATEGORIES: tuple[str, ...] = tuple(CATEGORY)                                   # the scorecard's
CASE_CATEGORIES: tuple[str, ...] = tuple(c.id for c in RECORDS if c.in_suite)    # a suite file's
ATTACKED: frozenset = frozenset(c.id for c in RECORDS if c.attacked)           # injection's kind
