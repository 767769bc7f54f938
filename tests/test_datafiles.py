"""read_json refuses every unreadable file with one line naming the path and the reason."""
from __future__ import annotations

import os

import pytest

from toolproof.datafiles import format_schema, json_from_text, read_json, refuse_larger
from toolproof.errors import ToolProofError


def refusal(path) -> str:
    with pytest.raises(ToolProofError) as exc:
        read_json(path)
    return exc.value.line()


def test_reads_utf8_json(tmp_path):
    path = tmp_path / "ok.json"
    path.write_text('{"city": "Zürich", "n": [1, 2.5]}', encoding="utf-8")
    assert read_json(path) == {"city": "Zürich", "n": [1, 2.5]}
    assert read_json(str(path)) == {"city": "Zürich", "n": [1, 2.5]}    # str paths too (the CLI passes them)


def test_missing_file(tmp_path):
    assert refusal(tmp_path / "missing.json") == f"{tmp_path / 'missing.json'}: no such file"


@pytest.mark.parametrize("text, reason", [
    ("", "not valid JSON: Expecting value (line 1, column 1)"),
    ("{'a': 1}", "not valid JSON: Expecting property name enclosed in double quotes (line 1, column 2)"),
    ('{"a": 1,\n "b": }', "not valid JSON: Expecting value (line 2, column 7)"),
    ('{"a": 1} {"b": 2}', "not valid JSON: Extra data (line 1, column 10)"),
    # an editor's BOM: the decoder's own hint says how to fix it
    ("\ufeff{}", "not valid JSON: Unexpected UTF-8 BOM (decode using utf-8-sig) (line 1, column 1)"),
])
def test_invalid_json(tmp_path, text, reason):
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    assert refusal(path) == f"{path}: {reason}"


def test_a_directory(tmp_path):
    assert refusal(tmp_path) == f"{tmp_path}: not a regular file (a directory)"


# Hostile files: each is refused at once with one line (no hang on a FIFO, no 50 MB read).
def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path):
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    assert refusal(fifo) == f"{fifo}: not a regular file (a FIFO)"


def test_a_device_is_refused():
    assert refusal("/dev/zero") == "/dev/zero: not a regular file (a device)"


def test_a_file_over_the_size_bound_is_refused_before_reading(tmp_path):
    path = tmp_path / "huge.json"
    with open(path, "wb") as out:          # sparse: 50 MB on paper, nothing on disk
        out.truncate(50 * 1000 * 1000)
    assert refusal(path) == f"{path}: file is 50.0 MB, over the 20 MB limit"


@pytest.mark.parametrize("text, reason", [
    ("[" * 10_000 + "]" * 10_000, "file nested deeper than 64 levels"),
    ('{"a": ' + "9" * 5000 + "}", "integer with more than 300 digits"),
    ('{"a": ' + "9" * 309 + "}", "integer with more than 300 digits"),
    ('{"a": NaN}', "NaN is not JSON"),
    ('{"a": [-Infinity]}', "-Infinity is not JSON"),
    ('{"a": 1e999}', "number 1e999 is out of range"),
    ('{"a": "\\ud800"}', "string with a lone surrogate (not Unicode text)"),
])
def test_limits_refuse_a_hostile_file(tmp_path, text, reason):
    path = tmp_path / "hostile.json"
    path.write_text(text, encoding="utf-8")
    assert refusal(path) == f"{path}: {reason}"


def test_the_depth_limit_is_inclusive(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("[" * 64 + "]" * 64, encoding="utf-8")
    value = read_json(path)
    for _ in range(63):
        value = value[0]
    assert value == []


def test_non_utf8_bytes(tmp_path):
    # a file saved as Latin-1 or UTF-16 is refused, not guessed at
    path = tmp_path / "latin1.json"
    path.write_bytes('{"city": "Zürich"}'.encode("latin-1"))
    assert refusal(path) == f"{path}: not UTF-8 text (byte 0xFC at position 11)"


@pytest.mark.parametrize("name", ["tools", "suite", "transcripts", "scorecard"])
def test_format_schemas_are_readable(name):
    schema = format_schema(name)
    assert schema["$id"] == f"toolproof.{name}.v1"


def test_unknown_format_schema_names_the_path():
    with pytest.raises(ToolProofError) as exc:
        format_schema("nope")
    assert exc.value.line().endswith("nope.schema.json: no such file")


# Text, from a file or chosen in the page (and a tools paste before any importer runs): the one
# file-JSON reader, json_from_text.
@pytest.mark.parametrize("text, line", [
    ('{"tools": [NaN]}', "t.json: NaN is not JSON"),
    ('[{"name": "f", "input_schema": {"minimum": -Infinity}}]', "t.json: -Infinity is not JSON"),
    ('[{"name": "f", "input_schema": {"maximum": 1e999}}]', "t.json: number 1e999 is out of range"),
    ('[{"name": "f", "input_schema": {"maximum": ' + "9" * 5000 + '}}]', "t.json: integer with more than 300 digits"),
    ("[" * 100_000 + "]" * 100_000, "t.json: file nested deeper than 64 levels"),
    ("[" * 70 + "]" * 70, "t.json: file nested deeper than 64 levels"),
    ('{"tools": [', "t.json: not valid JSON: Expecting value (line 1, column 12)"),
    ("", "t.json: not valid JSON: Expecting value (line 1, column 1)"),
])
def test_hostile_text_is_refused(text, line):
    with pytest.raises(ToolProofError) as exc:
        json_from_text(text, "t.json")
    assert exc.value.line() == line


def test_huge_text_is_refused_before_parsing():
    with pytest.raises(ToolProofError) as exc:
        json_from_text(" " * (20_000_000 + 1), "t.json")
    assert exc.value.line() == "t.json: file larger than 20 MB"


def test_a_chosen_file_is_refused_by_its_size_before_its_text_is_read():
    refuse_larger(20_000_000, "big.json")                 # at the bound: taken
    with pytest.raises(ToolProofError) as exc:
        refuse_larger(20_000_001, "big.json")
    assert exc.value.line() == "big.json: file is 20,000,001 bytes, over the 20 MB limit"
    with pytest.raises(ToolProofError) as exc:
        refuse_larger(21_345_678, "big.json")
    assert exc.value.line() == "big.json: file is 21.3 MB, over the 20 MB limit"
