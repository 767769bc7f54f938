"""Simulated rates for benchmarks/interval_coverage.py's "rates" section (issue 38, item 3).

A rate over calls, slots or fields counts several units per case, and a case's units fail
together (one misread prompt, one confusing tool): each model here draws, per simulated suite,
every case's own success probability from a case-level distribution (the clustering), then each
of its units as a coin with that probability. The truth is the population rate, the mean of the
case probabilities (unit counts are drawn independently of them). A rate over cases is the
special case of one unit per case; conversations (phrasings x repeats) are several units per
case too.

Models: (name, cases, units per case (low, high), case probability: ("beta", mean, concentration)
or ("mix", share of cases that are hard, the hard cases' beta mean, concentration) with the rest
at 1, or "flip" to mirror it near 0).

Seeded (random.Random): the same figures every run.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from toolproof.scoring.intervals import clopper_pearson
from toolproof.scoring.rates import clustered_interval

LEVEL = 0.95


@dataclass(frozen=True)
class Model:
    name: str
    cases: int
    units: tuple[int, int]
    hard: float           # share of cases drawn from the beta (the rest always succeed); 1: every case
    mean: float           # the beta's mean
    concentration: float  # the beta's a + b: small, strong clustering
    flip: bool = False    # count failures instead (a rate near 0%)

    @property
    def truth(self) -> float:
        p = 1 - self.hard + self.hard * self.mean
        return 1 - p if self.flip else p


MODELS = (
    Model("calls near 100%: 72 cases, 1-4 calls, 15% of cases hard", 72, (1, 4), 0.15, 0.85, 4),
    Model("calls near 0%: the same, failures counted", 72, (1, 4), 0.15, 0.85, 4, flip=True),
    Model("calls near 100%: 9 cases, 1-4 calls, a third hard", 9, (1, 4), 1 / 3, 0.9, 3),
    Model("calls mid, strong clustering: 72 cases, 1-5 calls", 72, (1, 5), 1.0, 0.6, 2),
    Model("fields mid, mild clustering: 72 cases, 2-6 fields", 72, (2, 6), 1.0, 0.5, 20),
    Model("fields near 100%, no clustering: 72 cases, 2-6 fields", 72, (2, 6), 1.0, 0.99, 1e6),
    Model("conversations: 9 cases x 3 repeats near 100%", 9, (3, 3), 0.3, 0.8, 2),
    Model("conversations: 9 cases x 3 repeats, mid", 9, (3, 3), 1.0, 0.5, 3),
    Model("cases: 28 cases, one conversation each, near 0%", 28, (1, 1), 1.0, 0.97, 1e6, flip=True),
)


def draw(model: Model, rng: random.Random) -> list[tuple[int, int]]:
    """One suite: (successes or failures counted, units) per case."""
    out = []
    a = model.mean * model.concentration
    b = (1 - model.mean) * model.concentration
    for _ in range(model.cases):
        p = rng.betavariate(a, b) if rng.random() < model.hard else 1.0
        m = rng.randint(*model.units)
        y = sum(rng.random() < p for _ in range(m))
        out.append((m - y if model.flip else y, m))
    return out


def coverage(model: Model, suites: int, seed: int) -> dict:
    """{method: (coverage, mean width, zero-width share)} for the shipped clustered interval and
    a plain Clopper-Pearson on the units (what ignoring the clustering gives)."""
    rng = random.Random(seed)
    found = {"shipped": [0, 0.0, 0], "units-binomial": [0, 0.0, 0]}
    for _ in range(suites):
        clusters = draw(model, rng)
        y, m = sum(c[0] for c in clusters), sum(c[1] for c in clusters)
        for name, (low, high) in (("shipped", clustered_interval(clusters, LEVEL)),
                                  ("units-binomial", clopper_pearson(y / m, m, LEVEL))):
            found[name][0] += low <= model.truth <= high
            found[name][1] += high - low
            found[name][2] += high - low < 1e-12
    return {k: (h / suites, w / suites, z / suites) for k, (h, w, z) in found.items()}


def rates_lines(suites: int, seed: int) -> list[str]:
    """The "rates" section as printed lines."""
    lines = [f"\nrates (scoring/rates.py): 95% interval coverage of the population rate, {suites} suites per model",
             f"  {'model':<58} {'truth':>6} {'shipped':>8} {'width':>6} {'zero':>5} {'units-binomial':>15} {'width':>6}"]
    for i, model in enumerate(MODELS):
        r = coverage(model, suites, seed + i)
        lines.append(f"  {model.name:<58} {model.truth:>6.3f} {r['shipped'][0]:>8.3f} {100 * r['shipped'][1]:>6.1f}"
                     f" {r['shipped'][2]:>5.1%} {r['units-binomial'][0]:>15.3f} {100 * r['units-binomial'][1]:>6.1f}")
    return lines
