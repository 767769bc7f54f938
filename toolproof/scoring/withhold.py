"""A score's absence, written into the scorecard itself, so every view reads the same fields.

The one rule: a scorecard with below half of its plan graded (coverage.below_half), or with
nothing graded, has no score. Its JSON then says so, and every view (text, Markdown, HTML, JUnit,
the page, the sweep's rows, the page's kept runs) shows what the fields say, never the rule again:
- `score`, `strict.score`, `lenient.score` and `intervals.score` are null;
- every category's score (`categories.*.score`, `strict.categories`, `lenient.categories`) is null
  and `intervals.categories` is {}: a category's score is a score too;
- `reliability.pass_hat_k` and `pass_at_k` keep their k but every value is null;
- in `robustness`, the worst-phrasing score, its interval and what chance alone would give it, the
  score of each phrasing and of each language and their intervals, and the language gap and its
  interval are null (consistency is a count of cases, like the rates: it keeps its interval);
- `no_score_reason` says why in one line, quoting the coverage ("only 20 of 72 cases graded (52 not
  started), below half of the plan").
What was counted stays: `counts`, `coverage`, the verdicts, the nine rates (each a rate over what
was graded, with its own denominator, and their intervals), `error_rate`, consistency as "N of M
cases" with its interval, `cost`.

A score is also null when no category with a graded case has a weight above 0; `no_score_reason`
says that too, and nothing else is withheld. So `no_score_reason` is a string exactly when `score`
is null, and null otherwise; it sits right after `score`.

`withhold` is idempotent: a withheld card comes back unchanged, and a scorecard written before
this rule (an older export) is brought to it by the same call.

Pure: no I/O.
"""
from __future__ import annotations

from .coverage import below_half, coverage_text, plan_unit

UNWEIGHTED = "no category with a graded case has a weight above 0"


def _graded(card: dict) -> int:
    cov = card.get("coverage")
    if isinstance(cov, dict):
        return cov["graded"]
    return sum(isinstance(c, dict) and c.get("verdict") != "ERROR" for c in card.get("cases") or [])


def unscored(card: dict) -> bool:
    """Below half of the plan graded, or nothing graded: the card's scored numbers are withheld."""
    return below_half(card.get("coverage")) or _graded(card) == 0


def no_score_reason(card: dict) -> str | None:
    """Why `card` has no score, in one line; None when it has one."""
    if unscored(card):
        covered = coverage_text(card.get("coverage"), plan_unit(card))
        if _graded(card) == 0:
            return "nothing was graded" + (f" ({covered})" if covered else "")
        return f"only {covered}, below half of the plan"
    if card.get("score") is not None:
        return None
    # a reason already given stands (a sweep whose main level alone is below half of its plan)
    return card.get("no_score_reason") or UNWEIGHTED


def withhold(card: dict) -> dict:
    """The card with `no_score_reason` after `score` and, when it has no score by the rule, every
    scored number null (see the module's docstring)."""
    reason = no_score_reason(card)
    source = _nulled(card) if unscored(card) else card
    out: dict = {}
    for key, value in source.items():
        if key == "no_score_reason":
            continue
        out[key] = value
        if key == "score":
            out["no_score_reason"] = reason
    return out


def _nulled(card: dict) -> dict:
    out = {**card, "score": None}
    if isinstance(card.get("categories"), dict):
        out["categories"] = {c: {**row, "score": None} for c, row in card["categories"].items()}
    for key in ("strict", "lenient"):
        if isinstance(card.get(key), dict):
            part = card[key]
            out[key] = {**part, "score": None, "categories": {c: None for c in part.get("categories") or {}}}
    if isinstance(card.get("intervals"), dict):
        out["intervals"] = {**card["intervals"], "score": None, "categories": {}}
    rel = card.get("reliability")
    if isinstance(rel, dict):
        out["reliability"] = {**rel, **{k: {n: None for n in rel[k]} for k in ("pass_hat_k", "pass_at_k")
                                        if isinstance(rel.get(k), dict)}}
    if isinstance(card.get("robustness"), dict):
        out["robustness"] = _wording_nulled(card["robustness"])
    return out


def _wording_nulled(found: dict) -> dict:
    """The robustness block's scores and their intervals null; its counts (consistency "N of M"
    and its interval, a proportion of cases as the rates are) stay."""
    worst = found.get("worst")
    out = {**found,
           "per_phrasing": [{**{k: v for k, v in p.items() if k != "interval_note"}, "score": None, "interval": None}
                            for p in found.get("per_phrasing") or []]}
    if isinstance(worst, dict):
        out["worst"] = {**worst, "score": None, "interval": None}
    if isinstance(found.get("per_language"), list):
        out["per_language"] = [{**{k: v for k, v in p.items() if k != "interval_note"}, "score": None, "interval": None}
                               for p in found["per_language"]]
    if isinstance(found.get("language_gap"), dict):
        gap = {k: v for k, v in found["language_gap"].items() if k != "interval_note"}
        out["language_gap"] = {**gap, "english": None, "other": None, "delta": None, "interval": None}
    if "worst_phrasing_expected_by_chance" in found:
        out["worst_phrasing_expected_by_chance"] = None
    return out
