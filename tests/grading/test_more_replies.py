"""tests/fixtures/more_replies.json: further illustrative replies to the shipped cases (beyond the
one fixture per case and phrasing of data/fixtures.json), each graded to the verdict it was written
for. They keep the typical right and wrong replies of the newer categories and languages under
test without being read as repeats of one model in the fixture scorecard."""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from toolproof.datafiles import format_schema, load_suite_files
from toolproof.grading.grade import grade_case
from toolproof.grading.transcripts import known_ids, parse_transcripts
from toolproof.suite.model import phrased

ROOT = Path(__file__).resolve().parent.parent.parent
DOC = json.loads((ROOT / "tests" / "fixtures" / "more_replies.json").read_text(encoding="utf-8"))
BUNDLE = load_suite_files()
CASES = {c.id: c for c in BUNDLE.cases}


def test_every_further_reply_gets_the_verdict_it_was_written_for():
    found = parse_transcripts(DOC, format_schema("transcripts"), known_ids(BUNDLE.cases))
    wrong, graded = [], Counter()
    for transcripts in found.all_repeats().values():
        for tr in transcripts:
            result = grade_case(phrased(CASES[tr.case_id], tr.phrasing), BUNDLE.tools, tr)
            graded[result.verdict] += 1
            if result.verdict != tr.intended_verdict:
                wrong.append(f"{tr.case_id}/{tr.phrasing}/{tr.repeat}: {tr.intended_verdict} wanted, "
                             f"{result.verdict}: {result.reasons[:2]}")
    assert not wrong, "\n".join(wrong)
    assert sum(graded.values()) == len(DOC["transcripts"]) and graded["PASS"] and graded["FAIL"]


@pytest.mark.parametrize("key", ["intended_verdict", "note"])
def test_each_reply_says_what_it_was_written_for(key):
    assert all(t.get(key) for t in DOC["transcripts"])
