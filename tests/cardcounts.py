"""A card's counts recomputed from a results file by the definitions the card states
(reports/card_counts.py, docs/statistics.md "Cases, conversations, requests"), independently of
scoring/: shared by tests/reports/test_card_counts.py and the page's test of the same counts.

The recomputation reads only the file: which conversations it holds, each conversation's own
verdict (the grader's, one transcript at a time) and each turn's attempts. The counting (a case's
verdict from its conversations, the plan and its coverage, the requests) is done here again.
"""
from __future__ import annotations

from collections import Counter

from toolproof.datafiles import format_schema
from toolproof.grading.guarded import grade_phrased
from toolproof.grading.results_refs import expand
from toolproof.grading.transcripts import parse_transcripts
from toolproof.suite.model import chosen_phrasings, scoped

WORSE = ("PASS", "PARTIAL", "FAIL")          # a tie goes to the later one


def most_common(verdicts: list[str]) -> str:
    """The stated rule: the most common graded verdict, a tie to the worse; ERROR when none."""
    graded = [v for v in verdicts if v != "ERROR"]
    if not graded:
        return "ERROR"
    counts = Counter(graded)
    return max(WORSE, key=lambda v: (counts[v], WORSE.index(v)))


def recompute(doc: dict, cases: list, tools: dict) -> dict:
    """The card's counts from the results file alone, by the definitions the card states."""
    doc = expand(doc)                       # a results file may write repeated parts once
    settings = doc.get("settings") or {}
    choice, repeats = settings.get("phrasings", "base"), settings.get("repeats", 1)
    by_id = {c.id: c for c in cases}
    parsed = parse_transcripts(doc, format_schema("transcripts"), set(by_id))
    # each conversation's own verdict, and whether a request of it failed after its retries
    per_case: dict[str, dict[str, list[str]]] = {}
    errored = 0
    for case_id, conversations in parsed.all_repeats().items():
        for t in conversations:
            verdict = grade_phrased(by_id[case_id], tools, t).verdict
            per_case.setdefault(case_id, {}).setdefault(t.phrasing, []).append(verdict)
            errored += verdict == "ERROR"
    # a case's verdict: the most common of its phrasings' verdicts, each the most common of its repeats
    verdict = {cid: most_common([most_common(vs) for vs in phrasings.values()])
               for cid, phrasings in per_case.items()}
    tally = Counter(verdict.values())
    planned = repeats * sum(len(chosen_phrasings(c, choice)) for c in scoped(cases, doc.get("scope", "all")))
    present = len(doc["transcripts"])
    # requests: every turn's attempts (1 when absent), every variant's own second turn
    requests = sum(turn.get("attempts", 1) for raw in doc["transcripts"]
                   for turn in raw["turns"] + [v["turns"][1] for v in raw.get("variants", [])])
    categories: dict[str, Counter] = {}
    for cid, v in verdict.items():
        categories.setdefault(by_id[cid].category, Counter())[v] += 1
    return {"cases": len(verdict), "PASS": tally["PASS"], "PARTIAL": tally["PARTIAL"], "FAIL": tally["FAIL"],
            "error": tally["ERROR"], "planned": planned, "graded": present - errored, "conversation_errors": errored,
            "not_started": planned - present, "requests": requests, "categories": categories}
