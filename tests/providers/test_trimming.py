"""What a run keeps of a reply body (providers/trimming.py and each wire's trim_<wire>).

Found by a hostile-input review (issue 36): a server answering 50,000 calls per reply left a
110-166 MB results file and took 1.2-1.85 GB, though only 256 calls of a reply were read. Here,
per wire format: the kept body holds the calls and text the reader reads and no more, is still a
body of its format, reads as the whole one did once `dropped` is counted back, and turn 2 echoes
only what was kept, answering each call as the real API requires.
"""
from __future__ import annotations

import json
from contextlib import contextmanager
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fakeprovider import anthropic_turn_problem, chat_turn_problem, in_wire, responses_turn_problem
from wire_echoes import echoed_and_answered
from toolproof.providers import reply as reply_module
from toolproof.providers import trimming
from toolproof.providers.conversation import case_mocks
from toolproof.providers.dispatch import reply_from_body, request_body, trim_body
from toolproof.providers.reply import MAX_CALLS, MAX_TEXT
from toolproof.providers.trimming import counted

WIRES = ("openai", "anthropic", "openai-responses", "gemini")
N = 50_000


def chat_body(calls: int = 0, text: str | None = None) -> dict:
    """A Chat Completions body with `calls` calls and `text` (the shape in_wire converts)."""
    tool_calls = [{"id": f"c{i}", "type": "function",
                   "function": {"name": "lookup", "arguments": json.dumps({"order_id": f"ORD-{i:06d}"})}}
                  for i in range(calls)]
    message = {"role": "assistant", "content": text, **({"tool_calls": tool_calls} if tool_calls else {})}
    return {"id": "x", "choices": [{"index": 0, "message": message,
                                    "finish_reason": "tool_calls" if calls else "stop"}]}


def body_in(wire: str, calls: int = 0, text: str | None = None) -> dict:
    """The same answer as the real API of `wire` sends it: with thinking blocks, signatures,
    reasoning items (tests/fakeprovider.py's shapes)."""
    return in_wire(chat_body(calls, text), wire)


def many_calls(wire: str, n: int) -> dict:
    """`n` bare calls of `wire`, as compact as a hostile server writes them (50,000 in 2-4 MB: the
    real shapes' signatures would take the body past the 5 MB limit)."""
    if wire == "openai":
        return {"choices": [{"message": {"role": "assistant", "content": None, "tool_calls": [
            {"id": f"c{i}", "type": "function", "function": {"name": "f", "arguments": "{}"}} for i in range(n)]},
            "finish_reason": "tool_calls"}]}
    if wire == "anthropic":
        return {"content": [{"type": "tool_use", "id": f"c{i}", "name": "f", "input": {}} for i in range(n)],
                "stop_reason": "tool_use"}
    if wire == "openai-responses":
        return {"status": "completed", "output": [{"type": "function_call", "call_id": f"c{i}", "name": "f",
                                                   "arguments": "{}"} for i in range(n)]}
    return {"candidates": [{"content": {"role": "model", "parts": [
        {"functionCall": {"name": "f", "args": {}, "id": f"c{i}"}} for i in range(n)]}, "finishReason": "STOP"}]}


def reads_the_same(wire: str, body) -> tuple:
    """Trim `body`, check the kept body reads as the whole one (counts added back); answer
    (kept, dropped)."""
    before = json.dumps(body, sort_keys=True)
    kept, dropped = trim_body(wire, body)
    assert json.dumps(body, sort_keys=True) == before            # the body given is never changed
    assert counted(reply_from_body(wire, kept), dropped) == reply_from_body(wire, body)
    if not dropped:
        assert kept is body
    return kept, dropped


# ---- calls, text, both, per wire ------------------------------------------------------------

@pytest.mark.parametrize("wire", WIRES)
def test_a_50000_call_reply_keeps_its_first_max_calls_calls(wire):
    body = many_calls(wire, N)
    assert len(json.dumps(body)) < 5_000_000                            # within the body limit
    kept, dropped = reads_the_same(wire, body)
    assert dropped == {"calls": N - MAX_CALLS}
    reply = reply_from_body(wire, kept)
    assert (len(reply.calls), reply.calls_not_read) == (MAX_CALLS, 0)
    assert [c.id for c in reply.calls] == [f"c{i}" for i in range(MAX_CALLS)]      # the first ones, in order
    assert len(json.dumps(kept)) < len(json.dumps(body)) / 100       # megabytes down to tens of kB


@pytest.mark.parametrize("wire", WIRES)
def test_a_long_text_is_kept_to_max_text_characters(wire):
    text = "".join(f"word{i} " for i in range(10_000))                  # 88,890 characters
    kept, dropped = reads_the_same(wire, body_in(wire, 0, text))
    assert dropped == {"characters": len(text) - MAX_TEXT}
    reply = reply_from_body(wire, kept)
    assert reply.text == text[:MAX_TEXT] and reply.text_not_read == 0
    assert counted(reply, dropped).text_not_read == len(text) - MAX_TEXT


@pytest.mark.parametrize("wire", WIRES)
def test_calls_and_text_are_cut_together(wire):
    text = "x" * (3 * MAX_TEXT)
    kept, dropped = reads_the_same(wire, body_in(wire, MAX_CALLS + 7, text))
    assert dropped == {"calls": 7, "characters": 2 * MAX_TEXT}
    assert len(json.dumps(kept)) < MAX_TEXT + MAX_CALLS * 400


@pytest.mark.parametrize("wire", WIRES)
def test_a_reply_within_the_bounds_is_kept_as_it_is(wire):
    body = body_in(wire, MAX_CALLS, "y" * MAX_TEXT)
    assert trim_body(wire, body) == (body, {})
    assert trim_body(wire, body)[0] is body


def test_each_wire_keeps_its_own_shape():
    text = "a" * MAX_TEXT + "b" * 10
    chat, _ = trim_body("openai", body_in("openai", 300, text))
    message = chat["choices"][0]["message"]
    assert len(message["tool_calls"]) == MAX_CALLS and message["content"] == "a" * MAX_TEXT
    assert message["reasoning_content"] == "The user needs a tool."          # kept as received
    messages, _ = trim_body("anthropic", body_in("anthropic", 300, text))
    assert [b["type"] for b in messages["content"]][:2] == ["thinking", "text"]
    assert sum(b["type"] == "tool_use" for b in messages["content"]) == MAX_CALLS
    responses, _ = trim_body("openai-responses", body_in("openai-responses", 300, text))
    kinds = [item["type"] for item in responses["output"]]
    assert kinds[:2] == ["message", "reasoning"] and kinds.count("function_call") == MAX_CALLS
    assert responses["output"][0]["content"][0]["text"] == "a" * MAX_TEXT
    gemini, _ = trim_body("gemini", body_in("gemini", 300, text))
    parts = gemini["candidates"][0]["content"]["parts"]
    assert parts[0] == {"text": "a" * MAX_TEXT} and len(parts) == 1 + MAX_CALLS
    assert all("thoughtSignature" in p for p in parts[1:])                 # each kept call keeps its own


# ---- where the text is cut: the pieces around MAX_TEXT (a small bound, every shape) -------------

@contextmanager
def bounds(calls: int, text: int):
    with mock.patch.object(reply_module, "MAX_CALLS", calls), mock.patch.object(trimming, "MAX_CALLS", calls), \
            mock.patch.object(reply_module, "MAX_TEXT", text), mock.patch.object(trimming, "MAX_TEXT", text):
        yield


PIECE = st.text(alphabet="ab\n", max_size=14)
ITEMS = st.lists(st.one_of(st.just(("call",)), st.tuples(st.just("text"), PIECE), st.just(("other",)),
                           st.tuples(st.just("junk"), st.sampled_from([None, 3, "s", [], {"type": ["x"]}]))),
                 max_size=14)


def shaped(wire: str, items: list, refusal: str | None, as_parts: bool):
    """A body of `wire` holding `items` in order: calls, text pieces, other items, junk."""
    def call(i):
        return {"openai": {"id": f"c{i}", "type": "function", "function": {"name": "f", "arguments": "{}"}},
                "anthropic": {"type": "tool_use", "id": f"t{i}", "name": "f", "input": {}},
                "openai-responses": {"type": "function_call", "call_id": f"c{i}", "name": "f", "arguments": "{}"},
                "gemini": {"functionCall": {"name": "f", "args": {}}}}[wire]
    text = {"openai": lambda s: {"type": "text", "text": s}, "anthropic": lambda s: {"type": "text", "text": s},
            "openai-responses": lambda s: {"type": "message", "content": [{"type": "output_text", "text": s}]},
            "gemini": lambda s: {"text": s}}[wire]
    other = {"openai": {"type": "image_url"}, "anthropic": {"type": "thinking", "thinking": "t", "signature": "s"},
             "openai-responses": {"type": "reasoning", "encrypted_content": "e"},
             "gemini": {"text": "thought", "thought": True}}[wire]
    listed = [call(i) if kind[0] == "call" else text(kind[1]) if kind[0] == "text" else
              other if kind[0] == "other" else kind[1] for i, kind in enumerate(items)]
    if wire == "openai":
        calls = [x for x in listed if isinstance(x, dict) and "function" in x]
        texts = [x for x in listed if not (isinstance(x, dict) and "function" in x)]
        content = texts if as_parts else "".join(x["text"] for x in texts if isinstance(x, dict) and "text" in x)
        message = {"role": "assistant", "content": content, "tool_calls": calls,
                   **({"refusal": refusal} if refusal is not None else {})}
        return {"choices": [{"message": message, "finish_reason": "stop"}]}
    if wire == "anthropic":
        return {"content": listed, "stop_reason": "end_turn"}
    if wire == "openai-responses":
        return {"status": "completed", "output": listed}
    return {"candidates": [{"content": {"role": "model", "parts": listed}, "finishReason": "STOP"}]}


@settings(max_examples=300, deadline=None)
@given(wire=st.sampled_from(WIRES), items=ITEMS, refusal=st.one_of(st.none(), PIECE), as_parts=st.booleans(),
       text_bound=st.integers(1, 12))
def test_a_kept_body_reads_as_the_whole_one(wire, items, refusal, as_parts, text_bound):
    with bounds(3, text_bound):
        body = shaped(wire, items, refusal, as_parts)
        kept, dropped = reads_the_same(wire, body)
        reply = reply_from_body(wire, kept)
        assert len(reply.calls) <= 3 and reply.calls_not_read == 0
        assert len(reply.text) <= text_bound and reply.text_not_read <= 1    # one character past the cut, at most
        assert set(dropped) <= {"calls", "characters"} and all(n > 0 for n in dropped.values())


def test_a_cut_on_the_separator_keeps_the_separator():
    # the whole text is "aaaa\nbb" read to 5 characters: "aaaa\n"; the kept body must read the same
    with bounds(3, 5):
        body = {"content": [{"type": "text", "text": "aaaa"}, {"type": "text", "text": "bb"}]}
        kept, dropped = reads_the_same("anthropic", body)
        assert [b["text"] for b in kept["content"]] == ["aaaa", "b"]
        assert reply_from_body("anthropic", kept).text == "aaaa\n" and dropped == {"characters": 1}


def test_a_refusal_after_a_long_content_is_dropped_with_its_separator():
    body = {"choices": [{"message": {"content": "c" * (MAX_TEXT + 5), "refusal": "no"}, "finish_reason": "stop"}]}
    kept, dropped = reads_the_same("openai", body)
    assert "refusal" not in kept["choices"][0]["message"] and dropped == {"characters": 8}


# ---- malformed bodies: kept as they are, never a crash ------------------------------------------

JUNK = [None, [], "x" * 100_000, 7, {"choices": "x"}, {"choices": []}, {"choices": [None]},
        {"choices": [{"message": "m"}]},
        {"choices": [{"message": {"tool_calls": "c" * 100_000, "content": {"text": "t"}}}]},
        {"choices": [{"message": {"tool_calls": {"0": {}}, "content": 5}}]},
        {"content": "x"}, {"content": [None, 3, "s", {"type": "text", "text": 7}]},
        {"output": {"type": "function_call"}}, {"output": [{"type": "message", "content": "text"}]},
        {"candidates": {}}, {"candidates": [{"content": {"parts": "p"}}]},
        {"candidates": [{"content": [], "finishReason": ["STOP"]}]},
        {"candidates": [{"content": {"parts": [None, {"functionCall": "f"}]}, "finishReason": {}}]}]


@pytest.mark.parametrize("wire", WIRES)
@pytest.mark.parametrize("body", JUNK, ids=range(len(JUNK)))
def test_a_malformed_body_is_kept_as_it_is(wire, body):
    assert trim_body(wire, body) == (body, {})


def test_calls_in_a_blocked_or_malformed_gemini_reply_are_bounded_too():
    calls = [{"functionCall": {"name": "f", "args": {}}}] * (MAX_CALLS + 10)
    for finish in ("SAFETY", "MALFORMED_FUNCTION_CALL", "UNEXPECTED_TOOL_CALL"):
        body = {"candidates": [{"content": {"parts": [{"text": "t" * (MAX_TEXT + 1)}] + calls}, "finishReason": finish}]}
        kept, dropped = trim_body("gemini", body)
        assert dropped == {"calls": 10}                     # the text is not read there, so not cut
        assert counted(reply_from_body("gemini", kept), dropped) == reply_from_body("gemini", body)
    assert reply_from_body("gemini", body).calls_not_read == 10     # UNEXPECTED_TOOL_CALL read up to the bound


@pytest.mark.parametrize("dropped", [None, "x", [], {}, {"calls": -1}, {"calls": True}, {"calls": "5"},
                                     {"characters": 1.5}, {"calls": 0, "characters": 0}])
def test_junk_counts_are_ignored(dropped):
    reply = reply_from_body("openai", chat_body(1))
    assert counted(reply, dropped) is reply


def test_counts_on_an_unreadable_reply_change_nothing():
    # an unreadable reply reads no calls and no text: its reason is that, not a count
    for unreadable in (reply_from_body("openai", {"choices": []}),
                       reply_from_body("openai", {"choices": [{"message": {}, "finish_reason": "content_filter"}]})):
        assert unreadable.malformed or unreadable.blocked
        assert counted(unreadable, {"calls": 5, "characters": 9}) is unreadable


# ---- turn 2 echoes what was kept, and answers every call of it --------------------------------

@pytest.mark.parametrize("wire", WIRES)
def test_turn_two_echoes_the_kept_calls_and_answers_each(bundle, wire):
    case = next(c for c in bundle.cases if c.variants)
    offered = [bundle.tools[name] for name in case.tools]
    kept, _ = trim_body(wire, body_in(wire, 5_000, "z" * (2 * MAX_TEXT)))      # the real shapes, within 5 MB
    for variant in (None, *(v.id for v in case.variants)):          # turn 2, then each variant's
        request = request_body(wire, case, offered, model="m", first=kept, mocks=case_mocks(case, variant))
        echoed, answered = echoed_and_answered(wire, request)
        assert len(echoed) == len(answered) == MAX_CALLS
        assert echoed == answered
        # what the real API refuses (tests/fakeprovider.py), judged against the body it sent back
        problem = {"openai": lambda: chat_turn_problem(kept, request),
                   "anthropic": lambda: anthropic_turn_problem(kept, request),
                   "openai-responses": lambda: responses_turn_problem(request),
                   "gemini": lambda: None if request["contents"][1] == kept["candidates"][0]["content"]
                   else "content not echoed exactly"}[wire]()
        assert problem is None
        assert len(json.dumps(request)) < 200_000
