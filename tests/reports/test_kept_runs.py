"""The kept runs as data (issue 23 item 4): a run's row and what to drop when the space set aside
is full. (An opened file's kind and a run graded again are the door's: tests/scoring/test_results_doc.py.)"""
from __future__ import annotations

import io
import json

from toolproof.cli.main import run as cli
from toolproof.datafiles import bundled_worlds, format_schema, load_bundle
import pytest

from toolproof.reports.kept_runs import (MAX_LABEL_CHARS, assembled, clean_label, drop_notice, kept_line, listed,
                                         part_key, part_text, parts_range, row_of, row_texts, settled_state,
                                         size_text, to_drop)
from toolproof.scoring.results_doc import card_of_results

BUNDLE = load_bundle()
FIXTURES = BUNDLE.documents["transcripts"]


def grade_json() -> dict:
    out, err = io.StringIO(), io.StringIO()
    assert cli(["grade", "--format", "json"], out, err) == 0
    return json.loads(out.getvalue())


def test_a_row_summarises_a_graded_run_and_its_plan():
    card = card_of_results(FIXTURES, BUNDLE.cases, BUNDLE.tools, format_schema("transcripts"), "fixtures.json",
                           worlds=bundled_worlds())
    row = row_of(FIXTURES, card, run_id="r1", kept="2026-12-01T10:00:00Z", size=1234)
    # the fixtures: 72 cases in their base phrasing and 151 other phrasings, one base answer an HTTP 500,
    # and one conversation per bundled scenario
    held = len(FIXTURES["transcripts"])
    assert (row["graded"], row["planned"], row["score"]) == (held - 1, held, card["score"])
    assert row["kind"] == "results" and row["provider"] == "mixed" and row["bytes"] == 1234
    texts = row_texts(row)
    assert texts["graded"] == f"{held - 1} of {held} graded" and texts["score"] == f"{card['score']:.1f}"
    # the same card the terminal prints for the same file
    assert card["score"] == grade_json()["score"]


def test_a_scorecard_file_is_its_own_card():
    card = grade_json()
    row = row_of(card, card, run_id="r2", kept="2026-12-01T10:00:00Z", size=10)
    held = len(FIXTURES["transcripts"])
    assert row["kind"] == "scorecard" and (row["graded"], row["planned"]) == (held - 1, held)
    assert "scorecard only" in row_texts(row)["meta"]


def test_hostile_fields_are_cleaned_and_bounded():
    doc = {"format": "toolproof.transcripts", "label": "a\u202eb\x00c  d\n", "model": "<b>" + "m" * 1000,
           "provider": None}
    card = {"score": float("nan"), "coverage": {"planned": -3, "graded": True}, "cases": "oops"}
    row = row_of(doc, card, run_id="r", kept="k", size=1)
    assert row["label"] == "abc d" and len(row["model"]) == 200 and row["model"].startswith("<b>")
    assert row["score"] is None and (row["graded"], row["planned"]) == (0, 0)
    assert row_texts(row)["score"] == "no score"
    assert len(clean_label("x" * 1000)) == MAX_LABEL_CHARS


def rows(*sizes):
    return [{"id": f"r{i}", "kept": f"2026-12-01T10:00:{i:02d}Z", "bytes": size} for i, size in enumerate(sizes)]


def test_the_oldest_runs_are_dropped_first_to_make_room():
    kept = rows(10, 20, 30)
    assert to_drop(kept, 5, max_bytes=100, max_runs=10) == []
    assert to_drop(kept, 50, max_bytes=100, max_runs=10) == ["r0"]          # 60 + 50 > 100: drop 10
    assert to_drop(kept, 80, max_bytes=100, max_runs=10) == ["r0", "r1", "r2"]
    assert to_drop(kept, 1, max_bytes=100, max_runs=3) == ["r0"]            # the count bound
    assert to_drop([], 1, max_bytes=100, max_runs=3) == []


def test_listed_newest_first_and_the_size_line():
    kept = rows(1_500_000, 2_000_000)
    assert [r["id"] for r in listed(kept)] == ["r1", "r0"]
    assert size_text(kept, 40_000_000) == "2 runs kept · 3.5 MB of 40 MB"
    assert size_text([], 40_000_000) == "0 runs kept · 0.0 MB of 40 MB"


def kept_row(run_id: str, kept: str, *, label: str = "", model: str = "gpt-test", created: str = "",
             size: int = 1_000) -> dict:
    doc = {"format": "toolproof.transcripts", "provider": "openai", "model": model, "created": created}
    return row_of(doc, {"score": 50.0, "cases": []}, run_id=run_id, kept=kept, size=size, label=label)


def test_the_drop_notice_names_each_dropped_run_oldest_first():
    dropped = [kept_row("r2", "2026-12-02T09:00:00Z", model="gpt-b", size=2_500_000),
               kept_row("r1", "2026-12-01T08:00:00Z", label="Baseline", created="2026-11-30T07:15:00Z")]
    notice = drop_notice(dropped, "openai / gpt-new", max_bytes=40_000_000, max_runs=60)
    assert notice.line == ("To keep openai / gpt-new, 2 older runs were dropped from this browser (it keeps at "
                           "most 60 runs and 40 MB). Export a run before opening more if you need it again:")
    # the label, the model and the date of each: the run's own date when the file has one, else when kept
    assert notice.runs == ("Baseline: openai / gpt-test, run 2026-11-30 07:15 UTC, 0.0 MB",
                           "openai / gpt-b, kept 2026-12-02 09:00 UTC, 2.5 MB")
    assert drop_notice([], "x") is None


def test_the_drop_notice_keeps_hostile_names_cleaned_and_bounded():
    row = kept_row("r1", "2026-12-01T08:00:00Z", label="a\u202eb<img src=x>", model="m\x00" + "x" * 500)
    notice = drop_notice([row], "k\u202e" + "y" * 500)
    assert "\u202e" not in notice.line and len(notice.line) < 400
    assert notice.runs[0].startswith("ab<img src=x>: openai / m") and "\x00" not in notice.runs[0]
    assert len(notice.runs[0]) < 400


# ---- a live run kept as it goes (issue 37 item 2) ----------------------------------------------

def kept_as_it_goes(scope="should_call", *, script=None, repeats=2):
    """A run of `scope` (9 cases) with the runner's in-memory transport: its head as the page stores it at
    the start, each finished conversation as on_kept hands it on, and the run itself."""
    import asyncio

    from scripted import Transport
    from toolproof.running.runner import Run, RunSettings

    run = Run(BUNDLE.cases, BUNDLE.tools, RunSettings("openai", "fake-model", "sk-k", "", scope, 1000, pause_s=0,
                                               backoff_s=0.01, repeats=repeats, concurrency=3),
              Transport(script or {}))
    head = {**run.document(created="2026-12-06T07:00:00+00:00"), "state": "running"}
    items = []
    run.on_kept = lambda index, transcript: items.append((index, transcript))
    asyncio.run(run.run())
    return head, items, run


def graded(doc):
    return card_of_results(doc, BUNDLE.cases, BUNDLE.tools, format_schema("transcripts"), "kept")


def test_batches_put_back_together_grade_as_the_whole_results_file():
    head, items, run = kept_as_it_goes()
    # written in whatever batches the page managed, out of plan order
    batches = [part_text(items[i:i + 3]) for i in range(0, len(items), 3)][::-1]
    doc, unreadable = assembled(head, batches)
    whole = run.document(created=head["created"])
    assert unreadable == 0 and doc["transcripts"] == whole["transcripts"]
    card, expected = graded(doc), graded(whole)
    assert (card["score"], card["coverage"], [c["verdict"] for c in card["cases"]]) == \
        (expected["score"], expected["coverage"], [c["verdict"] for c in expected["cases"]])
    assert settled_state(card) == "done"


def test_a_closed_tab_keeps_what_was_answered_as_n_of_m():
    head, items, _ = kept_as_it_goes()
    doc, _ = assembled(head, [part_text(items[:3])])
    card = graded(doc)
    planned = card["coverage"]["planned"]        # the plan: every should_call case, twice
    assert planned == 2 * sum(c.category == "should_call" for c in BUNDLE.cases)
    assert card["coverage"]["graded"] + card["coverage"]["error"] == 3
    assert settled_state(card) == "interrupted"
    row = row_of({**doc, "state": settled_state(card)}, card, run_id="r", kept="2026-12-06T07:01:00Z", size=9)
    assert row_texts(row)["graded"] == f"{card['coverage']['graded']} of {planned} graded"
    assert "interrupted" in row_texts(row)["meta"].split(" · ")
    # 3 of the plan is below half of it: no score in the row, as on the card's headline
    assert card["score"] is None and card["no_score_reason"].endswith("below half of the plan")
    assert row["score"] is None and row_texts(row)["score"] == "no score"


def test_a_run_kept_whole_whose_every_request_failed_settles_as_an_error():
    from toolproof.running.transport import HttpReply

    # statuses that are not retried, none five times (five alike stop the run: runner.SAME_STATUS_STOP)
    ids = [c.id for c in BUNDLE.cases if c.category == "should_call"]
    script = {i: [HttpReply((400, 404, 422)[n % 3], {}, '{"error": {"message": "bad"}}', 5.0)] for n, i in enumerate(ids)}
    head, items, run = kept_as_it_goes(script=script, repeats=1)
    assert len(items) == len(ids) and run.state == "error"
    assert settled_state(graded(assembled(head, [part_text(items)])[0])) == "error"


@pytest.mark.parametrize("bad", ["", "not json", "{}", "[[1]]", '[["1", {}]]', "[[true, {}]]", "[[1, []]]",
                                 "[" * 100_000, '[[1, {"case_id": "x"}], 5]'])
def test_a_mangled_batch_loses_only_its_own_conversations(bad):
    head, items, _ = kept_as_it_goes(repeats=1)
    doc, unreadable = assembled(head, [part_text(items[:2]), bad, part_text(items[2:5])])
    assert unreadable == 1
    assert doc["transcripts"] == [t for _, t in sorted(items[:5], key=lambda item: item[0])]


def test_batch_keys_sort_in_the_order_written_and_lie_in_the_runs_range():
    keys = [part_key("run-17-live", n) for n in (1, 2, 10, 999_999)]
    low, high = parts_range("run-17-live")
    assert keys == sorted(keys) and all(low <= k <= high for k in keys)
    assert not low <= part_key("run-17-live2", 1) <= high     # another run's batches are not its own
    assert not low <= "run-17-live" <= high                    # nor its head


def test_the_line_a_kept_run_ends_with_names_it_as_runs_lists_it():
    row = row_of({"provider": "openai", "model": "gpt-4o"}, {}, run_id="r", kept="2026-12-06T07:00:00Z", size=1)
    assert kept_line(row) == "Kept as “openai / gpt-4o” in Runs."
    named = row_of({"label": "Baseline\u202e A"}, {}, run_id="r", kept="", size=1)
    assert kept_line(named) == "Kept as “Baseline A” in Runs."
