"""Results documents of every shape a run can leave, and each view's score (or its absence) and
counts read back from what the view prints: for the cross-view tests of issue 38 ("every view shows
the same score or the same absence of one, and the same counts").

The documents are real runs: the runner against tests/scripted.py's transport (the committed
fixtures replayed), with repeats, phrasings, failed requests, caps that leave the run below or
above half of its plan, tool-count sweeps (one cut after its first level) and a run where every
request failed. The readers parse a view's text the way a person (or a CI script) reads it, with
no help from the card: a regression in any view shows as a disagreement with the JSON.
Shared by tests/reports/test_views_agree.py (JSON, text, Markdown, HTML, JUnit, the sweep table,
the Runs row) and tests/page/test_views_agree_page.py (the page's card, one page load).
"""
from __future__ import annotations

import asyncio
import html
import re
import xml.etree.ElementTree as ET
from typing import NamedTuple

from scripted import Transport
from toolproof.datafiles import load_bundle
from toolproof.running.runner import Run, RunSettings
from toolproof.running.transport import HttpReply
from toolproof.scoring.coverage import plan_unit
from toolproof.suite.model import requests_needed, scoped

BUNDLE = load_bundle()
NOW = {"retry-after": "0"}
CATEGORIES = sorted({c.category for c in BUNDLE.cases})


def _ids(scope: str) -> list[str]:
    return [c.id for c in scoped(BUNDLE.cases, scope)]


def _failing(case_ids: list[str], status: int = 503, times: int = 40) -> dict:
    return {cid: [HttpReply(status, NOW, '{"error": {"message": "no"}}', 1.0)] * times for cid in case_ids}


def run_document(scope: str, cap: int | None = None, script: dict | None = None, **settings) -> dict:
    """A live results document of a run of `scope` against the replayed fixtures."""
    cases = scoped(BUNDLE.cases, scope)
    need = requests_needed(cases, settings.get("phrasings", "base")) * settings.get("repeats", 1) \
        * max(1, len(settings.get("pad_levels", ())))
    run = Run(BUNDLE.cases, BUNDLE.tools,
              RunSettings("openai", "m", "k", "", scope, need + 200 if cap is None else cap, pause_s=0,
                          backoff_s=0.001, **settings), Transport(script))
    asyncio.run(run.run())
    return run.document(created="2026-12-06T10:00:00+00:00")


def documents() -> dict[str, dict]:
    """{name: results document} of every shape the views must agree on."""
    call = _ids("should_call")
    need_call = requests_needed(scoped(BUNDLE.cases, "should_call"))
    return {
        # 3 repeats; one case's every request fails (a case ERROR), another's first one (a repeat ERROR)
        "repeats-errors": run_document("should_call", repeats=3,
                                       script={**_failing([call[-1]]), **_failing([call[1]], times=3)}),
        # every phrasing, twice: conversations are case × phrasing × repeat
        "phrasings-repeats": run_document("result_use", phrasings="all", repeats=2),
        # the cap stops the whole suite after 10 requests: below half, no score
        "cap-below-half": run_document("all", cap=10),
        # the cap leaves a third of the scope out: above half, a score with "N of M graded"
        "cap-above-half": run_document("should_call", cap=need_call * 2 // 3 + 1),
        # a tool-count sweep, two levels, complete
        "sweep": run_document("should_call", pad_levels=(0, 4)),
        # a sweep of three levels cut after its first: level 0 is whole, the sweep is a third done
        "sweep-cut": run_document("should_call", cap=need_call, pad_levels=(0, 4, 8)),
        # every request refused: nothing graded
        "all-errors": run_document("must_ask", script=_failing(_ids("must_ask"), 400)),
    }


# ---------------------------------------------------------------- reading the views

class Shown(NamedTuple):
    """What one view says: the score as printed ("61.90", or None when it says there is none), its
    interval ("52", "73") or None, the reason it gives for no score, and the verdict counts."""
    score: str | None
    interval: tuple | None
    reason: str | None
    verdicts: tuple | None          # (cases, PASS, PARTIAL, FAIL, ERROR)
    graded: tuple | None = None     # (graded, planned, unit) when the view says "N of M … graded"


SCORE = re.compile(r"Score: (\d+\.\d\d) / 100 strict(?: \(95% CI (\d+)–(\d+) over cases\))?")
HEADLINE = re.compile(r"^(\d+\.\d\d)(?: · 95% CI (\d+)–(\d+) over cases)?$")
NO_SCORE = re.compile(r"No score: (.+?)(?:; the graded cases are listed)?$")
VERDICTS = re.compile(r"(\d+) cases?: (\d+) PASS, (\d+) PARTIAL, (\d+) FAIL, (\d+) ERROR")
GRADED = re.compile(r"(\d+) of (\d+) (cases|conversations) graded")


def expected(card: dict) -> Shown:
    """What every view should say, from the JSON's fields."""
    counts, cov = card["counts"], card.get("coverage") or {}
    bounds = (card.get("intervals") or {}).get("score")
    unit = plan_unit(card)
    return Shown(None if card["score"] is None else f"{card['score']:.2f}",
                 (f"{bounds['low']:.0f}", f"{bounds['high']:.0f}") if bounds else None,
                 card.get("no_score_reason"),
                 (counts["cases"], counts["PASS"], counts["PARTIAL"], counts["FAIL"], counts["error"]),
                 None if cov.get("graded") == cov.get("planned") else (cov["graded"], cov["planned"], unit))


def _score_in(lines: list[str]) -> tuple:
    """(score, interval, reason) from the first line that states a score or its absence."""
    for line in lines:
        found = SCORE.search(line)
        if found:
            return found[1], (found[2], found[3]) if found[2] else None, None
        found = NO_SCORE.search(line)
        if found:
            return None, None, found[1]
    raise AssertionError("no line states a score or its absence:\n" + "\n".join(lines[:12]))


def _verdicts(text: str) -> tuple | None:
    found = VERDICTS.search(text)
    return tuple(int(x) for x in found.groups()) if found else None


def _graded(text: str) -> tuple | None:
    found = GRADED.search(text)
    return (int(found[1]), int(found[2]), found[3]) if found else None


def read_text(text: str) -> Shown:
    head = text.split("\nRates")[0]
    return Shown(*_score_in(head.splitlines()), _verdicts(head), _graded(head))


def read_markdown(text: str) -> Shown:
    quoted = [line[2:].replace("\\", "") for line in text.splitlines() if line.startswith("> ")]
    return Shown(*_score_in(quoted), _verdicts("\n".join(quoted)), _graded("\n".join(quoted)))


def read_html(text: str) -> Shown:
    """The HTML report's headline paragraph (its own format, '61.90 · 95% CI 52–73 over cases'),
    checked against the Score line it also prints under it."""
    page = html.unescape(text)
    headline = re.search(r'<p class="headline">(.*?)</p>', page, re.S)[1]
    plain = re.sub(r"<[^>]+>", "\n", page)
    lines = [line.strip() for line in plain.splitlines() if line.strip()]
    found = HEADLINE.match(headline)
    if found:
        shown = Shown(found[1], (found[2], found[3]) if found[2] else None, None, _verdicts(plain), _graded(plain))
    else:
        shown = Shown(None, None, NO_SCORE.match(headline)[1], _verdicts(plain), _graded(plain))
    assert _score_in(lines) == shown[:3], (headline, _score_in(lines))
    return shown


def read_junit(text: str) -> Shown:
    """The root's name (score line and counts) and the testcases of the category suites: every case
    once, FAIL and PARTIAL a <failure>, ERROR an <error>."""
    root = ET.fromstring(text)
    name = root.get("name")
    head, counts = name.rsplit("; ", 1)                 # the counts come last, after the score line
    shown = Shown(*_score_in([head]), _verdicts(counts), _graded(head))
    suites = [s for s in root.findall("testsuite") if s.get("name") in CATEGORIES]
    cases = [c for s in suites for c in s.findall("testcase")]
    failures = sum(c.find("failure") is not None for c in cases)
    errors = sum(c.find("error") is not None for c in cases)
    cases_, passed, partial, failed, error = shown.verdicts
    assert (len(cases), failures, errors) == (cases_, partial + failed, error), name
    return shown


def read_row(texts: dict) -> str:
    """The Runs list's score cell: '61.9', or 'no score'."""
    return texts["score"]


def sweep_cells(text: str) -> dict:
    """{pad: score cell} from the terminal's sweep table."""
    table = text.split("Tool-count sweep")[1].split("\n\n")[0].splitlines()[2:]
    return {int(row.split()[0]): row.split()[1] for row in table if row.strip() and row.split()[0].isdigit()}
