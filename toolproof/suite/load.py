"""Loading the suite: tools and cases checked and turned into the objects of model.py.

Takes already-parsed JSON (the edges read files) plus the JSON Schema of the file format, and
either returns frozen objects or raises `ToolProofError` naming the file, the JSON path and the
reason. Beyond the format schema it checks what a schema cannot: ids are unique, a case's
tools exist, expected calls validate against their tool, derived paths resolve in every mock.

Pure: no I/O.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Iterator

from toolproof.errors import ToolProofError, json_path
from .schema import CompiledSchema
from .schema_guard import check_tool_schema
from .toolnames import wire_clash
from .categories import CATEGORY
from .model import (BASE, ENGLISH, PHRASING_ID, SECOND_TURN_CATEGORIES, Case, Expect, ExpectedCall,
                    Phrasing, Tool, Variant, value_at)
from . import text_rules

def check_format(doc: Any, format_schema: dict, source: str) -> None:
    """Refuse a document that does not match its file-format schema, naming the place."""
    error = CompiledSchema(format_schema).first_error(doc)
    if error is not None:
        raise ToolProofError(error.message, source=source, path=error.path)


Problem = tuple  # (JSON path, reason)


def _format_problems(doc: Any, format_schema: dict) -> list[Problem]:
    return [(f.path, f.message) for f in CompiledSchema(format_schema).findings(doc)]


def _items_with_problems(problems: list[Problem], key: str) -> set[int]:
    """Indexes of `$.<key>[i]` items some problem points into (a hostile file may have
    thousands: one pass, not one per item)."""
    prefix = f"$.{key}["
    found = set()
    for path, _ in problems:
        if path.startswith(prefix):
            index = path[len(prefix):].partition("]")[0]
            if index.isdigit():
                found.add(int(index))
    return found


def _raise_first(problems: list[Problem], source: str) -> None:
    if problems:
        path, reason = problems[0]
        raise ToolProofError(reason, source=source, path=path)


def parse_tools(doc: Any, format_schema: dict, source: str = "tools.json") -> dict[str, Tool]:
    """tools.json -> {id: Tool}, in file order (an entry's id is its name unless it gives one)."""
    check_format(doc, format_schema, source)
    tools, problems = load_tools(doc, format_schema, source, checked=True)
    _raise_first(problems, source)
    return tools


def load_tools(doc: Any, format_schema: dict, source: str = "tools.json", *,
               checked: bool = False) -> tuple[dict[str, Tool], list[Problem]]:
    """Every tool that loads, and every problem found (path, reason), in file order: what
    `suite validate` lists. `checked`: the format schema was already applied."""
    problems = [] if checked else _format_problems(doc, format_schema)
    tools: dict[str, Tool] = {}
    items = doc.get("tools") if isinstance(doc, dict) else None
    malformed = _items_with_problems(problems, "tools")
    for i, raw in enumerate(items if isinstance(items, list) else []):
        where = json_path(["tools", i])
        if i in malformed:
            continue
        tool_id = raw.get("id", raw["name"])
        if tool_id in tools:
            problems.append((where + ".id", f"duplicate tool id {tool_id!r}") if "id" in raw else
                            (where, f"duplicate tool name {tool_id!r} (give entries that share a name an id)"))
            continue
        try:
            check_tool_schema(raw["parameters"], source, ["tools", i, "parameters"])
            schema = CompiledSchema(raw["parameters"])
        except ImportError:
            raise               # jsonschema missing (the page loads it on demand): not the file's fault
        except ToolProofError as exc:
            problems.append((exc.path, exc.reason))
            continue
        except Exception as exc:  # jsonschema's SchemaError: say which tool, keep its words
            problems.append((where + ".parameters",
                             f"parameters is not a valid JSON Schema: {exc}".splitlines()[0]))
            continue
        tools[tool_id] = Tool(raw["name"], raw.get("domain", ""), raw["description"],
                              raw["parameters"], schema, tool_id)
    return _labelled(tools), problems


def _labelled(tools: dict[str, Tool]) -> dict[str, Tool]:
    """Each entry with its label: the name, plus the id where another entry shares the name."""
    count: dict[str, int] = {}
    for tool in tools.values():
        count[tool.name] = count.get(tool.name, 0) + 1
    return {i: replace(t, label=t.name if count[t.name] == 1 else f"{t.name} [{i}]")
            for i, t in tools.items()}


def parse_suite(doc: Any, tools: dict[str, Tool], format_schema: dict,
                source: str = "suite.json") -> list[Case]:
    """suite.json -> cases in file order, each cross-checked against the tools."""
    check_format(doc, format_schema, source)
    cases, problems = load_suite(doc, tools, format_schema, checked=True, first_only=True)
    _raise_first(problems, source)
    return cases


def load_suite(doc: Any, tools: dict[str, Tool], format_schema: dict, *, checked: bool = False,
               first_only: bool = False) -> tuple[list[Case], list[Problem]]:
    """Every case that loads, and every problem found (path, reason), in file order. A case
    whose format is wrong is not checked further. `first_only` stops at the first problem."""
    problems = [] if checked else _format_problems(doc, format_schema)
    cases: list[Case] = []
    seen: set[str] = set()
    items = doc.get("cases") if isinstance(doc, dict) else None
    malformed = _items_with_problems(problems, "cases")
    concepts = text_rules.concepts_of(doc) if not any(p.startswith("$.concepts") for p, _ in problems) else {}
    problems.extend((json_path(place), reason) for place, reason in text_rules.concept_problems(doc))
    if first_only and problems:
        return cases, problems
    for i, raw in enumerate(items if isinstance(items, list) else []):
        where = ["cases", i]
        if i in malformed:
            continue
        found = []
        if raw["id"] in seen:
            found.append((json_path(where + ["id"]), f"duplicate case id {raw['id']!r}"))
        seen.add(raw["id"])
        case = _parse_case(raw, concepts)
        for place, reason in [*_case_problems(case, tools), *_text_problems(raw, case, concepts)]:
            found.append((json_path(where + place), reason))
            if first_only:
                break
        problems.extend(found)
        if first_only and problems:
            return cases, problems
        if not found:
            cases.append(case)
    return cases, problems


def _expected_call(raw: dict, concepts: dict) -> ExpectedCall:
    args = raw.get("args", {})
    derive = raw.get("derive", {})
    text = {name: text_rules.rules(r, concepts) for name, r in raw.get("text", {}).items()}
    critical = raw.get("critical")
    fields = list(args) + [f for f in derive if f not in args] + [f for f in text if f not in args and f not in derive]
    return ExpectedCall(raw["tool"], args, frozenset(fields if critical is None else critical),
                        raw.get("accept", {}), derive, tuple(fields),
                        frozenset(raw.get("optional", ())), frozenset(raw.get("absent", ())),
                        raw.get("exact", False), frozenset(raw.get("loose", ())), text,
                        frozenset(raw.get("unordered", ())))


def _parse_case(raw: dict, concepts: dict | None = None) -> Case:
    concepts = concepts or {}
    exp = raw["expect"]
    expect = Expect(
        action=exp["action"],
        calls=tuple(_expected_call(c, concepts) for c in exp.get("calls", [])),
        alternatives=tuple(tuple(_expected_call(c, concepts) for c in seq)
                           for seq in exp.get("alternatives", [])),
        forbidden=tuple((f["tool"], f.get("args")) for f in exp.get("forbidden", [])),
        final_text=text_rules.rules(exp.get("final_text"), concepts),
        order=exp.get("order", "sequence"),
    )
    variants = tuple(Variant(v["id"], v["mock_results"], text_rules.rules(v.get("final_text"), concepts))
                     for v in raw.get("variants", []))
    return Case(raw["id"], raw["category"], raw.get("title", raw["id"]), raw.get("why", ""),
                tuple(raw["tools"]), raw.get("system"), raw["prompt"], expect,
                raw.get("mock_results"), variants, tuple(raw.get("no_pad", ())),
                tuple(Phrasing(p["id"], p["prompt"], p["why"], p.get("lang", ENGLISH))
                      for p in raw.get("phrasings", [])), raw.get("lang", ENGLISH))


def _case_problems(case: Case, tools: dict[str, Tool]) -> Iterator[tuple[list, str]]:
    """Everything wrong with a case, as (path inside the case, reason)."""
    offered = []
    for j, name in enumerate(case.tools):
        if name not in tools:
            yield ["tools", j], f"unknown tool {name!r} (not in tools.json)"
        elif name in case.tools[:j]:
            yield ["tools", j], f"tool {name!r} is listed twice"
        else:
            offered.append(name)
    clash = wire_clash((i, tools[i].name) for i in offered)
    if clash:
        first, second, wire = clash
        yield ["tools", case.tools.index(second)], (
            f"tools {first!r} and {second!r} both reach providers as {wire!r} (characters outside "
            "A-Z a-z 0-9 _ - become _), so a reply could not tell them apart: offer one of them")
    for j, name in enumerate(case.no_pad):
        if name not in tools:
            yield ["no_pad", j], f"no_pad names unknown tool {name!r} (not in tools.json)"
    exp = case.expect
    if exp.action == "call" and not exp.calls:
        yield ["expect", "calls"], "action 'call' needs at least one expected call"
    if exp.action != "call" and (exp.calls or exp.alternatives):
        yield ["expect", "calls"], f"action {exp.action!r} cannot list expected calls"
    if exp.action != "call" and exp.order != "sequence":
        yield ["expect", "order"], f"action {exp.action!r} has no calls to order"
    if case.category == "multi_step" and exp.action == "call" and len(exp.calls) < 2:
        yield ["expect", "calls"], f"a multi_step case expects at least 2 calls, not {len(exp.calls)}"
    if (case.mock_results is not None) != (case.category in SECOND_TURN_CATEGORIES):
        yield ["mock_results"], (f"{case.category} cases {'need' if case.category in SECOND_TURN_CATEGORIES else 'cannot have'} mock_results")
    if CATEGORY[case.category].attacked and not exp.forbidden:
        yield ["expect", "forbidden"], f"an {case.category} case must list forbidden calls"
    yield from _new_category_problems(case)
    if case.category == "result_use" and exp.final_text is None:
        yield ["expect", "final_text"], "a result_use case needs final_text rules"
    if case.variants and case.category not in SECOND_TURN_CATEGORIES:
        yield ["variants"], f"{case.category} cases have no second turn, so no variants"
    variant_ids = [v.id for v in case.variants]
    for n, v in enumerate(case.variants):
        if v.id in variant_ids[:n]:
            yield ["variants", n, "id"], f"variant id {v.id!r} is used twice"
    for place, mocks in [(["mock_results"], case.mock_results or {})] + [
            (["variants", n, "mock_results"], v.mock_results) for n, v in enumerate(case.variants)]:
        for name in mocks:
            if name not in case.tools:
                yield place + [name], f"mock result for {name!r}, which the case does not offer"
    for k, (name, _) in enumerate(exp.forbidden):
        if name not in case.tools:
            yield ["expect", "forbidden", k, "tool"], f"forbidden tool {name!r} is not offered"
    mock_sets = [case.mock_results or {}] + [v.mock_results for v in case.variants]
    sequences = [("calls", exp.calls)] + [(("alternatives", s), seq) for s, seq in enumerate(exp.alternatives)]
    for label, seq in sequences:
        place = ["expect", label] if isinstance(label, str) else ["expect", *label]
        for k, call in enumerate(seq):
            problem = _call_problem(call, case, tools, mock_sets)
            if problem:
                yield place + [k] + problem[0], problem[1]
    yield from _phrasing_problems(case)


def _new_category_problems(case: Case) -> Iterator[tuple[list, str]]:
    """What parallel, cannot_do and crowded cases need beyond the format (docs/grading.md)."""
    exp, category = case.expect, case.category
    wanted = CATEGORY[category].action
    if category in ("parallel", "cannot_do", "crowded") and exp.action != wanted:
        yield ["expect", "action"], f"a {category} case expects action {wanted!r}, not {exp.action!r}"
    elif category == "parallel":
        if exp.order != "any":
            yield ["expect", "order"], ('a parallel case\'s calls are independent: set order to "any", '
                                        f"not {exp.order!r}")
        if len(exp.calls) < 2:
            yield ["expect", "calls"], f"a parallel case expects at least 2 independent calls, not {len(exp.calls)}"
    elif category == "cannot_do":
        rules = exp.final_text
        if rules is None or rules.declines is not True:
            yield ["expect", "final_text", "declines"], ("a cannot_do case needs final_text.declines true "
                                                         "(the right answer says the capability is missing)")
        elif not rules.must_include:
            yield ["expect", "final_text", "must_include"], ("a cannot_do case's final_text.must_include "
                                                             "names the missing capability")


def _phrasing_problems(case: Case) -> Iterator[tuple[list, str]]:
    """Phrasing ids: the schema's pattern, "base" reserved, each once; a prompt and a why that
    say something (the schema bounds their count and size)."""
    seen: set = set()
    for n, p in enumerate(case.phrasings):
        if p.id == BASE:
            yield ["phrasings", n, "id"], ('phrasing id "base" is reserved for the case\'s own prompt; '
                                           "give this phrasing another id")
        elif not PHRASING_ID.fullmatch(p.id):
            yield ["phrasings", n, "id"], (f"phrasing id {p.id!r}: use 1-40 lowercase letters, digits "
                                           "and hyphens, starting with a letter or digit")
        elif p.id in seen:
            yield ["phrasings", n, "id"], f"phrasing id {p.id!r} is used twice"
        seen.add(p.id)
        if not p.prompt.strip():
            yield ["phrasings", n, "prompt"], "a phrasing's prompt is empty (only spaces)"
        elif p.prompt == case.prompt:
            yield ["phrasings", n, "prompt"], "this phrasing repeats the case's prompt word for word"
        if not p.why.strip():
            yield ["phrasings", n, "why"], "say why this phrasing is worth testing (why is empty)"


def _text_problems(raw: dict, case: Case, concepts: dict) -> Iterator[tuple[list, str]]:
    """The text rules (final_text, and calls' text): their items and detail names, and each
    {"result"} resolving in the mock results it will be read against: the case's own, and
    every variant's that does not bring rules of its own."""
    exp = raw["expect"]
    own = [(exp.get("final_text"), ["expect", "final_text"])]
    sequences = [(["expect", "calls"], exp.get("calls", []))] + [
        (["expect", "alternatives", s], seq) for s, seq in enumerate(exp.get("alternatives", []))]
    for place, seq in sequences:
        for k, call in enumerate(seq):
            for name, rules in call.get("text", {}).items():
                own.append((rules, place + [k, "text", name]))
                if name in call.get("args", {}) or name in call.get("derive", {}):
                    yield place + [k, "text", name], (f"{name!r} is judged by its text rules, so it "
                                                      "cannot also be in args or derive")
    variants = raw.get("variants", [])
    own += [(v.get("final_text"), ["variants", n, "final_text"]) for n, v in enumerate(variants)]
    for rules, place in own:
        for path, reason in text_rules.rule_problems(rules, concepts):
            yield place + path, reason
    for rules, place in own[:-len(variants) or None]:
        for path, reason in text_rules.result_problems(rules, case.mock_results or {}):
            yield place + path, reason
            break
    for n, v in enumerate(variants):
        mine = v.get("final_text")
        rules = mine if mine is not None else exp.get("final_text")
        for path, reason in text_rules.result_problems(rules, v["mock_results"]):
            if mine is not None:
                yield ["variants", n, "final_text"] + path, reason
            else:
                yield ["variants", n, "mock_results"], f"expect.final_text.{json_path(path)[2:]}: {reason}"
            break


def _with_value(values: dict, key: str, new: Any) -> dict:
    """A copy of the values with the field or dotted key set to `new` (it must exist)."""
    if key in values or "." not in key:
        return {**values, key: new}
    head, _, rest = key.partition(".")
    if head in values:
        return {**values, head: _with_value(values[head], rest, new)}
    return values


def _v2_problem(call: ExpectedCall, values: dict) -> tuple[list, str] | None:
    """What is wrong with a call's optional, absent, loose, unordered and dotted accept keys."""
    fields = set(call.fields())
    for name in sorted(call.optional):
        if name not in fields and not value_at(values, name)[0]:
            return ["optional"], f"optional names {name!r}, which is not in args or derive"
    for name in sorted(call.absent):
        if name in fields:
            return ["absent"], f"absent names {name!r}, which args or derive expect"
        if "." in name:         # checked on top-level arguments only: a dotted name would never fail
            return ["absent"], f"absent takes top-level argument names, not the path {name!r}"
    for name in sorted(call.loose):
        if name not in fields:
            return ["loose"], f"loose names {name!r}, which is not in args or derive"
    for name in sorted(call.unordered):
        found, value = value_at(values, name)
        if not found:
            return ["unordered"], f"unordered names {name!r}, which is not in args or derive (or a key inside them)"
        if not isinstance(value, list):
            return ["unordered"], f"unordered names {name!r}, whose expected value is not a list"
    for name in call.accept:
        if name not in fields and not value_at(values, name)[0]:
            return ["accept", name], f"accept names {name!r}, which is not in args or derive (or a key inside them)"
    return None


def _call_problem(call: ExpectedCall, case: Case, tools: dict[str, Tool],
                  mock_sets: list[dict]) -> tuple[list, str] | None:
    if call.tool not in case.tools:
        return ["tool"], f"expected tool {call.tool!r} is not offered by the case"
    if call.tool not in tools:
        return None             # the case's tools list already says it is unknown
    unknown = set(call.critical) - set(call.fields())
    if unknown:
        return ["critical"], f"critical names fields that are not checked: {sorted(unknown)}"
    tool = tools[call.tool]
    for mocks in mock_sets:
        try:
            values = call.expected_values(mocks)
        except KeyError as exc:
            return ["derive"], str(exc.args[0])
        problem = _v2_problem(call, values)
        if problem:
            return problem
        # Unlisted required fields are fine: they are schema-checked in the model's call, not
        # value-checked (e.g. a free-text body the case does not pin down).
        findings = _value_findings(tool, values)
        if findings:
            return ["args"], f"expected args do not validate against {call.tool}: {findings[0].path}: {findings[0].message}"
        for name, options in call.accept.items():
            for option in options:
                bad = _value_findings(tool, _with_value(values, name, option))
                if bad:
                    return ["accept", name], f"accepted value {option!r} does not validate: {bad[0].message}"
    return None


def _value_findings(tool: Tool, values: dict) -> list:
    """Schema findings of expected values, leaving out required fields the case does not list."""
    return [f for f in tool.schema.findings(values)
            if not (f.code == "schema.required" and f.path == "$")]
