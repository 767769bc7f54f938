"""Grade a set of transcripts and build the scorecard: the one path the CLI and the page share.

`grade_transcripts` grades every repeat of every case once, and every scenario transcript against
its world (`worlds`: the world records by id; a scenario of a world not given is refused);
`card_of` turns that into the
scorecard for given weights and prices (the page calls it again when a weight changes), adding
`coverage` (how much of the run's plan was graded), `repeats`, `reliability` (pass^k, pass@k,
flaky cases), `intervals` (closed-form, over cases) and `cost`.

Every step is guarded so that nothing a model sends can lose a case or a run: an unexpected
error while grading one case fails that case with "internal error while grading (<type>)" and
the others are still graded; an error in the diagnosis or the scorecard yields a scorecard with
a note saying what was left out, never no scorecard. A `ToolProofError` (bad weights, a bad
file) is the user's to fix and still propagates.

Pure: no I/O. Must not hide an error: every guarded failure is visible in the scorecard.
"""
from __future__ import annotations

from dataclasses import dataclass

from .cost import cost
from .coverage import Plan, add_coverage, coverage, phrasing_plan, plan_of, planned_phrasings, scenario_plan
from .diagnose import diagnosis, transcript_key
from toolproof.errors import ToolProofError, clip
from toolproof.plurals import counted
from toolproof.grading.verdicts import ERROR, FAIL, PASS, CaseResult, blank_facts
from toolproof.grading.guarded import grade_phrased, internal_error
from toolproof.grading.scenario_grade import CATEGORY as SCENARIO, grade_scenario_safely, scenario_index
from .scenarios import scenarios_block
from toolproof.worlds.engine import initial_state
from .repeats import pass_counts, repeats_summary
from .robustness import merge_phrasings, phrasing_groups, robustness
from .scorecard import check_weights, scorecard
from .intervals import card_intervals
from .rates import RATES_METHOD, rate_intervals
from .stats import reliability
from toolproof.suite.model import BASE, Case, Tool, conversation_langs
from .unseen_tools import add_warnings
from .withhold import unscored, withhold
from .sweep import at_level, level_row, levels_in, main_level, sweep_seed
from toolproof.grading.results_text import cut_short_note
from toolproof.plurals import counted, plural
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
    planned: int | None = None   # items the run planned (None: what is present was the plan)
    phrasing_plan: dict | None = None   # {phrasing: cases planned in it} (None: those run in it)
    scenario_plan: dict | None = None   # {world: scenario tries planned} (None: those present)
    langs: dict | None = None   # {(case id, phrasing): language} of every conversation planned or held
                                # (suite.model.conversation_langs; None: no suite at hand, no per_language)

    @classmethod
    def of(cls, per_case: list[list[CaseResult]], transcripts: list[Transcript],
           planned: int | None = None, phrasing_plan: dict | None = None,
           scenario_plan: dict | None = None, langs: dict | None = None) -> "Graded":
        return cls(per_case, [merge_phrasings(rs) for rs in per_case],
                   [r for rs in per_case for r in rs if r.verdict != ERROR], transcripts, planned=planned,
                   phrasing_plan=phrasing_plan, scenario_plan=scenario_plan, langs=langs)

    @property
    def scenarios(self) -> list[list[CaseResult]]:
        """Each scenario's tries (the lists of per_case whose category is scenario)."""
        return [rs for rs in self.per_case if rs and rs[0].category == SCENARIO]

    @property
    def coverage(self) -> dict:
        return coverage(self.per_case, self.planned)


def source_of(transcripts: TranscriptSet) -> dict:
    """What the scorecard says about where its transcripts came from."""
    return {"kind": transcripts.kind, "label": transcripts.label,
            "provider": transcripts.provider, "model": transcripts.model,
            "created": transcripts.raw.get("created", ""),
            "scope": transcripts.raw.get("scope", "all"),
            "phrasings": (transcripts.raw.get("settings") or {}).get("phrasings", "base")}


def grade_transcripts(cases: list[Case], tools: dict[str, Tool], transcripts: TranscriptSet,
                      planned: int | None = -1, worlds: dict | None = None) -> Graded:
    """Every repeat of every case with a transcript, graded (each one guarded), in suite order and
    repeat order, then every scenario's tries in world and scenario order. `planned` (items): by
    default what the file's plan says (coverage.plan_of)."""
    every = transcripts.all_repeats()
    per_case = [[grade_phrased(case, tools, t) for t in every[case.id]] for case in cases if case.id in every]
    runs = grade_scenarios(transcripts, worlds)
    found = scenario_plan(transcripts.raw, worlds)
    if planned == -1:
        plan = plan_of(transcripts.raw, cases, worlds)
        planned = None if plan is None else plan.items
        if found is not None:       # a scenarios run planned its scenarios and any cases it holds
            planned = sum(found.values()) + sum(len(rs) for rs in per_case)
    # the transcripts graded (cost, warnings): a scenario's only when its world was given
    scenario_transcripts = [t for ts in (transcripts.scenarios or {}).values() for t in ts] if worlds is not None else []
    # the language of each conversation planned (its "N of M cases") or held, from the suite's cases
    held = [(case, tuple(t.phrasing for t in every[case.id])) for case in cases if case.id in every]
    langs = conversation_langs(planned_phrasings(transcripts.raw, cases, every) + held)
    return Graded.of(per_case + runs, [t for ts in every.values() for t in ts] + scenario_transcripts, planned,
                     phrasing_plan(transcripts.raw, cases, every), found, langs)


def grade_scenarios(transcripts: TranscriptSet, worlds: dict | None) -> list[list[CaseResult]]:
    """Each scenario's tries graded against its world, in world and scenario order. A transcript
    of a scenario no given world holds is the file's fault (ToolProofError, as an unknown case);
    with no worlds at all (None) no scenario is graded: the card's notes say so."""
    held = transcripts.scenarios or {}
    if not held or worlds is None:      # no worlds given: left out, and said so (scenarios_left_out)
        return []
    index = check_scenarios_known(transcripts, worlds)
    starts = {w.id: initial_state(w) for w in worlds.values()}     # made once: never changed in place
    memo: dict = {}                 # replays and answers met again (grading/scenario_grade.py)
    return [[grade_scenario_safely(*index[sid], t, starts[index[sid][0].id], memo) for t in held[sid]]
            for sid in index if sid in held]


def check_scenarios_known(transcripts: TranscriptSet, worlds: dict, source: str | None = None) -> dict:
    """The worlds' scenario index (scenario_grade.scenario_index), once every scenario the file
    holds is found in it under its own world; the first that is not is refused in one line
    (naming `source`, the file, when given: the board and compare read several)."""
    index = scenario_index(worlds or {})
    for scenario_id, tries in (transcripts.scenarios or {}).items():
        if scenario_id not in index or index[scenario_id][0].id != tries[0].world:
            known = ", ".join(worlds or {}) or "none"
            # each id cut first, so a huge one cannot push what is wrong out of the line
            raise ToolProofError(f"scenario {clip(scenario_id)!r} (world {clip(tries[0].world)!r}) is not in the "
                                 f"worlds loaded ({known}); pass its world file with --worlds", source=source)
    return index


def scenarios_left_out(transcripts: TranscriptSet, worlds: dict | None) -> str | None:
    """The note of a card graded without worlds from a file that holds scenario transcripts."""
    held = sum(len(ts) for ts in (transcripts.scenarios or {}).values())
    if not held or worlds is not None:
        return None
    return f"{counted(held, 'scenario transcript')} not graded: no world files were given"


def diagnose(graded: Graded, cases: list[Case], tools: dict[str, Tool]) -> dict:
    """The diagnosis over every graded repeat (each with its own transcript's variants)."""
    by_key = {transcript_key(t): t for t in graded.transcripts}
    return diagnosis([r for r in graded.graded if r.category != SCENARIO], cases, tools, by_key)


def diagnose_safely(graded: Graded, cases: list[Case], tools: dict[str, Tool]) -> tuple[dict | None, str | None]:
    """(diagnosis, None), or (None, note) when building it failed: the verdicts still stand.
    Nothing graded (every request failed, or nothing ran): no diagnosis, since every layer
    would read as perfect over zero cases (scenarios are not diagnosed: their reasons say it)."""
    if not any(r.category != SCENARIO for r in graded.graded):
        return None, None
    try:
        return diagnose(graded, cases, tools), None
    except Exception as exc:                      # noqa: BLE001
        return None, internal_error(exc, "building the diagnosis") + \
            ": the diagnosis is left out; verdicts and scores are unaffected"


def intervals(graded: Graded, weights: dict) -> dict:
    """95% intervals over the graded cases (ERROR cases left out): Clopper-Pearson per category,
    the score's from the smoothed category variances (scoring/intervals.py), and each rate's
    (`rates` with `rates_method`: scoring/rates.py)."""
    scored = [r for r in graded.rows if r.credit is not None]
    credits, categories = [r.credit for r in scored], [r.category for r in scored]
    return {**card_intervals(credits, categories, check_weights(weights)),
            "rates": rate_intervals(graded.rows, graded.graded), "rates_method": RATES_METHOD}


def computable_k_note(per_case: list[list[CaseResult]]) -> str | None:
    """Which k pass^k and pass@k reach, said when ERROR repeats lowered it (k only goes up to
    the fewest graded repeats of a case); None when nothing was lost to ERROR."""
    # with phrasings each list is one (case, phrasing) pair's repeats: named so, never as a case
    phrased = any(rs and rs[0].phrasing not in (None, BASE) for rs in per_case)
    counts = [(rs[0].case_id + (f" in phrasing {rs[0].phrasing or BASE}" if phrased else ""), len(rs),
               sum(r.verdict != ERROR for r in rs)) for rs in per_case if rs]
    graded = [c for c in counts if c[2] > 0]
    if not graded or all(n == size for _, size, n in counts):
        return None
    top, most = min(n for _, _, n in graded), max(size for _, size, _ in counts)
    if top == most:
        return None
    case, size, n = next(c for c in graded if c[2] == top)
    left = sum(c[2] == 0 for c in counts)
    out = (f"k = 1..{top} only (of {counted(most, 'repeat')}): {case} has {counted(n, 'graded repeat')}, {size - n} ERROR; "
           "ERROR repeats are not graded")
    unit = counted(left, "(case, phrasing) pair") if phrased else counted(left, "case")
    return out + (f"; {unit} with no graded repeat {plural(left, 'is', 'are')} left out" if left else "")


def extras(graded: Graded, weights: dict, prices: dict | None, intervals_now: bool = True) -> dict:
    """The scorecard's repeat, reliability, interval and cost sections (`intervals` is None when
    not drawn yet: the page draws them after it is ready, as it does the diagnosis)."""
    tries = phrasing_groups(graded.per_case)       # the per-case lists themselves with one phrasing
    count, note = repeats_summary(tries)
    found = reliability(pass_counts(tries))
    k_note = computable_k_note(tries)
    if k_note:
        found["k_note"] = k_note
    flaky = {rs[0].case_id for rs in tries if len({r.verdict for r in rs if r.verdict != ERROR}) > 1}
    found["flaky_cases"] = [r.case_id for r in graded.rows if r.case_id in flaky]
    passes = sum(r.verdict == PASS for rs in graded.per_case for r in rs)
    out = {"repeats": count}
    if note:
        out["repeats_note"] = note
    out = {**out, "reliability": found, "intervals": intervals(graded, weights) if intervals_now else None,
           "cost": cost(graded.transcripts, passes, prices)}
    wording = robustness(graded.per_case, check_weights(weights), intervals=intervals_now,
                         planned=graded.phrasing_plan, langs=graded.langs)
    out = out if wording is None else {**out, "robustness": wording}
    block = scenarios_block(graded.scenarios, graded.scenario_plan)
    return out if block is None else {**out, "scenarios": block}


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
    card = withhold(with_coverage(card, graded.coverage))     # below half of the plan: no score, in the JSON
    if notes:
        card["notes"] = notes
    return add_warnings(card, graded.transcripts)


def with_coverage(card: dict, found: dict) -> dict:
    """The card with `coverage` beside `counts` (what the score rests on, next to the counts)."""
    out = {}
    for key, value in card.items():
        if key != "coverage":
            out[key] = value
        if key == "counts":
            out["coverage"] = found
    return out


def evaluate(cases: list[Case], tools: dict[str, Tool], transcripts: TranscriptSet,
             weights: dict | None = None, prices: dict | None = None, worlds: dict | None = None) -> dict:
    """Transcripts -> graded cases (and scenarios, against `worlds`) -> scorecard object (no model
    input can make this raise). A sweep's results give the main level's scorecard plus `sweep`
    (see sweep_score)."""
    levels = levels_in(transcripts)
    if levels:
        return evaluate_sweep(cases, tools, transcripts, levels, weights, prices)
    graded = grade_transcripts(cases, tools, transcripts, worlds=worlds)
    found, note = diagnose_safely(graded, cases, tools)
    return card_of(graded, weights, source=source_of(transcripts), diagnosis=found, prices=prices,
                   notes=[cut_short_note(transcripts.raw), note, scenarios_left_out(transcripts, worlds)])


@dataclass(frozen=True, slots=True)
class SweepLevels:
    """A sweep's levels, each graded on its own: pad -> (Graded, that level's TranscriptSet)."""
    seed: int | None
    main: int                       # the level the overall scorecard shows (0 when run)
    note: str | None                # said when the main level is not 0
    levels: dict
    plan: Plan | None = None        # what the file planned (None: what it holds)

    @property
    def main_graded(self) -> Graded:
        return self.levels[self.main][0]


def grade_sweep(cases: list[Case], tools: dict[str, Tool], transcripts: TranscriptSet,
                levels: list[int]) -> SweepLevels:
    """Every pad level graded alone (each case guarded as always)."""
    main, note = main_level(levels)
    plan = plan_of(transcripts.raw, cases)
    graded = {}
    for pad in levels:
        subset = at_level(transcripts, pad)
        graded[pad] = (grade_transcripts(cases, tools, subset, None if plan is None else plan.per_level), subset)
    return SweepLevels(sweep_seed(transcripts.raw), main, note, graded, plan)


def sweep_coverage(sweep: SweepLevels) -> dict:
    """The whole sweep's coverage: every level run, and every planned level that never started."""
    total = {"planned": 0, "graded": 0, "error": 0, "not_started": 0}
    for graded, _ in sweep.levels.values():
        total = add_coverage(total, graded.coverage)
    if sweep.plan is not None:
        unrun = [pad for pad in sweep.plan.levels if pad not in sweep.levels]
        total = add_coverage(total, {"planned": sweep.plan.per_level * len(unrun), "graded": 0, "error": 0,
                                     "not_started": sweep.plan.per_level * len(unrun)})
    return total


def sweep_cost(sweep: SweepLevels, prices: dict | None) -> dict:
    """What the whole sweep cost: every level's requests, not the main level's only."""
    every = [graded for graded, _ in sweep.levels.values()]
    passes = sum(r.verdict == PASS for graded in every for rs in graded.per_case for r in rs)
    return cost([t for graded in every for t in graded.transcripts], passes, prices)


def finish_sweep(card: dict, sweep: SweepLevels, weights: dict | None, prices: dict | None = None,
                 intervals_now: bool = True) -> dict:
    """The main level's card made the sweep's: `sweep` (every level's row), and `coverage` and
    `cost` over every level (the score and its statistics stay the main level's, and are withheld
    when the main level or the whole sweep is below half of its plan)."""
    # the score's absence is decided on the whole sweep's coverage, counted in conversations (so a
    # `sweep` key is in place first), before the main level's row is read from the card
    if card.get("no_score_reason") and unscored(card):    # the main level's own coverage: say which level
        card = {**card, "no_score_reason": f"at pad level {sweep.main}, {card['no_score_reason']}"}
    card = withhold(with_coverage({**card, "sweep": {"seed": sweep.seed, "levels": []}}, sweep_coverage(sweep)))
    card["sweep"] = sweep_section(sweep, card, weights, prices, intervals_now)
    if "cost" in card:
        card["cost"] = sweep_cost(sweep, prices)
    return card


def sweep_section(sweep: SweepLevels, main_card: dict, weights: dict | None, prices: dict | None = None,
                  intervals_now: bool = True) -> dict:
    """The scorecard's `sweep`: each level's row from its own scorecard (the main card for the
    main level), with the same weights, formula and intervals as the main score."""
    rows = []
    for pad, (graded, subset) in sweep.levels.items():
        card = main_card if pad == sweep.main else card_of(graded, weights, prices=prices,
                                                           intervals_now=intervals_now)
        rows.append(level_row(pad, card, subset, graded.coverage, None if sweep.plan is None else sweep.plan.cases))
    return {"seed": sweep.seed, "levels": rows}


def evaluate_sweep(cases: list[Case], tools: dict[str, Tool], transcripts: TranscriptSet,
                   levels: list[int], weights: dict | None = None, prices: dict | None = None) -> dict:
    """Each pad level graded on its own; the main level's full scorecard carries `sweep`."""
    sweep = grade_sweep(cases, tools, transcripts, levels)
    found, problem = diagnose_safely(sweep.main_graded, cases, tools)
    card = card_of(sweep.main_graded, weights, source=source_of(transcripts), diagnosis=found,
                   prices=prices, notes=[cut_short_note(transcripts.raw), sweep.note, problem])
    return finish_sweep(card, sweep, weights, prices)
