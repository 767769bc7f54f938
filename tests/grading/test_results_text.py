"""The results file as text (grading/results_text.py): the pieces `run --out` appends make the
whole text, the text is one JSON document, a file cut short anywhere in its last write reads back
its whole lines, and a document over the reading limit is fitted under it."""
from __future__ import annotations

import json

import pytest

from toolproof.grading.results_refs import compact, expand
from toolproof.grading.results_text import CUT_SHORT, ResultsText, cut_short_note, fitted, recover, results_text
from toolproof.limits import MAX_FILE_BYTES, ReadError, read_json

TOOLS = [{"name": f"tool_{i}", "description": "é\n\"\u2028 " * 20} for i in range(4)]


def transcript(i: int, text: str = "answer") -> dict:
    body = {"model": "m", "tools": TOOLS, "messages": [{"role": "user", "content": f"case {i // 3}"}]}
    return {"case_id": f"c{i // 3}", "repeat": i % 3, "turns": [
        {"request": {"url": "u", "body": body}, "response": {"text": text, "n": i}, "elapsed_ms": 1.5}]}


def document(n: int, **tail) -> dict:
    return {"format": "toolproof.transcripts", "version": 1, "kind": "live", "provider": "openai", "model": "m",
            "created": "2026-12-06T00:00:00+00:00", "requests_used": n, "state": "running", "error": "",
            "settings": {"repeats": 3}, "transcripts": [transcript(i) for i in range(n)], **tail}


def test_the_pieces_make_the_whole_text_and_it_is_one_json_document():
    doc = document(7, not_started=[{"case_id": "x", "repeat": 0, "reason": "r"}])
    pieces = ResultsText()
    text = pieces.head(doc) + "".join(pieces.item(t) for t in doc["transcripts"]) + pieces.close(doc)
    assert text == results_text(doc)
    back = json.loads(text)
    assert back["version"] == 2 and expand(back) == {**doc, "version": 2}
    lines = text.split("\n")
    assert lines[0].endswith('"transcripts":[') and "created" not in lines[0]
    assert len(lines) == 1 + 7 + 2 and lines[-1] == ""          # head, one line each, the tail
    assert lines[-2].startswith('],"created":') and lines[-2].endswith('"not_started":[{"case_id":"x","repeat":0,"reason":"r"}]}')
    assert "\u2028" in text              # written as is: a line is split only at \n, which JSON escapes


@pytest.mark.parametrize("n", [0, 1])
def test_an_empty_or_short_file_is_json_too(n):
    assert expand(json.loads(results_text(document(n)))) == {**document(n), "version": 2}
    assert json.loads(results_text({"transcripts": []})) == {"version": 2, "transcripts": []}


def test_a_read_file_is_written_again_with_fresh_references():
    text = results_text(document(6))
    again = results_text(json.loads(text))          # as the page exports a kept run of version 2
    assert again == text


def whole_items(text: str) -> int:
    """How many transcript lines of `text` are whole (each ends where the next separator starts)."""
    return sum(1 for line in text.split("\n")[1:] if line.rstrip(",").endswith("}") and line.startswith("{")
               and _is_object(line.rstrip(",")))


def _is_object(line: str) -> bool:
    try:
        return isinstance(json.loads(line), dict)
    except ValueError:
        return False


def test_a_file_cut_at_any_byte_of_its_last_writes_reads_back_its_whole_lines():
    # The writer cuts the file back to its last line, then writes the next line and the tail: a
    # kill leaves the final text cut anywhere after the first line (the first line and an empty
    # list are written whole at once). Every such cut must read back.
    doc = document(5)
    text = results_text(doc)
    data = text.encode("utf-8")
    head = len(text.split("\n")[0].encode("utf-8"))
    for cut in range(head + 1, len(data)):
        cut_text = data[:cut].decode("utf-8", "ignore")
        try:
            back = read_json(cut_text, max_bytes=MAX_FILE_BYTES)
        except ReadError:
            found = recover(cut_text)
            assert found is not None, cut
            back = read_json(found[0], max_bytes=MAX_FILE_BYTES)
            assert back["state"] == CUT_SHORT and len(back["transcripts"]) == found[1]
        assert len(back["transcripts"]) == whole_items(cut_text)
        assert expand(back)["transcripts"] == doc["transcripts"][:len(back["transcripts"])]


def test_only_this_layout_cut_in_its_last_write_is_recovered():
    text = results_text(document(5))
    lines = text.split("\n")
    assert recover(text[:-30]) is not None
    assert recover(json.dumps(document(5))[:-30]) is None                  # another layout (version 1)
    assert recover(text.replace("{", "[", 1)) is None
    assert recover(lines[0][:-3] + "\n" + "\n".join(lines[1:])[:-30]) is None      # a first line that is not ours
    broken = "\n".join(lines[:2] + ["{not json},"] + lines[3:])[:-30]
    assert recover(broken) is None                                         # a bad line before the last write
    assert recover("\n".join(lines[:5] + ["{"])) == ("\n".join(lines[:5]).rstrip(",") + '\n],"state":"cut short"}\n', 4)


def test_fitted_leaves_out_the_last_transcripts_and_lists_them():
    doc = {**document(30), "not_started": [{"case_id": "z", "repeat": 0, "reason": "cap"}]}
    size = len(results_text(doc).encode("utf-8"))
    assert fitted(doc, size) == (results_text(doc), doc, 0)
    text, out, left = fitted(doc, size - 2000)
    assert left > 0 and len(out["transcripts"]) == 30 - left
    assert text == results_text(out) and len(text.encode("utf-8")) <= size - 2000
    assert out["transcripts"] == doc["transcripts"][:30 - left]
    assert out["state"] == "error" and "reading limit" in out["error"]
    assert out["not_started"][0]["reason"] == "cap"
    assert [(e["case_id"], e["repeat"]) for e in out["not_started"][1:]] == \
        [(t["case_id"], t["repeat"]) for t in doc["transcripts"][30 - left:]]
    assert out["not_started"][1]["reason"].startswith("left out of the results file")
    text, nothing, left = fitted(doc, 10)
    assert nothing["transcripts"] == [] and left == 30 and json.loads(text)["transcripts"] == []


def test_a_stopped_run_keeps_its_own_error_when_fitted():
    doc = {**document(10), "state": "error", "error": "HTTP 401, unauthorized"}
    _, out, left = fitted(doc, len(results_text(doc).encode("utf-8")) - 100)
    assert left and (out["state"], out["error"]) == ("error", "HTTP 401, unauthorized")


def test_the_note_a_recovered_file_gets():
    doc = json.loads(recover(results_text(document(4))[:-40])[0])
    assert cut_short_note(doc) == ("this results file was cut short while the run wrote it (killed, or the disk "
                                   "full): 4 whole transcripts read; the run's state, request count and anything "
                                   "later are lost")
    assert cut_short_note(document(4)) is None and cut_short_note([]) is None
    assert compact(doc["state"]) == '"cut short"'
