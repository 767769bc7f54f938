"""Agreement with BFCL's own checker, per category: figures, not a test.

    pip download --no-deps bfcl-eval -d /tmp/bfcl && unzip -q /tmp/bfcl/bfcl_eval-*.whl -d /tmp/bfcl/x
    python benchmarks/bfcl_agreement.py /tmp/bfcl/x [--limit N] [--category a,b,...]

BFCL_ROOT is the unpacked `bfcl-eval` wheel (the folder holding `bfcl_eval/`): its data
(`bfcl_eval/data/`) and its AST checker (`bfcl_eval/eval_checker/ast_eval/ast_checker.py`), used
as they are. The checker's module imports every model handler through `constants.model_config`
only to read `underscore_to_dot`; that one module is replaced by a stub saying True (what BFCL
sets for OpenAI, Anthropic and Gemini function-calling models: the names reach providers with `.`
as `_`, as ours do), so the handlers' SDKs need not be installed.

For each category the data is imported exactly as `suite import-bfcl` does. Then, for every
imported case, a fixed set of model outputs is built from BFCL's ground truth, with every call
named as the model sees the function (BFCL's own name, `.` as `_`): the first possible value of
each parameter, the last, an optional parameter left out, a required one left out, a wrong
value, an unknown parameter, a string in other letter case, an integer sent as a float, another
offered function, no call at all, and for parallel categories the calls reversed and one dropped;
for irrelevance and relevance a text answer and a call with schema-valid placeholder arguments.
BFCL's checker judges each output (ast_checker for the AST categories; for irrelevance and
relevance its rule: a decoded, non-empty call list fails irrelevance and passes relevance); ours
grades the same output as an OpenAI reply. The two agree when BFCL says valid exactly when we
say PASS. An output is comparable unless the two judge it by different type rules (the
documented differences of docs/bfcl.md: a whole float for an `integer`, or an argument the tool's
JSON Schema refuses); agreement is printed over all outputs and over the comparable ones.

Prints, per category: entries, imported cases, skipped entries, cases offering exactly BFCL's
names, outputs, agreement, and the disagreements by output kind.
"""
from __future__ import annotations

import argparse
import copy
import json
import sys
import types
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from toolproof.cli.suite import read_json_lines  # noqa: E402
from toolproof.datafiles import format_schema  # noqa: E402
from toolproof.grading.grade import grade_case  # noqa: E402
from toolproof.grading.transcripts import make_transcript  # noqa: E402
from toolproof.importers.bfcl import ANY_CALL, CATEGORY_OF, NO_CALL, suite_from_bfcl  # noqa: E402
from toolproof.suite.load import parse_suite, parse_tools  # noqa: E402
from toolproof.suite.toolnames import wire_name  # noqa: E402

LIVE = ["live_simple", "live_multiple", "live_parallel", "live_parallel_multiple", "live_irrelevance",
        "live_relevance"]
CATEGORIES = ["simple_python", "multiple", "parallel", "parallel_multiple", "irrelevance"] + LIVE


def bfcl_checker(root: Path):
    """BFCL's ast_checker and Language, imported from the unpacked wheel (model_config stubbed)."""
    sys.path.insert(0, str(root))
    stub = types.ModuleType("bfcl_eval.constants.model_config")

    class _Config:
        underscore_to_dot = True

    class _Mapping(dict):
        def __getitem__(self, key):
            return _Config()
    stub.MODEL_CONFIG_MAPPING = _Mapping()
    sys.modules["bfcl_eval.constants.model_config"] = stub
    from bfcl_eval.constants.enums import Language
    from bfcl_eval.eval_checker.ast_eval.ast_checker import ast_checker
    return ast_checker, Language


# ------------------------------------------------------------------ outputs from the ground truth

def _first(options: list, pick: int):
    real = [o for o in options if o != ""]
    if not real:
        return None, False
    value = real[pick]
    if isinstance(value, list) and value and all(isinstance(x, dict) for x in value):
        return [_args(x, pick) if all(isinstance(v, list) for v in x.values()) else x for x in value], True
    if isinstance(value, dict):         # nested: each key holds its own possible values
        out = {}
        for key, inner in value.items():
            v, ok = _first(inner, pick) if isinstance(inner, list) else (inner, True)
            if ok:
                out[key] = v
        return out, True
    return copy.deepcopy(value), True


def _args(params: dict, pick: int) -> dict:
    out = {}
    for name, options in params.items():
        value, ok = _first(options, pick)
        if ok:
            out[name] = value
    return out


def _wrong(value):
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 7
    if isinstance(value, float):
        return value + 7.5
    if isinstance(value, str):
        return "zzqx wrong"
    if isinstance(value, list):
        return value + (["zzqx"] if not value or isinstance(value[0], str) else [value[0]])
    return None


def _placeholder(schema: dict):
    if "enum" in schema and schema["enum"]:
        return schema["enum"][0]
    return {"string": "x", "integer": 1, "float": 1.5, "number": 1.5, "boolean": True, "array": [],
            "tuple": [], "dict": {}, "object": {}}.get(schema.get("type"), "x")


def outputs(category: str, entry: dict, truth: list | None) -> list[tuple[str, list]]:
    """(kind, [(name as sent, arguments)]) for one entry."""
    functions = entry["function"]
    if category in NO_CALL | ANY_CALL:
        fn = functions[0]
        props = fn["parameters"].get("properties", {})
        args = {p: _placeholder(props.get(p, {})) for p in fn["parameters"].get("required", [])}
        return [("text answer", []), ("a call", [(wire_name(fn["name"]), args)])]
    calls = [(wire_name(name), params) for item in truth for name, params in item.items()]
    gold = [(n, _args(p, 0)) for n, p in calls]
    out = [("first possible values", gold), ("last possible values", [(n, _args(p, -1)) for n, p in calls])]
    name, params = calls[0]
    described = next((f for f in functions if wire_name(f["name"]) == name), functions[0])
    required = described["parameters"].get("required", [])
    optional = [p for p, options in params.items() if "" in options and p in gold[0][1]]
    if optional:
        out.append(("optional left out", [(name, {k: v for k, v in gold[0][1].items() if k != optional[0]})] + gold[1:]))
    present = [p for p in required if p in gold[0][1]]
    if present:
        out.append(("required left out", [(name, {k: v for k, v in gold[0][1].items() if k != present[0]})] + gold[1:]))
    for key, value in gold[0][1].items():
        wrong = _wrong(value)
        if wrong is not None:
            out.append(("wrong value", [(name, {**gold[0][1], key: wrong})] + gold[1:]))
            break
    out.append(("unknown parameter", [(name, {**gold[0][1], "zz_unknown": 1})] + gold[1:]))
    for key, value in gold[0][1].items():
        if isinstance(value, str) and value.upper() != value:
            out.append(("other letter case", [(name, {**gold[0][1], key: value.upper()})] + gold[1:]))
            break
    for key, value in gold[0][1].items():
        if isinstance(value, int) and not isinstance(value, bool):
            out.append(("integer as float", [(name, {**gold[0][1], key: float(value)})] + gold[1:]))
            break
    others = [f for f in functions if wire_name(f["name"]) != name]
    if others:
        out.append(("another function", [(wire_name(others[0]["name"]), gold[0][1])] + gold[1:]))
    out.append(("no call", []))
    if len(gold) > 1:
        out.append(("calls reversed", list(reversed(gold))))
        out.append(("one call dropped", gold[:-1]))
    return out


# ------------------------------------------------------------------ the two verdicts

def bfcl_valid(checker, language, category: str, entry: dict, truth, output: list) -> bool:
    decoded = [{name: args} for name, args in output]
    if category in NO_CALL:
        return not decoded
    if category in ANY_CALL:
        return bool(decoded)
    if not decoded:
        return False            # BFCL: an empty decode is a wrong count / wrong function name
    try:
        return bool(checker(entry["function"], decoded, truth, language.PYTHON, category, "gpt-4o")["valid"])
    except Exception:           # BFCL's checker raising on an output is that output failing
        return False


def our_grade(case, tools, output: list) -> tuple[bool, str | None]:
    """(PASS?, why the output is not comparable or None). Not comparable: an output BFCL and we
    judge by different type rules, the documented differences (docs/bfcl.md): a whole float for
    an `integer` (JSON Schema calls 3.0 an integer, BFCL's type check does not), or arguments the
    tool's JSON Schema refuses (null for a string, a value outside an enum, a letter-case variant
    of an enum value), which we fail as a schema error before comparing values."""
    message = {"role": "assistant", "content": None if output else "An answer in text."}
    if output:
        message["tool_calls"] = [{"id": f"c{i}", "type": "function", "function": {"name": n, "arguments": json.dumps(a)}}
                                 for i, (n, a) in enumerate(output)]
    body = {"choices": [{"message": message, "finish_reason": "tool_calls" if output else "stop"}]}
    transcript = make_transcript({"case_id": case.id, "turns": [{"response": body}]}, "openai")
    result = grade_case(case, tools, transcript)
    why = None
    for checked in result.calls:
        if checked.offered and checked.findings:
            why = "the tool's JSON Schema refuses an argument"
        elif checked.offered and _float_for_integer(checked.arguments or {}, tools[checked.call.name].parameters):
            why = why or "a whole float for an integer"
    return result.verdict == "PASS", why


def _float_for_integer(arguments: dict, schema: dict) -> bool:
    props = schema.get("properties", {}) if isinstance(schema, dict) else {}
    return any(isinstance(v, float) and isinstance(props.get(k), dict) and props[k].get("type") == "integer"
               for k, v in arguments.items())


def measure(root: Path, categories: list[str], limit: int | None) -> list[dict]:
    checker, language = bfcl_checker(root)
    data = root / "bfcl_eval" / "data"
    schemas = {k: format_schema(k) for k in ("tools", "suite")}
    rows = []
    for category in categories:
        entries = read_json_lines(data / f"BFCL_v4_{category}.json")[:limit]
        answers = {}
        if category not in NO_CALL | ANY_CALL:
            answers = {e["id"]: e["ground_truth"] for e in read_json_lines(data / "possible_answer" / f"BFCL_v4_{category}.json")}
        imported = suite_from_bfcl({category: entries}, {category: answers}, schemas)
        tools = parse_tools(imported.tools, schemas["tools"])
        cases = {c.id: c for c in parse_suite(imported.suite, tools, schemas["suite"])}
        by_id = {e["id"]: e for e in entries}
        exact_names = sum([tools[t].name for t in c.tools] == [f["name"] for f in by_id[c.id]["function"]]
                          for c in cases.values())
        total = agree = comparable = agree_comparable = 0
        differ: Counter = Counter()
        apart: Counter = Counter()
        examples: dict = {}
        for cid, case in cases.items():
            truth = answers.get(cid)
            for kind, output in outputs(category, by_id[cid], truth):
                theirs = bfcl_valid(checker, language, category, by_id[cid], truth, output)
                ours, why = our_grade(case, tools, output)
                total += 1
                agree += theirs == ours
                if why is None:
                    comparable += 1
                    agree_comparable += theirs == ours
                else:
                    apart[why] += 1
                if theirs != ours:
                    key = f"{kind}: BFCL {'pass' if theirs else 'fail'}, ours {'PASS' if ours else 'not PASS'}"
                    differ[key] += 1
                    examples.setdefault(key, cid)
        rows.append({"category": category, "entries": len(entries), "imported": len(cases),
                     "skipped": len(imported.skipped), "exact_names": exact_names, "outputs": total,
                     "agree": agree, "comparable": comparable, "agree_comparable": agree_comparable,
                     "not_comparable": dict(apart), "differ": dict(differ.most_common()), "examples": examples})
    return rows


def _total(rows: list[dict]) -> dict:
    keys = ("entries", "imported", "skipped", "exact_names", "outputs", "agree", "comparable", "agree_comparable")
    return {"category": "all", **{k: sum(r[k] for r in rows) for k in keys}}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bfcl_root", type=Path, help="the unpacked bfcl-eval wheel (holds bfcl_eval/)")
    parser.add_argument("--category", default=",".join(CATEGORIES))
    parser.add_argument("--limit", type=int)
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    args = parser.parse_args()
    categories = [c for c in args.category.split(",") if c in CATEGORY_OF]
    rows = measure(args.bfcl_root, categories, args.limit)
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    print(f"{'category':<24}{'entries':>8}{'imported':>9}{'skipped':>8}{'BFCL names':>11}{'outputs':>9}{'agree':>8}"
          f"{'%':>8}{'comparable':>11}{'agree':>8}{'%':>8}")
    for r in rows + [_total(rows)]:
        print(f"{r['category']:<24}{r['entries']:>8}{r['imported']:>9}{r['skipped']:>8}{r['exact_names']:>11}"
              f"{r['outputs']:>9}{r['agree']:>8}{100 * r['agree'] / max(r['outputs'], 1):>8.2f}"
              f"{r['comparable']:>11}{r['agree_comparable']:>8}{100 * r['agree_comparable'] / max(r['comparable'], 1):>8.2f}")
    for r in rows:
        for key, n in r["differ"].items():
            print(f"  {r['category']}: {n} x {key} (e.g. {r['examples'][key]})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
