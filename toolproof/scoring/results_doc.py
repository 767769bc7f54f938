"""The one door for a results document: what kind of document was opened, which verb refuses it
and with what line, the scorecard a page export carries, and the document graded into a card.

The documents (docs/formats.md):
- a results file (`run --out`, the fixtures): `"format": "toolproof.transcripts"`;
- the page's JSON export of a live run: a results file plus the card it drew under `scorecard`;
- a scorecard (`grade --format json`): the figures and verdicts without transcripts, told by
  having no `format` and a `cases` key (so a scorecard with a `transcripts` key is still one);
- anything else: unknown, with the reason in one line.
A results file graded against the committed suite may predate some of its errata: `with_errata`
puts those on its card.
Only the top level is looked at (never recursed into), so a deep or huge document is told apart
in time linear in its cases at most. Every caller asks here: `compare`, `board` and the page's
Compare, Leaderboard and kept runs. `grade --transcripts` has no door line of its own: its file goes
straight to the transcripts schema, whose line ("at $: 'format' is a required property") it keeps.

Pure: no I/O. Must not grade differently from `grade`: a results document is graded by the same
`grade_transcripts`/`grade_sweep` the terminal uses, and an embedded scorecard is never trusted.
"""
from __future__ import annotations

from typing import Any, NamedTuple

from toolproof.errors import ToolProofError, clip
from toolproof.grading.results_text import cut_short_note
from toolproof.grading.transcripts import parse_transcripts
from toolproof.safe_text import without_hidden
from .evaluate import card_of, finish_sweep, grade_sweep, grade_transcripts, source_of
from .sweep import levels_in

RESULTS, EXPORT, SCORECARD, UNKNOWN = "results", "export", "scorecard", "unknown"
FORMAT = "toolproof.transcripts"
# The verbs that need the transcripts, as their refusal names them.
NEEDS = {"compare": "compare", "board": "the board"}


class DocKind(NamedTuple):
    """A parsed document's kind (RESULTS, EXPORT, SCORECARD or UNKNOWN) and why, in one line."""
    kind: str
    why: str


def kind_of(doc: Any) -> DocKind:
    """The kind of a parsed JSON document, from its top level only."""
    if not isinstance(doc, dict):
        return DocKind(UNKNOWN, f"the JSON is {_json_type(doc)}, not an object")
    if "format" in doc:
        if doc["format"] != FORMAT:
            return DocKind(UNKNOWN, f"its format is {_short(doc['format'])}, expected '{FORMAT}'")
        if isinstance(doc.get("scorecard"), dict):
            return DocKind(EXPORT, "a results file with the scorecard the page drew (the page's Export JSON)")
        return DocKind(RESULTS, f"a results file (\"format\": \"{FORMAT}\")")
    if "cases" in doc:
        return DocKind(SCORECARD, "no format and a cases key: a scorecard (grade --format json)")
    return DocKind(UNKNOWN, f"expected a results file (\"format\": \"{FORMAT}\") or a scorecard (grade --format json)")


def scorecard_refusal(verb: str) -> str:
    """The line `verb` ("compare" or "board") refuses a scorecard with: it needs the transcripts."""
    return (f"this is a scorecard, not a results file: {NEEDS[verb]} needs the transcripts "
            "(a results file, or the page's JSON export of a live run)")


def refuse_scorecard(doc: Any, verb: str, source: str) -> None:
    """Refuse a scorecard where `verb` needs transcripts; any other document goes on to the
    transcripts schema, whose line names what is wrong with it."""
    if kind_of(doc).kind == SCORECARD:
        raise ToolProofError(scorecard_refusal(verb), source=source)


def kept_kind(doc: Any, source: str) -> str:
    """RESULTS for a document the page can keep and grade again (a results file or an export),
    SCORECARD for a scorecard whose cases the page can list; else a ToolProofError naming `source`
    and what the file is not."""
    found = kind_of(doc)
    if found.kind == UNKNOWN:
        raise ToolProofError(f"not a results file: {found.why}", source=source)
    if found.kind == SCORECARD:
        problem = scorecard_problem(doc)
        if problem:
            raise ToolProofError(f"not a scorecard: {problem}", source=source)
        return SCORECARD
    return RESULTS


def scorecard_problem(doc: dict) -> str | None:
    """What a scorecard lacks for its cases to be listed (each an id and a verdict), or None."""
    cases = doc.get("cases")
    if not isinstance(cases, list):
        return "$.cases is not an array"
    if not isinstance(doc.get("source"), dict):
        return "$.source is not an object"
    if "score" not in doc:
        return "$.score is missing"
    for index, case in enumerate(cases):
        if not (isinstance(case, dict) and isinstance(case.get("id"), str) and isinstance(case.get("verdict"), str)):
            return f"$.cases[{index}] needs an id and a verdict"
    return None


def embedded_card(doc: Any) -> dict | None:
    """The scorecard a page export carries (informative only: it is graded again), else None."""
    return doc["scorecard"] if kind_of(doc).kind == EXPORT else None


def evidence(doc: dict) -> dict:
    """The document without an export's embedded scorecard: the part that is graded and kept."""
    return {k: v for k, v in doc.items() if k != "scorecard"} if embedded_card(doc) is not None else doc


class Regraded(NamedTuple):
    """A results document graded again, as the page draws it: every repeat, a sweep's levels."""
    results: Any            # evaluate.Graded
    source: dict
    by_case: dict           # transcripts by case id (the case detail shows them)
    sweep: Any              # evaluate.SweepLevels, or None
    notes: list
    scenarios: dict | None = None    # scenario id -> its ScenarioTranscripts (the scenario detail shows them)


def regraded(doc: dict, cases: list, tools: dict, schema: dict, source: str, *,
             worlds: dict | None = None) -> Regraded:
    """A results document graded the way the terminal grades it (`grade --transcripts`; its
    scenarios against `worlds`), or a ToolProofError naming `source` (a case the suite does not
    have, a scenario of a world not given, a malformed transcript)."""
    transcripts = parse_transcripts(doc, schema, {c.id for c in cases}, source)
    levels = levels_in(transcripts)
    cut = [note] if (note := cut_short_note(transcripts.raw)) else []
    if levels:
        sweep = grade_sweep(cases, tools, transcripts, levels)
        return Regraded(sweep.main_graded, source_of(transcripts), sweep.levels[sweep.main][1].transcripts,
                        sweep, cut + ([sweep.note] if sweep.note else []))
    return Regraded(grade_transcripts(cases, tools, transcripts, worlds=worlds), source_of(transcripts),
                    transcripts.transcripts, None, cut, transcripts.scenarios)


def card_of_results(doc: dict, cases: list, tools: dict, schema: dict, source: str, *,
                    worlds: dict | None = None) -> dict:
    """The scorecard of a results file or export (the kept runs' row reads it): graded again, as
    the terminal grades it, its embedded card ignored. (A scorecard document needs no grading:
    `kept_kind` tells the caller it is one, and it is shown as it is.)"""
    graded = regraded(doc, cases, tools, schema, source, worlds=worlds)
    card = card_of(graded.results, source=graded.source, intervals_now=False, notes=graded.notes)
    # a sweep's card as the page draws it: coverage over every level, and the score's absence
    # decided on it (the main level alone said "9 of 9 graded" and a score the card withheld)
    return card if graded.sweep is None else finish_sweep(card, graded.sweep, None, intervals_now=False)


def with_errata(card: dict, entries: list) -> dict:
    """The card with `errata` last: the entries (suite/errata.py `applying`) for the results file
    it grades, each {case, date, changed, why}; the card itself when none apply. The terminal's
    `grade` and the page's kept runs add them so, so their JSON stays the same bytes."""
    if not entries:
        return card
    return {**card, "errata": [{"case": e.case, "date": e.date, "changed": e.changed, "why": e.why}
                               for e in entries]}


def _json_type(value: Any) -> str:
    return {list: "an array", str: "a string", bool: "a boolean", type(None): "null"}.get(type(value), "a number")


def _short(value: Any) -> str:
    text = without_hidden(str(value))
    return repr(clip(text, 60))
