"""The page's run form read without the page (running/settings_form.py): its lines, and the same
verdict as the terminal's flags for every value typed in both, since both check through
running/settings.py's one table."""
from __future__ import annotations

import math

import pytest

from toolproof.cli.live import FLAGS, _check_run_flags, _pad_levels
from toolproof.cli.main import _parser, _UsageError
from toolproof.errors import ToolProofError
from toolproof.running.settings import BOUNDS
from toolproof.running.settings_form import (FIELD_IDS, LABELS, PRICES_LINE, form_numbers, pad_seed,
                                             prices_from_form, sampling_from_form)

GOOD = {"cap": "5", "timeout_s": "45", "max_tokens": "1024", "repeats": "1", "concurrency": "1"}


def form(**texts: str) -> tuple:
    return form_numbers({**GOOD, **texts}, most=36, need=12)


def test_every_setting_is_named_by_both_edges():
    assert set(FLAGS) == set(BOUNDS)
    assert set(LABELS) == set(BOUNDS) - {"pause_s"}           # the page has no pause field
    assert set(FIELD_IDS) == set(LABELS) - {"headers"}         # headers are counted, never typed


def test_the_forms_numbers_come_back_checked():
    assert form() == ({"cap": 5, "timeout_s": 45.0, "max_tokens": 1024, "repeats": 1, "concurrency": 1}, None)
    assert form(cap="36", timeout_s="0.1", repeats="20")[0]["timeout_s"] == 0.1


@pytest.mark.parametrize("texts, line", [
    ({"cap": "37"}, "The request cap must be a whole number between 1 and 36 for this scope (its need, 12, "
                    "with every retry allowed for)."),
    ({"cap": "", "timeout_s": "0"}, "The request cap must be a whole number between 1 and 36 for this scope "
                                    "(its need, 12, with every retry allowed for)."),
    ({"timeout_s": "0.09"}, "The timeout must be a number between 0.1 and 3600 seconds."),
    ({"timeout_s": "nan"}, "The timeout must be a number between 0.1 and 3600 seconds."),
    ({"max_tokens": "2.5"}, "Max tokens must be a whole number between 1 and 1000000."),
    ({"repeats": "1e309"}, "Repeats must be a whole number between 1 and 20."),
    ({"concurrency": "17"}, "Concurrency must be a whole number between 1 and 16."),
])
def test_the_first_number_out_of_bounds_is_said(texts, line):
    assert form(**texts) == ({}, line)


def test_the_pad_seed():
    assert pad_seed("0") == (0, None) and pad_seed(str(2 ** 53 - 1)) == (2 ** 53 - 1, None)
    line = "The pad seed must be a whole number between 0 and 9007199254740991."
    for text in (str(2 ** 53), "9007199254740993", "-1", "", "1.5", "1e3"):
        assert pad_seed(text) == (0, line)


@pytest.mark.parametrize("temperature, seed, headers, problem", [
    ("5", "", "", "The temperature must be a number between 0 and 2 (blank: not sent)."),
    ("inf", "", "", "The temperature must be a number between 0 and 2 (blank: not sent)."),
    ("", "-3", "", "The seed must be a whole number between 0 and 2147483647 (blank: not sent)."),
    ("", str(2 ** 31), "", "The seed must be a whole number between 0 and 2147483647 (blank: not sent)."),
    ("", "", "X-A: 1\n" * 33, "At most 32 extra headers."),
    ("", "", "nocolon", None),
])
def test_sampling_problems(temperature, seed, headers, problem):
    got = sampling_from_form(temperature, seed, headers)
    if problem is None:
        assert got[:3] == (None, None, ()) and got[3].startswith("Extra headers: ")
    else:
        assert got == (None, None, (), problem)


def test_sampling_values():
    assert sampling_from_form(" ", "", "\n") == (None, None, (), None)
    assert sampling_from_form("0.7", "42", "X-A: 1\n\nX-B: 2") == (0.7, 42, (("X-A", "1"), ("X-B", "2")), None)
    assert sampling_from_form("2", str(2 ** 31 - 1), "X-A: 1\n" * 32)[:2] == (2.0, 2 ** 31 - 1)


@pytest.mark.parametrize("price_in, price_out, expected", [
    ("", " ", (None, None)),
    ("2.5", "10", ({"input_per_mtok": 2.5, "output_per_mtok": 10.0}, None)),
    ("0", "1e6", ({"input_per_mtok": 0.0, "output_per_mtok": 1e6}, None)),   # as --price-in/--price-out take it
    ("0", "1000001", (None, PRICES_LINE)), ("1e308", "1e308", (None, PRICES_LINE)),  # the cost overflowed
    ("2.5", "", (None, PRICES_LINE)), ("-1", "1", (None, PRICES_LINE)), ("nan", "1", (None, PRICES_LINE)),
    ("1", "inf", (None, PRICES_LINE)), ("1", "1e309", (None, PRICES_LINE)), ("one", "1", (None, PRICES_LINE)),
])
def test_prices(price_in, price_out, expected):
    assert prices_from_form(price_in, price_out) == expected


# -- one verdict: the terminal's flags and the page's form, for the same typed value -----------------

def terminal_refuses(name: str, text: str) -> bool:
    """Is `run --FLAG text` refused: by argparse's type, or by the flag checks `run` makes before
    reading the key or the suite (a ToolProofError naming the flag)?"""
    flag = FLAGS[name]
    try:
        args = _parser().parse_args(["run", "--provider", "openai", "--model", "m", flag, text])
    except _UsageError:
        return True
    args.provider, args.model, args.base_url = "openai", "m", ""     # as run's handle() sets them
    try:
        _check_run_flags(args)
        _pad_levels(args, None)
    except ToolProofError as exc:
        assert exc.line().startswith(f"{flag} must be "), exc.line()
        return True
    return False


def page_refuses(name: str, text: str) -> bool:
    if name in GOOD:
        return form(**{name: text})[1] is not None
    if name == "pad_seed":
        return pad_seed(text)[1] is not None
    return sampling_from_form(**{"temperature": "", "seed": "", "headers": "", name: text})[3] is not None


def _around(name: str) -> list[str]:
    bound = BOUNDS[name]
    texts = ["nan", "inf", "-inf", "1e309", "ten", "2.0", "1e1", "+3", " 4 ", "-1", "0", "9" * 30]
    for edge in (bound.low, bound.high):
        if edge is None:
            continue
        if bound.whole:
            texts += [str(edge - 1), str(edge), str(edge + 1)]
        else:
            texts += [repr(math.nextafter(edge, -math.inf)), repr(float(edge)), repr(math.nextafter(edge, math.inf))]
    return texts


TYPED = [(name, text) for name in ("timeout_s", "max_tokens", "repeats", "concurrency", "temperature", "seed",
                                   "pad_seed") for text in _around(name)]


@pytest.mark.parametrize("name, text", TYPED)
def test_the_terminal_and_the_page_give_one_verdict(name, text):
    assert terminal_refuses(name, text) == page_refuses(name, text)


def test_the_cap_gets_one_verdict_below_its_need():
    # above the need the page refuses (its field has a maximum) and the terminal lowers the cap
    for text in ("-1", "0", "1", "2.0", "nan", "ten"):
        assert terminal_refuses("cap", text) == page_refuses("cap", text), text


def test_the_pages_number_fields_state_the_tables_edges():
    # index.html writes each field's min and max for the browser's spinner: they must be the table's
    import re
    from pathlib import Path

    html = (Path(__file__).resolve().parents[2] / "index.html").read_text(encoding="utf-8")
    for name, field_id in FIELD_IDS.items():
        tag = re.search(rf'<input id="{field_id}"[^>]*>', html).group(0)
        attrs = dict(re.findall(r'(\w+)="([^"]*)"', tag))
        bound = BOUNDS[name]
        assert float(attrs["min"]) == bound.low, name
        assert ("max" in attrs) == (name in ("timeout_s", "max_tokens", "repeats", "concurrency", "temperature")), name
        if "max" in attrs:                     # the cap's is set from the scope; the seeds' would be long
            assert float(attrs["max"]) == bound.high, name
