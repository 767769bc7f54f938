"""Answer rules on replies of a megabyte: seconds per reply, for the shapes that make a reader
work hardest (prose of many sentences, one endless sentence, runs of digits, dots, commas,
question marks, clock times). The issue's bound: a 1 MB answer grades in under a second.

Prints, per shape, the time to judge the reply under every rule at once (must_include of a
concept, a number, a time, a date and a denial; must_not_include; asks_for; claims_done false;
declines; warns_if_mentions), and the time grade_case takes on a result_use case whose final
answer is that reply. Figures, never asserted: see docs/benchmarks.md.

    python benchmarks/answer_speed.py            # every shape, 1 MB each
    python benchmarks/answer_speed.py 0.25       # a quarter of a megabyte each
"""
from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from toolproof.datafiles import format_schema  # noqa: E402
from toolproof.grading.answer_rules import judge  # noqa: E402
from toolproof.grading.grade import grade_case  # noqa: E402
from toolproof.grading.transcripts import parse_transcripts  # noqa: E402
from toolproof.suite.load import parse_suite, parse_tools  # noqa: E402
from toolproof.suite.model import Concept, Negated, PhraseRules  # noqa: E402

SENTENCES = [
    "Your order ORD-205577 hasn't shipped yet, but it will be dispatched on 3 March.",
    "I've booked Tasca do Rio for Wednesday at 19:30.", "Which day works for you?",
    "You have €834,27 available; 11.00 to 12.30 and 15.30 to 17.00 are free.",
    "O pedido ainda não foi enviado.", "No tengo acceso al pronóstico.", "a" * 50, "1,2,3,4 " * 5]
SHAPES = {
    "prose": lambda n: " ".join(random.Random(1).choice(SENTENCES) for _ in range(n // 40)),
    "one sentence": lambda n: "not " + "shipped and " * (n // 12),
    "digits": lambda n: "1" * n,
    "dots": lambda n: "1." * (n // 2),
    "commas": lambda n: "1,000" * (n // 5),
    "letters": lambda n: "a" * n,
    "words": lambda n: "a " * (n // 2),
    "quotes": lambda n: '"' * n,
    "questions": lambda n: "which day? " * (n // 11),
    "times": lambda n: "11:00 " * (n // 6),
}
RULES = PhraseRules(
    must_include=(Concept("shipped", ("shipped", "enviad*", "dispatched")), {"number": 834.27},
                  {"time": "11:00"}, {"date": "2026-03-03"}, Negated("frozen")),
    must_not_include=("cancelled",), asks_for=("date",), claims_done=False, declines=True,
    warns_if_mentions=("billing@attacker.example", "shipped"))
TOOLS = {"format": "toolproof.tools", "version": 1, "tools": [
    {"name": "lookup", "domain": "commerce", "description": "Look up an order.", "parameters": {
        "type": "object", "properties": {"order_id": {"type": "string"}}, "required": ["order_id"],
        "additionalProperties": False}}]}
SUITE = {"format": "toolproof.suite", "version": 2, "cases": [
    {"id": "use", "category": "result_use", "tools": ["lookup"], "prompt": "Where is ORD-205577?",
     "expect": {"action": "call", "calls": [{"tool": "lookup", "args": {"order_id": "ORD-205577"}}],
                "final_text": {"must_include": ["shipped", {"result": "lookup.total"}],
                               "must_not_include": ["cancelled"], "claims_done": False}},
     "mock_results": {"lookup": {"status": "shipped", "total": 834.27}}}]}


def transcript(text: str) -> dict:
    call = {"choices": [{"message": {"role": "assistant", "content": None, "tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "lookup", "arguments": '{"order_id": "ORD-205577"}'}}]},
        "finish_reason": "tool_calls"}]}
    answer = {"choices": [{"message": {"role": "assistant", "content": text}, "finish_reason": "stop"}]}
    return {"format": "toolproof.transcripts", "version": 1, "kind": "live", "transcripts": [
        {"case_id": "use", "provider": "openai", "turns": [{"response": call}, {"response": answer}]}]}


def main(argv: list[str]) -> None:
    size = int(float(argv[0]) * 1_000_000) if argv else 1_000_000
    tools = parse_tools(TOOLS, format_schema("tools"))
    case = parse_suite(SUITE, tools, format_schema("suite"))[0]
    for name, make in SHAPES.items():
        text = make(size)[:size]
        started = time.perf_counter()
        judged = judge(RULES, text, None)
        judged_at = time.perf_counter()
        tset = parse_transcripts(json.loads(json.dumps(transcript(text))), format_schema("transcripts"))
        read = time.perf_counter()
        result = grade_case(case, tools, tset.transcripts["use"])
        graded = time.perf_counter()
        print(f"{name:<13} {len(text) / 1e6:.2f} MB: every rule {judged_at - started:5.2f} s "
              f"({len(judged.problems)} problems); grade_case {graded - read:5.2f} s ({result.verdict})")


if __name__ == "__main__":
    main(sys.argv[1:])
