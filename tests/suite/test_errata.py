"""Errata (toolproof/suite/errata.py, data/errata.json): every change to what a case expects has an
entry, the document refuses what is malformed or hostile with its path, and `applying` tells which
entries an older results file needs.

The test that matters most is the first: when a case's expected outcome changes (its expect, mock
results, variants, prompts, system prompt, tools, category, or a concept it names) and
data/errata.json has no entry recording the new fingerprint, it fails and says what to run.
"""
from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from toolproof.datafiles import DATA, format_schema, load_errata, read_json
from toolproof.errors import ToolProofError
from toolproof.suite.errata import (Entry, Errata, applying, case_fingerprint, case_view, fingerprinted,
                                    fingerprints, parse_entries, parse_errata, unrecorded)
from toolproof.suite.fingerprint import suite_sha256

SCHEMA = format_schema("errata")
SUITE = read_json(DATA / "suite.json")
OLDER = Path(__file__).resolve().parents[1] / "fixtures" / "older_results.json"   # a labelled fixture


def test_every_changed_expectation_has_an_erratum():
    found = unrecorded(load_errata(), SUITE)
    assert found == [], (
        "cases whose expected outcome changed without an entry in data/errata.json:\n"
        + "\n".join(f"  {u.case}: {u.reason}" for u in found)
        + "\nwrite the entries (case, date, changed, why) as a JSON list in a file, then paste the output of "
          "`python -m toolproof suite errata --entries FILE` at the end of \"entries\"")


def test_the_committed_errata_parse_and_name_only_known_cases():
    errata = load_errata()
    ids = set(fingerprints(SUITE))
    assert set(errata.baseline) <= ids        # case ids stay stable
    assert {e.case for e in errata.entries} <= ids


# -- fingerprints --------------------------------------------------------------------------------

CASE = {"id": "c1", "category": "result_use", "title": "T", "why": "W", "tools": ["a"], "prompt": "p",
        "phrasings": [{"id": "terse", "prompt": "q", "why": "fewer words"}],
        "expect": {"action": "call", "calls": [{"tool": "a"}],
                   "final_text": {"must_include": [{"concept": "shipped"}]}},
        "mock_results": {"a": {"x": 1}},
        "variants": [{"id": "v", "mock_results": {"a": {"x": 2}}, "why": "other x"}]}
CONCEPTS = {"shipped": {"en": ["shipped"]}, "unused": {"en": ["x"]}}


def changed(path: list, value):
    case = copy.deepcopy(CASE)
    target = case
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return case


@pytest.mark.parametrize("path, value", [
    (["category"], "should_call"), (["tools"], ["a", "b"]), (["system"], "Confirm before paying."),
    (["prompt"], "p2"), (["phrasings", 0, "prompt"], "q2"), (["phrasings", 0, "id"], "short"),
    (["expect", "action"], "no_call"), (["mock_results", "a", "x"], 3), (["variants", 0, "mock_results"], {}),
    (["no_pad"], ["b"]),          # a key the case may gain later counts without anyone listing it
])
def test_what_decides_a_verdict_changes_the_fingerprint(path, value):
    assert case_fingerprint(changed(path, value), CONCEPTS) != case_fingerprint(CASE, CONCEPTS)


@pytest.mark.parametrize("path, value", [
    (["title"], "Another title"), (["why"], "Said better"), (["phrasings", 0, "why"], "reworded"),
    (["variants", 0, "why"], "reworded"), (["id"], "c2"),
])
def test_words_for_the_reader_do_not(path, value):
    assert case_fingerprint(changed(path, value), CONCEPTS) == case_fingerprint(CASE, CONCEPTS)


def test_a_named_concept_counts_and_an_unnamed_one_does_not():
    base = case_fingerprint(CASE, CONCEPTS)
    assert case_fingerprint(CASE, {**CONCEPTS, "shipped": {"en": ["shipped", "dispatched"]}}) != base
    assert case_fingerprint(CASE, {**CONCEPTS, "unused": {"en": ["y"]}}) == base
    assert case_view(CASE, CONCEPTS)["concepts"] == {"shipped": {"en": ["shipped"]}}


def test_key_order_never_changes_a_fingerprint():
    reordered = json.loads(json.dumps(CASE, sort_keys=True))
    assert list(reordered) != list(CASE)
    assert case_fingerprint(reordered, CONCEPTS) == case_fingerprint(CASE, CONCEPTS)


def test_fingerprints_follow_the_suite_and_skip_what_has_no_id():
    doc = {"concepts": CONCEPTS, "cases": [CASE, {"title": "no id"}, "junk"]}
    assert fingerprints(doc) == {"c1": case_fingerprint(CASE, CONCEPTS)}
    assert fingerprints({"cases": "junk"}) == {} and fingerprints([]) == {}


# -- the document: malformed and hostile ---------------------------------------------------------

def document(**over) -> dict:
    doc = {"format": "toolproof.errata", "version": 1,
           "baseline": {"date": "2026-12-06", "suite_sha256": "a" * 64, "cases": {"c1": "b" * 64}},
           "entries": [{"case": "c1", "date": "2026-12-07", "changed": "x", "why": "y", "expect_sha256": "c" * 64}]}
    doc.update(over)
    return doc


def refusal(doc) -> str:
    with pytest.raises(ToolProofError) as exc:
        parse_errata(doc, SCHEMA, "errata.json")
    return exc.value.line()


def entry(**over) -> dict:
    return {**document()["entries"][0], **over}


def test_a_good_document_parses():
    errata = parse_errata(document(), SCHEMA, "errata.json")
    assert errata.recorded("c1") == "c" * 64 and errata.recorded("c9") is None
    assert errata.baseline == {"c1": "b" * 64} and errata.baseline_date == "2026-12-06"


@pytest.mark.parametrize("doc, line", [
    ([], "errata.json: at $: [] is not of type 'object'"),
    (document(format="toolproof.suite"), "errata.json: at $.format: 'toolproof.errata' was expected"),
    (document(version=2), "errata.json: at $.version: 1 was expected"),
    (document(extra=1), "errata.json: at $: Additional properties are not allowed ('extra' was unexpected)"),
    (document(entries=[entry(expect_sha256="XYZ")]),
     "errata.json: at $.entries[0].expect_sha256: 'XYZ' does not match '^[0-9a-f]{64}$'"),
    (document(entries=[{k: v for k, v in entry().items() if k != "why"}]),
     "errata.json: at $.entries[0]: 'why' is a required property"),
    (document(entries=[entry(date="2026-02-30")]),
     "errata.json: at $.entries[0].date: '2026-02-30' is not a calendar date (YYYY-MM-DD)"),
    (document(entries=[entry(date="2026-12-01")]),
     "errata.json: at $.entries[0].date: 2026-12-01 is before the baseline's date (2026-12-06): "
     "a change is recorded after it"),
    (document(entries=[entry(date="2026-12-09"), entry(date="2026-12-08")]),
     "errata.json: at $.entries[1].date: 2026-12-08 is before an earlier entry of 'c1' (2026-12-09): "
     "keep a case's entries in date order, the last one is its current expectation"),
    (document(entries=[entry(changed="   ")]),
     "errata.json: at $.entries[0].changed: is only spaces: say what changed (or why)"),
    (document(baseline={"date": "2026-12-06", "suite_sha256": "a" * 64, "cases": {"Bad Id": "b" * 64}}),
     "errata.json: at $.baseline.cases: 'Bad Id' is not a case id (^[a-z0-9][a-z0-9_-]*$)"),
])
def test_malformed_documents_are_refused_with_the_path(doc, line):
    assert refusal(doc) == line


@pytest.mark.parametrize("text, shown", [
    ("fixed\x1b[2Jthe date", "\\x1b"), ("two\nlines", "\\x0a"), ("bidi \u202e trick", "\\u202e"),
    ("zero\u200bwidth", "\\u200b"),
])
def test_hostile_text_is_refused_not_printed(text, shown):
    line = refusal(document(entries=[entry(why=text)]))
    assert line.startswith(f"errata.json: at $.entries[0].why: holds {shown} at character ")
    assert line.isprintable()


def test_huge_and_deep_documents_are_refused_by_their_bounds():
    many = document(entries=[entry()] * 20001)
    assert refusal(many).startswith("errata.json: at $.entries: ")
    long = document(entries=[entry(changed="x" * 1001)])
    assert refusal(long).startswith("errata.json: at $.entries[0].changed: ")
    nested = document(entries=[entry(case={"a": [[[[1]]]]})])
    assert refusal(nested).startswith("errata.json: at $.entries[0].case: ")


def test_a_deep_or_nan_file_never_reaches_the_parser(tmp_path):
    deep, nan = tmp_path / "deep.json", tmp_path / "nan.json"
    deep.write_text("[" * 100 + "]" * 100)
    nan.write_text('{"format": "toolproof.errata", "version": NaN}')
    for path in (deep, nan):
        with pytest.raises(ToolProofError) as exc:
            load_errata(path)
        assert exc.value.line().startswith(f"{path}: ")


def test_a_helpers_entries_without_fingerprints_parse_and_get_them():
    raw = [{"case": "sc-reminder-prescription", "date": "2026-12-06", "changed": "c", "why": "w"}]
    entries = parse_entries(raw, SCHEMA, "helper.json")
    assert entries == [Entry("sc-reminder-prescription", "2026-12-06", "c", "w")]
    filled = fingerprinted(entries, SUITE, "helper.json")
    assert filled[0].expect_sha256 == fingerprints(SUITE)["sc-reminder-prescription"]
    with pytest.raises(ToolProofError) as exc:
        fingerprinted([Entry("no-such-case", "2026-12-06", "c", "w")], SUITE, "helper.json")
    assert exc.value.line() == "helper.json: at $[0].case: the suite has no case 'no-such-case'"
    with pytest.raises(ToolProofError) as exc:
        parse_entries([{**raw[0], "note": "x"}], SCHEMA, "helper.json")
    assert exc.value.line() == "helper.json: at $[0]: Additional properties are not allowed ('note' was unexpected)"


# -- the check ------------------------------------------------------------------------------------

def errata_of(suite_doc: dict, entries=()) -> Errata:
    return Errata("2026-12-06", suite_sha256(suite_doc), fingerprints(suite_doc), tuple(entries))


def test_a_changed_case_needs_an_entry_and_its_latest_entry_must_match():
    before = {"cases": [CASE, {**copy.deepcopy(CASE), "id": "c2"}]}
    after = copy.deepcopy(before)
    after["cases"][1]["expect"]["action"] = "no_call"
    errata = errata_of(before)
    assert unrecorded(errata, before) == []
    [found] = unrecorded(errata, after)
    assert (found.case, found.reason) == ("c2", "changed since the baseline (2026-12-06) without an entry")
    now = fingerprints(after)["c2"]
    assert unrecorded(errata_of(before, [Entry("c2", "2026-12-07", "c", "w", now)]), after) == []
    # a later change needs a later entry: the earlier one records another fingerprint
    stale = errata_of(before, [Entry("c2", "2026-12-07", "c", "w", "f" * 64)])
    assert [u.reason for u in unrecorded(stale, after)] == ["changed since its last entry (2026-12-07) without an entry"]
    # and a change undone is a change too: back at the baseline, the last entry no longer holds
    assert [u.case for u in unrecorded(errata_of(before, [Entry("c2", "2026-12-07", "c", "w", now)]), before)] == ["c2"]


def test_added_lost_and_stray_cases_are_named():
    suite = {"cases": [CASE]}
    errata = Errata("2026-12-06", "a" * 64, {"c1": case_fingerprint(CASE), "gone": "b" * 64},
                    (Entry("typo", "2026-12-07", "c", "w", "c" * 64),))
    bigger = {"cases": [CASE, {**CASE, "id": "new"}]}
    assert [(u.case, u.reason) for u in unrecorded(errata, bigger)] == [
        ("new", "a case added after the baseline needs an entry (changed: \"case added\")"),
        ("gone", "in the baseline but not in the suite (case ids stay stable)"),
        ("typo", "an entry names a case the suite does not have")]


# -- applying: which entries an older results file needs -------------------------------------------

RESULTS = read_json(OLDER)      # created 2026-11-20, graded 3 cases, a suite_sha256 matching nothing
ERRATA = Errata("2026-10-01", "1" * 64, {}, (
    Entry("sc-transfer-to-savings", "2026-11-01", "before the run", "w", "c" * 64),
    Entry("sc-reminder-prescription", "2026-11-20", "the same day", "w", "c" * 64),
    Entry("sc-email-venue-contract", "2026-12-01", "after the run", "w", "c" * 64),
    Entry("ask-table-no-date", "2026-12-01", "a case the file did not grade", "w", "c" * 64),
))


def test_the_fixture_is_labelled_as_one():
    assert RESULTS["label"].startswith("FIXTURE:") and RESULTS["kind"] == "live"


def test_entries_after_the_runs_day_apply_to_the_cases_it_graded():
    assert [e.changed for e in applying(RESULTS, ERRATA, SUITE)] == ["the same day", "after the run"]


def test_a_run_of_the_baseline_suite_predates_every_entry():
    at_baseline = {**RESULTS, "suite_sha256": "1" * 64}
    assert [e.changed for e in applying(at_baseline, ERRATA, SUITE)] == [
        "before the run", "the same day", "after the run"]


def test_a_run_of_the_suite_graded_now_needs_none():
    assert applying({**RESULTS, "suite_sha256": suite_sha256(SUITE)}, ERRATA, SUITE) == []


def test_fixtures_need_none_and_an_undated_run_needs_all():
    assert applying({**RESULTS, "kind": "fixture"}, ERRATA, SUITE) == []
    undated = {k: v for k, v in RESULTS.items() if k not in ("created", "suite_sha256")}
    assert len(applying(undated, ERRATA, SUITE)) == 3
    assert len(applying({**undated, "created": "yesterday"}, ERRATA, SUITE)) == 3


@pytest.mark.parametrize("doc", [None, [], {"transcripts": "x"}, {"transcripts": [1, {"case_id": 5}]},
                                 {"created": 12, "transcripts": [{}]}])
def test_applying_never_raises_on_a_malformed_results_document(doc):
    assert applying(doc, ERRATA, SUITE) == []
