"""A live run's settings: what is sent and how (provider, model, cap, retries, sampling, extra
headers), and what a results file keeps of them (never the key; a secret-looking header's value
is redacted).

Pure: no I/O. Must not hold a secret where it is recorded: `recorded()` is what files keep.
"""
from __future__ import annotations

from dataclasses import dataclass

from toolproof.providers.dispatch import header_is_secret, sends_seed, shown_headers

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
