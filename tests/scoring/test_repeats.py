"""Merging a case's repeats: invariants over any mix of verdicts, and the cost of retries."""
from __future__ import annotations

from hypothesis import given, strategies as st

from repeatdocs import CALL_A, document
from toolproof.datafiles import format_schema, load_bundle
from toolproof.scoring.evaluate import evaluate
from toolproof.grading.verdicts import CREDIT, ERROR, VERDICT_ORDER, CaseResult
from toolproof.scoring.repeats import majority, merge_repeats
from toolproof.grading.transcripts import parse_transcripts

BUNDLE = load_bundle()


def result(verdict: str, repeat: int) -> CaseResult:
    return CaseResult("c", "should_call", verdict, CREDIT[verdict], [f"why {repeat}"], verdict, CREDIT[verdict],
                      [], {}, "", repeat)


@given(st.lists(st.sampled_from(VERDICT_ORDER), min_size=1, max_size=20))
def test_merge_invariants(verdicts):
    merged = merge_repeats([result(v, i) for i, v in enumerate(verdicts)])
    graded = [v for v in verdicts if v != ERROR]
    assert merged.repeat_verdicts == tuple(verdicts)
    if not graded:
        assert (merged.verdict, merged.credit) == (ERROR, None)
        return
    # the most common graded verdict; nothing more common, nothing as common and worse
    top = graded.count(merged.verdict)
    assert all(graded.count(v) < top or (graded.count(v) == top and VERDICT_ORDER.index(v) <= VERDICT_ORDER.index(merged.verdict))
               for v in set(graded))
    assert merged.credit == round(sum(CREDIT[v] for v in graded) / len(graded), 4)
    assert merged.reasons == [f"why {verdicts.index(merged.verdict)}"]      # the first repeat with that verdict
    assert merged.to_json()["flaky"] == (len(set(graded)) > 1)
    assert majority(list(reversed(verdicts))) == merged.verdict              # order never changes it


def test_retries_count_as_requests():
    doc = document({CALL_A: ["pass", "error"]})
    doc["transcripts"][0]["turns"][0]["attempts"] = 3
    doc["transcripts"][1]["turns"][0]["attempts"] = 3
    card = evaluate(BUNDLE.cases, BUNDLE.tools, parse_transcripts(doc, format_schema("transcripts")))
    assert card["cost"]["requests"] == 6
    doc["transcripts"][0]["turns"][0]["attempts"] = 10 ** 9       # junk: counted as one request
    card = evaluate(BUNDLE.cases, BUNDLE.tools, parse_transcripts(doc, format_schema("transcripts")))
    assert card["cost"]["requests"] == 4
