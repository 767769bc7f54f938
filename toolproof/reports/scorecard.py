"""Render a scorecard: JSON (the one serialiser every export uses), text and Markdown.

The JSON text is the contract between the terminal and the page: same object in, same bytes
out, on CPython and on Pyodide (insertion-ordered keys, no floats formatted by hand).

Pure: no I/O; returns strings.
"""
from __future__ import annotations

import json
import math
import re
from typing import Any

from toolproof.grading.results_text import results_text
from toolproof.plurals import counted
from toolproof.safe_text import printable
from toolproof.scoring.coverage import coverage_text
from toolproof.scoring.diagnose import confusion_focus
from toolproof.scoring.intervals import METHOD
from toolproof.scoring.results_doc import SCORECARD, kind_of
from toolproof.scoring.scorecard import METRIC_KEYS
from toolproof.scoring.withhold import UNWEIGHTED

from . import arms, four_way
from .card_counts import conversations_line, error_rate_line, plan_unit, verdict_rule, verdicts_line
from .figures import interval_span, percent, score_text
from .rates import LOWER_IS_BETTER, METRIC_HELP, better, rates_markdown, rates_text  # noqa: F401 (re-exported)
from .markdown import md_code, md_text
from .robustness import case_wording, dependent_ids, headline_line, robustness_markdown, robustness_text
from .scenarios import diff_lines, scenarios_markdown, scenarios_text
from .sweep import sweep_markdown, sweep_text

def to_json(card: dict) -> str:
    """The scorecard as the exact JSON text the CLI prints and the page exports: strict JSON
    (a non-finite number that slipped in is replaced by null and named in `notes`)."""
    return _strict_dumps(card)


def results_json(document: dict, card: dict | None = None) -> str:
    """A live run's export: the results file (re-grades with `grade --transcripts`) plus the
    scorecard it produced, so one file holds both the evidence and the figures. Written as `run
    --out` writes its file (grading/results_text.py: one transcript a line, repeated request
    parts as references), the scorecard (when given) on the last line."""
    return results_text(_strict(document if card is None else {**document, "scorecard": card}))


def kept_json(document: dict) -> str:
    """A document as the page keeps it: a results file (or export) in the results file's text, a
    scorecard as `to_json` writes it."""
    return to_json(document) if kind_of(document).kind == SCORECARD else results_json(document)


def _strict_dumps(value: dict) -> str:
    return json.dumps(_strict(value), ensure_ascii=False, indent=2, allow_nan=False) + "\n"


def _strict(value: dict) -> dict:
    """`finite`'s copy, with a note saying what it replaced."""
    clean, found = finite(value)
    if found:
        clean["notes"] = list(clean.get("notes") or []) + [f"{what} at {where} replaced by "
                                                           f"{'null' if what.startswith('non') else 'U+FFFD'}"
                                                           for where, what in found]
    return clean


_SURROGATE = re.compile("[\ud800-\udfff]")


def finite(value: Any) -> tuple[Any, list[tuple[str, str]]]:
    """A copy that strict UTF-8 JSON can hold: every NaN or infinity replaced by None and every
    lone surrogate (unwritable as UTF-8) by U+FFFD, with the JSON paths where they were.
    Iterative, so a deep value cannot exhaust the stack."""
    found: list[tuple[str, str]] = []
    root = [value]
    stack = [(root, 0, "$")]
    while stack:
        holder, key, where = stack.pop()
        item = holder[key]
        if isinstance(item, float) and not math.isfinite(item):
            holder[key] = None
            found.append((where, "non-finite number"))
        elif isinstance(item, str) and _SURROGATE.search(item):
            holder[key] = _SURROGATE.sub("\ufffd", item)
            found.append((where, "lone surrogate"))
        elif isinstance(item, dict):
            holder[key] = item = {_SURROGATE.sub("\ufffd", k) if isinstance(k, str) else k: v
                                  for k, v in item.items()}
            stack.extend((item, k, f"{where}.{k}") for k in item)
        elif isinstance(item, (list, tuple)):
            holder[key] = item = list(item)
            stack.extend((item, i, f"{where}[{i}]") for i in range(len(item)))
    return root[0], sorted(found)


def _lines(lines: list[str]) -> str:
    """The rendered lines joined, each made printable (so no text inside can add a line)."""
    return "\n".join(printable(line) for line in lines) + "\n"


def coverage_line(card: dict) -> str:
    """'10 of 122 cases graded (112 not started)' when the graded part differs from the plan,
    else '' (the contract: every view says it beside the score)."""
    return coverage_text(card.get("coverage"), plan_unit(card))


def no_score(card: dict) -> str | None:
    """Why the card has no score: its `no_score_reason` (scoring/withhold.py decides, once, and
    writes the nulls into the JSON), or None when it has a score. Every view asks here."""
    return (card.get("no_score_reason") or "n/a") if card.get("score") is None else None


def withheld_note(card: dict) -> str:
    """Said once under the categories when the card's scored numbers are null for want of a score
    (category scores and intervals, pass^k: the JSON's nulls, shown n/a); '' otherwise."""
    reason = no_score(card)
    if reason is None or reason in (UNWEIGHTED, "n/a"):
        return ""
    return f"No score, so no category score, interval or pass^k either (n/a): {reason}."


def partial_score_line(card: dict) -> str:
    """What the headline says instead of a score: 'No score: ' and the card's reason."""
    graded = (card.get("coverage") or {}).get("graded", 0)
    listed = "; the graded cases are listed" if withheld_note(card) and graded else ""
    return f"No score: {no_score(card)}{listed}"


def explain_line(card: dict) -> str:
    """One line that says what the interval and pass^1 are (shown, not only in tooltips)."""
    intervals = card.get("intervals") or {}
    level = round(100 * intervals["level"]) if "level" in intervals else 95
    # before the intervals are drawn (the page defers them) the method is still the one stats uses
    method = intervals.get("method", METHOD)
    method = method.removeprefix("over cases: ")
    return (f"{level}% CI over cases ({method}): how much the score could move with other cases like these, "
            "not how a rerun of the same cases would vary. pass^1: the chance that one run of a case "
            "passes, averaged over cases; pass^k: that k runs all pass.")


def headline(card: dict) -> list[str]:
    source = card["source"]
    label = source.get("label") or ""
    who = " / ".join(x for x in (source.get("provider"), source.get("model")) if x)
    lines = [f"ToolProof scorecard{' - ' + who if who else ''}"]
    if label:
        lines.append(label)
    lines.append(verdicts_line(card))
    lines += [line for line in (verdict_rule(card), conversations_line(card)) if line]
    lenient = card["lenient"]
    if no_score(card) is not None:
        lines.append(score_line(card))
    else:
        lines.append(f"{score_line(card)}; {score_text(lenient['score'])} lenient "
                     f"({counted(lenient['rescued'], 'case')} rescued by casting strings to the schema type)")
    lines += [line for line in [headline_line(card)] if line]
    lines += [f"Note: {note}" for note in card.get("notes", [])]
    lines += [f"Warning: {warning}" for warning in card.get("warnings", [])]
    return lines + errata_lines(card)


def score_line(card: dict) -> str:
    """'Score: 61.90 / 100 strict (95% CI 52–73 over cases) [40 of 72 cases graded]', or 'No
    score: …' with the card's reason: the headline's line and JUnit's root name."""
    if no_score(card) is not None:
        return partial_score_line(card)
    interval = (card.get("intervals") or {}).get("score")
    ci = f" (95% CI {interval_span(interval)} over cases)" if interval else ""
    covered = f" [{coverage_line(card)}]" if coverage_line(card) else ""
    return f"Score: {score_text(card['score'])} / 100 strict{ci}{covered}"


def errata_lines(card: dict) -> list[str]:
    """The errata that apply to the graded results file (card["errata"]), one line each after a
    line saying what they mean; none when the card has none. The page shows the same lines."""
    entries = card.get("errata") or []
    if not entries:
        return []
    return [f"Errata: {counted(len(entries), 'change')} to what these cases expect came after this results file "
            "was made; their verdicts use the expectations as they are now:"] + \
        [f"  {e['case']} ({e['date']}): {e['changed']}" for e in entries]


def score_with_interval(card: dict) -> str:
    """'61.9 · 95% CI 52–73 over cases' (the page's line), or just the score when there is none;
    with no score, why (no interval)."""
    if no_score(card) is not None:
        return partial_score_line(card)
    interval = (card.get("intervals") or {}).get("score")
    if card["score"] is None or not interval:
        return score_text(card["score"])
    level = round(100 * card["intervals"]["level"])
    # the score as the headline writes it (two places): one card never shows 31.25 and 31.2
    return f"{score_text(card['score'])} · {level}% CI {interval_span(interval)} over cases"


def pass_k_line(card: dict) -> str:
    """'pass^1 0.62 · pass^3 0.41' (every k the run allows), or '' without reliability."""
    hats = (card.get("reliability") or {}).get("pass_hat_k") or {}
    return " · ".join(f"pass^{k} {'n/a' if v is None else f'{v:.2f}'}" for k, v in hats.items())


def cost_line(card: dict) -> str:
    """Requests, tokens, latency and, with prices, dollars, in one line."""
    cost = card.get("cost")
    if not cost:
        return ""
    parts = [counted(cost["requests"], "request"), f"{cost['input_tokens']} input / {cost['output_tokens']} output tokens"]
    lat = cost["latency_ms"]
    if lat:
        parts.append(f"latency mean {lat['mean']:.0f} ms, p50 {lat['p50']:.0f}, p95 {lat['p95']:.0f}, max {lat['max']:.0f}")
    if "usd" in cost:
        per = cost.get("usd_per_passing_run")
        runs = cost.get("passing_runs", 0)
        per = "n/a (no passing run)" if per is None else f"${per:.4f} per passing run ({runs} passed)"
        parts.append(f"${cost['usd']:.4f} total, {per}")
    return " · ".join(parts)


def statistics_lines(card: dict) -> list[str]:
    """Repeats, pass^k, flaky cases, error rate, interval notes and cost, for text and Markdown."""
    if "reliability" not in card:
        return []
    rel = card["reliability"]
    per = "per case and phrasing" if card.get("robustness") else "per case"
    lines = [f"Repeats {per}: {card['repeats']}" + (f" ({card['repeats_note']})" if card.get("repeats_note") else ""),
             f"Reliability: {pass_k_line(card) or 'n/a'}; flaky cases: {', '.join(rel['flaky_cases']) or 'none'}"
             + (f" ({rel['k_note']})" if rel.get("k_note") else ""),
             error_rate_line(card)]
    note = (card.get("intervals") or {}).get("note")
    if note:
        lines.append(f"Interval note: {note}")
    lines.append(f"Reading: {explain_line(card)}")
    lines.append(f"Cost: {cost_line(card)}")
    return lines


def _ratio(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2f}"


def claims_text(safety: dict) -> str:
    """The injection cases whose final answer obeyed the injected text in words, one per graded
    conversation ('inj-a, inj-a, inj-b'), or 'none'."""
    return ", ".join(c["case"] for c in safety["injection_claims"]) or "none"


def credential_findings(safety: dict) -> list[dict]:
    """The credentials found in arguments, one per case and field (the diagnosis lists one per
    conversation: with phrasings and repeats a case's one leak was listed a dozen times):
    [{"case", "tool", "field", "kinds", "conversations"}] in the order first found."""
    found: dict[tuple, dict] = {}
    for c in safety.get("credentials") or []:
        row = found.setdefault((c["case"], c["tool"], c["field"]), {
            "case": c["case"], "tool": c["tool"], "field": c["field"], "kinds": [], "conversations": 0})
        row["kinds"] += [c["kind"]] if c["kind"] not in row["kinds"] else []
        row["conversations"] += 1
    return list(found.values())


def credential_text(row: dict) -> str:
    """'sc-x send.body (api key) in 3 conversations' (the count only when above one)."""
    times = f" in {counted(row['conversations'], 'conversation')}" if row["conversations"] > 1 else ""
    return f"{row['case']} {row['tool']}.{row['field']} ({', '.join(row['kinds'])}){times}"


def diagnosis_lines(card: dict, *, four_ways: bool = True) -> list[str]:
    """The four layers, trace metrics and safety findings, compactly, for the terminal; without
    `four_ways` the four-way decision table is left to the caller (the HTML report draws it)."""
    d = card.get("diagnosis") or {}
    if not d:
        return ["", "Diagnosis: none, no case was graded"] if (card.get("coverage") or {}).get("graded") == 0 else []
    dec, sel, fil, use, tr, saf = (d[k] for k in ("decide", "select", "fill", "use", "trace", "safety"))
    lines = ["", "Diagnosis",
             f"  decide  ({plan_unit(card)}) should call: {dec['should_call']['called']} called, {dec['should_call']['not_called']} not "
             f"(missing calls {percent(dec['missing_call_rate'])}); should not call: "
             f"{dec['should_not_call']['called']} called, {dec['should_not_call']['not_called']} not "
             f"(unnecessary calls {percent(dec['unnecessary_call_rate'])})"]
    fw = four_way.present(dec)
    lines += ["          four ways:"] + four_way.text_lines(fw) if fw and four_ways else []
    pairs = ", ".join(f"{p['expected']} -> {p['called']} ({p['count']})" for p in sel["confused_pairs"]) or "none"
    lines.append(f"  select  most-confused pairs: {pairs}")
    focus = confusion_focus(sel)
    if focus["rows"]:
        width = max(len(x) for x in focus["rows"]) + 1
        numbers = {c: str(i) for i, c in enumerate(focus["columns"], 1)}
        lines.append("          " + "expected \\ called".ljust(width) + "".join(n.rjust(4) for n in numbers.values()))
        for label, row in zip(focus["rows"], focus["matrix"]):
            lines.append("          " + label.ljust(width) + "".join(str(n or ".").rjust(4) for n in row))
        lines.append("          called: " + ", ".join(f"{n} {c}" for c, n in numbers.items()))
        lines.append(f"          ({counted(focus['omitted'], 'tool')} that {'was' if focus['omitted'] == 1 else 'were'} always chosen right {'is' if focus['omitted'] == 1 else 'are'} not shown)")
    fv = fil["field_verdicts"]
    lines.append(f"  fill    fields: {fv['match']} match, {fv['mismatch']} mismatch, {fv['missing']} missing, "
                 f"{fv['extra']} extra, {fv['schema_invalid']} schema-invalid; critical-field failures "
                 f"{percent(fil['critical_field_failure_rate'])} ({fil['critical_field_failures']}/{fil['critical_fields']})")
    un = fil["unsourced"]
    lines.append(f"          unsourced (guessed) values: {un['count']} of {un['judged']} judged ({percent(un['rate'])})"
                 + "".join(f"; {g['case']} {g['tool']}.{g['field']}={json.dumps(g['value'], ensure_ascii=False)}"
                           for g in un["values"][:3]))
    worst = [f for f in fil["field_errors"] if f["errors"]][:5]
    if worst:
        lines.append("          worst fields: " + ", ".join(
            f"{f['tool']}.{f['field']} {f['errors']}/{f['checked']}" for f in worst))
    lines.append(f"  use     result tracking {percent(use['result_tracking_rate'])} of {counted(use['result_runs'], 'run')} "
                 f"(base + variants); derived arguments {percent(use['derived_accuracy'])}, in variants "
                 f"{percent(use['derived_variant_tracking_rate'])}; copied from the prompt: {use['copied_from_prompt']}")
    lines.append(f"  trace   argument precision {percent(tr['argument_precision'])}, recall {percent(tr['argument_recall'])}, "
                 f"F1 {percent(tr['argument_f1'])}; edit distance {_ratio(tr['sequence_edit_distance'])}; "
                 f"redundant {percent(tr['redundant_call_rate'])}; identical {percent(tr['identical_call_rate'])}; "
                 f"required-call recall {percent(tr['required_call_recall'])}")
    creds = "; ".join(map(credential_text, credential_findings(saf))) or "none"
    forbidden = ", ".join(f"{f['case']} ({f['tool']})" for f in saf["forbidden_calls"]) or "none"
    lines.append(f"  safety  credentials in arguments: {creds}")
    lines.append(f"          forbidden calls: {forbidden}")
    lines.append(f"          injection obeyed in words: {claims_text(saf)}")
    return lines


def render_text(card: dict) -> str:
    """A readable terminal scorecard: score, the nine rates, categories, failing cases."""
    lines = headline(card) + statistics_lines(card) + arms.text_lines(card) + robustness_text(card) + sweep_text(card) \
        + scenarios_text(card) + [
        "", "Rates (↑ higher is better, ↓ lower is better)"]
    lines += rates_text(card)
    lines += ["", f"  {'category':<16} {'score':>7} {'weight':>6} {'cases':>5} {'pass':>5} {'part':>5} {'fail':>5} {'error':>5}"]
    lines += [f"  {withheld_note(card)}"] if withheld_note(card) else []
    for category, row in card["categories"].items():
        lines.append(f"  {category:<16} {percent(row['score']):>7} {row['weight']:>6} {row['count']:>5} "
                     f"{row['pass']:>5} {row['partial']:>5} {row['fail']:>5} {row.get('error', 0):>5}")
    lines += diagnosis_lines(card)
    bad = [c for c in card["cases"] if c["verdict"] != "PASS"]
    done = "No cases were graded." if not card["cases"] else "Every case passed."
    lines += ["", f"Failing and partial cases ({len(bad)})" if bad else done]
    for case in bad:
        rescued = " (lenient: PASS)" if case["lenient"]["verdict"] == "PASS" else ""
        lines.append(f"  {case['verdict']:<7} {case['id']} [{case['category']}]{rescued}")
        lines.extend(f"          - {reason}" for reason in case["reasons"])
        lines.extend(f"          - {line}" for line in diff_lines(case))
    return _lines(lines)


def diagnosis_markdown(card: dict) -> list[str]:
    """The diagnosis as Markdown sections, each with what to fix when it is bad."""
    d = card.get("diagnosis") or {}
    if not d:
        return []
    dec, sel, fil, use, tr, saf = (d[k] for k in ("decide", "select", "fill", "use", "trace", "safety"))
    out = ["", "## Diagnosis", "", "### Decide: call or not", "",
           f"| {plan_unit(card)} | called | did not call |", "|---|---:|---:|",
           f"| should call | {dec['should_call']['called']} | {dec['should_call']['not_called']} (missing) |",
           f"| should not call | {dec['should_not_call']['called']} (unnecessary) | {dec['should_not_call']['not_called']} |",
           "", f"Missing-call rate {percent(dec['missing_call_rate'])}, unnecessary-call rate "
               f"{percent(dec['unnecessary_call_rate'])}. *{md_text(dec['advice'])}*"]
    fw = four_way.present(dec)
    out += (four_way.markdown_lines(fw) if fw else []) + ["", "### Select: which tool", ""]
    focus = confusion_focus(sel)
    if focus["rows"]:
        out += ["| expected \\ called | " + " | ".join(md_text(c) for c in focus["columns"]) + " |",
                "|---|" + "---:|" * len(focus["columns"])]
        out += [f"| {md_text(r)} | " + " | ".join(str(n or "") for n in row) + " |"
                for r, row in zip(focus["rows"], focus["matrix"])]
        out += ["", f"{counted(focus['omitted'], 'tool')} that {'was' if focus['omitted'] == 1 else 'were'} always chosen right {'is' if focus['omitted'] == 1 else 'are'} not shown."]
    pairs = ", ".join(f"{md_code(p['expected'])} → {md_code(p['called'])} ({p['count']})"
                      for p in sel["confused_pairs"]) or "none"
    out += ["", f"Most-confused pairs: {pairs}. *{md_text(sel['advice'])}*", "", "### Fill: which arguments", ""]
    fv = fil["field_verdicts"]
    out += ["| match | mismatch | missing | extra | schema-invalid |", "|---:|---:|---:|---:|---:|",
            f"| {fv['match']} | {fv['mismatch']} | {fv['missing']} | {fv['extra']} | {fv['schema_invalid']} |", "",
            f"Critical-field failure rate {percent(fil['critical_field_failure_rate'])} "
            f"({fil['critical_field_failures']} of {fil['critical_fields']}). Unsourced (guessed) values: "
            f"{fil['unsourced']['count']} of {fil['unsourced']['judged']} judged ({percent(fil['unsourced']['rate'])}).",
            "", "| tool | field | checked | errors | error rate |", "|---|---|---:|---:|---:|"]
    out += [f"| {md_text(f['tool'])} | {md_text(f['field'])} | {f['checked']} | {f['errors']} | {percent(f['error_rate'])} |"
            for f in fil["field_errors"] if f["errors"]]
    out += ["", f"*{md_text(fil['advice'])}*", "", "### Use: the result", "",
            f"Result tracking {percent(use['result_tracking_rate'])} over {counted(use['result_runs'], 'run')} (each result-use "
            f"case with its base and counterfactual mock results); derived arguments {percent(use['derived_accuracy'])}, "
            f"in variants {percent(use['derived_variant_tracking_rate'])}; copied from the prompt: {use['copied_from_prompt']}. "
            f"*{md_text(use['advice'])}*", "", "### Trace metrics", "",
            "| argument precision | recall | F1 | edit distance | redundant calls | identical calls | required-call recall |",
            "|---:|---:|---:|---:|---:|---:|---:|",
            f"| {percent(tr['argument_precision'])} | {percent(tr['argument_recall'])} | {percent(tr['argument_f1'])} | "
            f"{_ratio(tr['sequence_edit_distance'])} | {percent(tr['redundant_call_rate'])} | "
            f"{percent(tr['identical_call_rate'])} | {percent(tr['required_call_recall'])} |",
            "", "### Safety", "",
            f"Credentials in arguments: {len(credential_findings(saf))}"
            + "".join(f"; {md_text(c['case'])} {md_code(c['tool'] + '.' + c['field'])} ({md_text(', '.join(c['kinds']))})"
                      + (f" in {counted(c['conversations'], 'conversation')}" if c["conversations"] > 1 else "")
                      for c in credential_findings(saf))
            + f". Forbidden calls: {saf['forbidden_call_count']}"
            + "".join(f"; {md_text(f['case'])} {md_code(f['tool'])}" for f in saf["forbidden_calls"])
            + f". Injection obeyed in words: {md_text(claims_text(saf))}."]
    return out


def render_markdown(card: dict) -> str:
    """The scorecard as Markdown, for pull requests and notes."""
    lines = ["# " + md_text(headline(card)[0]), ""]
    lines += [f"> {md_text(line)}" for line in headline(card)[1:]]
    if "reliability" in card:
        lines += ["", "## Statistics", ""] + [f"- {md_text(line)}" for line in statistics_lines(card)]
    lines += arms.markdown_lines(card) + robustness_markdown(card) + sweep_markdown(card) + scenarios_markdown(card)
    lines += rates_markdown(card)
    bounds = (card.get("intervals") or {}).get("categories") or {}
    note = withheld_note(card)
    lines += ["", "## Categories", ""] + ([md_text(note), ""] if note else []) + ["| category | score | 95% CI over cases | weight | cases | pass | partial | fail | error |",
              "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for category, row in card["categories"].items():
        ci = bounds.get(category)
        ci_text = interval_span(ci, 100, "%") if ci else "n/a"
        lines.append(f"| {md_text(category)} | {percent(row['score'])} | {ci_text} | {row['weight']} | {row['count']} | "
                     f"{row['pass']} | {row['partial']} | {row['fail']} | {row.get('error', 0)} |")
    lines += diagnosis_markdown(card)
    lines += ["", "## Cases", "", "| case | category | verdict | repeats | reasons |", "|---|---|---|---|---|"]
    for case in card["cases"]:
        repeats = md_text(" ".join(case.get("repeats", [case["verdict"]]))) + (" (flaky)" if case.get("flaky") else "")
        wording = case_wording(case, dependent_ids(card))
        repeats += f"; by phrasing: {md_text(wording)}" if wording else ""
        lines.append(f"| {md_text(case['id'])} | {md_text(case['category'])} | {md_text(case['verdict'])} | {repeats} | "
                     f"{md_text('; '.join(case['reasons']))} |")
    return _lines(lines)
