"""The scorecard's `arms` block (arms/analysis.py) as every view shows it: one table (each arm,
what it sets, its score, its difference from the baseline with the interval, McNemar and Holm,
"N of M"), then per arm the lines that say what moved: refused or ignored settings, the migration
of failure kinds, the veto, and which tools' cases flipped. Drawn as text, Markdown and HTML from
the same rows and lines; the page's Arms card draws the same (page/card/arms.py).

Shows what the block says and computes nothing. Pure: returns strings.
"""
from __future__ import annotations

from toolproof.plurals import counted

from .figures import score_text
from .html import esc, section, table
from .markdown import md_text

TITLE = "Arms"
HEAD = ["arm", "settings", "score (95% CI)", "vs baseline (95% CI)", "McNemar p", "Holm p", "significant", "graded"]
RULES = {
    "parallel_ignored": "parallel_tool_calls=false, yet {count} of {of} replies made several calls",
    "required_ignored": "tool_choice=required, yet {count} of {of} first replies made no call",
    "none_ignored": "tool_choice=none, yet {count} of {of} first replies made a call",
    "named_ignored": "tool_choice named a tool, yet {count} of {of} first replies did not call it alone",
    "strict_ignored": "strict=true, yet {count} of {of} calls had arguments outside the schema",
    "effort_unreported": "reasoning_effort set, but the provider reported no reasoning tokens ({of} conversations)",
}


def present(card: dict) -> list | None:
    """The arms block, or None when the card has none (or one not of its shape: a hand-edited
    file draws nothing rather than fail)."""
    block = card.get("arms") if isinstance(card, dict) else None
    if not isinstance(block, list) or not block or not all(isinstance(a, dict) and "name" in a for a in block):
        return None
    return block


def _delta(arm: dict) -> str:
    if arm.get("baseline"):
        return "baseline"
    d = arm.get("delta")
    if not isinstance(d, dict) or d.get("delta") is None:
        return "n/a"
    ci = f" ({d['low']:+.1f} to {d['high']:+.1f})" if d.get("low") is not None else ""
    return f"{d['delta']:+.1f}{ci}"


def _score(arm: dict) -> str:
    """'80.77 (60.0 to 100.0)': the arm's score with its 95% interval."""
    bounds = arm.get("score_interval")
    ci = f" ({bounds['low']:.1f} to {bounds['high']:.1f})" if isinstance(bounds, dict) and bounds.get("low") is not None else ""
    return score_text(arm.get("score")) + ci


def _p(value) -> str:
    return "" if value is None else f"{value:.3g}"


def _graded(arm: dict) -> str:
    c = arm.get("coverage") or {}
    return f"{c.get('graded', 0)} of {c.get('planned', 0)}"


def rows(block: list) -> list[list[str]]:
    out = []
    for arm in block:
        refused = arm.get("refused")
        out.append([str(arm["name"]), str(arm.get("described") or ""),
                    "refused" if refused else _score(arm), _delta(arm),
                    _p(arm.get("mcnemar_p")), _p(arm.get("holm_p")),
                    "" if arm.get("baseline") else ("yes" if arm.get("significant") else "no"), _graded(arm)])
    return out


def finding_line(finding: dict) -> str | None:
    rule = finding.get("rule")
    if rule == "effort_ignored":
        if not finding.get("count"):
            return None
        tokens = finding.get("reasoning_tokens") or {}
        return (f"reasoning_effort did not change the reasoning tokens against {finding.get('against')} "
                f"(mean {tokens.get('against')} vs {tokens.get('this')}, sign test p {_p(finding.get('p_value'))})")
    if rule == "strict_ignored" and finding.get("checked") is False:
        return "strict=true: not audited (this arm shows other schemas than the catalogue's)"
    if rule in RULES and (finding.get("count") or rule == "effort_unreported"):
        return RULES[rule].format(count=finding.get("count"), of=finding.get("of"))
    return None


def arm_lines(arm: dict) -> list[str]:
    """What one arm's row cannot hold: refusal, ignored settings, migration, veto, tool effects."""
    out = []
    if arm.get("refused"):
        out.append(f"refused by the provider: {arm['refused']}")
    out += [line for f in arm.get("audit") or [] if isinstance(f, dict) and (line := finding_line(f))]
    moves = [m for m in arm.get("migration") or [] if isinstance(m, dict)]
    if moves:
        out.append("failure kinds, baseline -> this arm: " + "; ".join(
            f"{m['from']} -> {m['to']}: {m['count']}" for m in moves[:6]) + ("; ..." if len(moves) > 6 else ""))
    veto = arm.get("veto") or {}
    broken = veto.get("broken") or []
    cases = f"{', '.join(broken[:5])}{', ...' if len(broken) > 5 else ''}"
    if veto.get("vetoed"):
        why = [f"the score fell by more than chance (the paired score test behind the interval: p "
               f"{_p(veto.get('regression_p'))} after Holm across the arms; McNemar counts only the cases that "
               "went from or to PASS)"] if veto.get("regression") else []
        if broken and not veto.get("regression"):
            why.append(f"broke {counted(len(broken), 'case')} that passed every baseline repeat ({cases}), against "
                       f"{veto.get('fixed', 0)} fixed (p {_p(veto.get('broken_p'))} before Holm)")
        out.append("VETO: " + "; ".join(why))
    elif broken:
        out.append(f"broke {counted(len(broken), 'case')} that passed every baseline repeat ({cases}), against "
                   f"{veto.get('fixed', 0)} fixed: within chance, not a veto")
    for effect in (arm.get("tool_effects") or [])[:5]:
        if effect.get("regressed") or effect.get("improved"):
            sig = " (significant after Holm)" if effect.get("significant") else ""
            out.append(f"{effect['tool']}: {len(effect['regressed'])} of {counted(effect['cases'], 'case')} fell from PASS, "
                       f"{len(effect['improved'])} rose{sig}")
    if arm.get("note"):
        out.append(str(arm["note"]))
    return out


METHOD = ("each arm against the baseline on the cases both graded: score difference with the paired "
          "interval compare uses; exact McNemar on the cases that went from or to PASS; Holm across the arms")


def text_lines(card: dict) -> list[str]:
    block = present(card)
    if block is None:
        return []
    table_rows = [HEAD, *rows(block)]
    widths = [max(len(r[i]) for r in table_rows) for i in range(len(HEAD))]
    out = ["", f"{TITLE} (the first is the baseline)"]
    out += ["  " + "  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in table_rows]
    for arm in block:
        out += [f"  {arm['name']}: {line}" for line in arm_lines(arm)]
    return out + [f"  method: {METHOD}"]


def markdown_lines(card: dict) -> list[str]:
    block = present(card)
    if block is None:
        return []
    out = ["", f"## {TITLE}", "", "The first arm is the baseline.", "",
           "| " + " | ".join(HEAD) + " |", "|---|---|" + "---:|" * (len(HEAD) - 2)]
    out += ["| " + " | ".join(md_text(c) for c in r) + " |" for r in rows(block)]
    notes = [f"- **{md_text(arm['name'])}**: {md_text(line)}" for arm in block for line in arm_lines(arm)]
    return out + ([""] + notes if notes else []) + ["", f"Method: {md_text(METHOD)}."]


def html_part(card: dict) -> str | None:
    block = present(card)
    if block is None:
        return None
    notes = [f"<li><strong>{esc(arm['name'])}</strong>: {esc(line)}</li>" for arm in block for line in arm_lines(arm)]
    return section(f"{TITLE} (the first is the baseline)", [
        table(HEAD, rows(block), label="Arms against the baseline", right={2, 3, 4, 5}, cls="arms"),
        *([f"<ul>{''.join(notes)}</ul>"] if notes else []),
        f"<p class=\"muted small\">Method: {esc(METHOD)}.</p>"])
