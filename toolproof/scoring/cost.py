"""What a run cost: requests, tokens, latency and, given prices, US dollars.

Computed from the transcripts alone (every repeat, every turn, every variant), so a re-grade of a
results file gives the same figures. Each request is counted once: a counterfactual variant
stores the first turn it reused (the runner never sends it again), so a variant's first turn is
counted only when it differs from the case's own first turn. Tokens are the provider's reported
usage in each response body; latency is each answered turn's `elapsed_ms`, its mean taken over an
exactly rounded sum (`math.fsum`), so the order the transcripts come in (the page's, a results
file's) never moves the last digit. Requests that failed count as requests but have no latency; a
turn's `attempts` (retries included, as the runner records them) is the number of requests it took
(1 when absent). Prices are USD per million tokens, given by the user (never guessed).

Pure: no I/O.
"""
from __future__ import annotations

import math

from toolproof.errors import ToolProofError
from .stats import percentiles
from toolproof.grading.transcripts import Transcript


# No price per million tokens above this: at 1e308 the cost of any run overflowed to inf and the
# card said nothing (cost.usd null). No model has come within a thousandth of it.
MAX_PRICE = 1_000_000


def check_prices(price_in: float | None, price_out: float | None) -> dict | None:
    """{"input_per_mtok", "output_per_mtok"} or None; both or neither, finite, from 0 to MAX_PRICE."""
    if price_in is None and price_out is None:
        return None
    if price_in is None or price_out is None:
        raise ToolProofError("give both --price-in and --price-out (USD per million tokens)")
    for name, value in (("--price-in", price_in), ("--price-out", price_out)):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
            raise ToolProofError(f"{name} must be a finite number >= 0 (USD per million tokens), got {value!r}")
        if value > MAX_PRICE:
            raise ToolProofError(f"{name} must be at most {MAX_PRICE} (USD per million tokens), got {value:g}")
    return {"input_per_mtok": price_in, "output_per_mtok": price_out}


def _turns(transcript: Transcript):
    """(Turn, raw turn) for every request the transcript records as sent, each once."""
    own = transcript.raw.get("turns", [])
    yield from zip(transcript.turns, own)
    for (_, turns), raw in zip(transcript.variants, transcript.raw.get("variants", [])):
        pairs = list(zip(turns, raw.get("turns", [])))
        reused = bool(pairs) and bool(own) and pairs[0][1] == own[0]
        yield from pairs[1:] if reused else pairs


def _attempts(raw: dict) -> int:
    value = raw.get("attempts")
    return value if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 100 else 1


def _elapsed(raw: dict) -> float | None:
    value = raw.get("elapsed_ms")
    ok = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value) and value >= 0
    return float(value) if ok else None


def cost(transcripts: list[Transcript], passes: int, prices: dict | None = None) -> dict:
    """The scorecard's `cost` object; `passes` = case runs (every repeat, every level) whose
    verdict is PASS: `usd_per_passing_run` = usd / passes."""
    requests = tokens_in = tokens_out = 0
    latencies = []
    for transcript in transcripts:
        for turn, raw in _turns(transcript):
            requests += _attempts(raw)
            if turn.reply is None:
                continue
            tokens_in += max(0, turn.reply.usage.get("input", 0))     # a negative count is junk
            tokens_out += max(0, turn.reply.usage.get("output", 0))
            elapsed = _elapsed(raw)
            if elapsed is not None:
                latencies.append(elapsed)
    out = {"requests": requests, "input_tokens": tokens_in, "output_tokens": tokens_out,
           "latency_ms": _latency(latencies), "prices": prices}
    if prices is not None:
        usd = (tokens_in * prices["input_per_mtok"] + tokens_out * prices["output_per_mtok"]) / 1e6
        out["usd"] = round(usd, 6)
        out["usd_per_passing_run"] = round(usd / passes, 6) if passes else None
        out["passing_runs"] = passes
    return out


def _latency(values: list[float]) -> dict | None:
    if not values:
        return None
    points = percentiles(values, (0.5, 0.95))
    return {"mean": round(math.fsum(values) / len(values), 1), "p50": round(points["p50"], 1),
            "p95": round(points["p95"], 1), "max": round(max(values), 1), "answered": len(values)}
