"""Grade a set of transcripts and build the scorecard: the one path the CLI and the page share.

`grade_transcripts` grades every repeat of every case once; `card_of` turns that into the
scorecard for given weights and prices (the page calls it again when a weight changes), adding
`repeats`, `reliability` (pass^k, pass@k, flaky cases), `intervals` (seeded bootstrap) and `cost`.

Pure: no I/O.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .cost import cost
from .diagnose import diagnosis
from .grade import ERROR, PASS, CaseResult
from .repeats import grade_repeats, merge_repeats, pass_counts, repeats_summary
from .score import check_weights, scorecard
from .stats import bootstrap, reliability, resampled_means
from .suite import Case, Tool
from .transcripts import Transcript, TranscriptSet


@dataclass(frozen=True, slots=True)
class Graded:
    per_case: list          # [[CaseResult per repeat], ...] in suite order
    rows: list              # one merged CaseResult per case
    graded: list            # every repeat's result that is not ERROR (rates, diagnosis)
    transcripts: list       # every Transcript of every repeat (cost)
    memo: dict = field(default_factory=dict, compare=False)   # the weight-free bootstrap draws

    @classmethod
    def of(cls, per_case: list[list[CaseResult]], transcripts: list[Transcript]) -> "Graded":
        return cls(per_case, [merge_repeats(rs) for rs in per_case],
                   [r for rs in per_case for r in rs if r.verdict != ERROR], transcripts)


def source_of(transcripts: TranscriptSet) -> dict:
    """What the scorecard says about where its transcripts came from."""
    return {"kind": transcripts.kind, "label": transcripts.label,
            "provider": transcripts.provider, "model": transcripts.model,
            "created": transcripts.raw.get("created", ""),
            "scope": transcripts.raw.get("scope", "all")}


def grade_transcripts(cases: list[Case], tools: dict[str, Tool], transcripts: TranscriptSet) -> Graded:
    """Every repeat of every case with a transcript, graded."""
    every = transcripts.all_repeats()
    return Graded.of(grade_repeats(cases, tools, transcripts), [t for ts in every.values() for t in ts])


def diagnose(graded: Graded, cases: list[Case], tools: dict[str, Tool]) -> dict:
    """The diagnosis over every graded repeat (each with its own transcript's variants)."""
    by_key = {(t.case_id, t.repeat): t for t in graded.transcripts}
    return diagnosis(graded.graded, cases, tools, by_key)


def intervals(graded: Graded, weights: dict) -> dict:
    """Seeded, stratified bootstrap intervals over the graded cases (ERROR cases left out). The
    resampled category means do not depend on the weights, so they are drawn once per Graded."""
    scored = [r for r in graded.rows if r.credit is not None]
    credits, categories = [r.credit for r in scored], [r.category for r in scored]
    if "resampled" not in graded.memo:
        graded.memo["resampled"] = resampled_means([credits], categories)
    return bootstrap(credits, categories, check_weights(weights), resampled=graded.memo["resampled"])


def extras(graded: Graded, weights: dict, prices: dict | None, intervals_now: bool = True) -> dict:
    """The scorecard's repeat, reliability, interval and cost sections (`intervals` is None when
    not drawn yet: the page draws them after it is ready, as it does the diagnosis)."""
    count, note = repeats_summary(graded.per_case)
    found = reliability(pass_counts(graded.per_case))
    found["flaky_cases"] = [r.case_id for r in graded.rows if r.to_json()["flaky"]]
    passes = sum(r.verdict == PASS for rs in graded.per_case for r in rs)
    out = {"repeats": count}
    if note:
        out["repeats_note"] = note
    return {**out, "reliability": found, "intervals": intervals(graded, weights) if intervals_now else None,
            "cost": cost(graded.transcripts, passes, prices)}


def card_of(graded: Graded, weights: dict | None = None, *, source: dict | None = None,
            diagnosis: dict | None = None, prices: dict | None = None, intervals_now: bool = True) -> dict:
    """The scorecard of already graded transcripts."""
    return scorecard(graded.rows, weights, source=source, diagnosis=diagnosis, graded=graded.graded,
                     extra=extras(graded, weights or {}, prices, intervals_now))


def evaluate(cases: list[Case], tools: dict[str, Tool], transcripts: TranscriptSet,
             weights: dict | None = None, prices: dict | None = None) -> dict:
    """Transcripts -> graded cases -> scorecard object."""
    graded = grade_transcripts(cases, tools, transcripts)
    return card_of(graded, weights, source=source_of(transcripts),
                   diagnosis=diagnose(graded, cases, tools), prices=prices)
