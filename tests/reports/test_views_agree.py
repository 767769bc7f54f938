"""Every view shows the same score, or the same absence of one, and the same counts (issue 38):
`grade --format json` gave 48.76 with 20 of 72 cases graded while text, Markdown and HTML said
"No score". Over real runs with repeats, phrasings, failed requests, caps below and above half of
the plan, sweeps (one cut after its first level) and a run where nothing was graded, each view's
output is read back as a reader reads it (tests/viewsagree.py) and held to the JSON: the score and
its interval as printed, or "No score" with the JSON's `no_score_reason`, the verdict counts and
"N of M graded". The page's card is held to the same in tests/page/test_views_agree_page.py.
"""
from __future__ import annotations

import copy
import json

import pytest

from clirun import cli
from viewsagree import (BUNDLE, Shown, documents, expected, read_html, read_junit, read_markdown, read_text,
                        sweep_cells)
from toolproof.datafiles import format_schema
from toolproof.reports.kept_runs import row_of, row_texts
from toolproof.scoring.results_doc import card_of_results
from toolproof.suite.categories import CATEGORIES

DOCS = documents()


@pytest.fixture(scope="module")
def views(tmp_path_factory) -> dict:
    """{name: (document, card, {view: its output})}: each document graded by the CLI, once per format."""
    out = {}
    for name, doc in DOCS.items():
        folder = tmp_path_factory.mktemp(name)
        path = folder / "results.json"
        path.write_text(json.dumps(doc), encoding="utf-8")
        code, stdout, stderr = cli("grade", "--transcripts", str(path), "--format", "json")
        assert code == 0, stderr
        card = json.loads(stdout)
        code, text, stderr = cli("grade", "--transcripts", str(path), "--junit", str(folder / "j.xml"),
                                 "--markdown", str(folder / "r.md"), "--html", str(folder / "r.html"))
        assert code == 0, stderr
        out[name] = (doc, card, {"text": text, "markdown": (folder / "r.md").read_text(encoding="utf-8"),
                                 "html": (folder / "r.html").read_text(encoding="utf-8"),
                                 "junit": (folder / "j.xml").read_text(encoding="utf-8")})
    return out


READERS = {"text": read_text, "markdown": read_markdown, "html": read_html, "junit": read_junit}


@pytest.mark.parametrize("name", list(DOCS))
@pytest.mark.parametrize("view", list(READERS))
def test_every_view_shows_the_jsons_score_or_its_absence_and_its_counts(views, name, view):
    doc, card, outputs = views[name]
    want = expected(card)
    got = READERS[view](outputs[view])
    assert got.score == want.score and got.interval == want.interval, (view, got)
    assert got.reason == want.reason, (view, got.reason, want.reason)
    assert got.verdicts == want.verdicts, (view, got.verdicts)
    if view != "junit" or want.score is not None:          # with no score, the reason says it
        assert got.graded == want.graded, (view, got.graded, want.graded)


def test_the_runs_cover_every_shape_the_rule_meets(views):
    """The documents do what their names say: with and without a score, each for a reason."""
    cards = {name: card for name, (_, card, _) in views.items()}
    assert {n for n, c in cards.items() if c["score"] is None} == {"cap-below-half", "sweep-cut", "all-errors"}
    assert cards["all-errors"]["no_score_reason"].startswith("nothing was graded")
    assert cards["cap-above-half"]["coverage"]["not_started"] > 0
    assert cards["repeats-errors"]["counts"]["error"] == 1 and cards["repeats-errors"]["repeats"] == 3
    assert "robustness" in cards["phrasings-repeats"]
    # the cut sweep: its level 0 is whole, but the sweep is a third done: no score, level 0's row too
    assert cards["sweep-cut"]["sweep"]["levels"][0]["cases"] == cards["sweep-cut"]["sweep"]["levels"][0]["cases_planned"]


@pytest.mark.parametrize("name", list(DOCS))
def test_a_card_with_no_score_holds_no_scored_number_a_script_could_take_for_one(views, name):
    _, card, _ = views[name]
    if card["score"] is not None:
        assert card["no_score_reason"] is None and card["intervals"]["score"] is not None
        return
    assert card["intervals"]["score"] is None and card["intervals"]["categories"] == {}
    assert card["strict"]["score"] is None and card["lenient"]["score"] is None
    assert all(row["score"] is None for row in card["categories"].values())
    assert all(v is None for part in ("pass_hat_k", "pass_at_k") for v in card["reliability"][part].values())
    for level in (card.get("sweep") or {}).get("levels", []):
        assert level["score"] is None is level["low"] and level["no_score_reason"]


@pytest.mark.parametrize("name", ["sweep", "sweep-cut"])
def test_the_sweep_table_shows_each_levels_score_and_the_main_level_the_headlines(views, name):
    _, card, outputs = views[name]
    cells = sweep_cells(outputs["text"])
    for level in card["sweep"]["levels"]:
        assert cells[level["pad"]] == ("n/a" if level["score"] is None else f"{level['score']:.1f}")
    main = card["sweep"]["levels"][0]                      # level 0: the level the headline scores
    assert main["score"] == card["score"] and main["no_score_reason"] == card["no_score_reason"]


@pytest.mark.parametrize("name", list(DOCS))
def test_the_runs_list_row_says_the_cards_score_or_no_score(views, name):
    doc, card, _ = views[name]
    regraded = card_of_results(doc, BUNDLE.cases, BUNDLE.tools, format_schema("transcripts"), name)
    assert (regraded["score"], regraded["no_score_reason"]) == (card["score"], card["no_score_reason"])
    for kept in (regraded, card):                           # a results file, and the scorecard file itself
        row = row_texts(row_of(doc if kept is regraded else card, kept, run_id="r", kept="", size=1))
        assert row["score"] == ("no score" if card["score"] is None else f"{card['score']:.1f}")
        cov = card["coverage"]
        assert row["graded"] == f"{cov['graded']} of {cov['planned']} graded"


def test_a_scorecard_kept_from_before_the_rule_is_listed_with_no_score():
    """A scorecard exported before issue 38 kept its number below half of the plan: the Runs list
    holds it to the rule (the same function), so it does not show the number either."""
    old = copy.deepcopy(json.loads(cli("grade", "--format", "json")[1]))
    old.pop("no_score_reason")
    old["coverage"] = {"planned": 72 * 10, "graded": 10, "error": 0, "not_started": 710}
    assert old["score"] is not None
    assert row_texts(row_of(old, old, run_id="r", kept="", size=1))["score"] == "no score"


def test_with_every_weight_zero_every_view_says_no_score_and_why():
    zeros = [arg for c in CATEGORIES for arg in ("--weight", f"{c}=0")]
    card = json.loads(cli("grade", "--format", "json", *zeros)[1])
    text = cli("grade", *zeros)[1]
    want = expected(card)
    assert want.reason == "no category with a graded case has a weight above 0"
    assert read_text(text)[:3] == (None, None, want.reason)


def test_a_reader_finds_a_view_that_drops_the_reason():
    """The readers can fail: a text whose headline lost its score line is caught."""
    with pytest.raises(AssertionError):
        read_text("ToolProof scorecard\n3 cases: 1 PASS, 0 PARTIAL, 2 FAIL, 0 ERROR (0 truncated)\nRates")
    assert read_text("x\nScore: 61.90 / 100 strict (95% CI 52–73 over cases); 60.00 lenient\n") == \
        Shown("61.90", ("52", "73"), None, None, None)


@pytest.mark.parametrize("coverage, reason, shown", [
    ({"planned": "72", "graded": -5}, None, "88.5"),          # unreadable counts: the cases it lists (2 of 2)
    ({"planned": 10 ** 30, "graded": 1}, None, "no score"),   # huge plan: below half
    ({"planned": 4, "graded": 3}, {"not": "text"}, "88.5"),   # a reason that is not text, with a score: the score
    (None, "\u202eevil\x00", "88.5"),                          # no coverage: what it lists was the plan
])
def test_a_hand_edited_scorecard_in_runs_is_listed_by_its_fields_without_a_traceback(coverage, reason, shown):
    card = {"toolproof": "0", "source": {}, "score": 88.5, "no_score_reason": reason, "coverage": coverage,
            "cases": [{"id": "a", "verdict": "PASS"}, {"id": "b", "verdict": "FAIL"}]}
    assert row_texts(row_of(card, card, run_id="r", kept="", size=1))["score"] == shown
