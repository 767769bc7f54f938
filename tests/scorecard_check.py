"""Every scorecard the tests make is checked against data/schemas/scorecard.schema.json.

The three builders every path goes through (scoring.scorecard.scorecard, the bare card;
scoring.evaluate.card_of, the full one; scoring.evaluate.finish_sweep, a sweep's) are wrapped
wherever a loaded toolproof or test module holds them by name, so `grade`, `run`, `compare`,
the board, the page's Python and the tests' own calls are all seen. A mismatch is recorded, not
raised, because card_of catches what its builder raises (its fallbacks would hide it); the
fixture in tests/conftest.py fails the test at teardown with every mismatch it saw.
"""
from __future__ import annotations

import functools
import importlib
import sys

import jsonschema

from toolproof.datafiles import format_schema
from toolproof.scoring import evaluate

scorecard = importlib.import_module("toolproof.scoring.scorecard")   # the package exports a function of that name
VALIDATOR = jsonschema.Draft202012Validator(format_schema("scorecard"))
BUILDERS = {id(f): f for f in (scorecard.scorecard, evaluate.card_of, evaluate.finish_sweep)}


def problems(card) -> list[str]:
    """Each place the card departs from the schema, as 'JSON path: message' (at most five)."""
    found = sorted(VALIDATOR.iter_errors(card), key=lambda e: e.json_path)
    return [f"{e.json_path}: {e.message[:200]}" for e in found[:5]]


def checked(builder, seen: list, depth: list):
    """`builder` with its card checked on return; a card built inside another builder (card_of's
    bare card, a sweep level's card) is left to the outer one, which returns the same figures."""
    @functools.wraps(builder)
    def wrapper(*args, **kwargs):
        depth.append(builder)
        try:
            card = builder(*args, **kwargs)
        finally:
            depth.pop()
        if not depth:
            seen.extend(f"{builder.__name__}: {p}" for p in problems(card))
        return card
    return wrapper


def wrap_builders(monkeypatch, seen: list) -> None:
    """Replace every binding of the three builders in loaded toolproof and test modules."""
    depth: list = []
    wrapped = {key: checked(f, seen, depth) for key, f in BUILDERS.items()}
    for name, module in list(sys.modules.items()):
        if module is None or not (name.startswith("toolproof") or "test" in name or name in ("conftest",)):
            continue
        for attr, value in list(vars(module).items()):
            if callable(value) and id(value) in wrapped and BUILDERS[id(value)] is value:
                monkeypatch.setattr(module, attr, wrapped[id(value)])
