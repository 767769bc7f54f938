"""A scorecard (grade, run) as one self-contained HTML file: what the page shows for that result.
The headline with its interval and coverage, the category bars with whiskers (the page's own
geometry, page_view.chart_bars), the nine rates, reliability and cost, the scenarios (html_scenarios.py: the
`scenarios` block and each scenario turn by turn; their entries are not listed again as cases),
the diagnosis, and every case with its verdict, reasons and expected against actual calls (from
the suite, when given).

Pure: string building only; every string from a model or a file goes through html.esc.
"""
from __future__ import annotations

import json

from toolproof.suite.model import Case
from . import arms, four_way
from .html import bar_chart, esc, legend, lines, page, pre, section, table, whisker
from .legends import scorecard_legend
from .page_view import CATEGORY_LABELS, METRIC_LABELS, chart_bars
from .rates import RATE_INTERVAL_HEAD, rate_count_text, rate_interval_text, rates_method_line
from .scorecard import (METRIC_HELP, better, coverage_line, diagnosis_lines, headline, percent,
                        score_with_interval, statistics_lines, withheld_note)
from .html_scenarios import scenarios_html
from .scenarios import is_scenario
from .sweep import sweep_text
from .robustness import (case_wording, consistency_text, dependent_ids, dependent_rows, gap_text, intervals_note,
                         lang_name, language_rows, phrasing_cases, phrasing_interval, shown, test_text,
                         verdict_groups, worst_text)

MAX_SHOWN = 4000        # characters of one value (arguments, final text) shown in a case


def _json(value) -> str:
    text = json.dumps(value, ensure_ascii=False, indent=2, sort_keys=False, default=str)
    return text if len(text) <= MAX_SHOWN else text[:MAX_SHOWN] + f"\n… ({len(text) - MAX_SHOWN} more characters)"


def _categories(card: dict) -> str:
    reason = [f"<p class=\"muted\">{esc(withheld_note(card))}</p>"] if withheld_note(card) else []
    intervals = (card.get("intervals") or {}).get("categories") or {}
    chart = bar_chart(chart_bars(card["categories"], intervals=intervals))
    rows = []
    for key, row in card["categories"].items():
        bounds = intervals.get(key)
        ci = "n/a" if not bounds or row["score"] is None else f"{100 * bounds['low']:.0f}–{100 * bounds['high']:.0f}%"
        rows.append([CATEGORY_LABELS.get(key, key), percent(row["score"]), ci, str(row["weight"]), str(row["count"]),
                     str(row["pass"]), str(row["partial"]), str(row["fail"]), str(row.get("error", 0))])
    head = ["Category", "Score", "95% CI", "Weight", "Cases", "PASS", "PARTIAL", "FAIL", "ERROR"]
    return section("Categories", [*reason, chart, table(head, rows, label="Categories", right=set(range(1, 9))),
                                  legend(scorecard_legend(card))])


def _rates(card: dict) -> str:
    rows = [[METRIC_LABELS.get(k, k), percent(v), rate_interval_text(card, k), rate_count_text(card, k),
             better(k), METRIC_HELP.get(k, "")] for k, v in card["metrics"].items()]
    method = rates_method_line(card)
    return section("Rates", [table(["Rate", "Value", RATE_INTERVAL_HEAD, "Of", "Better", "What it counts"], rows,
                                   label="Rates", right={1, 2, 3})] + ([f'<p class="muted">{esc(method)}</p>'] if method else []))


def _wording(card: dict) -> str:
    """The wording section (a run of several phrasings): what text and Markdown say, as HTML."""
    found = shown(card)
    if not found:
        return ""
    rows = [[p["phrasing"], "n/a" if p["score"] is None else f"{p['score']:.2f}",
             phrasing_interval(p).strip(" ()") or "n/a", phrasing_cases(p), _whisker(p)]
            for p in found["per_phrasing"]]
    parts = [lines([consistency_text(found), worst_text(found), *[f"Against chance: {t}." for t in test_text(found)],
                    f"The score is {found['main_score']}.",
                    f"Intervals: {intervals_note(found)}."]),
             table(["Phrasing", "Score", "95% CI", "Cases", "Interval (0 to 100)"], rows, right={1}, cls="wording")]
    if language_rows(found):            # the score per language, then English minus the others
        parts.append(table(["Language", "Score", "95% CI", "Cases", "Conversations", "Interval (0 to 100)"],
                           [[lang_name(p["lang"]), "n/a" if p["score"] is None else f"{p['score']:.2f}",
                             phrasing_interval(p).strip(" ()") or "n/a", phrasing_cases(p), str(p["conversations"]),
                             _whisker(p)] for p in language_rows(found)], right={1, 4}, cls="wording languages"))
    if gap_text(found):
        parts.append(lines([f"Language gap: {gap_text(found)}."]))
    dependent = dependent_rows(found)
    if dependent:
        parts.append(f"<p><strong>Verdict depends on the wording ({len(dependent)})</strong></p>")
        parts.append(table(["Case", "Verdicts", "Worse in"],
                           [[row["id"], verdict_groups(row), ", ".join(row["worse_in"])] for row in dependent]))
    else:
        parts.append("<p class=\"muted\">No case is shown to depend on the wording.</p>")
    return section("Wording sensitivity", parts)


def _whisker(row: dict) -> str:
    """A score row's interval drawn (per phrasing, per language)."""
    bounds = row.get("interval")
    return whisker(row["score"], *((bounds["low"], bounds["high"]) if bounds else (None, None)))


def _expected(case: Case | None) -> list[str]:
    if case is None:
        return []
    e = case.expect
    out = [f"expect: {e.action}" + (f" (order {e.order})" if e.calls and e.order != "sequence" else "")]
    out += [f"{c.tool}({json.dumps(c.args, ensure_ascii=False)})" for c in e.calls]
    for i, alternative in enumerate(e.alternatives, 1):
        out += [f"or (alternative {i}): {c.tool}({json.dumps(c.args, ensure_ascii=False)})"
                for c in alternative]
    out += [f"must not call: {tool}" + (f" with {json.dumps(args, ensure_ascii=False)}" if args else "")
            for tool, args in e.forbidden]
    return out


def _case(row: dict, case: Case | None, dependent: set[str] | frozenset = frozenset()) -> str:
    verdict = str(row["verdict"])
    head = (f"<summary><span class=\"verdict {esc(verdict)}\">{esc(verdict)}</span> <code>{esc(row['id'])}</code> "
            f"<span class=\"muted\">{esc(CATEGORY_LABELS.get(row['category'], row['category']))}"
            + (f" · {esc(case.title)}" if case is not None else "")
            + (f" · repeats {esc(' '.join(row['repeats']))}" if len(row.get("repeats", [])) > 1 else "")
            + (f" · by phrasing: {esc(case_wording(row, dependent))}" if row.get("phrasings") else "")
            + "</span></summary>")
    parts = [head]
    if row["reasons"]:
        parts.append("<p><strong>Reasons</strong></p>" + lines(row["reasons"]))
    if case is not None:
        parts.append("<p><strong>Prompt</strong></p>" + pre(case.prompt))
        parts.append("<div class=\"expected-call\"><p><strong>Expected</strong></p>" + pre("\n".join(_expected(case)))
                     + "</div>")
    actual = [f"turn {c['turn']}: {c['tool']}({_json(c['arguments'])})"
              + ("" if c.get("offered", True) else "  [not offered]") + ("" if c.get("valid", True) else "  [schema-invalid]")
              for c in row.get("calls", [])]
    parts.append("<div class=\"actual-call\"><p><strong>Actual calls</strong></p>"
                 + pre("\n".join(actual) or "no call") + "</div>")
    if row.get("final_text"):
        parts.append("<p><strong>Final text</strong></p>" + pre(str(row["final_text"])[:MAX_SHOWN]))
    return (f"<details class=\"case-row\" data-case-id=\"{esc(row['id'])}\" data-verdict=\"{esc(verdict)}\">"
            + "".join(parts) + "</details>")


def scorecard_html(card: dict, cases: list[Case] | None = None, worlds: dict | None = None) -> str:
    """The whole HTML file for a scorecard; `cases` (the suite) adds each case's prompt and
    expected calls, `worlds` (the World records by id) each scenario's title, system prompt and
    first message."""
    top = headline(card)
    by_id = {c.id: c for c in cases or []}
    parts = [f"<h1>{esc(top[0])}</h1>", f"<p class=\"headline\">{esc(score_with_interval(card))}</p>"]
    covered = coverage_line(card)
    if covered:
        parts.append(f"<p><strong>{esc(covered)}</strong></p>")
    parts.append(lines(top[1:], "lines muted"))
    parts.append(_categories(card))
    parts.append(_rates(card))
    stats = statistics_lines(card) + sweep_text(card)
    if stats:
        parts.append(section("Reliability, cost and intervals", [lines([s for s in stats if s])]))
    tried = arms.html_part(card)
    if tried:
        parts.append(tried)
    wording = _wording(card)
    if wording:
        parts.append(wording)
    scenarios = scenarios_html(card, {s.id: s for w in (worlds or {}).values() for s in w.scenarios})
    if scenarios:
        parts.append(scenarios)
    diagnosis = [line for line in diagnosis_lines(card, four_ways=False) if line]
    fw = four_way.present((card.get("diagnosis") or {}).get("decide"))
    if diagnosis:
        parts.append(section("Diagnosis", [pre("\n".join(diagnosis[1:]) or diagnosis[0])]
                             + (four_way.html_parts(fw) if fw else [])))
    rows = [row for row in card["cases"] if not is_scenario(row)]      # each scenario's detail is in its section
    bad = sum(c["verdict"] != "PASS" for c in rows)
    if rows or not scenarios:
        parts.append(section(f"Cases ({len(rows)}, {bad} not PASS)",
                             [_case(row, by_id.get(row["id"]), dependent_ids(card)) for row in rows]
                             or ["<p>No case was graded.</p>"]))
    return page(top[0], parts + ["<p class=\"muted\">Made by ToolProof. No script, no external request.</p>"])
