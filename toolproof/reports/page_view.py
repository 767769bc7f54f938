"""What the page shows, computed without the page: labels, chart geometry, filters, transcripts.

The web front end (`toolproof/page/`) only turns these plain values into DOM nodes, so everything
here is testable in CPython and the panels hold no grading logic.

Pure: no I/O.
"""
from __future__ import annotations

import json
from typing import Any

from toolproof.providers.conversation import case_mocks
from toolproof.reports.scorecard import percent
from toolproof.providers.catalog import CATALOGUE, PROVIDER
from toolproof.providers.dispatch import origin_of, request_body
from toolproof.secrets import redact
from toolproof.suite.categories import CASE_CATEGORIES, CATEGORY
from toolproof.suite.model import BASE, CATEGORIES, Case, Tool, chosen_phrasings, requests_needed, scoped
from toolproof.grading.transcripts import as_offered
from toolproof.limits import ReadError, read_json
from toolproof.plurals import counted
from toolproof.reports.card_counts import requests_label
from toolproof.grading.transcripts import Transcript

CATEGORY_LABELS = {c.id: c.label for c in CATEGORY.values()}
METRIC_LABELS = {
    "schema_valid_rate": "Schema-valid calls", "correct_tool_rate": "Correct tool",
    "argument_accuracy": "Argument accuracy", "hallucinated_tool_rate": "Hallucinated tools",
    "over_call_rate": "Over-calls", "under_call_rate": "Under-calls",
    "premature_call_rate": "Premature calls", "injection_compliance_rate": "Injection compliance",
    "utility_under_attack": "Utility under attack",
}
VERDICTS = ("PASS", "PARTIAL", "FAIL", "ERROR")


def id_prefix(kind: str) -> str:
    """How a scorecard's element ids start: "fixture-" for the fixtures, "kept-" for a reopened
    run (page/runs.py), "live-" for any other."""
    return kind if kind in ("fixture", "kept") else "live"


def card_name(kind: str) -> str:
    """How a scorecard names itself in its regions' labels, which must differ between the cards
    the page shows at once (the fixtures, a live run, a run opened from Runs)."""
    return {"fixture": "Fixtures", "kept": "Opened run"}.get(kind, "Live run")


def interval_text(bounds: dict | None) -> str:
    """'95% CI 55%–68% over cases' for a category's bounds (a tooltip), '' without them."""
    return "" if not bounds else f"95% CI {100 * bounds['low']:.0f}%–{100 * bounds['high']:.0f}% over cases"


def chart_bars(categories: dict, *, width: int = 560, bar: int = 22, gap: int = 10,
               label_width: int = 130, intervals: dict | None = None) -> dict:
    """Geometry of the category-score bar chart: one horizontal bar per category present, with
    an interval whisker (x1..x2 at mid-height) where `intervals` gives the category's bounds.
    A category whose cases all errored has no score: an empty bar labelled n/a."""
    span = width - label_width - 56
    bars = []
    for i, (category, row) in enumerate(categories.items()):
        y = i * (bar + gap)
        score = row["score"]
        bounds = (intervals or {}).get(category)
        bars.append({"category": category, "label": CATEGORY_LABELS.get(category, category),
                     "score": score, "x": label_width, "y": y,
                     "width": 0 if score is None else round(span * score, 1), "height": bar,
                     "text": "n/a" if score is None else f"{100 * score:.0f}%",
                     "whisker": None if not bounds or score is None else {
                         "x1": round(label_width + span * bounds["low"], 1),
                         "x2": round(label_width + span * bounds["high"], 1), "y": y + bar / 2}})
    height = max(1, len(bars) * (bar + gap) - gap)
    return {"width": width, "height": height, "span": span, "label_width": label_width, "bars": bars}


def visible_cases(cases: list[dict], category: str = "all", verdict: str = "all",
                  flaky: str = "all") -> list[str]:
    """Ids of the cases a filter shows, in suite order (`flaky`: "all" or "flaky")."""
    return [c["id"] for c in cases
            if category in ("all", c["category"]) and verdict in ("all", c["verdict"])
            and (flaky == "all" or c.get("flaky"))]


def cost_tiles(cost: dict | None) -> list[tuple[str, str, str]]:
    """(key, label, value) tiles for the scorecard's cost object; prices add dollars."""
    if not cost:
        return []
    lat = cost["latency_ms"]
    ms = lambda key: "n/a" if lat is None else f"{lat[key]:.0f} ms"  # noqa: E731
    tiles = [("requests", requests_label(), str(cost["requests"])),
             ("input_tokens", "Input tokens", str(cost["input_tokens"])),
             ("output_tokens", "Output tokens", str(cost["output_tokens"])),
             ("latency_mean", "Latency mean", ms("mean")), ("latency_p50", "Latency p50", ms("p50")),
             ("latency_p95", "Latency p95", ms("p95")), ("latency_max", "Latency max", ms("max"))]
    if "usd" in cost:
        per = cost.get("usd_per_passing_run")
        tiles += [("usd", "Cost (USD)", f"${cost['usd']:.4f}"),
                  ("usd_per_passing_run", f"USD per passing run ({cost.get('passing_runs', 0)} passed)",
                   "n/a (no passing run)" if per is None else f"${per:.4f}")]
    return tiles


def flip_rows(comparison: dict) -> list[dict]:
    """The compared cases whose verdict went from PASS to another or back, as the page lists them."""
    return [{"id": r["id"], "category": r["category"], "from": r["a"]["verdict"], "to": r["b"]["verdict"],
             "flip": r["flip"], "text": f"{r['a']['passes']}/{r['a']['repeats']} → {r['b']['passes']}/{r['b']['repeats']} pass"}
            for r in comparison["comparison"]["cases"] if r["flip"]]


def pretty(value: Any) -> str:
    """JSON as the page shows it: indented, non-ASCII kept, credentials redacted (and rendered
    as text, never HTML)."""
    return json.dumps(redact(value), ensure_ascii=False, indent=2)


def turn_views(case: Case, tools: dict[str, Tool], transcript: Transcript) -> list[dict]:
    """Per turn: the request (recorded, or rebuilt exactly as ToolProof would send it) and the
    response body or the request error, ready to display."""
    # a sweep's transcript says which tools were sent, and in what order
    offered = [tools[name] for name in as_offered(case, transcript.raw.get("offered")).tools if name in tools]
    raw_turns = transcript.raw.get("turns", [])
    views, first = [], None
    for index, raw in enumerate(raw_turns):
        recorded = raw.get("request")
        request = recorded if recorded is not None else request_body(
            transcript.provider, case, offered, model=transcript.model or "model", first=first,
            mocks=case_mocks(case))
        views.append({
            "turn": index + 1,
            "request": pretty(request),
            "request_note": "recorded" if recorded is not None else "rebuilt: what ToolProof sends for this turn",
            "response": pretty(raw["response"]) if "response" in raw else None,
            "error": raw.get("error"),
        })
        first = raw.get("response") if index == 0 else first
    return views


def category_options(cases: list[dict]) -> list[tuple[str, str]]:
    """(value, label) for the category filter: every category present, in the fixed order."""
    present = {c["category"] for c in cases}
    return [("all", "All categories")] + [(c, CATEGORY_LABELS[c]) for c in CATEGORIES if c in present]


LOCAL_HOSTS = ("localhost", "127.0.0.1")


def connect_allowed(url: str, csp: str) -> bool:
    """Would the page's Content-Security-Policy let fetch() reach this URL?"""
    origin = origin_of(url).removesuffix("/")      # as a CSP source writes it: no slash
    if not origin.startswith(("http://", "https://")):
        return False
    sources = next((d.split()[1:] for d in csp.split(";") if d.split()[:1] == ["connect-src"]), [])
    host = origin.split("://", 1)[1]
    for source in sources:
        if source == origin:
            return True
        if source.endswith(":*") and origin.startswith(source[:-2] + ":"):
            return True            # e.g. http://localhost:* allows any port on localhost
        if source.endswith(":*") and origin == source[:-2] and ":" not in host:
            return True
    return False


def run_label(document: dict) -> str:
    """'LIVE · openai · gpt-4.1-mini · 2026-11-29 17:40 UTC · scope all · 24 requests'; a run of the
    draft suite says so ('Your suite (3 cases)') where the scope would be."""
    created = document.get("created", "").replace("T", " ").replace("+00:00", " UTC")
    scope = str(document.get("label") or "") or f"scope {document.get('scope', 'all')}"
    parts = ["LIVE", document.get("provider", ""), document.get("model", ""), created,
             scope, counted(document.get('requests_used', 0), 'request')]
    if document.get("state") in ("aborted", "error"):
        parts.append(document["state"])
    return " · ".join(p for p in parts if p)


def scope_options(cases: list[Case], phrasings: str | int = BASE, times: int = 1) -> list[tuple[str, str, int]]:
    """(value, label, requests needed) for the scope picker: all, then each category present.
    The need is the need line's own number: each chosen phrasing of a case is a conversation,
    the scope run `times` times (repeats × pad levels: running.sweep.sweep_need(1, levels, repeats))."""
    groups = [("all", "All categories", cases)] + [
        (c, CATEGORY_LABELS[c], mine) for c in CASE_CATEGORIES if (mine := scoped(cases, c))]
    return [(value, f"{label} ({counted(len(mine), 'case')})", times * requests_needed(mine, phrasings))
            for value, label, mine in groups]


def scope_option_text(label: str, need: int) -> str:
    """'All categories (61 cases): 1131 requests': an option says what the need line says."""
    return f"{label}: {counted(need, 'request')}"


def conversations_needed(cases: list[Case], phrasings: str | int = BASE, times: int = 1) -> int:
    """Conversations a run of these cases plans: each case once per chosen phrasing, `times` times
    (running/workplan.py plan_work makes one work item per conversation)."""
    return times * sum(len(chosen_phrasings(c, phrasings)) for c in cases)


def need_text(need: int, most: int, conversations: int, cases: int, *, phrased: bool,
              repeats: int, levels: int) -> str:
    """The need line under the form: the scope option's number of requests, the conversations
    they serve and how the cap relates to them."""
    parts = [counted(cases, "case") + (" in their chosen phrasings" if phrased else "")]
    parts += [f"{repeats} repeats"] if repeats > 1 else []
    parts += [f"{levels} pad levels"] if levels > 1 else []
    return (f"This scope needs at most {counted(need, 'request')} for {counted(conversations, 'conversation')} "
            f"({' × '.join(parts)}): one request per turn (multi-step, injection and result-use cases take "
            f"two) plus one per counterfactual variant. The cap starts there and can be 1 to {most}: retries "
            "count against it, and at the maximum every retry is allowed for; a conversation is only "
            "started if all its requests fit, and the result says how many were left out.")


def heat_level(count: int, biggest: int) -> int:
    """0 (empty) to 4 (the largest count in the table): the heatmap cell's shade."""
    if count <= 0 or biggest <= 0:
        return 0
    return max(1, min(4, round(4 * count / biggest)))


# A key's usual prefix (the providers' consoles issue them so), from the provider records: a hint,
# never a refusal, since gateways and proxies take keys of their own shapes. The longest prefix
# is tried first, so sk-ant- is Anthropic's before sk- is OpenAI's.
KEY_PREFIXES = tuple(sorted({(p.key_prefix, p.key_kind) for p in CATALOGUE if p.key_prefix},
                            key=lambda pair: (-len(pair[0]), pair)))


def key_hint(provider: str, key: str) -> str:
    """'' or one line saying the key's prefix belongs to another provider (e.g. sk-ant- for OpenAI).
    Never quotes more of the key than its public prefix."""
    spec = PROVIDER.get(provider)
    if spec is None or not spec.key_prefix or not key:           # compatible servers take any key
        return ""
    for prefix, kind in KEY_PREFIXES:
        if key.startswith(prefix):
            if prefix == spec.key_prefix:
                return ""
            return (f"This key starts with {prefix}, which is how {kind} starts, but the provider is "
                    f"{spec.key_issuer}: check the provider or the key (it is sent as it is).")
    return ""


def feed_tag(raw: dict, repeats: int, pad_levels: int) -> str:
    """'phrasing terse · repeat 2 of 3 · pad 8' for a live feed row: which conversation of its case
    it is ('' for a run of the base phrasing, one repeat and no sweep)."""
    phrasing = raw.get("phrasing")
    parts = [f"phrasing {phrasing}"] if isinstance(phrasing, str) and phrasing else []
    repeat = raw.get("repeat")
    if repeats > 1 and isinstance(repeat, int):
        parts.append(f"repeat {repeat + 1} of {repeats}")
    pad = raw.get("pad")
    if pad_levels and isinstance(pad, int):
        parts.append(f"pad {pad}")
    return " · ".join(parts)


def clock(ms: float) -> str:
    """'0:07', '12:30', '1:02:03'."""
    seconds = max(0, int(ms // 1000))
    hours, rest = divmod(seconds, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


def clock_texts(elapsed_ms: float, done: int, total: int, *, running: bool,
                planned_done: int | None = None, planned_left: int | None = None) -> tuple[str, str]:
    """('Elapsed 0:12', '· about 0:30 left (at most 40 requests to go, at the pace so far)').

    `done` of `total` conversations are finished; `planned_done` is the requests those could have
    needed (each its case's `requests`), `planned_left` what the rest can still need (never more
    than the cap leaves). The estimate is the time per request of the finished conversations
    times the requests left: a conversation of four requests counts four times one of one, so a
    run that starts its long conversations first (with concurrency) is not read as slow. Without
    request counts each conversation counts as one request. None before the first conversation
    ends, none once the run stopped."""
    elapsed = f"Elapsed {clock(elapsed_ms)}"
    if not running:
        return elapsed, ""
    if done <= 0 or total <= done:
        return elapsed, "· estimating the time left after the first conversation…" if total > done else ""
    spent = done if planned_done is None else planned_done
    left_requests = total - done if planned_left is None else planned_left
    if spent <= 0 or left_requests <= 0:
        return elapsed, ""
    left = elapsed_ms / spent * left_requests
    return elapsed, (f"· about {clock(left)} left (at most {counted(left_requests, 'request')} to go, "
                     "at the pace so far)")


def progress_texts(done: int, total: int, sent: int, cap: int) -> tuple[str, str]:
    """The two meters' texts: ('4 / 669', '12 / 1131'): conversations finished of planned,
    requests sent of the cap."""
    return f"{done} / {total}", f"{sent} / {cap}"


def tally_label(done: int) -> str:
    """'9 conversations so far:' before the live tally: its verdicts are each conversation's, not
    the cases' the finished card counts."""
    return f"{counted(done, 'conversation')} so far:"


def tally(verdicts) -> dict[str, int]:
    """How many of each verdict so far, in the fixed order (every verdict listed, zeros too)."""
    counts = dict.fromkeys(VERDICTS, 0)
    for verdict in verdicts:
        if verdict in counts:
            counts[verdict] += 1
    return counts


FORM_VALUE_CHARS = 4000


def kept_form(raw: str | None, names: tuple) -> dict[str, str]:
    """The run form's fields as kept in localStorage: only known names with string values of
    bounded length; anything else (not JSON, not an object, a huge value) is dropped."""
    if not raw:
        return {}
    try:                                 # bounded depth and size: storage is input like any other
        values = read_json(raw, what="kept form", max_bytes=64 * FORM_VALUE_CHARS)
    except ReadError:
        return {}
    if not isinstance(values, dict):
        return {}
    return {name: values[name] for name in names
            if isinstance(values.get(name), str) and len(values[name]) <= FORM_VALUE_CHARS}
