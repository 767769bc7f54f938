"""read_json refuses every unreadable file with one line naming the path and the reason."""
from __future__ import annotations

import pytest

from toolproof.datafiles import format_schema, read_json
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
    assert refusal(tmp_path) == \
        f"{tmp_path}: cannot read file (IsADirectoryError: [Errno 21] Is a directory: '{tmp_path}')"


def test_non_utf8_bytes(tmp_path):
    # a file saved as Latin-1 or UTF-16 is refused, not guessed at
    path = tmp_path / "latin1.json"
    path.write_bytes('{"city": "Zürich"}'.encode("latin-1"))
    assert refusal(path) == (f"{path}: cannot read file (UnicodeDecodeError: 'utf-8' codec can't decode "
                             "byte 0xfc in position 11: invalid start byte)")


@pytest.mark.parametrize("name", ["tools", "suite", "transcripts"])
def test_format_schemas_are_readable(name):
    schema = format_schema(name)
    assert schema["$id"] == f"toolproof.{name}.v1"


def test_unknown_format_schema_names_the_path():
    with pytest.raises(ToolProofError) as exc:
        format_schema("nope")
    assert exc.value.line().endswith("nope.schema.json: no such file")
