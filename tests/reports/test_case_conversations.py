"""A case's conversations (phrasing × repeat) for the detail's picker: each graded result with its own
transcript, labels that name what differs, the one the row's reasons come from, and the prompt each
phrasing sent. Built from phrasingdocs' suite with repeats, and from hostile leftovers."""
from __future__ import annotations

import pytest

from phrasingdocs import TOOLS_DOC, every_phrasing, suite_doc, transcript, transcripts_doc
from toolproof.datafiles import format_schema
from toolproof.grading.transcripts import parse_transcripts
from toolproof.reports.case_view import (conversation, conversation_line, conversations_of, graded_entry,
                                         row_conversation, sent_as)
from toolproof.scoring.evaluate import grade_transcripts
from toolproof.suite.load import parse_suite, parse_tools

TOOLS = parse_tools(TOOLS_DOC, format_schema("tools"))
CASES = parse_suite(suite_doc(), TOOLS, format_schema("suite"))
BY_ID = {c.id: c for c in CASES}


def graded(items: list[dict]):
    found = grade_transcripts(CASES, TOOLS, parse_transcripts(transcripts_doc(items), format_schema("transcripts")))
    return ({rs[0].case_id: rs for rs in found.per_case}, {r.case_id: r for r in found.rows},
            lambda cid: [t for t in found.transcripts if t.case_id == cid])


@pytest.fixture(scope="module")
def doubled():
    return graded(every_phrasing(repeats=2))


def test_every_phrasing_and_repeat_is_one_conversation_with_its_own_transcript(doubled):
    results, _, transcripts = doubled
    found = conversations_of(results["call"], transcripts("call"))
    assert [c.label for c in found] == ["base · repeat 1 of 2 · PASS", "base · repeat 2 of 2 · PASS",
                                        "terse · repeat 1 of 2 · PASS", "terse · repeat 2 of 2 · PASS",
                                        "chatty · repeat 1 of 2 · FAIL", "chatty · repeat 2 of 2 · FAIL"]
    for c in found:        # the transcript is the conversation's own, never the case's first
        assert (c.transcript.phrasing, c.transcript.repeat) == (c.phrasing, c.repeat) == (c.result.phrasing, c.result.repeat)


def test_the_detail_opens_on_the_conversation_the_row_reports(doubled):
    results, rows, transcripts = doubled
    found = conversations_of(results["call"], transcripts("call"))
    reported = row_conversation(found, rows["call"])
    assert (found[reported].phrasing, found[reported].repeat) == (rows["call"].phrasing, rows["call"].repeat)
    assert graded_entry(found[reported].result)["reasons"] == rows["call"].reasons
    assert conversation_line(found, reported, reported) == (
        f"Conversation {reported + 1} of 6: phrasing base, repeat 1 of 2, PASS (the one the case's reasons come from).")
    assert conversation_line(found, 5, reported) == "Conversation 6 of 6: phrasing chatty, repeat 2 of 2, FAIL."


def test_labels_name_only_what_varies():
    results, _, transcripts = graded(every_phrasing())
    assert [c.label for c in conversations_of(results["two"], transcripts("two"))] == ["base · PASS", "typo · FAIL"]
    results, _, transcripts = graded([transcript("call", repeat=r) for r in range(3)])
    found = conversations_of(results["call"], transcripts("call"))
    assert [c.label for c in found] == ["repeat 1 of 3 · PASS", "repeat 2 of 3 · PASS", "repeat 3 of 3 · PASS"]
    assert conversation_line(found, 1, 0) == "Conversation 2 of 3: repeat 2 of 3, PASS."


def test_each_conversation_shows_the_prompt_its_phrasing_sent(doubled):
    results, _, transcripts = doubled
    chatty = conversations_of(results["call"], transcripts("call"))[4]
    messages = conversation(sent_as(BY_ID["call"], chatty.phrasing), chatty.transcript)
    user = next(m["text"] for m in messages if m["role"] == "user")
    assert user == next(p.prompt for p in BY_ID["call"].phrasings if p.id == "chatty") != BY_ID["call"].prompt
    assert sent_as(BY_ID["call"], "base") is BY_ID["call"]


def test_a_phrasing_the_suite_lacks_or_a_missing_transcript_is_no_crash(doubled):
    results, _, transcripts = doubled
    assert sent_as(BY_ID["call"], "\u202e<script>") is BY_ID["call"]        # the suite at hand lacks it
    found = conversations_of(results["call"], [])                             # results kept without transcripts
    assert len(found) == 6 and all(c.transcript is None for c in found)
    assert conversation(BY_ID["call"], None)[-1]["text"] == "no transcript: this case was not sent"
    assert conversations_of([], []) == [] and row_conversation([], next(iter(results.values()))[0]) == 0


def test_a_failed_conversation_is_listed_with_its_error_verdict():
    from conftest import error

    items = [transcript("call"), transcript("call", "terse", turns=[error(500, "down")])]
    results, _, transcripts = graded(items)
    found = conversations_of(results["call"], transcripts("call"))
    assert [c.label for c in found] == ["base · PASS", "terse · ERROR"]
    assert any(m["role"] == "error" for m in conversation(sent_as(BY_ID["call"], "terse"), found[1].transcript))


def test_a_conversations_reasons_are_redacted_as_every_card_entry_is(doubled):
    from dataclasses import replace

    results, _, _ = doubled
    leaky = replace(results["call"][0], reasons=["the model sent sk-proj-" + "a" * 30 + " as the memo"])
    entry = graded_entry(leaky)
    assert "sk-proj-" + "a" * 30 not in str(entry) and entry["verdict"] == "PASS"
