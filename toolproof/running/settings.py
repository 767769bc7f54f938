"""A live run's settings: what is sent and how (provider, model, cap, retries, sampling, extra
headers), what a results file keeps of them (never the key; a secret-looking header's value
is redacted), and the one table of their bounds with the check that the terminal's flags and the
page's form both call (BOUNDS, check_value).

Pure: no I/O. Must not hold a secret where it is recorded: `recorded()` is what files keep. Must
not write a bound anywhere but BOUNDS, nor a setting's name as an edge shows it (`--timeout`, "The
timeout"): the edges name it, this module phrases the bound.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from toolproof.providers.dispatch import header_is_secret, sends_seed, shown_headers
from toolproof.safe_text import printable

@dataclass
class RunSettings:
    provider: str                  # one of providers.PROVIDERS
    model: str
    api_key: str = ""
    base_url: str = ""
    scope: str = "all"             # "all" or one category id
    cap: int = 10
    pause_s: float = 0.15
    timeout_s: float = 45.0
    retries: int = 2
    backoff_s: float = 1.0
    max_tokens: int = 1024
    pad_levels: tuple = ()         # tool-count sweep (sweep.py): () = no padding
    pad_seed: int = 0
    repeats: int = 1               # each case sent this many times, as independent conversations
    phrasings: str | int = "base"  # which wordings of each prompt: "base", "all" or N (model.chosen_phrasings)
    concurrency: int = 1           # requests in flight at most (1: one case after another)
    prices: dict | None = None     # USD per million tokens, recorded for the reader (cost.check_prices)
    temperature: float | None = None   # None: not sent (the server's default)
    seed: int | None = None            # sent where the provider has the field (dispatch.sampling)
    headers: tuple = ()                # extra (name, value) headers (dispatch.parse_header)

    def secrets(self) -> tuple:
        """Every value to redact from what is kept and shown: the key, secret-looking headers."""
        return (self.api_key, *(v for n, v in self.headers if header_is_secret(n, v)))

    def recorded(self) -> dict:
        """The settings a results file keeps (never the key)."""
        out = {"max_tokens": self.max_tokens, "timeout_s": self.timeout_s, "cap": self.cap,
               "scope": self.scope, "retries": self.retries, "pause_s": self.pause_s,
               "repeats": self.repeats, "concurrency": self.concurrency}
        out.update(temperature=self.temperature, seed=self.seed if sends_seed(self.provider) else None)
        if self.headers:
            out["headers"] = shown_headers(self.headers)
        if self.pad_levels:
            out.update(pad=list(self.pad_levels), pad_seed=self.pad_seed)
        if self.phrasings != "base":     # absent: the base phrasing only (files as before phrasings)
            out["phrasings"] = self.phrasings
        return {**out, "prices": self.prices} if self.prices is not None else out


# -- The bounds of every run setting a user types, in one table. The terminal's flags (cli/live.py)
# and the page's form (running/settings_form.py, rendered by page/runform.py) both check through
# `check_value`; each names the setting its own way (`--timeout`, "The timeout"), but the edges and
# the phrase that states them come only from here. Every edge is included: no setting needs an open
# one, so one phrase ("between A and B") states them all.

@dataclass(frozen=True)
class Bound:
    """One run setting's edges (data only): `kind` "int" (a whole number), "float" (any finite
    number) or "count" (how many of something: "at most N"); `high` None: no upper edge here (the
    cap's is the run's own need, given by the caller); `optional`: None or blank means not sent."""
    kind: str
    low: int | float
    high: int | float | None = None
    unit: str = ""
    optional: bool = False

    @property
    def whole(self) -> bool:
        return self.kind != "float"

    def phrase(self, high: int | float | None = None) -> str:
        """'between 1 and 20', 'between 0.1 and 3600 seconds', 'at least 1', 'at most 32'."""
        high = self.high if high is None else high
        unit = f" {self.unit}" if self.unit else ""
        if high is None:
            return f"at least {_number(self.low)}{unit}"
        if self.kind == "count":
            return f"at most {_number(high)}{unit}"
        return f"between {_number(self.low)} and {_number(high)}{unit}"


# The pad seed stops at 2**53 - 1 (JavaScript's Number.MAX_SAFE_INTEGER), in the terminal too: a
# results file is read by the page and by any JavaScript JSON reader, where a larger whole number
# is rounded (2**53 + 1 reads as 2**53), so a sweep's recorded seed would no longer redraw its
# tools. The terminal allowed up to 2**63 - 1 and the page 2**53 (read through a float, so it took
# "9007199254740993" as 2**53): one bound, exact in both.
# The timeout starts at 0.1 s, in the terminal too (it took anything above 0): no request to a
# model answers sooner, so a smaller deadline only spends the cap on retries that must time out.
# The page's #timeout field says min="0.1" and the tests' shortest deadline is 0.4 s.
BOUNDS: dict[str, Bound] = {
    "cap": Bound("int", 1),                         # upper edge: the run's need with every retry
    "timeout_s": Bound("float", 0.1, 3600, "seconds"),
    "max_tokens": Bound("int", 1, 1_000_000),
    "repeats": Bound("int", 1, 20),
    "concurrency": Bound("int", 1, 16),
    "temperature": Bound("float", 0, 2, optional=True),
    "seed": Bound("int", 0, 2 ** 31 - 1, optional=True),
    "pad_seed": Bound("int", 0, 2 ** 53 - 1),
    "headers": Bound("count", 0, 32),               # how many extra headers
    "pause_s": Bound("float", 0, 60, "seconds"),    # the terminal's hidden --pause only
}
# Not numbers, so not here, but one rule each that both edges call: pad levels (sweep.parse_levels),
# phrasings (suite.model.phrasing_choice), prices (scoring.cost.check_prices, grade's and board's too).


def _number(value: int | float) -> str:
    """An edge as the messages write it: 3600, 0.1, 9007199254740991 (never 3600.0 or 1e+06)."""
    return str(int(value)) if float(value).is_integer() else repr(float(value))


@dataclass(frozen=True)
class Problem:
    """A value outside its setting's bound: which setting, the bound, the value as given."""
    name: str
    bound: Bound
    got: object
    high: int | float | None = None      # a caller's upper edge (the cap's), else the table's

    @property
    def phrase(self) -> str:
        return self.bound.phrase(self.high)

    def shown(self) -> str:
        """The value as the terminal echoes it: 0, nan, 1e+308, 21, a text quoted and cut."""
        if isinstance(self.got, float):
            return f"{self.got:g}"
        if isinstance(self.got, str):
            return repr(printable(self.got[:40]))
        if isinstance(self.got, int) and self.got.bit_length() > 1000:
            return "a whole number too long to show"      # str() refuses past 4300 digits
        return str(self.got)

    def terminal(self, flag: str) -> str:
        """'--repeats must be between 1 and 20, got 21' ('at most 32 --header flags, got 33')."""
        if self.bound.kind == "count":
            return f"{self.phrase} {flag}, got {self.shown()}"
        return f"{flag} must be {self.phrase}, got {self.shown()}"

    def page(self, label: str, note: str = "") -> str:
        """'Repeats must be a whole number between 1 and 20.' ('At most 32 extra headers.'): the
        page's form takes text, so it says which kind of number too."""
        if self.bound.kind == "count":
            return f"{self.phrase[0].upper()}{self.phrase[1:]} {label}{note}."
        kind = "a whole number" if self.bound.whole else "a number"
        note = note or (" (blank: not sent)" if self.bound.optional else "")
        return f"{label} must be {kind} {self.phrase}{note}."


def check_value(name: str, raw: object, *, high: int | float | None = None) -> tuple:
    """(the value checked, None) or (None, Problem) for the setting `name` of BOUNDS. `raw` is what
    the edge has: a number (argparse's) or the page's text, parsed here so the page and the terminal
    give one verdict. An optional setting's None or blank text is (None, None): not sent. `high`: a
    caller's upper edge within the table's (the cap's: the run's need with every retry)."""
    bound = BOUNDS[name]
    top = min((h for h in (bound.high, high) if h is not None), default=None)
    if bound.optional and (raw is None or isinstance(raw, str) and not raw.strip()):
        return None, None
    value = _parsed(raw, bound.whole)
    if value is None or value < bound.low or top is not None and value > top:
        return None, Problem(name, bound, raw, high)
    return (int(value) if bound.whole else float(value)), None


def _parsed(raw: object, whole: bool) -> int | float | None:
    """A finite number, or None. A text is read as the terminal's argparse reads the flag (int() or
    float()), so a value typed in the page and on the command line gets one verdict."""
    if isinstance(raw, bool):
        return None
    if isinstance(raw, int):
        return raw                # compared exactly, at any size; made a float only once in bounds
    if isinstance(raw, float):
        return raw if math.isfinite(raw) and (not whole or raw.is_integer()) else None
    if not isinstance(raw, str) or len(raw) > 100:      # longer: out of every bound, or not a number
        return None
    try:
        value = int(raw) if whole else float(raw)
    except ValueError:
        return None
    return value if whole or math.isfinite(value) else None


def checked(raws: dict, *, high: dict | None = None) -> tuple[dict, Problem | None]:
    """Every setting of `raws` (name: raw value) checked in the order given: (the values, None) or
    ({}, the first Problem). `high`: callers' upper edges by name (the cap's)."""
    values = {}
    for name, raw in raws.items():
        value, problem = check_value(name, raw, high=(high or {}).get(name))
        if problem:
            return {}, problem
        values[name] = value
    return values, None
