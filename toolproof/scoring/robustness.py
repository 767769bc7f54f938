"""Wording sensitivity: the same case said in several phrasings, and how much the verdict depends on
which one the model got.

Definitions (docs/statistics.md "Phrasings" says the same for users):
- a case's verdict in one phrasing is the majority over that phrasing's graded repeats and its
  credit their mean (scoring/repeats.py's rules, per phrasing);
- the case's row (what the main score, the categories and their intervals read) has as credit the
  mean over its graded phrasings of those credits, and as verdict the majority over its phrasings'
  verdicts, a tie to the worse; its `repeats` list every try, phrasing by phrasing;
- consistent case: at least two graded phrasings, all with one verdict; consistency_rate =
  consistent cases / cases with at least two graded phrasings;
- score per phrasing: the scorecard's weighted score over the cases graded in that phrasing;
- worst-phrasing score: the same formula with each case at its lowest phrasing credit;
- intervals of the scores (per phrasing, worst phrasing): the main score's closed form over cases
  (scoring/intervals.py), one credit per case, so a case's phrasings are never counted as
  independent cases; none on fewer than FEWEST cases. Consistency: Clopper-Pearson, as the
  categories. (A
  percentile bootstrap served here before issue 38: it covered 0.935 for the worst-phrasing score
  of a mid-range model and printed "100%-100%" at 72 of 72 consistent.) Coverage:
  benchmarks/phrasing_coverage.py;
- the test against chance and the worst-phrasing score expected by chance: scoring/wording_test.py;
- score per language (`per_language`, the language of a conversation being its prompt's,
  suite/model.conversation_langs): per_phrasing's formula with a case's credit in a language the
  mean over its graded phrasings in that language; `language_gap`: over the cases graded in English
  and in another language, English minus the other (a case's credit in "the other" the mean over
  its graded non-English phrasings) with compare's paired interval (scoring/intervals.py).

`robustness` is present only when the transcripts hold more than one phrasing; a run of the base
phrasing alone gives exactly the scorecard it gave before phrasings existed.

Pure: no I/O, no clock; the test's draws are seeded (scoring/stats.SeededDraws).
"""
from __future__ import annotations

from dataclasses import replace
from math import fsum

from toolproof.grading.verdicts import ERROR, VERDICT_ORDER, CaseResult
from toolproof.suite.model import BASE, ENGLISH, LANGS
from .repeats import majority, merge_repeats
from .scorecard import rate, weighted_score
from .intervals import DELTA_METHOD, LEVEL, card_intervals, clopper_pearson, paired_intervals
from .wording_test import METHOD as TEST_METHOD, case_groups, expected_worst, suite_test

METHOD = "over cases, as the score's: a stratified t interval (Welch-Satterthwaite df), each category's variance smoothed by three quarters of a pseudo-case"
FEWEST = 5              # a per-phrasing score on fewer cases gets no interval ("too few cases")
CONSISTENCY_METHOD = "Clopper-Pearson over the cases with two graded phrasings"
MAIN_SCORE = "the mean over each case's phrasings of its credit, then the usual weighted score"


def phrasings_of(per_case: list[list[CaseResult]]) -> list[str]:
    """Every phrasing id present, "base" first, the others in first-seen order."""
    seen = dict.fromkeys(r.phrasing for rs in per_case for r in rs)
    return ([BASE] if BASE in seen else []) + [p for p in seen if p != BASE]


def several(per_case: list[list[CaseResult]]) -> bool:
    """Does this run hold more than one phrasing (so a robustness section)?"""
    return len(phrasings_of(per_case)) > 1


def phrasing_groups(per_case: list[list[CaseResult]]) -> list[list[CaseResult]]:
    """Each case's tries split by phrasing: one list per (case, phrasing), each in repeat order.
    Repeat statistics (pass^k, flaky) read these, so a phrasing is never counted as a repeat.
    A case run in one phrasing keeps its own list."""
    out = []
    for results in per_case:
        groups: dict[str, list[CaseResult]] = {}
        for r in results:
            groups.setdefault(r.phrasing, []).append(r)
        out.extend(groups.values() if len(groups) > 1 else [results])
    return out


def by_phrasing(results: list[CaseResult]) -> dict[str, CaseResult]:
    """One case's results -> {phrasing: that phrasing's repeats merged}, in the order they come."""
    groups: dict[str, list[CaseResult]] = {}
    for r in results:
        groups.setdefault(r.phrasing, []).append(r)
    return {p: merge_repeats(rs) for p, rs in groups.items()}


def _mean(values: list) -> float | None:
    values = [v for v in values if v is not None]
    return round(fsum(values) / len(values), 4) if values else None


def merge_phrasings(results: list[CaseResult]) -> CaseResult:
    """One case's tries over several phrasings (and repeats) as its one row: credit the mean over
    phrasings, verdict the majority of the phrasings' verdicts (a tie to the worse). A phrasing is
    never a repeat: `repeat_verdicts` holds, per repeat, the majority over the phrasings' verdicts
    in that repeat, and `phrasing_repeats` each phrasing's own repeats. Reasons shown from a
    phrasing other than the base one are labelled with its id ("[chatty] ...")."""
    merged = by_phrasing(results)
    if len(merged) == 1:
        return next(iter(merged.values()))
    rows = list(merged.values())
    verdict = majority([r.verdict for r in rows])
    shown = next((r for r in rows if r.verdict == verdict), rows[0])
    per = [(p, tuple(r.repeat_verdicts or (r.verdict,))) for p, r in merged.items()]
    depth = max(len(vs) for _, vs in per)
    each = tuple(majority([vs[i] for _, vs in per if i < len(vs)]) for i in range(depth))
    reasons = (list(shown.reasons) if shown.phrasing == BASE
               else [f"[{shown.phrasing}] {reason}" for reason in shown.reasons])
    return replace(shown, verdict=verdict, credit=_mean([r.credit for r in rows]), reasons=reasons,
                   lenient_verdict=majority([r.lenient_verdict for r in rows]),
                   lenient_credit=_mean([r.lenient_credit for r in rows]), repeat_verdicts=each,
                   phrasing_repeats=tuple(per))


def _score(rows: list[tuple[str, float]], weights: dict) -> float | None:
    """The scorecard's formula over (category, credit) pairs: rounded category means, weighted."""
    table: dict[str, list[float]] = {}
    for category, credit in rows:
        table.setdefault(category, []).append(credit)
    return weighted_score({c: round(sum(v) / len(v), 4) for c, v in table.items()}, weights) if table else None


def _interval(rows: list[tuple[str, float]], weights: dict) -> dict | None:
    """The 95% interval of the weighted score over (category, credit) rows: the main score's own
    closed form (scoring/intervals.card_intervals: a stratified normal interval, each category's
    variance smoothed by three quarters of a pseudo-case, Welch's t), so a phrasing's score and the worst-phrasing score
    are bounded by the rule that bounds the score above them."""
    if not rows:
        return None
    return card_intervals([c for _, c in rows], [k for k, _ in rows], weights)["score"]


def consistency_bounds(consistent: int, judged: int) -> dict | None:
    """The Clopper-Pearson interval, 95%, of consistent / judged cases: the categories' interval
    (scoring/intervals.clopper_pearson, one definition for a proportion of cases). It never
    collapses (72 of 72 reads 95%-100%, where a bootstrap of cases that all agree printed
    "100%-100%") and covers at least 0.95 at every true rate (docs/statistics.md "Phrasings")."""
    if judged < 1:
        return None
    low, high = clopper_pearson(consistent / judged, judged, LEVEL)
    return {"low": round(low, 4) + 0.0, "high": round(high, 4) + 0.0}


def chance_worst(tables: tuple, categories: list[str], weights: dict) -> float | None:
    """The worst-phrasing score expected by chance: the worst-phrasing score's formula over each
    case's expected worst phrasing credit with its tries arranged at random over its phrasings
    (scoring/wording_test.expected_worst; exact, the score being linear in the cases' credits)."""
    rows = [(k, expected_worst(g)) for k, g in zip(categories, tables)]
    score = _score([(k, w) for k, w in rows if w is not None], weights)
    return None if score is None else round(score, 2) + 0.0


def case_table(per_case: list[list[CaseResult]], phrasings: list[str]) -> list[dict]:
    """Per case: its verdict in each phrasing it was run in (None where not run), consistent or not
    (None with fewer than two graded phrasings), and the phrasings whose verdict was below its best."""
    out = []
    for results in per_case:
        if not results:
            continue
        merged = by_phrasing(results)
        graded = {p: r for p, r in merged.items() if r.verdict != ERROR}
        verdicts = {p: merged[p].verdict if p in merged else None for p in phrasings}
        consistent = None if len(graded) < 2 else len({r.verdict for r in graded.values()}) == 1
        best = min((VERDICT_ORDER.index(r.verdict) for r in graded.values()), default=0)
        failed = [p for p, r in graded.items() if VERDICT_ORDER.index(r.verdict) > best]
        out.append({"id": results[0].case_id, "category": results[0].category, "verdicts": verdicts,
                     "consistent": consistent, "worse_in": failed})
    return out


def robustness(per_case: list[list[CaseResult]], weights: dict, *, intervals: bool = True,
               planned: dict | None = None, langs: dict | None = None) -> dict | None:
    """The scorecard's `robustness` section, or None for a run of one phrasing. `weights` are the
    checked category weights; `intervals` False leaves the score intervals null, like the card's
    own (the page draws them with the diagnosis); `planned` {phrasing: cases planned in it} (None:
    the cases run in it); `langs` {(case id, phrasing): language} of every conversation planned
    or held (None, no suite at hand: no `per_language` nor `language_gap`)."""
    # a scenario has no phrasings: wording is about the suite's cases (a mixed card listed its 26
    # scenarios as cases of one phrasing, and counted them in the worst-phrasing score)
    per_case = [rs for rs in per_case if rs and rs[0].category != "scenario"]
    phrasings = phrasings_of(per_case)
    if len(phrasings) < 2:
        return None
    cases = case_table(per_case, phrasings)
    tables = tuple(case_groups(rs) for rs in per_case)
    test = suite_test(tables)
    for i, row in enumerate(cases):
        row["p"] = test["p_by_case"].get(i)
        row["wording_dependent"] = i in test["named"]
    judged = [c for c in cases if c["consistent"] is not None]
    consistent = sum(c["consistent"] for c in judged)
    credits = [{p: r.credit for p, r in by_phrasing(rs).items() if r.credit is not None} for rs in per_case]
    categories = [rs[0].category for rs in per_case]
    run_in = {p: sum(any(r.phrasing == p for r in rs) for rs in per_case) for p in phrasings}
    per_phrasing = []
    for p in phrasings:
        rows = [(k, c[p]) for k, c in zip(categories, credits) if p in c]
        few = len(rows) < FEWEST
        per_phrasing.append({"phrasing": p, "cases": len(rows),
                             "planned": max(len(rows), (planned or run_in).get(p, run_in[p])),
                             "score": _score(rows, weights),
                             "interval": None if few or not intervals else _interval(rows, weights),
                             **({"interval_note": f"too few cases (fewer than {FEWEST})"} if few else {})})
    worst_rows = [(k, min(c.values())) for k, c in zip(categories, credits) if c]
    by_lang = {} if langs is None else {"per_language": per_language(per_case, langs, weights, intervals),
                                        "language_gap": language_gap(per_case, langs, weights, intervals)}
    return {
        "phrasings": phrasings,
        "main_score": MAIN_SCORE,
        "consistent_cases": consistent,
        "judged_cases": len(judged),
        "consistency_rate": rate(consistent, len(judged)),
        "consistency_interval": consistency_bounds(consistent, len(judged)),
        "per_phrasing": per_phrasing,
        "worst": {"cases": len(worst_rows), "score": _score(worst_rows, weights),
                  "interval": None if len(worst_rows) < FEWEST or not intervals else _interval(worst_rows, weights),
                  **({"interval_note": f"too few cases (fewer than {FEWEST})"} if len(worst_rows) < FEWEST else {})},
        "worst_phrasing_expected_by_chance": chance_worst(tables, categories, weights),
        "wording_test": {"method": TEST_METHOD, **{k: v for k, v in test.items() if k not in ("named", "p_by_case")}},
        "wording_dependent_cases": [cases[i]["id"] for i in test["named"]],
        **by_lang,
        "interval_method": {"method": METHOD, "level": LEVEL, "consistency": CONSISTENCY_METHOD},
        "cases": cases,
    }


def _lang(langs: dict, result: CaseResult) -> str:
    """A graded conversation's language, from the map the suite's cases give (English for one the
    map lacks: a run graded against a suite that no longer holds that case or phrasing)."""
    return langs.get((result.case_id, result.phrasing or BASE), ENGLISH)


def _credits_by(per_case: list[list[CaseResult]], group) -> dict[str, dict]:
    """{group: {case id: [category, credit]}}: a case's credit in a group (a language, or "other")
    is the mean over its graded phrasings whose conversations fall in it (`group(result)`), each
    phrasing's credit the mean over its graded repeats (by_phrasing), so a phrasing counts once
    whatever its repeats, and a case once in each group."""
    out: dict[str, dict] = {}
    for results in per_case:
        found: dict[str, list] = {}
        for r in by_phrasing(results).values():
            if r.credit is not None:
                found.setdefault(group(r), []).append(r.credit)
        for key, values in found.items():
            out.setdefault(key, {})[results[0].case_id] = [results[0].category, _mean(values)]
    return out


def _lang_order(lang: str) -> int:
    order = (ENGLISH, *LANGS)
    return order.index(lang) if lang in order else len(order)


def per_language(per_case: list[list[CaseResult]], langs: dict, weights: dict, intervals: bool = True) -> list[dict]:
    """The score per language, as the score per phrasing: one row per language among the
    conversations (en, pt, es), each with the cases graded in it of those planned in it, its
    weighted score and interval over cases (none under FEWEST), and its graded conversations."""
    credits = _credits_by(per_case, lambda r: _lang(langs, r))
    present = {_lang(langs, r) for rs in per_case for r in rs}
    planned: dict[str, set] = {}
    for (cid, _), lang in langs.items():
        planned.setdefault(lang, set()).add(cid)
    rows = []
    for lang in sorted(present, key=_lang_order):
        found = [(k, c) for k, c in credits.get(lang, {}).values()]
        few = len(found) < FEWEST
        rows.append({"lang": lang, "cases": len(found), "planned": max(len(found), len(planned.get(lang, ()))),
                     "score": _score(found, weights),
                     "interval": None if few or not intervals else _interval(found, weights),
                     **({"interval_note": f"too few cases (fewer than {FEWEST})"} if few else {}),
                     "conversations": sum(_lang(langs, r) == lang and r.verdict != ERROR
                                          for rs in per_case for r in rs)})
    return rows


def language_gap(per_case: list[list[CaseResult]], langs: dict, weights: dict, intervals: bool = True) -> dict | None:
    """English minus the other languages over the cases graded in both: the weighted score of
    their English credits less that of their other-language credits, with compare's paired
    interval (_paired: none under FEWEST shared cases); `cases` it rests on `of` the cases graded.
    None when no case was graded in English and in another language."""
    credits = _credits_by(per_case, lambda r: ENGLISH if _lang(langs, r) == ENGLISH else "other")
    english, other = credits.get(ENGLISH, {}), credits.get("other", {})
    if not any(cid in english for cid in other):
        return None
    found = _paired(other, english, weights, LEVEL)          # B - A: English minus the other
    few = found["cases"] < FEWEST
    graded = {cid for group in credits.values() for cid in group}
    both = {cid for cid in other if cid in english}
    others = sorted({_lang(langs, r) for rs in per_case for r in rs
                     if r.case_id in both and r.credit is not None} - {ENGLISH}, key=_lang_order)
    return {"langs": others, "cases": found["cases"], "of": len(graded), "english": found["b"],
            "other": found["a"], "delta": found["delta"],
            "interval": None if few or not intervals or found["low"] is None
            else {"low": found["low"], "high": found["high"]},
            **({"interval_note": f"too few cases (fewer than {FEWEST})"} if few else {}),
            "method": DELTA_METHOD}


def wording_dependence(results: list[CaseResult]) -> list[dict] | None:
    """For the diagnosis: the cases the test against chance names wording-dependent
    (scoring/wording_test.py), each with the phrasings whose verdict was worse than its best one
    (None when the results hold one phrasing). A case whose phrasings merely disagree is not
    named: repeats disagree too."""
    per_case: dict[str, list[CaseResult]] = {}
    for r in results:
        per_case.setdefault(r.case_id, []).append(r)
    groups = list(per_case.values())
    if not several(groups):
        return None
    table = case_table(groups, phrasings_of(groups))
    named = suite_test(tuple(case_groups(rs) for rs in groups))["named"]
    return [{"case": table[i]["id"], "category": table[i]["category"], "worse_in": table[i]["worse_in"],
             "verdicts": {p: v for p, v in table[i]["verdicts"].items() if v is not None}}
            for i in named]


def phrasing_credits(per_case: list[list[CaseResult]]) -> dict | None:
    """For a comparison: {phrasing: {case id: [category, credit]}} over graded phrasings, or None
    for a run of one phrasing."""
    if not several(per_case):
        return None
    out: dict[str, dict] = {}
    for results in per_case:
        for p, r in by_phrasing(results).items():
            if r.credit is not None:
                out.setdefault(p, {})[r.case_id] = [r.category, r.credit]
    return {p: out[p] for p in phrasings_of(per_case) if p in out}


def _paired(a: dict, b: dict, weights: dict, level: float) -> dict:
    """B - A over the cases both hold, by the comparison's paired method (scoring/intervals.py)."""
    ids = [cid for cid in a if cid in b]
    categories = [a[cid][0] for cid in ids]
    xa, xb = [a[cid][1] for cid in ids], [b[cid][1] for cid in ids]
    sa, sb = _score(list(zip(categories, xa)), weights), _score(list(zip(categories, xb)), weights)
    bounds = paired_intervals(xa, xb, categories, weights, level)["score"] if ids else None
    delta = None if sa is None or sb is None else round(sb - sa, 2) + 0.0
    return {"cases": len(ids), "a": sa, "b": sb, "delta": delta, **(bounds or {"low": None, "high": None})}


def _worst_of(credits: dict, phrasings: list[str]) -> dict:
    out: dict[str, list] = {}
    for p in phrasings:
        for cid, (category, credit) in credits[p].items():
            if cid not in out or credit < out[cid][1]:
                out[cid] = [category, credit]
    return out


def _few(row: dict) -> dict:
    """A per-phrasing row on fewer than FEWEST shared cases: no interval, said why."""
    if row["cases"] >= FEWEST:
        return row
    return {**row, "low": None, "high": None, "interval_note": f"too few cases (fewer than {FEWEST})"}


def compare_wording(a: dict | None, b: dict | None, weights: dict, level: float) -> dict | None:
    """A comparison's `robustness`: B - A per phrasing both runs used, and on the worst-phrasing
    score (each case at its worst over those shared phrasings), each with the paired interval.
    None unless both runs hold several phrasings."""
    if not a or not b:
        return None
    shared = [p for p in a if p in b]
    if len(shared) < 2:
        return None
    worst = _paired(_worst_of(a, shared), _worst_of(b, shared), weights, level)
    return {"phrasings": shared,
            "per_phrasing": [_few({"phrasing": p, **_paired(a[p], b[p], weights, level)}) for p in shared],
            "worst": {**worst, "regression": worst["high"] is not None and worst["high"] < 0}}
