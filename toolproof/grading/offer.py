"""A reply's calls read against the case's offer: each tool name the model sent mapped back to
the offered catalogue entry (its id) it stands for, per case (toolnames.py), and its arguments
checked against that entry's schema.

Names may repeat across the catalogue, never within one case's offer, so a name the model sent
can only ever mean one entry here. A name the case did not offer keeps what the model sent and
the call is not offered (a hallucinated tool), even when some entry's id happens to be spelled so.

Pure: no I/O.
"""
from __future__ import annotations

from dataclasses import replace

from toolproof.errors import Finding
from toolproof.providers.conversation import read_arguments
from toolproof.providers.reply import Call
from toolproof.suite.model import Case, Tool, offer_of
from toolproof.suite.toolnames import id_from_wire
from .normalize import cast_lenient
from .verdicts import CheckedCall


def check_call(call: Call, turn: int, case: Case, tools: dict[str, Tool], lenient: bool) -> CheckedCall:
    """One call as graded: named by the offered entry's id ('git_status' on the wire is the
    entry named 'git.status'), unreadable arguments kept as a finding, schema findings listed."""
    call = read_arguments(call)
    tool_id = id_from_wire(call.name, offer_of(case.tools, tools)) if isinstance(call.name, str) else None
    if tool_id is not None and tool_id != call.name:
        call = replace(call, name=tool_id)
    arguments = call.arguments
    findings: list[Finding] = []
    if arguments is None:
        findings.append(Finding("arguments.unreadable", "$", call.parse_error or "arguments could not be read"))
    elif tool_id is not None:
        tool = tools[tool_id]
        if lenient:
            arguments = cast_lenient(arguments, tool.parameters)
        findings = tool.schema.findings(arguments)
    return CheckedCall(turn, call, tool_id is not None, arguments, findings)
