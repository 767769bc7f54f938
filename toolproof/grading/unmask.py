"""An ablated arm's transcripts as the grader reads them: every call's opaque tool name and
parameter names turned back into the catalogue's, so the verdict measures what the model was
shown, never the rename itself. The map ({shown name: {"name", "params": {arg_k: name}}}) is
arms/ablation.unmask_map's; a results file keeps it in the arm's entry, and an arm's own results
document (arms/analysis.split_arms) carries it as `unmask`, which parse_transcripts applies.

A name the map does not know stays as it is (a hallucinated tool stays one); a catalogue name the
arm hid behind an opaque one (ablate=names) is marked NOT_SHOWN, so a call by a name the model was
never shown is graded as a call to a tool not offered, not as the tool.

Pure: no I/O.
"""
from __future__ import annotations

from dataclasses import replace

from toolproof.providers.reply import Call, Reply
from toolproof.suite.toolnames import name_from_wire

NOT_SHOWN = " (a name this arm did not show)"


def unmask_call(call: Call, mapping: dict) -> Call:
    """`call` under the catalogue's names: its tool name (as shown, or its wire form) and its
    top-level argument keys translated back. A name not in the map (a hallucinated tool) and an
    argument key not in the tool's params stay as they are; unreadable arguments stay None. Should
    a model send both a renamed key and the original name it stands for, the renamed key's value
    is kept (it is the one the model was shown). `raw_arguments` stays what the provider sent."""
    if not mapping:
        return call
    shown = name_from_wire(call.name, mapping) if isinstance(call.name, str) else call.name
    entry = mapping.get(shown)
    if not isinstance(entry, dict):
        return call
    params = entry.get("params") or {}
    arguments = call.arguments
    if isinstance(arguments, dict) and params:
        shown_twice = {params[k] for k in arguments if k in params}
        # in the model's key order; an original name the model also sent renamed loses to it
        arguments = {params.get(k, k): v for k, v in arguments.items() if k in params or k not in shown_twice}
    return replace(call, name=entry.get("name", call.name), arguments=arguments)


def unmask_reply(reply: Reply, mapping: dict) -> Reply:
    """`reply` with every call unmasked (unmask_call)."""
    if not mapping or not reply.calls:
        return reply
    return replace(reply, calls=tuple(unmask_call(c, mapping) for c in reply.calls))


def _hidden(reply, mapping: dict):
    """The reply with each call by a hidden catalogue name marked (see the module docstring)."""
    hidden = {v["name"] for k, v in mapping.items() if v["name"] != k} - set(mapping)
    if not hidden or not any(c.name in hidden for c in reply.calls):
        return reply
    return replace(reply, calls=tuple(replace(c, name=c.name + NOT_SHOWN) if c.name in hidden else c
                                      for c in reply.calls))


def unmask_transcript(transcript, mapping: dict):
    """Every reply of every turn and variant with its calls turned back."""
    if not mapping:
        return transcript

    def turns(ts: tuple) -> tuple:
        return tuple(replace(t, reply=unmask_reply(_hidden(t.reply, mapping), mapping)) if t.reply is not None else t
                     for t in ts)

    return replace(transcript, turns=turns(transcript.turns),
                   variants=tuple((vid, turns(ts)) for vid, ts in transcript.variants))

