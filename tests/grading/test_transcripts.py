"""Transcript documents: one per case, known cases only, well-formed turns, sensible defaults."""
from __future__ import annotations

import pytest

from conftest import anthropic, error, openai
from toolproof.datafiles import format_schema
from toolproof.errors import ToolProofError
from toolproof.providers.catalog import PROVIDERS
from toolproof.providers.reply import Reply
from toolproof.grading.transcripts import FIXTURE_LABEL, Turn, parse_transcripts

SCHEMA = format_schema("transcripts")


def doc(*transcripts: dict, **top) -> dict:
    return {"format": "toolproof.transcripts", "version": 1, "kind": "live", "transcripts": list(transcripts), **top}


def transcript(case_id: str, *turns: dict, **extra) -> dict:
    return {"case_id": case_id, "turns": list(turns) or [openai(text="ok")], **extra}


def refusal(document: dict, known: set | None = None) -> str:
    with pytest.raises(ToolProofError) as exc:
        parse_transcripts(document, SCHEMA, known)
    return exc.value.line()


def test_second_transcript_for_a_case_is_refused():
    # two answers for one (case, repeat) would make the score depend on which one wins
    assert refusal(doc(transcript("a"), transcript("b"), transcript("a"))) == \
        "transcripts.json: at $.transcripts[2].case_id: second transcript for case 'a' repeat 0; " \
        "each (case_id, repeat) pair appears once"
    # an absent repeat is repeat 0
    assert refusal(doc(transcript("a", repeat=1), transcript("a"), transcript("a", repeat=0))) == \
        "transcripts.json: at $.transcripts[2].case_id: second transcript for case 'a' repeat 0; " \
        "each (case_id, repeat) pair appears once"


def test_repeats_are_kept_in_repeat_order_whatever_the_file_order():
    ts = parse_transcripts(doc(transcript("a", repeat=2), transcript("b"), transcript("a"),
                               transcript("a", repeat=1)), SCHEMA)
    assert [t.repeat for t in ts.all_repeats()["a"]] == [0, 1, 2]
    assert ts.transcripts["a"].repeat == 0 and list(ts.transcripts) == ["a", "b"]


@pytest.mark.parametrize("bad, where", [(-1, "minimum"), (1.5, "integer"), ("0", "integer"), (True, "integer"),
                                         (10 ** 40, "maximum")])
def test_a_malformed_repeat_is_refused(bad, where):
    line = refusal(doc(transcript("a", repeat=bad)))
    assert line.startswith("transcripts.json: at $.transcripts[0].repeat: "), line


def test_suite_sha256_must_be_a_hex_digest():
    assert refusal(doc(transcript("a"), suite_sha256="x" * 64)).startswith(
        "transcripts.json: at $.suite_sha256: ")
    assert parse_transcripts(doc(transcript("a"), suite_sha256="0" * 64, settings={"repeats": 1}), SCHEMA)


def test_unknown_case_is_refused_when_the_suite_is_known():
    # a renamed case would otherwise silently drop out of the score
    assert refusal(doc(transcript("a"), transcript("gone")), known={"a", "b"}) == \
        "transcripts.json: at $.transcripts[1].case_id: case 'gone' is not in the suite"


def test_any_case_is_accepted_without_a_suite():
    assert list(parse_transcripts(doc(transcript("x"), transcript("y")), SCHEMA).transcripts) == ["x", "y"]


@pytest.mark.parametrize("turn, line", [
    # a turn is a response or an error, never both: which one would the grader believe?
    ({"response": {"choices": []}, "error": {"message": "x"}},
     "transcripts.json: at $.transcripts[0].turns[0]: a turn holds exactly one of response or error"),
    ({"status": 200}, "transcripts.json: at $.transcripts[0].turns[0]: a turn holds exactly one of response or error"),
    ({"error": {"status": 500}}, "transcripts.json: at $.transcripts[0].turns[0].error: 'message' is a required property"),
    ({"error": {"status": "500", "message": "x"}},
     "transcripts.json: at $.transcripts[0].turns[0].error.status: '500' is not of type 'integer', 'null'"),
])
def test_bad_turns_are_refused_by_the_format(turn, line):
    assert refusal(doc(transcript("a", turn))) == line


@pytest.mark.parametrize("top, line", [
    ({"format": "toolproof.suite"}, "transcripts.json: at $.format: 'toolproof.transcripts' was expected"),
    ({"kind": "replay"}, "transcripts.json: at $.kind: 'replay' is not one of ['fixture', 'live']"),
])
def test_bad_documents_are_refused(top, line):
    assert refusal(doc(transcript("a"), **top)) == line


def test_transcript_provider_must_be_known():
    assert refusal(doc(transcript("a", provider="mistral"))) == (
        f"transcripts.json: at $.transcripts[0].provider: 'mistral' is not one of {list(PROVIDERS)}")


# A transcript without its own "provider" takes the document's; an unknown one (data/fixtures.json
# says "mixed" at the top) must be refused, not silently read as OpenAI.
@pytest.mark.parametrize("top_provider", ["mixed", "antropic"])
def test_unknown_effective_provider_is_refused(top_provider):
    with pytest.raises(ToolProofError) as exc:
        parse_transcripts(doc(transcript("a", anthropic(text="hi")), provider=top_provider), SCHEMA)
    assert "provider" in exc.value.line()


def test_a_free_text_document_provider_is_fine_when_each_transcript_names_its_own():
    # data/fixtures.json mixes providers and says so at the top
    tset = parse_transcripts(doc(transcript("a", anthropic(text="hi"), provider="anthropic"), provider="mixed"),
                             SCHEMA)
    assert (tset.provider, tset.transcripts["a"].turns[0].reply.text) == ("mixed", "hi")


@pytest.mark.parametrize("top, label", [
    ({"kind": "fixture"}, FIXTURE_LABEL),
    # an empty label must not hide that fixtures are not a benchmark result
    ({"kind": "fixture", "label": ""}, FIXTURE_LABEL),
    ({"kind": "fixture", "label": "hand-made examples"}, "hand-made examples"),
    ({"kind": "live"}, ""),
    ({"kind": "live", "label": "nightly"}, "nightly"),
])
def test_fixture_label_default(top, label):
    assert parse_transcripts(doc(transcript("a"), **top), SCHEMA).label == label


def test_fixture_label_text():
    assert FIXTURE_LABEL == "FIXTURE: illustrative responses, not a benchmark result"


def test_provider_and_model_default_from_the_document():
    tset = parse_transcripts(doc(
        transcript("a", anthropic(text="from claude")),
        transcript("b", openai(text="from gpt"), provider="openai", model="gpt-4o"),
        provider="anthropic", model="claude-sonnet-4-5"), SCHEMA)
    a, b = tset.transcripts["a"], tset.transcripts["b"]
    assert (tset.provider, tset.model) == ("anthropic", "claude-sonnet-4-5")
    assert (a.provider, a.model, a.turns[0].reply.text) == ("anthropic", "claude-sonnet-4-5", "from claude")
    assert (b.provider, b.model, b.turns[0].reply.text) == ("openai", "gpt-4o", "from gpt")


def test_provider_defaults_to_openai_without_any():
    tset = parse_transcripts(doc(transcript("a", openai(text="hi"))), SCHEMA)
    assert (tset.provider, tset.transcripts["a"].provider, tset.transcripts["a"].turns[0].reply.text) == \
        ("", "openai", "hi")


def test_turns_become_replies_or_errors():
    tset = parse_transcripts(doc(transcript("a", openai(("lookup", {"id": 1})), error(503, "overloaded"),
                                            {"response": None})), SCHEMA)
    first, second, third = tset.transcripts["a"].turns
    assert [c.name for c in first.reply.calls] == ["lookup"] and first.error is None
    assert second == Turn(None, {"status": 503, "message": "overloaded"})
    # a null body is a malformed reply, not a crash
    assert third.reply == Reply(malformed="response body is not a JSON object")


def test_variants_and_intended_verdict_are_kept():
    tset = parse_transcripts(doc(transcript(
        "a", intended_verdict="FAIL",
        variants=[{"id": "gone", "turns": [openai(text="first"), openai(text="second")]}])), SCHEMA)
    t = tset.transcripts["a"]
    assert t.intended_verdict == "FAIL"
    assert [(vid, [turn.reply.text for turn in turns]) for vid, turns in t.variants] == [("gone", ["first", "second"])]
    assert t.raw["case_id"] == "a" and tset.raw["kind"] == "live"


def test_unknown_variant_id_is_refused_like_an_unknown_case():
    # issue 8 rule 5: a variant the case does not have would silently drop out of the diagnosis
    known = {"a": ("other",), "b": ()}
    run = {"id": "typo", "turns": [openai(text="hi")]}
    assert refusal(doc(transcript("a", variants=[{"id": "other", "turns": [openai(text="x")]}, run])),
                   known=known) == \
        "transcripts.json: at $.transcripts[0].variants[1].id: case 'a' has no variant 'typo'"
    assert refusal(doc(transcript("b", variants=[run])), known=known) == \
        "transcripts.json: at $.transcripts[0].variants[0].id: case 'b' has no variant 'typo'"
    twice = {"id": "other", "turns": [openai(text="x")]}
    assert refusal(doc(transcript("a", variants=[twice, twice])), known=known) == \
        "transcripts.json: at $.transcripts[0].variants[1].id: second run of variant 'other' for case 'a'"
    assert refusal(doc(transcript("zzz")), known=known) == \
        "transcripts.json: at $.transcripts[0].case_id: case 'zzz' is not in the suite"
    assert list(parse_transcripts(doc(transcript("a", variants=[twice])), SCHEMA, known).transcripts) == ["a"]
