"""Build staging/phrase/fixtures.json: fixtures for the Portuguese and Spanish phrasings (issue 40).

Each fixture is written here as (case, phrasing, provider, verdict, note, turns, variants), a turn
being either a text reply or a list of calls; the script wraps them in the providers' wire shapes.
"""
import json
from pathlib import Path

N = [0]


def _next():
    N[0] += 1
    return N[0]


def turn(provider, item):
    n = _next()
    if provider == "openai":
        if isinstance(item, str):
            msg, finish = {"role": "assistant", "content": item}, "stop"
        else:
            msg = {"role": "assistant", "content": None, "tool_calls": [
                {"id": f"call_phr{n:03d}{i}", "type": "function",
                 "function": {"name": name, "arguments": json.dumps(args, ensure_ascii=False)}}
                for i, (name, args) in enumerate(item)]}
            finish = "tool_calls"
        return {"response": {"id": f"chatcmpl-phr{n:03d}", "object": "chat.completion",
                             "created": 1780000000 + n, "model": "fixture",
                             "choices": [{"index": 0, "message": msg, "finish_reason": finish}],
                             "usage": {"prompt_tokens": 480, "completion_tokens": 60, "total_tokens": 540}}}
    if isinstance(item, str):
        content, stop = [{"type": "text", "text": item}], "end_turn"
    else:
        content = [{"type": "tool_use", "id": f"toolu_phr{n:03d}{i}", "name": name, "input": args}
                   for i, (name, args) in enumerate(item)]
        stop = "tool_use"
    return {"response": {"id": f"msg_phr{n:03d}", "type": "message", "role": "assistant", "model": "fixture",
                         "content": content, "stop_reason": stop, "stop_sequence": None,
                         "usage": {"input_tokens": 480, "output_tokens": 60}}}


SEEN: dict = {}


def fx(case, phrasing, provider, verdict, note, turns, variants=None):
    repeat = SEEN[(case, phrasing)] = SEEN.get((case, phrasing), -1) + 1
    out = {"case_id": case, "phrasing": phrasing, "repeat": repeat, "provider": provider, "model": "fixture",
           "intended_verdict": verdict, "note": note, "turns": [turn(provider, t) for t in turns]}
    if variants:
        out["variants"] = [{"id": vid, "turns": [turn(provider, t) for t in ts]} for vid, ts in variants]
    return out


from fixtures_data import FIXTURES  # noqa: E402

doc = {"transcripts": [fx(*f) for f in FIXTURES]}
Path(__file__).resolve().parent.parent.joinpath("fixtures.json").write_text(
    json.dumps(doc, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
print(f"{len(doc['transcripts'])} fixtures")
