"""References inside a results file (grading/results_refs.py): written by `Encoder`, resolved by
`expand`, the same document back in every wire format, and every bad reference refused by path."""
from __future__ import annotations

import asyncio
import copy
import json

import pytest

from fakeprovider import case_and_turn, replay, wire_of
from toolproof.datafiles import DATA, format_schema, load_bundle, read_json
from toolproof.errors import ToolProofError
from toolproof.grading.results_refs import Encoder, compact, expand, pointer
from toolproof.grading.transcripts import parse_transcripts
from toolproof.providers.catalog import PROVIDERS
from toolproof.running.runner import Run, RunSettings
from toolproof.running.transport import HttpReply

BUNDLE = load_bundle()


def encode_all(transcripts: list) -> list:
    """Every transcript of a file, in its order, through one Encoder (as the writer does)."""
    encoder = Encoder()
    return [encoder.encode(t) for t in transcripts]
BASE = {"openai-compatible": "http://127.0.0.1:9/v1"}


async def replayed(url: str, headers: dict, body: dict, timeout: float) -> HttpReply:
    """The committed fixtures answered in the wire format of `url` (tests/fakeprovider.py's replay)."""
    case_id, turn = case_and_turn(url, body)
    status, out, text = replay(case_id, turn, wire_of(url), body)
    return HttpReply(status, out, text, 5.0)


def run_document(provider: str, repeats: int = 2) -> dict:
    settings = RunSettings(provider, "m", "sk-x", BASE.get(provider, ""), "all", 10**5, pause_s=0,
                           repeats=repeats, concurrency=4)
    run = Run(BUNDLE.cases, BUNDLE.tools, settings, replayed)
    asyncio.run(run.run())
    return run.document(created="2026-12-06T00:00:00+00:00")


@pytest.fixture(scope="module", params=PROVIDERS)
def live_doc(request):
    return run_document(request.param)


def v2(doc: dict, transcripts: list) -> dict:
    return {**doc, "version": 2, "transcripts": transcripts}


def test_every_wire_format_comes_back_exactly_and_much_smaller(live_doc):
    encoded = encode_all(live_doc["transcripts"])
    assert json.loads(json.dumps(expand(v2(live_doc, encoded)))) == v2(live_doc, live_doc["transcripts"])
    # a request body's repeated parts are references: the repeats' and the later turns' tools,
    # system prompt and the messages a second turn extends
    before, after = len(compact(live_doc["transcripts"])), len(compact(encoded))
    assert after < 0.6 * before
    bodies = [t["request"]["body"] for tr in encoded for t in tr["turns"]]
    assert any("$then" in v for b in bodies for v in b.values() if isinstance(v, dict))


def test_expanded_references_share_the_object_they_name(live_doc):
    encoded = json.loads(compact(encode_all(live_doc["transcripts"])))     # as read from a file
    back = expand(v2(live_doc, encoded))["transcripts"]
    repeats = [t for t in back if t["case_id"] == back[0]["case_id"] and "phrasing" not in t]
    first, second = (t["turns"][0]["request"]["body"] for t in repeats[:2])
    big = [k for k, v in first.items() if len(compact(v)) >= 256]
    assert big and all(second[k] is first[k] for k in big)      # shared, not copied


def test_the_fixtures_and_version_1_files_read_as_before():
    fixtures = read_json(DATA / "fixtures.json")
    assert expand(fixtures) is fixtures                          # version 1: never touched
    hostile = {**fixtures, "transcripts": copy.deepcopy(fixtures["transcripts"])}
    hostile["transcripts"][0]["turns"][0]["request"] = {"body": {"tools": {"$same_as": "/x"}}}
    assert expand(hostile) is hostile                            # not a reference in version 1
    encoded = encode_all(fixtures["transcripts"])
    assert expand(v2(fixtures, encoded))["transcripts"] == fixtures["transcripts"]


def test_a_results_file_of_version_2_grades_as_version_1(live_doc):
    schema = format_schema("transcripts")
    cases = {c.id for c in BUNDLE.cases}
    one = parse_transcripts(live_doc, schema, cases)
    two = parse_transcripts(json.loads(compact(v2(live_doc, encode_all(live_doc["transcripts"])))), schema, cases)
    assert [t.raw for t in two.transcripts.values()] == [t.raw for t in one.transcripts.values()]


def test_a_list_that_extends_an_earlier_one_keeps_only_what_is_new():
    system = {"role": "system", "content": "s" * 300}
    turn1 = {"messages": [system, {"role": "user", "content": "hi"}]}
    turn2 = {"messages": turn1["messages"] + [{"role": "assistant", "content": "x"}]}
    doc = {"transcripts": [{"case_id": "a", "turns": [{"request": {"body": turn1}}, {"request": {"body": turn2}}]}]}
    encoded = encode_all(doc["transcripts"])
    assert encoded[0]["turns"][1]["request"]["body"]["messages"] == {
        "$same_as": "/transcripts/0/turns/0/request/body/messages", "$then": [{"role": "assistant", "content": "x"}]}
    assert expand(v2(doc, encoded))["transcripts"] == doc["transcripts"]
    # a small part stays written out (a reference would cost about what it saves)
    small = [{"case_id": "a", "turns": [{"request": {"body": {"tools": [1]}}}] * 2}]
    assert encode_all(small) == small


def test_keys_with_pointer_escapes_round_trip():
    value = ["x" * 300]
    body = {"a/b~c": value, "~1": value, "": value}
    doc = {"transcripts": [{"case_id": "a", "turns": [{"request": {"body": body}}] * 2}]}
    encoded = encode_all(doc["transcripts"])
    assert encoded[0]["turns"][1]["request"]["body"]["a/b~c"] == {"$same_as": "/transcripts/0/turns/0/request/body/a~1b~0c"}
    assert encoded[0]["turns"][0] is doc["transcripts"][0]["turns"][0]     # never within one turn
    assert pointer(3, 1, 0, "~/") == "/transcripts/3/variants/1/turns/0/request/body/~0~1"
    assert expand(v2(doc, encoded))["transcripts"] == doc["transcripts"]


def test_an_encoder_belongs_to_one_file():
    encoder = Encoder()
    t = {"case_id": "a", "turns": [{"request": {"body": {"tools": ["y" * 300]}}}]}
    assert encoder.encode(t) is t and encoder.count == 1
    assert encoder.encode(t)["turns"][0]["request"]["body"]["tools"] == {
        "$same_as": "/transcripts/0/turns/0/request/body/tools"}


LITERAL = ["z" * 300]


def doc_with(ref, *, where: tuple = (1, None, 0)) -> dict:
    """Three transcripts of one turn each (and a variant on the second), `ref` at `where`."""
    def transcript(i):
        return {"case_id": f"c{i}", "turns": [{"request": {"body": {"tools": LITERAL}}}],
                "variants": [{"id": "v", "turns": [{"request": {"body": {"tools": LITERAL}}}]}]}
    doc = {"format": "toolproof.transcripts", "version": 2, "transcripts": [transcript(i) for i in range(3)]}
    i, variant, k = where
    holder = doc["transcripts"][i] if variant is None else doc["transcripts"][i]["variants"][variant]
    holder["turns"][k]["request"]["body"]["tools"] = ref
    return doc


GOOD = "/transcripts/0/turns/0/request/body/tools"
BAD = [
    # (the reference, where it sits, the refusal)
    ({"$same_as": "/transcripts/2/turns/0/request/body/tools"}, (1, None, 0), "points to this turn or a later one"),
    ({"$same_as": "/transcripts/1/turns/0/request/body/tools"}, (1, None, 0), "points to this turn or a later one"),
    ({"$same_as": "/transcripts/1/variants/0/turns/0/request/body/tools"}, (1, None, 0), "this turn or a later one"),
    ({"$same_as": "/transcripts/999999999/turns/0/request/body/tools"}, (1, None, 0), "this turn or a later one"),
    ({"$same_as": "/transcripts/0/turns/5/request/body/tools"}, (1, None, 0), "a place this file does not have"),
    ({"$same_as": "/transcripts/0/turns/0/request/body/nope"}, (1, None, 0), "a place this file does not have"),
    ({"$same_as": "/transcripts/0/variants/3/turns/0/request/body/tools"}, (1, None, 0), "does not have"),
    ({"$same_as": "/transcripts/" + "9" * 40 + "/turns/0/request/body/tools"}, (1, None, 0), "does not point to"),
    ({"$same_as": "/transcripts/01/turns/0/request/body/tools"}, (2, None, 0), "does not point to"),
    ({"$same_as": "/transcripts/0/turns/0/response"}, (1, None, 0), "does not point to a request body's key"),
    ({"$same_as": "/transcripts/0/turns/0/request/body/a/b"}, (1, None, 0), "does not point to"),
    ({"$same_as": "/transcripts/0/turns/0/request/body/~2"}, (1, None, 0), "does not point to"),
    ({"$same_as": "#/transcripts/0"}, (1, None, 0), "does not point to"),
    ({"$same_as": 0}, (1, None, 0), "must be a JSON pointer (a string), not int"),
    ({"$same_as": None}, (1, None, 0), "not NoneType"),
    ({"$same_as": ["/x"]}, (1, None, 0), "not list"),
    ({"$same_as": GOOD, "extra": 1}, (1, None, 0), "nothing else"),
    ({"$same_as": GOOD, "$then": "x"}, (1, None, 0), "$then extends a list"),
    ({"$same_as": "/transcripts/0/turns/0/request/body/tools"}, (2, None, 0), None),   # fine: resolves
]


@pytest.mark.parametrize("ref, where, refusal", BAD)
def test_a_bad_reference_is_refused_by_its_path(ref, where, refusal):
    doc = doc_with(ref, where=where)
    if refusal is None:
        assert expand(doc)["transcripts"][2]["turns"][0]["request"]["body"]["tools"] is LITERAL
        return
    with pytest.raises(ToolProofError) as raised:
        expand(doc, "r.json")
    i, _, k = where
    assert raised.value.line().startswith(f"r.json: at $.transcripts[{i}].turns[{k}].request.body.tools: ")
    assert refusal in raised.value.reason


def test_a_chain_or_a_loop_is_refused_not_followed():
    doc = doc_with({"$same_as": GOOD})                   # transcript 1 refers to 0
    doc["transcripts"][2]["turns"][0]["request"]["body"]["tools"] = {
        "$same_as": "/transcripts/1/turns/0/request/body/tools"}      # 2 refers to 1's reference
    with pytest.raises(ToolProofError, match="points to another reference"):
        expand(doc)
    doc = doc_with({"$same_as": "/transcripts/0/turns/0/request/body/tools"})
    doc["transcripts"][0]["turns"][0]["request"]["body"]["tools"] = {"$same_as": GOOD}    # itself
    with pytest.raises(ToolProofError, match="this turn or a later one"):
        expand(doc)


def test_a_long_chain_of_extensions_resolves_in_one_step_each():
    # every transcript extends the first literal list: no reference ever needs another resolved
    items = [{"case_id": "c0", "turns": [{"request": {"body": {"m": LITERAL}}}]}]
    items += [{"case_id": f"c{i}", "turns": [{"request": {"body": {"m": {"$same_as": "/transcripts/0/turns/0/request/body/m",
                                                                          "$then": [i]}}}}]} for i in range(1, 20000)]
    back = expand({"version": 2, "transcripts": items})["transcripts"]
    assert back[-1]["turns"][0]["request"]["body"]["m"] == LITERAL + [19999]


def test_a_variant_refers_to_its_transcripts_turns_and_a_later_transcript_to_its_variants():
    doc = doc_with({"$same_as": GOOD}, where=(0, 0, 0))
    assert expand(doc)["transcripts"][0]["variants"][0]["turns"][0]["request"]["body"]["tools"] is LITERAL
    doc = doc_with({"$same_as": "/transcripts/0/variants/0/turns/0/request/body/tools"}, where=(1, 0, 0))
    assert expand(doc)["transcripts"][1]["variants"][0]["turns"][0]["request"]["body"]["tools"] is LITERAL


def test_what_is_not_shaped_like_a_results_file_goes_on_to_the_schema():
    for doc in (None, [], {"version": 2}, {"version": 2, "transcripts": {}}, {"version": 2, "transcripts": [1, {"turns": 3}]},
                {"version": 2, "transcripts": [{"turns": [{"request": []}, {"request": {"body": 2}}]}]}):
        assert expand(doc) == doc


def test_what_references_stand_for_is_bounded_like_a_file():
    # a "billion laughs": one part written out, referred to again and again
    big = ["w" * 10_000]
    items = [{"case_id": "c0", "turns": [{"request": {"body": {"tools": big}}}]}]
    items += [{"case_id": f"c{i}", "turns": [{"request": {"body": {"tools": {"$same_as": GOOD}}}}]} for i in range(1, 200)]
    doc = {"version": 2, "transcripts": items}
    assert expand(doc, max_referred=10_004 * 199)["transcripts"][199]["turns"][0]["request"]["body"]["tools"] is big
    with pytest.raises(ToolProofError) as raised:
        expand(doc, "r.json", max_referred=10_004 * 150)
    assert raised.value.line() == ("r.json: at $.transcripts[151].turns[0].request.body.tools: this file's references "
                                   "stand for more than 1.5006 MB of JSON (ten times the 20 MB reading limit): a file "
                                   "that large once expanded is refused; split the run into several files")


def test_what_extensions_make_is_bounded():
    long = list(range(1000))
    items = [{"case_id": "c0", "turns": [{"request": {"body": {"m": long}}}]}]
    items += [{"case_id": f"c{i}", "turns": [{"request": {"body": {"m": {"$same_as": "/transcripts/0/turns/0/request/body/m",
                                                                          "$then": []}}}}]} for i in range(1, 100)]
    doc = {"version": 2, "transcripts": items}
    assert len(expand(doc)["transcripts"][99]["turns"][0]["request"]["body"]["m"]) == 1000
    with pytest.raises(ToolProofError, match=r"at \$.transcripts\[51\].*extensions make more than 50,000 list items"):
        expand(doc, max_extended=50_000)


def test_the_encoder_counts_what_its_references_stand_for(live_doc):
    encoder = Encoder()
    encoded = [encoder.encode(t) for t in live_doc["transcripts"]]
    doc = json.loads(compact(v2(live_doc, encoded)))
    expand(doc, max_referred=encoder.referred)                      # exactly what the reader counts
    with pytest.raises(ToolProofError, match="references stand for more than"):
        expand(doc, max_referred=encoder.referred - 1)
