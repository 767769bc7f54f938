"""The names of the page's downloads (reports/file_names.py): a run's name, model and date, and
nothing a file could smuggle into a path (separators, dot-dot, controls, bidi, a huge label)."""
from __future__ import annotations

import re

import pytest

from toolproof.reports import file_names
from toolproof.reports.file_names import MAX_PART, board_file_name, comparison_file_name, part, run_file_name

LIVE = {"kind": "live", "label": "", "provider": "openai", "model": "gpt-4o", "created": "2026-12-06T07:01:02Z"}
SAFE = re.compile(r"^toolproof(-[^\W_][\w.]*[^\W_]|-[^\W_])+\.(json|md|html)$")


@pytest.mark.parametrize("doc, name, ext, expected", [
    (LIVE, "", "json", "toolproof-openai-gpt-4o-2026-12-06.json"),
    ({**LIVE, "label": "Nightly run"}, "", "html", "toolproof-Nightly-run-gpt-4o-2026-12-06.html"),
    # a kept run renamed in the page: the name the user gave wins over the file's label
    ({**LIVE, "label": "old"}, "My  run", "md", "toolproof-My-run-gpt-4o-2026-12-06.md"),
    # a label that is the model's own name is not written twice
    ({**LIVE, "label": "GPT-4o"}, "", "json", "toolproof-GPT-4o-2026-12-06.json"),
    ({**LIVE, "model": "gpt-4.1", "created": ""}, "", "json", "toolproof-openai-gpt-4.1.json"),
    ({**LIVE, "created": "yesterday"}, "", "json", "toolproof-openai-gpt-4o.json"),
    ({"kind": "fixture", "label": "FIXTURE: illustrative", "model": "fixture"}, "", "json", "toolproof-fixtures.json"),
    ({}, "", "json", "toolproof-run.json"),
    (None, "", "json", "toolproof-run.json"),
    ({"label": 7, "model": ["x"], "created": None}, "", "json", "toolproof-run.json"),
])
def test_a_run_is_named_by_its_name_model_and_date(doc, name, ext, expected):
    assert run_file_name(doc, ext, name=name) == expected


@pytest.mark.parametrize("hostile", [
    "../../etc/passwd", "..\\..\\windows\\system32", "/abs/path", "a\x00b\x1b[31mc", "\u202eevil.exe",
    "<script>alert(1)</script>", "CON", " . . ", "....", "-rf", "x" * 100_000, "a/../../b", "\ud800", "name\nnext",
], ids=range(14))
def test_a_hostile_label_or_model_stays_one_plain_name(hostile):
    for doc in ({**LIVE, "label": hostile}, {**LIVE, "model": hostile, "provider": hostile}):
        name = run_file_name(doc, "html")
        assert SAFE.match(name), name
        assert ".." not in name and "/" not in name and "\\" not in name
        assert len(name) <= len("toolproof-") + 3 * (MAX_PART + 1) + len(".html")


def test_a_part_keeps_letters_of_any_script_and_drops_the_rest():
    assert part("modèle 模型 v2") == "modèle-模型-v2"
    assert part("e\u0301") == "é"                     # one form (NFC) for the same letters
    assert part("  --x--  ") == "x" and part(None) == ""
    assert part("a\u200bb") == "a-b"                  # an invisible character is not kept


def test_a_comparison_names_both_runs():
    a = {**LIVE, "label": "before"}
    b = {**LIVE, "model": "gpt-5", "created": "2026-12-07T00:00:00Z"}
    assert comparison_file_name(a, b, "html") == \
        "toolproof-compare-before-gpt-4o-2026-12-06-vs-openai-gpt-5-2026-12-07.html"
    assert comparison_file_name({}, {"x": 1}, "json") == "toolproof-compare-A-vs-B.json"


def test_a_board_is_named_by_its_size_and_newest_run():
    runs = [{"created": "2026-12-01T00:00:00Z"}, {"created": "2026-12-05T09:00:00Z"}, {"created": ""}]
    assert board_file_name({"runs": runs}, "md") == "toolproof-board-3-runs-2026-12-05.md"
    assert board_file_name({"runs": runs[:1]}, "json") == "toolproof-board-1-run-2026-12-01.json"
    assert board_file_name({"runs": "junk"}, "json") == "toolproof-board-0-runs.json"
    # a run listed apart (no score, not ranked) is on the board too, and may be the newest
    assert board_file_name({"runs": runs[:1], "unranked": [{"created": "2026-12-09"}, "junk"]}, "json") == \
        "toolproof-board-2-runs-2026-12-09.json"
    assert board_file_name({"runs": runs[:1], "unranked": {"x": 1}}, "json") == "toolproof-board-1-run-2026-12-01.json"
    assert board_file_name(None, "json") == "toolproof-board-0-runs.json"


def test_every_name_fits_in_200_utf8_bytes_cut_on_a_character():
    """Two runs with 40-character CJK labels and models named 289 bytes before the bound."""
    wide = {"label": "模" * 60, "model": "型" * 60, "created": "2026-12-06T00:00:00Z"}
    names = [file_names.comparison_file_name(wide, wide, "html"),
             file_names.run_file_name(wide, "json"),
             file_names.run_file_name({"label": "é" * 300, "model": "x"}, "md")]
    for name in names:
        assert len(name.encode("utf-8")) <= file_names.MAX_BYTES
        name.encode("utf-8").decode("utf-8")            # no half character left at the cut
        assert name.endswith((".html", ".json", ".md")) and not name.split(".")[0].endswith("-")
    assert names[0].startswith("toolproof-compare-模模")
