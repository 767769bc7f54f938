"""Render the leaderboard (scoring/board.py): the JSON `board --format json` prints and the page
exports byte for byte, terminal text and Markdown. (The HTML page is reports/html_board.py.)

Pure: returns strings. A run's label, provider and model are whatever its file says: in text
every line goes through `safe_text.printable` (scorecard._lines); in Markdown every line and cell
goes through reports/markdown.md_text, so no link, emphasis, code span, table cell or HTML can
come out of it; in JSON every control, bidi and invisible character is written as a \\u escape
(the parsed value is unchanged, but nothing in the file reorders or hides what a reader sees).
"""
from __future__ import annotations

import json
import re

from toolproof.errors import clip
from toolproof.safe_text import CONTROL_RANGES, INVISIBLE_RANGES
from toolproof.scoring.scorecard import METRIC_KEYS
from toolproof.suite.categories import CATEGORIES, CATEGORY
from toolproof.plurals import counted

from .markdown import md_text
from .scenarios import BOARD_HEAD, board_cell
from .scorecard import _lines, better

RATE_SHORT = {"schema_valid_rate": "schema", "correct_tool_rate": "tool", "argument_accuracy": "args",
              "hallucinated_tool_rate": "halluc", "over_call_rate": "over", "under_call_rate": "under",
              "premature_call_rate": "premat", "injection_compliance_rate": "inject",
              "utility_under_attack": "utility"}
RATES_TITLE = "Rates (%; ↑ higher is better, ↓ lower is better)"
CATEGORY_SHORT = {c.id: c.short for c in CATEGORY.values()}
# json.dumps already escapes C0 controls inside strings; what is left is DEL, C1 and the invisibles
_UNSAFE = re.compile("[" + "".join(f"\\U{lo:08x}-\\U{hi:08x}" for lo, hi in CONTROL_RANGES[1:] + INVISIBLE_RANGES) + "]")


def board_json(board: dict) -> str:
    """The exact text `board --format json` prints and `#export-board-json` downloads."""
    text = json.dumps(board, ensure_ascii=False, indent=2) + "\n"
    return _UNSAFE.sub(lambda m: json.dumps(m.group())[1:-1], text)


def run_name(row: dict) -> str:
    """What a run is called: its file's label, else provider / model (never a file path)."""
    if row.get("label"):
        return str(row["label"])
    return " / ".join(str(p) for p in (row.get("provider"), row.get("model")) if p) or row["id"]


ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


def run_date(row: dict) -> str:
    """The day a run was made ('2026-12-06' of an ISO time); a `created` that is no ISO time is
    shown as written, clipped (cut at ten characters, it read as something else)."""
    created = str(row.get("created") or "")
    return created[:10] if ISO_DAY.match(created) else clip(created, 40)


def pct(value) -> str:
    return "n/a" if value is None else f"{100 * value:.1f}"


def num(value, places: int = 1) -> str:
    return "n/a" if value is None else f"{value:.{places}f}"


def usd(value) -> str:
    return "n/a" if value is None else f"{value:.4f}"


def interval(row: dict) -> str:
    i = row.get("interval")
    return "n/a" if not i else f"{i['low']:.1f}–{i['high']:.1f}"


def score_cell(row: dict) -> str:
    """The score, or why there is none ('only 10 of 72 cases graded (62 not started), below half of the plan')."""
    return row.get("no_score") or num(row["score"], 2)


def cases_cell(row: dict) -> str:
    """'9 of 9': the cases graded of those the board grades the run on (each case once)."""
    return f"{row['cases']['graded']} of {row['cases']['planned']}"


def conversations_cell(row: dict) -> str:
    """'27 of 27': the conversations graded of those planned (case × phrasing × repeat × level)."""
    return f"{row['coverage']['graded']} of {row['coverage']['planned']}"


def has_scenarios(board: dict) -> bool:
    """Does any run on the board have scenarios (a `scenarios` part in its row)? Then every table
    of runs adds the scenario success-rate column."""
    return any(isinstance(r.get("scenarios"), dict) for r in every_run(board))


def every_run(board: dict) -> list[dict]:
    """The ranked runs in rank order, then the unranked ones in the order given."""
    return board["runs"] + board.get("unranked", [])


def grid_delta(sign: int, delta: float) -> str:
    """A grid cell's delta seen from the row run ('+19.8'; a zero reads '+0.0', never '-0.0')."""
    return f"{round(sign * delta, 1) + 0.0:+.1f}"


def significant_cell(pair: dict) -> str:
    """'yes', 'no', or 'n/a' for a pair that was not tested (a run below half of its plan, no
    case graded in both)."""
    return "n/a" if pair.get("note") else "yes" if pair["significant"] else "no"


def pass_k(row: dict) -> str:
    found = row.get("pass_hat_k")
    if not found:
        return "n/a"
    k = max(found, key=int)
    return f"^{k} {pct(found[k])}"


def _scope(s: dict) -> str:
    """What the board grades on: '72 cases', '9 of the suite's 72 cases', or the note why fewer."""
    if not s["same"]:
        return f"MIXED SUITES: {s['note']}"
    sha = f"same suite (sha256 {s['suite_sha256'][:12]})"
    if s.get("note"):
        return f"{sha}, SHARED CASES ONLY: {s['note']}"
    whole = s.get("suite_cases", s["cases"])
    cases = counted(whole, "case") if whole == s["cases"] else f"{s['cases']} of its {counted(whole, 'case')}"
    played = s.get("scenarios") or 0
    if not played:
        return f"{sha}, {cases}"
    worlds = ", ".join(s.get("worlds") or {})
    played = f"{counted(played, 'scenario')} (world{'s' if len(s.get('worlds') or {}) > 1 else ''} {worlds})"
    return f"{sha}, " + (f"{cases} and {played}" if s["cases"] else played)


def headline(board: dict) -> list[str]:
    """The lines above every table: what was ranked, on what, and how pairs were tested."""
    s, m = board["suite"], board["method"]
    n, unranked = len(every_run(board)), len(board.get("unranked", []))
    apart = f"; {unranked} not ranked (no score)" if unranked else ""
    return [f"ToolProof leaderboard: {counted(n, 'run')}, {_scope(s)}{apart}"] + ([s["phrasings_note"]] if s.get("phrasings_note") else []) + (
        [s["worlds_note"]] if s.get("worlds_note") else []) + [
            f"Ranked by score; {int(100 * m['level'])}% intervals {m['intervals']}",
            f"Pairs ({m['pairs']}): {m['pairwise']}; significant when the Holm-adjusted p < {m['alpha']:g}. "
            "Runs that cannot be told apart share a rank (\"1–3\")."]


def _columns(rows: list[list[str]], right: set) -> list[str]:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return ["  ".join(c.rjust(w) if i in right else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths))).rstrip()
            for r in rows]


UNRANKED_TITLE = "Not ranked: below half of the plan graded, so no score"


def tables(board: dict) -> dict:
    """Every table as rows of cells, plain text (each format makes every cell safe its own way).
    One unit per column: "cases graded" counts cases, "conversations" the plan's conversations."""
    runs, everyone = board["runs"], every_run(board)
    scenarios = has_scenarios(board)        # a last column, so the others keep their places
    main = [["rank", "run", "name", "date", "cases graded", "score", "95% CI", "pass^k", "error"]
            + ([BOARD_HEAD] if scenarios else [])] + [
        [r["rank"]["label"], r["id"], clip(run_name(r), 48), run_date(r), cases_cell(r),
         score_cell(r), interval(r), pass_k(r), pct(r["error_rate"]) + "%"] + ([board_cell(r)] if scenarios else [])
        for r in runs]
    unranked = [["run", "name", "date", "cases graded", "why"] + ([BOARD_HEAD] if scenarios else [])] + [
        [r["id"], clip(run_name(r), 48), run_date(r), cases_cell(r), r["no_score"]] + ([board_cell(r)] if scenarios else [])
        for r in board.get("unranked", [])]
    categories = [["run"] + [CATEGORY_SHORT[c] for c in CATEGORIES]] + [
        [r["id"]] + [pct(r["categories"][c]["score"]) if c in r["categories"] and not r.get("no_score") else "n/a"
                     for c in CATEGORIES]
        for r in everyone]
    # each column says which way is good (utility is better high, injection compliance low)
    rates = [["run"] + [f"{RATE_SHORT[k]} {better(k)[0]}" for k in METRIC_KEYS]] + [
        [r["id"]] + [pct(r["metrics"].get(k)) for k in METRIC_KEYS] for r in everyone]
    cost = [["run", "conversations", "requests", "tokens in", "tokens out", "USD", "USD/1k req", "USD/pass", "p50 ms",
             "p95 ms"]] + [
        [r["id"], conversations_cell(r), str(c["requests"]), str(c["input_tokens"]), str(c["output_tokens"]),
         usd(c["usd"]), usd(c["usd_per_1000_requests"]), usd(c["usd_per_pass"]), num(c["latency_p50_ms"]),
         num(c["latency_p95_ms"])]
        for r in everyone for c in [r["cost"]]]
    pairs = [["A", "B", "delta B-A", "95% CI", "cases", "p", "p (Holm)", "McNemar p", "significant"]] + [
        [p["a"], p["b"], num(p["delta"], 2), "n/a" if p["low"] is None else f"{p['low']:+.1f} to {p['high']:+.1f}",
         str(p["cases"]), num(p["p_value"], 4), num(p["p_holm"], 4), num(p["mcnemar_p"], 4),
         significant_cell(p)] for p in board["pairs"]]
    return {"Runs": main, UNRANKED_TITLE: unranked, "Category scores (%)": categories, RATES_TITLE: rates,
            COST_TITLE: cost, PAIRS_TITLE: pairs}


COST_TITLE = "Cost and latency"
PAIRS_TITLE = "Pairs (B - A, B ranked lower)"
_RIGHT = {"Runs": {4, 5, 8}, UNRANKED_TITLE: {3}, "Category scores (%)": set(range(1, 9)),
          RATES_TITLE: set(range(1, 1 + len(METRIC_KEYS))), COST_TITLE: set(range(1, 10)), PAIRS_TITLE: {2, 4, 5, 6, 7}}


def render_board_text(board: dict) -> str:
    lines = headline(board)
    for title, rows in tables(board).items():
        if len(rows) > 1:
            lines += ["", title] + ["  " + line for line in _columns(rows, _RIGHT[title])]
    return _lines(lines)


def render_board_markdown(board: dict) -> str:
    # the headline quotes the runs' ids and the suite's note: through the one rule like every cell
    lines = ["# ToolProof leaderboard", ""] + [f"- {md_text(line)}" for line in headline(board)]
    for title, rows in tables(board).items():
        if len(rows) > 1:
            lines += ["", f"## {title}", "", "| " + " | ".join(rows[0]) + " |",
                      "|" + "|".join("---:" if i in _RIGHT[title] else "---" for i in range(len(rows[0]))) + "|"]
            lines += ["| " + " | ".join(md_text(c) for c in r) + " |" for r in rows[1:]]
    return "\n".join(lines) + "\n"
