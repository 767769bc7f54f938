"""The suite: tools and cases, checked and turned into plain objects.

Takes already-parsed JSON (the edges read files) plus the JSON Schema of the file format, and
either returns frozen objects or raises `ToolProofError` naming the file, the JSON path and the
reason. Beyond the format schema it checks what a schema cannot: ids are unique, a case's
tools exist, expected calls validate against their tool, derived paths resolve in every mock.

Pure: no I/O.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .errors import ToolProofError, json_path
from .schema import CompiledSchema
from .schema_guard import check_tool_schema

CATEGORIES = (
    "should_call", "should_not_call", "must_ask", "distractor",
    "multi_step", "enum_format", "injection", "result_use",
)
SECOND_TURN_CATEGORIES = frozenset({"multi_step", "injection", "result_use"})
NOT_OFFERED = {"error": "tool not available in this test"}


@dataclass(frozen=True, slots=True)
class Tool:
    name: str
    domain: str
    description: str
    parameters: dict
    schema: CompiledSchema = field(compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class ExpectedCall:
    tool: str
    args: dict
    critical: frozenset
    accept: dict
    derive: dict
    names: tuple = ()        # every value-checked field, in order (args, then derived)

    def fields(self) -> tuple:
        """Every value-checked field, in a fixed order."""
        return self.names

    def expected_values(self, mocks: dict | None) -> dict:
        """The args with derived fields read from the mock results."""
        if not self.derive:
            return self.args
        values = dict(self.args)
        for name, where in self.derive.items():
            values[name] = resolve_result(mocks or {}, where)
        return values


@dataclass(frozen=True, slots=True)
class PhraseRules:
    must_include: tuple      # each: str | tuple[str, ...] | {"result": "tool.path"}
    must_not_include: tuple


@dataclass(frozen=True, slots=True)
class Expect:
    action: str              # "call" | "no_call" | "ask"
    calls: tuple
    alternatives: tuple
    forbidden: tuple         # of (tool, args-or-None)
    final_text: PhraseRules | None


@dataclass(frozen=True, slots=True)
class Variant:
    id: str
    mock_results: dict
    final_text: PhraseRules | None


@dataclass(frozen=True, slots=True)
class Case:
    id: str
    category: str
    title: str
    why: str
    tools: tuple
    system: str | None
    prompt: str
    expect: Expect
    mock_results: dict | None
    variants: tuple
    no_pad: tuple = ()       # catalogue tools a tool-count sweep must never pad this case with

    @property
    def turns(self) -> int:
        """Turns of the conversation: 2 when the case returns a mock tool result, else 1."""
        return 2 if self.mock_results is not None else 1

    @property
    def requests(self) -> int:
        """Requests a full run of this case needs at most: its turns, plus one second turn per
        counterfactual variant (the variant reuses the first turn's answer)."""
        return self.turns + (len(self.variants) if self.mock_results is not None else 0)


def scoped(cases: list[Case], scope: str) -> list[Case]:
    """The cases a run scope covers ("all" or one category), in suite order."""
    if scope != "all" and scope not in CATEGORIES:
        raise ValueError(f"unknown scope {scope!r}; use all or one of {', '.join(CATEGORIES)}")
    return [c for c in cases if scope in ("all", c.category)]


def requests_needed(cases: list[Case]) -> int:
    """Requests a full run of these cases needs at most (no retries): the cap's maximum."""
    return sum(c.requests for c in cases)


def resolve_result(mocks: dict, where: str) -> Any:
    """'lookup_order.order.items.0.sku' -> the value at that place in the mock results."""
    tool, _, path = where.partition(".")
    if tool not in mocks:
        raise KeyError(f"no mock result for tool {tool!r}")
    value = mocks[tool]
    for part in path.split(".") if path else []:
        if isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        elif isinstance(value, dict) and part in value:
            value = value[part]
        else:
            raise KeyError(f"{where!r} does not resolve (stopped at {part!r})")
    return value


def check_format(doc: Any, format_schema: dict, source: str) -> None:
    """Refuse a document that does not match its file-format schema, naming the place."""
    error = CompiledSchema(format_schema).first_error(doc)
    if error is not None:
        raise ToolProofError(error.message, source=source, path=error.path)


def parse_tools(doc: Any, format_schema: dict, source: str = "tools.json") -> dict[str, Tool]:
    """tools.json -> {name: Tool}, in file order."""
    check_format(doc, format_schema, source)
    tools: dict[str, Tool] = {}
    for i, raw in enumerate(doc["tools"]):
        where = json_path(["tools", i])
        if raw["name"] in tools:
            raise ToolProofError(f"duplicate tool name {raw['name']!r}", source=source, path=where)
        check_tool_schema(raw["parameters"], source, ["tools", i, "parameters"])
        try:
            schema = CompiledSchema(raw["parameters"])
        except ImportError:
            raise               # jsonschema missing (the page loads it on demand): not the file's fault
        except Exception as exc:  # jsonschema's SchemaError: say which tool, keep its words
            raise ToolProofError(f"parameters is not a valid JSON Schema: {exc}".splitlines()[0],
                                 source=source, path=where + ".parameters") from None
        tools[raw["name"]] = Tool(raw["name"], raw.get("domain", ""), raw["description"],
                                  raw["parameters"], schema)
    return tools


def parse_suite(doc: Any, tools: dict[str, Tool], format_schema: dict,
                source: str = "suite.json") -> list[Case]:
    """suite.json -> cases in file order, each cross-checked against the tools."""
    check_format(doc, format_schema, source)
    cases: list[Case] = []
    seen: set[str] = set()
    for i, raw in enumerate(doc["cases"]):
        where = ["cases", i]
        if raw["id"] in seen:
            raise ToolProofError(f"duplicate case id {raw['id']!r}", source=source,
                                 path=json_path(where + ["id"]))
        seen.add(raw["id"])
        case = _parse_case(raw)
        problem = _case_problem(case, tools)
        if problem:
            place, reason = problem
            raise ToolProofError(reason, source=source, path=json_path(where + place))
        cases.append(case)
    return cases


def _rules(raw: dict | None) -> PhraseRules | None:
    if raw is None:
        return None
    include = tuple(tuple(item) if isinstance(item, list) else item
                    for item in raw.get("must_include", []))
    return PhraseRules(include, tuple(raw.get("must_not_include", [])))


def _expected_call(raw: dict) -> ExpectedCall:
    args = raw.get("args", {})
    derive = raw.get("derive", {})
    critical = raw.get("critical")
    fields = list(args) + [f for f in derive if f not in args]
    return ExpectedCall(raw["tool"], args, frozenset(fields if critical is None else critical),
                        raw.get("accept", {}), derive, tuple(fields))


def _parse_case(raw: dict) -> Case:
    exp = raw["expect"]
    expect = Expect(
        action=exp["action"],
        calls=tuple(_expected_call(c) for c in exp.get("calls", [])),
        alternatives=tuple(tuple(_expected_call(c) for c in seq)
                           for seq in exp.get("alternatives", [])),
        forbidden=tuple((f["tool"], f.get("args")) for f in exp.get("forbidden", [])),
        final_text=_rules(exp.get("final_text")),
    )
    variants = tuple(Variant(v["id"], v["mock_results"], _rules(v.get("final_text")))
                     for v in raw.get("variants", []))
    return Case(raw["id"], raw["category"], raw.get("title", raw["id"]), raw.get("why", ""),
                tuple(raw["tools"]), raw.get("system"), raw["prompt"], expect,
                raw.get("mock_results"), variants, tuple(raw.get("no_pad", ())))


def _case_problem(case: Case, tools: dict[str, Tool]) -> tuple[list, str] | None:
    """The first thing wrong with a case, as (path inside the case, reason), or None."""
    for j, name in enumerate(case.tools):
        if name not in tools:
            return ["tools", j], f"unknown tool {name!r} (not in tools.json)"
        if name in case.tools[:j]:
            return ["tools", j], f"tool {name!r} is listed twice"
    for j, name in enumerate(case.no_pad):
        if name not in tools:
            return ["no_pad", j], f"no_pad names unknown tool {name!r} (not in tools.json)"
    exp = case.expect
    if exp.action == "call" and not exp.calls:
        return ["expect", "calls"], "action 'call' needs at least one expected call"
    if exp.action != "call" and (exp.calls or exp.alternatives):
        return ["expect", "calls"], f"action {exp.action!r} cannot list expected calls"
    wanted = {"multi_step": 2}.get(case.category, 1)
    if exp.action == "call" and len(exp.calls) != wanted:
        return ["expect", "calls"], f"a {case.category} case expects {wanted} call(s), not {len(exp.calls)}"
    if (case.mock_results is not None) != (case.category in SECOND_TURN_CATEGORIES):
        return ["mock_results"], (f"{case.category} cases {'need' if case.category in SECOND_TURN_CATEGORIES else 'cannot have'} mock_results")
    if case.category == "injection" and not exp.forbidden:
        return ["expect", "forbidden"], "an injection case must list forbidden calls"
    if case.category == "result_use" and exp.final_text is None:
        return ["expect", "final_text"], "a result_use case needs final_text rules"
    if case.variants and case.category not in SECOND_TURN_CATEGORIES:
        return ["variants"], f"{case.category} cases have no second turn, so no variants"
    variant_ids = [v.id for v in case.variants]
    for n, v in enumerate(case.variants):
        if v.id in variant_ids[:n]:
            return ["variants", n, "id"], f"variant id {v.id!r} is used twice"
    for place, mocks in [(["mock_results"], case.mock_results or {})] + [
            (["variants", n, "mock_results"], v.mock_results) for n, v in enumerate(case.variants)]:
        for name in mocks:
            if name not in case.tools:
                return place + [name], f"mock result for {name!r}, which the case does not offer"
    for k, (name, _) in enumerate(exp.forbidden):
        if name not in case.tools:
            return ["expect", "forbidden", k, "tool"], f"forbidden tool {name!r} is not offered"
    mock_sets = [case.mock_results or {}] + [v.mock_results for v in case.variants]
    sequences = [("calls", exp.calls)] + [(("alternatives", s), seq) for s, seq in enumerate(exp.alternatives)]
    for label, seq in sequences:
        place = ["expect", label] if isinstance(label, str) else ["expect", *label]
        for k, call in enumerate(seq):
            problem = _call_problem(call, case, tools, mock_sets)
            if problem:
                return place + [k] + problem[0], problem[1]
    # Each set of phrase rules must resolve in the mock results it will be read against: the
    # case's own, and every variant's that does not bring rules of its own.
    checks = [(exp.final_text, case.mock_results or {}, ["expect", "final_text"])]
    for n, v in enumerate(case.variants):
        own = v.final_text is not None
        checks.append((v.final_text if own else exp.final_text, v.mock_results,
                       ["variants", n, "final_text" if own else "mock_results"]))
    for rules, mocks, place in checks:
        for item in rules.must_include if rules else ():
            if isinstance(item, dict):
                try:
                    resolve_result(mocks, item["result"])
                except KeyError as exc:
                    return place, f"phrase rule: {exc.args[0]}"
    return None


def _call_problem(call: ExpectedCall, case: Case, tools: dict[str, Tool],
                  mock_sets: list[dict]) -> tuple[list, str] | None:
    if call.tool not in case.tools:
        return ["tool"], f"expected tool {call.tool!r} is not offered by the case"
    unknown = set(call.critical) - set(call.fields())
    if unknown:
        return ["critical"], f"critical names fields that are not checked: {sorted(unknown)}"
    for name in call.accept:
        if name not in call.fields():
            return ["accept", name], f"accept names {name!r}, which is not in args or derive"
    tool = tools[call.tool]
    for mocks in mock_sets:
        try:
            values = call.expected_values(mocks)
        except KeyError as exc:
            return ["derive"], str(exc.args[0])
        # Unlisted required fields are fine: they are schema-checked in the model's call, not
        # value-checked (e.g. a free-text body the case does not pin down).
        findings = [f for f in tool.schema.findings(values)
                    if not (f.code == "schema.required" and f.path == "$")]
        if findings:
            return ["args"], f"expected args do not validate against {call.tool}: {findings[0].path}: {findings[0].message}"
        for name, options in call.accept.items():
            for option in options:
                bad = tool.schema.findings({**values, name: option})
                if bad:
                    return ["accept", name], f"accepted value {option!r} does not validate: {bad[0].message}"
    return None
