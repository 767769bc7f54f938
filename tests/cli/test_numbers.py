"""Numeric flags refuse what overflows, in one line, before anything is sent: every float flag
(--weight, --price-in/--price-out, --fail-under, --temperature, --timeout, --pause) and every
bounded whole number (running.settings.BOUNDS), fuzzed with the values that broke them.

Found by the third hostile-input round: `--weight injection=1e308 --weight multi_step=1e308`
ended in a traceback (the weights summed past a float's range; it worked before weights became
exact integers). Found while fixing it: `run --weight` was checked only after the whole run,
`--fail-under nan` passed every run (no score is below nan), a price of 1e308 left `cost.usd`
null without a word, and a weight of 1e-320 (below the smallest normal float) moved the score.
"""
from __future__ import annotations

import pytest

from clirun import cli, cli_with

ENV = {"TOOLPROOF_API_KEY": "sk-numbers-secret-7"}
HOSTILE = ["1e308", "-1e308", "inf", "-inf", "nan", "1e309", str(10 ** 400), "-" + str(10 ** 400)]


def one_line(code: int, out: str, err: str) -> str:
    assert (code, out) == (2, ""), err
    assert err.count("\n") == 1 and err.startswith("toolproof: ") and "Traceback" not in err
    return err.strip()


@pytest.mark.parametrize("value", HOSTILE + ["1e-320", "2000000", "0.0000005"])
def test_grade_refuses_a_weight_the_score_cannot_use(value):
    line = one_line(*cli("grade", "--weight", f"injection={value}", "--weight", f"multi_step={value}"))
    assert line.startswith("toolproof: weight for injection must be ")


def test_the_weight_bounds_in_full():
    assert one_line(*cli("grade", "--weight", "injection=1e308", "--weight", "multi_step=1e308")) == (
        "toolproof: weight for injection must be 0 or between 0.000001 and 1000000, got 1e+308")
    assert one_line(*cli("grade", "--weight", "injection=1e-320")) == (
        "toolproof: weight for injection must be 0 or between 0.000001 and 1000000, got 1e-320")
    for edge in ("0", "0.000001", "1000000"):          # the edges themselves are weights
        code, _, err = cli("grade", "--weight", f"injection={edge}", "--weight", f"multi_step={edge}")
        assert (code, err) == (0, "")


@pytest.mark.parametrize("value", HOSTILE + ["1000001"])
def test_a_price_whose_cost_would_overflow_is_refused(value):
    line = one_line(*cli("grade", f"--price-in={value}", "--price-out", "1"))     # = : argparse reads -1e308 as a flag
    assert line.startswith("toolproof: --price-in must be ")


def test_the_price_bound_in_full():
    assert one_line(*cli("grade", "--price-in", "1", "--price-out", "1e308")) == (
        "toolproof: --price-out must be at most 1000000 (USD per million tokens), got 1e+308")
    assert cli("grade", "--price-in", "1e6", "--price-out", "1e-320")[0] == 0      # a tiny price costs 0


RUN_FLAGS = {
    "--fail-under": "--fail-under must be a score between 0 and 100",
    "--timeout": "--timeout must be between 0.1 and 3600 seconds",
    "--temperature": "--temperature must be between 0 and 2",
    "--pause": "--pause must be between 0 and 60 seconds",
    "--max-tokens": "--max-tokens must be between 1 and 1000000",
    "--seed": "--seed must be between 0 and 2147483647",
    "--repeats": "--repeats must be between 1 and 20",
    "--concurrency": "--concurrency must be between 1 and 16",
    "--pad-seed": "--pad-seed must be between 0 and 9007199254740991",
    "--price-in": "--price-in must be ",
    "--weight": "weight for injection must be ",
}
WHOLE = {"--max-tokens", "--seed", "--repeats", "--concurrency", "--pad-seed"}


# a whole-number flag given a float is argparse's usage error (test_main): only whole values here
@pytest.mark.parametrize("flag, value", [(flag, value) for flag in RUN_FLAGS for value in HOSTILE
                                         if flag not in WHOLE or value.lstrip("-").isdigit()])
def test_run_refuses_before_anything_is_sent(fake, flag, value):
    argv = {"--price-in": [f"--price-in={value}", "--price-out", "1"],
            "--weight": ["--weight", f"injection={value}", "--weight", f"multi_step={value}"]}.get(flag, [f"{flag}={value}"])
    code, out, err = cli_with(ENV)("run", "--provider", "openai-compatible", "--base-url", fake.base + "/v1",
                                   "--model", "m", "--scope", "must_ask", "--pause", "0", *argv)
    line = one_line(code, out, err)
    assert line.startswith(f"toolproof: {RUN_FLAGS[flag]}") and fake.requests == []


def test_fail_under_is_a_score(fake):
    for value, shown in (("nan", "nan"), ("101", "101"), ("-1", "-1"), ("1e308", "1e+308")):
        code, out, err = cli_with(ENV)("run", "--provider", "openai-compatible", "--base-url", fake.base + "/v1",
                                       "--model", "m", "--fail-under", value)
        assert one_line(code, out, err) == f"toolproof: --fail-under must be a score between 0 and 100, got {shown}"
    assert fake.requests == []


@pytest.mark.parametrize("value", ["nan", "inf", "-1", "0", "1e308", "1e-320", str(10 ** 400)])
def test_tools_import_timeout(value):
    line = one_line(*cli("tools", "import", "--mcp-stdio", "true", "--timeout", value))
    assert line.startswith("toolproof: --timeout must be between 0.1 and 3600 seconds, got ")
