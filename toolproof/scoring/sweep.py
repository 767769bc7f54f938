"""A sweep's results, level by level: split the transcripts by pad level, score each level.

A results file of a tool-count sweep (`run --pad`) records the pad level of every transcript.
Each level's transcripts are a complete run of their own: they are graded alone, with the same
formula and the same interval over cases as the main score. The scorecard's `sweep`:
`{"seed": S, "levels": [{"pad", "score", "no_score_reason", "low", "high", "correct_tool_rate",
"tools_offered_mean", "input_tokens_mean", "cases", "cases_planned", "coverage"}]}`, levels ascending; the overall scorecard is the
level-0 one (the lowest level's, with a note, when 0 was not run).

- `tools_offered_mean`: mean number of tools offered per transcript at that level;
- `input_tokens_mean`: mean input tokens the provider reported for a case's first request
  (the tool list is most of it), over the first turns that were answered and report usage;
  null when none does.

Pure: no I/O. Must not grade differently from a run without padding: it only splits.
"""
from __future__ import annotations

from dataclasses import replace

from toolproof.errors import ToolProofError
from toolproof.grading.transcripts import TranscriptSet

MAX_LEVELS = 8           # pad levels in one sweep: each is graded and given intervals on its own


def levels_in(transcripts: TranscriptSet) -> list[int]:
    """The pad levels a transcript set holds, ascending; [] for a run that is not a sweep. A file
    mixing transcripts with and without a pad level is refused (it is not one run)."""
    every = [t for ts in transcripts.all_repeats().values() for t in ts]
    pads = {t.raw.get("pad") for t in every}
    if pads == {None} or not pads:
        return []
    if None in pads:
        raise ToolProofError("some transcripts record a pad level and some do not: a sweep's results "
                             "file records `pad` on every transcript", path="$.transcripts")
    if len(pads) > MAX_LEVELS:          # each level is graded and bootstrapped on its own
        raise ToolProofError(f"a sweep holds at most {MAX_LEVELS} pad levels; this file has {len(pads)}",
                             path="$.transcripts")
    return sorted(pads)


def at_level(transcripts: TranscriptSet, pad: int) -> TranscriptSet:
    """Only the transcripts of one pad level, as a transcript set of its own."""
    repeats = {}
    for case_id, ts in transcripts.all_repeats().items():
        mine = tuple(t for t in ts if t.raw.get("pad") == pad)
        if mine:
            repeats[case_id] = mine
    return replace(transcripts, transcripts={k: ts[0] for k, ts in repeats.items()}, repeats=repeats)


def main_level(levels: list[int]) -> tuple[int, str | None]:
    """(the level the overall scorecard shows, a note when it is not level 0)."""
    if 0 in levels:
        return 0, None
    return levels[0], (f"tool-count sweep without level 0: the overall scorecard is that of pad "
                       f"level {levels[0]}, the lowest run")


def _mean(values: list, places: int) -> float | None:
    return round(sum(values) / len(values), places) if values else None


def offered_mean(transcripts: TranscriptSet) -> float | None:
    counts = [len(t.raw["offered"]) for ts in transcripts.all_repeats().values() for t in ts
              if isinstance(t.raw.get("offered"), list)]
    return _mean(counts, 2)


def input_tokens_mean(transcripts: TranscriptSet) -> float | None:
    found = []
    for ts in transcripts.all_repeats().values():
        for t in ts:
            first = t.turns[0].reply if t.turns else None
            tokens = first.usage.get("input") if first is not None else None
            if isinstance(tokens, int) and not isinstance(tokens, bool) and tokens >= 0:
                found.append(tokens)
    return _mean(found, 1)


def level_row(pad: int, card: dict, transcripts: TranscriptSet, coverage: dict | None = None,
              planned_cases: int | None = None) -> dict:
    """One level's entry in `sweep.levels`, read from that level's own scorecard; `cases` and
    `cases_planned` say how many cases the point rests on (graded, not ERROR) of how many the
    level planned, and `coverage` the level's items (cases × repeats); `score` and
    `no_score_reason` are the level's card's (scoring/withhold.py: null below half of its plan)."""
    interval = (card.get("intervals") or {}).get("score") or {}
    rows = card.get("cases") or []
    graded = sum(row.get("verdict") != "ERROR" for row in rows)
    planned = len(rows) if planned_cases is None else max(len(rows), planned_cases)
    return {"pad": pad, "score": card.get("score"), "no_score_reason": card.get("no_score_reason"),
            "low": interval.get("low"),
            "high": interval.get("high"),
            "correct_tool_rate": (card.get("metrics") or {}).get("correct_tool_rate"),
            "tools_offered_mean": offered_mean(transcripts),
            "input_tokens_mean": input_tokens_mean(transcripts),
            "cases": graded, "cases_planned": planned,
            **({"coverage": coverage} if coverage is not None else {})}


def sweep_seed(document: dict) -> int | None:
    sweep = document.get("sweep")
    seed = sweep.get("seed") if isinstance(sweep, dict) else None
    return seed if isinstance(seed, int) and not isinstance(seed, bool) else None
