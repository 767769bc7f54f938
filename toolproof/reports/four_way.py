"""The four-way decision table (diagnosis.decide.four_way: call / ask / answer / decline) as every
view shows it: its rows and summary lines once here, then drawn as text, Markdown and HTML (the
page's diagnosis card draws the same rows with the DOM).

Shows what the block's fields say and computes nothing: rows expected, columns observed, each
row's recall and each column's precision as the block gives them, macro-F1 with its interval,
"N of M conversations" and the method.

Pure: returns strings.
"""
from __future__ import annotations

from toolproof.plurals import counted

from .figures import interval_span, percent
from .html import esc, table
from .markdown import md_text

TITLE = "Decide: four ways"
CORNER = "expected \\ observed"


def present(decide: dict) -> dict | None:
    """The decide part's four-way block, or None when a card (an older one) has none, or one
    not of its shape (a hand-edited file: the views draw nothing rather than fail)."""
    block = decide.get("four_way") if isinstance(decide, dict) else None
    if not isinstance(block, dict) or not isinstance(block.get("per_label"), dict):
        return None
    labels, confusion = block.get("labels"), block.get("confusion")
    if not (isinstance(labels, list) and isinstance(confusion, list) and len(labels) == len(confusion)
            and all(isinstance(r, list) and len(r) == len(labels) for r in confusion)):
        return None
    return block


def _per(fw: dict, label) -> dict:
    found = fw["per_label"].get(label)
    return found if isinstance(found, dict) else {}


def head(fw: dict) -> list[str]:
    return [CORNER, *map(str, fw["labels"]), "recall"]


def rows(fw: dict) -> list[list[str]]:
    """One row per expected label (its counts and recall), then the observed totals and each
    column's precision."""
    out = [[str(label), *map(str, counts), percent(_per(fw, label).get("recall"))]
           for label, counts in zip(fw["labels"], fw["confusion"])]
    out.append(["observed", *(str(_per(fw, label).get("observed", "")) for label in fw["labels"]), ""])
    out.append(["precision", *(percent(_per(fw, label).get("precision")) for label in fw["labels"]), ""])
    return out


def summary(fw: dict) -> str:
    """'macro-F1 88.5% (95% CI 77–96%) over 216 of 222 conversations (turn 1 observed); no case
    expects decline'."""
    bounds = fw.get("macro_f1_interval")
    ci = f" (95% CI {interval_span(bounds, 100, '%')})" if bounds else ""
    unseen = [str(label) for label in fw["labels"] if not _per(fw, label).get("expected")]
    left = f"; no case expects {', '.join(unseen)} (left out of macro-F1)" if unseen else ""
    return (f"macro-F1 {percent(fw['macro_f1'])}{ci} over {fw['covers']} of "
            f"{counted(fw['of'], 'conversation')} (turn 1 observed){left}")


def text_lines(fw: dict, indent: str = "          ") -> list[str]:
    """The table for the terminal, aligned, with its summary and method."""
    table_rows = [head(fw), *rows(fw)]
    widths = [max(len(r[i]) for r in table_rows) for i in range(len(table_rows[0]))]
    out = [indent + "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))).rstrip()
           for r in table_rows]
    return out + [indent + summary(fw), indent + f"method: {fw['method']}"]


def markdown_lines(fw: dict) -> list[str]:
    """The table as a Markdown section (### heading, table, summary, method)."""
    out = ["", f"### {TITLE}", "", "| " + " | ".join(md_text(h) for h in head(fw)) + " |",
           "|---|" + "---:|" * (len(head(fw)) - 1)]
    out += ["| " + " | ".join(md_text(c) for c in r) + " |" for r in rows(fw)]
    return out + ["", f"{md_text(summary(fw))}. Method: {md_text(fw['method'])}."]


def html_parts(fw: dict) -> list[str]:
    """The table and its summary as HTML parts of the report's Diagnosis section."""
    return [f"<h3>{TITLE}</h3>",
            table(head(fw), rows(fw), label="Decisions: expected by observed", right=set(range(1, len(head(fw)))),
                  cls="four-way"),
            f"<p class=\"muted small\">{esc(summary(fw))}. Method: {esc(fw['method'])}.</p>"]

