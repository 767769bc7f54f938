"""The runs the page keeps in the browser, as data: which file an opened results file is, the row a
run shows in the list, which runs to drop when the space set aside is full, a run graded again.

The page's edge module (toolproof/page/runs.py) does the storage (IndexedDB) and the DOM; all it
decides comes from here, so it is tested in CPython. Another panel (a leaderboard) reads the same
rows. Pure: no I/O, no clock (the caller passes the time a run was kept).
"""
from __future__ import annotations

from typing import Any, NamedTuple

from toolproof.errors import ToolProofError
from toolproof.safe_text import without_hidden

MAX_RUNS = 60                      # runs kept at most; the oldest is dropped first
MAX_TOTAL_BYTES = 40_000_000       # their results files together (UTF-8 JSON text)
MAX_LABEL_CHARS = 120
KINDS = ("results", "scorecard")   # a transcripts document (re-gradable), or a scorecard alone


def kind_of(doc: Any, source: str) -> str:
    """"results" for a results file (`run --out`, the page's Export JSON of a live run, a
    fixtures file), "scorecard" for `grade --format json` (the figures without the transcripts);
    else a ToolProofError naming `source` and what the file is not."""
    if not isinstance(doc, dict):
        raise ToolProofError(f"not a results file: the JSON is {_json_type(doc)}, not an object", source=source)
    if "format" in doc:
        if doc["format"] != "toolproof.transcripts":
            raise ToolProofError(f"not a results file: its format is {_short(doc['format'])}, "
                                 "expected 'toolproof.transcripts'", source=source)
        return "results"
    if isinstance(doc.get("cases"), list) and isinstance(doc.get("source"), dict) and "score" in doc:
        for index, case in enumerate(doc["cases"]):
            if not (isinstance(case, dict) and isinstance(case.get("id"), str)
                    and isinstance(case.get("verdict"), str)):
                raise ToolProofError(f"not a scorecard: $.cases[{index}] needs an id and a verdict", source=source)
        return "scorecard"
    raise ToolProofError("not a results file: expected a results file (\"format\": \"toolproof.transcripts\") "
                         "or a scorecard (grade --format json)", source=source)


def row_of(doc: dict, card: dict, *, run_id: str, kept: str, size: int, label: str = "") -> dict:
    """The summary a kept run is listed by: plain strings and numbers from the run's results file
    and its scorecard (the card the page drew, or the file itself when it is a scorecard)."""
    source = card.get("source") if isinstance(card.get("source"), dict) else {}
    coverage = card.get("coverage") if isinstance(card.get("coverage"), dict) else {}
    cases = card.get("cases") if isinstance(card.get("cases"), list) else []
    planned = _count(coverage.get("planned"), len(cases))
    graded = _count(coverage.get("graded"), sum(isinstance(c, dict) and c.get("verdict") != "ERROR" for c in cases))
    score = card.get("score")
    field = lambda key: clean_text(str(doc.get(key) or source.get(key) or ""), 200)  # noqa: E731
    return {
        "id": run_id, "kept": kept, "bytes": int(size),
        "label": clean_label(label or str(doc.get("label") or "")),
        "kind": "scorecard" if doc is card else "results",
        "source_kind": field("kind"), "provider": field("provider"), "model": field("model"),
        "created": field("created"), "scope": field("scope"), "state": field("state"),
        "score": score if isinstance(score, (int, float)) and not isinstance(score, bool) and score == score else None,
        "graded": graded, "planned": planned,
        "suite_sha256": clean_text(str(doc.get("suite_sha256") or ""), 64),
    }


def row_texts(row: dict) -> dict:
    """What a run's row shows: its name, the line under it, the score and "N of M graded"."""
    name = row["label"] or f"{row['provider'] or 'unknown provider'} / {row['model'] or 'unknown model'}"
    when = (row["created"] or row["kept"]).replace("T", " ")[:16]
    meta = " · ".join(p for p in (row["provider"], row["model"], when + (" UTC" if when else ""),
                                  "" if row["scope"] in ("", "all") else f"scope {row['scope']}",
                                  row["state"] if row["state"] in ("aborted", "error") else "",
                                  "scorecard only" if row["kind"] == "scorecard" else "") if p)
    score = "no score" if row["score"] is None else f"{row['score']:.1f}"
    return {"name": name, "meta": meta, "score": score, "graded": f"{row['graded']} of {row['planned']} graded"}


def listed(rows: list[dict]) -> list[dict]:
    """The rows newest first (by when each was kept, then id)."""
    return sorted(rows, key=lambda r: (r["kept"], r["id"]), reverse=True)


def to_drop(rows: list[dict], incoming: int, *, max_bytes: int = MAX_TOTAL_BYTES,
            max_runs: int = MAX_RUNS) -> list[str]:
    """Ids of the kept runs to delete, oldest first, so that one more run of `incoming` bytes fits
    within both bounds. A run bigger than `max_bytes` on its own is refused by the caller."""
    drop, used, count = [], sum(r["bytes"] for r in rows), len(rows)
    for row in sorted(rows, key=lambda r: (r["kept"], r["id"])):
        if used + incoming <= max_bytes and count + 1 <= max_runs:
            break
        drop.append(row["id"])
        used -= row["bytes"]
        count -= 1
    return drop


def size_text(rows: list[dict], max_bytes: int = MAX_TOTAL_BYTES) -> str:
    """'3 runs kept · 1.2 MB of 40 MB'."""
    used = sum(r["bytes"] for r in rows)
    return f"{len(rows)} run{'' if len(rows) == 1 else 's'} kept · {_mb(used)} of {_mb(max_bytes)}"


def clean_label(text: str) -> str:
    """A run's name as typed: invisible and control characters removed, trimmed, bounded."""
    return clean_text(" ".join(text.split()), MAX_LABEL_CHARS)


def clean_text(text: str, limit: int) -> str:
    text = without_hidden(text)
    return text if len(text) <= limit else text[:limit - 1] + "…"


class Regraded(NamedTuple):
    """A results file graded again, as the page draws it: every repeat, a sweep's levels."""
    results: Any            # evaluate.Graded
    source: dict
    by_case: dict           # transcripts by case id (the case detail shows them)
    sweep: Any              # evaluate.SweepLevels, or None
    notes: list


def regraded(doc: dict, cases: list, tools: dict, schema: dict, source: str) -> Regraded:
    """A results file graded the way the terminal grades it (`grade --transcripts`), or a
    ToolProofError naming `source` (a case the suite does not have, a malformed transcript)."""
    from toolproof.grading.transcripts import parse_transcripts
    from toolproof.scoring.evaluate import grade_sweep, grade_transcripts, source_of
    from toolproof.scoring.sweep import levels_in

    transcripts = parse_transcripts(doc, schema, {c.id for c in cases}, source)
    levels = levels_in(transcripts)
    if levels:
        sweep = grade_sweep(cases, tools, transcripts, levels)
        return Regraded(sweep.main_graded, source_of(transcripts), sweep.levels[sweep.main][1].transcripts,
                        sweep, [sweep.note] if sweep.note else [])
    return Regraded(grade_transcripts(cases, tools, transcripts), source_of(transcripts),
                    transcripts.transcripts, None, [])


def _count(value: Any, fallback: int) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else fallback


def _json_type(value: Any) -> str:
    return {list: "an array", str: "a string", bool: "a boolean", type(None): "null"}.get(type(value), "a number")


def _short(value: Any) -> str:
    return repr(clean_text(str(value), 60))


def _mb(n: int) -> str:
    return f"{n / 1_000_000:.1f} MB" if n < 10_000_000 else f"{n / 1_000_000:.0f} MB"
