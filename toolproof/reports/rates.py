"""A rate as every view shows it: its value, "N of M unit", its 95% interval and which way is good, read from the
card's `rate_counts` and `intervals.rates` (scoring/rates.py computes them; nothing here does).

The text, Markdown and HTML scorecards and the page's rates tiles take these strings, so the
four never disagree on what a rate rests on. A card from before these fields (an old export)
shows "" for the counts and "n/a" for the interval: absent, never guessed.

Pure: returns strings.
"""
from __future__ import annotations

from toolproof.plurals import counted
from toolproof.scoring.scorecard import METRIC_KEYS

from .figures import percent
from .markdown import md_text

RATE_INTERVAL_HEAD = "95% CI"

METRIC_HELP = {
    "schema_valid_rate": "emitted calls whose arguments validate against the tool schema",
    "correct_tool_rate": "expected call slots filled by the right tool",
    "argument_accuracy": "expected argument values that match (where the right tool was called)",
    "hallucinated_tool_rate": "emitted calls to a tool the case did not offer",
    "over_call_rate": "should-not-call cases where the model called anyway",
    "under_call_rate": "cases needing a call where the model did not call",
    "premature_call_rate": "must-ask cases where the model called instead of asking",
    "injection_compliance_rate": "injection cases where the model obeyed the hostile text, by a call or in words",
    "utility_under_attack": "injection cases where the model still did the user's task (right calls, right answer)",
}
LOWER_IS_BETTER = {"hallucinated_tool_rate", "over_call_rate", "under_call_rate",
                   "premature_call_rate", "injection_compliance_rate"}


def better(key: str) -> str:
    """Which way a rate is good, as every view says it beside the rate: some rates are better
    high, some low (injection compliance low, utility under attack high), so no heading can."""
    return "↓ lower is better" if key in LOWER_IS_BETTER else "↑ higher is better"


def rate_count_text(card: dict, key: str) -> str:
    """'177 of 210 calls', '0 of 1 case'; '' when the card has no counts for the rate."""
    found = _field(card.get("rate_counts"), key)
    if not {"numerator", "denominator", "unit"} <= set(found):
        return ""
    return f"{found['numerator']} of {counted(found['denominator'], str(found['unit']))}"


def rate_interval_text(card: dict, key: str) -> str:
    """'72.7–92.3%' (one decimal, as the rate itself); 'n/a' when the rate has none (null); ''
    when the card has no rate intervals (not drawn yet, or a card from before them)."""
    intervals = card.get("intervals")
    block = intervals.get("rates") if isinstance(intervals, dict) else None
    if not isinstance(block, dict):
        return ""
    bounds = _field(block, key)
    if not all(isinstance(bounds.get(end), (int, float)) for end in ("low", "high")):
        return "n/a"
    return f"{100 * bounds['low']:.1f}–{100 * bounds['high']:.1f}%"


def _field(block: object, key: str) -> dict:
    """block[key] when both are objects, else {}: a card's block read without trusting its shape."""
    found = block.get(key) if isinstance(block, dict) else None
    return found if isinstance(found, dict) else {}


def rates_method_line(card: dict) -> str:
    """'95% CI: <method>' under a rates table; '' when the card has no rate intervals."""
    method = (card.get("intervals") or {}).get("rates_method")
    return f"{RATE_INTERVAL_HEAD}: {method}." if method else ""


def rates_text(card: dict) -> list[str]:
    """The rates table's lines: each rate, its interval, what it rests on, which way is good."""
    lines = [f"  {'':<27} {'value':>7} {RATE_INTERVAL_HEAD:>13}    {'of':<26} meaning"]
    for key in METRIC_KEYS:
        lines.append(f"  {key:<27} {percent(card['metrics'][key]):>7} {rate_interval_text(card, key):>13} "
                     f"{better(key)[0]}  {rate_count_text(card, key):<26} {METRIC_HELP[key]}")
    method = rates_method_line(card)
    return lines + ([f"  {method}"] if method else [])


def rates_markdown(card: dict) -> list[str]:
    """The rates as a Markdown table, with the interval's method under it."""
    lines = ["", "## Rates", "", f"| metric | value | {RATE_INTERVAL_HEAD} | of | better | meaning |",
             "|---|---:|---:|---:|---|---|"]
    for key in METRIC_KEYS:
        lines.append(f"| `{key}` | {percent(card['metrics'][key])} | {rate_interval_text(card, key)} | "
                     f"{md_text(rate_count_text(card, key))} | {better(key)} | {METRIC_HELP[key]} |")
    method = rates_method_line(card)
    return lines + (["", md_text(method)] if method else [])
