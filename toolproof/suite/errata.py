"""Errata: every change to what a case of the committed suite expects, so that case ids stay
stable and an older results file can be told which of its verdicts rest on changed expectations.

The document (data/errata.json, docs/formats.md "Errata"):

    {"format": "toolproof.errata", "version": 1,
     "baseline": {"date": "2026-12-06", "suite_sha256": "<64 hex>", "cases": {case id: fingerprint}},
     "entries": [{"case": id, "date": "YYYY-MM-DD", "changed": "...", "why": "...",
                  "expect_sha256": fingerprint after the change}]}

A case's fingerprint (`case_fingerprint`) is the sha256 of the canonical JSON (fingerprint.py) of
everything about the case that decides its verdicts: the case without its id and its words for
readers (`title`, `why`, and each phrasing's and variant's `why`/`title`), plus the definitions of
the suite-level concepts it names. So its category, tools offered, system prompt, prompt,
phrasings' prompts (grading reads the user's message), expect, mock results, variants and any key
added later all count; rewording a title or a why does not. A case's recorded fingerprint is its
last entry's `expect_sha256`, or its baseline's when it has no entry; `unrecorded` lists every case
whose fingerprint is not its recorded one (tests/suite/test_errata.py fails on any).

Pure: no I/O. Takes parsed documents; refuses a malformed errata document with a ToolProofError
naming the file, the JSON path and the reason.
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from datetime import date
from typing import Any, Iterator, NamedTuple

from toolproof.errors import ToolProofError, json_path, quoted
from toolproof.safe_text import escape, printable
from .fingerprint import canonical_json, suite_sha256
from .load import check_format

FORMAT = "toolproof.errata"
# Words for the reader, not for the grader: left out of a case's fingerprint, at the case's level
# and in each phrasing and variant.
DESCRIPTIVE = ("title", "why")
ENTRY_FIELDS = ("case", "date", "changed", "why", "expect_sha256")
TEXT_FIELDS = ("changed", "why")
_CASE_ID = re.compile(r"[a-z0-9][a-z0-9_-]*")
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_SHA = re.compile(r"[0-9a-f]{64}")


# -- fingerprints ---------------------------------------------------------------------------------

def _concepts_named(value: Any, found: set) -> set:
    """Every concept name a case's rules use ({"concept": name}), however deep."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if isinstance(item.get("concept"), str):
                found.add(item["concept"])
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


def _without(item: Any, keys: tuple) -> Any:
    return {k: v for k, v in item.items() if k not in keys} if isinstance(item, dict) else item


def case_view(case: dict, concepts: dict | None = None) -> dict:
    """What decides a case's verdicts: the case less its id and its descriptive words, with the
    definitions of the concepts it names (`concepts`: the suite's top-level `concepts`)."""
    view = _without(case, ("id", *DESCRIPTIVE))
    for key in ("phrasings", "variants"):
        if isinstance(view.get(key), list):
            view[key] = [_without(item, DESCRIPTIVE) for item in view[key]]
    named = sorted(_concepts_named(view, set()))
    if named:
        concepts = concepts if isinstance(concepts, dict) else {}
        view["concepts"] = {name: concepts.get(name) for name in named}
    return view


def case_fingerprint(case: dict, concepts: dict | None = None) -> str:
    """Hex sha256 of the canonical JSON of `case_view`: what an erratum's expect_sha256 holds."""
    return hashlib.sha256(canonical_json(case_view(case, concepts)).encode("utf-8")).hexdigest()


def fingerprints(suite_doc: dict) -> dict[str, str]:
    """{case id: fingerprint} for every case of a suite document, in suite order (a case without a
    string id is left out: the suite's loader refuses it)."""
    concepts = suite_doc.get("concepts") if isinstance(suite_doc, dict) else None
    cases = suite_doc.get("cases") if isinstance(suite_doc, dict) else None
    return {c["id"]: case_fingerprint(c, concepts) for c in (cases if isinstance(cases, list) else [])
            if isinstance(c, dict) and isinstance(c.get("id"), str)}


# -- the document ---------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Entry:
    """One erratum: a change to what one case expects."""
    case: str
    date: str
    changed: str
    why: str
    expect_sha256: str | None = None     # None only in a list not yet fingerprinted (parse_entries)

    def to_json(self) -> dict:
        out = {"case": self.case, "date": self.date, "changed": self.changed, "why": self.why}
        return out if self.expect_sha256 is None else {**out, "expect_sha256": self.expect_sha256}


@dataclass(frozen=True, slots=True)
class Errata:
    """A parsed errata document."""
    baseline_date: str
    baseline_suite_sha256: str
    baseline: dict          # case id -> fingerprint at the baseline
    entries: tuple          # Entry, in file order (a case's entries in date order)

    def recorded(self, case_id: str) -> str | None:
        """The fingerprint the case must have now: its last entry's, else its baseline's."""
        last = next((e for e in reversed(self.entries) if e.case == case_id), None)
        return last.expect_sha256 if last is not None else self.baseline.get(case_id)


def _calendar_problem(text: str) -> str | None:
    try:
        date.fromisoformat(text)
    except ValueError:
        return f"{quoted(text)} is not a calendar date (YYYY-MM-DD)"
    return None


def _text_problem(text: str) -> str | None:
    """Errata text is one line shown on terminals and in the page: no control character (a line
    break, ESC) and no invisible one (safe_text's list)."""
    if not (text.isascii() and text.isprintable()):
        bad = next(((i, ch) for i, ch in enumerate(text) if printable(ch) != ch), None)
        if bad is not None:
            return (f"holds {escape(bad[1])} at character {bad[0]}: an erratum is one line of plain text "
                    "(no control or invisible character)")
    if not text.strip():
        return "is only spaces: say what changed (or why)"
    return None


def _entry_problems(raw: dict, where: list) -> Iterator[tuple[str, str]]:
    problem = _calendar_problem(raw["date"])
    if problem:
        yield json_path(where + ["date"]), problem
    for field in TEXT_FIELDS:
        problem = _text_problem(raw[field])
        if problem:
            yield json_path(where + [field]), problem


def _baseline_problems(baseline: dict) -> Iterator[tuple[str, str]]:
    problem = _calendar_problem(baseline["date"])
    if problem:
        yield "$.baseline.date", problem
    for case_id in baseline["cases"]:
        if not _CASE_ID.fullmatch(case_id) or len(case_id) > 200:
            yield "$.baseline.cases", f"{quoted(case_id)} is not a case id (^[a-z0-9][a-z0-9_-]*$)"


def _order_problems(entries: list[Entry], since: str) -> Iterator[tuple[str, str]]:
    """No entry before the baseline, and a case's entries in date order (its last one is the one
    its fingerprint is checked against, so "last" must mean "latest")."""
    latest: dict[str, str] = {}
    for index, entry in enumerate(entries):
        if entry.date < since:
            yield (json_path(["entries", index, "date"]),
                   f"{entry.date} is before the baseline's date ({since}): a change is recorded after it")
        if entry.case in latest and entry.date < latest[entry.case]:
            yield (json_path(["entries", index, "date"]),
                   f"{entry.date} is before an earlier entry of {entry.case!r} ({latest[entry.case]}): "
                   "keep a case's entries in date order, the last one is its current expectation")
        latest[entry.case] = max(entry.date, latest.get(entry.case, entry.date))


def _raise_first(problems: Iterator[tuple[str, str]], source: str) -> None:
    for path, reason in problems:
        raise ToolProofError(reason, source=source, path=path)


def parse_errata(doc: Any, schema: dict, source: str = "errata.json") -> Errata:
    """An errata document checked against its schema (data/schemas/errata.schema.json) and what a
    schema cannot say (calendar dates, plain text, entry order), or a ToolProofError naming
    `source`, the JSON path and the reason."""
    check_format(doc, schema, source)
    _raise_first(_baseline_problems(doc["baseline"]), source)
    for index, raw in enumerate(doc["entries"]):
        _raise_first(_entry_problems(raw, ["entries", index]), source)
    entries = [Entry(**{k: raw[k] for k in ENTRY_FIELDS}) for raw in doc["entries"]]
    _raise_first(_order_problems(entries, doc["baseline"]["date"]), source)
    base = doc["baseline"]
    return Errata(base["date"], base["suite_sha256"], dict(base["cases"]), tuple(entries))


def parse_entries(doc: Any, schema: dict, source: str = "entries") -> list[Entry]:
    """A helper's list of entries (the errata schema's entry, `expect_sha256` optional: it is
    added from the suite by `fingerprinted`), or a ToolProofError naming `source` and the path."""
    item = dict(schema["properties"]["entries"]["items"])
    item["required"] = [f for f in item["required"] if f != "expect_sha256"]
    check_format(doc, {**schema["properties"]["entries"], "items": item}, source)
    for index, raw in enumerate(doc):
        _raise_first(_entry_problems(raw, [index]), source)
    return [Entry(**{k: raw[k] for k in ENTRY_FIELDS if k in raw}) for raw in doc]


def fingerprinted(entries: list[Entry], suite_doc: dict, source: str = "entries") -> list[Entry]:
    """Each entry with expect_sha256 set to its case's fingerprint in `suite_doc` (the suite
    after the change), or a ToolProofError naming the first entry whose case the suite lacks."""
    found = fingerprints(suite_doc)
    for index, entry in enumerate(entries):
        if entry.case not in found:
            raise ToolProofError(f"the suite has no case {entry.case!r}", source=source,
                                 path=json_path([index, "case"]))
    return [Entry(e.case, e.date, e.changed, e.why, found[e.case]) for e in entries]


# -- the check ------------------------------------------------------------------------------------

class Unrecorded(NamedTuple):
    """A case whose fingerprint is not the one the errata record for it, and why."""
    case: str
    fingerprint: str | None     # its fingerprint now (None: the suite no longer has it)
    reason: str


def unrecorded(errata: Errata, suite_doc: dict) -> list[Unrecorded]:
    """Every case whose expected outcome changed without an erratum, in suite order, then every
    baseline case the suite lost (case ids stay stable: a case is never removed), then every case
    an entry names that neither the suite nor the baseline has (a typo)."""
    found = fingerprints(suite_doc)
    out = []
    for case_id, now in found.items():
        want = errata.recorded(case_id)
        last = next((e for e in reversed(errata.entries) if e.case == case_id), None)
        if want is None:
            out.append(Unrecorded(case_id, now, "a case added after the baseline needs an entry "
                                                "(changed: \"case added\")"))
        elif want != now:
            since = f"its last entry ({last.date})" if last else f"the baseline ({errata.baseline_date})"
            out.append(Unrecorded(case_id, now, f"changed since {since} without an entry"))
    out += [Unrecorded(case_id, None, "in the baseline but not in the suite (case ids stay stable)")
            for case_id in errata.baseline if case_id not in found]
    strays = {e.case for e in errata.entries} - set(found) - set(errata.baseline)
    out += [Unrecorded(case_id, None, "an entry names a case the suite does not have")
            for case_id in dict.fromkeys(e.case for e in errata.entries) if case_id in strays]
    return out


# -- which errata an older results file needs -----------------------------------------------------

def _graded_cases(results_doc: dict) -> set:
    transcripts = results_doc.get("transcripts")
    return {t["case_id"] for t in (transcripts if isinstance(transcripts, list) else [])
            if isinstance(t, dict) and isinstance(t.get("case_id"), str)}


def _results_day(results_doc: dict) -> str | None:
    """The day a results file was made (its `created`, ISO 8601, from the run), or None."""
    created = results_doc.get("created")
    day = created[:10] if isinstance(created, str) else ""
    return day if _DATE.fullmatch(day) and _calendar_problem(day) is None else None


def applying(results_doc: dict, errata: Errata, suite_doc: dict) -> list[Entry]:
    """The entries that apply to a results file: those for cases it graded that were made after
    its transcripts were, in file order.

    When was it made: a file recording the fingerprint of `suite_doc` (the suite it is graded
    against now) ran this very suite, so none apply; one recording the baseline's ran the suite
    before every entry, so all its cases' apply; otherwise its `created` day decides, and an entry
    of that same day applies too (a day cannot order the two). A fixture file (`kind` "fixture")
    is written for the suite beside it: none apply. A run's file that records neither (files from
    before suite_sha256 and created) is taken to predate every entry.
    """
    if not isinstance(results_doc, dict) or results_doc.get("kind") == "fixture":
        return []
    recorded = results_doc.get("suite_sha256")
    if isinstance(recorded, str) and recorded == suite_sha256(suite_doc):
        return []
    graded = _graded_cases(results_doc)
    day = None if recorded == errata.baseline_suite_sha256 else _results_day(results_doc)
    return [e for e in errata.entries if e.case in graded and (day is None or e.date >= day)]
