"""World files on disk (datafiles.bundled_worlds, load_world_files, read_world_doc): read through
the input bounds, named after their world, {} when there is no worlds folder; every bad file is
one line naming the file (and the JSON path where there is one)."""
from __future__ import annotations

import json
import os

import pytest

from toolproof.datafiles import WORLDS, bundled_worlds, load_world_files
from toolproof.errors import ToolProofError
from worldkit import bank_doc


def write(folder, name, doc) -> str:
    path = folder / name
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc), encoding="utf-8")
    return str(path)


def refusal(paths) -> str:
    with pytest.raises(ToolProofError) as caught:
        load_world_files(paths)
    line = caught.value.line()
    assert "\n" not in line
    return line


def test_the_bundled_worlds_load_and_are_named_after_their_files():
    worlds = bundled_worlds()
    assert sorted(worlds) == sorted(p.stem for p in WORLDS.glob("*.json"))


def test_no_worlds_folder_is_no_worlds(tmp_path):
    assert bundled_worlds(tmp_path / "absent") == {}
    assert bundled_worlds(tmp_path) == {}


def test_a_folder_of_worlds_in_file_name_order(tmp_path):
    other = bank_doc()
    other["id"], other["scenarios"][0]["id"] = "abank", "abank.pay_rent"
    write(tmp_path, "bank.json", bank_doc())
    write(tmp_path, "abank.json", other)
    write(tmp_path, "notes.txt", "not a world")
    assert list(bundled_worlds(tmp_path)) == ["abank", "bank"]


def test_a_file_is_named_after_its_world(tmp_path):
    path = write(tmp_path, "shop.json", bank_doc())
    assert refusal([path]) == f"{path}: at $.id: the world's id is 'bank', so its file is named bank.json"


def test_two_files_of_one_world_are_refused(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first, second = write(tmp_path / "a", "bank.json", bank_doc()), write(tmp_path / "b", "bank.json", bank_doc())
    assert refusal([first, second]) == f"{second}: at $.id: world id 'bank' is also the id of another world file"


def test_a_duplicate_key_is_refused_by_its_place(tmp_path):
    text = json.dumps(bank_doc()).replace('"today": "2026-03-14"', '"today": "2026-03-14", "today": "2026-03-15"')
    path = write(tmp_path, "bank.json", text)
    assert refusal([path]) == f"{path}: at $.today: the key 'today' appears twice in one object (the first value would be lost)"


@pytest.mark.parametrize("content, said", [
    (b"\xff\xfe{}", "not UTF-8 text (byte 0xFF at position 0)"),
    (b'{"a": NaN}', "NaN is not JSON"),
    (b"[" * 100_000, "nested deeper than 64 levels"),
    (b'{"format": "toolproof.world"', "not valid JSON"),
    (b"[]", "at $: expected an object, not a list"),
])
def test_a_bad_file_is_one_line(tmp_path, content, said):
    path = tmp_path / "bank.json"
    path.write_bytes(content)
    line = refusal([path])
    assert line.startswith(f"{path}: ") and said in line


def test_a_huge_file_is_refused_by_its_size_before_it_is_read(tmp_path):
    path = tmp_path / "bank.json"
    with open(path, "wb") as handle:
        handle.truncate(21_000_000)
    assert refusal([path]) == f"{path}: file is 21.0 MB, over the 20 MB limit"


def test_too_many_rows_on_disk_are_refused_by_count(tmp_path):
    # (10^6 rows as a document: tests/worlds/test_load.py; on disk the file's size and the reader's
    # depth count cost seconds first, which benchmarks/world_engine.py prints)
    doc = bank_doc()
    doc["tables"]["transfers"]["rows"] = [{"id": i} for i in range(30_000)]
    path = write(tmp_path, "bank.json", doc)
    assert refusal([path]) == (f"{path}: at $.tables.transfers.rows: the world's tables hold more than 20,000 rows "
                               "(this one 30,000); at most 20,000 in all")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_or_a_folder_is_refused_without_waiting(tmp_path):
    os.mkfifo(tmp_path / "bank.json")
    assert refusal([tmp_path / "bank.json"]) == f"{tmp_path / 'bank.json'}: not a regular file (a FIFO)"
    (tmp_path / "sub.json").mkdir()
    assert "not a regular file (a directory)" in refusal([tmp_path / "sub.json"])


def test_every_reader_words_a_file_that_is_no_json_alike(tmp_path):
    # `suite validate` reads any file first (datafiles.read_json), `run --worlds` and the page read
    # a world file (read_world_doc, world_from_text): one wording, with the line and column
    from toolproof.datafiles import read_json, read_world_doc
    from toolproof.worlds.load import world_from_text
    path = write(tmp_path, "bank.json", "{\n  oops")
    lines = set()
    for read in (read_json, read_world_doc, lambda p: world_from_text(open(p, encoding="utf-8").read(), p)):
        with pytest.raises(ToolProofError) as caught:
            read(path)
        lines.add(caught.value.line())
    assert lines == {f"{path}: not valid JSON: Expecting property name enclosed in double quotes (line 2, column 3)"}
