"""Grade a set of transcripts and build the scorecard: the one path the CLI and the page share.

`grade_transcripts` grades every repeat of every case once; `card_of` turns that into the
scorecard for given weights and prices (the page calls it again when a weight changes), adding
`repeats`, `reliability` (pass^k, pass@k, flaky cases), `intervals` (seeded bootstrap) and `cost`.

Every step is guarded so that nothing a model sends can lose a case or a run: an unexpected
error while grading one case fails that case with "internal error while grading (<type>)" and
the others are still graded; an error in the diagnosis or the scorecard yields a scorecard with
a note saying what was left out, never no scorecard. A `ToolProofError` (bad weights, a bad
file) is the user's to fix and still propagates.

Pure: no I/O. Must not hide an error: every guarded failure is visible in the scorecard.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .cost import cost
from .diagnose import diagnosis
from toolproof.errors import ToolProofError
from toolproof.grading.verdicts import ERROR, FAIL, PASS, CaseResult, blank_facts
from toolproof.grading.guarded import grade_safely, internal_error
from .repeats import merge_repeats, pass_counts, repeats_summary
from .scorecard import check_weights, scorecard
from .stats import bootstrap, reliability, resampled_means
from toolproof.suite.model import Case, Tool
from .unseen_tools import add_warnings
from .sweep import at_level, level_row, levels_in, main_level, sweep_seed
from toolproof.grading.transcripts import Transcript, TranscriptSet


def _as_failed(result: CaseResult, reason: str) -> CaseResult:
    return CaseResult(str(result.case_id), str(result.category), FAIL, 0.0, [reason], FAIL, 0.0,
                      [], blank_facts())


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
    """Every repeat of every case with a transcript, graded (each one guarded), in suite order and
    repeat order."""
    every = transcripts.all_repeats()
    per_case = [[grade_safely(case, tools, t) for t in every[case.id]] for case in cases if case.id in every]
    return Graded.of(per_case, [t for ts in every.values() for t in ts])


def diagnose(graded: Graded, cases: list[Case], tools: dict[str, Tool]) -> dict:
    """The diagnosis over every graded repeat (each with its own transcript's variants)."""
    by_key = {(t.case_id, t.repeat): t for t in graded.transcripts}
    return diagnosis(graded.graded, cases, tools, by_key)


def diagnose_safely(graded: Graded, cases: list[Case], tools: dict[str, Tool]) -> tuple[dict | None, str | None]:
    """(diagnosis, None), or (None, note) when building it failed: the verdicts still stand."""
    try:
        return diagnose(graded, cases, tools), None
    except Exception as exc:                      # noqa: BLE001
        return None, internal_error(exc, "building the diagnosis") + \
            ": the diagnosis is left out; verdicts and scores are unaffected"


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
            diagnosis: dict | None = None, prices: dict | None = None, intervals_now: bool = True,
            notes: list | None = None) -> dict:
    """The scorecard of already graded transcripts, with `notes` when a step had to be left out.
    Falls back to a card without the diagnosis and the statistics, then to one where every case
    is an internal-error FAIL, so a scorecard exists whatever happened."""
    notes = [n for n in (notes or []) if n]
    try:
        card = scorecard(graded.rows, weights, source=source, diagnosis=diagnosis, graded=graded.graded,
                         extra=extras(graded, weights or {}, prices, intervals_now))
    except ToolProofError:
        raise
    except Exception as exc:                      # noqa: BLE001
        notes.append(internal_error(exc, "building the scorecard"))
        try:
            card = scorecard(graded.rows, weights, source=source)
        except Exception as again:                # noqa: BLE001
            reason = internal_error(again, "building the scorecard")
            card = scorecard([_as_failed(r, reason) for r in graded.rows], weights, source=source)
    if notes:
        card["notes"] = notes
    return add_warnings(card, graded.transcripts)


def evaluate(cases: list[Case], tools: dict[str, Tool], transcripts: TranscriptSet,
             weights: dict | None = None, prices: dict | None = None) -> dict:
    """Transcripts -> graded cases -> scorecard object (no model input can make this raise).
    A sweep's results give the main level's scorecard plus `sweep` (see sweep_score)."""
    levels = levels_in(transcripts)
    if levels:
        return evaluate_sweep(cases, tools, transcripts, levels, weights, prices)
    graded = grade_transcripts(cases, tools, transcripts)
    found, note = diagnose_safely(graded, cases, tools)
    return card_of(graded, weights, source=source_of(transcripts), diagnosis=found, prices=prices,
                   notes=[note])


@dataclass(frozen=True, slots=True)
class SweepLevels:
    """A sweep's levels, each graded on its own: pad -> (Graded, that level's TranscriptSet)."""
    seed: int | None
    main: int                       # the level the overall scorecard shows (0 when run)
    note: str | None                # said when the main level is not 0
    levels: dict

    @property
    def main_graded(self) -> Graded:
        return self.levels[self.main][0]


def grade_sweep(cases: list[Case], tools: dict[str, Tool], transcripts: TranscriptSet,
                levels: list[int]) -> SweepLevels:
    """Every pad level graded alone (each case guarded as always)."""
    main, note = main_level(levels)
    graded = {}
    for pad in levels:
        subset = at_level(transcripts, pad)
        graded[pad] = (grade_transcripts(cases, tools, subset), subset)
    return SweepLevels(sweep_seed(transcripts.raw), main, note, graded)


def sweep_section(sweep: SweepLevels, main_card: dict, weights: dict | None, prices: dict | None = None,
                  intervals_now: bool = True) -> dict:
    """The scorecard's `sweep`: each level's row from its own scorecard (the main card for the
    main level), with the same weights, formula and bootstrap as the main score."""
    rows = []
    for pad, (graded, subset) in sweep.levels.items():
        card = main_card if pad == sweep.main else card_of(graded, weights, prices=prices,
                                                           intervals_now=intervals_now)
        rows.append(level_row(pad, card, subset))
    return {"seed": sweep.seed, "levels": rows}


def evaluate_sweep(cases: list[Case], tools: dict[str, Tool], transcripts: TranscriptSet,
                   levels: list[int], weights: dict | None = None, prices: dict | None = None) -> dict:
    """Each pad level graded on its own; the main level's full scorecard carries `sweep`."""
    sweep = grade_sweep(cases, tools, transcripts, levels)
    found, problem = diagnose_safely(sweep.main_graded, cases, tools)
    card = card_of(sweep.main_graded, weights, source=source_of(transcripts), diagnosis=found,
                   prices=prices, notes=[sweep.note, problem])
    card["sweep"] = sweep_section(sweep, card, weights, prices)
    return card
