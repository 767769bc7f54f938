"""`run` without --cap: the cap is the plan's need, by the rule the page's #cap starts at
(running.workplan.plan_need), with room for every retry (workplan.cap_most), so a first run grades
its whole scope (issue 38: the old default of 10 graded 10 of 72 cases and exited 3; a cap of
exactly the need let one retried 500 cost later cases their budget)."""
from __future__ import annotations

import json

import pytest

from clirun import cli_with
from toolproof.datafiles import load_bundle
from toolproof.running.sweep import sweep_need
from toolproof.running.workplan import cap_most, plan_need
from toolproof.suite.model import requests_needed, scoped

CASES = load_bundle().cases
cli = cli_with({"TOOLPROOF_API_KEY": "sk-cap-test"})


def live(fake, *argv: str, allow_incomplete: bool = True):
    partial = ["--allow-incomplete"] if allow_incomplete else []
    return cli("run", "--provider", "openai-compatible", "--base-url", fake.base + "/v1", "--model", "fake",
               "--pause", "0", *partial, *argv)


def test_without_cap_the_run_grades_its_whole_plan(fake):
    code, stdout, stderr = live(fake, "--scope", "injection", "--repeats", "2", "--format", "json",
                                allow_incomplete=False)
    need = 2 * requests_needed(scoped(CASES, "injection"))
    assert code == 0, stderr
    assert f"up to {need} requests; cap {cap_most(need, 2)} (the need, {need}, with room for every retry: --cap to lower it)\n" in stderr
    card = json.loads(stdout)
    runs = 2 * len(scoped(CASES, "injection"))        # every injection case, twice
    assert card["coverage"] == {"planned": runs, "graded": runs, "error": 0, "not_started": 0}
    assert 0 < len(fake.requests) <= need      # "at most": a case that calls no tool needs no second turn
    assert "incomplete" not in stderr


def test_the_default_counts_every_phrasing(fake, tmp_path):
    out = tmp_path / "worded.json"
    code, _, stderr = live(fake, "--scope", "must_ask", "--phrasings", "2", "--out", str(out),
                           allow_incomplete=False)
    need = requests_needed(scoped(CASES, "must_ask"), 2)
    assert code == 0, stderr
    assert f"cap {cap_most(need, 2)} (the need, {need}, with room for every retry: --cap to lower it)" in stderr
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert doc["settings"]["cap"] == cap_most(need, 2) and not doc.get("not_started")


def test_a_given_cap_is_kept_and_not_called_the_need(fake):
    code, _, stderr = live(fake, "--scope", "must_ask", "--cap", "4")
    assert code == 0, stderr
    assert "; cap 4\n" in stderr and "the need" not in stderr
    assert len(fake.requests) <= 4


@pytest.mark.parametrize("argv, line", [
    (["--cap", "0"], "toolproof: --cap must be at least 1, got 0"),
    (["--cap", "99999999999999999999999"], None),        # far above the need: lowered, never an overflow
])
def test_a_hostile_cap(fake, argv, line):
    code, _, stderr = live(fake, "--scope", "must_ask", *argv)
    if line:
        assert code == 2 and stderr.strip().splitlines()[-1] == line
    else:
        need = requests_needed(scoped(CASES, "must_ask"))
        assert code == 0, stderr
        assert f"cap lowered to {cap_most(need, 2)}" in stderr


def test_plan_need_is_the_runner_s_need_for_every_shape():
    # the page's #cap default (page/runform.need) and `run`'s both call plan_need; the runner's
    # own count must agree with it, or the page would offer a cap the run then lowers
    from toolproof.running.runner import Run, RunSettings

    for scope, phrasings, levels, repeats in [("all", "base", (), 1), ("injection", "all", (), 3),
                                               ("should_call", 3, (), 2), ("must_ask", "base", (0, 2), 2)]:
        settings = RunSettings("openai", "m", scope=scope, phrasings=phrasings, pad_levels=levels, repeats=repeats)
        run = Run(CASES, {}, settings, transport=None)
        need = plan_need(CASES, scope, phrasings=phrasings, pad_levels=levels, repeats=repeats)
        assert run.need == need == sweep_need(requests_needed(scoped(CASES, scope), phrasings), levels, repeats)
        assert run.most == cap_most(need, settings.retries) == 3 * need


def test_the_page_reads_its_cap_default_from_the_same_function():
    # a rule kept twice drifts: the page's form must call plan_need and cap_most, not count itself
    # (read as source: page/ imports the browser's modules)
    import ast
    from pathlib import Path

    import toolproof

    tree = ast.parse((Path(toolproof.__file__).parent / "page" / "runform.py").read_text(encoding="utf-8"))
    form = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "RunForm")
    methods = {n.name: n for n in form.body if isinstance(n, ast.FunctionDef)}
    called = {name: {c.func.id for c in ast.walk(methods[name]) if isinstance(c, ast.Call)
                     and isinstance(c.func, ast.Name)} for name in ("need", "most")}
    assert "plan_need" in called["need"] and not called["need"] & {"requests_needed", "sweep_need"}
    assert "cap_most" in called["most"]


def test_without_cap_a_retried_request_costs_no_later_case(fake, tmp_path):
    # the fixture scripts a 500 for ruse-transfer-outcome on every try, so each of its
    # conversations is retried; with a cap of exactly the need those retries took later
    # conversations' budget: 5 of 56 were never started (then 72 cases)
    out = tmp_path / "retried.json"
    worded = ("--scope", "result_use", "--phrasings", "all", "--repeats", "2")
    code, _, stderr = live(fake, *worded, "--out", str(out))
    need = plan_need(CASES, "result_use", phrasings="all", repeats=2)
    doc = json.loads(out.read_text(encoding="utf-8"))
    runs = 2 * sum(1 + len(c.phrasings) for c in scoped(CASES, "result_use"))    # every phrasing, twice
    assert not doc.get("not_started") and len(doc["transcripts"]) == runs, stderr
    failing = next(c for c in CASES if c.id == "ruse-transfer-outcome")
    assert f"({2 * (1 + len(failing.phrasings))} ERROR, 0 not started)" in stderr     # each of its phrasings, twice
    assert len(fake.requests) > need            # only the retries spent past the need
    code, _, stderr = live(fake, *worded, "--cap", str(need))
    assert "ERROR, 0 not started)" not in stderr and " not started)" in stderr   # a retry cost cases
