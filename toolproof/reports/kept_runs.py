"""The runs the page keeps in the browser, as data: the row a run shows in the list, which runs to
drop when the space set aside is full. Which kind of file an opened document is, and a run graded
again, are the results-document door's (scoring/results_doc.py), as for `compare` and `board`.

The page's edge module (toolproof/page/runs.py) does the storage (IndexedDB) and the DOM; all it
decides comes from here and from the door, so it is tested in CPython. Another panel (a
leaderboard) reads the same rows. Pure: no I/O, no clock (the caller passes the time a run was kept).
"""
from __future__ import annotations

from typing import Any, NamedTuple

from toolproof.safe_text import without_hidden

MAX_RUNS = 60                      # runs kept at most; the oldest is dropped first
MAX_TOTAL_BYTES = 40_000_000       # their results files together (UTF-8 JSON text)
MAX_LABEL_CHARS = 120


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
            f"{'was' if n == 1 else 'were'} dropped from this browser (it keeps at most {max_runs} runs "
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
