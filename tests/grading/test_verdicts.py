"""CaseEntry: a scorecard's case entry read back by the keys CaseResult.to_json writes."""
from __future__ import annotations

import pytest

from toolproof.grading.verdicts import CaseEntry, CaseResult, blank_facts

ENTRY = {"id": "sc-1", "category": "should_call", "verdict": "PASS", "credit": 1.0, "reasons": [],
         "lenient": {"verdict": "PASS", "credit": 1.0}, "calls": [], "final_text": "",
         "repeats": ["PASS", "ERROR", "PASS"], "passes": 2, "flaky": False}


def test_an_entry_is_read_back_with_its_repeats_and_tries():
    entry = CaseEntry.of(ENTRY)
    assert entry == ("sc-1", "should_call", "PASS", 1.0, ("PASS", "ERROR", "PASS"), 2, ("PASS", "ERROR", "PASS"))
    assert entry.graded == 2


def test_over_several_phrasings_every_phrasings_repeats_are_tries():
    entry = CaseEntry.of({**ENTRY, "repeats": ["PASS", "FAIL"], "phrasings": {"base": ["PASS", "PASS"],
                                                                              "terse": ["ERROR", "FAIL"]}})
    assert entry.repeats == ("PASS", "FAIL") and entry.tries == ("PASS", "PASS", "ERROR", "FAIL")


def test_what_the_writer_writes_the_reader_reads():
    result = CaseResult("c", "must_ask", "ERROR", None, ["timeout"], "ERROR", None, [], blank_facts(),
                        repeat_verdicts=("ERROR", "ERROR"))
    entry = CaseEntry.of(result.to_json())
    assert (entry.id, entry.verdict, entry.credit, entry.graded, entry.passes) == ("c", "ERROR", None, 0, 0)


@pytest.mark.parametrize("key", ["id", "category", "verdict", "credit", "repeats", "passes"])
def test_an_entry_without_a_key_is_not_guessed(key):
    with pytest.raises(KeyError):
        CaseEntry.of({k: v for k, v in ENTRY.items() if k != key})
