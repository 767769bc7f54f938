"""The one door for a results document: each kind told apart from the top level alone, the one
refusal line per verb, an export's embedded card, and a document graded into the terminal's card."""
from __future__ import annotations

import io
import json

import pytest

from toolproof.cli.main import run as cli
from toolproof.datafiles import bundled_worlds, format_schema, load_bundle
from toolproof.errors import ToolProofError
from toolproof.scoring.board import parse_run
from toolproof.scoring.comparison import graded_run
from toolproof.scoring.results_doc import (EXPORT, RESULTS, SCORECARD, UNKNOWN, card_of_results, embedded_card,
                                           evidence, kept_kind, kind_of, refuse_scorecard, regraded,
                                           scorecard_refusal)

BUNDLE = load_bundle()
FIXTURES = BUNDLE.documents["transcripts"]
SCHEMA = format_schema("transcripts")
BOARD_LINE = ("card.json: this is a scorecard, not a results file: the board needs the transcripts "
              "(a results file, or the page's JSON export of a live run)")
COMPARE_LINE = ("card.json: this is a scorecard, not a results file: compare needs the transcripts "
                "(a results file, or the page's JSON export of a live run)")


def grade_json() -> dict:
    out, err = io.StringIO(), io.StringIO()
    assert cli(["grade", "--format", "json"], out, err) == 0
    return json.loads(out.getvalue())


CARD = grade_json()


def test_every_kind_is_told_apart_with_its_reason():
    assert kind_of(FIXTURES).kind == RESULTS
    assert kind_of({**FIXTURES, "scorecard": CARD}) == (EXPORT, "a results file with the scorecard the page drew "
                                                                "(the page's Export JSON)")
    assert kind_of(CARD) == (SCORECARD, "no format and a cases key: a scorecard (grade --format json)")
    assert kind_of({"hello": 1}) == (UNKNOWN, 'expected a results file ("format": "toolproof.transcripts") '
                                              "or a scorecard (grade --format json)")


@pytest.mark.parametrize("doc,why", [
    ([1], "the JSON is an array, not an object"),
    ("text", "the JSON is a string, not an object"),
    (None, "the JSON is null, not an object"),
    (True, "the JSON is a boolean, not an object"),
    (1.5, "the JSON is a number, not an object"),
    ({"format": "toolproof.suite"}, "its format is 'toolproof.suite', expected 'toolproof.transcripts'"),
    ({"format": None, "cases": []}, "its format is 'None', expected 'toolproof.transcripts'"),
])
def test_unknown_documents_say_what_they_are_not(doc, why):
    assert kind_of(doc) == (UNKNOWN, why)


def test_a_scorecard_disguised_with_transcripts_is_still_a_scorecard():
    disguised = {**CARD, "transcripts": FIXTURES["transcripts"]}
    assert kind_of(disguised).kind == SCORECARD
    for refuse in (lambda d: parse_run(d, SCHEMA, BUNDLE.cases, "card.json"),
                   lambda d: graded_run(d, BUNDLE.cases, BUNDLE.tools, SCHEMA, "card.json")):
        with pytest.raises(ToolProofError):
            refuse(disguised)
    # and a results file that also carries a cases key is a results file (its schema decides)
    assert kind_of({**FIXTURES, "cases": []}).kind == RESULTS


def test_an_export_with_a_non_object_scorecard_is_a_results_file():
    assert kind_of({**FIXTURES, "scorecard": [1]}).kind == RESULTS
    assert embedded_card({**FIXTURES, "scorecard": [1]}) is None


def test_the_one_refusal_line_per_verb():
    assert scorecard_refusal("board") == BOARD_LINE.removeprefix("card.json: ")
    assert scorecard_refusal("compare") == COMPARE_LINE.removeprefix("card.json: ")
    for verb, line in (("board", BOARD_LINE), ("compare", COMPARE_LINE)):
        with pytest.raises(ToolProofError) as caught:
            refuse_scorecard(CARD, verb, "card.json")
        assert caught.value.line() == line
        refuse_scorecard(FIXTURES, verb, "f.json")          # a results file goes on
        refuse_scorecard([1], verb, "x.json")               # so does garbage: the schema names it


def test_board_and_compare_refuse_through_the_door():
    with pytest.raises(ToolProofError) as caught:
        parse_run(CARD, SCHEMA, BUNDLE.cases, "card.json")
    assert caught.value.line() == BOARD_LINE
    with pytest.raises(ToolProofError) as caught:
        graded_run({"toolproof": "1", "cases": []}, BUNDLE.cases, BUNDLE.tools, SCHEMA, "card.json")
    assert caught.value.line() == COMPARE_LINE


def test_the_embedded_card_and_the_evidence():
    export = {**FIXTURES, "scorecard": CARD}
    assert embedded_card(export) is CARD
    assert evidence(export) == FIXTURES and "scorecard" not in evidence(export)
    assert embedded_card(FIXTURES) is None and evidence(FIXTURES) is FIXTURES
    assert embedded_card(CARD) is None and evidence(CARD) is CARD       # a scorecard is not an export
    assert embedded_card({"format": "other", "scorecard": {}}) is None


def test_kept_kind_takes_results_exports_and_listable_scorecards():
    assert kept_kind(FIXTURES, "f.json") == RESULTS
    assert kept_kind({**FIXTURES, "scorecard": {}}, "export.json") == RESULTS      # the page's export
    assert kept_kind(CARD, "card.json") == SCORECARD


@pytest.mark.parametrize("doc,message", [
    ([1], "x.json: not a results file: the JSON is an array, not an object"),
    ("text", "x.json: not a results file: the JSON is a string, not an object"),
    (None, "x.json: not a results file: the JSON is null, not an object"),
    ({"format": "toolproof.suite"}, "x.json: not a results file: its format is 'toolproof.suite', expected "
                                    "'toolproof.transcripts'"),
    ({"format": "\x1b[31m" + "a" * 500}, None),
    ({"format": ["x"] * 10_000}, None),
    ({"cases": [{"id": "a"}], "source": {}, "score": 1}, "x.json: not a scorecard: $.cases[0] needs an id and a verdict"),
    ({"cases": "oops", "source": {}, "score": 1}, "x.json: not a scorecard: $.cases is not an array"),
    ({"cases": [], "score": 1}, "x.json: not a scorecard: $.source is not an object"),
    ({"cases": [], "source": {}}, "x.json: not a scorecard: $.score is missing"),
    ({"cases": [{"id": "a", "verdict": "PASS"}] * 50_000 + [7], "source": {}, "score": 1},
     "x.json: not a scorecard: $.cases[50000] needs an id and a verdict"),
    ({"hello": 1}, "x.json: not a results file: expected a results file (\"format\": \"toolproof.transcripts\") "
                   "or a scorecard (grade --format json)"),
])
def test_a_file_the_page_cannot_keep_is_refused_in_one_line(doc, message):
    with pytest.raises(ToolProofError) as caught:
        kept_kind(doc, "x.json")
    line = caught.value.line()
    assert "\n" not in line and "\x1b" not in line and len(line) < 300
    if message is not None:
        assert line == message


def test_hostile_scorecards_are_told_apart_without_reading_deeper():
    deep: dict = {"id": "a", "verdict": "PASS"}
    for _ in range(5000):                       # deeper than any reader would let in: never walked
        deep = {"id": "a", "verdict": "PASS", "more": deep}
    nan = {"cases": [deep], "source": {}, "score": float("nan")}
    assert kind_of(nan).kind == SCORECARD and kept_kind(nan, "nan.json") == SCORECARD


def test_a_results_document_is_graded_as_the_terminal_grades_it():
    worlds = bundled_worlds()                               # `grade` grades the scenario fixtures too
    card = card_of_results(FIXTURES, BUNDLE.cases, BUNDLE.tools, SCHEMA, "fixtures.json", worlds=worlds)
    assert card["score"] == CARD["score"] and card["coverage"] == CARD["coverage"]
    export = card_of_results({**FIXTURES, "scorecard": {"score": 0}}, BUNDLE.cases, BUNDLE.tools, SCHEMA, "e.json",
                             worlds=worlds)
    assert export["score"] == CARD["score"]                 # the embedded card is never trusted


def test_a_results_file_of_another_suite_is_refused_by_name():
    doc = json.loads(json.dumps(FIXTURES))
    doc["transcripts"][0]["case_id"] = "no-such-case"
    with pytest.raises(ToolProofError) as caught:
        regraded(doc, BUNDLE.cases, BUNDLE.tools, SCHEMA, "other.json")
    assert caught.value.line().startswith("other.json")
