"""Wording against chance: does the phrasing change a model's verdicts more than its repeats do?

A verdict that differs between phrasings is not evidence of wording by itself: a model that fails
20% of conversations at random, whatever the wording, gives three phrasings three draws, and the
worst of three is low by construction. Two questions, each with a calibrated test (docs/statistics.md
"Phrasings" says the same for users):

- **Per case**: the case's graded tries form a phrasing x repeat table of credits (PASS 1, PARTIAL
  0.5, FAIL 0; ERROR left out). If wording does not matter, every arrangement of those tries over
  the table's cells (each phrasing keeping its number of tries) is equally likely. The statistic is
  the between-phrasing sum of squares (how far the phrasings' means sit apart); its null
  distribution over all arrangements is computed exactly (a permutation test, Freeman-Halton
  style, by dynamic programming over phrasings), so `p` is exact: the chance, with wording
  irrelevant, of phrasing means at least this far apart. A table of more than 6 phrasings or 48
  tries is too big to count in time: its law comes from 100-500 seeded shuffles instead.
- **Suite level** ("does wording matter for this model at all?"): T = the sum over cases of
  -ln(the case's exact p) (Fisher's combination, which weighs a few strongly worded cases
  above many faintly different ones). Its null
  distribution is that of a sum of independent per-case permutation distributions (cases are
  independent, and each case's arrangement is drawn from its exact law), estimated from DRAWS
  seeded draws; p = (1 + draws with T* >= T) / (1 + DRAWS), a valid p-value for any number of draws.
- **Which cases**: only when the suite-level test rejects at LEVEL, Holm's step-down correction over
  the cases whose table can vary (at least two phrasings, not all tries alike) names the cases whose
  exact p clears it. Gatekeeping by the suite test keeps "any wording reported" at or below LEVEL
  when wording does not matter; Holm (not Benjamini-Hochberg) because the promise is about naming
  no case wrongly (family-wise), not about a share of wrong names. The smallest p a case can reach
  is fixed by its shape: at 3 phrasings x 3 repeats it is 0.0036 (all three phrasings pure and
  different), above 0.05 / 15, so with 15 or more cases tested no single case can be named; the
  block says how many cases could reach the corrected level (`cases_reachable`).
- **One repeat**: each phrasing holds one try, every arrangement gives the same statistic, p is 1:
  repeats are what tell wording from chance, so the test is not `decidable`.
- **Worst-phrasing score expected by chance**: the same worst-phrasing score with each case's own
  tries arranged over its table at random (same per-case pass rates, wording ignored), its exact
  expectation over every arrangement (no draws); beside the observed worst-phrasing score it shows
  how much of the gap to the main score chance alone gives.

Pure: no I/O, no clock; every draw comes from scoring/stats.SeededDraws, so the page and the
terminal give the same figures.
"""
from __future__ import annotations

from bisect import bisect_left
from functools import lru_cache
from math import comb, fsum, log

from toolproof.grading.verdicts import ERROR, CaseResult
from .stats import SeededDraws

LEVEL = 0.05
DRAWS = 1000            # the suite statistic's null draws (p resolves to 1 / 1001; ~0.1 s at 72 x 3 x 3)
SEED = 20261206
CORRECTION = "Holm"
METHOD = ("permutation test within case (each case's tries shuffled over its phrasings, exact per case); "
          "suite level: Fisher's sum of -ln p over cases, against its seeded null draws; "
          "cases named only when the suite level rejects, Holm-corrected across cases")
TOL = 1e-9


def case_groups(results: list[CaseResult]) -> tuple[tuple[float, ...], ...]:
    """One case's graded tries as its table: one tuple of credits per phrasing with a graded try,
    in the order the phrasings come."""
    groups: dict[str, list[float]] = {}
    for r in results:
        if r.verdict != ERROR and r.credit is not None:
            groups.setdefault(r.phrasing, []).append(float(r.credit))
    return tuple(tuple(v) for v in groups.values())


def _compositions(size: int, limits: tuple[int, ...]):
    """Every way to take `size` tries from value counts `limits` (a tuple of non-negative counts)."""
    if len(limits) == 1:
        if size <= limits[0]:
            yield (size,)
        return
    for first in range(min(size, limits[0]) + 1):
        for rest in _compositions(size - first, limits[1:]):
            yield (first,) + rest


EXACT_GROUPS, EXACT_TRIES = 6, 48   # beyond either, the exact count grows too fast: shuffles instead
SHUFFLE_WORK = 40000                # tries shuffled per case at most (shuffles x tries), 100 to 500 shuffles


def exact(groups: tuple) -> bool:
    """Is this case's table small enough to count every arrangement (at most EXACT_GROUPS
    phrasings and EXACT_TRIES tries: a few hundredths of a second; 10 phrasings x 10 repeats took
    18 s)?"""
    return len(groups) <= EXACT_GROUPS and sum(map(len, groups)) <= EXACT_TRIES


@lru_cache(maxsize=256)
def _shuffled(groups: tuple) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """For a table too big to count: (statistic, worst phrasing mean) for the observed table and
    then for each of B seeded shuffles of its tries over its phrasings (B = SHUFFLE_WORK / tries,
    from 100 to 500). A Monte-Carlo permutation law: p = (1 + shuffles at or above) / (1 + B)."""
    flat = [v for g in groups for v in g]
    shuffles = max(100, min(500, SHUFFLE_WORK // max(1, len(flat))))
    rng = SeededDraws(SEED)

    def measure(seq: list[float]) -> tuple[float, float]:
        stat, worst, at = 0.0, None, 0
        for g in groups:
            s = fsum(seq[at:at + len(g)])
            stat, at = stat + s * s / len(g), at + len(g)
            worst = s / len(g) if worst is None else min(worst, s / len(g))
        return round(stat, 9), worst
    out = [measure(flat)]
    for _ in range(shuffles):
        for k in range(len(flat) - 1, 0, -1):          # Fisher-Yates, seeded
            j = rng.below(k + 1)
            flat[k], flat[j] = flat[j], flat[k]
        out.append(measure(flat))
    return tuple(a for a, _ in out), tuple(b for _, b in out)


@lru_cache(maxsize=4096)
def null_law(groups: tuple[tuple[float, ...], ...]) -> tuple:
    """(observed statistic, ((statistic, probability), ...) sorted, total sum of squares): the
    exact law when the table is small enough (`exact`), else the Monte-Carlo one of `_shuffled`
    (the observed table counted among its shuffles, each of equal weight)."""
    if exact(groups):
        return _exact_law(groups)
    stats, _ = _shuffled(groups)
    law: dict[float, float] = {}
    for stat in stats:
        law[stat] = law.get(stat, 0.0) + 1 / len(stats)
    flat = [v for g in groups for v in g]
    mean = fsum(flat) / len(flat)
    return stats[0], tuple(sorted(law.items())), fsum((v - mean) ** 2 for v in flat)


def _exact_law(groups: tuple[tuple[float, ...], ...]) -> tuple:
    """(observed statistic, ((statistic, probability), ...) sorted, total sum of squares) for one
    case: the exact law of sum_g S_g^2 / n_g (S_g a phrasing's credit sum) over every arrangement
    of the case's tries with the phrasings' sizes kept. Dynamic programming over phrasings: the
    state is the tries still unplaced (a count per credit value) and the statistic so far, each
    with its number of arrangements (whole numbers, so the law is exact)."""
    values = sorted({v for g in groups for v in g})
    counts = tuple(sum(v == x for g in groups for v in g) for x in values)
    total = sum(counts)
    grand = fsum(v for g in groups for v in g)
    tss = fsum((v - grand / total) ** 2 for g in groups for v in g) if total else 0.0
    observed = fsum(fsum(g) ** 2 / len(g) for g in groups)
    states: dict[tuple, dict[float, int]] = {counts: {0.0: 1}}       # unplaced -> {stat: arrangements}
    for g in groups:
        nxt: dict[tuple, dict[float, int]] = {}
        for remaining, laws in states.items():
            for take in _compositions(len(g), remaining):
                s = fsum(k * x for k, x in zip(take, values))
                add, ways = s * s / len(g), _multinomial(take)
                bucket = nxt.setdefault(tuple(r - k for r, k in zip(remaining, take)), {})
                for stat, n in laws.items():
                    key = round(stat + add, 9)
                    bucket[key] = bucket.get(key, 0) + n * ways
        states = nxt
    law = states.get(tuple(0 for _ in counts), {})
    every = sum(law.values())
    return round(observed, 9), tuple((s, n / every) for s, n in sorted(law.items())), tss


def _multinomial(parts: tuple[int, ...]) -> int:
    out, seen = 1, 0
    for k in parts:
        seen += k
        out *= comb(seen, k)
    return out


def case_p(groups: tuple) -> tuple[float, float]:
    """(exact p, the smallest p this case's shape and tries could give) for one case."""
    observed, law, _ = null_law(groups)
    p = fsum(w for s, w in law if s >= observed - TOL)
    return min(1.0, p), min(1.0, law[-1][1]) if law else 1.0


def _varies(groups: tuple) -> bool:
    """Can this case's table come out otherwise? Two phrasings or more, tries that differ, and a
    phrasing with more than one try (with one try each, every arrangement looks the same)."""
    flat = [v for g in groups for v in g]
    return len(groups) >= 2 and len(set(flat)) > 1 and any(len(g) > 1 for g in groups)


def _evidence_law(groups: tuple) -> tuple[float, list[float], list[float]]:
    """(observed evidence, its null values, their cumulative probabilities) for one case. A case's
    evidence is -ln of its exact p (Fisher's combination): small p, much evidence; the sum over
    cases is compared with its null draws, so the discreteness of each p costs no calibration."""
    observed, law, _ = null_law(groups)
    tails, acc = [], 0.0
    for _, w in reversed(law):
        acc += w
        tails.append(min(1.0, acc))
    tails.reverse()                               # tails[k] = P(stat >= law[k].stat)
    cum, acc = [], 0.0
    for _, w in law:
        acc += w
        cum.append(acc)
    evidence = [-log(t) for t in tails]
    seen = next((e for (s, _), e in zip(law, evidence) if s >= observed - TOL), 0.0)
    return seen, evidence, cum


@lru_cache(maxsize=16)
def suite_test(tables: tuple, draws: int = DRAWS, seed: int = SEED, level: float = LEVEL) -> dict:
    """The test over a run: `tables` one case_groups(...) per case (cases whose table cannot vary
    count for nothing). Returns the block's `wording_test` without the method text, plus `named`
    (indices into `tables` of the cases Holm names) and `p_by_case` (index -> exact p)."""
    tested = [i for i, g in enumerate(tables) if _varies(g)]
    # decided as soon as some case has two phrasings and a phrasing with two graded tries: then
    # repeats show how much it varies on its own, even when nothing varies (a steady model: p 1)
    decidable = any(len(g) >= 2 and any(len(x) > 1 for x in g) for g in tables)
    out = {"level": level, "correction": CORRECTION, "draws": draws, "seed": seed,
           "cases_tested": len(tested), "decidable": decidable}
    if not tested:
        return {**out, "p": 1.0 if decidable else None, "statistic": 0.0 if decidable else None,
                "threshold": None, "cases_reachable": 0, "smallest_possible_p": None, "named": (), "p_by_case": {}}
    laws = [_evidence_law(tables[i]) for i in tested]
    statistic = fsum(law[0] for law in laws)
    rng, totals = SeededDraws(seed), [0.0] * draws
    unit = float(1 << 53)
    for _, values, cum in laws:                 # case by case: draws' arrangements of this case
        top, last = cum[-1] / unit, len(values) - 1
        for d, x in enumerate(rng.below_many(1 << 53, draws)):
            totals[d] += values[min(last, bisect_left(cum, x * top))]
    above = sum(total >= statistic - 1e-9 for total in totals)
    p = (1 + above) / (1 + draws)
    per = {i: case_p(tables[i]) for i in tested}
    m = len(tested)
    smallest = min(q for _, q in per.values())
    named: list[int] = []
    if p <= level:                      # gatekeeping: cases are named only when wording matters at all
        for rank, (i, (q, _)) in enumerate(sorted(per.items(), key=lambda kv: kv[1][0])):
            if q > level / (m - rank):
                break
            named.append(i)
    return {**out, "p": round(p, 4), "statistic": round(statistic, 4), "threshold": round(level / m, 6),
            "cases_reachable": sum(q <= level / m + 1e-12 for _, q in per.values()),
            "smallest_possible_p": round(smallest, 6), "named": tuple(sorted(named)),
            "p_by_case": {i: round(q, 6) for i, (q, _) in per.items()}}


@lru_cache(maxsize=4096)
def expected_worst(groups: tuple[tuple[float, ...], ...]) -> float | None:
    """The case's worst phrasing credit expected by chance (see _expected_worst); for a table too
    big to count (`exact`), the mean over `_shuffled`'s seeded shuffles."""
    if not groups or exact(groups):
        return _expected_worst(groups)
    worsts = _shuffled(groups)[1][1:]
    return fsum(worsts) / len(worsts)


def _expected_worst(groups: tuple[tuple[float, ...], ...]) -> float | None:
    """The case's worst phrasing credit expected by chance: the mean, over every arrangement of its
    tries over its phrasings (each keeping its size), of the lowest phrasing mean. Exact (dynamic
    programming over phrasings; the state is the tries still unplaced and the lowest mean so far),
    so no draw is needed: the score is linear in the cases' credits, so the worst-phrasing score
    expected by chance is the usual formula over these. None for a case with no graded try."""
    if not groups:
        return None
    values = sorted({v for g in groups for v in g})
    counts = tuple(sum(v == x for g in groups for v in g) for x in values)
    states: dict[tuple, dict[float, int]] = {counts: {float("inf"): 1}}    # unplaced -> {lowest: arrangements}
    for g in groups:
        nxt: dict[tuple, dict[float, int]] = {}
        for remaining, lows in states.items():
            for take in _compositions(len(g), remaining):
                mean, ways = round(fsum(k * x for k, x in zip(take, values)) / len(g), 9), _multinomial(take)
                bucket = nxt.setdefault(tuple(r - k for r, k in zip(remaining, take)), {})
                for low, n in lows.items():
                    key = min(low, mean)
                    bucket[key] = bucket.get(key, 0) + n * ways
        states = nxt
    law = states.get(tuple(0 for _ in counts), {})
    return fsum(low * n for low, n in law.items()) / sum(law.values())
