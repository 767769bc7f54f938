"""The runs the page keeps in the browser, as data: the row a run shows in the list, which runs to
drop when the space set aside is full. Which kind of file an opened document is, and a run graded
again, are the results-document door's (scoring/results_doc.py), as for `compare` and `board`.

The page's edge module (toolproof/page/runs.py) does the storage (IndexedDB) and the DOM; all it
decides comes from here and from the door, so it is tested in CPython. Another panel (a
leaderboard) reads the same rows. Pure: no I/O, no clock (the caller passes the time a run was kept).

A live run is kept as it goes (page/keeping.py): its row says state "running", its document is
stored as a head (the results file without transcripts) and its finished conversations in batches,
each a part stored under `part_key`; `assembled` puts them back together. When the run ends the
whole file replaces them; a run whose tab was closed first is settled on the next visit
(`settled_state`): complete, or "interrupted" with what it had, "N of M".
"""
from __future__ import annotations

import json
from typing import Any, NamedTuple

from toolproof.limits import ReadError, read_json
from toolproof.plurals import counted
from toolproof.safe_text import without_hidden
from toolproof.scoring.withhold import unscored

MAX_RUNS = 60                      # runs kept at most; the oldest is dropped first
MAX_TOTAL_BYTES = 40_000_000       # their results files together (UTF-8 JSON text)
MAX_LABEL_CHARS = 120
SHOWN_STATES = ("aborted", "error", "running", "interrupted")   # "done" goes without saying


def row_of(doc: dict, card: dict, *, run_id: str, kept: str, size: int, label: str = "") -> dict:
    """The summary a kept run is listed by: plain strings and numbers from the run's results file
    and its scorecard (the card the page drew, or the file itself when it is a scorecard)."""
    source = card.get("source") if isinstance(card.get("source"), dict) else {}
    coverage = run_coverage(card)
    cases = card.get("cases") if isinstance(card.get("cases"), list) else []
    planned = _count(coverage.get("planned"), len(cases))
    graded = _count(coverage.get("graded"), sum(isinstance(c, dict) and c.get("verdict") != "ERROR" for c in cases))
    # the card's own score, null below half of its plan (scoring/withhold.py); a scorecard kept from
    # before that rule was written into the JSON is held to it by the same function
    score = None if unscored({"coverage": {"planned": planned, "graded": graded}}) else card.get("score")
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
                                  row["state"] if row["state"] in SHOWN_STATES else "",
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


class DropNotice(NamedTuple):
    """What the page says, until dismissed, when runs were dropped to keep another: one line, and
    one entry per dropped run (its name, model and date), oldest first."""
    line: str
    runs: tuple


def drop_notice(dropped: list[dict], kept_name: str, *, max_bytes: int = MAX_TOTAL_BYTES,
                max_runs: int = MAX_RUNS) -> DropNotice | None:
    """The notice for the rows `dropped` to make room for the run named `kept_name`; None when
    nothing was dropped. Every field comes from a row, already cleaned and bounded (row_of)."""
    if not dropped:
        return None
    n = len(dropped)
    line = (f"To keep {clean_text(kept_name, MAX_LABEL_CHARS)}, {n} older run{'' if n == 1 else 's'} "
            f"{'was' if n == 1 else 'were'} dropped from this browser (it keeps at most {counted(max_runs, 'run')} "
            f"and {_mb(max_bytes)}). Export a run before opening more if you need it again:")
    return DropNotice(line, tuple(_dropped_entry(row) for row in sorted(dropped, key=lambda r: (r["kept"], r["id"]))))


def _dropped_entry(row: dict) -> str:
    """'My label: openai / gpt-4o, run 2026-12-01 10:00 UTC, 1.2 MB' (no label: from the model)."""
    model = f"{row['provider'] or 'unknown provider'} / {row['model'] or 'unknown model'}"
    when = (row["created"] or row["kept"]).replace("T", " ")[:16]
    dated = f", {'run' if row['created'] else 'kept'} {when} UTC" if when else ""
    return f"{row['label'] + ': ' if row['label'] else ''}{model}{dated}, {_mb(row['bytes'])}"


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


def _count(value: Any, fallback: int) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else fallback


def _mb(n: int) -> str:
    return f"{n / 1_000_000:.1f} MB" if n < 10_000_000 else f"{n / 1_000_000:.0f} MB"


# -- a live run kept as it goes

def part_key(run_id: str, seq: int) -> str:
    """The storage key of a run's `seq`th batch of conversations: its id, a slash, the number
    (zero-padded, so the keys sort in the order written, and all lie in `parts_range`)."""
    return f"{run_id}/{seq:06d}"


def parts_range(run_id: str) -> tuple[str, str]:
    """The lowest and highest key a part of `run_id` can have (an IndexedDB key range)."""
    return f"{run_id}/", f"{run_id}/\uffff"


def part_text(items: list[tuple[int, dict]]) -> str:
    """One batch as stored: [[plan index, transcript], ...] as compact JSON."""
    return json.dumps([[index, transcript] for index, transcript in items], separators=(",", ":"),
                      ensure_ascii=False)


def assembled(head: dict, texts: list[str]) -> tuple[dict, int]:
    """The results file of a run kept as it went: its head with every stored conversation, in plan
    order (workers finish out of order), and how many stored batches could not be read (a batch
    the browser mangled loses its own conversations, never the others')."""
    items, unreadable = [], 0
    for text in texts:
        try:            # as every file is read: bounded in size and depth (a batch the browser
            batch = read_json(text, what="stored batch", max_bytes=MAX_TOTAL_BYTES)   # mangled may be anything)
        except ReadError:
            unreadable += 1
            continue
        good = isinstance(batch, list) and all(
            isinstance(item, list) and len(item) == 2 and isinstance(item[0], int)
            and not isinstance(item[0], bool) and isinstance(item[1], dict) for item in batch)
        if not good:
            unreadable += 1
            continue
        items += [(item[0], item[1]) for item in batch]
    items.sort(key=lambda item: item[0])
    return {**head, "transcripts": [transcript for _, transcript in items]}, unreadable


def run_coverage(card: dict) -> dict:
    """What a kept run's row counts: the card's coverage; for a run with arms, every arm that ran
    added up (a refused arm ran nothing: none of its conversations was planned), so "N of M" and a
    settled run's state speak of the whole run, not of its baseline alone."""
    block = card.get("arms")
    if not isinstance(block, list) or not block:
        return card.get("coverage") if isinstance(card.get("coverage"), dict) else {}
    ran = [a.get("coverage") for a in block if isinstance(a, dict) and not a.get("refused")
           and isinstance(a.get("coverage"), dict)]
    return {k: sum(_count(c.get(k), 0) for c in ran) for k in ("planned", "graded", "error", "not_started")}


def settled_state(card: dict) -> str:
    """The state of a run found still "running" on a later visit (its tab closed before the end),
    from the scorecard its stored conversations grade to: "done" when every planned conversation
    is there ("error" if none of them got an answer, as the runner says of such a run), else
    "interrupted"."""
    coverage = run_coverage(card)
    if _count(coverage.get("not_started"), 1):
        return "interrupted"
    return "done" if _count(coverage.get("graded"), 0) else "error"


def kept_line(row: dict) -> str:
    """What the live run says once its results file is stored: 'Kept as “openai / gpt-4o” in Runs.'"""
    return f"Kept as “{row_texts(row)['name']}” in Runs."
