"""Self-check assertions for arms (issue 41): knobs in each provider's field, a knob with no field
refused, ablations seeded so the page and the terminal send the same bytes (the orders and the
digest below were computed in CPython; `index.html?selftest=1` recomputes them in Pyodide),
calls turned back before grading, and the tests' numbers. Part of `python -m toolproof selftest`
and `index.html?selftest=1` alike.

Pure: no I/O (its documents are the kit's).
"""
from __future__ import annotations

import hashlib
import json
from typing import Any, Callable

from toolproof.arms.ablation import ablate_document, offer_order, unmask_map
from toolproof.arms.audit import sign_test
from toolproof.arms.knobs import apply_knobs, knob_problem
from toolproof.grading.unmask import unmask_call
from toolproof.providers.reply import Call
from toolproof.scoring.board import holm
from .kit import TOOLS_DOC

# what CPython computes for the kit's tools at seed 7: the page must compute the same
ORDER_7 = ["lookup", "refund", "place_order", "send_mail"]
OFFER_7 = ["place_order", "send_mail", "lookup", "refund"]
DIGEST_7 = "a90b107008253e85a2726b07f85a0962b285aa9df31216a1aa9ba5102a32b3a2"


def arm_checks(check: Callable[[str, Any], None]) -> None:
    body = {"model": "m", "tools": [{"type": "function", "function": {"name": "lookup", "parameters": {}}}],
            "tool_choice": "auto", "parallel_tool_calls": False}
    sent = apply_knobs("openai", body, {"strict": True, "tool_choice": "lookup", "parallel_tool_calls": True})
    check("arms: Chat Completions knobs in their fields, the plain body untouched",
          sent["tools"][0]["function"]["strict"] is True and sent["parallel_tool_calls"] is True
          and sent["tool_choice"] == {"type": "function", "function": {"name": "lookup"}}
          and "strict" not in body["tools"][0]["function"] and apply_knobs("openai", body, {}) == body)
    anthropic = apply_knobs("anthropic", {"tool_choice": {"type": "auto"}}, {"tool_choice": "required",
                                                                             "parallel_tool_calls": False})
    check("arms: Messages tool_choice any with parallel calls disabled",
          anthropic["tool_choice"] == {"type": "any", "disable_parallel_tool_use": True})
    check("arms: a knob the provider has no field for is refused before sending",
          (knob_problem("gemini", {"strict": True}) or "").startswith("gemini") and knob_problem("openai", {}) is None)
    names = [t["name"] for t in TOOLS_DOC["tools"]]
    every = ablate_document(TOOLS_DOC, ("descriptions", "names", "param_names", "order"), 7)
    check("arms: the order ablation and a case's offer, seeded alike in page and terminal",
          [t["name"] for t in ablate_document(TOOLS_DOC, ("order",), 7)["tools"]] == ORDER_7
          and offer_order(names, 7, "case-1") == OFFER_7)
    check("arms: the same seed gives the same bytes",
          hashlib.sha256(json.dumps(every, ensure_ascii=False).encode()).hexdigest() == DIGEST_7)
    mapping = unmask_map(TOOLS_DOC, ("names", "param_names"))
    back = unmask_call(Call("tool_2", {"arg_0": "ORD-1"}), mapping)
    check("arms: a call under opaque names grades as the catalogue's call",
          back.name == "lookup" and back.arguments == {"order_id": "ORD-1"})
    check("arms: Holm across arms and the effort sign test",
          holm([0.01, 0.04, None]) == [0.02, 0.04, None] and sign_test([1] * 10, [2] * 10) == 0.001953
          and sign_test([0, 0], [0, 0]) == 1.0)
