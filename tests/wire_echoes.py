"""What a second turn's request echoes and answers, per wire format: the one reading the reply
bounding tests share (tests/providers/test_trimming.py, tests/running/test_runner_replies.py)."""
from __future__ import annotations


def echoed_and_answered(wire: str, request: dict) -> tuple[list, list]:
    """(the call ids the echoed assistant turn holds, the call ids the tool results answer)."""
    if wire == "openai":
        assistant = next(m for m in request["messages"] if m["role"] == "assistant")
        return ([c["id"] for c in assistant["tool_calls"]],
                [m["tool_call_id"] for m in request["messages"] if m["role"] == "tool"])
    if wire == "anthropic":
        echo, results = request["messages"][1]["content"], request["messages"][2]["content"]
        return [b["id"] for b in echo if b["type"] == "tool_use"], [b["tool_use_id"] for b in results]
    if wire == "openai-responses":
        items = request["input"]
        return ([i["call_id"] for i in items if i["type"] == "function_call"],
                [i["call_id"] for i in items if i["type"] == "function_call_output"])
    model, answers = request["contents"][1]["parts"], request["contents"][2]["parts"]
    return ([p["functionCall"]["name"] for p in model if "functionCall" in p],
            [p["functionResponse"]["name"] for p in answers])
