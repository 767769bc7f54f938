"""The --fail-under gate: below the threshold fails, and so does any ERROR."""
from __future__ import annotations

import pytest

from toolproof.scoring.gates import score_gate


def card(score, *repeats):
    cases = [{"id": f"c{i}", "category": "should_call", "verdict": r[0] if len(set(r)) == 1 else "PASS",
              "credit": None, "repeats": list(r), "passes": r.count("PASS")} for i, r in enumerate(repeats)]
    return {"score": score, "counts": {"error": 0}, "cases": cases}


@pytest.mark.parametrize("c, threshold, expected", [
    (card(80.0, ["PASS"]), None, None),
    (card(80.0, ["PASS"]), 70, None),
    (card(80.0, ["PASS"]), 80, None),
    (card(69.99, ["PASS"]), 70, "score 69.99 is below --fail-under 70"),
    (card(None, ["ERROR"]), 0, "1 conversation ended in ERROR (the request failed after its retries); "
                               "--fail-under 0 needs every case graded: re-run, or check the endpoint"),
    # one errored repeat inside a case that passed by majority still fails the gate
    (card(100.0, ["PASS", "ERROR", "PASS"]), 50, "1 conversation ended in ERROR (the request failed after its "
                                                 "retries); --fail-under 50 needs every case graded: re-run, or check the endpoint"),
    (card(None), 10, "no score (n/a): --fail-under 10 needs a score"),
    # a partial run: the gate says the card's reason, never a number the card withheld
    ({**card(None, ["PASS"]), "no_score_reason": "only 3 of 9 cases graded (6 not started), below half of the plan"},
     10, "no score (only 3 of 9 cases graded (6 not started), below half of the plan): --fail-under 10 needs a score"),
])
def test_score_gate(c, threshold, expected):
    assert score_gate(c, threshold) == expected
