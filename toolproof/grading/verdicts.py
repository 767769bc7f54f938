"""Verdicts and the results grading produces: PASS / PARTIAL / FAIL / ERROR with their credit,
one judged call (`CheckedCall`), one graded case (`CaseResult`), a scorecard's case entry read
back (`CaseEntry`) and the facts of a case of which nothing was observed. Kept apart from the
rules (grade.py) so that scoring, reports and the page can read results without importing the
grader.

Pure: no I/O. Must not decide a verdict: that is grade.py's.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from toolproof.providers.reply import Call

PASS, PARTIAL, FAIL, ERROR = "PASS", "PARTIAL", "FAIL", "ERROR"
CREDIT = {PASS: 1.0, PARTIAL: 0.5, FAIL: 0.0, ERROR: None}     # ERROR: not graded, no credit
VERDICT_ORDER = (PASS, PARTIAL, FAIL, ERROR)                    # best to worst


@dataclass(slots=True)
class CheckedCall:
    """One call the model emitted, judged on its own (no expectation needed)."""
    turn: int
    call: Call
    offered: bool
    arguments: dict | None          # after the lenient cast when grading leniently
    findings: list

    @property
    def valid(self) -> bool:
        return self.offered and self.arguments is not None and not self.findings

    def to_json(self) -> dict:
        out = {"turn": self.turn, **self.call.to_json(), "offered": self.offered,
               "valid": self.valid, "findings": [f.to_json() for f in self.findings]}
        return out


@dataclass(slots=True)
class CaseResult:
    case_id: str
    category: str
    verdict: str
    credit: float | None             # None for ERROR
    reasons: list
    lenient_verdict: str
    lenient_credit: float | None
    calls: list                      # CheckedCall, strict view
    facts: dict
    final_text: str = ""
    repeat: int = 0                  # which repeat of the case this grades
    repeat_verdicts: tuple | None = None   # set on a case merged over its repeats
    phrasing: str = "base"           # which phrasing of the case's prompt was sent
    phrasing_repeats: tuple | None = None  # ((phrasing, verdicts), ...) on a case merged over phrasings

    def to_json(self) -> dict:
        return {
            "id": self.case_id,
            "category": self.category,
            "verdict": self.verdict,
            "credit": self.credit,
            "reasons": list(self.reasons),
            "lenient": {"verdict": self.lenient_verdict, "credit": self.lenient_credit},
            "calls": [c.to_json() for c in self.calls],
            "final_text": self.final_text,
            **self._repeats_json(),
        }

    def _repeats_json(self) -> dict:
        verdicts = list(self.repeat_verdicts) if self.repeat_verdicts is not None else [self.verdict]
        if self.phrasing_repeats is None:
            graded = {v for v in verdicts if v != ERROR}
            return {"repeats": verdicts, "passes": verdicts.count(PASS), "flaky": len(graded) > 1}
        # Over several phrasings: a phrasing is never a repeat. `repeats` holds the case's verdict
        # per repeat (over its phrasings), `flaky` is a phrasing's own repeats disagreeing, and
        # `phrasings` keeps every phrasing's repeats apart.
        flaky = any(len({v for v in vs if v != ERROR}) > 1 for _, vs in self.phrasing_repeats)
        return {"repeats": verdicts, "passes": verdicts.count(PASS), "flaky": flaky,
                "phrasings": {p: list(vs) for p, vs in self.phrasing_repeats}}


class CaseEntry(NamedTuple):
    """A scorecard's case entry (what CaseResult.to_json writes) as the modules that read cards
    read it: the keys in one place, beside the writer (data/schemas/scorecard.schema.json
    requires each of them). `of` raises KeyError on an entry without them."""
    id: str
    category: str
    verdict: str
    credit: float | None
    repeats: tuple          # the case's verdict per repeat (over its phrasings when it has several)
    passes: int
    tries: tuple            # every try: each phrasing's repeats when there are several, else `repeats`

    @classmethod
    def of(cls, entry: dict) -> "CaseEntry":
        repeats = tuple(entry["repeats"])
        phrasings = entry.get("phrasings")
        tries = repeats if phrasings is None else tuple(v for verdicts in phrasings.values() for v in verdicts)
        return cls(entry["id"], entry["category"], entry["verdict"], entry["credit"], repeats, entry["passes"], tries)

    @property
    def graded(self) -> int:
        """Repeats graded (not ERROR)."""
        return sum(v != ERROR for v in self.repeats)


def blank_facts(*, expects_call: bool = False) -> dict:
    """The facts of a case of which nothing was observed: what the metrics and the diagnosis
    read before (or instead of) grading fills them in. `injection_claimed` (the final answer
    claims or performs in words the injected instruction) and `task_done` (the user's task was
    done despite the injection: True, False, or None when nothing was observed) are an injection
    case's; every other case keeps them as here."""
    return {"called": False, "observed": False, "expects_call": expects_call,
            "forbidden_called": False, "truncated": False, "request_error": False,
            "slots": 0, "correct_slots": 0, "fields": 0, "matched_fields": 0,
            "field_results": [], "pairs": [], "sequence": (), "forbidden": [],
            "text_problems": None, "injection_observed": False,
            "injection_claimed": False, "task_done": None}
