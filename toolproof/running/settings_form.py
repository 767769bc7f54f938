"""The page's run form read as run settings, without the page: the form's texts checked through
running.settings' one table (the terminal's flags call the same check), and the line the page
shows when one is out of bounds. page/runform.py only reads the DOM fields and shows these lines.

Pure: no I/O, no DOM. Must not write a bound (BOUNDS in settings.py holds them all) nor decide
anything the terminal would decide otherwise: a value gets one verdict in both.
"""
from __future__ import annotations

from toolproof.errors import ToolProofError
from toolproof.providers.dispatch import parse_header
from toolproof.running.settings import Problem, check_value, checked
from toolproof.scoring.cost import MAX_PRICE, check_prices

# How the page names each run setting (the terminal's names are cli/live.py's FLAGS).
LABELS = {"cap": "The request cap", "timeout_s": "The timeout", "max_tokens": "Max tokens",
          "repeats": "Repeats", "concurrency": "Concurrency", "temperature": "The temperature",
          "seed": "The seed", "pad_seed": "The pad seed", "headers": "extra headers"}

# The form's field ids (index.html) for each setting it has; the page's form has no pause.
FIELD_IDS = {"cap": "cap", "timeout_s": "timeout", "max_tokens": "max-tokens", "repeats": "repeats",
             "concurrency": "concurrency", "temperature": "temperature", "seed": "seed",
             "pad_seed": "pad-seed"}


def line(problem: Problem, note: str = "") -> str:
    """What the page says about a value out of bounds, e.g. 'Repeats must be a whole number
    between 1 and 20.'"""
    return problem.page(LABELS[problem.name], note)


def form_numbers(texts: dict[str, str], *, most: int, need: int) -> tuple[dict, str | None]:
    """The form's cap, timeout, max tokens, repeats and concurrency (setting name: the field's
    text), checked in that order: (values, None) or ({}, the line to show). The cap's upper edge is
    the scope's `most` (its `need` with every retry), which the page refuses past; the terminal
    lowers a cap past it instead, since a flag has no field to correct."""
    values, problem = checked(texts, high={"cap": most})
    if problem is None:
        return values, None
    note = f" for this scope (its need, {need}, with every retry allowed for)" if problem.name == "cap" else ""
    return {}, line(problem, note)


def pad_seed(text: str) -> tuple[int, str | None]:
    """#pad-seed: (the seed, None) or (0, the line to show)."""
    value, problem = check_value("pad_seed", text)
    return (value, None) if problem is None else (0, line(problem))


def sampling_from_form(temperature: str, seed: str, headers: str) -> tuple:
    """The run form's #temperature, #seed and #headers (one `NAME: VALUE` a line) as
    (temperature or None, seed or None, ((name, value), ...), problem or None): blank means not
    sent, as `run` without --temperature / --seed / --header."""
    lines = [text for text in headers.splitlines() if text.strip()]
    values, problem = checked({"temperature": temperature, "seed": seed, "headers": len(lines)})
    if problem:
        return None, None, (), line(problem)
    try:
        parsed = tuple(parse_header(text) for text in lines)
    except ToolProofError as exc:
        return None, None, (), f"Extra headers: {exc.line()}."
    return values["temperature"], values["seed"], parsed, None


PRICES_LINE = f"Give both prices as numbers from 0 to {MAX_PRICE} (USD per million tokens), or leave both empty."


def prices_from_form(price_in: str, price_out: str) -> tuple[dict | None, str | None]:
    """#price-in and #price-out as cost prices: (prices or None, None) or (None, what is wrong).
    Both or neither, each as `run --price-in/--price-out` takes it (scoring.cost.check_prices: the
    one price rule, which `grade` and `board` share)."""
    raw = [price_in.strip(), price_out.strip()]
    if not any(raw):
        return None, None
    try:
        return check_prices(*(float(text) for text in raw)), None
    except (ValueError, ToolProofError):      # not a number, or not a finite one from 0
        return None, PRICES_LINE
