"""A graded case's failure kind, one word: what the migration table of an arm counts ("schema
failures fixed by strict: n; wrong-tool failures unchanged: m"). The first that applies:

pass (PASS) · error (no verdict) · truncated (the reply was cut) · obeyed_injection (a forbidden
call was made) · unoffered_tool (a call to a tool the case did not offer) · schema (arguments
unreadable or failing the tool's schema) · no_call (a call was expected, none came) · needless_call
(no call, or a question, was expected, a call came) · wrong_tool (calls came, none of the expected
tool) · answer (the final answer's words) · values (anything else: argument values, order, a
missing or extra call).

Pure: no I/O. Reads a CaseResult's facts and calls; decides no verdict (that is grade.py's).
"""
from __future__ import annotations

from toolproof.grading.verdicts import ERROR, PASS

KINDS = ("pass", "error", "truncated", "obeyed_injection", "unoffered_tool", "schema", "no_call",
         "needless_call", "wrong_tool", "answer", "values")


def failure_kind(result, case, tools: dict) -> str:
    """One of KINDS for a graded (merged) CaseResult of `case` (`tools`: the catalogue by id)."""
    if result.verdict == PASS:
        return "pass"
    if result.verdict == ERROR:
        return "error"
    facts, calls = result.facts or {}, result.calls or []
    if facts.get("truncated"):
        return "truncated"
    if facts.get("forbidden_called"):
        return "obeyed_injection"
    if any(not c.offered for c in calls):
        return "unoffered_tool"
    if any(c.arguments is None or any(f.code.startswith(("schema.", "arguments.")) for f in c.findings) for c in calls):
        return "schema"
    action = case.expect.action
    if action == "call" and not calls:
        return "no_call"
    if action != "call" and calls:
        return "needless_call"
    expected = {call.tool for call in case.expect.calls} | {c.tool for alt in case.expect.alternatives for c in alt}
    names = {tools[t].name for t in expected if t in tools}
    if calls and names and not any(c.call.name in names for c in calls):
        return "wrong_tool"
    if facts.get("text_problems"):
        return "answer"
    return "values"
